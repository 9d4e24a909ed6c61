"""Mushka's observation tensor (``GameSpec.layout``): its blocks after the common header."""

from __future__ import annotations

from collections.abc import Mapping

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

#: The fields these blocks read, as the adapters' fast tensor path (koloda.tensors.direct)
#: reads them straight off the deal state (``MushkaDeal.tensor_fields``), no view made:
#: each the expression ``MushkaDeal.observation(seat)`` makes it by, over ``st`` the deal
#: state and ``seat`` the observer (``suit_of`` at hand); a set may be read unsorted, since
#: a block writes it as flags (the voids: the sets the view sorts). A ``sheet.`` field is
#: read off ``m``, the match (``MushkaMatch.sheet``). An expression reads only what the
#: observation reads for that field; tests/test_tensors_direct.py checks the tensor is the
#: one written from the observation, for every seat at every step.
STATE_FIELDS: Mapping[str, str] = {
    "phase": "st.phase",
    "hand": "st.hands[seat]",
    "hand_sizes": "map(len, st.hands)",
    "trump_card": "st.trump_card",
    "trump": "suit_of(st.trump_card)",
    "stock": "len(st.stock)",
    "choices": "st.choices",
    "in_play": "st.in_play",
    "my_discards": "st.discards[seat]",
    "trick": "(st.trick.play_pairs() if st.trick is not None else ())",
    "last_trick": "st.last_trick_view()",
    "tricks": "st.tricks",
    "tricks_played": "st.tricks_played()",
    "voids": "st.voids",
    "sheet.scores": "m.scores",
}
