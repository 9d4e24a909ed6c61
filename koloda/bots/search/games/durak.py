"""The durak search: the shared ISMCTS with heuristic rollouts, and an exact endgame.

Durak punishes random play hard (a random defender takes or wastes trumps at random), so
random rollouts say little about a move; the rollouts here play the heuristic
(``koloda.bots.heuristic.durak.decide``) for every seat — in two-player simple durak on
bare lists (``durak_rollout``: the same games, about twice as fast).

Two players with at most the trump card left in the stock see every card (the other hand
is whatever is not in the discard pile, on the table, in the stock or in one's own hand):
there the bot solves the game exactly (``durak_endgame``) and plays a move of the best
value, keeping to the heuristic's choice when it is one of them. Once the solver has run
out of nodes it waits until ``RETRY_SHRINK`` fewer cards are in play before it tries
again.

In two-player simple durak the tree's opponent is the heuristic at first: a node of the
other player visited fewer than ``widen`` (``OPPONENT_WIDEN``) times searches only the
heuristic's move there, then every move (progressive widening, the shared ISMCTS's
``preferred`` hook). Without it the other player's moves are chosen by UCB on sampled
deals, in which that player in effect sees this bot's hand.

With ``inference`` set (off by default: not shown to pay), two players in simple durak,
the determinizations are weighted by what the other player's moves say about its hand
(``durak_inference``: a deal on which the heuristic would not have made those
moves is kept only now and then, from a pool of deals that grows with the decision's
budget); the bot notes each round it moves in (``RoundMemory``) so that the model can read
the rounds before the current one.

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
from collections.abc import Mapping
from typing import Any, ClassVar

from koloda.bots.heuristic.durak import (
    action_text,
    decide,
    view_from_observation,
    view_from_state,
)
from koloda.bots.search.games.durak_endgame import EndgameSolver, Key, SolverBudget
from koloda.bots.search.games.durak_inference import (
    EPS,
    POOL,
    POOL_TRIES,
    TRIES,
    OpponentModel,
    RoundMemory,
    usable,
)
from koloda.bots.search.games.durak_rollout import applies, play_out, utilities_of
from koloda.bots.search.ismcts import ISMCTS, Sample
from koloda.bots.search.levels import Clock
from koloda.engine.deal import DealState
from koloda.engine.view import Observation
from koloda.games.durak.rounds import DurakGame
from koloda.games.durak.views import DurakView

#: endgame positions the solver may visit per search iteration of the level
ENDGAME_NODES_PER_ITERATION = 300
#: after the endgame solver ran out of nodes, it tries again once this many fewer cards
#: are in play
RETRY_SHRINK = 4
#: the share of the level's iterations (and endgame nodes) a decision runs at every table
#: but two players of simple durak: 600 of the normal level's 1 500, the budget all of them
#: once ran — at 1 500, three and four players of simple durak took 834 and
#: 630 ms CPU p95 a move and two of transfer durak 515 ms median (a few deal-sets each,
#: docs/strength/durak.md), over the level's 0.6 s
OTHER_SHARE = 0.4
#: a rollout longer than this is called a draw: transfer durak can go round in circles
ROLLOUT_STEPS = 1500
#: two players, simple durak: in the tree, a node of the other player visited fewer
#: times than this searches only the heuristic's move there, then every move (the
#: tree's opponent otherwise picks its moves by UCB on deals that show it our hand).
#: Paired by deal-set at the normal budget (docs/strength/durak.md), fresh
#: seeds: against the heuristic it won 0.820 of 100 games where the plain search won
#: 0.650 (paired win rate +0.170 ± 0.124, 50 deal-sets), and against the plain search
#: itself 0.500, losing 0.440 of 100 games (win − loss +0.060 ± 0.191, 50 deal-sets: not
#: worse); the heuristic's move alone (``heuristic_opponent``) won 0.880 against the
#: heuristic but only 0.154 of 13 games against the plain search (so it stays off)
OPPONENT_WIDEN = 48


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


class DurakSearch(ISMCTS):
    """SO-ISMCTS (``koloda.bots.search.ismcts``) over the durak determinizer: the tree's
    actions filtered by ``tree_actions``, heuristic rollouts, win/draw/loss utilities, the
    search settled early, and two-player endgames solved exactly."""

    #: two players of simple durak; every other table runs ``OTHER_SHARE`` of it
    #: (``budget``). 1 500, not the 600 it once was: the level's target is 0.6 s CPU
    #: p95 a move, and 600 iterations used about a third of it; paired by deal-set against
    #: the clairvoyant on 120 deal-sets, 2.5× the iterations lost less
    #: (docs/strength/durak.md)
    normal_iterations: ClassVar[int] = 1500
    value_range: ClassVar[tuple[float, float] | None] = (-1.0, 1.0)
    settle: ClassVar[bool] = True

    def __init__(self, game: str, iterations: int | None = None,
                 seconds: float | None = None, name: str = "search",
                 endgame_nodes: int | None = None) -> None:
        super().__init__(game, iterations, seconds, name)
        self.transfer = self.spec.variant == "perevodnoy"
        self.endgame_nodes = (endgame_nodes if endgame_nodes is not None
                              else ENDGAME_NODES_PER_ITERATION * self.iterations)
        #: endgame positions solved so far (valid for one trump suit, variant and limit)
        self._memo: dict[Key, tuple[int, int]] = {}
        self._memo_game: tuple[Any, ...] = ()
        #: where the solver last ran out of nodes: the game (trump card, cards played
        #: so far), the cards then in play; and whether to wait before trying again
        self._gave_up: tuple[int, int, int] | None = None
        self.retry_later = True
        #: the rounds this bot has moved in, and the opponent model of the last observation
        self.memory = RoundMemory()
        #: weigh the determinizations by the opponent model (two players of simple durak,
        #: ``usable``). Off: paired by deal-set against the heuristic at the normal level
        #: (docs/strength/durak.md) it has not won more than the plain determinizer — with a
        #: pool of 64 deals it won less
        self.inference = False
        self._model: tuple[Any, OpponentModel | None] = (None, None)
        self._pool: list[DurakGame] = []
        self._tries = 0
        #: in the tree, a node of the other player visited fewer than ``widen`` times
        #: searches only the heuristic's move there (``preferred``), then every move
        #: (0: off; ``heuristic_opponent``: always the heuristic's move); on by default
        #: in simple durak (``OPPONENT_WIDEN``), off in transfer durak (not measured)
        self.widen: float = 0 if self.transfer else OPPONENT_WIDEN
        self._seat: int | None = None
        #: the opponent model's settings (``durak_inference``); the pool and
        #: its draws None: ``POOL`` and ``POOL_TRIES`` times the decision's share of the
        #: normal level's iterations (``pool_caps``)
        self.eps, self.tries = EPS, TRIES
        self.pool_size: int | None = None
        self.pool_tries: int | None = None
        self._caps = (POOL, POOL_TRIES)
        #: two-player simple durak: rollouts by ``durak_rollout.play_out`` (the same games
        #: as ``heuristic_rollout``, about twice as fast), and the last one's values
        self.lean = True
        self._played_out: tuple[DurakGame | None, list[float]] = (None, [])

    def choose(self, observation: Mapping[str, Any], legal: list[str],
               rng: random.Random) -> str:
        if isinstance(observation, Observation) and isinstance(observation.deal, DurakView):
            self.memory.remember(observation.deal)
        self._seat = observation["seat"]
        return super().choose(observation, legal, rng)

    def model(self, observation: Mapping[str, Any]) -> OpponentModel | None:
        """The opponent model of this observation (None: it does not apply)."""
        if self._model[0] is observation:
            return self._model[1]
        model = None
        if self.inference and isinstance(observation, Observation) and usable(observation):
            assert isinstance(observation.deal, DurakView)
            model = OpponentModel(observation, self.memory)
            if not model.moves:
                model = None
            self._caps = self.pool_caps(observation)
        self._model = (observation, model)
        self._pool = []
        self._tries = 0
        return model

    def pool_caps(self, observation: Mapping[str, Any]) -> tuple[int, int]:
        """The deals a decision's pool holds and the draws it may make for them:
        ``pool_size`` and ``pool_tries`` if set, else ``POOL`` and ``POOL_TRIES`` scaled
        by the decision's budget over the normal level's iterations (the normal level:
        256 of 3 000; easy 38 of 450)."""
        scale = self.budget(observation) / self.normal_iterations
        size = self.pool_size if self.pool_size is not None else round(POOL * scale)
        tries = self.pool_tries if self.pool_tries is not None else round(POOL_TRIES * scale)
        return max(1, size), max(1, tries)

    def determinize(self, observation: Mapping[str, Any], rng: random.Random) -> DealState:
        """A deal consistent with the observation, drawn in proportion to how likely the
        other player's moves make it (``durak_inference``): the first of the
        pool (``pool_caps``) are drawn by rejection and kept, later ones are copies of a
        kept one."""
        model = self.model(observation)
        if model is None:
            return super().determinize(observation, rng)
        pool = self._pool
        size, most = self._caps
        if len(pool) >= size:
            return pool[rng.randrange(len(pool))].clone()
        best, fewest = None, math.inf
        tries = self.tries if self._tries < most else 1
        for _ in range(tries):
            self._tries += 1
            g = super().determinize(observation, rng)
            assert isinstance(g, DurakGame)
            m = model.mismatches(g, rng)
            if m == 0 or rng.random() < self.eps ** m:
                best = g
                break
            if m < fewest:
                best, fewest = g, m
        assert isinstance(best, DurakGame)
        pool.append(best.clone())
        return best

    def share(self, observation: Mapping[str, Any]) -> float:
        """The share of the level's iterations and endgame nodes this decision runs: all of
        them at two players of simple durak, ``OTHER_SHARE`` elsewhere."""
        return 1.0 if observation["players"] == 2 and not self.transfer else OTHER_SHARE

    def budget(self, observation: Mapping[str, Any]) -> int:
        return max(1, round(self.iterations * self.share(observation)))

    def actions(self, legal: list[str]) -> list[str]:
        return tree_actions(legal, self.transfer)

    @property
    def heuristic_opponent(self) -> bool:
        """In the tree, the other seats play the heuristic's move only (the tree then
        branches on this bot's moves alone): ``widen`` without end. Off: a bot that
        assumes its opponent is the heuristic, beaten by the plain search (0.154 of 13
        games; docs/strength/durak.md, sessions 6 and 7)."""
        return self.widen == math.inf

    @heuristic_opponent.setter
    def heuristic_opponent(self, on: bool) -> None:
        self.widen = math.inf if on else 0

    def preferred(self, state: DealState) -> str | None:
        """Two players, at the other player's node: the heuristic's move there (it reads
        only that seat's view of the sampled deal); at this bot's own nodes, and with more
        players (not measured), None: every tree action."""
        if self._seat is None or state.to_move == self._seat or state.players != 2:
            return None
        assert isinstance(state, DurakGame)
        return action_text(decide(view_from_state(state)))

    def apply(self, state: DealState, action: str) -> None:
        state.apply_unchecked(action)

    def rollout(self, state: DealState, rng: random.Random) -> None:
        assert isinstance(state, DurakGame)
        if self.lean and applies(state):
            # the same game as the engine's heuristic rollout, on bare lists: its result
            # is kept for ``utility`` (the state itself stays where the tree left it)
            self._played_out = (state, utilities_of(*play_out(state)))
            return
        heuristic_rollout(state)

    def utility(self, state: DealState) -> list[float]:
        assert isinstance(state, DurakGame)
        played, values = self._played_out
        if played is state:
            self._played_out = (None, [])
            return values
        return utilities(state)

    def solve(self, observation: Mapping[str, Any], legal: list[str], sample: Sample,
              clock: Clock) -> str | None:
        """Two players, at most the trump card left in the stock (every card is then
        known): a move of the best exact value; None when the node budget is too small,
        or when the game is lost whatever we do (then the search picks the most stubborn
        move)."""
        obs = observation
        if obs["players"] != 2 or obs["stock_size"] > 1:
            return None
        # after the solver ran out of nodes, not again before the cards in play (not in
        # the discard pile) have shrunk by ``RETRY_SHRINK``: a position a little smaller
        # mostly runs out too, and every try costs the whole budget (about a second)
        in_play = 36 - obs["discard_count"]
        this_game = (obs["trump_card"], sum(len(p) for p in obs["played"]))
        gave_up = self._gave_up
        if (gave_up is not None and gave_up[0] == this_game[0] and gave_up[1] <= this_game[1]
                and in_play > gave_up[2] - RETRY_SHRINK):
            return None
        state = sample()     # exact: nothing is unknown any more
        assert isinstance(state, DurakGame)
        # a position's value depends only on these (and the cards): keep what was solved
        game = (obs["trump_suit"], obs["variant"], obs["first_bout_limit"])
        if game != self._memo_game or len(self._memo) > 2_000_000:
            self._memo, self._memo_game = {}, game
        # with a time cap, at most half of it: a position too big gets the search instead
        deadline = (math.inf if clock.deadline is None
                    else clock.start + (clock.deadline - clock.start) * 0.5)
        nodes = round(self.endgame_nodes * self.share(obs))
        solver = EndgameSolver(state, SolverBudget(nodes, deadline), self._memo)
        assert isinstance(obs, Observation), "the search reads the typed observation"
        preferred = action_text(decide(view_from_observation(obs, legal)))
        found = solver.best_action(preferred)
        self.last.nodes = solver.nodes
        if found is None:
            self._gave_up = (*this_game, in_play) if self.retry_later else None
            return None
        if found[1] < 0:
            return None
        self.last.solved = True
        return found[0]
