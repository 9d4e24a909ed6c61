"""Stukolka's observation tensor (``GameSpec.layout``): its blocks after the common header."""

from __future__ import annotations

from collections.abc import Mapping

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

#: The fields these blocks read, as the adapters' fast tensor path (koloda.tensors.direct)
#: reads them straight off the deal state (``StukolkaDeal.tensor_fields``), no view
#: made: each the expression ``StukolkaDeal.observation(seat)`` makes it by, over ``st``
#: the deal state and ``seat`` the observer (a card or seat set read unsorted: a block
#: writes it as flags); a ``sheet.`` field off ``m``, the match (``StukolkaMatch.sheet``).
#: tests/test_tensors_direct.py checks the tensor written from them is the one written
#: from the observation, for every seat at every step.
STATE_FIELDS: Mapping[str, str] = {
    "phase": "st.phase",
    "hand": "st.hands[seat]",
    "hand_sizes": "map(len, st.hands)",
    "trump_card": "st.trump_card",
    "trump": "suit_of(st.trump_card)",
    "redeal": "st.redeal",
    "pot": "st.pot",
    "stock": "len(st.stock)",
    "declared": "st.declared",
    "golets": "st.golets",
    "in_play": "st.in_play",
    "my_discards": "st.discards[seat]",
    "leader": "st.trick.leader",
    "trick": "zip(st.trick.seats, st.trick.cards)",
    "last_trick": "st.last_trick",
    "tricks": "st.tricks",
    "sheet.balances": "m.balances",
    "sheet.deals_played": "m.deals_played",
    "sheet.match_deals": "m.options['deals']",
}
