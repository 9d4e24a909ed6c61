"""Pyanitsy's observation tensor (``GameSpec.layout``): its blocks after the common header."""

from __future__ import annotations

from koloda.engine.layout import Block, Number, PerSeat, Seat, SeatCards, Seats

LAYOUT: tuple[Block, ...] = (
    PerSeat("pile_sizes", "pile_sizes", "cards in each pile / 52", scale=1 / 52),
    Number("set_aside", "set_aside", "cards set aside at the deal / 52", scale=1 / 52),
    Number("round", "round", "rounds played / 1000", scale=0.001),
    Seat("starter", "starter", "who starts this round"),
    SeatCards("table", "table", "cards on the table, by seat"),
    Number("tie_step", "tie_step", "tie-breaking steps this round / 5", scale=0.2),
    SeatCards("last_round", "last_round.cards", "the last round's cards, by seat"),
    Seat("last_round_winner", "last_round.winner", "who took the last round"),
    Seats("out", "out", "seats with no cards left"),
)
