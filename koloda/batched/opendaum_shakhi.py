"""Opendaum's other two variants, one deal each, batched: with two shakhi
(koloda/rules/opendaum.en.md §Precisely, ``opendaum-shakhi``) and three players with 33 cards (§1c,
``opendaum-33``).

Both are classic Opendaum (``koloda.batched.opendaum``) with shakhi: a shakha (6S, 6C; 6C
alone in §1c) is always playable, never counts for a follow, trump or ruff duty, and is
played *plain* (the six of its suit, its ordinary rank — a plain trump six is the lowest
trump and can win) or *wild* (beats everything; of two wild ones the later wins; led wild
it is a trump lead).

Action space: ``0..51`` play that card (a shakha: played plain), then one action per
shakha played wild — ``52`` 6S wild, ``53`` 6C wild (§1b); ``52`` 6C wild (§1c) — then
``play_actions + k`` bid ``k``. The whole deal is batched, bids included.

§1b's follow rules (``ruff_only_when_only_trumps``, default true): no trump lead while
holding a non-trump card; follow suit (on a trump lead, a trump); void in the led suit, a
non-trump card while holding one, else a trump (option false: void, trump as in §1a).
§1c: follow suit, else any card; the dealer, bidding last, may not make the bids add up
to the cards each holds (the hook rule); a made bid scores ``5 × bid + 5`` — in the
match's final deal (one card each, ``final=True``) ``10 × bid + 10`` (a miss there, with
``last_deal_penalty``: tricks − 10 per trick bid but not taken).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from koloda.batched.bits import ONE, U64
from koloda.batched.core import CARDS, F32, I64, TrickState
from koloda.batched.opendaum import Opendaum
from koloda.cards import CARD_TEXT, parse_cards

#: a wild play's strength: above every trump (32 + power), equal for both shakhi, so the
#: trick's maximum (strength, then position) makes the later wild one win
WILD = 60


class _WithShakhi(Opendaum):
    """Opendaum with shakhi: the wild actions, the shakhi's exemption from every duty."""

    shakhi: tuple[int, ...]

    def __init__(self, players: int, hand: int) -> None:
        self.play_actions = CARDS + len(self.shakhi)
        self.card_of = np.arange(64, dtype=np.int64)
        self.card_of[CARDS:CARDS + len(self.shakhi)] = self.shakhi
        # played wild, a shakha wins whatever is led; no duty counts a shakha: the suits
        # (and so the trump and led sets) leave them out
        self.always = {a: WILD for a in range(CARDS, self.play_actions)}
        self.exempt = sum(1 << c for c in self.shakhi)
        super().__init__(players, hand)
        self.shakhi_bits = np.uint64(self.exempt)

    def _led_suit(self, state: TrickState, a: I64) -> I64:
        # a shakha led wild is a trump lead (an Opendaum deal always has a trump)
        return np.where(a >= CARDS, state.trump, self.suit_of.take(np.minimum(a, CARDS - 1)))

    def _with_shakhi(self, h: U64, allowed: U64) -> U64:
        """``allowed`` plus every shakha held, plain (its card bit) and wild."""
        out = allowed | (h & self.shakhi_bits)
        for i, c in enumerate(self.shakhi):
            out |= ((h >> np.uint64(c)) & ONE) << np.uint64(CARDS + i)
        return out

    def action_text(self, action: int) -> str:
        if CARDS <= action < self.play_actions:
            return f"play {CARD_TEXT[self.shakhi[action - CARDS]]} wild"
        if action in self.shakhi:
            return f"play {CARD_TEXT[action]} plain"
        return super().action_text(action)


class OpendaumShakhi(_WithShakhi):
    """``OpendaumShakhi(players, hand, ruff_only_when_only_trumps=True)``: a §1b deal."""

    name = "opendaum-shakhi"
    decks: ClassVar[dict[int, int]] = {2: 34, 3: 36, 4: 36, 5: 30, 6: 36}
    shakhi = tuple(parse_cards("6S 6C"))

    def __init__(self, players: int = 4, hand: int = 8,
                 ruff_only_when_only_trumps: bool = True) -> None:
        self.ruff_only = ruff_only_when_only_trumps
        super().__init__(players, hand)

    def _play_legal(self, state: TrickState, j: int, h: U64) -> U64:
        duty = h & ~self.shakhi_bits
        plain = duty & ~state.trump_bits
        if j == 0:
            # no trump lead while holding a non-trump card
            allowed = np.where(plain != 0, plain, duty)
        else:
            same = duty & state.led_bits
            if self.ruff_only:
                # void: a non-trump card while holding one (else what is left: trumps)
                other = np.where(plain != 0, plain, duty)
            else:
                trumps = duty & state.trump_bits
                other = np.where(trumps != 0, trumps, duty)
            allowed = np.where(same != 0, same, other)
        return self._with_shakhi(h, allowed)

    def record_options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {"start_deal": self.hand - 1}
        if not self.ruff_only:
            opts["ruff_only_when_only_trumps"] = False
        return opts


class Opendaum33(_WithShakhi):
    """``Opendaum33(hand, final=False, last_deal_penalty=False)``: a §1c deal of ``hand``
    cards each; ``final``: the match's final deal (one card each, scored 10 × bid + 10)."""

    name = "opendaum-33"
    decks: ClassVar[dict[int, int]] = {3: 33}
    shakhi = tuple(parse_cards("6C"))
    follow_trump = False
    #: the schedule's length: 1..10, 11 three times, 10..1
    SCHEDULE = 23

    def __init__(self, hand: int = 11, final: bool = False,
                 last_deal_penalty: bool = False) -> None:
        if final and hand != 1:
            raise ValueError("opendaum-33: the final deal is of one card each (hand=1)")
        self.final, self.penalty = final, last_deal_penalty
        super().__init__(3, hand)

    def _bid_legal(self, state: TrickState) -> U64:
        legal = super()._bid_legal(state)
        if state.t == self.players - 1:
            # the hook rule: the dealer may not make the bids add up to the hand
            forbidden = self.hand - state.bids[:state.t].sum(axis=0)
            legal = np.where(forbidden >= 0,
                             legal & ~np.left_shift(ONE, np.maximum(forbidden, 0)
                                                    .astype(np.uint64)), legal)
        return legal

    def _play_legal(self, state: TrickState, j: int, h: U64) -> U64:
        duty = h & ~self.shakhi_bits
        if j == 0:
            return self._with_shakhi(h, duty)
        same = duty & state.led_bits
        return self._with_shakhi(h, np.where(same != 0, same, duty))

    def score(self, state: TrickState) -> F32:
        if not self.final:
            return super().score(state)
        bids, tricks = state.bids, self.tricks(state)
        missed = (tricks - 10 * np.maximum(0, bids - tricks)) if self.penalty else tricks
        points = np.where(bids == tricks, 10 * bids + 10, missed).astype(np.float32)
        return self.by_seat(state, points)

    def record_options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {"start_deal": self.SCHEDULE - 1 if self.final
                                else self.hand - 1}
        if self.penalty:
            opts["last_deal_penalty"] = True
        return opts


__all__ = ["Opendaum33", "OpendaumShakhi"]
