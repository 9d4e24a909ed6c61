"""Trinka bots: legal play everywhere, the obvious choice in hand-made positions, and
determinizations that respect every void and every card already played."""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import pytest

import koloda
from koloda.bots import make_bot
from koloda.bots.heuristic.trinka import TrinkaHeuristic, expected_worth, rollout, wants_trick
from koloda.bots.search import SearchBot
from koloda.bots.search.games.trinka import TrinkaSearch
from koloda.cards import CLUBS, TEXT_CARD, parse_cards
from koloda.engine.deal import Deal
from koloda.games.trinka import ALL_NINE, CARDS_OF, TrinkaDeal, determinize
from tests.bots_common import drive
from tests.bots_common import seat_view as _seat_view

#: a deal state's observation as a trinka match gives it
seat_view = partial(_seat_view, "trinka")

HANDS = ["6C JC JS JH JD AC KC QC 6S", "TC 9C 8C 7C AS KS QS TS 9S",
         "AH KH QH TH 9H 8H 7H 6H 8S", "AD KD QD TD 9D 8D 7D 6D 7S"]


def state(hands: list[str], dealer: int = 3) -> TrinkaDeal:
    return TrinkaDeal(Deal(dealer, tuple(tuple(parse_cards(h)) for h in hands)))


# ---------------------------------------------------------------- legality


def test_heuristic_bot_plays_a_whole_match() -> None:
    m = koloda.new_game("trinka", seed=9, record=4)
    drive(m, [make_bot("heuristic", "trinka")] * 4, random.Random(1))
    assert m.result is not None and len(m.result.winners) in (0, 2)


def test_search_bots_play_only_legal_cards() -> None:
    rng = random.Random(5)
    search = SearchBot("trinka", iterations=30)
    tuned = make_bot("search:easy", "trinka")
    assert isinstance(tuned, TrinkaSearch) and tuned.name == "search:easy"
    tuned.iterations = 30
    for seed in range(3):
        drive(koloda.new_deal("trinka", seed=seed),
              [search, make_bot("heuristic", "trinka"), tuned, make_bot("random", "trinka")],
              rng)


def test_rollout_plays_a_sampled_deal_to_the_end() -> None:
    rng = random.Random(8)
    for seed in range(10):
        m = koloda.new_deal("trinka", seed=seed)
        det = determinize(m.observation(0), rng)
        rollout(det, rng)
        assert det.is_over and sum(det.tricks) == 9


# ---------------------------------------------------------------- payoffs
@pytest.mark.parametrize(("pair0", "pay0"), [
    (1, 1.0), (3, 3.0), (6, -3.0), (8, -1.0), (2, 0.0), (4, 0.0), (5, 0.0), (7, 0.0),
    (9, -ALL_NINE), (0, ALL_NINE),
])
def test_payoffs_pair_gains_what_it_writes_off_and_nine_tricks_lose_double(
        pair0: int, pay0: float) -> None:
    st = state(HANDS)
    st.tricks = [pair0, 9 - pair0, 0, 0]
    assert st.payoffs() == [pay0, -pay0, pay0, -pay0]


# ---------------------------------------------------------------- heuristic
def obs_of(seat: int, hand: str, trick: list[tuple[int, str]], pair_tricks: list[int]
           ) -> dict[str, Any]:
    return {"seat": seat, "hand": hand.split(), "leader": trick[0][0] if trick else seat,
            "trick": [list(p) for p in trick], "pair_tricks": pair_tricks,
            "tricks_played": []}


def test_worth_favours_three_tricks_and_fears_six_and_nine() -> None:
    assert expected_worth(3, 0) == 3.0 and expected_worth(6, 0) == -3.0
    assert wants_trick(2, 8)            # the last trick makes three
    assert not wants_trick(3, 8)        # three already: a fourth only draws
    assert not wants_trick(8, 8)        # nine tricks lose the match double


def test_needing_the_trick_last_player_takes_it_with_the_cheapest_winner() -> None:
    obs = obs_of(1, "AS KS 6S", [(2, "7S"), (3, "8S"), (0, "QS")], [5, 1])
    assert wants_trick(1, 6)
    assert TrinkaHeuristic().choose(obs, ["play 6S", "play KS", "play AS"],
                                    random.Random(0)) == "play KS"


def test_with_three_tricks_the_bot_sheds_its_highest_losing_card() -> None:
    obs = obs_of(1, "AS TS 6S", [(2, "7S"), (3, "8S"), (0, "QS")], [3, 3])
    assert not wants_trick(3, 6)
    assert TrinkaHeuristic().choose(obs, ["play 6S", "play TS", "play AS"],
                                    random.Random(0)) == "play TS"


def test_needing_tricks_the_leader_cashes_the_top_trump() -> None:
    obs = obs_of(0, "6C 7C 6H", [], [1, 5])
    assert wants_trick(1, 6)
    assert TrinkaHeuristic().choose(obs, ["play 6C", "play 7C", "play 6H"],
                                    random.Random(0)) == "play 6C"


# ---------------------------------------------------------------- determinize
def test_a_player_who_does_not_follow_shows_a_void_in_the_observation() -> None:
    st = state(HANDS)
    st.apply("play 6C")              # a trump lead; seat 1 follows with a club
    st.apply("play 7C")
    st.apply("play 8S")              # seat 2 holds no trump: void in trumps ("C")
    assert st.observation(0)["voids"] == [[], [], ["C"], []]
    assert st.observation(0).voids == ((), (), (CLUBS,), ())
    assert st.observation(1)["tricks_played"] == []
    st.apply("play 6D")
    assert st.observation(1)["voids"][3] == ["C"]
    assert st.observation(1)["tricks_played"] == [
        {"cards": [[0, "6C"], [1, "7C"], [2, "8S"], [3, "6D"]], "winner": 0}]


def test_determinization_respects_voids_played_cards_and_the_own_hand() -> None:
    st = state(HANDS)
    for c in ("6C", "7C", "8S", "6D", "JC", "8C", "AH", "7D"):   # seat 2, 3 void in trumps
        st.apply(f"play {c}")
    st.apply("play 6S")
    obs = seat_view(st, 1)
    played = {TEXT_CARD[t] for t in ("6C", "7C", "8S", "6D", "JC", "8C", "AH", "7D", "6S")}
    rng = random.Random(11)
    for _ in range(200):
        det = determinize(obs, rng)
        assert sorted(det.hands[1]) == sorted(st.hands[1])
        assert [len(h) for h in det.hands] == [len(h) for h in st.hands]
        for s in (2, 3):
            assert not CARDS_OF[CLUBS] & set(det.hands[s])
        assert not played & {c for h in det.hands for c in h}
        assert det.observation(1) == st.observation(1)
        assert det.legal_actions() == st.legal_actions()


def test_determinization_varies_the_unknown_hands() -> None:
    st = state(HANDS)
    obs = seat_view(st, 0)
    rng = random.Random(2)
    seen = {tuple(sorted(determinize(obs, rng).hands[1])) for _ in range(20)}
    assert len(seen) > 10
