"""A Gymnasium vector env over a batched game: ``num_envs`` deals played in self-play.

Why self-play: the batched games are multi-player and turn-based, and every deal of a
batch is at the same step, so one policy acting for whoever is to move in each deal is
the natural single-agent view (``infos["to_move"]`` says whose turn it is; the
observation is that seat's). Needs gymnasium (the ``pettingzoo`` extra brings it); this
module is imported only on request and adds no dependency to ``koloda.batched``.

An episode is one deal. Rewards come on the episode's terminal step only, as the
PettingZoo and OpenSpiel adapters pay theirs (at the end, 0 on every step before):
``rewards[i]`` is then the points of the seat that made deal ``i``'s last move, and every
seat's points are in ``infos["points"]`` (games, players), for learners that keep
per-seat returns. Legal actions: ``infos["action_mask"]`` and ``action_masks()`` (the
name MaskablePPO calls). At an episode's end the mask is **all zeros** (no action is
legal: the deal is over), as in the PettingZoo and OpenSpiel adapters; the next ``step``
deals a new batch (Gymnasium's next-step autoreset) and ignores its actions, and its
rewards are 0. Gymnasium's ``action_space.sample(mask)`` draws 0 from an all-zero mask,
and MaskablePPO any action, so a masked sampler needs no special case.

Kopilka's, Dreyfus's and the paced games' deals (Mushka's and Stukolka's whole deals)
end at different steps, and a batch is dealt anew only as a whole: a deal that is over
waits for the rest (``to_move`` −1, one legal action, ignored), and every episode of the
batch terminates together with the last deal; a deal that ended early is paid on that
terminal step, like the others (nothing is paid while it waits).

``reset(seed=s)`` deals keys ``s × 2³² + 0, 1, 2, …`` (continued by every later batch);
``reset(seed=[s₀, s₁, …])``, one seed per env as Gymnasium's vector envs take them
(None: drawn afresh), gives env ``i`` the keys ``sᵢ × 2³² + 0, 1, 2, …`` for its
episodes in turn, whatever the other envs' seeds.
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
        #: per-env seeds (``reset(seed=[...])``): env i's next key is
        #: ``_env_keys[i] + _env_counts[i]``; None: the keys run on from ``_next_key``
        self._env_keys: npt.NDArray[np.int64] | None = None
        self._env_counts = np.zeros(num_envs, dtype=np.int64)
        self._mask: npt.NDArray[np.bool_] | None = None
        #: each deal's reward once it is over, paid on the batch's terminal step
        self._held = np.zeros(num_envs, dtype=np.float32)

    def _keys(self, slots: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.int64]:
        """The keys of the next deals of the envs at ``slots`` (every env: None)."""
        if slots is None:
            slots = np.arange(self.num_envs, dtype=np.int64)
        if self._env_keys is not None:
            keys = self._env_keys[slots] + self._env_counts[slots]
            self._env_counts[slots] += 1
            return keys
        keys = np.arange(self._next_key, self._next_key + len(slots), dtype=np.int64)
        self._next_key += len(slots)
        return keys

    def _deal(self) -> tuple[npt.NDArray[np.uint8], dict[str, Any]]:
        self.state = self.game.init(self._keys())
        self._mask = self.game.mask(self.state)
        self._held[:] = 0.0
        return self.game.observe(self.state), self._infos()

    def _infos(self) -> dict[str, Any]:
        assert self.state is not None and self._mask is not None
        return {"action_mask": self._mask, "to_move": self.game.to_move(self.state)}

    def _seed(self, seed: Any) -> None:
        """Set the keys from ``reset``'s seed: an int, one seed per env, or None."""
        if seed is None:
            if self.state is None:
                self._next_key = _entropy()
                self._env_keys = None
            return
        if isinstance(seed, (list, tuple, np.ndarray)):
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"reset(seed=[...]): one seed per env, {self.num_envs} of "
                                 f"them, not {len(seeds)}")
            keys = [_entropy() if x is None else _key_base(x) for x in seeds]
            self._env_keys = np.array(keys, dtype=np.int64)
            self._env_counts[:] = 0
            return
        self._next_key = _key_base(seed)
        self._env_keys = None

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None
              ) -> tuple[npt.NDArray[np.uint8], dict[str, Any]]:
        """Deal ``num_envs`` new deals. ``seed``: an int (the keys ``seed × 2³² + 0, 1,
        2, …``, continued by every later batch), or a list of one seed per env (env
        ``i``'s episodes get ``seedᵢ × 2³² + 0, 1, 2, …``; None: drawn afresh)."""
        if options:
            raise ValueError(f"reset: no options are known (got {sorted(options)})")
        self._seed(seed)
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
        was = game.terminated(self.state)
        state: Any
        state, obs, mask, reward = game.step(self.state, np.asarray(actions, dtype=np.int64))
        ended = game.terminated(state) & ~was
        # a deal just over: its last mover's points, held until the batch's last step
        # (a waiting deal's mover is −1, and it earns nothing)
        self._held[ended] = reward[np.arange(n), np.maximum(mover, 0)][ended]
        done = game.is_over(state)
        # over: no action is legal (the next step deals anew and ignores its actions)
        self._mask = np.zeros_like(mask) if done else mask
        infos = self._infos()
        if done:
            infos["points"] = state.points.T.copy()
            rewards = self._held.copy()
        else:
            rewards = np.zeros(n, dtype=np.float32)
        return obs, rewards, np.full(n, done), false, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of each deal's player to move (MaskablePPO's hook)."""
        if self._mask is None:
            raise RuntimeError("reset() first")
        return self._mask


def _seed_int(seed: Any) -> int:
    """One seed as an int (numpy integers too), with a one-line error naming what is
    accepted."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"reset(seed=...): an int, a list of one int (or None) per env, or "
                        f"None — not {type(seed).__name__} {seed!r}")
    return int(seed)


def _key_base(seed: Any) -> int:
    """A seed's first key, ``seed × 2³²`` (kept within the int64 keys)."""
    return (_seed_int(seed) << 32) % (1 << 62)


def _entropy() -> int:
    return int(np.random.SeedSequence().entropy) % (1 << 62)  # type: ignore[arg-type]
