"""Kopilka's typed views: one seat's view of a deal (the exchange with its positions, the
pot and the purse, the trick with its passes and draws) and the match's score sheet.

Values are cards, suits and seats as ints; ``to_json()`` gives the observation as it
always was (suits as letters). The ``data`` fields are for programs — the search bot's
sampler and the tensors — and are written to JSON by their shapes (``ShapedView``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from koloda.cards import CARD_TEXT, SUITS, Card
from koloda.engine import outcome
from koloda.engine.view import View, item
from koloda.games.mushka.views import LastTrick, Plays, ShapedView, plays_json


@dataclass(frozen=True)
class WonTrick(View):
    """A trick won, as the winner writes it down before him: its led suit, whether the
    mushka (AS) took it, its value and what the pot paid."""

    suit: int = item("suit", "suit")
    mushka: bool = item("flag", "mushka")
    value: int = item("number", "value")
    paid: int = item("number", "paid")


@dataclass(frozen=True)
class OfferView(ShapedView):
    """Same-suit cards lying face down for the others to pick blind: who laid them out,
    how many, who took the card at each position; their faces only for their owner, and
    for a picker the card he took."""

    offerer: int = item("seat", "offerer")
    count: int = item("number", "count")
    #: per position (0-based, the offerer's order): the seat that took it, or None
    taken: tuple[int | None, ...] = item("data")
    #: the cards laid out, in position order (only their owner sees them)
    cards: tuple[Card, ...] | None = item("cards", "offered_cards", private=True,
                                          default=None)
    #: the picker's own (position, card)
    picked: tuple[int, Card] | None = item("data", private=True, default=None)

    json_shapes: ClassVar[Mapping[str, Callable[[Any], Any]]] = {
        "picked": lambda p: [p[0], CARD_TEXT[p[1]]]}
    json_omit_none: ClassVar[frozenset[str]] = frozenset({"cards", "picked"})
    #: the offer as a person reads it (koloda.present.sentence)
    said: ClassVar[tuple[str, str]] = (
        "{offerer} lays out cards face down: {count}[ ({cards})]",
        "{offerer} выкладывает карты рубашкой вверх: {count}[ ({cards})]")


@dataclass(frozen=True)
class KopilkaTrick(View):
    """The trick being played: who led, the suit led, the cards played to it, who passed
    and how many cards each drew from the talon meanwhile."""

    leader: int = item("seat", "leader")
    led: int | None = item("suit", "led")
    cards: Plays = item("plays", "trick", role="trick")
    passes: tuple[int, ...] = item("seats", "passes")
    draws: tuple[int, ...] = item("per_seat", "draws")


@dataclass(frozen=True)
class SuitValues(View):
    """What a trick pays by its led suit (double when the mushka takes it)."""

    S: int = item("number", "spades")
    C: int = item("number", "clubs")
    D: int = item("number", "diamonds")
    H: int = item("number", "hearts")


def _won_json(won: tuple[tuple[WonTrick, ...], ...]) -> list[list[dict[str, Any]]]:
    return [[{"suit": SUITS[t.suit], "mushka": t.mushka, "value": t.value, "paid": t.paid}
             for t in w] for w in won]


@dataclass(frozen=True)
class KopilkaView(ShapedView):
    """One seat's view of a Kopilka deal."""

    phase: str = item("word", "phase")
    hand: tuple[Card, ...] = item("cards", "hand", private=True, role="hand")
    hand_sizes: tuple[int, ...] = item("per_seat", "hand_sizes")
    talon: int = item("number", "talon")
    pot: int = item("number", "pot")
    money: tuple[int, ...] = item("per_seat", "money")
    #: per seat, the tricks won (programs: the tensors read their values)
    tricks: tuple[tuple[WonTrick, ...], ...] = item("data")
    exchange: OfferView | None = item("view", "exchange")
    offers: tuple[OfferView, ...] = item("views", "offers")
    my_discards: tuple[Card, ...] = item("cards", "my_discards", private=True)
    discards: tuple[int, ...] = item("per_seat", "discards")
    trick: KopilkaTrick | None = item("view", "trick")
    last_trick: LastTrick | None = item("view", "last_trick", role="last_trick")
    banned_lead: int | None = item("suit", "banned_lead")
    failed_leads: int = item("number", "failed_leads")
    first_to_shed: int | None = item("seat", "first_to_shed")
    blocked: bool = item("flag", "blocked")
    tricks_played: tuple[Plays, ...] = item("data", role="history")
    voids: tuple[tuple[int, ...], ...] = item("per_seat_suits", "voids")
    #: cards each seat is known to hold (a failed lead taken back)
    shown: tuple[tuple[Card, ...], ...] = item("per_seat_cards", "shown")
    money_at_start: tuple[int, ...] = item("per_seat", "money_at_start")
    #: what a trick pays by its led suit (JSON key ``values``)
    suit_values: SuitValues = item("view", "values")
    remiz: int = item("number", "remiz")
    fee: int = item("number", "fee")
    final_deal: bool = item("flag", "final_deal")
    #: per seat, the led suits of the tricks won — as each player writes them down
    tricks_taken: tuple[tuple[int, ...], ...] = item("per_seat_suits", "tricks_taken")

    json_shapes: ClassVar[Mapping[str, Callable[[Any], Any]]] = {
        "tricks": _won_json, "tricks_played": plays_json}
    json_names: ClassVar[Mapping[str, str]] = {"suit_values": "values"}


@dataclass(frozen=True)
class KopilkaSheet(View):
    """Every player's money (stakes included) and the pot."""

    money: tuple[int, ...] = item("per_seat", "money")
    pot: int = item("number", "pot")
    deals_played: int = item("number", "deals_played")


#: Kopilka's own words
TERMS: dict[str, tuple[str, str]] = {
    "offered_cards": ("cards laid out", "выложенные карты"),
    "remiz: no trick": ("remiz: no trick", "ремиз: ни одной взятки"),
    "remiz: passed holding the led suit": ("remiz: passed holding the led suit",
                                           "ремиз: пас при масти хода на руках"),
    "banned_lead": ("may not lead", "нельзя ходить в"),
    "first_to_shed": ("first out of cards", "первым снёс карты"),
    "money_at_start": ("money at start", "деньги в начале"),
    "offerer": ("lays out", "выкладывает"),
    "failed_leads": ("failed leads", "пустые ходы"),
    "blocked": ("blocked", "заперта"),
    "fee": ("fee", "платёж за сдачу"),
    "payments": ("payments", "платежи"),
    "talon": ("talon", "прикуп"),
    "paid": ("paid", "выплачено"),
    "picked": ("picked", "взята"),
    "remiz": ("remiz", "ремиз"),
}

#: the Kopilka verbs (as pressed, then as a log says it: «прикупает»)
VERBS: dict[str, tuple[str, ...]] = {
    "pick": ("take card", "взять карту", "takes card", "берёт карту"),
    "draw": ("draw", "прикупить", "draws", "прикупает"),
}

@dataclass(frozen=True)
class KopilkaOutcome(View):
    """How a Kopilka match ended, for people: what was left in the pot."""

    pot: int | float | None = item("number", "pot")

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> KopilkaOutcome:
        return cls(outcome.number(details.get("pot")))


VIEWS = (KopilkaView, KopilkaSheet, OfferView, KopilkaTrick, WonTrick, SuitValues, LastTrick,
         KopilkaOutcome)
