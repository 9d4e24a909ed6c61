"""What one Opendaum seat may know, as typed views (koloda/engine/view.py).

One deal view serves the bidding and the play of every variant: the bids are public as they
are made; ``forbidden_bid`` is the bid the hook rule refuses the dealer
(koloda/rules/opendaum.en.md §Precisely 23), None everywhere else; a shakha's plays carry
their mode (``"wild"`` / ``"plain"``) in the trick. The JSON (``to_json``) is the
observation as it always was: cards as ``"6C"``, suits as ``"S" "C" "D" "H"``, a trick as
``[[seat, "9H"], [seat, "6C", "wild"]]``.

The score sheet (``OpendaumMatch.sheet()``) is a view too: one row per deal, then the
totals; the result's ``details["deals"]`` is its rows' JSON, as docs/records.md fixes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from koloda.cards import Card
from koloda.engine.view import View, item
from koloda.ranks import RANK_BY_ID
from koloda.tricks import TrickTaken

#: a trick's plays: (seat, card) or, for a shakha, (seat, card, "wild" / "plain")
Plays = tuple[tuple[Any, ...], ...]

#: the last completed trick, face up (the trick core's view)
LastTrick = TrickTaken


@dataclass(frozen=True)
class PlayedTrick(View):
    """One completed trick of the deal (the history a bot reads; people see the last one)."""

    leader: int = item("seat", "leader")
    cards: Plays = item("plays", "trick")
    winner: int = item("seat", "winner")


@dataclass(frozen=True)
class OpendaumOptions(View):
    """The match's options, public (every player knows the rules): each variant has its
    own, the others stay None and out of the JSON (which is the options as they were)."""

    deck: int | None = item("number", "deck", default=None)
    ruff_only_when_only_trumps: bool | None = item("flag", "ruff_only_when_only_trumps",
                                                   default=None)
    last_deal_penalty: bool | None = item("flag", "last_deal_penalty", default=None)
    start_deal: int | None = item("number", "start_deal", default=None)
    max_deals: int | None = item("number", "max_deals", default=None)

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> OpendaumOptions:
        return cls(options.get("deck"), options.get("ruff_only_when_only_trumps"),
                   options.get("last_deal_penalty"), options.get("start_deal"),
                   options.get("max_deals"))

    def to_json(self, public: bool = False) -> dict[str, Any]:
        return {k: v for k, v in View.to_json(self, public).items() if v is not None}


@dataclass(frozen=True)
class OpendaumView(View):
    """One seat's view of an Opendaum deal (bidding, play, over) in any variant."""

    phase: str = item("word", "phase")
    hand: tuple[Card, ...] = item("cards", "hand", private=True, role="hand")
    hand_sizes: tuple[int, ...] = item("per_seat", "hand_sizes")
    deal_size: int = item("number", "deal_size")
    schedule_position: int = item("number", "schedule_position")
    schedule_length: int = item("number", "schedule_length")
    final_deal: bool = item("flag", "final_deal")
    trump: int | None = item("suit", "trump", role="trump")
    trump_card: Card = item("card", "trump_card", role="trump_card")
    trump_card_in_dealer_hand: bool = item("flag", "trump_card_in_dealer_hand")
    bids: tuple[int | None, ...] = item("per_seat", "bids")
    forbidden_bid: int | None = item("number", "forbidden_bid")
    tricks_taken: tuple[int, ...] = item("per_seat", "tricks_taken")
    leader: int = item("seat", "leader")
    trick: Plays = item("plays", "trick", role="trick")
    last_trick: LastTrick | None = item("view", "last_trick", role="last_trick")
    tricks_played: tuple[PlayedTrick, ...] = item("views", None, role="history")
    voids: tuple[tuple[int, ...], ...] = item("per_seat_suits", "voids")
    deck_size: int = item("number", "deck_size")
    options: OpendaumOptions = item("view", None)


@dataclass(frozen=True)
class SheetRow(View):
    """One deal on the score sheet."""

    deal: int = item("number", "deal")
    dealer: int = item("seat", "dealer")
    cards: int = item("number", "deal_size")
    trump: int = item("suit", "trump")
    bids: tuple[int, ...] = item("per_seat", "bids")
    tricks: tuple[int, ...] = item("per_seat", "tricks")
    points: tuple[int, ...] = item("per_seat", "points")


@dataclass(frozen=True)
class OpendaumSheet(View):
    """The score sheet (запись): every deal played so far, then each seat's total."""

    deals: tuple[SheetRow, ...] = item("views", "deals")
    totals: tuple[int, ...] = item("per_seat", "totals")


@dataclass(frozen=True)
class OpendaumOutcome(View):
    """How an Opendaum match ended, for people: with 33 cards, the rank each final total
    earned (koloda/rules/opendaum.en.md §Precisely 26); nothing in the other variants."""

    ranks: tuple[str | None, ...] = item("per_seat_words", "rank")

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> OpendaumOutcome:
        ranks = details.get("ranks")
        if not isinstance(ranks, (list, tuple)):
            return cls(())
        return cls(tuple(f"rank_{r['id']}" if isinstance(r, Mapping)
                         and r.get("id") in RANK_BY_ID else None for r in ranks))


#: every view an Opendaum match hands out (the deal and the sheet first; their parts)
VIEWS: tuple[type[View], ...] = (OpendaumView, OpendaumSheet, LastTrick, PlayedTrick,
                                 OpendaumOptions, SheetRow, OpendaumOutcome)
