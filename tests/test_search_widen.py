"""The shared ISMCTS's progressive widening (koloda/bots/search/ismcts.py, ``preferred``
and ``widen``): below the root a node visited fewer than ``widen`` times searches only
its state's preferred move, from then on every move; 0 never asks for the preferred move,
``math.inf`` never searches anything else below the root."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from koloda.bots.search.ismcts import ISMCTS
from koloda.engine.deal import DealState
from koloda.engine.registry import new_game


class Recorder(ISMCTS):
    """Random rollouts; the preferred move is a state's last legal action. Records each
    iteration's tree moves and whether each was the preferred one of its state."""

    def __init__(self, widen: float) -> None:
        super().__init__("durak", iterations=300)
        self.widen = widen
        self.paths: list[list[tuple[str, bool]]] = []
        self.asked = 0
        self.searched_all = 0

    def determinize(self, observation: Any, rng: random.Random) -> DealState:
        self.paths.append([])            # one sample an iteration
        return super().determinize(observation, rng)

    def preferred(self, state: DealState) -> str | None:
        self.asked += 1
        return state.legal_actions()[-1]

    def node_actions(self, state: DealState) -> list[str]:
        self.searched_all += 1
        return super().node_actions(state)

    def apply(self, state: DealState, action: str) -> None:
        self.paths[-1].append((action, action == state.legal_actions()[-1]))
        super().apply(state, action)


def decide(bot: Recorder) -> None:
    match = new_game("durak", players=2, seed=5)
    seat = match.to_move
    assert seat is not None
    bot.choose(match.observation(seat), match.legal_actions(), random.Random(1))


def test_a_node_visited_fewer_than_widen_times_searches_only_the_preferred_move() -> None:
    k = 6
    bot = Recorder(k)
    decide(bot)
    seen: list[list[str]] = []
    widened_others = 0
    for path in bot.paths:
        moves = [a for a, _ in path]
        for depth in range(1, len(path)):
            prefix = moves[:depth]      # the node chosen at: its visits so far
            visits = sum(1 for earlier in seen if earlier[:depth] == prefix)
            if visits < k:
                assert path[depth][1], (prefix, visits, path[depth])
            elif not path[depth][1]:
                widened_others += 1
        seen.append(moves)
    assert len(bot.paths) > 100
    assert widened_others > 0           # once widened, the other moves are searched too
    assert bot.asked > 0 and bot.searched_all > 0


def test_widen_zero_never_asks_for_the_preferred_move() -> None:
    bot = Recorder(0)
    decide(bot)
    assert bot.asked == 0 and bot.searched_all > 0


def test_widen_without_end_searches_only_the_preferred_move_below_the_root() -> None:
    bot = Recorder(math.inf)
    decide(bot)
    assert bot.searched_all == 0 and bot.asked > 0
    assert all(ok for path in bot.paths for _, ok in path[1:])


@pytest.mark.parametrize("widen", [0, 6, math.inf])
def test_no_preferred_move_searches_every_move(widen: float) -> None:
    class NoPreference(Recorder):
        def preferred(self, state: DealState) -> str | None:
            self.asked += 1
            return None

    bot = NoPreference(widen)
    decide(bot)
    assert bot.searched_all > 0
    assert any(not ok for path in bot.paths for _, ok in path[1:])
