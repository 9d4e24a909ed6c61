"""Trinka (koloda/rules/trinka.en.md §Precisely), one deal, batched: two pairs, clubs and every jack
are trumps.

Action space (``num_actions = 52``): ``0..51`` play the card of that int (koloda's card
ints). All 36 cards are dealt, 9 each; the dealer's left leads, the trick's winner leads
next. Trinka is data for the shared core: each jack *counts as* a club (so a jack led is
a trump lead and J♠ does not follow spades), the trumps rank 6C JC JS JH JD AC KC QC TC
9C 8C 7C, and a player void in the led suit may play anything.

Reward: each seat's share of the deal as the engine's ``TrinkaDeal.payoffs`` gives it —
what its pair writes off (the gain), minus what the other pair writes off: rozhok (8–1)
1, trinka (6–3) 3, draws 0, and a 9–0 deal −24 for the pair that took all nine (the match
lost at double stake).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from koloda.batched.core import F32, I64, TrickGame, TrickState
from koloda.cards import CLUBS, JACK, deck, parse_cards

#: the twelve trumps, highest first (koloda/rules/trinka.en.md §Precisely)
TRUMP_ORDER = parse_cards("6C JC JS JH JD AC KC QC TC 9C 8C 7C")
#: the payoff of a 9–0 deal: twice the default record
ALL_NINE = 24.0


class Trinka(TrickGame):
    """``Trinka()``: one deal of nine tricks for two pairs (seats 0+2 against 1+3)."""

    name = "trinka"
    players = 4
    hand = 9
    follow_trump = False

    def __init__(self) -> None:
        self.deck = np.array(deck(36), dtype=np.uint8)
        cards = np.arange(64, dtype=np.int64)
        self.suit_of = np.where(cards % 13 == JACK, CLUBS, cards // 13)
        self.power = cards % 13
        for i, c in enumerate(TRUMP_ORDER):
            self.power[c] = len(TRUMP_ORDER) - i
        super().__init__()

    def trumps(self, order: npt.NDArray[np.uint8], dealer: I64) -> tuple[I64, I64]:
        games = len(order)
        return np.full(games, CLUBS, dtype=np.int64), np.full(games, -1, dtype=np.int64)

    def pair_tricks(self, state: TrickState) -> I64:
        """(2, games): tricks of pair 0 (seats 0, 2) and pair 1 (seats 1, 3)."""
        by_seat = self.by_seat(state, self.tricks(state))
        return np.stack([by_seat[0] + by_seat[2], by_seat[1] + by_seat[3]])

    def score(self, state: TrickState) -> F32:
        a, b = self.pair_tricks(state)
        low = np.minimum(a, b)
        low_pair = (b < a).astype(np.int64)            # 9 tricks: never a tie
        # what the pair with fewer tricks gains: rozhok 1, trinka 3, and 24 when the other
        # pair took all nine
        gain = np.select([low == 0, low == 1, low == 3], [ALL_NINE, 1.0, 3.0], 0.0)
        seats = np.arange(4)[:, None] % 2
        return np.where(seats == low_pair[None, :], gain, -gain).astype(np.float32)
