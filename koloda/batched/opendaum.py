"""Opendaum classic (koloda/rules/opendaum.en.md §Precisely 1–9), one deal of a chosen size,
batched.

Action space (``num_actions = 52 + hand + 1``): ``0..51`` play the card of that int
(``suit * 13 + rank``, suits S C D H — koloda's card ints), ``52 + k`` bid ``k`` tricks
(``k = 0..hand``). A step is a bid for the first ``players`` steps (from the dealer's
left, dealer last; no bid is ever refused: the hook rule is §1c's alone), then a play.

Trump: the top card of the stock, turned; with no stock (the whole deck dealt) the
dealer's last card. Play: the dealer's left leads, the trick's winner leads next; follow
suit, else trump, else anything. Scoring: a made bid ``5 × bid + 5``, else one point a
trick. The OpenSpiel ``oh_hell`` shape is ``Opendaum(players=4, hand=8)`` (36 cards).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from koloda.batched.core import F32, I64, TrickGame, TrickState
from koloda.cards import deck as koloda_deck

#: koloda/rules/opendaum.en.md §Precisely 1–9: the deck by player count (four players may choose
#: 32). The deck named "30" is ``koloda.cards.deck(30)``: 36 without the red sixes and the four
#: sevens, 30 cards, dealt out whole at 6 each (the dealer's last card turns trump)
DECKS = {2: 32, 3: 36, 4: 36, 5: 30, 6: 36}


class Opendaum(TrickGame):
    """``Opendaum(players, hand, deck)``: the deal of ``hand`` cards each."""

    name = "opendaum"
    bidding = True
    follow_trump = True
    #: the deck by player count (a variant has its own)
    decks: ClassVar[dict[int, int]] = DECKS

    def __init__(self, players: int = 4, hand: int = 8, deck: int | None = None) -> None:
        decks, name = self.decks, self.name
        if players not in decks:
            low, high = min(decks), max(decks)
            allowed = f"{low} to {high}" if low < high else f"exactly {low}"
            raise ValueError(f"{name}: {allowed} players, not {players}")
        size = decks[players] if deck is None else deck
        if size != decks[players] and not (decks is DECKS and players == 4 and size == 32):
            raise ValueError(f"{name}: {players} players play {decks[players]} cards"
                             + (" (or 32)" if decks is DECKS and players == 4 else ""))
        if not 1 <= hand <= size // players:
            raise ValueError(f"{name}: a deal of 1 to {size // players} cards each")
        self.players, self.hand, self.deck_size = players, hand, size
        self.deck = np.array(koloda_deck(size), dtype=np.uint8)
        self.suit_of = np.arange(64, dtype=np.int64) // 13
        self.power = np.arange(64, dtype=np.int64) % 13
        super().__init__()

    def trumps(self, order: npt.NDArray[np.uint8], dealer: I64) -> tuple[I64, I64]:
        dealt = self.players * self.hand
        # the stock's top card is turned; with no stock, the dealer's (last dealt) card
        card = order[:, dealt if dealt < len(self.deck) else dealt - 1].astype(np.int64)
        return card // 13, card

    def score(self, state: TrickState) -> F32:
        bids, tricks = state.bids, self.tricks(state)
        points = np.where(bids == tricks, 5 * bids + 5, tricks).astype(np.float32)
        return self.by_seat(state, points)

    def record_options(self) -> dict[str, Any]:
        # the engine's schedule deals `hand` cards at position hand - 1 (1, 2, …, M, M, …)
        opts: dict[str, Any] = {"start_deal": self.hand - 1}
        if self.deck_size != self.decks[self.players]:
            opts["deck"] = self.deck_size
        return opts
