"""The browser service over time: tables that never freeze, connections that are closed
when they cannot keep up, bot workers that never outlive the server, fair computers,
presence updates that do not grow with the square of the watchers."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from tests.test_web import client_for, create, server_table


def test_tables_with_an_away_person_and_computer_seats_never_freeze(tmp_path: Path) -> None:
    """A computer stands in for an away person and the next seat is a computer: the
    stand-in's commit used to race the ticker into a second stand-in, which was refused
    ``stale`` while the computer's move was never started — the table froze."""
    with client_for(tmp_path, tick=0.005, bot_delay=0.01) as c:
        ids = []
        for _ in range(12):
            made = create(c, "durak", 2, seats=[{"kind": "person"},
                                                 {"kind": "computer", "bot": "random"}],
                          settings={"away_policy": "computer", "away_timeout": 1,
                                    "away_bot": "random"})
            ids.append(made["id"])        # the creator sits at seat 0 and never comes
        deadline = time.monotonic() + 25
        while time.monotonic() < deadline:
            if all(server_table(c, t).match.is_over for t in ids):
                break
            time.sleep(0.1)
        stuck = [(t, server_table(c, t).version, server_table(c, t).match.to_move)
                 for t in ids if not server_table(c, t).match.is_over]
        assert stuck == []
