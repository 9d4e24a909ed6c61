"""Stukolka's observation tensor (``GameSpec.layout``): its blocks after the common header."""

from __future__ import annotations

from koloda.engine.layout import (
    Block,
    Cards,
    Flag,
    Number,
    OneOf,
    PerSeat,
    PerSeatOneOf,
    Seat,
    SeatCards,
    Seats,
    Suit,
    last_trick,
)

LAYOUT: tuple[Block, ...] = (
    OneOf("phase", "phase", "declare, play, over", vocab=("declare", "play", "over")),
    Cards("hand", "hand", "the observer's hand"),
    PerSeat("hand_sizes", "hand_sizes", "cards in each hand / 3", scale=1 / 3),
    Cards("trump_card", "trump_card", "the turned card"),
    Suit("trump", "trump", "the trump suit"),
    Flag("redeal", "redeal", "this deal is a redeal (the trump ace was turned)"),
    Number("pot", "pot", "the pot / 30", scale=1 / 30),
    Number("stock", "stock", "cards left in the stock / 52", scale=1 / 52),
    PerSeatOneOf("declared", "declared", "each seat's declaration: knock, drop, golets",
                 vocab=("knock", "drop", "golets")),
    Seat("golets", "golets", "who took the golets"),
    Seats("in_play", "in_play", "seats playing this deal"),
    Cards("my_discards", "my_discards", "the observer's own discards"),
    Seat("leader", "leader", "who leads (led) the current trick"),
    SeatCards("trick", "trick", "the current trick, by seat"),
    *last_trick(),
    PerSeat("tricks", "tricks", "tricks taken / 3", scale=1 / 3),
    PerSeat("balances", "sheet.balances", "each seat's balance / 30", scale=1 / 30,
            signed=True),
    Number("deals_played", "sheet.deals_played", "deals played / 20", scale=0.05),
    Number("match_deals", "sheet.match_deals", "deals in the match / 20", scale=0.05),
)
