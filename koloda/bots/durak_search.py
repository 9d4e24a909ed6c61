"""The durak search bot: ISMCTS with heuristic rollouts, and an exact endgame.

Durak punishes random play hard (a random defender takes or wastes trumps at random), so
random rollouts say little about a move; the rollouts here play the heuristic
(``koloda.bots.heuristic.durak.decide``) for every seat. Two players with the stock empty
see every card (the other hand is whatever is not in the discard pile, on the table or in
one's own hand): there the bot solves the game exactly (``durak_endgame``) and plays a
move of the best value, keeping to the heuristic's choice when it is one of them.

The tree's actions are the legal actions less those that can only be worse: in simple
durak a lead or throw-in of several cards is no better than the same cards one at a time
(the defender answers each, and the attacker may still add the next); in transfer durak
several cards of a rank may open an attack, since the defender's transfer depends on it.
Values are win 1, draw 0, loss -1 for two sides (two players or teams); with more sides
the game's payoffs.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from typing import Any

from koloda.bots.durak_endgame import EndgameSolver, Key, SolverBudget
from koloda.bots.heuristic.durak import (
    action_text,
    decide,
    view_from_observation,
    view_from_state,
)
from koloda.engine.errors import ConfigError
from koloda.engine.registry import get_spec
from koloda.games.durak.rounds import DurakGame

#: level → (iterations, seconds, endgame nodes): whichever budget runs out first
LEVELS: dict[str, tuple[int, float, int]] = {
    "easy": (100, 0.1, 5_000),
    "normal": (400, 0.75, 120_000),
    "hard": (5000, 3.0, 1_000_000),
}


#: a rollout longer than this is called a draw: transfer durak can go round in circles
ROLLOUT_STEPS = 1500


def heuristic_rollout(g: DurakGame) -> bool:
    """Play to the end with the heuristic in every seat (its actions are legal by
    construction, so they go straight to ``act``, the game's unchecked apply by verb and
    cards, without building texts or the legal list). False when the game went on past
    ``ROLLOUT_STEPS``."""
    act = g.act
    for _ in range(ROLLOUT_STEPS):
        if g.is_over:
            return True
        act(*decide(view_from_state(g)))
    return g.is_over


def tree_actions(legal: list[str], transfer: bool) -> list[str]:
    """The legal actions worth searching (see the module docstring)."""
    out = []
    for a in legal:
        several = a.count(" ") > 1
        if several and (a.startswith("throw ") or (a.startswith("attack ") and not transfer)):
            continue
        out.append(a)
    return out


def utilities(g: DurakGame) -> list[float]:
    if not g.is_over:
        return [0.0] * g.players
    pay = g.payoffs()
    n = g.players
    if n == 2 or g.teams:
        return [pay[s] - pay[(s + 1) % n] for s in range(n)]
    return pay


class _Node:
    __slots__ = ("avail", "children", "mover", "total", "visits")

    def __init__(self, mover: int | None) -> None:
        self.mover = mover
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


class DurakSearch:
    """SO-ISMCTS over the durak determinizer with heuristic rollouts; exact endgames."""

    def __init__(self, game: str, iterations: int = 400, seconds: float = 0.75,
                 endgame_nodes: int = 120_000, exploration: float = 0.7,
                 name: str = "search") -> None:
        spec = get_spec(game)
        assert spec.determinize is not None
        self.determinize = spec.determinize
        self.transfer = spec.variant == "perevodnoy"
        self.iterations = iterations
        self.seconds = seconds
        self.endgame_nodes = endgame_nodes
        self.exploration = exploration
        self.name = name
        self.last: dict[str, Any] = {}
        #: endgame positions solved so far (valid for one trump suit, variant and limit)
        self._memo: dict[Key, tuple[int, int]] = {}
        self._memo_game: tuple[Any, ...] = ()

    def top_moves(self) -> list[tuple[str, float]]:
        """The last decision's moves, most searched first, with their mean utility for
        the deciding seat (what a hint shows); an exact endgame names its one move."""
        last = self.last
        if last.get("endgame"):
            best = last.get("best")
            return [(str(best), 1.0)] if isinstance(best, str) else []
        visits: dict[str, tuple[int, float]] = last.get("visits", {})
        return [(a, v) for a, (_, v) in sorted(visits.items(), key=lambda kv: -kv[1][0])]

    def choose(self, observation: Mapping[str, Any], legal: list[str],
               rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        start = time.perf_counter()
        if observation["players"] == 2 and observation["stock_size"] == 0:
            action = self._endgame(observation, legal, rng, start)
            if action is not None:
                return action
        return self._ismcts(observation, legal, rng, start)

    # ------------------------------------------------------------ endgame
    def _endgame(self, obs: Mapping[str, Any], legal: list[str], rng: random.Random,
                 start: float) -> str | None:
        """A move of the best exact value; None when the budget is too small, or when the
        game is lost whatever we do (then the search picks the most stubborn move)."""
        state = self.determinize(obs, rng)     # exact: nothing is unknown any more
        assert isinstance(state, DurakGame)
        # a position's value depends only on these (and the cards): keep what was solved
        game = (obs["trump_suit"], obs["variant"], obs["first_bout_limit"])
        if game != self._memo_game or len(self._memo) > 2_000_000:
            self._memo, self._memo_game = {}, game
        # at most half the time: a position too big to solve gets the search instead
        solver = EndgameSolver(state, SolverBudget(self.endgame_nodes,
                                                   start + self.seconds * 0.5), self._memo)
        preferred = action_text(decide(view_from_observation(obs, legal)))
        found = solver.best_action(preferred)
        self.last = {"endgame": True, "nodes": solver.nodes, "best": found}
        if found is None or found[1] < 0:
            return None
        return found[0]

    # ------------------------------------------------------------- ISMCTS
    def _settled(self, root: _Node, it: int, t0: float, deadline: float) -> bool:
        """The most visited move can no longer be overtaken in the budget left (each
        iteration visits one root move): stop early, the choice would not change."""
        now = time.perf_counter()
        left = min(self.iterations - it, it / max(now - t0, 1e-9) * (deadline - now))
        visits = sorted((ch.visits for ch in root.children.values()), reverse=True)
        return len(visits) > 1 and visits[0] - visits[1] > left + 1

    def _ismcts(self, obs: Mapping[str, Any], legal: list[str], rng: random.Random,
                start: float) -> str:
        deadline = start + self.seconds
        root = _Node(None)
        roots = tree_actions(legal, self.transfer)
        c = self.exploration
        transfer = self.transfer
        it = 0
        t0 = time.perf_counter()
        while it < self.iterations and (it < 16 or time.perf_counter() < deadline):
            it += 1
            if not it & 31 and self._settled(root, it, t0, deadline):
                break
            g = self.determinize(obs, rng)
            assert isinstance(g, DurakGame)
            path = []
            node = root
            acts = roots
            while not g.is_over:
                if node is not root:
                    acts = tree_actions(g.legal_actions(), transfer)
                mover = g.to_move
                untried = []
                for a in acts:
                    child = node.children.get(a)
                    if child is None:
                        untried.append(a)
                    else:
                        child.avail += 1
                if untried:
                    a = untried[rng.randrange(len(untried))]
                    child = node.children[a] = _Node(mover)
                    child.avail = 1
                    g.apply_unchecked(a)
                    path.append(child)
                    break
                best_a, best_v = acts[0], -math.inf
                for a in acts:
                    ch = node.children[a]
                    v = ((ch.total / ch.visits + 1) * 0.5
                         + c * math.sqrt(math.log(ch.avail) / ch.visits))
                    if v > best_v:
                        best_a, best_v = a, v
                node = node.children[best_a]
                g.apply_unchecked(best_a)
                path.append(node)
            heuristic_rollout(g)
            u = utilities(g)
            for n in path:
                n.visits += 1
                n.total += u[n.mover] if n.mover is not None else 0.0
        self.last = {"endgame": False, "iterations": it,
                     "seconds": time.perf_counter() - start,
                     "visits": {a: (ch.visits, round(ch.total / max(ch.visits, 1), 3))
                                for a, ch in root.children.items()}}
        return max(roots, key=lambda a: root.children[a].visits if a in root.children else -1)


def make(game: str, level: str | None) -> DurakSearch:
    lv = level or "normal"
    if lv not in LEVELS:
        raise ConfigError("unknown_level", level=repr(lv), levels=", ".join(LEVELS))
    iterations, seconds, nodes = LEVELS[lv]
    return DurakSearch(game, iterations, seconds, nodes, name=f"search:{lv}")

