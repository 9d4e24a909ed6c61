"""How much each search level actually searches: one arena deal-set of two levels (seats
rotated, as ``koloda arena``), counting per decision the iterations the search ran, whether
its exact endgame solver answered, and its CPU time.

    PYTHONPATH=. nice python3 benchmarks/search_effort.py durak 2 search:normal,search:hard 92001

Prints, per bot: decisions searched, decisions solved exactly, the iterations of searched
decisions (mean, median, max, and how many stopped before the budget — Durak's search
stops early once the most visited move cannot be overtaken), the budget, and the CPU
seconds a decision; then each game's result and, for two bots, which seat won.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

from koloda import arena
from koloda.bots import make_bot


def searcher(bot: Any) -> Any:
    """The bot's ISMCTS / flat search (it keeps ``last``: the last decision's stats)."""
    for obj in (bot, getattr(bot, "search", None), getattr(bot, "inner", None)):
        if obj is not None and hasattr(obj, "last") and hasattr(obj, "iterations"):
            return obj
    return None


def main() -> None:
    game, players, bots, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(","), \
        int(sys.argv[4])
    stats: dict[str, dict[str, list[float]]] = {b: {"its": [], "cpu": [], "solved": []}
                                               for b in bots}
    budget: dict[str, int] = {}
    for lineup in arena.lineups(bots, players):
        g = arena.Game(game, players, seed, lineup, "deal", (), 0)
        match = arena._make(g)
        made = [make_bot(b, match.spec.name) for b in lineup]
        for bot in made:
            start = getattr(bot, "start", None)
            if start is not None:
                start(match.spec.name, match.players, dict(match.options))
        rng = random.Random(arena.bot_seed(g))
        while not match.is_over:
            seat = match.to_move
            assert seat is not None
            legal = match.legal_actions()
            if len(legal) == 1:
                match.apply(legal[0])
                continue
            bot, name = made[seat], lineup[seat]
            t = time.process_time()
            action = bot.choose(match.observation(seat), legal, rng)
            cpu = time.process_time() - t
            s = searcher(bot)
            if s is not None:
                budget[name] = s.iterations
                st = stats[name]
                st["cpu"].append(cpu)
                st["solved"].append(float(s.last.solved))
                if not s.last.solved:
                    st["its"].append(float(s.last.iterations))
            match.apply(action)
        res = match.result
        assert res is not None
        print(f"seed {seed} lineup {','.join(lineup)}: winners {res.winners}, losers "
              f"{res.losers}, measure {arena.game_measure(match)}", flush=True)
    for b in bots:
        st = stats[b]
        if not st["cpu"]:
            print(f"{b}: no search")
            continue
        its = st["its"]
        early = sum(1 for x in its if x < budget[b])
        print(f"{b}: budget {budget[b]} iterations; {len(st['cpu'])} decisions, "
              f"{int(sum(st['solved']))} solved exactly; searched {len(its)}: iterations "
              f"mean {statistics.fmean(its) if its else 0:.0f}, median "
              f"{statistics.median(its) if its else 0:.0f}, max {max(its, default=0):.0f}, "
              f"{early} stopped before the budget; CPU a decision mean "
              f"{statistics.fmean(st['cpu']):.3f} s, median {statistics.median(st['cpu']):.3f} s")


if __name__ == "__main__":
    main()
