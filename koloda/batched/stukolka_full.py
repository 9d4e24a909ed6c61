"""Stukolka (koloda/rules/stukolka.en.md §Precisely), one whole deal (a match's first: the pot is
the dealer's ante) batched: the declarations as the batch's steps, then the tricks among whoever
plays (``koloda.batched.paced``: each game at its own pace once the declarations are over).

``koloda.batched.stukolka`` batches the tricks alone (the declarations played at init);
here an agent declares too. Actions: ``0..51`` play that card; ``52`` knock, ``53`` drop,
``54`` golets (while nobody has taken it: his three cards out, the turned card and the
one under it aside, the next three in; then he plays). Nobody plays: the pot stays; one
alone takes the three tricks (the whole pot) without play. The golets taker leads, else
the first to knock; then each trick's winner. The trump ace is led whenever its holder
leads; follow suit and beat the trick's best of it if able (any of it once a plain lead is
trumped); void, trump — over the highest trump in the trick if able — else any card. A
deal over waits for its batch with ``52`` (ignored). A turned trump ace (a redeal, no
play) is not dealt: the stock's first non-ace is turned instead (the two cards swap places
in the shuffled deck the record holds). Points by seat (the engine's
``StukolkaDeal.payoffs``): a third of the pot a trick, the whole pot for a player who
played and took none (not when alone), and the dealer's ante off the dealer.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from koloda.batched.bits import ONE, U64
from koloda.batched.core import CARDS, I64
from koloda.batched.paced import OPEN, SUIT_BITS, ZERO, PacedState, PacedTricks
from koloda.batched.stukolka import record_options
from koloda.batched.trick import beat_or_overtrump
from koloda.cards import ACE
from koloda.cards import deck as card_deck

HAND = 3
KNOCK, DROP, GOLETS = OPEN, OPEN + 1, OPEN + 2


class StukolkaFull(PacedTricks):
    """``StukolkaFull(table=5, deck=36, ante=3)``: whole deals for ``table`` seats (4–7)."""

    name = "stukolka"
    hand = HAND
    num_actions = CARDS + 3

    def __init__(self, table: int = 5, deck: int = 36, ante: int = 3) -> None:
        if not 4 <= table <= 7:
            raise ValueError(f"stukolka: 4 to 7 seats, not {table}")
        if deck not in (36, 52):
            raise ValueError(f"stukolka: a deck of 36 or 52, not {deck}")
        if ante < 3 or ante % 3:
            raise ValueError(f"stukolka: the ante is a multiple of 3, at least 3, not {ante}")
        self.players = self.table = table
        self.deck_size, self.ante = deck, ante
        self.deck = np.array(card_deck(deck), dtype=np.uint8)

    def arrange(self, order: npt.NDArray[np.uint8]) -> None:
        # a turned ace would be a redeal: turn the stock's first non-ace instead
        turned, ar = self.table * HAND, np.arange(len(order))
        swap = turned + np.argmax(order[:, turned:].astype(np.int64) % 13 != ACE, axis=1)
        top = order[:, turned].copy()
        order[:, turned] = order[ar, swap]
        order[ar, swap] = top

    def open_legal(self, state: PacedState, h: U64) -> U64:
        return np.where(state.taker < 0, np.uint64(0b111), np.uint64(0b011))

    def open_apply(self, state: PacedState, a: I64) -> None:
        i, ar, seat = state.t, np.arange(state.games), state.mover
        golets = a == GOLETS
        turned = self.table * HAND
        fresh = np.bitwise_or.reduce(np.left_shift(
            ONE, state.order[:, turned + 2:turned + 2 + HAND].astype(np.uint64)), axis=1)
        h = state.hands[seat, ar]
        state.hands[seat, ar] = np.where(golets, fresh, np.where(a == DROP, ZERO, h))
        state.taker = np.where(golets, seat, state.taker)
        state.choice[i] = (a - OPEN).astype(np.int8)
        state.active[seat, ar] = a != DROP

    def first_leader(self, state: PacedState) -> I64:
        return np.where(state.taker >= 0, state.taker, super().first_leader(state))

    def lead_legal(self, state: PacedState, h: U64) -> U64:
        ace = np.left_shift(ONE, (state.trump * 13 + ACE).astype(np.uint64))
        return np.where((h & ace) != 0, ace, h)

    def follow_legal(self, state: PacedState, h: U64) -> U64:
        return beat_or_overtrump(h, SUIT_BITS.take(np.maximum(state.led, 0)),
                                 state.trump_bits, state.base, state.best)

    def deal_points(self, state: PacedState) -> npt.NDArray[np.float32]:
        pot = self.ante            # a match's first deal: the pot is the dealer's ante
        remiz = np.where(state.players_in >= 2, pot, 0)[None, :]
        pts = np.where(state.won > 0, state.won * (pot // 3), -remiz)
        pts = np.where(state.active, pts, 0)
        pts[state.dealer, np.arange(state.games)] -= self.ante
        return pts.astype(np.float32)

    def open_text(self, state: PacedState, game: int, seat: int, action: int,
                  hand: int) -> str:
        return ("knock", "drop", "golets")[action - OPEN]

    def record_options(self) -> dict[str, Any]:
        return record_options(self.deck_size, self.ante)


__all__ = ["DROP", "GOLETS", "KNOCK", "StukolkaFull"]
