"""The batched trick, written once: who wins a trick is data, and playing a card to a
trick is one look-up and one maximum, whatever the game.

Every batched trick game plays its cards through a ``TrickRule``: ``koloda.batched.core``
(the games in lockstep: the position in the trick is one int for the batch),
``koloda.batched.paced`` and ``koloda.batched.kopilka`` (each game at its own pace: a lead
in some games, a follow in others, and the seat as the position). What differs between
the games is the rule's data — the cards, the suit each counts as, each one's power in
its suit, the actions that win whatever is led (Opendaum's shakhi played wild, Kopilka's
mushka) and the cards that count for no suit's duty — and the follow rule each picks
from the ones below.

Per game a trick is two ints. ``base``: the strength table's offset of (trump, led suit).
``best``: 8 × strength + the position (or seat) of the best card so far, so one maximum
keeps both the best card and who played it: strengths differ between the cards that can
win, and the led card always can; a card that cannot win has strength -1. A trump counts
32 + its power, a card of the led suit its power (powers are below 32).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from koloda.batched.bits import ONE, U64

I64 = npt.NDArray[np.int64]
#: the strength table's stride per (trump, led) pair: action ints fit in 64
STRIDE = 64
SUITS = 4
#: the trump row of a game without trumps
NO_TRUMP = SUITS
#: the table offset of no trump (a game that never has one)
TRUMPLESS = NO_TRUMP * SUITS * STRIDE
TRUMP = 32


class TrickRule:
    """Who wins a trick, as data. ``suit_of`` and ``power`` by action (an action plays a
    card, or a card a special way); ``always``: actions with that strength whatever is led
    (above every trump: they win); ``exempt``: cards in no suit's follow or trump duty."""

    def __init__(self, deck: Iterable[int], suit_of: I64, power: I64,
                 always: dict[int, int] | None = None, exempt: int = 0) -> None:
        cards = [int(c) for c in deck]
        self.suit_of = suit_of
        #: the cards counted as each suit (for the follow duties)
        self.suit_bits = np.zeros(SUITS, dtype=np.uint64)
        for c in cards:
            self.suit_bits[suit_of[c]] |= ONE << np.uint64(c)
        self.suit_bits &= ~np.uint64(exempt)
        table = np.full((SUITS + 1, SUITS, STRIDE), -1, dtype=np.int64)
        for tr in range(SUITS + 1):
            for led in range(SUITS):
                for c in cards:
                    s = suit_of[c]
                    if s == tr:
                        table[tr, led, c] = TRUMP + power[c]
                    elif s == led:
                        table[tr, led, c] = power[c]
        for a, strength in (always or {}).items():
            table[:, :, a] = strength
        self.strength = table.ravel()
        self._keyed: dict[int, I64] = {}

    def trump_base(self, trump: I64) -> I64:
        """The table offset of each game's trump (-1: none)."""
        return np.where(trump >= 0, trump, NO_TRUMP) * (SUITS * STRIDE)

    def keyed(self, pos: int) -> I64:
        """8 × strength + ``pos`` by table index: a card's key at that trick position."""
        table = self._keyed.get(pos)
        if table is None:
            table = self._keyed[pos] = self.strength * 8 + pos
        return table

    # --------------------------------------------------- games in lockstep
    def lead(self, trump_base: I64, led: I64, a: I64) -> tuple[I64, I64]:
        """Every game leads action ``a`` of suit ``led``: (base, best)."""
        base = led * STRIDE
        base += trump_base
        return base, self.keyed(0).take(base + a)

    def follow(self, base: I64, best: I64, a: I64, pos: int) -> None:
        """Every game plays action ``a`` at trick position ``pos``: ``best`` in place."""
        np.maximum(self.keyed(pos).take(base + a), best, out=best)

    # --------------------------------------------------- games at their own pace
    def play(self, lead: npt.NDArray[np.bool_], trump_base: I64 | int, led: I64, base: I64,
             best: I64, a: I64, seat: I64) -> tuple[I64, I64]:
        """Each game plays action ``a``, leading where ``lead`` (suit ``led``), the seat as
        the position: (base, best). An action no card (a pass) has strength -1."""
        base = np.where(lead, led * STRIDE + trump_base, base)
        key = self.strength.take(base + a) * 8 + seat
        return base, np.where(lead, key, np.maximum(best, key))

    @staticmethod
    def winner(best: I64) -> I64:
        """The position (or seat) of the best card."""
        return best & 7


# ------------------------------------------------------------- the follow rules
def follow_else_trump(h: U64, led_bits: U64, trump_bits: U64) -> U64:
    """Follow suit; void, trump; else any card."""
    same = h & led_bits
    trumps = h & trump_bits
    return np.where(same != 0, same, np.where(trumps != 0, trumps, h))


def follow_else_any(h: U64, led_bits: U64) -> U64:
    """Follow suit; void, any card."""
    same = h & led_bits
    return np.where(same != 0, same, h)


ALL = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
_S3, _S6 = np.uint64(3), np.uint64(6)


def beat_or_overtrump(h: U64, led_bits: U64, trump_bits: U64, base: I64, best: I64) -> U64:
    """Stukolka's follow: follow suit and beat the trick's best card of the led suit if
    able (any card of it once a plain lead is trumped); void, trump — beating the highest
    trump in the trick if able — else any card. The best card so far is read off
    ``best`` (cards are suit × 13 + rank, the power the rank)."""
    strength = best >> 3
    trumped = strength >= TRUMP
    rank = strength & (TRUMP - 1)
    led = (base >> 6) & (SUITS - 1)
    trump = base >> 8
    top = np.where(trumped, trump, led) * 13 + rank         # the best card
    trumped &= led != trump                                 # a plain lead trumped
    same = h & led_bits
    beat = same & (ALL << (top + 1).astype(np.uint64))
    follow = np.where(trumped | (beat == 0), same, beat)
    trumps = h & trump_bits
    # the highest trump in the trick: the best card when a trump is best, else none
    over = trumps & np.where(strength >= TRUMP, ALL << (top + 1).astype(np.uint64), ALL)
    ruff = np.where(over != 0, over, trumps)
    return np.where(same != 0, follow, np.where(trumps != 0, ruff, h))


__all__ = ["NO_TRUMP", "STRIDE", "TRUMPLESS", "TrickRule", "beat_or_overtrump", "follow_else_any",
           "follow_else_trump"]
