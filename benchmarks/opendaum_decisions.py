"""Opendaum search variants judged decision by decision, far cheaper than whole arenas.

    PYTHONPATH=. nice python3 benchmarks/opendaum_decisions.py bid 100 \\
        '{"base": {}, "bonus20": {"made_bonus": 20}, "sigma05": {"bid_sigma": 0.5}}'
    PYTHONPATH=. nice python3 benchmarks/opendaum_decisions.py play 50 \\
        '{"base": {}, "merge": {"merge_equivalent": true}}'

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


def interval(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return f"{m:+.4f} [{m - h:+.4f}, {m + h:+.4f}]"


def main() -> None:
    kind, deals, variants = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
    if kind not in ("bid", "play"):
        raise SystemExit("the first argument is bid or play")
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
            line += (f" | made {interval([a - b for a, b in zip(made, first[0], strict=True)])}"
                     f" pts {interval([a - b for a, b in zip(pts, first[1], strict=True)])}")
        print(line, flush=True)


if __name__ == "__main__":
    main()
