"""The durak search's endgame solver after it ran out of nodes: not tried again until the
cards in play have shrunk by ``RETRY_SHRINK`` (koloda/bots/search/games/durak.py)."""

from __future__ import annotations

import random
from typing import ClassVar

import pytest

import koloda
from koloda.bots.heuristic.durak import DurakHeuristic
from koloda.bots.search.games import durak as durak_search
from koloda.bots.search.games.durak import RETRY_SHRINK, DurakSearch
from koloda.engine.view import Observation


class CountingSolver(durak_search.EndgameSolver):
    """The solver, noting each try and whether it ran out of nodes."""

    calls: ClassVar[list[bool]] = []

    def best_action(self, preferred: str | None = None) -> tuple[str, int] | None:
        found = super().best_action(preferred)
        CountingSolver.calls.append(found is None)
        return found


def endgame_decisions(seed: int) -> list[tuple[Observation, list[str], int, int]]:
    """A heuristic game's decisions (with two or more moves) once the stock holds at most
    one card, with the seed and the cards in play at each."""
    m = koloda.new_game("durak", players=2, seed=seed)
    h = DurakHeuristic()
    rng = random.Random(seed)
    out = []
    while not m.is_over:
        seat = m.to_move
        assert seat is not None
        obs, legal = m.observation(seat), m.legal_actions()
        if obs["stock_size"] <= 1 and len(legal) > 1:
            out.append((obs, legal, seed, 36 - obs["discard_count"]))
        m.apply(legal[0] if len(legal) == 1 else h.choose(obs, legal, rng))
    return out


def run(retry_later: bool, monkeypatch: pytest.MonkeyPatch,
        decisions: list[tuple[Observation, list[str], int, int]]
        ) -> list[tuple[int, int, bool]]:
    """The seed, the cards in play and whether it ran out, of every decision at which
    the solver was tried."""
    monkeypatch.setattr(durak_search, "EndgameSolver", CountingSolver)
    # a budget far too small for any real endgame: every try runs out
    search = DurakSearch("durak", iterations=4, endgame_nodes=5)
    search.retry_later = retry_later
    tried = []
    CountingSolver.calls = []
    for obs, legal, seed, in_play in decisions:
        before = len(CountingSolver.calls)
        search.choose(obs, legal, random.Random(0))
        if len(CountingSolver.calls) > before:
            tried.append((seed, in_play, CountingSolver.calls[-1]))
    return tried


def test_solver_waits_for_fewer_cards_in_play_after_running_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    decisions = [d for seed in range(6) for d in endgame_decisions(seed)]
    assert len(decisions) > 20
    every = run(False, monkeypatch, decisions)
    assert len(every) == len(decisions)      # without the rule: a try at every decision
    fewer = run(True, monkeypatch, decisions)
    assert 0 < len(fewer) < len(every)
    assert sum(out for _, _, out in every) > 10     # most tries ran out of nodes
    assert {seed for seed, _, _ in fewer} == {seed for _, _, seed, _ in decisions}
    # within one game, after a try that ran out, the next comes only once the cards in
    # play have shrunk by RETRY_SHRINK
    for (s1, a, out), (s2, b, _) in zip(fewer, fewer[1:], strict=False):
        assert s1 != s2 or not out or b <= a - RETRY_SHRINK
