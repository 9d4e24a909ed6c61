"""A takeback against computers (``{"type": "takeback"}``): the seat's last move in the
deal and the computers' since are undone, stored as an action so restarts and other
servers replay it; refused at a table of people, before one's first move of the deal, by a
spectator and on a stale version; the record counts it and the match is not rated."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from koloda.store import Store
from koloda.store.store import assisted
from tests.test_store import played
from tests.test_web import Sock, client_for, create, server_table, two_seated
from tests.test_web_ratings import _accounts, _rating, _seats

AGAINST_COMPUTERS = [{"kind": "person"}, {"kind": "computer", "bot": "heuristic"}]


def _my_turn(sock: Sock, at_least: int = 0) -> dict[str, Any]:
    """The first state from ``at_least`` on where it is my move (or the match is over)."""
    return sock.until(lambda s: s["version"] >= at_least and (
        s["view"]["match_over"] or s["view"]["to_move"] == sock.seat), timeout=30)


def _answer(sock: Sock) -> dict[str, Any]:
    while True:
        msg = sock.recv(30)
        if msg["type"] in ("ok", "refused"):
            return msg


def _move_and_reply(me: Sock, rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]]:
    """The state before a move of mine, and the state once it is my move again."""
    before = _my_turn(me)
    ok = me.act(rng.choice(before["legal"]))
    assert ok["type"] == "ok", ok
    return before, _my_turn(me, ok["version"])


def test_a_takeback_undoes_my_last_move_and_the_computers_replies(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        made = create(c, "durak", 2, seats=AGAINST_COMPUTERS)
        assert c.get(f"/api/tables/{made['id']}").json()["takebacks"] is True
        me = Sock(c, made["id"], made["token"])
        table = server_table(c, made["id"])
        rng = random.Random(5)
        before, after = _move_and_reply(me, rng)
        history = list(table.match.history[:len(table.match.history) - (
            after["version"] - before["version"])])
        me.send({"type": "takeback", "version": after["version"], "id": 3})
        ok = _answer(me)
        assert ok["type"] == "ok" and ok["action"].startswith("takeback ") and ok["id"] == 3
        back = me.until(lambda s: s["version"] > after["version"])
        # the position is the one before my move: what I see, what I may do, the history
        assert back["view"] == before["view"] and back["legal"] == before["legal"]
        assert table.match.history == history
        assert back["version"] == after["version"] + 1
        assert table.seats[0].takebacks == 1
        # and the game goes on from there
        assert me.act(back["legal"][0])["type"] == "ok"


def test_a_takeback_survives_a_restart_as_it_was(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        made = create(c, "durak", 2, seats=AGAINST_COMPUTERS)
        me = Sock(c, made["id"], made["token"])
        _, after = _move_and_reply(me, random.Random(8))
        me.send({"type": "takeback", "version": after["version"]})
        assert _answer(me)["type"] == "ok"
        table = server_table(c, made["id"])
        kept = (table.version, table.match.observation(0), list(table.match.history))
        me.close()
    with client_for(tmp_path) as c:
        table = server_table(c, made["id"])
        assert (table.version, table.match.observation(0),
                list(table.match.history)) == kept
        assert table.seats[0].takebacks == 1
        assert table.seats[0].record_seat(0)["takebacks"] == 1


def test_no_takeback_at_a_table_of_people_or_before_moving(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        tid, socks, _ = two_seated(c, "durak")
        assert c.get(f"/api/tables/{tid}").json()["takebacks"] is False
        st = socks[0].state
        assert st is not None
        socks[0].send({"type": "takeback", "version": st["version"]})
        refused = _answer(socks[0])
        assert refused["code"] == "no_takeback"
        assert "computer" in refused["reason"] and "компьютер" in refused["reason_ru"]
        made = create(c, "durak", 2, seats=AGAINST_COMPUTERS)
        me = Sock(c, made["id"], made["token"])
        st = _my_turn(me)
        if not any(seat == 0 for seat, _ in st["log"]):
            me.send({"type": "takeback", "version": st["version"]})
            assert _answer(me)["code"] == "nothing_to_take_back"
        me.send({"type": "takeback", "version": st["version"] + 3})
        assert _answer(me)["code"] == "stale"
        watcher = Sock(c, made["id"], None)
        watcher.send({"type": "takeback", "version": st["version"]})
        assert _answer(watcher)["code"] == "spectator"
        me.send({"type": "takeback", "version": -1})
        assert _answer(me)["code"] == "bad_field"


def test_the_record_counts_takebacks_and_the_match_is_not_rated(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        made = create(c, "durak", 2, seats=AGAINST_COMPUTERS)
        me = Sock(c, made["id"], made["token"])
        rng = random.Random(3)
        _, st = _move_and_reply(me, rng)
        me.send({"type": "takeback", "version": st["version"]})
        assert _answer(me)["type"] == "ok"
        st = _my_turn(me, st["version"] + 1)
        while not st["view"]["match_over"]:
            ok = me.act(rng.choice(st["legal"]))
            assert ok["type"] == "ok", ok
            st = _my_turn(me, ok["version"])
        record = c.get(f"/api/tables/{made['id']}/record").json()
        assert record["seats"][0]["takebacks"] == 1 and assisted(record)


@pytest.mark.parametrize("help_", [{"hints": 2}, {"takebacks": 1}])
def test_a_match_played_with_hints_or_takebacks_moves_no_rating(tmp_path: Path,
                                                                 help_: dict[str, int]
                                                                 ) -> None:
    store = Store(f"sqlite:///{tmp_path / 'r.db'}")
    [a] = _accounts(store, "Аня")
    record = played("durak", 10, _seats("human", "heuristic"))
    record["seats"][0].update(help_)
    store.add_game(record, accounts={0: a})
    assert _rating(store, "Аня", "durak") is None
    plain = played("durak", 11, _seats("human", "heuristic"))
    store.add_game(plain, accounts={0: a})
    assert _rating(store, "Аня", "durak") is not None       # a plain one does
    store.close()
