"""Private tables (by invite link) and rematches (the same seats again)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests.test_web import Sock, client_for, create, play, server_table, sit


def _next(sock: Sock, *kinds: str) -> dict[str, Any]:
    while True:
        msg = sock.recv(10)
        if msg["type"] in kinds:
            return msg


def _private(c: Any) -> dict[str, Any]:
    return create(c, "durak", 2, settings={"private": True})


def test_a_private_table_is_not_listed_and_is_found_only_with_its_invite(tmp_path: Path
                                                                        ) -> None:
    with client_for(tmp_path) as c:
        made = _private(c)
        tid, key = made["id"], made["invite"]
        assert made["url"] == f"/t/{tid}#invite={key}"
        public = create(c, "durak", 2)
        assert [t["id"] for t in c.get("/api/tables").json()] == [public["id"]]
        missing = c.get(f"/api/tables/{tid}")
        assert missing.status_code == 404
        assert missing.json() == c.get("/api/tables/zzzzzzzz").json() | {
            "error": missing.json()["error"], "error_ru": missing.json()["error_ru"]}
        assert c.get(f"/api/tables/{tid}?invite=wrong").status_code == 404
        info = c.get(f"/api/tables/{tid}?invite={key}").json()
        assert info["private"] is True and "invite" not in info["settings"]
        assert c.post(f"/api/tables/{tid}/sit", json={"seat": 1, "name": "Boris"}
                      ).status_code == 404
        res = c.post(f"/api/tables/{tid}/sit", json={"seat": 1, "name": "Boris",
                                                     "invite": key})
        assert res.status_code == 200, res.text


def test_watching_a_private_table_needs_its_invite_and_a_seat_needs_only_its_token(
        tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        made = _private(c)
        tid, key = made["id"], made["invite"]
        stranger = Sock(c, tid, None, hello=False)
        stranger.send({"type": "hello", "token": None})
        refused = _next(stranger, "refused")
        assert refused["code"] == "no_table"
        friend = Sock(c, tid, None, hello=False)
        friend.send({"type": "hello", "token": None, "invite": key})
        assert _next(friend, "welcome")["seat"] is None
        me = Sock(c, tid, made["token"])
        assert me.seat == 0


def test_private_must_be_true_or_false(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        res = c.post("/api/tables", json={"game": "durak", "players": 2,
                                          "seats": [{"kind": "person"}] * 2,
                                          "settings": {"private": "yes"}})
        assert res.status_code == 400
        assert "private" in res.json()["error"] and "private" in res.json()["error_ru"]


def _finished(c: Any, **extra: Any) -> tuple[str, dict[int, Sock], dict[str, Any]]:
    made = create(c, "durak", 2, **extra)
    tid = made["id"]
    other = c.post(f"/api/tables/{tid}/sit", json={
        "seat": 1, "name": "Boris", **({"invite": made["invite"]} if "invite" in made
                                       else {})}).json()["token"]
    socks = {0: Sock(c, tid, made["token"]), 1: Sock(c, tid, other)}
    play(socks, random.Random(4))
    socks[0].until(lambda s: s["game_id"] is not None)
    return tid, socks, made


def test_a_private_tables_replay_and_record_need_its_invite(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        tid, socks, made = _finished(c, settings={"private": True})
        game_id = socks[0].state["game_id"]
        assert c.get(f"/api/replays/{game_id}").status_code == 404
        assert c.get(f"/api/replays/{game_id}?invite={made['invite']}").status_code == 200
        assert c.get(f"/api/tables/{tid}/record").status_code == 404
        record = c.get(f"/api/tables/{tid}/record?invite={made['invite']}").json()
        assert record["actions"]


def test_a_rematch_seats_the_same_people_with_the_same_tokens_once(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        tid, socks, made = _finished(c)
        watcher = Sock(c, tid, None)
        socks[1].send({"type": "rematch", "id": 1})
        told = [_next(s, "rematch") for s in (socks[0], socks[1], watcher)]
        nxt = told[0]["next"]
        assert {t["next"] for t in told} == {nxt} and nxt != tid
        socks[0].send({"type": "rematch"})                 # asked again: the same one
        assert _next(socks[0], "rematch")["next"] == nxt
        old, new = server_table(c, tid), server_table(c, nxt)
        assert [s.name for s in new.seats] == [s.name for s in old.seats]
        assert new.spec.name == old.spec.name and new.options == old.options
        assert new.seed != old.seed and new.version == 0
        again = Sock(c, nxt, made["token"])             # the old seat token plays on
        assert again.seat == 0
        assert c.get(f"/api/tables/{tid}").json()["rematch"] == nxt


def test_no_rematch_before_the_end_nor_for_a_watcher(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        made = create(c, "durak", 2)
        tid = made["id"]
        sit(c, tid, 1, "Boris")
        me = Sock(c, tid, made["token"])
        me.send({"type": "rematch"})
        refused = _next(me, "refused")
        assert refused["code"] == "rematch_not_over" and "реванш" in refused["reason_ru"]
        watcher = Sock(c, tid, None)
        watcher.send({"type": "rematch"})
        assert _next(watcher, "refused")["code"] == "spectator"
