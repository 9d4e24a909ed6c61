"""Mushka bots: legal play everywhere, the obvious choice in hand-made positions, payoffs
on the count's scale, and determinizations that respect every void and public card."""

from __future__ import annotations

import random
from collections import Counter
from functools import partial
from typing import Any

import koloda
from koloda.bots import make_bot
from koloda.bots.heuristic.mushka import MushkaHeuristic, rollout
from koloda.bots.search.games.mushka import (
    BeliefSampler,
    ExchangeSampler,
    MushkaSearch,
    belief_sampler,
    candidates,
)
from koloda.cards import SUITS, TEXT_CARD, deck, parse_card, suit_of
from koloda.engine.deal import Deal
from koloda.games._hidden import deal_hidden
from koloda.games.mushka import MushkaDeal, Sampler, determinize
from tests.bots_common import drive
from tests.bots_common import seat_view as _seat_view
from tests.test_mushka import HANDS, make_deal

#: a deal state's observation as a mushka match gives it
seat_view = partial(_seat_view, "mushka")


def heuristic_choice(st: MushkaDeal) -> str:
    seat = st.to_move
    assert seat is not None
    return MushkaHeuristic().choose(seat_view(st, seat), st.legal_actions(), random.Random(0))


# ---------------------------------------------------------------- legality


def test_heuristic_bot_plays_a_whole_match() -> None:
    m = koloda.new_game("mushka", seed=9)
    drive(m, [make_bot("heuristic", "mushka")] * 4, random.Random(1))
    assert m.result is not None and min(m.result.scores) <= 0


# ---------------------------------------------------------------- payoffs
def test_payoffs_are_the_counts_change_negated() -> None:
    st = MushkaDeal(make_deal(HANDS, "7H", "8H 9H TH JH QH"))
    for a in ("stand", "pass", "stand", "stand"):   # seats 1, 2, 3, 0: seat 2 passes
        st.apply(a)
    rollout(st)
    assert st.is_over
    pay = st.payoffs()
    assert pay[2] == 0.0                         # passed: the count stays
    for s in (0, 1, 3):                          # a trick is +1, none in play −5
        assert pay[s] == (st.tricks[s] if st.tricks[s] else -5.0)


def test_alone_in_the_deal_takes_five() -> None:
    st = MushkaDeal(make_deal(HANDS, "7H", "8H 9H TH JH QH"))   # seat 1 holds AS
    for a in ("stand", "pass", "pass", "pass"):
        st.apply(a)
    assert st.is_over and st.payoffs() == [0.0, 5.0, 0.0, 0.0]


def test_clone_is_independent() -> None:
    st = MushkaDeal(make_deal(HANDS, "7H", "8H 9H TH JH QH"))
    for a in ("stand", "stand", "stand", "stand"):
        st.apply(a)
    st.apply("play TS")
    copy = st.clone()
    rollout(copy)
    assert copy.is_over and not st.is_over
    assert [len(h) for h in st.hands] == [5, 4, 5, 5] and len(st.trick or []) == 1


# ---------------------------------------------------------------- heuristic
def test_last_to_choose_with_everybody_else_out_stands() -> None:
    st = MushkaDeal(make_deal(["7S 8S 9S 7C 8C", "QC KC AC QD KD", "7D 8D 9D TD JD",
                               "9C TC JC TS JS"], "7H", "8H 9H TH JH QH"))
    for _ in range(3):
        st.apply("pass")                         # seats 1, 2 and 3 out: seat 0 deals
    assert st.to_move == 0 and heuristic_choice(st) == "stand"


def test_a_hopeless_hand_passes_when_the_stock_cannot_help() -> None:
    hands = ["7S 8S 7C 8C 7D", "AS KS QS JS TS", "9C TC JC QC KC", "8D 9D TD JD QD"]
    st = MushkaDeal(make_deal(hands, "7H", "8H"))
    st.stock = st.stock[:1]                       # one card left to draw
    for _ in range(3):
        st.apply("stand")
    assert st.to_move == 0 and "discard 7S" in st.legal_actions()
    assert heuristic_choice(st) == "pass"


def test_the_exchange_keeps_trumps_and_aces() -> None:
    st = MushkaDeal(make_deal(["7S 8C AD 9H KH", "QC KC AC QD KD", "7D 8D 9D TD JD",
                               "9C TC JC TS JS"], "7H", "8H TH JH QH AH", dealer=3))
    a = heuristic_choice(st)
    assert a.startswith("discard")
    thrown = a.split()[1:]
    assert "AD" not in thrown and "9H" not in thrown and "KH" not in thrown
    assert "7S" in thrown and "8C" in thrown


def test_last_to_play_takes_the_trick_with_the_cheapest_winner() -> None:
    hands = ["QS KS AS 9C QC", "TS 7D 8D 9D TD", "JS 7C JD QD KD", "9S AD 8C TC JC"]
    st = MushkaDeal(make_deal(hands, "7H", "8H"))
    for a in ("stand", "stand", "stand", "stand", "play TS", "play JS", "play 9S"):
        st.apply(a)
    assert st.to_move == 0 and heuristic_choice(st) == "play QS"


def test_unable_to_win_the_bot_throws_its_cheapest_card() -> None:
    hands = ["7S KS AS 9C QC", "TS 7D 8D 9D TD", "JS 7C JD QD KD", "9S AD 8C TC JC"]
    st = MushkaDeal(make_deal(hands, "7H", "8H"))
    for a in ("stand", "stand", "stand", "stand", "play 7D", "play KD", "play AD"):
        st.apply(a)
    # seat 0 is void in diamonds and trumps: any card, none wins; the cheapest goes
    assert st.to_move == 0 and heuristic_choice(st) == "play 7S"


def test_holding_the_top_trump_the_leader_cashes_it() -> None:
    hands = ["AH 7S 8S 7C 8C", "QC KC AC QD KD", "7D 8D 9D TD JD", "9C TC JC TS JS"]
    st = MushkaDeal(make_deal(hands, "7H", "8H 9H TH JH QH", dealer=3))
    for _ in range(4):
        st.apply("stand")
    assert st.to_move == 0 and heuristic_choice(st) == "play AH"


def test_search_candidates_include_stand_pass_and_every_throw_of_the_weak_cards() -> None:
    st = MushkaDeal(make_deal(["7S 8C AD 9H KH", "QC KC AC QD KD", "7D 8D 9D TD JD",
                               "9C TC JC TS JS"], "7H", "8H TH JH QH AH", dealer=3))
    acts = candidates(seat_view(st, 0), st.legal_actions())
    assert {"stand", "pass", "discard 7S", "discard 8C", "discard 7S 8C"} <= set(acts)
    assert set(acts) <= set(st.legal_actions())


# ---------------------------------------------------------------- determinize
def test_a_player_who_does_not_follow_shows_a_void_in_the_observation() -> None:
    hands = ["AH 7S 8S 7C 8C", "QC KC AC QD KD", "7D 8D 9D TD JD", "9C TC JC TS JS"]
    st = MushkaDeal(make_deal(hands, "7H", "8H 9H TH JH QH", dealer=3))
    for _ in range(4):
        st.apply("stand")
    st.apply("play 7S")      # seat 1 holds no spade and no trump: void in both
    st.apply("play QC")
    assert st.observation(0)["voids"][1] == ["S", "H"]
    st.apply("play 7D")      # seat 2 likewise
    assert st.observation(3)["voids"][2] == ["S", "H"]
    st.apply("play TS")      # seat 3 follows: nothing learnt
    assert st.observation(0)["voids"][3] == []


def test_determinizations_respect_voids_public_cards_and_counts() -> None:
    rng = random.Random(11)
    checked = 0
    for seed in range(60):
        m = koloda.new_deal("mushka", seed=seed)
        while not m.is_over:
            seat = m.to_move
            assert seat is not None
            obs = m.observation(seat)
            real = m.current
            assert isinstance(real, MushkaDeal)
            for _ in range(3):
                det = determinize(obs, rng)
                assert det.hands[seat] == real.hands[seat]
                assert det.discards[seat] == real.discards[seat]
                assert [len(h) for h in det.hands] == [len(h) for h in real.hands]
                assert [len(d) for d in det.discards] == [len(d) for d in real.discards]
                assert len(det.stock) == len(real.stock)
                assert det.trump_card == real.trump_card
                public = real.played | {real.trump_card}
                for s in range(4):
                    if s != seat:
                        assert not public & set(det.hands[s])
                        assert not set(real.discards[seat]) & set(det.hands[s])
                        for v in obs["voids"][s]:
                            assert all(suit_of(c) != SUITS.index(v) for c in det.hands[s])
                zones = Counter(c for cs in det.card_zones().values() for c in cs)
                assert zones == Counter(deck(32))
                checked += 1
            m.apply(m.legal_actions()[rng.randrange(len(m.legal_actions()))])
    assert checked > 1000


def test_deal_hidden_finds_the_one_arrangement_a_tight_void_leaves() -> None:
    # a hand void in three suits takes the only two clubs; the rest go anywhere
    clubs = [parse_card("7C"), parse_card("8C")]
    rest = [parse_card(t) for t in ("7D", "8D", "9D", "7S", "8S", "9S")]
    no_clubs = frozenset(c for c in deck(32) if suit_of(c) != 1)
    for seed in range(50):
        out = deal_hidden(rest + clubs, [2, 3, 3], [no_clubs, frozenset(), frozenset()],
                           random.Random(seed))
        assert sorted(out[0]) == sorted(clubs)


def test_belief_sampling_favours_strong_hands_for_those_who_stood() -> None:
    """A player who stood with three behind him usually holds trumps."""
    rng = random.Random(4)
    st = MushkaDeal(Deal(3, tuple(tuple(TEXT_CARD[t] for t in h.split()) for h in
                                  ["7S 8S 9S 7C 8C", "QC KC AC QD KD", "7D 8D 9D TD JD",
                                   "9C TC JC TS JS"]),
                         tuple(TEXT_CARD[t] for t in "8H 9H TH JH QH KH AH AS AD KS QS"
                               .split()), TEXT_CARD["7H"]))
    st.apply("stand")        # seat 0 stands on a weak hand (unknown to seat 1)
    obs = seat_view(st, 1)
    plain, belief = Sampler(obs), BeliefSampler(obs)

    def trumps(sampler: Any) -> float:
        return sum(sum(suit_of(c) == 3 for c in sampler.sample(rng).hands[0])
                   for _ in range(300)) / 300

    assert trumps(belief) > trumps(plain) + 0.2


def test_exchange_samples_fit_every_count_and_public_card() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        m = koloda.new_deal("mushka", seed=seed)
        while not m.is_over and m.current.phase == "exchange":
            seat = m.to_move
            assert seat is not None
            obs = m.observation(seat)
            real = m.current
            assert isinstance(real, MushkaDeal)
            assert isinstance(belief_sampler(obs), ExchangeSampler)
            sampler = ExchangeSampler(obs)
            for _ in range(3):
                det = sampler.sample(rng)
                assert det.hands[seat] == real.hands[seat]
                assert det.discards[seat] == real.discards[seat]
                assert [len(h) for h in det.hands] == [len(h) for h in real.hands]
                assert [len(d) for d in det.discards] == [len(d) for d in real.discards]
                assert len(det.stock) == len(real.stock)
                assert det.choices == real.choices and det.to_move == seat
                assert det.legal_actions() == real.legal_actions()
                zones = Counter(c for cs in det.card_zones().values() for c in cs)
                assert zones == Counter(deck(32))
                checked += 1
            m.apply(m.legal_actions()[rng.randrange(len(m.legal_actions()))])
    assert checked > 200


def test_exchange_sampling_favours_strong_hands_for_those_who_stood() -> None:
    """Made forwards from the choice: one who stood with three behind holds trumps."""
    rng = random.Random(4)
    st = MushkaDeal(Deal(3, tuple(tuple(TEXT_CARD[t] for t in h.split()) for h in
                                  ["7S 8S 9S 7C 8C", "QC KC AC QD KD", "7D 8D 9D TD JD",
                                   "9C TC JC TS JS"]),
                         tuple(TEXT_CARD[t] for t in "8H 9H TH JH QH KH AH AS AD KS QS"
                               .split()), TEXT_CARD["7H"]))
    st.apply("stand")
    obs = seat_view(st, 1)
    plain, forwards = Sampler(obs), ExchangeSampler(obs)

    def trumps(sampler: Any) -> float:
        return sum(sum(suit_of(c) == 3 for c in sampler.sample(rng).hands[0])
                   for _ in range(300)) / 300

    assert trumps(forwards) > trumps(plain) + 0.2


def test_pruning_drops_a_clearly_worse_action_and_keeps_the_default() -> None:
    got = {"a": [1.0, 0.0] * 16, "b": [-5.0, -6.0] * 16, "c": [0.0, 1.0] * 16,
           "d": [-6.0, -6.0] * 16}
    assert MushkaSearch()._prune(["a", "b", "c", "d"], got, "d") == ["a", "c", "d"]


def test_play_samples_reweighted_by_the_exchange_still_respect_voids_and_public_cards() -> None:
    rng = random.Random(9)
    checked = 0
    for seed in range(40):
        m = koloda.new_deal("mushka", seed=seed)
        while not m.is_over:
            seat = m.to_move
            assert seat is not None
            real = m.current
            assert isinstance(real, MushkaDeal)
            if real.phase == "play":
                obs = m.observation(seat)
                sampler = belief_sampler(obs)
                assert isinstance(sampler, BeliefSampler)
                det = sampler.sample(rng)
                assert det.hands[seat] == real.hands[seat]
                assert [len(h) for h in det.hands] == [len(h) for h in real.hands]
                assert len(det.stock) == len(real.stock)
                for s in range(4):
                    if s != seat:
                        assert not real.played & set(det.hands[s])
                        for v in obs["voids"][s]:
                            assert all(suit_of(c) != SUITS.index(v) for c in det.hands[s])
                zones = Counter(c for cs in det.card_zones().values() for c in cs)
                assert zones == Counter(deck(32))
                checked += 1
            m.apply(m.legal_actions()[rng.randrange(len(m.legal_actions()))])
    assert checked > 100
