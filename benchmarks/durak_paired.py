"""Variants of the 2-player Durak search against the heuristic (or another opponent),
paired by deal-set, with each move's process CPU time (docs/strength/durak.md).

Every variant plays every deal-set (one seed) in both seatings against ``--opponent``
(default ``heuristic``), exactly as the arena seats ``search:normal,OPPONENT`` (the same
deal, the same bots' seed: a variant with the shipped settings replays the arena's games
move for move). The opponent is a bot name (``search:normal``, ``openspiel-ismcts:30``)
or a search variant's JSON settings (seated as ``search:LEVEL``); rows against different
opponents belong in different ``--out`` files. A
variant is a name and settings: ``level`` (easy / normal / hard), ``mult`` (the level's
iterations and endgame nodes times this), and any attribute of ``DurakSearch`` (e.g.
``inference``, ``eps``, ``lean``). Rows go to ``--out`` as JSON lines (name, seed, the
search's seat, its loss, its win, its CPU seconds a move, forced moves left out); a row
already there is not played again. ``--report`` prints, per variant, the win and loss
rates and the CPU median and 95th percentile a move, its win rate less its loss rate by
deal-set (against a copy of itself this is 0 on average: above 0, it is the stronger),
and each variant's paired win-rate difference from the first, each with its normal 95%
interval.

    nice python3 benchmarks/durak_paired.py --seeds 6000:6100 -j 2 --out easy.jsonl \\
        --variant 'base={"level": "easy"}' --variant 'inf={"level": "easy", "inference": true}'
    python3 benchmarks/durak_paired.py --report easy.jsonl
    nice python3 benchmarks/durak_paired.py --seeds 94001:94041 --opponent search:normal \\
        --out h2h.jsonl --variant 'plain={"widen": 0}'
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from koloda.arena import Game, percentile, play_game
from koloda.bots import make_bot

Variant = tuple[str, dict[str, Any]]


def build(settings: dict[str, Any]) -> Any:
    bot = make_bot(f"search:{settings.get('level', 'normal')}", "durak")
    for key, value in settings.items():
        if key == "level":
            continue
        if key == "mult":
            bot.iterations = int(bot.iterations * value)
            bot.endgame_nodes = int(bot.endgame_nodes * value)
        else:
            if not hasattr(bot, key):
                raise SystemExit(f"DurakSearch has no setting {key!r}")
            setattr(bot, key, value)
    return bot


def opponent(spec: str) -> tuple[str, Any]:
    """The opponent's seat name in the lineup and the bot: a bot name, or a search
    variant's JSON settings."""
    if spec.startswith("{"):
        settings = json.loads(spec)
        return f"search:{settings.get('level', 'normal')}", build(settings)
    return spec, make_bot(spec, "durak")


def play(task: tuple[Variant, int, int, str]) -> list[Any]:
    (name, settings), seed, seat, against = task
    other, other_bot = opponent(against)
    lineup = ("search:normal", other) if seat == 0 else (other, "search:normal")
    game = Game("durak", 2, seed, lineup, "game", (), 0)
    bots: list[Any] = [None, None]
    bots[seat] = build(settings)
    bots[1 - seat] = other_bot
    res = play_game(game, bots, clock=time.process_time)
    losers = res.row["result"]["losers"]
    return [name, seed, seat, float(seat in losers), float((1 - seat) in losers),
            res.times[seat]]


def report(paths: list[str]) -> None:
    games: dict[str, dict[tuple[int, int], tuple[float, float]]] = defaultdict(dict)
    cpu: dict[str, list[float]] = defaultdict(list)
    order: list[str] = []
    for path in paths:
        with open(path) as f:
            for line in f:
                name, seed, seat, loss, win, times = json.loads(line)
                if name not in order:
                    order.append(name)
                games[name][(seed, seat)] = (loss, win)
                cpu[name].extend(times)
    for name in order:
        g, c = games[name], cpu[name]
        n = len(g)
        print(f"{name:12s} games {n:4d} win {sum(w for _, w in g.values()) / n:.3f} "
              f"loss {sum(lo for lo, _ in g.values()) / n:.3f}  cpu median "
              f"{statistics.median(c) if c else 0:.3f} p95 {percentile(c, 0.95):.3f} "
              f"moves {len(c)}")
    for name in order:
        g = games[name]
        seeds = sorted({s for s, _ in g if all((s, t) in g for t in (0, 1))})
        margins = [(g[(s, 0)][1] + g[(s, 1)][1] - g[(s, 0)][0] - g[(s, 1)][0]) / 2
                   for s in seeds]
        if len(margins) > 1:
            half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins))
            print(f"{name}: win - loss {statistics.fmean(margins):+.3f} ± {half:.3f} "
                  f"over {len(margins)} deal-sets")
    base = order[0]
    for name in order[1:]:
        seeds = sorted({s for s, _ in games[name]
                        if all((s, t) in games[v] for v in (base, name) for t in (0, 1))})
        diffs = [(games[name][(s, 0)][1] + games[name][(s, 1)][1]
                  - games[base][(s, 0)][1] - games[base][(s, 1)][1]) / 2 for s in seeds]
        if len(diffs) > 1:
            half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
            print(f"{name} - {base}: win rate diff {statistics.fmean(diffs):+.3f} ± "
                  f"{half:.3f} over {len(diffs)} deal-sets")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", action="append", default=[],
                    help="NAME=JSON settings (see the module docstring)")
    ap.add_argument("--opponent", default="heuristic",
                    help="a bot name or a search variant's JSON settings (default heuristic)")
    ap.add_argument("--seeds", default="1:11", help="FIRST:END (END not played)")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--out", help="JSONL rows (appended; rows there are not played again)")
    ap.add_argument("--report", nargs="*", help="print the figures of these row files")
    args = ap.parse_args()
    if args.report:
        report(args.report)
        return
    if not args.out or not args.variant:
        ap.error("--out and at least one --variant are needed to play")
    variants: list[Variant] = []
    for v in args.variant:
        name, _, settings = v.partition("=")
        variants.append((name, json.loads(settings or "{}")))
    first, end = (int(x) for x in args.seeds.split(":"))
    done = set()
    if os.path.exists(args.out):
        with open(args.out) as f:
            done = {tuple(json.loads(line)[:3]) for line in f}
    tasks = [(v, s, seat, args.opponent) for s in range(first, end) for seat in (0, 1)
             for v in variants if (v[0], s, seat) not in done]
    with open(args.out, "a") as out, ProcessPoolExecutor(args.jobs) as ex:
        for row in ex.map(play, tasks):
            out.write(json.dumps(row) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
