"""Trinka's observation tensor (``GameSpec.layout``): its blocks after the common header,
and the blocks only Trinka needs — a number per pair of partners, and the voids (suits read
typed, the trumps spelt their own way in the JSON)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from koloda.engine.layout import (
    UNBOUNDED,
    Block,
    Cards,
    PerSeat,
    PerSeatSet,
    Seat,
    SeatCards,
    TrickCards,
    last_trick,
    suit_index,
)

_DATA = frozenset({"data"})
_PER_SEAT_SUITS = frozenset({"per_seat_suits"})


@dataclass(frozen=True)
class PerPair(Block):
    """A number per pair of partners (Trinka: seats 0+2 and 1+3), the observer's pair
    first."""

    scale: float = 1.0
    signed: bool = False

    def size(self, players: int) -> int:
        return 2

    def bounds(self) -> tuple[float, float]:
        return (-UNBOUNDED, UNBOUNDED) if self.signed else (0.0, UNBOUNDED)

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        for p, x in enumerate(value or ()):
            if p < 2 and isinstance(x, (int, float)):
                out[at + (p - seat) % 2] = x * self.scale

    def none_is_zeros(self) -> bool:
        return type(self).encode is PerPair.encode      # no numbers: all zeros

    def typed_kinds(self) -> frozenset[str]:
        return _DATA           # the view's tuple of the pairs' numbers (a list in JSON)

    def put(self, value: Any, seat: int, players: int, at: int, ones: list[int],
            ni: list[int], nv: list[float]) -> None:
        scale = self.scale
        for p, x in enumerate(value):
            if p < 2 and x and isinstance(x, (int, float)):
                ni.append(at + (p - seat) % 2)
                nv.append(x * scale)


@dataclass(frozen=True)
class Voids(PerSeatSet):
    """Trinka's voids: the suits (ints, clubs the trumps) each seat has shown it lacks,
    read typed as any suit set is; the JSON form spells the trumps ``"trumps"`` or
    ``"C"`` (``normalize``)."""

    def typed_kinds(self) -> frozenset[str]:
        return _PER_SEAT_SUITS


def _suit(value: Any) -> Any:
    """A suit as Trinka's observation spells it: "trumps" is clubs (with the jacks)."""
    return 1 if value == "trumps" else suit_index(value)


LAYOUT: tuple[Block, ...] = (
    Cards("hand", "hand", "the observer's hand"),
    PerSeat("hand_sizes", "hand_sizes", "cards in each hand / 9", scale=1 / 9),
    Seat("leader", "leader", "who leads (led) the current trick"),
    SeatCards("trick", "trick", "the current trick, by seat"),
    PerSeat("tricks", "tricks", "tricks taken / 9", scale=1 / 9),
    PerPair("pair_tricks", "pair_tricks", "tricks by pair / 9, the observer's pair first",
            scale=1 / 9),
    *last_trick(),
    TrickCards("tricks_played", "tricks_played", "every card of this deal's completed "
                                                 "tricks, by the seat that played it"),
    Voids("voids", "voids", "suits each seat is known to lack (spades, trumps, "
                            "diamonds, hearts)", vocab=(0, 1, 2, 3), normalize=_suit),
    PerPair("records", "sheet.records", "each pair's record still to write off / 12, the "
                                        "observer's pair first", scale=1 / 12, signed=True),
)

#: The fields these blocks read, as the adapters' fast tensor path (koloda.tensors.direct)
#: reads them straight off the deal state (``TrinkaDeal.tensor_fields``), no view
#: made: each the expression ``TrinkaDeal.observation(seat)`` makes it by, over ``st`` the
#: deal state and ``seat`` the observer (a card or suit set read unsorted: a block writes
#: it as flags); ``sheet.records`` off ``m``, the match (``TrinkaMatch.sheet``).
#: tests/test_tensors_direct.py checks the tensor written from them is the one written
#: from the observation, for every seat at every step.
STATE_FIELDS: Mapping[str, str] = {
    "hand": "st.hands[seat]",
    "hand_sizes": "map(len, st.hands)",
    "leader": "st.trick.leader",
    "trick": "zip(st.trick.seats, st.trick.cards)",
    "tricks": "st.tricks",
    "pair_tricks": "st.pair_tricks()",
    "last_trick": "st.last_trick",
    "tricks_played": "st.history",
    "voids": "st.voids",
    "sheet.records": "m.records",
}
