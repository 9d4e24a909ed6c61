"""``koloda arena`` with each move timed by this process's CPU time, not the wall clock.

    PYTHONPATH=. nice python3 benchmarks/arena_cpu.py opendaum --players 4 \\
        --bots search:normal,heuristic --deals 40 --seed 91001 -j 1

The arena's move-time column (and a ``--timings`` file) then reads CPU milliseconds a
move: on a machine shared with other jobs the wall time says more about the load than the
bot. Run with ``-j 1`` (worker processes are forked and keep the CPU clock, but a busy
machine is better served by one).
"""

from __future__ import annotations

import sys
import time
import types

import koloda.arena
from koloda.cli.main import app

koloda.arena.time = types.SimpleNamespace(perf_counter=time.process_time)  # type: ignore[assignment]

if __name__ == "__main__":
    sys.argv[0] = "koloda"
    app(["arena", *sys.argv[1:]])
