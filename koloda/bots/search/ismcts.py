"""Information-set MCTS over determinizations (SO-ISMCTS), the one tree search of every
game; a game's own parts are hooks (methods a game's search overrides).

Each iteration draws a full deal consistent with the bot's observation (``determinize``:
by default the game's determinizer), walks one shared tree whose nodes are keyed by
actions — a child is selectable only where it is legal in the current determinization,
counted by availability — plays the rest out (``rollout``) and backs up ``utility`` for
the seat that chose each move. Hooks: ``determinize``, ``actions`` (the legal actions
worth searching; ``node_actions`` below the root, given the state), ``apply``,
``rollout``, ``utility``, ``value_range``, ``solve`` (an exact answer that skips the
search, e.g. an endgame solver), ``budget`` (the iterations a decision runs, by default
the level's), ``settle`` (stop once the most visited move cannot be
overtaken in the iterations left) and ``preferred`` with ``widen`` (progressive widening:
below the root, a node visited fewer than ``widen`` times searches only the ``preferred``
move of the state, when it names one; from then on every move).

The budget is ``iterations`` (a game's ``budget`` hook may give a decision less);
``seconds`` is a time cap only when a caller with a person waiting gives one (see
:mod:`koloda.bots.search.levels`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from koloda.bots.search.levels import Clock
from koloda.engine.deal import DealState
from koloda.engine.errors import ConfigError
from koloda.engine.registry import get_spec

#: a zero-argument source of full deals to search on (samples, or the true deal)
Sample = Callable[[], DealState]


def random_rollout(state: DealState, rng: random.Random) -> None:
    while not state.is_over:
        legal = state.legal_actions()
        state.apply_unchecked(legal[rng.randrange(len(legal))])


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
    """The last decision, for measurement: iterations (deals, for a flat search) run,
    seconds spent, and whether an exact solver answered (with its node count)."""

    iterations: int = 0
    seconds: float = 0.0
    solved: bool = False
    nodes: int = 0


class ISMCTS:
    """SO-ISMCTS with an iteration budget (see the module docstring for the hooks)."""

    #: the iterations of the normal level (levels are shares of it)
    normal_iterations: ClassVar[int] = 700
    #: iterations run before a time cap is looked at
    least: ClassVar[int] = 16
    exploration: float = 0.7
    #: the utilities' range when known (else the range seen so far normalises the means)
    value_range: ClassVar[tuple[float, float] | None] = None
    #: stop once the most visited root move can no longer be overtaken
    settle: ClassVar[bool] = False
    #: below the root, a node visited fewer times than this searches only its state's
    #: ``preferred`` move (0: never; ``math.inf``: always)
    widen: float = 0

    def __init__(self, game: str, iterations: int | None = None,
                 seconds: float | None = None, name: str = "search") -> None:
        spec = get_spec(game)
        if spec.determinize is None:
            raise ConfigError("no_determinizer", game=spec.named)
        self.spec = spec
        self.game = spec.name
        self.iterations = iterations or self.normal_iterations
        self.seconds = seconds
        self.name = name
        self.last = SearchStats()
        self._top: list[tuple[str, float]] = []

    # ------------------------------------------------------------------ hooks
    def determinize(self, observation: Mapping[str, Any], rng: random.Random) -> DealState:
        """One full deal consistent with the observation."""
        determinize = self.spec.determinize
        assert determinize is not None
        return determinize(observation, rng)

    def actions(self, legal: list[str]) -> list[str]:
        """The legal actions worth searching (default: all)."""
        return legal

    def node_actions(self, state: DealState) -> list[str]:
        """The actions searched below the root, in ``state`` (default: ``actions`` of
        the legal actions)."""
        return self.actions(state.legal_actions())

    def preferred(self, state: DealState) -> str | None:
        """The one move a node visited fewer than ``widen`` times searches in ``state``
        (a legal action), or None to search ``node_actions`` (default: None)."""
        return None

    def apply(self, state: DealState, action: str) -> None:
        state.apply_unchecked(action)      # every action comes from legal_actions()

    def rollout(self, state: DealState, rng: random.Random) -> None:
        random_rollout(state, rng)

    def utility(self, state: DealState) -> list[float]:
        return state.payoffs()

    def solve(self, observation: Mapping[str, Any], legal: list[str], sample: Sample,
              clock: Clock) -> str | None:
        """An exact answer, or None to search (default: always search)."""
        return None

    def budget(self, observation: Mapping[str, Any]) -> int:
        """The iterations this decision may run (default: the level's ``iterations``)."""
        return self.iterations

    # ------------------------------------------------------------------ search
    def choose(self, observation: Mapping[str, Any], legal: list[str],
               rng: random.Random) -> str:
        return self.decide(observation, legal, rng, lambda: self.determinize(observation, rng))

    def decide(self, observation: Mapping[str, Any], legal: list[str], rng: random.Random,
               sample: Sample) -> str:
        """The move, searching over the deals ``sample`` gives."""
        if len(legal) == 1:
            return legal[0]
        clock = Clock(self.budget(observation), self.seconds, self.least)
        self.last = SearchStats()
        solved = self.solve(observation, legal, sample, clock)
        if solved is not None:
            self._top = [(solved, 1.0)]
            self.last.seconds = clock.elapsed()
            return solved
        root = Node(None)
        roots = self.actions(legal)
        lo, hi = self.value_range or (math.inf, -math.inf)
        fixed = self.value_range is not None
        c = self.exploration
        widen = self.widen
        it = 0
        while clock.more(it):
            if self.settle and it and not it & 31 and _settled(root, clock.left(it)):
                break
            it += 1
            state = sample()
            path = []
            node = root
            acts = roots
            while not state.is_over:
                if node is not root:
                    first = self.preferred(state) if node.visits < widen else None
                    acts = [first] if first is not None else self.node_actions(state)
                mover = state.to_move
                untried = []
                for a in acts:
                    child = node.children.get(a)
                    if child is None:
                        untried.append(a)
                    else:
                        child.avail += 1
                if untried:
                    a = untried[rng.randrange(len(untried))]
                    child = node.children[a] = Node(mover)
                    child.avail = 1
                    self.apply(state, a)
                    path.append(child)
                    break
                span = (hi - lo) or 1.0
                best_a, best_v = acts[0], -math.inf
                for a in acts:
                    ch = node.children[a]
                    v = ((ch.total / ch.visits - lo) / span
                         + c * math.sqrt(math.log(ch.avail) / ch.visits))
                    if v > best_v:
                        best_a, best_v = a, v
                node = node.children[best_a]
                self.apply(state, best_a)
                path.append(node)
            self.rollout(state, rng)
            u = self.utility(state)
            if not fixed:
                lo, hi = min(lo, *u), max(hi, *u)
            for n in path:
                n.visits += 1
                n.total += u[n.mover] if n.mover is not None else 0.0
        self.last = SearchStats(it, clock.elapsed())
        ranked = sorted(((a, ch) for a, ch in root.children.items() if ch.visits),
                        key=lambda kv: -kv[1].visits)
        self._top = [(a, ch.total / ch.visits) for a, ch in ranked]
        return max(roots, key=lambda a: root.children[a].visits if a in root.children else -1)

    def top_moves(self) -> list[tuple[str, float]]:
        """The last decision's moves, most searched first, with their mean utility for the
        deciding seat (what a hint shows); an exact answer names its one move."""
        return list(self._top)


def _settled(root: Node, left: float) -> bool:
    """The most visited move can no longer be overtaken in the ``left`` iterations (each
    iteration visits one root move): the choice would not change."""
    visits = sorted((ch.visits for ch in root.children.values()), reverse=True)
    return len(visits) > 1 and visits[0] - visits[1] > left + 1


class SearchBot(ISMCTS):
    """The generic ISMCTS: the game's determinizer, random rollouts, the game's payoffs
    (a game asks for it with ``bots={"search": "koloda.bots.search:SearchBot"}``)."""
