"""Trinka (koloda/rules/trinka.en.md §Precisely), rule by rule, on hand-made deals and hand-written
records."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

import koloda
from koloda.cards import CARD_TEXT, CLUBS, deck, parse_card, parse_cards
from koloda.engine.deal import Deal
from koloda.engine.errors import IllegalAction
from koloda.engine.records import from_record, replay
from koloda.engine.view import fields_of
from koloda.games.trinka import RULES, TrinkaDeal, deal_outcome
from koloda.games.trinka.views import DealScore, TrinkaSheet, TrinkaView
from koloda.tricks import Trick
from tests.conformance import cards_in
from tests.conftest import RECORDS
from tests.positions import random_positions


def state(hands: list[str], dealer: int = 3) -> TrinkaDeal:
    return TrinkaDeal(Deal(dealer, tuple(tuple(parse_cards(h)) for h in hands)))


#: a full deal: seat 0 holds eight trumps, seat 1 the four low trumps and spades
HANDS = ["6C JC JS JH JD AC KC QC 6S", "TC 9C 8C 7C AS KS QS TS 9S",
         "AH KH QH TH 9H 8H 7H 6H 8S", "AD KD QD TD 9D 8D 7D 6D 7S"]


def play(st: TrinkaDeal, *cards: str) -> None:
    for c in cards:
        st.apply(f"play {c}")


def record(dealer: int, hands: list[str], actions: list[tuple[int, str]],
           **options: Any) -> dict[str, Any]:
    return {"format": "koloda-record/1", "game": "trinka", "players": 4, "options": options,
            "first_dealer": dealer, "seed": None,
            "deals": [{"dealer": dealer, "hands": [h.split() for h in hands], "stock": [],
                       "trump_card": None}],
            "actions": [{"seat": s, "action": a} for s, a in actions]}


# ---------------------------------------------------------------- the deal
def test_four_players_in_two_pairs_partners_opposite() -> None:
    spec = koloda.get_spec("trinka")
    assert spec.players == (4,)
    with pytest.raises(koloda.ConfigError):
        koloda.new_game("trinka", players=3, seed=1)
    m = koloda.new_game("trinka", seed=1)
    assert m.observation(0)["sheet"]["pairs"] == [[0, 2], [1, 3]]


def test_deck_36_all_dealt_nine_each_no_trump_card() -> None:
    m = koloda.new_game("trinka", seed=5)
    d = m.deals[0]
    assert [len(h) for h in d.hands] == [9, 9, 9, 9]
    assert d.stock == () and d.trump_card is None
    assert sorted(c for h in d.hands for c in h) == list(deck(36))


def test_left_of_dealer_leads_first() -> None:
    assert state(HANDS, dealer=3).to_move == 0
    assert state(HANDS, dealer=1).to_move == 2


# ---------------------------------------------------------------- trumps
def test_trump_order_six_of_clubs_then_jacks_then_clubs() -> None:
    order = "6C JC JS JH JD AC KC QC TC 9C 8C 7C".split()
    for hi, lo in zip(order, order[1:], strict=False):
        t = Trick(0)
        t.add(RULES, 0, parse_card(lo))
        t.add(RULES, 1, parse_card(hi))
        assert t.winner(RULES) == 1, f"{hi} must beat {lo}"


def test_every_jack_is_a_trump_and_beats_any_plain_ace() -> None:
    for jack in ("JS", "JH", "JD"):
        t = Trick(0)
        t.add(RULES, 0, parse_card("AH"))
        t.add(RULES, 1, parse_card(jack))
        assert t.winner(RULES) == 1


def test_plain_suits_rank_ace_king_queen_ten_down_to_six() -> None:
    order = "AH KH QH TH 9H 8H 7H 6H".split()
    for hi, lo in zip(order, order[1:], strict=False):
        t = Trick(0)
        t.add(RULES, 0, parse_card(lo))
        t.add(RULES, 1, parse_card(hi))
        assert t.winner(RULES) == 1


def test_jack_of_spades_does_not_follow_spades() -> None:
    st = state(["AS 6C JC JH JD AC KC QC TC", "JS 7H 9C 8C 7C KS QS TS 9S",
                "AH KH QH TH 9H 8H 6H 8S 7S", "AD KD QD TD 9D 8D 7D 6D 6S"], dealer=3)
    play(st, "AS")
    # seat 1 holds spades besides JS: JS is not a spade, so it may not be played
    assert "play JS" not in st.legal_actions()
    with pytest.raises(IllegalAction, match="must follow spades"):
        st.apply("play JS")


def test_jack_of_spades_alone_leaves_the_holder_void_in_spades() -> None:
    st = state(["AS 6C JC JH JD AC KC QC TC", "JS 7H 9C 8C 7C KD QH TD 9D",
                "AH KH QH TH 9H 8H 6H 8S 7S", "KS QD QS TS 8D 7D 6D 6S 9S"], dealer=3)
    play(st, "AS")
    assert set(st.legal_actions()) == {f"play {c}" for c in "JS 7H 9C 8C 7C KD QH TD 9D".split()}


def test_a_jack_led_is_a_trump_lead() -> None:
    st = state(HANDS, dealer=3)
    play(st, "JD")
    assert st.trick.led == RULES.trump
    # seat 1 must follow trumps with a club
    assert st.legal_actions() == ["play 7C", "play 8C", "play 9C", "play TC"]
    with pytest.raises(IllegalAction, match="must follow trumps"):
        st.apply("play AS")


def test_jack_must_be_played_to_a_trump_lead_when_it_is_the_only_trump() -> None:
    st2 = state(["6C JC JH JD AC KC QC TC 9C", "JS AS KS QS TS 9S 8S 7S 6S",
                 "AH KH QH TH 9H 8H 7H 6H 8C", "AD KD QD TD 9D 8D 7D 6D 7C"], dealer=3)
    play(st2, "6C")
    assert st2.legal_actions() == ["play JS"]


def test_void_in_the_led_suit_any_card_trumping_not_obligatory() -> None:
    st = state(HANDS, dealer=3)
    play(st, "6S", "9S")
    # seat 2 holds 8S: must follow
    assert st.legal_actions() == ["play 8S"]
    play(st, "8S")
    # seat 3 holds 7S only: must follow
    play(st, "7S")
    # seat 1 won with 9S and leads TS; seat 2 is void of spades: any card
    assert st.to_move == 1
    play(st, "TS")
    # seat 2 has only hearts: any may be played (no trumps held anyway)
    assert len(st.legal_actions()) == 8
    play(st, "6H", "6D")
    # seat 0 is void in spades (JS is a trump): every card, trump or not, is legal
    assert len(st.legal_actions()) == 8


def test_highest_trump_wins_else_highest_of_the_led_suit() -> None:
    st = state(HANDS, dealer=3)
    play(st, "6S", "9S", "8S", "7S")
    assert st.tricks == [0, 1, 0, 0] and st.to_move == 1  # winner leads next
    play(st, "TS", "6H", "6D", "JS")
    assert st.tricks == [1, 1, 0, 0] and st.to_move == 0


# ---------------------------------------------------------------- scoring
@pytest.mark.parametrize(("a", "b", "expected"), [
    (8, 1, ("rozhok", 1, 1)), (1, 8, ("rozhok", 0, 1)),
    (6, 3, ("trinka", 1, 3)), (3, 6, ("trinka", 0, 3)),
    (7, 2, ("draw", None, 0)), (2, 7, ("draw", None, 0)),
    (5, 4, ("draw", None, 0)), (4, 5, ("draw", None, 0)),
    (9, 0, ("all_nine", 0, 0)), (0, 9, ("all_nine", 1, 0)),
])
def test_deal_result_by_pair_tricks(a: int, b: int, expected: tuple[str, int | None, int]) -> None:
    assert deal_outcome(a, b) == expected


def _finish_deal_with(winners: list[int]) -> koloda.Match:
    """A match whose first deal is replaced by tricks won by ``winners`` (seat per trick)."""
    m = koloda.new_game("trinka", seed=3)
    st = m.current
    assert isinstance(st, TrinkaDeal)
    st.tricks = [winners.count(s) for s in range(4)]
    st.is_over = True
    st.to_move = None
    m._settle()
    return m


def test_eight_one_the_pair_with_one_trick_writes_off_one() -> None:
    m = _finish_deal_with([0] * 8 + [1])
    assert m.sheet()["records"] == [12, 11]


def test_six_three_the_pair_with_three_writes_off_three() -> None:
    m = _finish_deal_with([1] * 6 + [2] * 3)
    assert m.sheet()["records"] == [9, 12]


def test_seven_two_and_five_four_are_draws() -> None:
    assert _finish_deal_with([0] * 7 + [3] * 2).sheet()["records"] == [12, 12]
    assert _finish_deal_with([0] * 5 + [3] * 4).sheet()["records"] == [12, 12]


def test_nine_nil_ends_the_match_at_once_at_double_stake() -> None:
    m = _finish_deal_with([2] * 9)
    assert m.is_over and m.result is not None
    assert m.result.winners == (1, 3)
    assert m.result.scores == (-2, 2, -2, 2)
    assert m.result.details["stake"] == 2


def test_first_pair_to_write_off_its_record_wins_at_single_stake() -> None:
    m = koloda.new_game("trinka", seed=3, record=3)
    st = m.current
    assert isinstance(st, TrinkaDeal)
    st.tricks, st.is_over, st.to_move = [3, 2, 0, 4], True, None   # 3–6: pair 0 writes off 3
    m._settle()
    assert m.is_over and m.result is not None
    assert m.result.winners == (0, 2)
    assert m.result.scores == (1, -1, 1, -1)
    assert m.result.details["stake"] == 1


def test_dealer_rotates_left() -> None:
    m = _finish_deal_with([0] * 7 + [1] * 2)
    assert m.deals[1].dealer == (m.deals[0].dealer + 1) % 4


def test_record_option_default_twelve_and_validated() -> None:
    assert koloda.get_spec("trinka").defaults(4)["record"] == 12
    with pytest.raises(koloda.ConfigError):
        koloda.new_game("trinka", seed=1, record=0)


def test_capped_match_lower_record_wins_single_stake() -> None:
    m = koloda.new_game("trinka", seed=3, max_deals=1)
    st = m.current
    assert isinstance(st, TrinkaDeal)
    st.tricks, st.is_over, st.to_move = [8, 0, 0, 1], True, None   # pair 1 writes off 1
    m._settle()
    assert m.result is not None and m.result.capped
    assert m.result.winners == (1, 3) and m.result.scores == (-1, 1, -1, 1)


def test_capped_match_ends_with_the_standings_as_they_are_ties_share() -> None:
    """koloda/rules/conventions.en.md §Precisely 11: a match that reaches ``max_deals``
    "ends with the standings as they are (the best score wins; ties share)": records level
    at the cap — every seat of both pairs wins, nobody pays (as in Mushka)."""
    m = koloda.new_game("trinka", seed=3, max_deals=1)
    st = m.current
    assert isinstance(st, TrinkaDeal)
    st.tricks, st.is_over, st.to_move = [7, 2, 0, 0], True, None   # 7–2: a draw
    m._settle()
    assert m.result is not None and m.result.capped
    assert m.result.winners == (0, 1, 2, 3) and m.result.losers == ()
    assert m.result.scores == (0,) * 4
    assert m.result.details["records"] == [12, 12]
    assert m.result.details["stake"] == 0 and m.result.details["how"] == "draw"


def test_single_deal_played_alone_reads_the_standings_like_a_capped_match() -> None:
    """A deal played on its own (koloda.new_deal) ends without a record written off; its
    result is the standings as they are: the pair that wrote off wins single stake. A deal
    that writes nothing off is a draw (a single deal is not a match cut short by the cap,
    so nobody shares a win)."""
    m = koloda.new_deal("trinka", seed=3)
    st = m.current
    assert isinstance(st, TrinkaDeal)
    st.tricks, st.is_over, st.to_move = [3, 1, 0, 5], True, None   # 3–6: pair 0 writes off 3
    m._settle()
    assert m.result is not None and not m.result.capped
    assert m.result.winners == (0, 2) and m.result.scores == (1, -1, 1, -1)
    assert m.result.details["how"] == "single_deal"
    m2 = koloda.new_deal("trinka", seed=3)
    st = m2.current
    assert isinstance(st, TrinkaDeal)
    st.tricks, st.is_over, st.to_move = [4, 3, 1, 1], True, None   # 5–4: a draw
    m2._settle()
    assert m2.result is not None and m2.result.winners == () and m2.result.scores == (0,) * 4


# ---------------------------------------------------------------- records
def test_hand_written_rozhok_record() -> None:
    """Seat 1's 9S wins the first trick, seat 0 trumps the second with JS (not a spade) and
    takes every other trick: 8–1, pair 1 writes off its record of 1 and wins."""
    data = json.loads((RECORDS / "trinka-rozhok.json").read_text())
    r = replay(data)
    assert r.error is None and r.match is not None and r.match.result is not None
    assert r.match.result.winners == (1, 3)
    assert r.match.result.scores == (-1, 1, -1, 1)
    assert r.match.result.details["deals"][0]["pair_tricks"] == [8, 1]


def test_hand_written_all_nine_record() -> None:
    """Seat 0 holds the nine highest trumps and leads them: 9–0, pair 1 wins double."""
    data = json.loads((RECORDS / "trinka-all-nine.json").read_text())
    r = replay(data)
    assert r.error is None and r.match is not None and r.match.result is not None
    assert r.match.result.winners == (1, 3)
    assert r.match.result.scores == (-2, 2, -2, 2)
    assert r.match.result.details["stake"] == 2


def test_example_record_replays_to_its_result() -> None:
    data = json.loads((RECORDS / "examples" / "trinka.json").read_text())
    r = replay(data)
    assert r.error is None
    assert r.match is not None and r.match.result is not None
    assert r.match.result.to_json()["scores"] == data["result"]["scores"]


def test_illegal_play_names_the_rule() -> None:
    m = from_record(record(3, HANDS, []))
    m.apply("play 6S")
    with pytest.raises(IllegalAction, match="must follow spades: you hold 9S TS QS KS AS"):
        m.apply("play 7C")
    with pytest.raises(IllegalAction, match="do not hold"):
        m.apply("play 6H")


# ---------------------------------------------------------------- the typed views
def positions(seeds: range, **options: Any) -> Iterator[koloda.Match]:
    """Every position of short matches played by random legal actions."""
    return random_positions("trinka", seeds, **options)


def test_every_view_field_is_declared_with_a_term_of_the_vocabulary() -> None:
    spec = koloda.get_spec("trinka")
    assert {TrinkaView, TrinkaSheet, DealScore} <= set(spec.views)
    assert {f.name for f in fields_of(TrinkaView) if f.private} == {"hand"}
    for cls in (TrinkaView, TrinkaSheet):
        teams = [f for f in fields_of(cls) if f.role == "teams"]
        assert [f.name for f in teams] == ["pairs"] and teams[0].kind == "data"
    m = koloda.new_game("trinka", seed=1)
    obs = m.observation(0)
    assert isinstance(obs.deal, TrinkaView) and isinstance(obs.sheet, TrinkaSheet)
    assert obs.sheet.pairs == obs.deal.pairs == ((0, 2), (1, 3))
    assert obs["pairs"] == obs["sheet"]["pairs"] == [[0, 2], [1, 3]]
    assert list(obs.deal.to_json()) == [f.name for f in fields_of(TrinkaView)]
    assert list(obs.sheet.to_json()) == [f.name for f in fields_of(TrinkaSheet)]
    data = obs.to_json()
    assert data == json.loads(json.dumps(data))
    assert data["trumps"] == "all clubs and all jacks" and data["pair_tricks"] == [0, 0]


def test_a_void_names_the_suit_a_card_counts_as_clubs_for_the_trumps() -> None:
    st = state(HANDS)
    play(st, "6C", "7C", "8S")         # seat 2 holds no trump (no club, no jack)
    assert st.observation(0).voids[2] == (CLUBS,) and st.observation(0)["voids"][2] == ["C"]


def test_public_json_names_no_card_hidden_from_any_seat() -> None:
    for m in positions(range(6), max_deals=2):
        hidden = set().union(*(m.hidden_from(s) for s in range(4)))
        public = m.public_observation().to_json()
        assert public["seat"] is None and "hand" not in public
        leaked = cards_in(public) & hidden
        assert not leaked, f"the public view shows {[CARD_TEXT[c] for c in leaked]}"
        hash(m.observation(0))
