"""PettingZoo AEC environments for every koloda game (optional extra: pettingzoo,
gymnasium, numpy).

    from koloda.envs.pettingzoo import env
    e = env("durak", players=4)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else \\
            e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_0`` … (seat numbers). An observation is ``{"observation": float32
vector, "action_mask": int8 vector}``: the vector is koloda.envs.common.Features (the
game's tensor, the cards seen this deal, the cards selected), the mask is
koloda.envs.actions over the game's fixed Discrete action space. A multi-card action is
chosen in several steps by the same agent (``select C`` …, ``confirm VERB``). Rewards come
only at the end of the match, from its result: +1 each winner, −1 each loser, 0 for all in
a draw; every agent is then terminated (a match ended by ``max_deals`` is a real result
too: ``infos[agent]["capped"]`` says so). ``reset(seed=s)`` makes the deals reproducible.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]
from pettingzoo.utils import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    wrappers,
)

import koloda
from koloda.engine.match import Match
from koloda.engine.registry import get_spec
from koloda.envs.actions import Selection, action_space
from koloda.envs.common import Features, result_rewards
from koloda.tensors import TableMemory, render


class raw_env(AECEnv):
    """One koloda match as an AEC environment (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's own pattern; copied per env)
        "render_modes": ["human", "ansi"], "name": "koloda_v0", "is_parallelizable": False}

    def __init__(self, game: str = "durak", players: int | None = None,
                 render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        spec = get_spec(game)
        n = spec.check_players(spec.default_players if players is None else players)
        spec.resolve_options(n, options)            # a bad option fails here, not at reset
        self.game, self.players, self.options = spec.name, n, dict(options)
        self.metadata = {**self.metadata, "name": f"koloda_{spec.name.replace('-', '_')}_v0"}
        self.render_mode = render_mode
        self.space = action_space(spec.name)
        self.features = Features(spec.name, n)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        lows, highs = self.features.bounds()
        obs_space = spaces.Dict({
            "observation": spaces.Box(np.array(lows, dtype=np.float32),
                                      np.array(highs, dtype=np.float32), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.space.size,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.space.size) for a in self.possible_agents}
        self._seeds = random.Random()
        self.match: Match | None = None
        self.selection = Selection()
        self.memory = TableMemory()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match; ``seed`` makes this and every later reset reproducible."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self.match = koloda.new_game(self.game, players=self.players,
                                     seed=self._seeds.getrandbits(63), **self.options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.selection = Selection()
        self.memory = TableMemory()
        self._after_move()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        m = self._live()
        seat = self.agent_name_mapping[agent]
        acting = not m.is_over and seat == m.to_move
        selection = self.selection if acting else Selection()
        vector = self.features.vector(m.observation(seat), self.memory, selection)
        mask = self.space.mask(m.legal_actions(), selection) if acting \
            else [0] * self.space.size
        return {"observation": np.asarray(vector, dtype=np.float32),
                "action_mask": np.asarray(mask, dtype=np.int8)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        m = self._live()
        self._cumulative_rewards[agent] = 0.0
        text, self.selection = self.space.step(int(action), m.legal_actions(), self.selection)
        if text is not None:
            deals = len(m.deals)
            m.apply(text)
            self.memory.record(text)
            if len(m.deals) != deals:
                self.memory.new_deal()
        self._after_move()
        self._accumulate_rewards()

    def render(self) -> str | None:
        m = self._live()
        seat = m.to_move if m.to_move is not None else 0
        text = render(m.observation(seat))
        if m.is_over and m.result is not None:
            text += f"\nresult: {m.result.to_json()}"
        elif self.selection:
            text += f"\nselected: {self.selection.text()}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.match = None

    # ------------------------------------------------------------------ internals
    def _live(self) -> Match:
        if self.match is None:
            raise RuntimeError("call reset() before using the environment")
        return self.match

    def _after_move(self) -> None:
        m = self._live()
        if m.is_over:
            rewards = result_rewards(m.result, self.players)
            capped = bool(m.result and m.result.capped)
            for a in self.agents:
                self.rewards[a] = rewards[self.agent_name_mapping[a]]
                self.terminations[a] = True
                self.infos[a] = {"result": m.result.to_json() if m.result else None,
                                 "capped": capped}
            self.agent_selection = self.agents[0]
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            self.agent_selection = self.possible_agents[m.to_move or 0]


def env(game: str = "durak", players: int | None = None, render_mode: str | None = None,
        **options: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's classic games are: an out-of-range action
    or a call out of order raises."""
    e: AECEnv = raw_env(game, players, render_mode, **options)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
