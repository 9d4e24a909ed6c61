"""One seat against koloda's own bots, as a single-agent Gymnasium environment (optional
extra: pettingzoo, gymnasium, numpy).

    from koloda.envs.single import SingleAgentEnv
    e = SingleAgentEnv("durak", players=2, seat=0, opponents="heuristic", max_deals=1)
    obs, info = e.reset(seed=1)
    while True:
        action = e.action_space.sample(info["action_mask"])   # or a policy's choice
        obs, reward, terminated, truncated, info = e.step(action)
        if terminated or truncated:
            break

The other seats are played by koloda bots (one spec for all, or one per seat) between the
learner's steps. The observation is the learner's vector (koloda.envs.common.Features);
the mask is ``info["action_mask"]`` and ``action_masks()`` (what SB3-contrib's
MaskablePPO asks for). The reward is the learner's reward from the PettingZoo
environment underneath (the match result at the end, or per deal with
``rewards="deal"``); a match stopped by ``max_deals`` ends as a truncation.

An action the mask does not allow (``illegal="end"``, the default, PettingZoo's
TerminateIllegalWrapper's rule) ends the episode at once: terminated, the learner's
reward ``illegal_reward`` (−1, a loss), ``info["illegal_action"]`` the action, the
observation unchanged and the mask all zeros, as at every episode's end — so an
unmasked sampler (Gymnasium's ``check_env``) runs, and a masked one never meets it.
``illegal="raise"`` raises a ValueError naming the action instead. An action outside
``action_space`` always raises.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from koloda.envs.bots import BotDriver
from koloda.envs.common import seed_of
from koloda.envs.pettingzoo import raw_env

#: what an action the mask does not allow does (``SingleAgentEnv(illegal=...)``)
ILLEGAL = ("end", "raise")


class SingleAgentEnv(gymnasium.Env):  # type: ignore[misc, unused-ignore]
    """``seat`` learns; every other seat is a koloda bot (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(self, game: str = "durak", players: int | None = None, seat: int = 0,
                 opponents: str | list[str] = "heuristic", rewards: str = "match",
                 render_mode: str | None = None, illegal: str = "end",
                 illegal_reward: float = -1.0, **options: Any) -> None:
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal={illegal!r}: one of {', '.join(ILLEGAL)}")
        self.illegal, self.illegal_reward = illegal, float(illegal_reward)
        self.env = raw_env(game, players, render_mode, rewards, **options)
        n = self.env.players
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat}: seats are 0..{n - 1}")
        specs = [opponents] * n if isinstance(opponents, str) else list(opponents)
        if len(specs) == n - 1:
            specs.insert(seat, "")
        if len(specs) != n:
            raise ValueError(f"opponents: one bot spec, or one for each of the {n - 1} other "
                             f"seats")
        self.seat = seat
        self.agent = self.env.possible_agents[seat]
        self.opponent_specs = specs
        self.drivers: dict[int, BotDriver] = {}
        self.render_mode = render_mode
        self.observation_space = self.env.observation_spaces[self.agent]["observation"]
        self.action_space = self.env.action_spaces[self.agent]
        self._mask = np.zeros(self.env.space.size, np.int8)
        #: the episode was ended by an illegal action (``illegal="end"``)
        self._ended = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        seed = seed_of(seed)
        super().reset(seed=seed)
        self.env.reset(seed=seed, options=options)
        self._ended = False
        base = self.env._seeds.getrandbits(32)
        self.drivers = {s: BotDriver(spec, self.env.game, base + s)
                        for s, spec in enumerate(self.opponent_specs) if s != self.seat}
        self._advance()
        obs, info = self._observed()
        info["reward_before_first_move"] = self.env._cumulative_rewards[self.agent]
        return obs, info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        e = self.env
        if e.match is None:
            raise RuntimeError("call reset() before step()")
        if self._ended or e.terminations[self.agent] or e.truncations[self.agent]:
            raise RuntimeError("the episode is over: call reset()")
        if not self.action_space.contains(action):
            raise ValueError(f"action {action!r} is not in the action space "
                             f"(Discrete({self.env.space.size}))")
        index = int(action)
        if not self._mask[index]:
            if self.illegal == "raise":
                raise ValueError(f"{self.env.game}: action {index} is not allowed now "
                                 f"(info['action_mask'] says which are)")
            return self._ended_by(index)
        e.step(index)                # the learner's reward so far restarts at 0 here
        self._advance()
        reward = e._cumulative_rewards[self.agent]
        obs, info = self._observed()
        return (obs, float(reward), bool(e.terminations[self.agent]),
                bool(e.truncations[self.agent]), info)

    def _ended_by(self, index: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """``illegal="end"``: the episode ends on the illegal action, the learner paid
        ``illegal_reward``; the observation stays, the mask is all zeros."""
        self._ended = True
        obs = self.env.observe(self.agent)["observation"]
        self._mask = np.zeros_like(self._mask)
        info = {"illegal_action": index, "action_mask": self._mask}
        return obs, self.illegal_reward, True, False, info

    def action_masks(self) -> np.ndarray:
        return self._mask.astype(bool)

    def render(self) -> str | None:
        return self.env.render()

    def close(self) -> None:
        self.env.close()

    # ---------------------------------------------------------------- internals
    def _advance(self) -> None:
        """Let the bots play until the learner is to act or the match is over."""
        e = self.env
        m = e.match
        assert m is not None
        while not m.is_over and e.agent_selection != self.agent:
            seat = e.agent_name_mapping[e.agent_selection]
            e.step(self.drivers[seat].index(m, e.selection))

    def _observed(self) -> tuple[np.ndarray, dict[str, Any]]:
        e = self.env
        obs = e.observe(self.agent)
        self._mask = obs["action_mask"]
        info = dict(e.infos[self.agent])
        info["action_mask"] = self._mask
        return obs["observation"], info
