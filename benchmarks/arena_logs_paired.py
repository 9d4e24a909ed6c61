"""Two arena runs of the same seeds, paired by deal-set: one bot's measure and points in
run A against the same bot's in run B (e.g. a changed search against the search as it
was, each beside the same other bots on the same deals).

    python3 benchmarks/arena_logs_paired.py search:normal A-1.jsonl A-2.jsonl -- B-1.jsonl B-2.jsonl

Per deal-set (seed: every rotation) the mean over the bot's seats in A minus that in B;
printed: the means, the mean difference with its normal 95% interval, the deal-sets.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from koloda.arena import mean_interval


def per_seed(paths: list[str], bot: str) -> dict[int, tuple[list[float], list[float]]]:
    out: dict[int, tuple[list[float], list[float]]] = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            row = json.loads(line)
            made, pts = out.setdefault(int(row["seed"]), ([], []))
            for seat, b in enumerate(row["lineup"]):
                if b == bot and row["measure"][seat] is not None:
                    made.append(float(row["measure"][seat]))
                    pts.append(float(row["result"]["scores"][seat]))
    return out


def main() -> None:
    args = sys.argv[1:]
    if args[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return
    if "--" not in args[1:]:
        raise SystemExit("usage: arena_logs_paired.py BOT A.jsonl … -- B.jsonl … "
                         "(the two runs' logs, parted by --)")
    bot, rest = args[0], args[1:]
    cut = rest.index("--")
    a, b = per_seed(rest[:cut], bot), per_seed(rest[cut + 1:], bot)
    seeds = sorted(s for s in a if s in b and a[s][0] and b[s][0])
    for i, name in ((0, "made"), (1, "points")):
        xa = [statistics.fmean(a[s][i]) for s in seeds]
        xb = [statistics.fmean(b[s][i]) for s in seeds]
        m, lo, hi = mean_interval([x - y for x, y in zip(xa, xb, strict=True)])
        print(f"{name} A {statistics.fmean(xa):.3f} B {statistics.fmean(xb):.3f} "
              f"A-B paired by deal-set {m:+.4f} [{lo:+.4f}, {hi:+.4f}] {len(seeds)} deal-sets")


if __name__ == "__main__":
    main()
