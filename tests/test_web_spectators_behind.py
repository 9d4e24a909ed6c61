"""Watchers a trick behind (``"settings": {"spectators": "trick"}``): while a trick (a
Durak round) is being played the watchers see the table as it stood when it began, and
the whole of it once it is over; the players always see it live; the end is shown at once."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests.test_web import Sock, client_for, create, server_table, sit


def _table(c: Any, spectators: str) -> tuple[str, dict[int, Sock], Sock]:
    made = create(c, "durak", 2, settings={"spectators": spectators})
    tid = made["id"]
    other = sit(c, tid, 1, "Boris")
    socks = {0: Sock(c, tid, made["token"]), 1: Sock(c, tid, other)}
    return tid, socks, Sock(c, tid, None)


def _latest(sock: Sock, version: int) -> dict[str, Any]:
    """The first state at or after ``version`` (a watcher a trick behind may be sent an
    older one: it is the newest it gets then)."""
    return sock.until(lambda s: s["version"] >= version)


def test_watchers_a_trick_behind_see_no_card_of_the_round_in_play(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        tid, socks, watcher = _table(c, "trick")
        table = server_table(c, tid)
        rng = random.Random(1)
        rounds_in_play = caught_up = 0
        for _ in range(40):
            st = socks[0].state
            assert st is not None
            if st["view"]["match_over"]:
                break
            mover = socks[st["view"]["to_move"]]
            mine = mover.until(lambda s, v=st["version"]: s["version"] == v)
            ok = mover.act(rng.choice(mine["legal"]))
            assert ok["type"] == "ok"
            for s in socks.values():
                s.until(lambda x, v=ok["version"]: x["version"] >= v)
            if table.match.public_observation().deal.table:
                rounds_in_play += 1
            else:           # between rounds the watchers catch up
                watcher.until(lambda x, v=table.version: x["version"] == v)
                caught_up += 1
        assert rounds_in_play and caught_up
        states = [json.loads(text) for _, text in watcher.frames]
        states = [m for m in states if m["type"] == "state"]
        assert states and all(m["view"]["table"] == [] for m in states)
        # the players saw every round's cards
        assert any(json.loads(text).get("view", {}).get("table") for _, text in socks[0].frames)


def test_live_watchers_see_every_card_at_once(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        _, socks, watcher = _table(c, "live")
        st = socks[0].state
        assert st is not None
        mover = socks[st["view"]["to_move"]]
        ok = mover.act(mover.state["legal"][0])            # an attack: a card on the table
        shown = _latest(watcher, ok["version"])
        assert shown["view"]["table"] != []


@pytest.mark.parametrize("value", ["later", 1, None])
def test_spectators_is_live_or_trick(tmp_path: Path, value: Any) -> None:
    with client_for(tmp_path) as c:
        res = c.post("/api/tables", json={"game": "durak", "players": 2,
                                          "seats": [{"kind": "person"}] * 2,
                                          "settings": {"spectators": value}})
        assert res.status_code == 400
        assert "live" in res.json()["error"] and "trick" in res.json()["error_ru"]


def test_in_every_game_watchers_a_trick_behind_never_see_a_trick_in_play() -> None:
    import koloda
    from koloda.engine.view import fields_of
    from koloda.web.table import Seat, Table, _trick_on_table, fresh_match
    for name, spec in koloda.registry().items():
        players = spec.players[0]
        for seed in range(2):
            match = fresh_match(name, players, {}, seed)
            table = Table("t", spec, match, seed, dict(match.options),
                          [Seat("computer", f"C{i}", "random") for i in range(players)],
                          {"spectators": "trick", "away_timeout": 120,
                           "away_policy": "computer", "away_bot": "random"}, 0.0)
            deal = match.public_observation().deal
            assert any(f.role in ("trick", "table") or f.kind == "view"
                       for f in fields_of(deal)), f"{name}: no trick to hold back"
            rng = random.Random(seed)
            clear: set[int] = set()          # versions with no trick on the table
            behind = 0
            for _ in range(150):
                if table.match.is_over:
                    break
                if not _trick_on_table(table.match.public_observation().deal):
                    clear.add(table.version)
                sent = json.loads(table.state_text(None))
                assert sent["version"] in clear, (name, sent["version"])
                behind += sent["version"] < table.version
                seat = table.match.to_move
                legal = table.match.legal_actions()
                table.apply_logged(seat, legal[rng.randrange(len(legal))])
            assert behind, f"{name}: the watchers were never behind"
