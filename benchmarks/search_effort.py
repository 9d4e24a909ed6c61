"""How much each search level actually searches, and whether it chooses differently: one
arena game of ``search:normal`` against itself, where at every decision a shadow bot of each
other level (one per seat, shown every decision of that seat, so it remembers the game as
the playing bot does) is asked too, from the same observation and the same generator
state. Per level: the budget, the decisions solved exactly (Durak 2p's endgame solver),
the iterations run on the searched ones (and how many stopped before the budget — a
search may stop once its most visited move cannot be overtaken), the CPU a decision, and
how often its move differs from ``search:normal``'s.

    PYTHONPATH=. nice python3 benchmarks/search_effort.py durak 2 92001 40 search:hard
"""

from __future__ import annotations

import copy
import random
import statistics
import sys
import time
from typing import Any

from koloda import arena
from koloda.bots import make_bot


def main() -> None:
    game, players, seed, most = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
        int(sys.argv[4])
    others = sys.argv[5].split(",") if len(sys.argv) > 5 else ["search:hard"]
    levels = ["search:normal", *others]
    g = arena.Game(game, players, seed, tuple(["search:normal"] * players), "deal", (), 0)
    match = arena._make(g)
    bots = {lv: [make_bot(lv, match.spec.name) for _ in range(players)] for lv in levels}
    for row in bots.values():
        for bot in row:
            start = getattr(bot, "start", None)
            if start is not None:
                start(match.spec.name, match.players, dict(match.options))
    rng = random.Random(arena.bot_seed(g))
    st: dict[str, dict[str, list[float]]] = {lv: {"its": [], "cpu": [], "solved": [],
                                                  "same": []} for lv in levels}
    decisions = 0
    while not match.is_over and decisions < most:
        seat = match.to_move
        assert seat is not None
        legal = match.legal_actions()
        if len(legal) == 1:
            match.apply(legal[0])
            continue
        decisions += 1
        obs = match.observation(seat)
        moves: dict[str, str] = {}
        for lv in reversed(levels):         # search:normal last: its generator plays on
            r = rng if lv == "search:normal" else copy.deepcopy(rng)
            bot: Any = bots[lv][seat]
            t = time.process_time()
            moves[lv] = bot.choose(obs, list(legal), r)
            cpu = time.process_time() - t
            s = st[lv]
            s["cpu"].append(cpu)
            s["solved"].append(float(bot.last.solved))
            if not bot.last.solved:
                s["its"].append(float(bot.last.iterations))
        for lv in levels:
            st[lv]["same"].append(float(moves[lv] == moves["search:normal"]))
        match.apply(moves["search:normal"])
    print(f"{game} {players}p, seed {seed}: {decisions} decisions of search:normal "
          f"against itself{' (game over)' if match.is_over else ''}")
    for lv in levels:
        s = st[lv]
        budget = bots[lv][0].iterations
        its = s["its"]
        early = sum(1 for x in its if x < budget)
        print(f"{lv}: budget {budget} iterations; {int(sum(s['solved']))} of "
              f"{len(s['cpu'])} decisions solved exactly; searched {len(its)}: iterations "
              f"mean {statistics.fmean(its) if its else 0:.0f}, median "
              f"{statistics.median(its) if its else 0:.0f}, max {max(its, default=0):.0f}, "
              f"{early} stopped before the budget; CPU a decision mean "
              f"{statistics.fmean(s['cpu']):.3f} s, median {statistics.median(s['cpu']):.3f} s; "
              f"same move as search:normal in {int(sum(s['same']))} of {len(s['same'])}")


if __name__ == "__main__":
    main()
