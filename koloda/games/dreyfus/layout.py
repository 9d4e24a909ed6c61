"""Dreyfus's observation tensor (``GameSpec.layout``): its blocks after the common header."""

from __future__ import annotations

from koloda.engine.layout import (
    Block,
    Cards,
    Number,
    OneOf,
    PerSeat,
    Seat,
    SeatCards,
    Seats,
    Suit,
    last_trick,
)

LAYOUT: tuple[Block, ...] = (
    OneOf("phase", "phase", "exchange, play, over", vocab=("exchange", "play", "over")),
    Cards("hand", "hand", "the observer's hand"),
    PerSeat("hand_sizes", "hand_sizes", "cards in each hand / 12", scale=1 / 12),
    Suit("trump", "trump", "the trump suit, or the fifth slot: no trump", no_suit=True),
    Number("widow_size", "widow_size", "cards left in the widow / 12", scale=1 / 12),
    PerSeat("bought", "bought", "cards each seat bought / 12", scale=1 / 12),
    Seats("skipped", "skipped", "seats skipped in the exchange (widow empty)"),
    Cards("my_discards", "my_discards", "the observer's own discards (face down)"),
    Seat("leader", "leader", "who leads (led) the current trick"),
    SeatCards("trick", "trick", "the current trick, by seat"),
    *last_trick(),
    PerSeat("tricks", "tricks", "tricks taken / 12", scale=1 / 12),
    PerSeat("above", "sheet.above", "above-the-line totals / 20", scale=0.05),
    PerSeat("below", "sheet.below", "below-the-line totals / 10", scale=0.1),
    Seats("winners", "sheet.winners", "the match winners once fixed"),
    Suit("next_trump", "sheet.next_trump", "the next deal's trump (fifth slot: no trump)",
         no_suit=True),
)
