"""The ranks (разряды) of Opendaum for three with 33 cards
(koloda/rules/opendaum.en.md §Precisely 26, 27).

A rank is earned by a match's final total and kept between matches in a player's profile.
These are pure functions so that a profile store, a bot league or a test can apply the rule
without a match: ``rank_for_total`` earns, ``next_held_rank`` keeps or drops.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Rank:
    """One rank; ranks compare by ``level`` (эмбрион lowest, чемпион highest)."""

    level: int
    id: str = ""
    ru: str = ""
    en: str = ""
    #: the lowest final total that earns this rank (эмбрион: every total below 50)
    low: int = 0

    def to_json(self) -> dict[str, str | int]:
        return {"id": self.id, "ru": self.ru, "en": self.en, "level": self.level}


RANKS: tuple[Rank, ...] = (
    Rank(0, "embryo", "эмбрион", "embryo", 0),
    Rank(1, "junior", "детский", "junior", 50),
    Rank(2, "third", "третий", "third class", 100),
    Rank(3, "second", "второй", "second class", 120),
    Rank(4, "first", "первый", "first class", 150),
    Rank(5, "master", "мастер", "master", 170),
    Rank(6, "grandmaster", "гроссмейстер", "grandmaster", 200),
    Rank(7, "champion", "чемпион", "champion", 230),
)
EMBRYO, CHAMPION = RANKS[0], RANKS[-1]
RANK_BY_ID: dict[str, Rank] = {r.id: r for r in RANKS}


def rank_for_total(total: float) -> Rank:
    """The rank a final total earns: [0,50) эмбрион … ≥230 чемпион; a negative total
    (possible with ``last_deal_penalty``) earns эмбрион too."""
    earned = EMBRYO
    for r in RANKS:
        if total >= r.low:
            earned = r
    return earned


def next_held_rank(held: Rank | None, earned: Rank) -> Rank:
    """The rank held after a match: the earned one if it is at least the one held; else one
    rank down («за неподтверждение разряда … на один разряд ниже»), never below эмбрион.
    A player with no rank yet takes the earned one."""
    if held is None or earned >= held:
        return earned
    return RANKS[max(0, held.level - 1)]
