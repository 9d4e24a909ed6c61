"""What a durak seat sees (typed views), the match's score sheet, and the game's own words.

A person reads the table (attack cards with what covers them), the trump card and suit,
the stock, how many cards are beaten off (бито), who attacks and who defends, the limit of
the round and, after it, the last round: who covered what, beaten off or taken. Data for
programs: the beaten-off cards themselves (each lay face up on the table, so a bot may
count them; at the table the pile is face down) and the teams (``role="teams"``: the
interface draws the sides from it).

Only the hand is private to the seat, and its memory of its own deal (the lowest trump it
was dealt, for the determinizer): everything else lay face up on the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from koloda.cards import Card
from koloda.engine import outcome
from koloda.engine.view import View, item

#: the durak terms the shared vocabulary does not have (Russian after the book: бито,
#: отбиваться, подкидывать, переводить)
TERMS: dict[str, tuple[str, str]] = {
    "defender_takes": ("the defender takes", "отбивающийся берёт"),
    "round_cards": ("cards played", "карты отбоя"),
    "beaten": ("beaten off", "бито"),
    "with_epaulettes": ("with epaulettes", "с погонами"),
    "epaulettes": ("epaulettes", "погоны"),
    "left_holding_cards": ("left holding cards", "остались с картами"),
    "first_attacker": ("first attacker", "первым ходил"),
    "discard_count": ("beaten off", "бито"),
    "attacker": ("attacker", "атакует"),
    "first_bout": ("first round", "первый отбой"),
    "trump_drawn_by": ("drew the trump card", "взял(а) козырную карту"),
    "in_game": ("in the game", "в игре"),
    "defend": ("defence", "отбой"),
    "simple": ("simple", "простой"),
    "losses": ("games lost", "проиграно"),
    "trump_suit": ("trumps", "козыри"),
    "stock_size": ("stock", "колода"),
    "defender": ("defender", "отбивается"),
    "first_bout_limit": ("first round limit", "предел первого отбоя"),
    "passed": ("passed", "пас"),
    "perevodnoy": ("transfer", "переводной"),
}

#: the durak verbs (as pressed, then as a log says it: «бьёт»)
VERBS: dict[str, tuple[str, ...]] = {
    "attack": ("attack", "ходить", "attacks", "ходит"),
    "beat": ("beat", "побить", "beats", "бьёт"),
    "take": ("take", "взять", "takes", "берёт"),
    "throw": ("throw in", "подкинуть", "throws in", "подкидывает"),
    "transfer": ("transfer", "перевести", "transfers", "переводит"),
}

#: a pair on the table: the attack card and the card covering it (None: not covered yet)
Pair = tuple[Card, "Card | None"]


@dataclass(frozen=True)
class DurakRound(View):
    """A finished round: who defended against whom, what covered what, beaten off or taken
    (the defender first: the seat the round was about)."""

    defender: int = item("seat", "defender")
    #: the round's attacker (after a transfer: the seat that transferred)
    attacker: int = item("seat", "attacker")
    #: the table as the round ended: each attack card with its cover (None: uncovered)
    table: tuple[Pair, ...] = item("table", "table")
    #: every card of the round with the seat that played it, in the order played
    cards: tuple[tuple[int, Card], ...] = item("plays", "round_cards")
    #: "beaten" (the cards went to the beaten-off pile) or "taken" (the defender took them)
    outcome: str = item("word", "outcome")

    def taker(self) -> int | None:
        """Who took the round's cards: the defender when the round was taken, nobody when
        it was beaten off (what a person reads after the round)."""
        return self.defender if self.outcome == "taken" else None


@dataclass(frozen=True)
class DurakView(View):
    """One seat's view of a durak game (``DurakGame.observation``)."""

    #: "simple" (throw-in) or "perevodnoy" (transfer)
    variant: str = item("word", "variant")
    hand: tuple[Card, ...] = item("cards", "hand", private=True, role="hand")
    hand_sizes: tuple[int, ...] = item("per_seat", "hand_sizes")
    #: the cards in each hand that everyone knows: taken from the table, the drawn trump card
    known_cards: tuple[tuple[Card, ...], ...] = item("per_seat_cards", "known_cards")
    #: the round on the table: each attack card with its cover (None: still to beat)
    table: tuple[Pair, ...] = item("table", "table", role="table")
    trump_card: Card = item("card", "trump_card", role="trump_card")
    trump_suit: int = item("suit", "trump_suit", role="trump")
    #: who drew the trump card from under the stock (None: it is still there)
    trump_drawn_by: int | None = item("seat", "trump_drawn_by")
    stock_size: int = item("number", "stock_size")
    #: cards beaten off (бито), and the cards themselves (for programs: each lay face up)
    discard_count: int = item("number", "discard_count")
    discard: tuple[Card, ...] = item("cards")
    #: "attack", "defend", "throw" (the attackers throw in or pass), "over"
    phase: str = item("word", "phase")
    attacker: int = item("seat", "attacker")
    defender: int = item("seat", "defender")
    #: the defender has said take: the attackers may still throw in
    taken: bool = item("flag", "defender_takes")
    #: who has passed since the last change (always the first of those asked, from the
    #: first attacker on clockwise)
    passed: tuple[int, ...] = item("seats", "passed")
    #: the most attack cards this round may have
    limit: int = item("number", "limit")
    #: the seats still in the game
    in_game: tuple[int, ...] = item("seats", "in_game")
    #: the seats of each side in team play (((0, 2), (1, 3))), None when each plays alone
    teams: tuple[tuple[int, ...], ...] | None = item("data", role="teams")
    #: no round has been beaten off yet (``first_bout_limit`` applies)
    first_bout: bool = item("flag", "first_bout")
    first_bout_limit: int = item("number", "first_bout_limit")
    #: every card of the round so far with the seat that played it, in order (public:
    #: each was played face up; the determinizer reads who led and threw what)
    plays: tuple[tuple[int, Card], ...] = item("plays", default=())
    #: the first attacker when the lowest trump chose them (first game, or after a
    #: draw), None when the previous durak's left attacked first
    opener: int | None = item("seat", default=None)
    #: every card each seat has played this game (each lay face up)
    played: tuple[tuple[Card, ...], ...] = item("per_seat_cards", default=())
    #: the lowest trump the seat was dealt (None: none): its own memory of its deal
    lowest_trump_dealt: Card | None = item("card", private=True, default=None)
    #: the round before this one (None before the first round ends)
    last_round: DurakRound | None = item("view", "last_round", role="last_trick",
                                         default=None)


@dataclass(frozen=True)
class DurakSheet(View):
    """The score sheet of a durak match: games played and lost."""

    games_played: int = item("number", "games_played")
    games: int = item("number", "games")
    #: games lost by each seat (in team play: by its side)
    losses: tuple[int, ...] = item("per_seat", "losses")


@dataclass(frozen=True)
class DurakOutcome(View):
    """How a durak match ended, for people: the last game's durak (on a team: the seat
    left holding cards), and whether with epaulettes."""

    durak: int | None = item("seat", "durak")
    epaulettes: bool = item("flag", "with_epaulettes")

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> DurakOutcome:
        return cls(outcome.seat(details.get("durak")), details.get("epaulettes") is True)


VIEWS = (DurakView, DurakRound, DurakSheet, DurakOutcome)
