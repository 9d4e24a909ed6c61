"""Stukolka's typed views: what one seat sees of a deal, and the score sheet of the match.

Values are cards, suits, ranks and seats as ints (``koloda.cards``); the JSON form
(``to_json()``) is the observation as it always was, suits as letters. Fields with a term
are for people; the history of tricks, the caps read off the play and the rounds of the
draw for the first dealer are for programs (``caps`` and ``rounds`` keep their JSON shape:
``{"H": "K"}`` and ``[[seat, "7"], …]``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from koloda.cards import RANKS, SUITS, Card
from koloda.engine import outcome
from koloda.engine.view import View, item
from koloda.tricks import TrickTaken

#: one trick as played: (seat, card) in the order played
Plays = tuple[tuple[int, Card], ...]

#: Stukolka's own words (the book's: «ставят на кон», «вносит в кон»)
TERMS: dict[str, tuple[str, str]] = {
    "kon": ("pot", "кон"),
    "ante": ("ante", "ставка за сдачу"),
    "match_deals": ("deals in the match", "сдач в партии"),
    "pot_after": ("pot after", "в кассе после"),
    "pot_before": ("pot before", "в кассе до"),
    "balances": ("money", "деньги"),
    "declared": ("declared", "объявил"),
    "redeal": ("redeal", "пересдача"),
    "declare": ("declaration", "объявление"),
}

#: the Stukolka verbs (as pressed, then as a log says it: «стучит»)
VERBS: dict[str, tuple[str, ...]] = {
    "knock": ("knock", "стучу", "knocks", "стучит"),
    "drop": ("drop", "пас", "drops out", "пасует"),
    "golets": ("golets", "голец", "declares golets", "объявляет голец"),
}


@dataclass(frozen=True)
class StukolkaView(View):
    """One seat's view of a Stukolka deal: the turned trump, the declarations (knock, drop,
    the golets) from the dealer's left, then up to three tricks among those who play."""

    deck_size: int = item("number", "deck_size")
    ante: int = item("number", "ante")
    phase: str = item("word", "phase")
    hand: tuple[Card, ...] = item("cards", "hand", private=True, role="hand")
    hand_sizes: tuple[int, ...] = item("per_seat", "hand_sizes")
    trump_card: Card = item("card", "trump_card", role="trump_card")
    trump: int = item("suit", "trump", role="trump")
    #: the trump ace was turned: the same dealer deals again
    redeal: bool = item("flag", "redeal")
    #: the pot as it stands before play
    pot: int = item("number", "kon")
    #: cards left in the stock
    stock: int = item("number", "stock")
    #: each seat's declaration: "knock", "drop", "golets", or None (not yet)
    declared: tuple[str | None, ...] = item("per_seat_words", "declared")
    golets: int | None = item("seat", "golets")
    in_play: tuple[int, ...] = item("seats", "in_play")
    #: the observer's own discards (a dropped hand, or the three given up for the golets)
    my_discards: tuple[Card, ...] = item("cards", "my_discards", private=True)
    trick: Plays = item("plays", "trick", role="trick")
    leader: int = item("seat", "leader")
    tricks: tuple[int, ...] = item("per_seat", "tricks")
    last_trick: TrickTaken | None = item("view", "last_trick", role="last_trick")
    tricks_played: tuple[TrickTaken, ...] = item("views", role="history")
    #: per seat, the suits it has shown it lacks
    voids: tuple[tuple[int, ...], ...] = item("per_seat_suits", "voids")
    #: per seat, (suit, highest rank it may still hold) for each suit its play capped
    caps: tuple[tuple[tuple[int, int], ...], ...] = item("data")

    def to_json(self, public: bool = False) -> dict[str, Any]:
        out = View.to_json(self, public)
        out["caps"] = [{SUITS[s]: RANKS[r] for s, r in cs} for cs in self.caps]
        return out


@dataclass(frozen=True)
class DealerDraw(View):
    """The draw for the first dealer (lowest card deals; the tied lowest draw again), by
    rank only: the draw used its own pack, and its suits, which decide nothing, would read
    like cards of the deal."""

    dealer: int = item("seat", "dealer")
    #: the draw as a person reads it (koloda.present.sentence)
    said: ClassVar[tuple[str, str]] = ("{dealer} (drew the lowest card)",
                                       "{dealer} (вытянул(а) младшую карту)")
    #: each round of the draw: (seat, rank drawn)
    rounds: tuple[tuple[tuple[int, int], ...], ...] = item("data")

    def to_json(self, public: bool = False) -> dict[str, Any]:
        out = View.to_json(self, public)
        out["rounds"] = [[[seat, RANKS[r]] for seat, r in rnd] for rnd in self.rounds]
        return out


@dataclass(frozen=True)
class StukolkaSheet(View):
    """Each seat's balance, the pot carried to the next deal, the deals played against the
    deals of the match, and the draw for the first dealer."""

    balances: tuple[int, ...] = item("per_seat", "balances")
    pot: int = item("number", "kon")
    deals_played: int = item("number", "deals_played")
    match_deals: int = item("number", "match_deals")
    first_dealer_draw: DealerDraw | None = item("view", "first_dealer_draw")


@dataclass(frozen=True)
class StukolkaOutcome(View):
    """How a Stukolka match ended, for people: the pot left on the table and the deals
    played."""

    pot: int | float | None = item("number", "kon")
    deals_played: int | float | None = item("number", "deals_played")

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> StukolkaOutcome:
        return cls(outcome.number(details.get("pot")),
                   outcome.number(details.get("deals_played")))


VIEWS = (StukolkaView, StukolkaSheet, TrickTaken, DealerDraw, StukolkaOutcome)
