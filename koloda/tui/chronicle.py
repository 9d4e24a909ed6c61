"""What the log of moves remembers beyond the moves: where each deal began, who took each
trick, and — for a game played on a table of pairs (Durak) — the last round with who laid
and who covered each card.

Nothing here knows a game. It reads the presenter's public display after every action:
a ``last`` part that changes is a trick just taken (its winner goes into the log); a
``table`` centre that empties is a round just ended, and the cards that appeared on it
after each action tell who laid them. The same feed rebuilds all of it for a resumed game
(``replay``), so the log after ``--resume`` reads as it did before quitting.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from koloda.engine.match import Match
from koloda.engine.records import from_record
from koloda.present import present


@dataclass
class Round:
    """One round of a table of pairs: each pair's cards with who laid them; who took."""

    pairs: list[tuple[str | None, str | None]]       # (attack card, cover card) as text
    laid_by: dict[str, int]                          # card text → seat
    taken_by: int | None                             # the seat that took the cards, if any


@dataclass
class Event:
    """A line the log adds after a move: a deal begins, a trick is taken, a round ends."""

    kind: str                     # "deal" | "trick" | "round"
    deal: int = 0                 # "deal": its number, counted from 1
    seat: int | None = None       # "round": who took the cards (None: beaten off)
    who: str | None = None        # "trick": who took it, by name
    round: Round | None = None


def _card(part: Mapping[str, Any] | None) -> str | None:
    cards = (part or {}).get("cards") or ()
    return str(cards[0]) if cards else None


@dataclass
class Chronicle:
    """Fed every action with the display after it (``after``); answers the events."""

    pairs: list[tuple[str | None, str | None]] = field(default_factory=list)
    laid_by: dict[str, int] = field(default_factory=dict)
    taker: int | None = None
    last_round: Round | None = None
    last_key: Any = None
    deals: int = 1
    pairs_seen: bool = False      # a table of pairs: its rounds, not tricks, are logged

    def after(self, seat: int, action: str, disp: Mapping[str, Any],
              deals: int) -> list[Event]:
        out: list[Event] = []
        centre = disp.get("centre") or {}
        now = [(_card(p.get("attack")), _card(p.get("cover")))
               for p in centre.get("pairs") or ()] if centre.get("kind") == "table" else []
        if action.split()[:1] == ["take"]:
            self.taker = seat
        if now:
            self.pairs_seen = True
            for pair in now:
                for c in pair:
                    if c is not None and c not in self.laid_by:
                        self.laid_by[c] = seat
            self.pairs = now
        elif self.pairs:          # the table emptied: the round is over
            self.last_round = Round(self.pairs, self.laid_by, self.taker)
            out.append(Event("round", seat=self.taker, round=self.last_round))
            self.pairs, self.laid_by, self.taker = [], {}, None
        last = disp.get("last")
        key = None if not last else (tuple(str(p.get("card", p)) for p in last.get("plays")
                                           or ()), last.get("winner"))
        if last and key != self.last_key and last.get("winner") is not None \
                and not self.pairs_seen:
            out.append(Event("trick", who=str(last["winner"])))
        self.last_key = key
        if deals != self.deals:
            self.deals = deals
            self.pairs, self.laid_by, self.taker = [], {}, None
            out.append(Event("deal", deal=int((disp.get("deal") or {}).get("n") or deals)))
        return out


def display_after(match: Match, names: Sequence[str], lang: str) -> Mapping[str, Any]:
    """The public display the chronicle reads (no seat's private field)."""
    return present(match.public_observation(), lang, names)


def replay(match: Match, names: Sequence[str], lang: str
           ) -> tuple[Chronicle, int, list[tuple[int, str, list[Event], Mapping[str, Any]]]]:
    """The chronicle of a match's moves so far (a resumed game), the number of its first
    deal, and each move's events."""
    copy = from_record(match.record())
    chron = Chronicle()
    first = int(display_after(copy, names, lang)["deal"]["n"])
    steps = []
    for seat, action in match.history:
        copy.apply(action)
        disp = display_after(copy, names, lang)
        steps.append((seat, action, chron.after(seat, action, disp, len(copy.deals)), disp))
    return chron, first, steps
