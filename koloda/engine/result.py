"""The result object of docs/records.md."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Result:
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    scores: tuple[float, ...]
    capped: bool = False
    details: dict[str, Any] = field(default_factory=dict)
    over: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"over": self.over, "winners": list(self.winners), "losers": list(self.losers),
                "scores": [_num(s) for s in self.scores], "capped": self.capped,
                "details": self.details}

    @staticmethod
    def of(winners: Sequence[int], players: int, scores: Sequence[float], capped: bool = False,
           details: dict[str, Any] | None = None) -> Result:
        """Losers are every other seat; a draw is ``winners=[]`` (and then no losers)."""
        w = tuple(sorted(set(winners)))
        losers = tuple([s for s in range(players) if s not in w]) if w else ()
        return Result(w, losers, tuple(scores), capped, details or {})


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x


def best_seats(scores: Sequence[float], higher_is_better: bool = True) -> list[int]:
    """Seats sharing the best score (ties share)."""
    best = max(scores) if higher_is_better else min(scores)
    return [i for i, s in enumerate(scores) if s == best]
