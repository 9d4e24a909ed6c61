"""Bot worker processes never outlive the server: not after SIGTERM while they are
busy, not after the server is killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

ROOT = Path(__file__).resolve().parents[1]

#: a "server": a BotPool with both workers busy for a minute; on SIGTERM it stops the
#: pool as the server's shutdown does
SCRIPT = """
import os, signal, sys, time
from koloda.web.bots import BotPool
pool = BotPool(2)
ex = pool._executor()
futures = [ex.submit(time.sleep, 60) for _ in range(2)]
while len(pool.processes()) < 2:
    time.sleep(0.05)
time.sleep(0.5)   # both started their job
def stop(*_):
    pool.close()
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
print(" ".join(map(str, pool.processes())), flush=True)
time.sleep(120)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _run_and_stop(sig: int) -> list[int]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE,
                            env=env, text=True)
    try:
        assert proc.stdout is not None
        workers = [int(p) for p in proc.stdout.readline().split()]
        assert len(workers) == 2 and all(_alive(p) for p in workers)
        proc.send_signal(sig)
        proc.wait(10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(_alive(p) for p in workers):
            time.sleep(0.05)
        return [p for p in workers if _alive(p)]
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_busy_bot_workers_end_when_the_server_is_stopped_with_sigterm() -> None:
    assert _run_and_stop(signal.SIGTERM) == []


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_bot_workers_end_when_the_server_is_killed_with_sigkill() -> None:
    left = _run_and_stop(signal.SIGKILL)
    for pid in left:                      # do not leave them behind for the next test
        os.kill(pid, signal.SIGKILL)
    assert left == []
