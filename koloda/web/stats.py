"""The figures ``/api/stats`` shows operators and the load benchmark: tables, actions,
commits, how late the event loop woke, the cluster, the bots, the collector, the
spectators' fan-out, CPU time.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

from koloda.web.conn import fan_totals

if TYPE_CHECKING:
    from koloda.web.tables import TableManager


def _cpu_of(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (0 if it cannot be read)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def server_stats(m: TableManager) -> dict[str, Any]:
    """Figures for operators and the load benchmark."""
    def pct(values: list[float], q: float) -> float | None:
        if not values:
            return None
        values = sorted(values)
        return round(values[min(len(values) - 1, int(q * len(values)))] * 1000, 2)
    commits = [c for c, _ in m.writer.recent]
    sizes = [n for _, n in m.writer.recent]
    lags = list(m.lags)
    return {
        "tables": len(m.tables),
        "playing": m.playing(), "abandoned": m.abandoned,
        "connections": sum(len(t.conns) for t in m.tables.values()),
        "actions_accepted": m.accepted, "transactions": m.writer.commits,
        "commit_ms": {"p50": pct(commits, .5), "p99": pct(commits, .99),
                      "max": pct(commits, 1.0)},
        "jobs_per_commit": round(sum(sizes) / len(sizes), 2) if sizes else None,
        "loop_lag_ms": {"p50": pct(lags, .5), "p99": pct(lags, .99),
                        "max": pct(lags, 1.0)},
        "uptime_s": round(time.monotonic() - m.started, 1),
        "cluster": {**m.cluster.stats(), "taken_over": m.taken_over,
                    "conflicts": m.conflicts, "news_left_cold": m.sync.left_cold,
                    "warmed": m.sync.warmed},
        "bots": m.pool.stats(),
        "gc": m.collector.stats(),
        "spectator_fanout": {"frames": fan_totals.frames, "offers": fan_totals.offers,
                             "deferred": fan_totals.deferred,
                             "cpu_s": round(fan_totals.cpu_s, 3)},
        # CPU seconds used so far (user + system): this process, its bot workers
        "cpu_s": {"server": round(sum(os.times()[:2]), 3),
                  "bot_workers": round(sum(_cpu_of(p) for p in m.pool.processes()),
                                       3)},
    }
