"""Mushka's typed views: what one seat sees of a deal, and the match's score sheet.

Values are cards, suits and seats as ints (``koloda.cards``); the JSON form
(``to_json()``) is the observation as it always was, suits as letters. A field of kind
``data`` is for programs (the search bots, the tensors): no person reads it, and its JSON
form is written by :class:`ShapedView` from its typed value (Kopilka's views use it too).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from koloda.cards import CARD_TEXT, RANKS, Card
from koloda.engine.view import View, fields_of, item
from koloda.tricks import TrickTaken

#: one trick as it was played: (seat, card) in the order played
Plays = tuple[tuple[int, Card], ...]


def plays_json(tricks: tuple[Plays, ...]) -> list[list[list[Any]]]:
    """Tricks as JSON: ``[[[seat, "6C"], …], …]``."""
    return [[[s, CARD_TEXT[c]] for s, c in t] for t in tricks]


class ShapedView(View):
    """A view whose ``data`` fields hold typed values (card ints, nested views) and are
    written to JSON by ``json_shapes`` (field name → function of the value); a field in
    ``json_omit_none`` is left out of the JSON while it is None (a key only some seats
    have, as before the views); ``json_names`` gives a field whose name would hide a
    method of the mapping (``values``) its JSON key."""

    json_shapes: ClassVar[Mapping[str, Callable[[Any], Any]]] = {}
    json_omit_none: ClassVar[frozenset[str]] = frozenset()
    json_names: ClassVar[Mapping[str, str]] = {}

    def to_json(self, public: bool = False) -> dict[str, Any]:
        out = View.to_json(self, public)
        for name, shape, omit in _shaping(type(self)):
            if name not in out:
                continue
            value = out[name]
            if value is None:
                if omit:
                    del out[name]
            elif shape is not None:
                out[name] = shape(getattr(self, name))   # from the typed value
        if self.json_names:
            out = {self.json_names.get(k, k): v for k, v in out.items()}
        return out


_SHAPING: dict[type, tuple[tuple[str, Callable[[Any], Any] | None, bool], ...]] = {}


def _shaping(cls: type[ShapedView]) -> tuple[tuple[str, Callable[[Any], Any] | None, bool], ...]:
    """The fields of ``cls`` its JSON form rewrites: (name, shape, left out when None)."""
    known = _SHAPING.get(cls)
    if known is None:
        known = _SHAPING[cls] = tuple(
            (f.name, cls.json_shapes.get(f.name), f.name in cls.json_omit_none)
            for f in fields_of(cls) if f.kind == "data" or f.name in cls.json_omit_none)
    return known


#: the last completed trick (the trick core's view)
LastTrick = TrickTaken


@dataclass(frozen=True)
class MushkaView(ShapedView):
    """One seat's view of a Mushka deal: the exchange round (the turned trump card, the
    stock, every choice), then the play among the players still in."""

    phase: str = item("word", "phase")
    hand: tuple[Card, ...] = item("cards", "hand", private=True, role="hand")
    hand_sizes: tuple[int, ...] = item("per_seat", "hand_sizes")
    trump_card: Card = item("card", "trump_card", role="trump_card")
    trump: int = item("suit", "trump", role="trump")
    #: cards left in the stock
    stock: int = item("number", "stock")
    #: each seat's exchange choice: "discard N", "stand", "pass", or None (to choose)
    choices: tuple[str | None, ...] = item("per_seat_words", "choices")
    in_play: tuple[int, ...] = item("seats", "in_play")
    my_discards: tuple[Card, ...] = item("cards", "my_discards", private=True)
    trick: Plays = item("plays", "trick", role="trick")
    last_trick: LastTrick | None = item("view", "last_trick", role="last_trick")
    tricks: tuple[int, ...] = item("per_seat", "tricks")
    #: every completed trick of the deal, for programs
    tricks_played: tuple[Plays, ...] = item("data", role="history")
    #: suits each seat has shown it lacks
    voids: tuple[tuple[int, ...], ...] = item("per_seat_suits", "voids")

    json_shapes: ClassVar[Mapping[str, Callable[[Any], Any]]] = {"tricks_played": plays_json}


@dataclass(frozen=True)
class DealerDraw(ShapedView):
    """The draw for the first dealer, by rank only: it used its own pack, and its suits
    (which decide nothing) would read like cards of the deal."""

    dealer: int = item("seat", "dealer")
    #: the draw as a person reads it (koloda.present.sentence)
    said: ClassVar[tuple[str, str]] = ("{dealer} (drew the lowest card)",
                                       "{dealer} (вытянул(а) младшую карту)")
    #: each round of the draw: (seat, rank) — ranks 0 (two) … 12 (ace)
    rounds: tuple[tuple[tuple[int, int], ...], ...] = item("data")

    json_shapes: ClassVar[Mapping[str, Callable[[Any], Any]]] = {
        "rounds": lambda rounds: [[[s, RANKS[r]] for s, r in rnd] for rnd in rounds]}


@dataclass(frozen=True)
class MushkaSheet(View):
    """The counts (from 25 down; the first to 0 wins), the first dealer's draw."""

    scores: tuple[int, ...] = item("per_seat", "scores")
    first_dealer_draw: DealerDraw | None = item("view", "first_dealer_draw")
    deals_played: int = item("number", "deals_played")


#: Mushka's own words: the exchange choices as the sheet of choices shows them
TERMS: dict[str, tuple[str, str]] = {
    **{f"discard {k}": (f"drew {k}", f"прикупил {k}") for k in range(1, 6)},
    "changes": ("change", "изменение"),
    "void": ("void", "пустая"),
}

VIEWS = (MushkaView, LastTrick, MushkaSheet, DealerDraw)
