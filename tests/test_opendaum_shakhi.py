"""Opendaum with two shakhi (koloda/rules/opendaum.en.md §Precisely 10–20)."""

from __future__ import annotations

import json

import pytest

import koloda
from koloda.cards import CLUBS, SPADES, deck, parse_cards
from koloda.engine.errors import IllegalAction
from koloda.engine.records import replay
from koloda.games.opendaum import SHAKHI
from tests.conftest import RECORDS
from tests.test_opendaum import make_record, play_out, position

NO_RUFF_LIMIT = {"ruff_only_when_only_trumps": False}


@pytest.mark.parametrize(("players", "size"), [(2, 34), (3, 36), (4, 36), (5, 30), (6, 36)])
def test_shakhi_deck_by_player_count_always_holds_both_black_sixes(players: int,
                                                                  size: int) -> None:
    m = koloda.new_game("opendaum-shakhi", players=players, seed=1)
    d = m.deals[0]
    cards = sorted([*(c for h in d.hands for c in h), *d.stock])
    assert cards == list(deck(size))
    assert set(parse_cards("6S 6C")) <= set(cards)


def test_shakhi_schedule_two_players_34_cards() -> None:
    m = play_out(koloda.new_game("opendaum-shakhi", players=2, seed=3))
    assert [len(d.hands[0]) for d in m.deals] == [*range(1, 17), 17, 17, *range(16, 0, -1)]


# ----------------------------------------------------------- wild and plain

def test_a_shakha_is_always_playable_whatever_the_follow_rules_say() -> None:
    st = position(SHAKHI, ["AS 7H", "KD 8S", "9D 6C"], "QH", plays=["play KD"])
    assert st.legal_actions() == ["play 6C plain", "play 6C wild", "play 9D"]


def test_a_shakha_is_played_wild_or_plain_never_bare() -> None:
    st = position(SHAKHI, ["AS 7H", "KD 8S", "9D 6C"], "QH", plays=["play KD"])
    with pytest.raises(IllegalAction, match="6C is a shakha: play it 'wild' or 'plain'"):
        st.apply("play 6C")


def test_a_shakha_played_wild_beats_every_other_card() -> None:
    st = position(SHAKHI, ["AD 7S", "KD 8S", "9D 6C"], "9H",
                  plays=["play KD", "play 6C wild", "play AD"])
    assert st.last_winner == 2
    assert st.observation(0)["last_trick"]["cards"][1] == [2, "6C", "wild"]
    # over the highest trump too
    st = position(SHAKHI, ["AH 7H", "KD 8S", "9D 6C"], "9H",
                  plays=["play KD", "play 6C wild", "play AH"], options=NO_RUFF_LIMIT)
    assert st.last_winner == 2


def test_a_shakha_played_plain_is_the_six_of_its_suit() -> None:
    st = position(SHAKHI, ["7C 7S", "KD 8S", "9D 6C"], "QH",
                  plays=["play KD", "play 6C plain", "play 7S"])
    assert st.last_winner == 1
    st = position(SHAKHI, ["8C 7S", "6C 8D", "9D 7C"], "QH",
                  plays=["play 6C plain", "play 7C", "play 8C"])
    assert st.last_winner == 0


def test_two_shakhi_played_wild_the_later_wins() -> None:
    st = position(SHAKHI, ["AH 6C", "6S 8S", "QH 9D"], "9H",
                  plays=["play 6S wild", "play QH", "play 6C wild"])
    assert st.last_winner == 0


def test_a_shakha_led_wild_is_a_trump_lead() -> None:
    st = position(SHAKHI, ["AH 9D", "6C 8S", "TH 9S"], "7H", plays=["play 6C wild"])
    assert st.legal_actions() == ["play TH"]
    with pytest.raises(IllegalAction, match="must follow trumps"):
        st.apply("play 9S")


def test_a_shakha_led_plain_leads_its_own_suit() -> None:
    st = position(SHAKHI, ["AH 9D", "6C 8S", "7C AD"], "7H", plays=["play 6C plain"])
    assert st.legal_actions() == ["play 7C"]
    st.apply("play 7C")
    st.apply("play 9D")
    assert st.last_winner == 2


def test_a_plain_shakha_of_the_trump_suit_is_the_lowest_trump_and_can_win() -> None:
    # clubs trump: 6C plain on a diamond lead trumps it
    st = position(SHAKHI, ["KD 9S", "AD 8S", "6C 9H"], "7C",
                  plays=["play AD", "play 6C plain", "play KD"])
    assert st.last_winner == 2
    # ... but any other trump beats it
    st = position(SHAKHI, ["7C 8C", "AD 8S", "6C 9H"], "QC",
                  plays=["play AD", "play 6C plain", "play 7C"])
    assert st.last_winner == 0


def test_a_plain_shakha_of_the_trump_suit_led_is_a_trump_lead() -> None:
    st = position(SHAKHI, ["8C 9S", "6C AD", "9D TH"], "7C", plays=["play 6C plain"])
    assert st.trick.led == CLUBS
    assert st.legal_actions() == ["play 9D", "play TH"]   # void of trumps: any card
    st.apply("play 9D")
    assert st.legal_actions() == ["play 8C"]


def test_a_shakha_never_counts_as_a_card_of_its_printed_suit() -> None:
    # the only club held is 6C: void in clubs, so the ruff restriction applies
    st = position(SHAKHI, ["AS 9S", "9C 8S", "6C 8D AH"], "7H", plays=["play 9C"])
    assert st.legal_actions() == ["play 6C plain", "play 6C wild", "play 8D"]
    # with the restriction off, void in clubs the player must trump
    st = position(SHAKHI, ["AS 9S", "9C 8S", "6C 8D AH"], "7H", plays=["play 9C"],
                  options=NO_RUFF_LIMIT)
    assert st.legal_actions() == ["play 6C plain", "play 6C wild", "play AH"]


# -------------------------------------------------------------- lead restriction

def test_may_not_lead_a_trump_while_holding_a_non_trump_card() -> None:
    st = position(SHAKHI, ["AS 9S", "AH 9D", "8D 8S"], "7H")
    assert st.legal_actions() == ["play 9D"]
    with pytest.raises(IllegalAction,
                       match="may not lead a trump while holding a non-trump card: you hold 9D"):
        st.apply("play AH")


def test_a_player_holding_only_trumps_and_shakhi_may_lead_a_trump() -> None:
    st = position(SHAKHI, ["AS 9S 7S", "AH KH 6C", "8D 8S 9D"], "7H")
    assert st.legal_actions() == ["play 6C plain", "play 6C wild", "play KH", "play AH"]


def test_the_lead_restriction_never_stops_a_shakha_being_led() -> None:
    # clubs trump: 6C plain would be a trump, still it may be led beside a diamond
    st = position(SHAKHI, ["AS 9S 7S", "6C 9C 9D", "8D 8S TD"], "7C")
    assert st.legal_actions() == ["play 6C plain", "play 6C wild", "play 9D"]


def test_the_lead_restriction_holds_with_the_ruff_option_off() -> None:
    st = position(SHAKHI, ["AS 9S", "AH 9D", "8D 8S"], "7H", options=NO_RUFF_LIMIT)
    assert st.legal_actions() == ["play 9D"]


# -------------------------------------------------------------- ruff restriction

def test_void_may_trump_only_when_holding_no_non_trump_card() -> None:
    st = position(SHAKHI, ["AS 9S", "KD 8S", "AH 9S"], "7H", plays=["play KD"])
    assert st.legal_actions() == ["play 9S"]
    with pytest.raises(IllegalAction, match="may not ruff while holding a non-trump card"):
        st.apply("play AH")


def test_void_holding_only_trumps_must_trump() -> None:
    st = position(SHAKHI, ["AS 9S", "KD 8S", "AH 7H"], "8H", plays=["play KD"])
    assert st.legal_actions() == ["play 7H", "play AH"]
    # a shakha is not a non-trump card for this rule
    st = position(SHAKHI, ["AS 9S", "KD 8S", "AH 6S"], "8H", plays=["play KD"])
    assert st.legal_actions() == ["play 6S plain", "play 6S wild", "play AH"]


def test_ruff_option_off_void_must_trump_as_in_the_classic_game() -> None:
    st = position(SHAKHI, ["AS 9S", "KD 8S", "AH 9S"], "7H", plays=["play KD"],
                  options=NO_RUFF_LIMIT)
    assert st.legal_actions() == ["play AH"]
    with pytest.raises(IllegalAction, match="void in diamonds, must play a trump: you hold AH"):
        st.apply("play 9S")


def test_ruff_option_is_named_and_defaults_to_true() -> None:
    spec = koloda.get_spec("opendaum-shakhi")
    assert spec.defaults(4)["ruff_only_when_only_trumps"] is True
    m = koloda.new_game("opendaum-shakhi", players=4, seed=1, ruff_only_when_only_trumps=False)
    assert m.record()["options"] == {"ruff_only_when_only_trumps": False}


# -------------------------------------------------------------- trump lead

def test_a_trump_lead_is_answered_with_a_trump_or_a_shakha() -> None:
    st = position(SHAKHI, ["AS 9S 8D", "AH KH QH", "7H 9S 6C"], "8H", plays=["play KH"])
    assert st.legal_actions() == ["play 6C plain", "play 6C wild", "play 7H"]
    with pytest.raises(IllegalAction, match="must follow trumps: you hold 7H"):
        st.apply("play 9S")


def test_a_trump_lead_answered_by_a_player_without_trumps_any_card() -> None:
    st = position(SHAKHI, ["AS 9S 8D", "AH KH QH", "7D 9S 6C"], "8H", plays=["play KH"])
    assert st.legal_actions() == ["play 9S", "play 6C plain", "play 6C wild", "play 7D"]


def test_a_turned_shakha_makes_its_printed_suit_trump() -> None:
    rec = make_record("opendaum-shakhi", 3, [
        {"dealer": 0, "hands": ["AH", "KH", "9D"], "trump_card": "6S"}], [])
    m = koloda.from_record(rec)
    assert m.current.rules.trump == SPADES  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- records

def test_example_record_replays_to_its_written_result() -> None:
    rec = json.loads((RECORDS / "examples" / "opendaum-shakhi.json").read_text())
    out = replay(rec)
    assert out.error is None and out.match is not None and out.match.result is not None
    assert out.match.result.to_json()["scores"] == rec["result"]["scores"]


def test_hand_written_record_replays_to_hand_computed_scores() -> None:
    """tests/records/opendaum-shakhi-last-two-deals.json: two players, 34 cards, the last
    two deals. Deal 32 (hearts trump, dealer 0): seat 1 leads KD, seat 0 follows AD and
    wins; seat 0 leads its only card 9H (all trumps: may lead it), seat 1 answers 6C wild
    and wins: both bid 1 and made it, 10 each. Deal 33 (spades trump, dealer 1): seat 0
    leads 6S plain — a trump lead, the lowest trump — and seat 1's AS wins: seat 1 bid 1
    made = 10, seat 0 bid 0 made = 5. Totals 15, 20."""
    rec = json.loads((RECORDS / "opendaum-shakhi-last-two-deals.json").read_text())
    out = replay(rec)
    assert out.error is None and out.match is not None
    res = out.match.result
    assert res is not None and res.to_json()["scores"] == [15, 20]
    assert list(res.winners) == [1] and not res.capped
    assert [r["points"] for r in res.details["deals"]] == [[10, 10], [5, 10]]
