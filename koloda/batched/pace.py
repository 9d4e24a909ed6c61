"""What a batch of deals played each at its own pace shares: ``koloda.batched.paced``'s trick
games (Mushka's and Stukolka's whole deals) and ``koloda.batched.kopilka``.

Each game keeps its own mover in ``mover`` and says whether it is over in ``over``; a game
over waits for the rest of its batch with one legal action (ignored): ``terminated`` per
game, ``is_over`` for all. The legal set of the player to move is ``legal`` as bits,
bit ``k`` being action ``offset + k``; ``points`` (seats, games) holds each seat's points
so far, final once its game is over.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from koloda.batched.bits import ONE, U64
from koloda.batched.core import I64, IllegalBatchAction, legal_list, legal_mask, random_legal


class PaceFields(Protocol):
    """The fields every paced batch state has."""

    over: npt.NDArray[np.bool_]
    mover: I64
    legal: U64
    offset: int
    points: npt.NDArray[np.float32]

    @property
    def games(self) -> int: ...


class PacedBatch:
    """The batch API of a paced game: a game sets ``name`` and ``num_actions`` and
    implements ``advance`` and ``observe``."""

    name: str
    num_actions: int

    def advance(self, state: Any, actions: npt.ArrayLike) -> Any:
        raise NotImplementedError

    def observe(self, state: Any) -> npt.NDArray[np.uint8]:
        raise NotImplementedError

    def checked(self, state: PaceFields, actions: npt.ArrayLike) -> tuple[I64, U64]:
        """The actions as int64 and their legal-set bits, once each is checked legal."""
        if self.is_over(state):
            raise IllegalBatchAction(f"{self.name}: every deal of the batch is over; init a "
                                     "new one")
        a = np.asarray(actions).astype(np.int64)
        if a.shape != (state.games,):
            raise ValueError(f"actions: one per game, shape ({state.games},), not {a.shape}")
        bit = np.left_shift(ONE, (a - state.offset).astype(np.uint64))
        if not np.bitwise_and(state.legal, bit).all():
            g = int(np.argmax((state.legal & bit) == 0))
            raise IllegalBatchAction(f"{self.name}: game {g}: action {int(a[g])} is not legal "
                                     f"now (legal: {self.legal_actions(state, g)})")
        return a, bit

    def step(self, state: Any, actions: npt.ArrayLike) -> tuple[
            Any, npt.NDArray[np.uint8], npt.NDArray[np.bool_], npt.NDArray[np.float32]]:
        """``advance``, then (observation, mask, reward): ``reward`` (games, seats) is each
        seat's points in the step a game ends, else 0."""
        was = state.over.copy()
        self.advance(state, actions)
        ended = state.over & ~was
        reward = np.where(ended[:, None], state.points.T, 0).astype(np.float32)
        return state, self.observe(state), self.mask(state), reward

    def is_over(self, state: PaceFields) -> bool:
        return bool(state.over.all())

    def terminated(self, state: PaceFields) -> npt.NDArray[np.bool_]:
        return state.over.copy()

    def to_move(self, state: PaceFields) -> I64:
        return np.where(state.over, -1, state.mover)

    def mask(self, state: PaceFields) -> npt.NDArray[np.bool_]:
        return legal_mask(state.legal, state.offset, self.num_actions)

    def legal_actions(self, state: PaceFields, game: int) -> list[int]:
        return legal_list(state.legal, state.offset, game)

    def random_actions(self, state: PaceFields, rng: np.random.Generator) -> I64:
        return random_legal(state.legal, state.offset, rng)


__all__ = ["PaceFields", "PacedBatch"]
