"""A real Ctrl-C (SIGINT) to ``koloda arena`` running worker processes: the table of the
deal-sets finished so far, no traceback from the workers, exit status 130, quickly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_sigint_stops_a_parallel_run_with_the_table_so_far(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]),
               KOLODA_LANG="en")
    proc = subprocess.Popen(
        [sys.executable, "-m", "koloda", "arena", "durak", "--players", "2", "--bots",
         "heuristic,random", "--deals", "20000", "-j", "2", "--log", str(log)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if log.exists() and len(log.read_text().splitlines()) >= 5:
            break
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out, err)
    assert time.monotonic() - sent < 20
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    played = len(log.read_text().splitlines())
    assert f"Stopped after {played} of 40000 games" in out
    assert f"koloda arena-report {log}" in err
    assert any(line.startswith("heuristic ") for line in out.splitlines())
