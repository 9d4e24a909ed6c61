"""Opendaum, classic (koloda/rules/opendaum.en.md §Precisely 1–9), and the helpers the other
Opendaum tests share."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import koloda
from koloda.cards import CARD_TEXT, deck, parse_card, parse_cards
from koloda.engine.deal import Deal
from koloda.engine.errors import ConfigError, IllegalAction
from koloda.engine.records import from_record, replay
from koloda.games.opendaum import CLASSIC, OpendaumDeal, Variant, deal_points, schedule
from koloda.games.opendaum.match import OpendaumMatch, trick_rules
from tests.conftest import RECORDS

# ------------------------------------------------------------------ helpers


def position(variant: Variant, hands: list[str], trump_card: str, *, dealer: int = 0,
             stock: str | None = None, options: dict[str, Any] | None = None,
             bids: list[int] | None = None, plays: list[str] | None = None) -> OpendaumDeal:
    """A deal with the given hands (``"AS 7H"`` per seat) and trump card; ``bids`` (default
    all 0) are made from the dealer's left, then ``plays`` in turn. The stock defaults to
    the trump card alone, or nothing when the trump card is in the dealer's hand."""
    opts = {"ruff_only_when_only_trumps": True} | (options or {})
    hs = tuple(tuple(parse_cards(h)) for h in hands)
    tc = parse_card(trump_card)
    if stock is None:
        st: tuple[int, ...] = () if any(tc in h for h in hs) else (tc,)
    else:
        st = tuple(parse_cards(stock))
    rules = trick_rules(variant, opts)[tc // 13]
    state = OpendaumDeal(Deal(dealer, hs, st, tc), rules, variant.hook)
    for b in bids if bids is not None else [0] * len(hands):
        state.apply(f"bid {b}")
    for p in plays or []:
        state.apply(p)
    return state


def make_record(game: str, players: int, deals: list[dict[str, Any]], actions: list[str],
                options: dict[str, Any] | None = None, deck_size: int | None = None
                ) -> dict[str, Any]:
    """A koloda-record/1 with explicit deals given as ``{"dealer", "hands", "trump_card"}``:
    the stock is the turned trump card, then the rest of the deck in card order. Each
    action's seat is filled in as the seat to move (so a test writes only the actions)."""
    full = deck(deck_size or CLASSIC.decks[players])
    out = []
    for d in deals:
        hands = [h.split() for h in d["hands"]]
        held = {parse_card(c) for h in hands for c in h}
        tc = parse_card(d["trump_card"])
        stock = ([] if tc in held else [tc]) + [c for c in full if c not in held and c != tc]
        out.append({"dealer": d["dealer"], "hands": hands,
                    "stock": [CARD_TEXT[c] for c in stock], "trump_card": d["trump_card"]})
    rec: dict[str, Any] = {
        "format": "koloda-record/1", "game": game, "players": players,
        "options": options or {}, "seed": None, "first_dealer": out[0]["dealer"],
        "deals": out, "actions": [], "result": None}
    m = from_record(rec)
    for a in actions:
        rec["actions"].append({"seat": m.to_move, "action": a})
        m.apply(a)
    return rec


def play_out(match: koloda.Match, seed: int = 0) -> koloda.Match:
    rng = random.Random(seed)
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    return match


# ------------------------------------------------------------ deck and schedule

@pytest.mark.parametrize(("players", "size"), [(2, 32), (3, 36), (4, 36), (5, 30), (6, 36)])
def test_deck_by_player_count(players: int, size: int) -> None:
    m = koloda.new_game("opendaum", players=players, seed=1)
    d = m.deals[0]
    assert sorted([*(c for h in d.hands for c in h), *d.stock]) == list(deck(size))


FIVE_PLAYER_DECK = ("6S 8S 9S TS JS QS KS AS  6C 8C 9C TC JC QC KC AC  "
                    "8D 9D TD JD QD KD AD  8H 9H TH JH QH KH AH")


@pytest.mark.parametrize("game", ["opendaum", "opendaum-shakhi"])
def test_five_players_deck_is_30_cards_36_less_the_red_sixes_and_the_four_sevens(
        game: str) -> None:
    """koloda/rules/conventions.en.md §Precisely 5: «впятером — 30 листов (без двух
    шестерок)» with the count kept — 36 less 6H, 6D and the four sevens, one deck for both
    variants; 30 / 5 = 6 each, so the middle deals deal the whole deck and the dealer's last
    card turns trump."""
    expected = sorted(parse_cards(FIVE_PLAYER_DECK))
    assert len(expected) == 30
    m = koloda.new_game(game, players=5, seed=3)
    assert isinstance(m, OpendaumMatch) and sorted(m.deck) == expected
    d = m.deals[0]
    assert sorted([*(c for h in d.hands for c in h), *d.stock]) == expected
    assert list(schedule(30 // 5, 5)) == [1, 2, 3, 4, 5, 6, 6, 6, 6, 6, 5, 4, 3, 2, 1]
    full = koloda.new_game(game, players=5, seed=4, start_deal=5).deals[0]   # 6 cards each
    assert full.stock == () and [len(h) for h in full.hands] == [6] * 5
    assert full.trump_card == full.hands[full.dealer][-1]
    assert sorted(c for h in full.hands for c in h) == expected


def test_deck_of_32_is_allowed_only_with_four_players() -> None:
    m = koloda.new_game("opendaum", players=4, seed=1, deck=32)
    assert len(m.deals[0].stock) + 4 == 32
    for players in (2, 3, 5, 6):
        other = 36 if players == 2 else 32
        with pytest.raises(ConfigError, match="deck"):
            koloda.new_game("opendaum", players=players, seed=1, deck=other)


@pytest.mark.parametrize(("players", "size", "expected"), [
    (2, 32, [*range(1, 16), 16, 16, *range(15, 0, -1)]),
    (3, 36, [*range(1, 12), 12, 12, 12, *range(11, 0, -1)]),
    (4, 32, [*range(1, 8), 8, 8, 8, 8, *range(7, 0, -1)]),
    (4, 36, [*range(1, 9), 9, 9, 9, 9, *range(8, 0, -1)]),
    (5, 30, [*range(1, 6), 6, 6, 6, 6, 6, *range(5, 0, -1)]),
    (6, 36, [*range(1, 6), *[6] * 6, *range(5, 0, -1)]),
])
def test_deal_schedule_for_every_player_count_and_deck(players: int, size: int,
                                                       expected: list[int]) -> None:
    assert list(schedule(size // players, players)) == expected
    m = play_out(koloda.new_game("opendaum", players=players, seed=7, deck=size))
    assert [len(d.hands[0]) for d in m.deals] == expected
    assert m.result is not None and not m.result.capped


def test_three_players_play_25_deals() -> None:
    m = play_out(koloda.new_game("opendaum", players=3, seed=3))
    assert len(m.deals) == 25
    assert [len(d.hands[0]) for d in m.deals][10:15] == [11, 12, 12, 12, 11]


def test_dealer_moves_one_seat_left_each_deal() -> None:
    m = play_out(koloda.new_game("opendaum", players=4, seed=5, max_deals=6))
    first = m.deals[0].dealer
    assert [d.dealer for d in m.deals] == [(first + i) % 4 for i in range(6)]


def test_max_deals_caps_the_match_with_standings_as_they_are() -> None:
    m = play_out(koloda.new_game("opendaum", players=3, seed=2, max_deals=4))
    assert m.result is not None and m.result.capped and len(m.deals) == 4
    totals = [sum(r["points"][s] for r in m.sheet()["deals"]) for s in range(3)]
    assert list(m.result.scores) == totals
    assert list(m.result.winners) == [s for s in range(3) if totals[s] == max(totals)]


def test_match_ends_after_the_schedule() -> None:
    m = koloda.new_game("opendaum", players=4, seed=2, start_deal=18)
    play_out(m)
    assert len(m.deals) == 2 and m.result is not None and not m.result.capped
    assert m.next_dealer() is None


def test_start_deal_beyond_the_schedule_is_refused() -> None:
    with pytest.raises(ConfigError, match="start_deal"):
        koloda.new_game("opendaum", players=3, seed=1, start_deal=25)
    with pytest.raises(ConfigError, match="start_deal"):
        koloda.new_game("opendaum", players=4, seed=1, deck=32, start_deal=18)


# ----------------------------------------------------------------------- trump

def test_trump_is_the_turned_top_card_of_the_stock() -> None:
    m = koloda.new_game("opendaum", players=3, seed=11, start_deal=4)
    d = m.deals[0]
    assert d.trump_card == d.stock[0]
    obs = m.observation(0)
    assert obs["trump_card"] == CARD_TEXT[d.stock[0]]
    assert obs["trump"] == "SCDH"[d.stock[0] // 13]
    assert d.stock[0] not in m.hidden_from(1)
    assert set(d.stock[1:]) <= m.hidden_from(1)


def test_whole_deck_dealt_trump_is_the_dealers_last_card_and_the_dealer_keeps_it() -> None:
    m = koloda.new_game("opendaum", players=3, seed=12, start_deal=11)   # 12 cards each
    d = m.deals[0]
    assert d.stock == () and d.trump_card == d.hands[d.dealer][-1]
    st = m.current
    assert isinstance(st, OpendaumDeal)
    assert d.trump_card in st.hands[d.dealer] and len(st.hands[d.dealer]) == 12
    assert st.rules.trump == d.trump_card // 13
    # shown to everyone: public, not hidden, though it is in the dealer's hand
    for seat in range(3):
        assert m.observation(seat)["trump_card"] == CARD_TEXT[d.trump_card]
        assert d.trump_card not in m.hidden_from(seat)
    other = (d.dealer + 1) % 3
    assert set(st.hands[d.dealer]) - {d.trump_card} <= m.hidden_from(other)


def test_record_deal_whose_trump_card_is_not_the_dealers_last_card_is_refused() -> None:
    m = koloda.new_game("opendaum", players=3, seed=12, start_deal=11)
    rec = m.record()
    rec["deals"][0]["trump_card"] = rec["deals"][0]["hands"][rec["deals"][0]["dealer"]][0]
    out = replay(rec)
    assert out.error is not None and "trump_card" in out.error["reason"]


# ------------------------------------------------------------------------ bids

def test_bidding_starts_left_of_the_dealer_and_the_dealer_bids_last() -> None:
    st = position(CLASSIC, ["AS 7H", "KH 9D", "6H TD"], "QS", dealer=1, bids=[])
    order = []
    for _ in range(3):
        order.append(st.to_move)
        st.apply("bid 0")
    assert order == [2, 0, 1]
    assert st.phase == "play"


def test_bid_is_a_whole_number_from_zero_to_the_cards_in_hand() -> None:
    st = position(CLASSIC, ["AS 7H", "KH 9D", "6H TD"], "QS", bids=[])
    assert st.legal_actions() == ["bid 0", "bid 1", "bid 2"]
    with pytest.raises(IllegalAction, match=r"0\.\.2, the cards in your hand"):
        st.apply("bid 3")


def test_classic_has_no_hook_rule() -> None:
    st = position(CLASSIC, ["AS 7H", "KH 9D", "6H TD"], "QS", bids=[1, 1])
    assert st.to_move == 0 and st.legal_actions() == ["bid 0", "bid 1", "bid 2"]


def test_bids_are_public() -> None:
    st = position(CLASSIC, ["AS 7H", "KH 9D", "6H TD"], "QS", bids=[2, 1])
    for seat in range(3):
        assert st.observation(seat)["bids"] == [None, 2, 1]


def test_no_play_before_the_bidding_ends() -> None:
    st = position(CLASSIC, ["AS 7H", "KH 9D", "6H TD"], "QS", bids=[1])
    with pytest.raises(IllegalAction, match="bidding comes first"):
        st.apply("play 6H")


# ------------------------------------------------------------------------ play

def test_left_of_the_dealer_leads_the_first_trick_and_the_winner_the_next() -> None:
    st = position(CLASSIC, ["AH 7S", "KH 9D", "6H TD"], "QS", dealer=0)
    assert st.to_move == 1
    st.apply("play KH")
    st.apply("play 6H")
    st.apply("play AH")
    assert st.last_winner == 0 and st.to_move == 0 and st.tricks == [1, 0, 0]


def test_must_follow_the_led_suit() -> None:
    st = position(CLASSIC, ["AH 7S", "KH 9D", "6H TD"], "QS", plays=["play KH", "play 6H"])
    assert st.legal_actions() == ["play AH"]
    with pytest.raises(IllegalAction, match="must follow hearts: you hold AH"):
        st.apply("play 7S")


def test_void_in_the_led_suit_must_play_a_trump() -> None:
    st = position(CLASSIC, ["AD 7S", "KH 9D", "6H TD"], "QS", plays=["play KH", "play 6H"])
    assert st.legal_actions() == ["play 7S"]
    with pytest.raises(IllegalAction, match="void in hearts, must play a trump: you hold 7S"):
        st.apply("play AD")


def test_void_of_the_led_suit_and_trumps_may_play_any_card() -> None:
    st = position(CLASSIC, ["AD 7C", "KH 9D", "6H TD"], "QS", plays=["play KH", "play 6H"])
    assert st.legal_actions() == ["play 7C", "play AD"]


def test_highest_trump_wins_the_trick_else_the_highest_of_the_led_suit() -> None:
    st = position(CLASSIC, ["AD 7S", "KH 9D", "AH TD"], "QS", plays=["play KH", "play AH",
                                                                    "play 7S"])
    assert st.last_winner == 0
    st = position(CLASSIC, ["AD 7C", "KH 9D", "AH TD"], "QS", plays=["play KH", "play AH",
                                                                    "play AD"])
    assert st.last_winner == 2


def test_the_deal_ends_when_the_hands_are_empty() -> None:
    st = position(CLASSIC, ["AH", "KH", "6H"], "QS", plays=["play KH", "play 6H", "play AH"])
    assert st.is_over and st.to_move is None and st.legal_actions() == []


def test_shakha_words_are_refused_in_the_classic_game() -> None:
    st = position(CLASSIC, ["AH 6C", "KH 9D", "6H TD"], "QS")
    st.apply("play KH")
    st.apply("play 6H")
    with pytest.raises(IllegalAction, match="only a shakha"):
        st.apply("play 6C wild")


# --------------------------------------------------------------------- scoring

@pytest.mark.parametrize(("bid", "taken", "points"), [
    (0, 0, 5), (1, 1, 10), (3, 3, 20), (12, 12, 65), (2, 0, 0), (2, 1, 1), (1, 3, 3),
    (0, 2, 2)])
def test_scoring_made_bid_5_times_bid_plus_5_else_1_per_trick(bid: int, taken: int,
                                                              points: int) -> None:
    assert deal_points(bid, taken, False, CLASSIC, False) == points


def test_classic_final_deal_scores_like_any_other() -> None:
    assert deal_points(1, 1, True, CLASSIC, True) == 10
    assert deal_points(1, 0, True, CLASSIC, True) == 0


def test_highest_total_wins_and_ties_share() -> None:
    m = koloda.new_game("opendaum", players=3, seed=1, start_deal=24)   # one card each
    d = m.deals[0]
    # everybody bids 0; exactly one seat takes the trick: the other two tie on 5
    for _ in range(3):
        m.apply("bid 0")
    play_out(m)
    assert m.result is not None
    taker = next(s for s in range(3) if m.result.scores[s] == 1)
    assert sorted(m.result.winners) == sorted(set(range(3)) - {taker})
    assert list(m.result.losers) == [taker]
    assert d.dealer in range(3)


# ------------------------------------------------------------ what a seat sees

def test_observation_shows_the_own_hand_and_only_public_facts() -> None:
    st = position(CLASSIC, ["AH 7S", "KH 9D", "6H TD"], "QS", bids=[1, 0, 1],
                  plays=["play KH"])
    obs = st.observation(2)
    assert obs["hand"] == ["TD", "6H"] or obs["hand"] == ["6H", "TD"]
    assert obs["hand_sizes"] == [2, 1, 2]
    assert obs["trick"] == [[1, "KH"]] and obs["leader"] == 1
    assert obs["bids"] == [1, 1, 0] and obs["tricks_taken"] == [0, 0, 0]
    assert obs["trump_card"] == "QS" and obs["trump"] == "S"
    assert "AH" not in json.dumps(dict(obs)) and "7S" not in json.dumps(dict(obs))
    assert st.hidden_from(2) == set(parse_cards("AH 7S 9D"))


def test_the_last_completed_trick_is_shown_with_its_winner() -> None:
    st = position(CLASSIC, ["AH 7S", "KH 9D", "6H TD"], "QS",
                  plays=["play KH", "play 6H", "play AH"])
    assert st.observation(1)["last_trick"] == {"cards": [[1, "KH"], [2, "6H"], [0, "AH"]],
                                               "winner": 0}
    assert st.observation(1)["trick"] == [] and st.observation(1)["tricks_taken"] == [1, 0, 0]


def test_the_sheet_keeps_bids_tricks_and_points_per_deal() -> None:
    m = koloda.new_game("opendaum", players=3, seed=4, max_deals=2)
    play_out(m)
    sheet = m.sheet()
    assert [r["cards"] for r in sheet["deals"]] == [1, 2]
    for r in sheet["deals"]:
        assert r["points"] == [deal_points(b, t, False, CLASSIC, False)
                               for b, t in zip(r["bids"], r["tricks"], strict=True)]
    assert sheet["totals"] == [sum(r["points"][s] for r in sheet["deals"]) for s in range(3)]


# --------------------------------------------------------------------- records

def test_example_record_replays_to_its_written_result() -> None:
    rec = json.loads((RECORDS / "examples" / "opendaum.json").read_text())
    out = replay(rec)
    assert out.error is None and out.match is not None and out.match.result is not None
    assert out.match.result.to_json()["scores"] == rec["result"]["scores"]


def test_hand_written_record_replays_to_hand_computed_scores() -> None:
    """tests/records/opendaum-last-two-deals.json: three players, the last two deals.

    Deal 23 (2 cards, dealer 0, spades trump): bids 1, 0, 2 from seat 1; seat 0 takes both
    tricks (AH over KH, then the trump 7S) — 2 made = 15; seat 2's 0 made = 5; seat 1 bid 1
    took 0 = 0. Deal 24 (1 card, dealer 1, clubs trump): seat 2 leads 9H, seat 0 must trump
    with 8C, seat 1 trumps higher with JC: seat 1's 1 made = 10, seat 0's 0 made = 5,
    seat 2 bid 1 took 0 = 0. Totals 20, 10, 5."""
    rec = json.loads((RECORDS / "opendaum-last-two-deals.json").read_text())
    out = replay(rec)
    assert out.error is None and out.match is not None
    res = out.match.result
    assert res is not None and res.to_json()["scores"] == [20, 10, 5]
    assert list(res.winners) == [0] and not res.capped
    assert [r["points"] for r in res.details["deals"]] == [[15, 0, 5], [5, 10, 0]]
    assert rec["result"]["scores"] == [20, 10, 5]
