"""Opendaum for three with 33 cards (koloda/rules/opendaum.en.md §Precisely 21–28)."""

from __future__ import annotations

import itertools
import json

import pytest

import koloda
from koloda.cards import CARD_TEXT, deck, parse_cards
from koloda.engine.errors import ConfigError, IllegalAction
from koloda.engine.records import replay
from koloda.games.opendaum import THIRTY_THREE, deal_points
from koloda.ranks import rank_for_total
from tests.conftest import RECORDS
from tests.test_opendaum import play_out, position

T33 = THIRTY_THREE


def test_33_is_for_exactly_three_players() -> None:
    for players in (2, 4, 5, 6):
        with pytest.raises(ConfigError, match="played by 3 players"):
            koloda.new_game("opendaum-33", players=players, seed=1)


def test_33_deck_is_the_32_card_deck_plus_6c() -> None:
    m = koloda.new_game("opendaum-33", players=3, seed=1)
    d = m.deals[0]
    cards = sorted([*(c for h in d.hands for c in h), *d.stock])
    assert cards == list(deck(33))
    assert parse_cards("6C")[0] in cards and parse_cards("6S")[0] not in cards


def test_33_schedule_is_1_to_10_then_11_three_times_then_10_to_1() -> None:
    m = play_out(koloda.new_game("opendaum-33", players=3, seed=5))
    assert [len(d.hands[0]) for d in m.deals] == [*range(1, 11), 11, 11, 11, *range(10, 0, -1)]
    assert len(m.deals) == 23 and m.result is not None and not m.result.capped


def test_33_whole_deck_dealt_trump_is_the_dealers_last_card() -> None:
    m = koloda.new_game("opendaum-33", players=3, seed=6, start_deal=10)
    d = m.deals[0]
    assert d.stock == () and d.trump_card == d.hands[d.dealer][-1]


# ------------------------------------------------------------------- shakha

def test_6c_is_the_only_shakha() -> None:
    st = position(T33, ["AS 9S", "KD 8S", "9D 6C"], "QH", plays=["play KD"])
    assert st.legal_actions() == ["play 6C plain", "play 6C wild", "play 9D"]
    st = position(T33, ["AS 9S", "KD 8S", "9D 6S"], "QH", plays=["play KD"])
    assert st.legal_actions() == ["play 9D"]
    with pytest.raises(IllegalAction, match="only a shakha"):
        st.apply("play 6S wild")


def test_33_shakha_wild_wins_plain_is_the_six_of_clubs() -> None:
    st = position(T33, ["AD 9S", "KD 8S", "9D 6C"], "QH",
                  plays=["play KD", "play 6C wild", "play AD"])
    assert st.last_winner == 2
    st = position(T33, ["7C 9S", "6C 8S", "9D AH"], "QH",
                  plays=["play 6C plain", "play 9D", "play 7C"])
    assert st.last_winner == 0


def test_33_shakha_led_wild_is_a_trump_lead() -> None:
    st = position(T33, ["AH 9D", "6C 8S", "TH 9S"], "7H", plays=["play 6C wild"])
    assert st.legal_actions() == ["play TH"]


# -------------------------------------------------------------- follow rules

def test_33_must_follow_suit() -> None:
    st = position(T33, ["AS 9S", "KD 8S", "9D AH"], "QH", plays=["play KD"])
    assert st.legal_actions() == ["play 9D"]
    with pytest.raises(IllegalAction, match="must follow diamonds: you hold 9D"):
        st.apply("play AH")


def test_33_void_any_card_trumping_is_not_obligatory() -> None:
    st = position(T33, ["AS 9S", "KD 8S", "9S AH"], "QH", plays=["play KD"])
    assert st.legal_actions() == ["play 9S", "play AH"]


def test_33_has_no_lead_restriction() -> None:
    st = position(T33, ["AS 9S", "AH 9D", "8D 8S"], "7H")
    assert st.legal_actions() == ["play 9D", "play AH"]


# ---------------------------------------------------------------- hook rule

def test_dealer_may_not_bid_to_make_the_sum_equal_hand_size() -> None:
    hands = ["AS 9S 8S 7S TS", "KD 8D 9D TD JD", "9H AH KH QH JH"]
    st = position(T33, hands, "7H", bids=[3, 1])
    assert st.to_move == 0
    assert st.legal_actions() == ["bid 0", "bid 2", "bid 3", "bid 4", "bid 5"]
    assert st.observation(2)["forbidden_bid"] == 1
    with pytest.raises(IllegalAction,
                       match="hook rule: the dealer, bidding last, may not bid 1: the bids "
                             "would add up to 5, the cards each player holds"):
        st.apply("bid 1")


def test_hook_rule_binds_only_the_dealer() -> None:
    hands = ["AS 9S 8S", "KD 8D 9D", "9H AH KH"]
    st = position(T33, hands, "7H", bids=[3])
    assert st.to_move == 2 and st.legal_actions() == ["bid 0", "bid 1", "bid 2", "bid 3"]
    assert st.observation(0)["forbidden_bid"] is None


def test_hook_rule_refuses_nothing_once_the_others_bid_more_than_the_hand() -> None:
    st = position(T33, ["AS 9S", "KD 8D", "9H AH"], "7H", bids=[2, 1])
    assert st.legal_actions() == ["bid 0", "bid 1", "bid 2"]


def test_hook_rule_one_card_dealer_must_not_bid_the_last_trick() -> None:
    st = position(T33, ["AS", "KD", "9H"], "7H", bids=[0, 0])
    assert st.legal_actions() == ["bid 0"]


@pytest.mark.parametrize("size", [1, 2, 3, 11])
def test_hook_rule_refuses_at_most_one_bid(size: int) -> None:
    cards = iter(deck(33))
    hands = [" ".join(CARD_TEXT[next(cards)] for _ in range(size))
             for _ in range(3)]
    for b1, b2 in itertools.product(range(size + 1), repeat=2):
        st = position(T33, hands, "AH", bids=[b1, b2])
        refused = {f"bid {b}" for b in range(size + 1)} - set(st.legal_actions())
        expected = {f"bid {size - b1 - b2}"} if b1 + b2 <= size else set()
        assert refused == expected


def test_classic_and_shakhi_have_no_hook_rule() -> None:
    from koloda.games.opendaum import CLASSIC, SHAKHI
    for variant in (CLASSIC, SHAKHI):
        st = position(variant, ["AS", "KD", "9H"], "7H", bids=[0, 0])
        assert st.legal_actions() == ["bid 0", "bid 1"]


# ------------------------------------------------------------------ scoring

@pytest.mark.parametrize(("bid", "taken", "points"), [(0, 0, 5), (2, 2, 15), (2, 1, 1)])
def test_33_deals_before_the_last_score_as_the_classic_game(bid: int, taken: int,
                                                           points: int) -> None:
    assert deal_points(bid, taken, False, T33, True) == points


@pytest.mark.parametrize(("bid", "taken", "points"), [(1, 1, 20), (0, 0, 10), (1, 0, 0),
                                                      (0, 1, 1)])
def test_final_deal_made_bid_scores_10_times_bid_plus_10(bid: int, taken: int,
                                                         points: int) -> None:
    assert deal_points(bid, taken, True, T33, False) == points


@pytest.mark.parametrize(("bid", "taken", "points"), [(1, 1, 20), (0, 0, 10), (1, 0, -10),
                                                      (0, 1, 1), (3, 1, -19)])
def test_last_deal_penalty_charges_10_per_trick_bid_but_not_taken(bid: int, taken: int,
                                                                  points: int) -> None:
    assert deal_points(bid, taken, True, T33, True) == points


def test_last_deal_penalty_defaults_to_false() -> None:
    assert koloda.get_spec("opendaum-33").defaults(3)["last_deal_penalty"] is False


def test_ranks_are_in_the_result_details() -> None:
    m = play_out(koloda.new_game("opendaum-33", players=3, seed=8))
    assert m.result is not None
    ranks = m.result.details["ranks"]
    assert [r["id"] for r in ranks] == [rank_for_total(t).id
                                        for t in m.result.scores]


# ------------------------------------------------------------------ records

def test_example_record_replays_to_its_written_result() -> None:
    rec = json.loads((RECORDS / "examples" / "opendaum-33.json").read_text())
    out = replay(rec)
    assert out.error is None and out.match is not None and out.match.result is not None
    assert out.match.result.to_json()["scores"] == rec["result"]["scores"]


HAND_WRITTEN = RECORDS / "opendaum-33-last-two-deals.json"


def test_hand_written_record_replays_to_hand_computed_scores() -> None:
    """tests/records/opendaum-33-last-two-deals.json: the last two deals.

    Deal 21 (2 cards, dealer 0, hearts trump): bids 1, 0 from seat 1, and the dealer may
    not bid 1 (1 + 0 + 1 = 2), so bids 0. Seat 1 leads KS, QS, seat 0's AS wins; seat 0
    leads 7D, seat 1 (void: its 6C is no club) plays 6C wild and wins, seat 2 follows 8D.
    Points: seat 0 bid 0 took 1 = 1, seat 1 bid 1 made = 10, seat 2 bid 0 made = 5.
    Deal 22, the final deal (dealer 1, clubs trump): seat 2 bids 1, seat 0 bids 0, the
    dealer may not bid 0 and bids 1. Seat 2's JH wins (7S is no heart, no trumps played):
    seat 2 made 1 = 10 × 1 + 10 = 20, seat 0 made 0 = 10, seat 1 missed = 0.
    Totals 11, 10, 25."""
    rec = json.loads(HAND_WRITTEN.read_text())
    out = replay(rec)
    assert out.error is None and out.match is not None
    res = out.match.result
    assert res is not None and res.to_json()["scores"] == [11, 10, 25]
    assert [r["points"] for r in res.details["deals"]] == [[1, 10, 5], [10, 0, 20]]
    assert list(res.winners) == [2] and not res.capped
    assert [r["id"] for r in res.details["ranks"]] == ["embryo"] * 3


def test_hand_written_record_with_last_deal_penalty() -> None:
    """The same record with ``last_deal_penalty``: seat 1 bid 1 and took nothing in the
    final deal: 0 − 10 = −10 instead of 0. Totals 11, 0, 25."""
    rec = json.loads(HAND_WRITTEN.read_text())
    rec["options"] = dict(rec["options"], last_deal_penalty=True)
    rec["result"] = None
    out = replay(rec)
    assert out.error is None and out.match is not None and out.match.result is not None
    assert out.match.result.to_json()["scores"] == [11, 0, 25]


def test_hand_written_record_hook_refusal_is_reported_by_replay() -> None:
    rec = json.loads(HAND_WRITTEN.read_text())
    rec["actions"][2] = {"seat": 0, "action": "bid 1"}   # the dealer's forbidden bid
    out = replay(rec)
    assert out.error is not None and out.error["index"] == 2
    assert "hook rule" in out.error["reason"]
