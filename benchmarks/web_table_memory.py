"""Memory of a table in play in one server: N Durak 2p tables made by a ``TableManager``,
each played some random actions in, with its seats' and the watchers' states cached,
measured with ``tracemalloc``. Not a test: run it by hand and read the figure.

    python benchmarks/web_table_memory.py --tables 500 --actions 20
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import tempfile
import tracemalloc

from koloda.web.limits import Limits
from koloda.web.tables import TableManager


async def measure(tables: int, actions: int, game: str, players: int) -> float:
    with tempfile.TemporaryDirectory() as d:
        m = TableManager(f"sqlite:///{d}/web.db", bot_workers=0, limits=Limits.unlimited())
        await m.start()
        seats = [{"kind": "person"}] * players
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        made = []
        for i in range(tables):
            table, _, _ = await m.create(game, players, {}, seats, "A", 0, {}, client=f"c{i}")
            made.append(table)
        rng = random.Random(1)
        for table in made:
            for _ in range(actions):
                if table.match.is_over:
                    break
                legal = table.match.legal_actions()
                table.apply_logged(table.match.to_move, rng.choice(legal))
            for viewer in [*range(players), None]:
                table.state_text(viewer)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        await m.stop()
        return (after - before) / tables / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=500)
    ap.add_argument("--actions", type=int, default=20)
    ap.add_argument("--game", default="durak")
    ap.add_argument("--players", type=int, default=2)
    a = ap.parse_args()
    kib = asyncio.run(measure(a.tables, a.actions, a.game, a.players))
    print(f"{kib:.1f} KiB per {a.game} {a.players}p table in play ({a.actions} actions, "
          f"every seat's and the watchers' states cached), {a.tables} tables")


if __name__ == "__main__":
    main()
