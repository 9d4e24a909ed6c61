"""A Gymnasium vector env over a batched game: ``num_envs`` deals played in self-play.

Why self-play: the batched games are multi-player and turn-based, and every deal of a
batch is at the same step, so one policy acting for whoever is to move in each deal is
the natural single-agent view (``infos["to_move"]`` says whose turn it is; the
observation is that seat's). Needs gymnasium (the ``pettingzoo`` extra brings it); this
module is imported only on request and adds no dependency to ``koloda.batched``.

Rewards: ``rewards[i]`` is what the step earned the seat that just acted — zero until the
deal's last step, then that seat's points. Every seat's points are in
``infos["points"]`` (games, players) at the end, for learners that keep per-seat returns.
Legal actions: ``infos["action_mask"]`` and ``action_masks()`` (the name MaskablePPO
calls). All deals end on the same step; the next ``step`` then deals a new batch
(Gymnasium's next-step autoreset: its actions are ignored, its rewards are 0, and the
mask offered for it allows every action). Kopilka's, Dreyfus's and the paced games' deals
end at different steps: a deal that is over waits for the rest (its one action ignored;
reward 0) and the batch's episodes all end together with the last.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv

from koloda.batched.core import TrickGame
from koloda.batched.dreyfus import Dreyfus
from koloda.batched.kopilka import Kopilka
from koloda.batched.paced import PacedTricks


class BatchedVectorEnv(VectorEnv):
    """``BatchedVectorEnv(Opendaum(), num_envs=1024)``: observations uint8 0/1 of
    ``game.observation_size``, actions ``Discrete(game.num_actions)`` (the game's
    documented action space)."""

    def __init__(self, game: TrickGame | Kopilka | PacedTricks | Dreyfus, num_envs: int) -> None:
        if num_envs < 1:
            raise ValueError("num_envs ≥ 1")
        self.metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}
        self.game = game
        self.num_envs = num_envs
        self.single_observation_space = gymnasium.spaces.Box(
            0, 1, (game.observation_size,), dtype=np.uint8)
        self.single_action_space = gymnasium.spaces.Discrete(game.num_actions)
        self.observation_space = gymnasium.spaces.Box(
            0, 1, (num_envs, game.observation_size), dtype=np.uint8)
        self.action_space = gymnasium.spaces.MultiDiscrete(
            np.full(num_envs, game.num_actions))
        self.state: Any = None
        self._next_key = 0
        self._mask: npt.NDArray[np.bool_] | None = None

    def _deal(self) -> tuple[npt.NDArray[np.uint8], dict[str, Any]]:
        keys = np.arange(self._next_key, self._next_key + self.num_envs, dtype=np.int64)
        self._next_key += self.num_envs
        self.state = self.game.init(keys)
        self._mask = self.game.mask(self.state)
        return self.game.observe(self.state), self._infos()

    def _infos(self) -> dict[str, Any]:
        assert self.state is not None and self._mask is not None
        return {"action_mask": self._mask, "to_move": self.game.to_move(self.state)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[npt.NDArray[np.uint8], dict[str, Any]]:
        """Deal ``num_envs`` new deals. ``seed`` fixes them: the keys are
        ``seed × 2³² + 0, 1, 2, …`` (continued by every later batch)."""
        if options:
            raise ValueError(f"reset: no options are known (got {sorted(options)})")
        if seed is not None:
            self._next_key = int(seed) << 32
        elif self.state is None:
            self._next_key = int(np.random.SeedSequence().entropy) % (1 << 62)  # type: ignore[arg-type]
        return self._deal()

    def step(self, actions: npt.ArrayLike) -> tuple[
            npt.NDArray[np.uint8], npt.NDArray[np.float32], npt.NDArray[np.bool_],
            npt.NDArray[np.bool_], dict[str, Any]]:
        if self.state is None:
            raise RuntimeError("reset() first")
        game, n = self.game, self.num_envs
        false = np.zeros(n, dtype=np.bool_)
        if game.is_over(self.state):
            obs, infos = self._deal()
            return obs, np.zeros(n, dtype=np.float32), false, false, infos
        mover = game.to_move(self.state)
        state: Any
        state, obs, mask, reward = game.step(self.state, np.asarray(actions, dtype=np.int64))
        done = game.is_over(state)
        # over: the next step deals anew and ignores its actions, so any action will do
        # (an all-false mask would leave a masked policy nothing to sample from)
        self._mask = np.ones_like(mask) if done else mask
        infos = self._infos()
        if done:
            infos["points"] = state.points.T.copy()
        rewards = reward[np.arange(n), mover].astype(np.float32)
        return obs, rewards, np.full(n, done), false, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of each deal's player to move (MaskablePPO's hook)."""
        if self._mask is None:
            raise RuntimeError("reset() first")
        return self._mask
