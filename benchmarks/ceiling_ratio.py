"""The ceiling ratio: how much of the heuristic's gap to the clairvoyant the search still
leaves, paired by deal-set —

    (clairvoyant − search) / (clairvoyant − heuristic)

each term the mean over deal-sets of the clairvoyant's measure (the arena's, as logged:
Durak's loss, Opendaum's bids made …) less its opponent's, over the deal-sets that both
arena runs played in every rotation (each (seed, seats) counted once, as
``koloda arena-report`` counts them). The interval is a bootstrap over those deal-sets
(the same resampled deal-sets for both terms, so their pairing is kept).

    python3 benchmarks/ceiling_ratio.py --search cs.jsonl [cs2.jsonl …] \
        --heuristic ch.jsonl [ch2.jsonl …]

The logs are ``koloda arena … --bots clairvoyant,search:normal --log cs.jsonl`` and
``--bots clairvoyant,heuristic --log ch.jsonl`` on the same seeds. It prints

    N deal-sets: clairvoyant − search M1, clairvoyant − heuristic M2, ratio R [LO, HI] …

The target is a ratio ≤ 0.5 (docs/strength.md).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from koloda.arena import LogError, combine_logs, deal_set_differences

CLAIRVOYANT = "clairvoyant"


def margins(paths: Iterable[str], bot: str = CLAIRVOYANT) -> dict[int, float]:
    """Seed → ``bot``'s mean measure less its opponent's over the deal-set's rotations,
    the logs combined as ``koloda arena-report`` combines them (each (seed, seats) once,
    deal-sets missing a rotation left out)."""
    combined = combine_logs([(p, Path(p).read_text()) for p in paths])
    others = [b for b in combined.bots if b != bot]
    if bot not in combined.bots or len(others) != 1:
        raise LogError(f"the logs seat {combined.bots}: expected {bot} and one other bot")
    return deal_set_differences(combined.rows, bot, others[0])


@dataclass
class Ratio:
    deal_sets: int
    over_search: float
    over_heuristic: float
    ratio: float
    low: float
    high: float

    def line(self) -> str:
        return (f"{self.deal_sets} deal-sets: clairvoyant − search {self.over_search:+.3f}, "
                f"clairvoyant − heuristic {self.over_heuristic:+.3f}, ratio "
                f"{self.ratio:.2f} [{self.low:.2f}, {self.high:.2f}] (95 %, bootstrap over "
                f"deal-sets)")


def ceiling_ratio(search: dict[int, float], heuristic: dict[int, float],
                  resamples: int = 10_000, seed: int = 1) -> Ratio:
    seeds = sorted(set(search) & set(heuristic))
    if not seeds:
        raise ValueError("the two runs have no deal-set in common")
    a = [search[s] for s in seeds]
    b = [heuristic[s] for s in seeds]
    if sum(b) == 0:
        raise ValueError("the clairvoyant is level with the heuristic: no gap to divide by")
    n = len(seeds)
    rng = random.Random(seed)
    boots = []
    for _ in range(resamples):
        idx = [rng.randrange(n) for _ in range(n)]
        sb = sum(b[i] for i in idx)
        if sb != 0:
            boots.append(sum(a[i] for i in idx) / sb)
    boots.sort()
    return Ratio(n, sum(a) / n, sum(b) / n, sum(a) / sum(b),
                 boots[int(0.025 * len(boots))], boots[min(len(boots) - 1,
                                                          int(0.975 * len(boots)))])


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--search", nargs="+", required=True, help="clairvoyant vs search logs")
    p.add_argument("--heuristic", nargs="+", required=True,
                   help="clairvoyant vs heuristic logs")
    p.add_argument("--bot", default=CLAIRVOYANT, help="the ceiling bot's name in the logs")
    args = p.parse_args(argv)
    print(ceiling_ratio(margins(args.search, args.bot),
                        margins(args.heuristic, args.bot)).line())


if __name__ == "__main__":
    main()
