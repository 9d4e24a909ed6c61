"""The search's faster shakhi rollout plays exactly the cards of the heuristic's rollout
through the deal state, never goes through the state, and leaves the other variants to the
heuristic module's rollout; the search's decisions are the same with either."""

from __future__ import annotations

import random
from typing import Any

import pytest

import koloda
import koloda.bots.heuristic.opendaum as heuristic_module
import koloda.bots.search.games.opendaum_rollout as rollout_module
from koloda.bots.heuristic.opendaum import OpendaumHeuristic, rollout_by_state
from koloda.bots.search.games.opendaum import OpendaumSearch
from koloda.bots.search.games.opendaum_rollout import is_shakhi, rollout, shakhi_plays
from koloda.tricks import PLAY_ACTION, OpendaumShakhiPolicy, Trick
from tests.test_bots_opendaum import GAMES

SHAKHI_GAMES = [g for g in GAMES if g[0] == "opendaum-shakhi"]


def random_states(game: str, players: int, opts: dict[str, Any], seeds: int,
                  heuristic: bool = False) -> list[Any]:
    """Deal states part-played (bids, then some cards) at random or by the heuristic."""
    out = []
    h = OpendaumHeuristic(game)
    for seed in range(seeds):
        m = koloda.new_deal(game, players=players, seed=seed, start_deal=seed % 9, **opts)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 4 * players + 1)):
            if m.is_over:
                break
            seat = m.to_move
            assert seat is not None
            legal = m.legal_actions()
            m.apply(h.choose(m.observation(seat), legal, rng) if heuristic
                    else rng.choice(legal))
        if not m.is_over:
            out.append(m.current.clone())
    return out


def test_the_shakhi_plays_are_the_rules_plays_in_their_order() -> None:
    checked = 0
    for game, players, opts in SHAKHI_GAMES:
        for st in random_states(game, players, opts, 30):
            rules = st.rules
            policy = rules.policy
            assert isinstance(policy, OpendaumShakhiPolicy) and is_shakhi(rules)
            # every trick on the way: each seat's hand against the trick on the table
            while not st.is_over:
                if st.phase == "play":
                    trick: Trick = st.trick
                    for hand in st.hands:
                        if hand:
                            want = [PLAY_ACTION[a] for a in rules.plays(hand, trick)]
                            got = shakhi_plays(rules, policy.ruff_only_when_only_trumps,
                                               list(hand), trick.led if trick.cards else None)
                            assert got == want
                            checked += 1
                st.apply(random.Random(checked).choice(st.legal_actions()))
    assert checked > 1000


def test_the_shakhi_rollout_plays_the_same_deal_as_the_rollout_through_the_deal_state(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(state: Any) -> None:
        raise AssertionError("played through the deal state")
    checked = 0
    for game, players, opts in SHAKHI_GAMES:
        for heuristic in (False, True):
            for st in random_states(game, players, opts, 40, heuristic):
                fast, slow = st.clone(), st.clone()
                with monkeypatch.context() as mp:
                    mp.setattr(heuristic_module, "rollout_by_state", refuse)
                    mp.setattr(rollout_module, "heuristic_rollout", refuse)
                    rollout(fast)
                while slow.phase == "bid":        # the bids as the heuristic makes them
                    slow.apply_unchecked(heuristic_module.choose_in_state(slow))
                if not slow.is_over:
                    rollout_by_state(slow)
                checked += 1
                assert fast.is_over and fast.phase == slow.phase and fast.to_move is None
                assert fast.hands == slow.hands and fast.bids == slow.bids
                assert fast.tricks == slow.tricks and fast.taken == slow.taken
                assert fast.payoffs() == slow.payoffs() and fast.legal_actions() == []
    assert checked > 200


def test_the_other_variants_roll_out_by_the_heuristic_modules_rollout(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def spy(state: Any, rng: random.Random | None = None) -> None:
        calls.append(state.rules.policy.__class__.__name__)
        heuristic_module.rollout(state, rng)
    monkeypatch.setattr(rollout_module, "heuristic_rollout", spy)
    for game, players, opts in GAMES:
        for st in random_states(game, players, opts, 3):
            before = len(calls)
            rollout(st.clone())
            assert len(calls) == before + (0 if is_shakhi(st.rules) else 1)
    assert calls and "OpendaumShakhiPolicy" not in calls


class ByState(OpendaumSearch):
    def rollout(self, state: Any, rng: random.Random) -> None:
        heuristic_module.rollout(state, rng)


def test_a_shakhi_search_decides_the_same_with_either_rollout() -> None:
    seen = 0
    for game, players, opts in SHAKHI_GAMES[:2]:
        h = OpendaumHeuristic(game)
        m = koloda.new_deal(game, players=players, seed=4, start_deal=7, **opts)
        rng = random.Random(4)
        while not m.is_over:
            seat = m.to_move
            assert seat is not None
            obs, legal = m.observation(seat), m.legal_actions()
            if len(legal) > 1 and seen < 12:
                fast, slow = OpendaumSearch(game, iterations=2000), ByState(game, iterations=2000)
                a = fast.choose(obs, legal, random.Random(seen))
                b = slow.choose(obs, legal, random.Random(seen))
                assert (a, fast.top_moves()) == (b, slow.top_moves())
                seen += 1
            m.apply(h.choose(obs, legal, rng))
    assert seen >= 8
