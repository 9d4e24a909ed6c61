"""Durak's observation tensor (``GameSpec.layout``): its blocks after the common header,
and the two blocks only Durak needs — the table of attack and covering cards, and the
observer's side in team play. Scales are part of the documented layout (docs/research.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from koloda.engine.layout import (
    CARDS,
    Appended,
    Block,
    Cards,
    Flag,
    Number,
    OneOf,
    PerSeat,
    PerSeatCards,
    Seat,
    Seats,
    Suit,
    card_of,
)


@dataclass(frozen=True)
class AttackTable(Block):
    """Durak's table ``[[attack, cover or null], ...]``: three rows — attack cards still
    uncovered, attack cards covered, and the covering cards."""

    def size(self, players: int) -> int:
        return 3 * CARDS

    def card_rows(self, players: int) -> int:
        return 3

    def none_is_zeros(self) -> bool:
        return type(self).encode is AttackTable.encode   # no table: all zeros

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        for pair in value or ():
            attack = card_of(pair[0])
            cover = card_of(pair[1]) if len(pair) > 1 else None
            if attack is None:
                continue
            if cover is None:
                out[at + attack] = 1.0
            else:
                out[at + CARDS + attack] = 1.0
                out[at + 2 * CARDS + cover] = 1.0

    def typed_kinds(self) -> frozenset[str]:
        return frozenset({"table"})

    def put(self, value: Any, seat: int, players: int, at: int, ones: list[int],
            ni: list[int], nv: list[float]) -> None:
        self.put_ones(value, seat, players, at, Appended(ones))

    def puts_ones(self) -> bool:
        return type(self).put is AttackTable.put

    def put_ones(self, value: Any, seat: int, players: int, at: int, mv: Any) -> None:
        for attack, cover in value:
            if cover is None:
                mv[at + attack] = 1.0
            else:
                mv[at + CARDS + attack] = 1.0
                mv[at + 2 * CARDS + cover] = 1.0


@dataclass(frozen=True)
class Partners(Block):
    """Durak's ``teams`` (a list of seat lists, or null): flags the observer's own side
    over relative seats (all zeros when everyone plays alone)."""

    def size(self, players: int) -> int:
        return players

    def none_is_zeros(self) -> bool:
        return type(self).encode is Partners.encode     # no teams: all zeros

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        for team in value or ():
            if seat in team:
                for s in team:
                    out[at + (s - seat) % players] = 1.0

    def typed_kinds(self) -> frozenset[str]:
        return frozenset({"data"})      # tuples of seat tuples (lists in the JSON)

    def put(self, value: Any, seat: int, players: int, at: int, ones: list[int],
            ni: list[int], nv: list[float]) -> None:
        self.put_ones(value, seat, players, at, Appended(ones))

    def puts_ones(self) -> bool:
        return type(self).put is Partners.put

    def put_ones(self, value: Any, seat: int, players: int, at: int, mv: Any) -> None:
        for team in value:
            if seat in team:
                for s in team:
                    mv[at + (s - seat) % players] = 1.0


LAYOUT: tuple[Block, ...] = (
    OneOf("phase", "phase", "attack, defend, throw, over", vocab=("attack", "defend", "throw",
                                                                  "over")),
    Cards("hand", "hand", "the observer's hand"),
    PerSeat("hand_sizes", "hand_sizes", "cards in each hand / 36", scale=1 / 36),
    PerSeatCards("known_cards", "known_cards",
                 "cards known to lie in each hand (picked up with take, the drawn trump)"),
    AttackTable("table", "table", "rows: uncovered attack cards, covered attack cards, "
                                  "covering cards"),
    Cards("discard", "discard", "the discard pile (beaten cards, face up)"),
    Cards("trump_card", "trump_card", "the turned trump card"),
    Suit("trump_suit", "trump_suit", "the trump suit (S C D H)"),
    Seat("trump_drawn_by", "trump_drawn_by", "who drew the turned trump card"),
    Number("stock_size", "stock_size", "cards left in the stock / 36", scale=1 / 36),
    Seat("attacker", "attacker", "the first attacker of the round"),
    Seat("defender", "defender", "the defender"),
    Flag("taken", "taken", "the defender has said take"),
    Seats("passed", "passed", "attackers who passed since the last change"),
    Number("limit", "limit", "attack cards allowed this round / 6", scale=1 / 6),
    Seats("in_game", "in_game", "seats still in the game"),
    Partners("teams", "teams", "the observer's side (team play), else zeros"),
    Flag("first_bout", "first_bout", "no round has been beaten yet"),
    Number("first_bout_limit", "first_bout_limit", "the first-bout limit / 6", scale=1 / 6),
    PerSeat("losses", "sheet.losses", "games lost by each seat / 10", scale=0.1),
    Number("games_played", "sheet.games_played", "games of the match played / 10", scale=0.1),
    Number("games", "sheet.games", "games in the match / 10", scale=0.1),
)

#: The fields these blocks read, as the adapters' fast tensor path (koloda.tensors.direct)
#: reads them straight off the deal state (``DurakGame.tensor_fields``), no view made:
#: each the expression ``DurakGame.observation(seat)`` makes it by, over ``st`` the deal
#: state and ``seat`` the observer (``P`` the players; ``compress`` at hand); a card set
#: may be read unsorted, since a block writes it as flags. A ``sheet.`` field is read off
#: ``m``, the match (``DurakMatch.sheet``). An expression reads only what the observation
#: reads for that field; tests/test_tensors_direct.py checks the tensor is the one written
#: from the observation, for every seat at every step.
STATE_FIELDS: Mapping[str, str] = {
    "phase": "st.phase",
    "hand": "st.hands[seat]",
    "hand_sizes": "map(len, st.hands)",
    "known_cards": "st.known",
    "table": "zip(st.attacks, st.covers)",
    "trump_card": "st.trump_card",
    "trump_suit": "st.trump",
    "trump_drawn_by": "st.trump_holder",
    "stock_size": "len(st.stock)",
    "discard": "st.discard",
    "attacker": "st.attacker",
    "defender": "st.defender",
    "taken": "st.taken",
    "passed": "st.passed",
    "limit": "st.limit",
    "in_game": "compress(range(P), st.in_game)",
    "teams": "(tuple(tuple(range(t, P, 2)) for t in (0, 1)) if st.teams else None)",
    "first_bout": "st.beaten_rounds == 0",
    "first_bout_limit": "st.first_bout_limit",
    "sheet.losses": "m.losses",
    "sheet.games_played": "len(m.games)",
    "sheet.games": "m.options['games']",
}
