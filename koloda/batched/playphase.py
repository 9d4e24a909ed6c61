"""The play of a deal batched after a phase that is not: exchanges and declarations.

Mushka's exchange and Stukolka's declarations change who plays and what they hold, and the
number of players left in (and so the deal's length) differs from game to game: a batch
could not stay in lockstep through them. A ``PlayPhase`` game therefore plays that phase *at
init*, game by game in numpy (every choice drawn from the game's key by a fixed random
policy, so a key always gives the same deal and the same choices), and batches the tricks
that follow, among a fixed number ``players`` of the ``table`` seats — the shape a batch is
made for.

What is batched: only the tricks. What the batch's own steps and observations see: the
players still in, in play order (order ``0`` leads the first trick; the observation's
seat ``+k`` is the ``k``-th player in after the mover, and ``dealer_seat_+`` names order
``players − 1``, the last to play to the first trick). What records hold: the whole deal
— the deal as dealt, the phase's choices, then the plays — so the engine replays every
game of a batch from its beginning.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np
import numpy.typing as npt

from koloda.batched.bits import ONE, U64, as_keys, key_stream, shuffled
from koloda.batched.core import (
    I64,
    SALT_DEAL,
    SALT_DEALER,
    TrickGame,
    TrickState,
    dealt_hands,
)
from koloda.cards import CARD_TEXT


@dataclass
class PlayState(TrickState):
    """A ``TrickState`` whose orders map to seats by ``seats`` (players, games), with the
    pre-play phase's choices in ``pre`` (arrays by name, read only for records)."""

    seats: I64 = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    pre: dict[str, npt.NDArray[Any]] = field(default_factory=dict)


@dataclass
class Prepared:
    """What ``prepare`` hands the core: the hands in play by order, the seat of each order,
    the trump, and the phase's record data."""

    hands: U64
    seats: I64
    trump: I64
    trump_card: I64
    pre: dict[str, npt.NDArray[Any]]


def bits_to_cards(word: int) -> list[int]:
    return [c for c in range(64) if word >> c & 1]


def cards_text(verb: str, word: int) -> str:
    return verb + " " + " ".join(CARD_TEXT[c] for c in bits_to_cards(word))


def deal_round_robin(order: npt.NDArray[np.uint8], seats: int, hand: int) -> U64:
    """(seats, games) the hands dealt one at a time from the dealer's left: row ``k`` is
    the ``k``-th player from the dealer's left."""
    bits = np.left_shift(ONE, np.ascontiguousarray(order[:, :seats * hand].T),
                         dtype=np.uint64)
    return np.stack([np.bitwise_or.reduce(bits[k::seats], axis=0) for k in range(seats)])


def compact(stay: npt.NDArray[np.bool_], rows: npt.NDArray[Any], first: I64) -> npt.NDArray[Any]:
    """``rows`` (seats, games) of the staying seats only, in play order from each game's
    ``first`` row (which must stay): shape (players, games)."""
    n, games = stay.shape
    # rotate each game so that its first row is row 0, then keep the staying rows in order
    idx = (np.arange(n)[:, None] + first[None, :]) % n
    stay_r = np.take_along_axis(stay, idx, axis=0)
    rows_r = np.take_along_axis(rows, idx, axis=0)
    players = int(stay[:, 0].sum()) if games else 0
    pos = np.cumsum(stay_r, axis=0) - 1
    out = np.zeros((players, games), dtype=rows.dtype)
    g = np.broadcast_to(np.arange(games), (n, games))
    out[pos[stay_r], g[stay_r]] = rows_r[stay_r]
    return out


def choose_stayers(keys: U64, seats: int, players: int, salt: int,
                   forced: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """(seats, games) exactly ``players`` of the ``seats`` rows of each game, at random by
    the key; rows ``forced`` (at most one a game) always among them."""
    prio = np.stack([key_stream(keys, salt + r) >> np.uint64(1) for r in range(seats)])
    prio[forced] = np.uint64(1 << 63)
    ranked = np.argsort(prio, axis=0)[::-1][:players]
    stay = np.zeros(prio.shape, dtype=np.bool_)
    np.put_along_axis(stay, ranked, True, axis=0)
    return stay


class PlayPhase(TrickGame):
    """A trick game whose deal opens with a phase played at init (see the module)."""

    #: the seats at the table (``players``: how many of them play the tricks)
    table: int

    def prepare(self, keys: U64, order: npt.NDArray[np.uint8], dealer: I64) -> Prepared:
        """Play the pre-play phase of every game (a hook)."""
        raise NotImplementedError

    def pre_actions(self, state: PlayState, game: int) -> list[dict[str, Any]]:
        """Game ``game``'s pre-play actions with their seats, as a record writes them."""
        raise NotImplementedError

    def points(self, state: PlayState, tricks: I64) -> npt.NDArray[np.float32]:
        """(players, games) each order's points from its tricks (a hook)."""
        raise NotImplementedError

    def init(self, keys: npt.ArrayLike) -> PlayState:
        k = as_keys(keys)
        order = shuffled(k, self.deck, SALT_DEAL)
        dealer = (key_stream(k, SALT_DEALER) % np.uint64(self.table)).astype(np.int64)
        p = self.prepare(k, order, dealer)
        base = self._state(k, order, dealer, p.hands, p.trump, p.trump_card)
        state = PlayState(**{f.name: getattr(base, f.name) for f in fields(base)},
                          seats=p.seats, pre=p.pre)
        state.points = np.zeros((self.table, state.games), dtype=np.float32)
        self._set_legal(state)
        return state

    def score(self, state: TrickState) -> npt.NDArray[np.float32]:
        assert isinstance(state, PlayState)
        return self.by_seat(state, self.points(state, self.tricks(state)))

    def to_move(self, state: TrickState) -> I64:
        assert isinstance(state, PlayState)
        if self.is_over(state):
            return np.full(state.games, -1, dtype=np.int64)
        mover = np.broadcast_to(np.asarray(self._mover(state)), (state.games,))
        return np.take_along_axis(state.seats, mover[None, :], axis=0)[0]

    def by_seat(self, state: TrickState, by_order: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """(table, games) from orders to seats: a seat not in play gets 0."""
        assert isinstance(state, PlayState)
        out = np.zeros((self.table, state.games), dtype=by_order.dtype)
        np.put_along_axis(out, state.seats, by_order, axis=0)
        return out

    def actions_json(self, state: TrickState, game: int) -> list[dict[str, Any]]:
        assert isinstance(state, PlayState)
        n = self.players
        out = self.pre_actions(state, game)
        for t in range(state.t):
            k = (int(self._leader_of(state, t // n)[game]) + t % n) % n
            out.append({"seat": int(state.seats[k, game]),
                        "action": self.action_text(int(state.history[t, game]))})
        return out

    def record(self, state: TrickState, game: int) -> dict[str, Any]:
        return super().record(state, game) | {"players": self.table}

    def deal_json(self, state: TrickState, game: int) -> dict[str, Any]:
        """The deal as dealt round robin from the dealer's left, the next card turned for
        trump, the rest the stock (Mushka, Stukolka)."""
        n, h = self.table, self.dealt_hand
        order = state.order[game].tolist()
        d = int(state.dealer[game])
        return {"dealer": d, "hands": dealt_hands(order, d, n, h),
                "stock": [CARD_TEXT[c] for c in order[n * h + 1:]],
                "trump_card": CARD_TEXT[order[n * h]]}

    #: cards dealt to each seat
    dealt_hand: int


__all__ = ["PlayPhase", "PlayState", "Prepared", "cards_text", "choose_stayers", "compact",
           "deal_round_robin"]
