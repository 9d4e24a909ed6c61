"""The floor: OpenSpiel's own ``ISMCTSBot`` (random-rollout evaluator) as an arena bot,
through koloda's OpenSpiel adapter (optional extra ``openspiel``).

    koloda arena durak --players 2 --bots search,openspiel-ismcts:20

``openspiel-ismcts:N`` runs N simulations a decision. It is a measuring bot
(``needs_state``): at each move it builds the pyspiel state of the game as it stands — a
``koloda_<game>`` state holding a copy of the live deal — and asks ISMCTS there. ISMCTS
itself only ever sees what the seat may know: its tree is keyed by the seat's
information-state string and every simulation starts from
``resample_from_infostate`` (the game's determinizer), never from the copied deal's
hidden cards. A multi-card action is several OpenSpiel decisions (select, then confirm);
ISMCTS makes each, and the finished action goes back as koloda's canonical text.

The simulations are deterministic: ISMCTS's and the rollouts' numpy generators are
seeded, each move, from the arena game's generator (itself from the game's seed), and
the determinizations draw from ISMCTS's generator (its ``set_resampler`` hook; by default
it would use pyspiel's unseeded sampler). The
pyspiel state starts afresh at the current deal, so in a multi-deal match ISMCTS plays
each deal as a one-deal game (the earlier deals' score sheet is not part of its returns).
"""

from __future__ import annotations

import copy
import random
from typing import Any

from koloda.engine.deal import DealState
from koloda.engine.errors import ConfigError
from koloda.engine.registry import get_spec

KIND = "openspiel-ismcts"
#: UCT exploration constant (OpenSpiel's ISMCTS examples use 2.0 for ±1 returns)
UCT_C = 2.0


def _import_openspiel() -> Any:
    try:
        from open_spiel.python.algorithms import (  # type: ignore[import-not-found, import-untyped, unused-ignore]
            ismcts,
            mcts,
        )
    except ImportError:
        raise ConfigError("needs_openspiel", bot=KIND) from None
    return ismcts, mcts


def simulations(level: str | None) -> int:
    """``openspiel-ismcts:N`` → N (a whole number of simulations, at least 1)."""
    if level is None:
        raise ConfigError("simulations_needed", bot=KIND, level="")
    try:
        n = int(level)
    except ValueError:
        n = 0
    if n < 1:
        raise ConfigError("simulations_needed", bot=KIND, level=repr(level))
    return n


class OpenSpielISMCTS:
    """OpenSpiel's ISMCTSBot playing one seat of an arena game (see the module)."""

    needs_state = True

    def __init__(self, game: str, sims: int) -> None:
        self.game = get_spec(game).name
        self.sims = sims
        self.name = f"{KIND}:{sims}"
        self._ismcts, self._mcts = _import_openspiel()
        from koloda.envs import openspiel as kos
        self._kos = kos
        self._players: int | None = None
        self._options: dict[str, Any] | None = None
        self._single_deal = True
        self._pyspiel_game: Any = None

    def start(self, game: str, players: int, options: dict[str, Any]) -> None:
        """The arena's game: its players and resolved options (before the first move)."""
        self._players = players
        self._options = dict(options)
        self._pyspiel_game = None

    def choose(self, observation: Any, legal: list[str], rng: random.Random) -> str:
        raise TypeError(f"{self.name} reads the game state: seat it in the arena "
                        "(it has needs_state), not at a table")

    def choose_state(self, state: DealState, seat: int, legal: list[str],
                     rng: random.Random) -> str:
        import numpy as np
        ps = self.pyspiel_state(state)
        seed = rng.getrandbits(32)
        search_rng = np.random.RandomState(seed)
        evaluator = self._mcts.RandomRolloutEvaluator(
            n_rollouts=1, random_state=np.random.RandomState(seed ^ 0x5EED))
        bot = self._ismcts.ISMCTSBot(
            game=ps.get_game(), evaluator=evaluator, uct_c=UCT_C,
            max_simulations=self.sims, random_state=search_rng,
            final_policy_type=self._ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        # ISMCTS's own resampler draws from pyspiel's unseeded UniformProbabilitySampler;
        # its hook takes one drawing from the bot's seeded generator instead
        bot.set_resampler(lambda s, player: s.resample_from_infostate(player,
                                                                      bot.random_number))
        table = ps.table
        acted = len(table.log)
        while len(table.log) == acted:       # a multi-card action: select … confirm
            if ps.current_player() != seat:
                raise RuntimeError(f"{self.name}: seat {ps.current_player()} is to act in "
                                   f"the OpenSpiel state, not seat {seat}")
            ps.apply_action(int(bot.step(ps)))
        action: str = table.log[-1][1]
        if action not in legal:
            raise RuntimeError(f"{self.name} chose {action!r}, not legal here: {legal}")
        return action

    def pyspiel_state(self, state: DealState) -> Any:
        """A ``koloda_<game>`` state at this point of the deal: a one-deal match whose
        current deal is a copy of ``state`` (the live deal is never touched)."""
        players = self._players if self._players is not None else state.players
        spec = get_spec(self.game)
        options = self._options if self._options is not None \
            else spec.resolve_options(players, {})
        if self._pyspiel_game is None:
            game = self._kos._CLASSES[spec.name]({"players": players})
            game.options = dict(options)        # the arena's options, resolved
            self._pyspiel_game = game
        ps = self._pyspiel_game.new_initial_state()
        table = ps.table
        dealer = getattr(state, "dealer", 0)
        match = spec.match_class(spec, players, dict(options), seed=0, first_dealer=dealer,
                                 single_deal=self._single_deal)
        match.current = copy.deepcopy(state)
        table.start_from(match)
        return ps


def make(level: str | None, game: str, seconds: float | None = None) -> OpenSpielISMCTS:
    """``openspiel-ismcts:N`` (a budget in simulations; ``seconds`` is not used: the
    floor is measured at a fixed number of simulations, so a seed replays its games)."""
    return OpenSpielISMCTS(game, simulations(level))


def register() -> None:
    """Make ``openspiel-ismcts:N`` a bot kind (the arena and ``koloda ratings`` call it)."""
    from koloda.bots.base import register_bot
    register_bot(KIND, make, measuring=True)
