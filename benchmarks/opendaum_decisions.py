"""Opendaum search variants judged decision by decision, far cheaper than whole arenas.

    PYTHONPATH=. nice python3 benchmarks/opendaum_decisions.py bid 100 \\
        '{"base": {}, "bonus20": {"made_bonus": 20}, "sigma05": {"bid_sigma": 0.5}}'
    PYTHONPATH=. nice python3 benchmarks/opendaum_decisions.py play 50 \\
        '{"base": {}, "merge": {"merge_equivalent": true}}'

    PYTHONPATH=. nice python3 benchmarks/opendaum_decisions.py bid-objectives 100 \\
        '{"base": {"save": "/tmp/base.json"}, "x3": {"budget": 3, "against": "/tmp/base.json"}}'

``bid-objectives`` / ``play-objectives``: one search run per situation keeps every
rollout's (action, made, points, weight), and every objective of ``OBJECTIVES`` is judged
on those same rollouts (exact: they do not depend on the objective, unless actions are
pruned — then only the objective the race used is honest). A variant's ``budget`` scales
the iterations; ``save`` keeps its per-situation results, ``against`` pairs with a saved
run (objective by objective) instead of the first objective.

The situations: ``DEALS`` single 4-player Opendaum deals (seeds 5000.. for bids, 7000.. for
play; deal k at schedule position k mod 20), the heuristic in every seat. ``bid``: every
bidding turn; ``play``: up to four play decisions with a choice, drawn at random, per deal.
Each situation's every legal action is played out on the true deal, the heuristic in every
seat after it (the heuristic is deterministic): whether the deciding seat then makes its
bid, and its points. Each variant (``OpendaumSearch`` at ``search:normal`` with the given
class attributes) then decides every situation from the seat's observation, with the same
generator for every variant, and is scored by the true outcome of its choice. Printed: the
share of bids made and the points, the process CPU time a decision (median / p95), and each
variant's paired difference from the first with its 95% interval. ``oracle`` is the best
action of each situation in hindsight; ``heuristic`` the heuristic's own choice.

What it cannot see: the search's later decisions are better than the heuristic's, so a
variant that only pays off through later play (or through play after a changed bid) is not
credited here; the arena is the final judge.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from koloda.arena import percentile
from koloda.bots.base import make_bot
from koloda.bots.heuristic.opendaum import rollout
from koloda.bots.search.games.opendaum import OpendaumSearch
from koloda.bots.search.levels import build_search
from koloda.engine.registry import new_deal

GAME, PLAYERS, LENGTH = "opendaum", 4, 20

Situation = tuple[Any, list[str], dict[str, tuple[bool, float]]]


def outcomes(truth: Any, seat: int, legal: list[str]) -> dict[str, tuple[bool, float]]:
    out = {}
    for a in legal:
        st = truth.clone()
        st.apply(a)
        rollout(st)
        out[a] = (st.bids[seat] == st.tricks[seat], st.payoffs()[seat])
    return out


def situations(kind: str, deals: int) -> list[Situation]:
    heuristic = make_bot("heuristic", GAME)
    pick = random.Random(99)
    found: list[Situation] = []
    for k in range(deals):
        m = new_deal(GAME, players=PLAYERS, seed=(5000 if kind == "bid" else 7000) + k,
                     start_deal=k % LENGTH)
        rng = random.Random(k)
        here = []
        while not m.is_over:
            seat = m.to_move
            assert seat is not None
            legal = m.legal_actions()
            obs = m.observation(seat)
            if getattr(obs.deal, "phase", None) == kind and len(legal) > 1:
                here.append((seat, obs, legal, m.current.clone()))
            m.apply(heuristic.choose(obs, legal, rng))
        if kind == "play":
            here = pick.sample(here, min(4, len(here)))
        found.extend((obs, legal, outcomes(truth, seat, legal))
                     for seat, obs, legal, truth in here)
    return found


def paired(made: list[float], pts: list[float],
           first: tuple[list[float], list[float]]) -> str:
    """The paired differences of made and points from ``first``'s, with 95% intervals."""
    return (f" | made {interval([a - b for a, b in zip(made, first[0], strict=True)])}"
            f" pts {interval([a - b for a, b in zip(pts, first[1], strict=True)])}")


def interval(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return f"{m:+.4f} [{m - h:+.4f}, {m + h:+.4f}]"


class Recorder(OpendaumSearch):
    """The search as it is, keeping every rollout's (action, made, points, the sampled
    deal's weight) of the decision."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seen: list[tuple[str, bool, float, float]] = []
        self.trying = ""
        self.w = 1.0

    def weight(self, det: Any, seat: int) -> float:
        self.w = super().weight(det, seat)
        return self.w

    def act(self, state: Any, action: str) -> None:
        self.trying = action
        super().act(state, action)

    def value(self, state: Any, seat: int) -> float:
        v = super().value(state, seat)
        self.seen.append((self.trying, state.bids[seat] == state.tricks[seat],
                          state.payoffs()[seat], self.w))
        return v


#: objectives over a decision's rollouts: name → (weight of made, weight of points)
OBJECTIVES: dict[str, tuple[float, float]] = {
    "points": (0.0, 1.0), "made": (1.0, 1e-6),
    **{f"made+{k}pts": (1.0, k) for k in (0.005, 0.01, 0.02, 0.05)},
    **{f"pts+{b}made": (b, 1.0) for b in (5, 10, 20)},
}


def objectives(sits: list[Situation], defaults: list[str], knobs: dict[str, Any],
               scale: float, save: str | None, against: str | None) -> None:
    """Every objective in ``OBJECTIVES`` judged on the same rollouts (one search run per
    situation: the rollouts do not depend on the objective unless actions are pruned; an
    action's mean is over its own rollouts)."""
    cls = type("rec", (Recorder,), dict(knobs))
    bot = cls(GAME, iterations=round(OpendaumSearch.normal_iterations * scale))
    seen: list[list[tuple[str, bool, float, float]]] = []
    cpu = []
    for i, (obs, legal, _) in enumerate(sits):
        bot.seen = []
        t = time.process_time()
        bot.choose(obs, legal, random.Random(i * 7919 + 1))
        cpu.append(time.process_time() - t)
        seen.append(bot.seen)
    print(f"knobs {knobs} budget ×{scale}: cpu ms median/p95 {1000 * statistics.median(cpu):.0f}/"
          f"{1000 * percentile(cpu, 0.95):.0f}")
    first: tuple[list[float], list[float]] | None = None
    saved: dict[str, tuple[list[float], list[float]]] = {}
    other = json.loads(Path(against).read_text()) if against else None
    for name, (wm, wp) in OBJECTIVES.items():
        made, pts = [], []
        for (_, _, out), default, rows in zip(sits, defaults, seen, strict=True):
            tot: dict[str, float] = {}
            count: dict[str, float] = {}
            for a, m, p, w in rows:
                tot[a] = tot.get(a, 0.0) + w * (wm * m + wp * p)
                count[a] = count.get(a, 0.0) + w
            a = max(tot, key=lambda x: (tot[x] / count[x] if count[x] else -math.inf,
                                        x == default))
            made.append(float(out[a][0]))
            pts.append(out[a][1])
        line = f"  {name:14s} made {statistics.fmean(made):.3f} pts {statistics.fmean(pts):.2f}"
        saved[name] = (made, pts)
        if other is not None:       # paired with the same objective of the saved run
            first = other[name]
        if first is None:
            first = (made, pts)
        else:
            line += paired(made, pts, first)
        print(line, flush=True)
    if save:
        Path(save).write_text(json.dumps(saved))


def main() -> None:
    kind, deals, variants = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
    if kind not in ("bid", "play", "bid-objectives", "play-objectives"):
        raise SystemExit("the first argument is bid, play, bid-objectives or play-objectives")
    if kind.endswith("-objectives"):
        sits = situations(kind.split("-")[0], deals)
        heuristic = make_bot("heuristic", GAME)
        defaults = [heuristic.choose(o, legal, random.Random(0)) for o, legal, _ in sits]
        for name, knobs in variants.items():
            scale = float(knobs.pop("budget", 1.0))
            save, against = knobs.pop("save", None), knobs.pop("against", None)
            print(name, end=": ")
            objectives(sits, defaults, knobs, scale, save, against)
        return
    sits = situations(kind, deals)
    heuristic = make_bot("heuristic", GAME)
    h = [heuristic.choose(o, legal, random.Random(0)) for o, legal, _ in sits]
    print(f"{len(sits)} {kind} situations; oracle made "
          f"{statistics.fmean(max(x[0] for x in s[2].values()) for s in sits):.3f}; heuristic "
          f"made {statistics.fmean(s[2][a][0] for s, a in zip(sits, h, strict=True)):.3f} "
          f"pts {statistics.fmean(s[2][a][1] for s, a in zip(sits, h, strict=True)):.2f}")
    first: tuple[list[float], list[float]] | None = None
    for name, knobs in variants.items():
        bot = build_search(type(name, (OpendaumSearch,), dict(knobs)), GAME, "normal")
        made, pts, cpu = [], [], []
        for i, (obs, legal, out) in enumerate(sits):
            t = time.process_time()
            a = bot.choose(obs, legal, random.Random(i * 7919 + 1))
            cpu.append(time.process_time() - t)
            made.append(float(out[a][0]))
            pts.append(out[a][1])
        line = (f"{name:12s} made {statistics.fmean(made):.3f} pts {statistics.fmean(pts):.2f} "
                f"cpu ms median/p95 {1000 * statistics.median(cpu):.0f}/"
                f"{1000 * percentile(cpu, 0.95):.0f}")
        if first is None:
            first = (made, pts)
        else:
            line += paired(made, pts, first)
        print(line, flush=True)


if __name__ == "__main__":
    main()
