"""Kopilka's observation tensor (``GameSpec.layout``): its blocks after the common header,
and the two blocks only Kopilka needs — the tricks won with their values, and the offer
lying face down in the exchange."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from koloda.engine.layout import (
    Block,
    Cards,
    Flag,
    Number,
    OneOf,
    PerSeat,
    Seat,
    SeatCards,
    Seats,
    Suit,
    last_trick,
)

_WON = frozenset({"shaped_data"})
_VIEW = frozenset({"view"})


@dataclass(frozen=True)
class KopilkaTricks(Block):
    """Kopilka's ``tricks`` (per seat, a list of tricks won with their values): per
    relative seat the number of tricks / 5 and their total value / 20."""

    def size(self, players: int) -> int:
        return 2 * players

    def bounds(self) -> tuple[float, float]:
        return 0.0, 1e6

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        for s, won in enumerate(value or ()):
            r = (s - seat) % players
            out[at + r] = len(won) / 5
            out[at + players + r] = sum(t.get("value", 0) for t in won) / 20

    def none_is_zeros(self) -> bool:
        return type(self).encode is KopilkaTricks.encode

    def typed_kinds(self) -> frozenset[str]:
        return _WON          # the view's tuples of WonTrick (reshaped in the JSON)

    def put(self, value: Any, seat: int, players: int, at: int, ones: list[int],
            ni: list[int], nv: list[float]) -> None:
        for s, won in enumerate(value):
            if won:
                r = (s - seat) % players
                ni.append(at + r)
                nv.append(len(won) / 5)
                total = sum(t.value for t in won)
                if total:
                    ni.append(at + players + r)
                    nv.append(total / 20)


@dataclass(frozen=True)
class KopilkaOffer(Block):
    """Kopilka's ``exchange`` (the offer face down now, or null): the offerer (relative
    one-hot), the number of cards / 5, then per position 0..7 a row of 1 + players: the
    position exists, and who took that card (relative)."""

    positions = 8

    def size(self, players: int) -> int:
        return players + 1 + self.positions * (1 + players)

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        if not isinstance(value, dict):
            return
        offerer = value.get("offerer")
        if isinstance(offerer, int):
            out[at + (offerer - seat) % players] = 1.0
        out[at + players] = (value.get("count") or 0) / 5
        base = at + players + 1
        for k, taker in enumerate((value.get("taken") or [])[:self.positions]):
            row = base + k * (1 + players)
            out[row] = 1.0
            if isinstance(taker, int):
                out[row + 1 + (taker - seat) % players] = 1.0

    def none_is_zeros(self) -> bool:
        return type(self).encode is KopilkaOffer.encode

    def typed_kinds(self) -> frozenset[str]:
        return _VIEW         # an OfferView

    def put(self, value: Any, seat: int, players: int, at: int, ones: list[int],
            ni: list[int], nv: list[float]) -> None:
        offerer = value.offerer
        if isinstance(offerer, int):
            ones.append(at + (offerer - seat) % players)
        count = value.count
        if count:
            ni.append(at + players)
            nv.append(count / 5)
        row = at + players + 1
        for taker in (value.taken or ())[:self.positions]:
            ones.append(row)
            if isinstance(taker, int):
                ones.append(row + 1 + (taker - seat) % players)
            row += 1 + players


LAYOUT: tuple[Block, ...] = (
    OneOf("phase", "phase", "exchange, play, over", vocab=("exchange", "play", "over")),
    Cards("hand", "hand", "the observer's hand"),
    PerSeat("hand_sizes", "hand_sizes", "cards in each hand / 10", scale=0.1),
    Number("talon", "talon", "cards left in the talon / 12", scale=1 / 12),
    Number("pot", "pot", "money in the pot / 100", scale=0.01, signed=True),
    PerSeat("money", "money", "each seat's balance / 100", scale=0.01, signed=True),
    KopilkaTricks("tricks", "tricks", "per seat: tricks won / 5, then their value / 20"),
    KopilkaOffer("exchange", "exchange", "the offer lying face down now (see the class)"),
    Cards("exchange_cards", "exchange.cards", "the offered cards (only their owner sees them)"),
    Cards("my_discards", "my_discards", "the observer's own discards (face down)"),
    PerSeat("discards", "discards", "cards each seat has discarded / 5", scale=0.2),
    Seat("trick_leader", "trick.leader", "who leads the current trick"),
    Suit("trick_led", "trick.led", "the suit led"),
    SeatCards("trick", "trick.cards", "the current trick, by seat"),
    Seats("trick_passes", "trick.passes", "seats that passed on this trick"),
    PerSeat("trick_draws", "trick.draws", "cards each seat drew on this trick / 5", scale=0.2),
    *last_trick(),
    Suit("banned_lead", "banned_lead", "the suit that may not be led (previous trick's)"),
    Number("failed_leads", "failed_leads", "failed leads in a row / 4", scale=0.25),
    Seat("first_to_shed", "first_to_shed", "the first seat to run out of cards"),
    Flag("blocked", "blocked", "the deal ended blocked"),
    Number("deals_played", "sheet.deals_played", "deals played / 4", scale=0.25),
)
