"""Opendaum's observation tensor (``GameSpec.layout``): its blocks after the common header;
the variants with shakhi add two "played wild" flags (:class:`WildCards`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from koloda.cards import CARD_TEXT
from koloda.engine.layout import (
    Block,
    Cards,
    Flag,
    Number,
    OneOf,
    PerSeat,
    Seat,
    SeatCards,
    Suit,
    Suits,
    TrickCards,
    last_trick,
)


@dataclass(frozen=True)
class WildCards(Block):
    """Which of the given cards lie in ``[[seat, card, mode], ...]`` played ``wild``
    (the shakhi): one flag per card of ``cards``."""

    cards: tuple[str, ...] = ("6S", "6C")

    def size(self, players: int) -> int:
        return len(self.cards)

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        for entry in value or ():
            if len(entry) > 2 and entry[2] == "wild" and entry[1] in self.cards:
                out[at + self.cards.index(entry[1])] = 1.0

    def typed_kinds(self) -> frozenset[str]:
        return frozenset({"plays"})

    def put(self, value: Any, seat: int, players: int, at: int, ones: list[int],
            ni: list[int], nv: list[float]) -> None:
        for entry in value:
            if len(entry) > 2 and entry[2] == "wild":
                text = CARD_TEXT[entry[1]]
                if text in self.cards:
                    ones.append(at + self.cards.index(text))


LAYOUT: tuple[Block, ...] = (
    OneOf("phase", "phase", "bid, play, over", vocab=("bid", "play", "over")),
    Cards("hand", "hand", "the observer's hand"),
    PerSeat("hand_sizes", "hand_sizes", "cards in each hand / 18", scale=1 / 18),
    Number("deal_size", "deal_size", "cards dealt to each player this deal / 18", scale=1 / 18),
    Number("schedule_position", "schedule_position", "this deal's place in the schedule / 40",
           scale=1 / 40),
    Number("schedule_length", "schedule_length", "deals in the schedule / 40", scale=1 / 40),
    Flag("final_deal", "final_deal", "the last deal of the schedule"),
    Suit("trump", "trump", "the trump suit"),
    Cards("trump_card", "trump_card", "the card that shows the trump"),
    Flag("trump_card_in_dealer_hand", "trump_card_in_dealer_hand",
         "the shown trump card is the dealer's (all cards dealt)"),
    PerSeat("bids", "bids", "presence flags, then each seat's bid / 18", scale=1 / 18,
            optional=True),
    Number("forbidden_bid", "forbidden_bid", "presence flag, then the bid the dealer may "
                                             "not make / 18", scale=1 / 18, optional=True),
    PerSeat("tricks_taken", "tricks_taken", "tricks taken by each seat / 18", scale=1 / 18),
    Seat("leader", "leader", "who leads (led) the current trick"),
    SeatCards("trick", "trick", "the current trick, by seat"),
    *last_trick(),
    TrickCards("tricks_played", "tricks_played", "every card of this deal's completed "
                                                 "tricks, by the seat that played it"),
    Suits("voids", "voids", "suits each seat is known to lack (S C D H)"),
    PerSeat("totals", "sheet.totals", "each seat's total points / 100", scale=0.01,
            signed=True),
)

#: the variants with shakhi (6S, 6C playable wild): the same, then the wild flags
SHAKHI_LAYOUT: tuple[Block, ...] = (
    *LAYOUT,
    WildCards("trick_wild", "trick", "6S, 6C lie in the current trick played wild"),
    WildCards("last_trick_wild", "last_trick.cards", "6S, 6C lay in the last trick played "
                                                     "wild"),
)

#: The fields these blocks read, as the adapters' fast tensor path (koloda.tensors.direct)
#: reads them straight off the deal state (``OpendaumDeal.tensor_fields``), no view made:
#: each the expression ``OpendaumDeal.observation(seat)`` makes it by, over ``st`` the
#: deal state and ``seat`` the observer; a card or suit set may be read unsorted, since a
#: block writes it as flags (the voids: ``OpendaumDeal.shown_voids``). A ``sheet.`` field
#: is read off ``m``, the match (``OpendaumMatch.sheet``). An expression reads only what
#: the observation reads for that field; tests/test_tensors_direct.py checks the tensor
#: is the one written from the observation, for every seat at every step.
STATE_FIELDS: Mapping[str, str] = {
    "phase": "st.phase",
    "hand": "st.hands[seat]",
    "hand_sizes": "map(len, st.hands)",
    "deal_size": "st.size",
    "schedule_position": "st.position",
    "schedule_length": "st.schedule_length",
    "final_deal": "st.position == st.schedule_length - 1",
    "trump": "st.rules.trump",
    "trump_card": "st.trump_card",
    "trump_card_in_dealer_hand": "st.trump_in_hand",
    "bids": "st.bids",
    "forbidden_bid": "st.forbidden_bid()",
    "tricks_taken": "st.tricks",
    "leader": "st.trick.leader",
    "trick": "st.trick.play_pairs()",
    "last_trick": "st.last_trick_view()",
    "tricks_played": "st.history()",
    "voids": "st.shown_voids()",
    "sheet.totals": "m.totals",
}
