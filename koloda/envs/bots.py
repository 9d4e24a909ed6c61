"""koloda's own bots in the adapters' index space: as PettingZoo policies
(:class:`BotPolicy`), as OpenSpiel bots (``koloda.envs.openspiel.KolodaBot``, a
``pyspiel.Bot``) and as the opponents of the single-agent env (koloda.envs.single).
Standard library only.

A bot chooses an engine action from its seat's observation and the legal actions; a
multi-card action is then several indices (``select`` …, ``confirm``), so the driver keeps
the rest of the path and hands out one index per call.
"""

from __future__ import annotations

import random
from typing import Any

from koloda.bots import make_bot
from koloda.engine.match import Match
from koloda.envs.actions import ActionSpace, Selection, action_space


class BotDriver:
    """One koloda bot (``"heuristic"``, ``"search:easy"``, ``"random"`` …) choosing indices."""

    def __init__(self, bot: str, game: str, seed: int | None = None) -> None:
        self.spec = bot
        self.bot = make_bot(bot, game)
        self.space: ActionSpace = action_space(game)
        self.rng = random.Random(seed)
        self.pending: list[int] = []

    def restart(self) -> None:
        self.pending = []

    def index(self, match: Match, selection: Selection) -> int:
        """The next index for the seat to move: a new choice of the bot, or the next step
        of the multi-card action it chose."""
        if selection:
            if not self.pending:
                raise ValueError(f"a selection is open ({selection.text()}) that this bot "
                                 f"did not start")
            return self.pending.pop(0)
        seat = match.to_move
        if seat is None:
            raise ValueError("nobody is to move: the match is over")
        action = self.bot.choose(match.observation(seat), match.legal_actions(), self.rng)
        path = self.space.path(action)
        self.pending = path[1:]
        return path[0]


class BotPolicy:
    """A koloda bot as a PettingZoo policy: ``policy(observation, agent)`` → the index to
    step with (it reads the seat's observation from the environment's match — the seat's
    own view only, as the bot would at a table).

        e = env("durak", players=2)
        policy = BotPolicy(e, "heuristic", seed=1)
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            e.step(None if terminated or truncated else policy(obs, agent))
    """

    def __init__(self, env: Any, bot: str = "heuristic", seed: int | None = None) -> None:
        self.env = env.unwrapped
        self.driver = BotDriver(bot, self.env.game, seed)

    def __call__(self, observation: Any = None, agent: str | None = None) -> int:
        e = self.env
        if agent is not None and agent != e.agent_selection:
            raise ValueError(f"{agent} is not to move ({e.agent_selection} is)")
        return self.driver.index(e.match, e.selection)
