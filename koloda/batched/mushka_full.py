"""Mushka (koloda/rules/mushka.en.md §Precisely), one whole deal batched: the exchange round as the
batch's steps, then the tricks among whoever stayed in (``koloda.batched.paced``: each game at its
own pace once the exchange is over).

``koloda.batched.mushka`` batches the tricks alone (the exchange played at init); here an
agent makes the exchange choices too. Actions (``num_actions = 85``): ``0..51`` play that
card; ``52`` stand; ``53`` pass; ``53 + m`` (``m = 1..31``) discard the cards of the
mover's hand (in card order) at the set bits of ``m`` (bit 0: the lowest card) and draw
as many. Discards never exceed the stock; the holder of AS may not pass. Nobody in: a void
deal; one in: he takes the five tricks without play. Play: follow suit, else trump (the
turned card's suit, out of play), else any card; the first in from the dealer's left
leads, then each trick's winner. A deal over waits for its batch with ``52`` (ignored).
Points by seat (the engine's ``MushkaDeal.payoffs``): in play, +1 a trick, −5 for none;
a passer, or a void deal, 0.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from koloda.batched.bits import ONE, U64, popcount
from koloda.batched.core import CARDS, I64
from koloda.batched.paced import OPEN, ZERO, PacedState, PacedTricks, nth_cards
from koloda.batched.playphase import cards_text
from koloda.cards import ACE, SPADES, card, deck

HAND = 5
STAND, PASS = OPEN, OPEN + 1
NO_TRICK = -5.0
AS_BIT = np.uint64(1 << card(ACE, SPADES))
#: by the most cards one may discard (0..5): the discard sets open, as opening-word bits
_SUBSETS = np.array([sum(1 << (1 + m) for m in range(1, 32) if bin(m).count("1") <= most)
                     for most in range(HAND + 1)], dtype=np.uint64)


class MushkaFull(PacedTricks):
    """``MushkaFull(table=4)``: whole deals for ``table`` seats (2–6)."""

    name = "mushka"
    hand = HAND
    num_actions = CARDS + 2 + 31

    def __init__(self, table: int = 4) -> None:
        if not 2 <= table <= 6:
            raise ValueError(f"mushka: 2 to 6 seats, not {table}")
        self.players = self.table = table
        self.deck = np.array(deck(32 if table <= 4 else 52), dtype=np.uint8)

    def open_legal(self, state: PacedState, h: U64) -> U64:
        most = np.minimum(HAND, len(self.deck) - state.stock_next)
        legal = _SUBSETS.take(most) | ONE
        return legal | np.where((h & AS_BIT) != 0, ZERO, np.uint64(2))

    def open_apply(self, state: PacedState, a: I64) -> None:
        i, ar = state.t, np.arange(state.games)
        seat = state.mover
        h = state.hands[seat, ar]
        m = np.maximum(a - PASS, 0)
        d = np.zeros(state.games, dtype=np.uint64)
        for q, low in enumerate(nth_cards(h, HAND)):
            d |= np.where((m >> q) & 1 == 1, low, ZERO)
        count = popcount(d).astype(np.int64)
        new = np.zeros(state.games, dtype=np.uint64)
        for q in range(HAND):
            c = state.order[ar, np.minimum(state.stock_next + q, len(self.deck) - 1)]
            new |= np.where(q < count, np.left_shift(ONE, c.astype(np.uint64)), ZERO)
        passed = a == PASS
        state.hands[seat, ar] = np.where(passed, ZERO, (h & ~d) | new)
        state.stock_next += count
        state.choice[i] = np.where(passed, 1, np.where(a == STAND, 0, 2))
        state.discards[i] = d
        state.active[seat, ar] = ~passed

    def deal_points(self, state: PacedState) -> npt.NDArray[np.float32]:
        pts = np.where(state.won > 0, state.won, NO_TRICK)
        return np.where(state.active, pts, 0).astype(np.float32)

    def open_text(self, state: PacedState, game: int, seat: int, action: int,
                  hand: int) -> str:
        if action in (STAND, PASS):
            return ("stand", "pass")[action - STAND]
        cards = [c for c in range(64) if hand >> c & 1]
        m = action - PASS
        return cards_text("discard", sum(1 << cards[q] for q in range(HAND) if m >> q & 1))


__all__ = ["AS_BIT", "PASS", "STAND", "MushkaFull"]
