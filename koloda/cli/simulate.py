"""Many matches with chosen bots, in worker processes, with summary statistics."""

from __future__ import annotations

import json
import random
import statistics
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from koloda.bots import make_bot
from koloda.engine.registry import new_game


@dataclass(frozen=True)
class Job:
    game: str
    players: int
    seed: int
    bots: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    record_dir: str | None


def play_match(job: Job) -> dict[str, Any]:
    """One match by bots; returns its summary (and writes its record if asked)."""
    match = new_game(job.game, players=job.players, seed=job.seed, **dict(job.options))
    bots = [make_bot(b, match.spec.name) for b in job.bots]
    rng = random.Random(job.seed ^ 0x5EED)
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        legal = match.legal_actions()
        match.apply(legal[0] if len(legal) == 1 else
                    bots[seat].choose(match.observation(seat), legal, rng))
    result = match.result
    assert result is not None
    if job.record_dir:
        seats = [{"name": f"Player {i + 1}", "kind": "bot", "bot": b}
                 for i, b in enumerate(job.bots)]
        path = Path(job.record_dir) / f"{match.spec.name}-{job.seed}.json"
        path.write_text(json.dumps(match.record(seats), ensure_ascii=False), encoding="utf-8")
    return {"seed": job.seed, "winners": list(result.winners), "scores": list(result.scores),
            "capped": result.capped, "actions": len(match.history), "deals": len(match.deals)}


def run_jobs(jobs: list[Job], workers: int) -> Iterator[dict[str, Any]]:
    if workers <= 1:
        for job in jobs:
            yield play_match(job)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(play_match, jobs, chunksize=max(1, len(jobs) // (workers * 20)))


@dataclass
class Summary:
    players: int
    games: int = 0
    wins: Counter[int] = field(default_factory=Counter)
    draws: int = 0
    capped: int = 0
    lengths: list[int] = field(default_factory=list)
    deals: list[int] = field(default_factory=list)
    scores: list[list[float]] = field(default_factory=list)

    def add(self, r: dict[str, Any]) -> None:
        self.games += 1
        if not r["winners"]:
            self.draws += 1
        for w in r["winners"]:
            self.wins[w] += 1
        self.capped += bool(r["capped"])
        self.lengths.append(r["actions"])
        self.deals.append(r["deals"])
        self.scores.append(r["scores"])

    def to_json(self) -> dict[str, Any]:
        def dist(xs: list[float]) -> dict[str, float]:
            return {"mean": round(statistics.fmean(xs), 3), "min": min(xs), "max": max(xs),
                    "stdev": round(statistics.pstdev(xs), 3)}
        return {
            "games": self.games, "draws": self.draws, "capped": self.capped,
            "wins_by_seat": [self.wins[s] for s in range(self.players)],
            "win_rate_by_seat": [round(self.wins[s] / self.games, 4)
                                 for s in range(self.players)],
            "actions": dist([float(x) for x in self.lengths]),
            "deals": dist([float(x) for x in self.deals]),
            "scores_by_seat": [dist([float(s[i]) for s in self.scores])
                               for i in range(self.players)],
        }
