"""What a seat has seen played face up during the deal, for games whose observation shows
only the current and the last trick.

A person at the table remembers the cards played; an observation need not repeat them.
``TableMemory`` is told every action of the deal and keeps the cards named by the actions
that lay cards face up for everyone (``play``, ``attack``, ``beat``, ``throw``,
``transfer``). Discards lie face down, so a ``discard`` is never remembered; the memory is
the same for every seat and holds nothing a seat did not see. The adapters append it to
the tensor as one 52-wide block.
"""

from __future__ import annotations

from koloda.cards import TEXT_CARD
from koloda.engine.layout import CARDS

#: verbs whose cards everyone at the table sees
FACE_UP_VERBS = frozenset({"play", "attack", "beat", "throw", "transfer"})


def face_up_cards(action: str) -> list[int]:
    """The cards an action lays face up (none for a discard, a bid, a pass …)."""
    verb, _, rest = action.partition(" ")
    if verb not in FACE_UP_VERBS:
        return []
    return [TEXT_CARD[w] for w in rest.split() if w in TEXT_CARD]


#: an action's text → the cards it lays face up (the texts recur)
_FACE_UP: dict[str, tuple[int, ...]] = {}


class TableMemory:
    """Cards played face up during the current deal."""

    __slots__ = ("cards",)

    def __init__(self) -> None:
        self.cards: set[int] = set()

    def record(self, action: str) -> tuple[int, ...]:
        """Remember the cards ``action`` lays face up; return them."""
        cards = _FACE_UP.get(action)
        if cards is None:
            if len(_FACE_UP) >= 100_000:
                _FACE_UP.clear()
            cards = _FACE_UP[action] = tuple(face_up_cards(action))
        if cards:
            self.cards.update(cards)
        return cards

    def new_deal(self) -> None:
        self.cards = set()

    def copy(self) -> TableMemory:
        new = TableMemory()
        new.cards = set(self.cards)
        return new

    def encode(self) -> list[float]:
        out = [0.0] * CARDS
        for c in self.cards:
            out[c] = 1.0
        return out
