"""Dreyfus's typed views: what one seat sees of a deal, and the score sheet of the match.

Values are cards, suits and seats as ints (``koloda.cards``); the JSON form (``to_json()``)
is the observation as it always was, suits as letters (``"S"``; a no-trump deal's trump is
null). Fields with a term are for people; ``tricks_played`` (the whole history of the
deal's tricks) is for programs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from koloda.cards import Card
from koloda.engine import outcome
from koloda.engine.view import View, item
from koloda.tricks import TrickTaken

#: one trick as played: (seat, card) in the order played
Plays = tuple[tuple[int, Card], ...]

@dataclass(frozen=True)
class DreyfusView(View):
    """One seat's view of a Dreyfus deal: the exchange with the widow (each player in turn
    from the dealer's left), then twelve tricks under this deal's trump (None: the fifth
    deal of the cycle, without trumps)."""

    hand: tuple[Card, ...] = item("cards", "hand", private=True, role="hand")
    hand_sizes: tuple[int, ...] = item("per_seat", "hand_sizes")
    trump: int | None = item("suit", "trump", role="trump")
    phase: str = item("word", "phase")
    #: cards left in the widow
    widow_size: int = item("number", "widow_size")
    #: cards each seat bought (written above the line)
    bought: tuple[int, ...] = item("per_seat", "bought")
    #: seats whose exchange turn came with the widow empty
    skipped: tuple[int, ...] = item("seats", "skipped")
    #: the observer's own discards, face down
    my_discards: tuple[Card, ...] = item("cards", "my_discards", private=True)
    trick: Plays = item("plays", "trick", role="trick")
    leader: int = item("seat", "leader")
    tricks: tuple[int, ...] = item("per_seat", "tricks")
    last_trick: TrickTaken | None = item("view", "last_trick", role="last_trick")
    tricks_played: tuple[TrickTaken, ...] = item("views", role="history")
    #: per seat, the suits it has shown it lacks (not followed; not trumped when void)
    voids: tuple[tuple[int, ...], ...] = item("per_seat_suits", "voids")


@dataclass(frozen=True)
class DreyfusSheet(View):
    """The score sheet: above the line (cards bought + tricks short of four, a minus),
    below it (tricks over four, a plus), the winners once someone has 10 below, and the
    next deal's trump (None: the no-trump deal)."""

    above: tuple[int, ...] = item("per_seat", "above")
    below: tuple[int, ...] = item("per_seat", "below")
    winners: tuple[int, ...] | None = item("seats", "winners")
    next_trump: int | None = item("suit", "next_trump")


@dataclass(frozen=True)
class DreyfusOutcome(View):
    """How a Dreyfus match ended, for people: each seat's points above and below the line
    (the money is the result's score) and the deal it was won in."""

    above: tuple[int | float | None, ...] = item("per_seat", "above")
    below: tuple[int | float | None, ...] = item("per_seat", "below")
    won_at_deal: int | float | None = item("number", "won_at_deal")

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> DreyfusOutcome:
        won = outcome.number(details.get("won_at_deal"))
        return cls(outcome.numbers(details.get("above")), outcome.numbers(details.get("below")),
                   None if won is None else won + 1)


VIEWS = (DreyfusView, DreyfusSheet, TrickTaken, DreyfusOutcome)

#: the Dreyfus terms the shared vocabulary does not have (прикуп, the five trumps' cycle)
TERMS: dict[str, tuple[str, str]] = {
    "bought": ("bought", "куплено"),
    "widow_size": ("widow", "прикуп"),
    "next_trump": ("next trumps", "следующие козыри"),
    "won_at_deal": ("won at deal", "выиграна в сдаче"),
    "skipped": ("skipped", "пропускает"),
    "finish": ("finish", "конец партии"),
}
