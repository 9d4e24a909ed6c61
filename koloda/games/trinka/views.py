"""Trinka's typed views: what one seat sees of a deal, and the score sheet of the match.

Values are cards, suits and seats as ints (``koloda.cards``); the JSON form (``to_json()``)
is the observation as it always was, suits as letters. In Trinka every club and every jack
is a trump, so the "suit" a void names is the suit a card *counts as*: ``"C"`` (clubs) is
the trumps, jacks included; ``"S"`` is the spades without their jack.

The two pairs are declared (``pairs``, role "teams": seats 0 + 2 and 1 + 3) in the deal's
view and on the sheet; the numbers kept per pair (``pair_tricks``, ``records``) follow the
order of ``pairs`` (data for programs, lists in JSON); a person reads them per seat
(``pair_tricks_by_seat``, ``records_by_seat``: each seat shows its pair's number), and a
deal's score names the seats of the pair it concerns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from koloda.cards import Card
from koloda.engine import outcome
from koloda.engine.view import View, item
from koloda.tricks import TrickTaken

#: one trick as played: (seat, card) in the order played
Plays = tuple[tuple[int, Card], ...]
#: the two pairs, partners opposite: pair 0 = seats 0 and 2, pair 1 = seats 1 and 3
PAIRS: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))


@dataclass(frozen=True)
class TrinkaView(View):
    """One seat's view of a Trinka deal: nine tricks, clubs and every jack trumps."""

    hand: tuple[Card, ...] = item("cards", "hand", private=True, role="hand")
    hand_sizes: tuple[int, ...] = item("per_seat", "hand_sizes")
    #: the trumps, in words (every club and every jack)
    trumps: str = item("word", "trumps")
    trick: Plays = item("plays", "trick", role="trick")
    leader: int = item("seat", "leader")
    tricks: tuple[int, ...] = item("per_seat", "tricks")
    #: tricks taken by each pair (in the order of the sheet's ``pairs``)
    pair_tricks: tuple[int, ...] = item("data")
    last_trick: TrickTaken | None = item("view", "last_trick", role="last_trick")
    tricks_played: tuple[TrickTaken, ...] = item("views", role="history")
    #: per seat, the suits it has shown it lacks ("C" = the trumps, jacks included)
    voids: tuple[tuple[int, ...], ...] = item("per_seat_suits", "voids")
    #: the two pairs (partners opposite), so a deal's view names its sides
    pairs: tuple[tuple[int, ...], ...] = item("data", role="teams", default=PAIRS)
    #: per seat, the tricks its pair has taken (what a person reads beside each name)
    pair_tricks_by_seat: tuple[int, ...] = item("per_seat", "pair_tricks", default=())


@dataclass(frozen=True)
class DealScore(View):
    """How one deal was written: the pairs' tricks, its outcome (rozhok, trinka, draw, all
    nine), the pair it concerns and the points written off, and the records after it."""

    dealer: int = item("seat", "dealer")
    pair_tricks: tuple[int, ...] = item("data")
    outcome: str = item("word", "outcome")
    #: the pair concerned (0 or 1, as in ``pairs``), None for a draw
    pair: int | None = item("data")
    points: int = item("number", "points")
    records: tuple[int, ...] = item("data")
    #: the seats of the pair concerned (none for a draw), as a person reads it
    pair_seats: tuple[int, ...] = item("seats", "pair", default=())
    #: per seat, its pair's record after the deal
    records_by_seat: tuple[int, ...] = item("per_seat", "records", default=())
    #: the deal as a person reads it (koloda.present.sentence)
    said: ClassVar[tuple[str, str]] = (
        "{outcome}[ — {pair_seats} write off {points}], dealt by {dealer}"
        "[. Left to write off: {records_by_seat}]",
        "{outcome}[ — {pair_seats} списывают {points}], сдавал(а) {dealer}"
        "[. Осталось списать: {records_by_seat}]")


@dataclass(frozen=True)
class TrinkaSheet(View):
    """Each pair's record still to write off, the pairs, and the last deal's score."""

    records: tuple[int, ...] = item("data")
    pairs: tuple[tuple[int, ...], ...] = item("data", role="teams")
    last_deal: DealScore | None = item("view", "last_deal")
    #: per seat, the record its pair still has to write off
    records_by_seat: tuple[int, ...] = item("per_seat", "records", default=())


#: Trinka's own words: how a match was won (the book: «Первый списавший запись выигрывает»)
TERMS: dict[str, tuple[str, str]] = {
    "record_written_off": ("record written off", "запись списана"),
    "rozhok": ("rozhok", "рожок"),
    "all_nine": ("all nine", "все девять"),
    "all clubs and all jacks": ("all clubs and all jacks", "все трефы и все валеты"),
    "pair_tricks": ("pair tricks", "взятки пар"),
    "last_deal": ("last deal", "последняя сдача"),
    "records": ("record", "запись"),
    "how": ("how", "как"),
    "record": ("record", "запись"),
    "single_deal": ("single deal", "одна сдача"),
}


@dataclass(frozen=True)
class TrinkaOutcome(View):
    """How a Trinka match ended, for people: how it was won (a record written off, all
    nine tricks, the deal cap …) and the stake each seat of the losing pair pays."""

    how: str | None = item("word", "how")
    stake: int | float | None = item("number", "stake")

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> TrinkaOutcome:
        return cls(outcome.word(details.get("how")), outcome.number(details.get("stake")))


VIEWS = (TrinkaView, TrinkaSheet, TrickTaken, DealScore, TrinkaOutcome)
