"""Dreyfus bots: legal actions everywhere, the obvious choice in hand-made positions, the
voids play shows, and determinizations that respect them and every card a seat has seen."""

from __future__ import annotations

import random
from functools import partial

import pytest

import koloda
from koloda.bots import make_bot
from koloda.bots.heuristic.dreyfus import (
    DreyfusHeuristic,
    exchange_candidates,
    exchange_choice,
    rollout,
)
from koloda.bots.search import SearchBot
from koloda.bots.search.games.dreyfus import DreyfusSearch
from koloda.cards import CARD_TEXT, TEXT_CARD, deck, parse_cards, suit_of
from koloda.engine.deal import Deal
from koloda.engine.errors import IllegalAction
from koloda.games.dreyfus import DreyfusDeal, determinize
from tests.bots_common import drive
from tests.bots_common import seat_view as _seat_view

#: a deal state's observation as a dreyfus match gives it
seat_view = partial(_seat_view, "dreyfus")

SUITS = {s: [CARD_TEXT[c] for c in deck(48) if CARD_TEXT[c][1] == s] for s in "SCDH"}
SPADES, CLUBS, DIAMONDS, HEARTS = range(4)


def state(hands: list[list[str]], widow: list[str], dealer: int = 0,
          number: int = 0) -> DreyfusDeal:
    deal = Deal(dealer, tuple(tuple(parse_cards(h)) for h in hands), tuple(parse_cards(widow)))
    return DreyfusDeal(deal, number)


def suited_state(number: int = 0, dealer: int = 0) -> DreyfusDeal:
    """Seat 0 diamonds, seat 1 spades, seat 2 clubs, the widow hearts."""
    return state([SUITS["D"], SUITS["S"], SUITS["C"]], SUITS["H"], dealer, number)


def mixed_state(dealer: int = 0, number: int = 0) -> DreyfusDeal:
    """A shuffled deal (seeded), for positions where suits are mixed."""
    cards = [CARD_TEXT[c] for c in deck(48)]
    random.Random(7).shuffle(cards)
    return state([cards[0:12], cards[12:24], cards[24:36]], cards[36:], dealer, number)


# ---------------------------------------------------------------- legality


def test_heuristic_bot_plays_a_whole_match() -> None:
    m = koloda.new_game("dreyfus", seed=4, finish="deal")
    drive(m, [make_bot("heuristic", "dreyfus")] * 3, random.Random(2))
    assert m.result is not None and sum(m.result.scores) == 0


def test_search_bots_take_only_legal_actions() -> None:
    rng = random.Random(3)
    tuned = make_bot("search:easy", "dreyfus")
    assert isinstance(tuned, DreyfusSearch)
    tuned.iterations = 20
    plain = SearchBot("dreyfus", iterations=8)
    drive(koloda.new_deal("dreyfus", seed=1), [tuned, plain, make_bot("heuristic", "dreyfus")],
          rng)
    drive(koloda.new_deal("dreyfus", seed=2), [make_bot("random", "dreyfus"), tuned, tuned],
          rng)


def test_rollout_plays_a_sampled_deal_to_the_end_without_listing_discards() -> None:
    rng = random.Random(5)
    for seed in range(10):
        m = koloda.new_deal("dreyfus", seed=seed)
        assert m.to_move is not None
        det = determinize(m.observation(m.to_move), rng)
        rollout(det, rng)
        assert det.is_over and sum(det.tricks) == 12


# ---------------------------------------------------------------- payoffs and buying
@pytest.mark.parametrize(("bought", "tricks", "pay"), [
    (0, 4, 0.0), (0, 7, 3.0), (2, 4, -2.0), (3, 1, -6.0), (1, 12, 7.0)])
def test_payoffs_are_the_change_below_minus_above_the_line(bought: int, tricks: int,
                                                           pay: float) -> None:
    st = suited_state()
    st.bought = [bought, 0, 0]
    st.tricks = [tricks, 12 - tricks, 0]
    assert st.payoffs()[0] == pay
    assert st.payoffs()[1] == 12 - tricks - 4


def test_buy_is_the_discard_action_without_the_list() -> None:
    a, b = suited_state(), suited_state()
    a.apply("discard 3S 4S")
    b.buy(parse_cards("3S 4S"))
    assert a.hands == b.hands and a.widow == b.widow and a.to_move == b.to_move
    assert a.observation(1) == b.observation(1)
    b.buy([])                                   # stand
    assert b.bought == [0, 2, 0] and b.to_move == 0


def test_buy_refuses_what_the_rules_refuse() -> None:
    st = suited_state()
    with pytest.raises(IllegalAction, match="do not hold"):
        st.buy(parse_cards("3H"))
    st.buy([TEXT_CARD[t] for t in SUITS["S"][:10]])
    with pytest.raises(IllegalAction, match="only 2 card"):
        st.buy(parse_cards("3C 4C 5C"))


# ---------------------------------------------------------------- heuristic
def test_exchange_stands_without_long_trumps() -> None:
    assert exchange_choice(parse_cards("3S 4S 5S AC KC 3D 4D 5D 6D 3H 4H 5H"), SPADES, 12) == []
    assert exchange_choice(parse_cards("3S 4S 5S 6S 7S 3C 4D 5D 6D 3H 4H 5H"), None, 12) == []


def test_exchange_discards_a_short_low_side_suit_when_long_in_trumps() -> None:
    hand = parse_cards("3S 5S 8S JS KS AS 4C AD KD QD JD TD")
    assert exchange_choice(hand, SPADES, 12) == parse_cards("4C")
    assert exchange_choice(hand, SPADES, 0) == []


def test_last_to_play_takes_the_trick_with_the_cheapest_winner() -> None:
    st = state([["5H", *SUITS["D"][:11]], ["9H", "KH", "AH", *SUITS["S"][:9]],
                ["6H", *SUITS["C"][:11]]], SUITS["H"][:4] + SUITS["H"][7:9] + ["QH", "JH"]
               + SUITS["S"][9:] + SUITS["C"][11:] + SUITS["D"][11:], dealer=1)
    while st.phase == "exchange":
        st.apply("stand")
    assert st.to_move == 2
    st.apply("play 6H")
    st.apply("play 5H")
    legal = st.legal_actions()
    assert st.to_move == 1 and legal == ["play 9H", "play KH", "play AH"]
    bot = DreyfusHeuristic()
    assert bot.choose(seat_view(st, 1), legal, random.Random(0)) == "play 9H"


def test_leader_draws_trumps_with_the_top_trump() -> None:
    st = suited_state(number=0, dealer=2)       # spades are trumps, seat 0 leads
    st.hands[0][0:2] = parse_cards("AS KS")     # give seat 0 the top spades …
    st.hands[1][-2:] = parse_cards("3D 4D")     # … and seat 1 its two low diamonds
    st.hands = [sorted(h) for h in st.hands]
    while st.phase == "exchange":
        st.apply("stand")
    assert st.to_move == 0
    bot = DreyfusHeuristic()
    assert bot.choose(seat_view(st, 0), st.legal_actions(), random.Random(0)) == "play AS"


def test_exchange_candidates_are_few_and_start_with_stand() -> None:
    hand = parse_cards("3S 5S 8S JS KS AS 4C AD KD QD JD TD")
    cands = exchange_candidates(hand, SPADES, 12)
    assert cands[0] == [] and cands[1] == parse_cards("4C")
    assert len(cands) <= 16 and all(len(c) <= 2 for c in cands)


# ---------------------------------------------------------------- what play shows
def test_not_following_shows_a_void_and_not_trumping_a_trump_void() -> None:
    st = suited_state(number=0, dealer=2)       # spades trump; seat 0 diamonds only
    while st.phase == "exchange":
        st.apply("stand")
    st.apply("play 3D")
    st.apply("play 3S")                         # seat 1: no diamond, trumps
    st.apply("play 3C")                         # seat 2: no diamond, no trump
    obs = st.observation(0)
    assert obs["voids"] == [[], ["D"], ["S", "D"]]
    assert obs.voids == ((), (DIAMONDS,), (SPADES, DIAMONDS))
    assert obs["tricks_played"][0]["cards"] == [[0, "3D"], [1, "3S"], [2, "3C"]]


def test_determinization_respects_voids_discards_and_the_own_hand() -> None:
    st = mixed_state(dealer=2, number=1)        # clubs trump; exchange from seat 0
    st.apply(cards_discard(st.hands[0][:3]))
    st.apply(cards_discard(st.hands[1][:2]))
    st.apply("stand")
    for _ in range(9):
        st.apply(st.legal_actions()[-1])
    seat = st.to_move
    assert seat is not None
    obs = seat_view(st, seat)
    rng = random.Random(9)
    played = {c for tr in st.history for _, c in tr.cards}
    for _ in range(100):
        det = determinize(obs, rng)
        assert det.observation(seat) == st.observation(seat)
        assert det.legal_actions() == st.legal_actions() and det.to_move == seat
        assert sorted(det.hands[seat]) == sorted(st.hands[seat])
        assert det.discards[seat] == st.discards[seat]
        assert [len(d) for d in det.discards] == [3, 2, 0]
        assert len(det.widow) == len(st.widow)
        for s in range(3):
            for v in st.voids[s]:
                assert not any(suit_of(c) == v for c in det.hands[s])
        assert not played & {c for h in det.hands for c in h}


def test_determinization_in_the_exchange_hides_earlier_discards() -> None:
    st = mixed_state(dealer=0)
    st.apply(cards_discard(st.hands[1][:4]))    # seat 1 buys four
    obs = seat_view(st, 2)
    rng = random.Random(1)
    seen = set()
    for _ in range(30):
        det = determinize(obs, rng)
        assert det.observation(2) == st.observation(2)
        assert len(det.discards[1]) == 4 and len(det.widow) == 8
        assert not set(det.discards[1]) & set(st.hands[2])
        seen.add(tuple(sorted(det.discards[1])))
    assert len(seen) > 20


def test_search_exchange_returns_a_legal_discard() -> None:
    st = mixed_state(dealer=0)
    bot = DreyfusSearch("dreyfus", iterations=60, seconds=5.0, name="t")
    action = bot.choose(seat_view(st, 1), st.legal_actions(), random.Random(0))
    assert action in st.legal_actions()
    assert bot.last.iterations >= 4                      # every candidate on the same sampled deals
    # the last buyer: discards are tried without listing them, stand is among them
    means = bot.evaluate(seat_view(st, 1), ["stand", "discard " + CARD_TEXT[st.hands[1][0]]],
                         random.Random(1))
    assert set(means) == {"stand", "discard " + CARD_TEXT[st.hands[1][0]]}


def test_clone_shares_nothing_mutable() -> None:
    st = mixed_state(dealer=0)
    st.apply("stand")
    copy = st.clone()
    copy.buy(copy.hands[2][:2])
    while not copy.is_over:
        copy.apply(copy.legal_actions()[0])
    assert st.observation(2) == mixed_state_after_stand().observation(2)
    assert st.widow == mixed_state_after_stand().widow and not st.history


def mixed_state_after_stand() -> DreyfusDeal:
    st = mixed_state(dealer=0)
    st.apply("stand")
    return st


def cards_discard(cards: list[int]) -> str:
    return "discard " + " ".join(CARD_TEXT[c] for c in sorted(cards))
