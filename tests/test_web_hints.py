"""The browser's hint (``{"type": "hint"}`` over the websocket): the game's strongest
computer player's move for the seat that asks, only where every other seat is a computer,
counted in the record, and changing nothing in the game."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests.test_web import Sock, client_for, create, server_table, two_seated

AGAINST_COMPUTERS = [{"kind": "person"}, {"kind": "computer", "bot": "heuristic"}]


def _my_turn(sock: Sock) -> dict[str, Any]:
    return sock.until(lambda s: s["view"]["to_move"] == sock.seat, timeout=30)


def _answer(sock: Sock) -> dict[str, Any]:
    """The next hint or refusal (states in between are skipped)."""
    while True:
        msg = sock.recv(30)
        if msg["type"] in ("hint", "refused"):
            return msg


def test_a_seat_to_move_against_computers_gets_the_strongest_bots_move(tmp_path: Path
                                                                       ) -> None:
    with client_for(tmp_path) as c:
        made = create(c, "durak", 2, seats=AGAINST_COMPUTERS)
        assert c.get(f"/api/tables/{made['id']}").json()["hint_bot"] == "search"
        me = Sock(c, made["id"], made["token"])
        st = _my_turn(me)
        me.send({"type": "hint", "version": st["version"], "id": 7})
        hint = _answer(me)
        assert hint["type"] == "hint", hint
        assert hint["bot"] == "search" and hint["id"] == 7
        assert hint["version"] == st["version"]
        assert hint["action"] in st["legal"]
        for action, value in hint["values"]:
            assert action in st["legal"] and isinstance(value, float)
        # the record counts it on the seat, as the terminal's does
        rng = random.Random(2)
        while not st["view"]["match_over"]:
            ok = me.act(rng.choice(st["legal"]))
            assert ok["type"] == "ok", ok
            st = me.until(lambda s, v=ok["version"]: s["version"] >= v and (
                s["view"]["match_over"] or s["view"]["to_move"] == 0), timeout=30)
        record = c.get(f"/api/tables/{made['id']}/record").json()
        assert record["seats"][0]["hints"] == 1
        assert "hints" not in record["seats"][1]


def test_a_hint_changes_nothing_in_the_game(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        made = create(c, "durak", 2, seats=AGAINST_COMPUTERS)
        me = Sock(c, made["id"], made["token"])
        st = _my_turn(me)
        table = server_table(c, made["id"])
        before = (table.version, table.match.observation(0), table.match.legal_actions(),
                  list(table.match.history))
        me.send({"type": "hint", "version": st["version"]})
        assert _answer(me)["type"] == "hint"
        assert (table.version, table.match.observation(0), table.match.legal_actions(),
                list(table.match.history)) == before
        # and the seat plays on as before
        assert me.act(st["legal"][0])["type"] == "ok"


def test_no_hint_at_a_table_where_another_person_sits(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        tid, socks, _ = two_seated(c, "durak")
        assert c.get(f"/api/tables/{tid}").json()["hint_bot"] is None
        st = socks[0].state
        assert st is not None
        mover = socks[st["view"]["to_move"]]
        mover.send({"type": "hint", "version": st["version"]})
        refused = _answer(mover)
        assert refused["type"] == "refused" and refused["code"] == "no_hint"
        assert "computer" in refused["reason"] and "компьютер" in refused["reason_ru"]


def test_a_spectator_a_seat_not_to_move_and_a_stale_version_get_no_hint(tmp_path: Path
                                                                        ) -> None:
    with client_for(tmp_path) as c:
        made = create(c, "durak", 2, seats=AGAINST_COMPUTERS)
        me = Sock(c, made["id"], made["token"])
        st = _my_turn(me)
        me.send({"type": "hint", "version": st["version"] + 5})
        assert _answer(me)["code"] == "stale"
        watcher = Sock(c, made["id"], None)
        watcher.send({"type": "hint", "version": st["version"]})
        assert _answer(watcher)["code"] == "spectator"
        me.send({"type": "hint", "version": "x"})
        assert _answer(me)["code"] == "bad_field"
        me.send({"type": "hint"})
        assert _answer(me)["code"] == "bad_field"


def test_the_hint_count_survives_a_restart(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        made = create(c, "durak", 2, seats=AGAINST_COMPUTERS)
        me = Sock(c, made["id"], made["token"])
        st = _my_turn(me)
        me.send({"type": "hint", "version": st["version"]})
        assert _answer(me)["type"] == "hint"
        me.close()
    with client_for(tmp_path) as c:
        seat = server_table(c, made["id"]).seats[0]
        assert seat.hints == 1 and seat.record_seat(0)["hints"] == 1
