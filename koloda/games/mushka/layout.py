"""Mushka's observation tensor (``GameSpec.layout``): its blocks after the common header."""

from __future__ import annotations

from koloda.engine.layout import (
    Block,
    Cards,
    Number,
    OneOf,
    PerSeat,
    PerSeatOneOf,
    SeatCards,
    Seats,
    Suit,
    last_trick,
)

LAYOUT: tuple[Block, ...] = (
    OneOf("phase", "phase", "exchange, play, over", vocab=("exchange", "play", "over")),
    Cards("hand", "hand", "the observer's hand"),
    PerSeat("hand_sizes", "hand_sizes", "cards in each hand / 5", scale=0.2),
    Cards("trump_card", "trump_card", "the turned card (out of play)"),
    Suit("trump", "trump", "the trump suit"),
    Number("stock", "stock", "cards left in the stock / 47", scale=1 / 47),
    PerSeatOneOf("choices", "choices", "each seat's exchange choice: stand, pass, discard 1..5",
                 vocab=("stand", "pass", "discard 1", "discard 2", "discard 3", "discard 4",
                        "discard 5")),
    Seats("in_play", "in_play", "seats playing this deal"),
    Cards("my_discards", "my_discards", "the observer's own discards (face down)"),
    SeatCards("trick", "trick", "the current trick, by seat"),
    *last_trick(),
    PerSeat("tricks", "tricks", "tricks taken / 5", scale=0.2),
    PerSeat("scores", "sheet.scores", "each seat's count (starts at 25, lower is better) / 25",
            scale=1 / 25, signed=True),
)
