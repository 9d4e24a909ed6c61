"""The search bot: information-set MCTS over determinizations (SO-ISMCTS).

Each iteration draws a full deal consistent with the bot's observation (the game's
``determinize``: known voids, public cards and counts respected), walks one shared tree
whose nodes are keyed by actions — a child is selectable only where it is legal in the
current determinization, counted by availability — plays the rest out with a rollout
policy and backs up the deal's payoffs for the seat that chose each move.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from koloda.engine.deal import DealState
from koloda.engine.errors import ConfigError
from koloda.engine.registry import get_spec

#: level → (iterations, seconds): whichever budget runs out first ends the search
LEVELS: dict[str, tuple[int, float]] = {
    "easy": (100, 0.1),
    "normal": (700, 0.6),
    "hard": (4000, 3.0),
}

Rollout = Callable[[DealState, random.Random], None]


def random_rollout(state: DealState, rng: random.Random) -> None:
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


class Node:
    __slots__ = ("avail", "children", "mover", "total", "visits")

    def __init__(self, mover: int | None) -> None:
        self.mover = mover          # the seat whose action led here
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


@dataclass
class SearchStats:
    iterations: int = 0
    seconds: float = 0.0


class SearchBot:
    """ISMCTS with an iteration budget and a time budget."""

    def __init__(self, game: str, iterations: int = 700, seconds: float = 0.6,
                 exploration: float = 0.7, rollout: Rollout = random_rollout,
                 name: str = "search") -> None:
        spec = get_spec(game)
        if spec.determinize is None:
            raise ConfigError("no_determinizer", game=spec.named)
        self.determinize = spec.determinize
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout = rollout
        self.name = name
        self.last = SearchStats()

    def choose(self, observation: Mapping[str, Any], legal: list[str],
               rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        start = time.perf_counter()
        deadline = start + self.seconds
        root = Node(None)
        lo, hi = math.inf, -math.inf
        it = 0
        while it < self.iterations and (it < 8 or time.perf_counter() < deadline):
            it += 1
            state = self.determinize(observation, rng)
            path = [root]
            node = root
            # selection and expansion
            while not state.is_over:
                acts = state.legal_actions()
                mover = state.to_move
                untried = [a for a in acts if a not in node.children]
                for a in acts:
                    child = node.children.get(a)
                    if child is not None:
                        child.avail += 1
                if untried:
                    a = untried[rng.randrange(len(untried))]
                    child = node.children[a] = Node(mover)
                    child.avail = 1
                    state.apply(a)
                    path.append(child)
                    break
                a = self._select(node, acts, lo, hi)
                node = node.children[a]
                state.apply(a)
                path.append(node)
            self.rollout(state, rng)
            pay = state.payoffs()
            lo, hi = min(lo, *pay), max(hi, *pay)
            for n in path[1:]:
                n.visits += 1
                n.total += pay[n.mover] if n.mover is not None else 0.0
        self.last = SearchStats(it, time.perf_counter() - start)
        self._root = [(a, ch.visits, ch.total / ch.visits) for a, ch in root.children.items()
                      if ch.visits]
        best = max(legal, key=lambda a: (root.children[a].visits
                                         if a in root.children else -1))
        return best

    def top_moves(self) -> list[tuple[str, float]]:
        """The last decision's moves, most searched first, with their mean payoff for the
        deciding seat (what a hint shows)."""
        root: list[tuple[str, int, float]] = getattr(self, "_root", [])
        return [(a, v) for a, _, v in sorted(root, key=lambda r: -r[1])]

    def _select(self, node: Node, acts: list[str], lo: float, hi: float) -> str:
        span = (hi - lo) or 1.0
        c = self.exploration
        best, best_v = acts[0], -math.inf
        for a in acts:
            ch = node.children[a]
            mean = (ch.total / ch.visits - lo) / span if ch.visits else 0.5
            v = mean + c * math.sqrt(math.log(max(ch.avail, 1)) / max(ch.visits, 1))
            if v > best_v:
                best, best_v = a, v
        return best


def make_search_bot(level: str | None, game: str) -> SearchBot:
    lv = level or "normal"
    if lv not in LEVELS:
        raise ConfigError("unknown_level", level=repr(lv), levels=", ".join(LEVELS))
    iterations, seconds = LEVELS[lv]
    return SearchBot(game, iterations, seconds, name=f"search:{lv}")


def make(game: str, level: str | None = None) -> SearchBot:
    """The generic ISMCTS for a game that asks for it in its spec
    (``bots={"search": "koloda.bots.search:make"}``): it needs the game's determinizer."""
    return make_search_bot(level, game)
