"""Table chat: the seated players write, everyone at the table reads, a new connection and
a restarted server show the latest lines, bad lines and floods are refused saying why, and
nothing of it is in the match's record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.test_web import Sock, client_for, server_table, two_seated


def _next(sock: Sock, *kinds: str) -> dict[str, Any]:
    while True:
        msg = sock.recv(10)
        if msg["type"] in kinds:
            return msg


def test_a_players_line_reaches_every_seat_and_watcher(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        tid, socks, _ = two_seated(c)
        watcher = Sock(c, tid, None)
        socks[0].send({"type": "chat", "text": "  удачи   всем! "})
        for sock in (socks[0], socks[1], watcher):
            line = _next(sock, "chat")["line"]
            assert (line["seat"], line["name"], line["text"]) == (0, "Anna", "удачи всем!")
        watcher.send({"type": "chat", "text": "hi"})
        refused = _next(watcher, "refused")
        assert refused["code"] == "chat_seats_only" and "зрители" in refused["reason_ru"]


def test_an_empty_a_long_and_a_direction_overriding_line_are_refused(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        _, socks, _ = two_seated(c)
        me = socks[0]
        for text, code, said in (("   ", "chat_refused", "empty"),
                                 ("x" * 201, "chat_refused", "at most 200"),
                                 ("ok \u202e", "chat_refused", "U+202E"),
                                 (5, "bad_field", "text")):
            me.send({"type": "chat", "text": text})
            refused = _next(me, "refused", "chat")
            assert refused["type"] == "refused" and refused["code"] == code, refused
            assert said in refused["reason"]
        me.send({"type": "chat", "text": "👨\u200d👩\u200d👧 семья"})      # joiners may stand
        assert _next(me, "chat", "refused")["type"] == "chat"


def test_a_flood_of_lines_is_refused_after_the_burst(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        _, socks, _ = two_seated(c)
        me = socks[0]
        answers = []
        for i in range(7):
            me.send({"type": "chat", "text": f"line {i}"})
            answers.append(_next(me, "chat", "refused"))
        assert [a["type"] for a in answers[:5]] == ["chat"] * 5
        assert answers[-1]["type"] == "refused" and answers[-1]["code"] == "rate_limited"
        assert "подождите" in answers[-1]["reason_ru"]


def test_a_new_connection_and_a_restarted_server_show_the_latest_lines(tmp_path: Path
                                                                      ) -> None:
    with client_for(tmp_path) as c:
        tid, socks, _ = two_seated(c)
        socks[1].send({"type": "chat", "text": "первая"})
        _next(socks[1], "chat")
        late = Sock(c, tid, None, hello=False)
        late.send({"type": "hello", "token": None})
        assert [ln["text"] for ln in _next(late, "chat_history")["lines"]] == ["первая"]
        for s in socks.values():
            s.close()
        late.close()
    with client_for(tmp_path) as c:
        again = Sock(c, tid, None, hello=False)
        again.send({"type": "hello", "token": None})
        lines = _next(again, "chat_history")["lines"]
        assert [(ln["seat"], ln["name"], ln["text"]) for ln in lines] == [(1, "Boris", "первая")]


def test_the_chat_is_kept_out_of_the_record(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        tid, socks, _ = two_seated(c)
        socks[0].send({"type": "chat", "text": "секретное слово"})
        _next(socks[0], "chat")
        table = server_table(c, tid)
        record = table.match.record([s.record_seat(i) for i, s in enumerate(table.seats)])
        assert "секретное" not in json.dumps(record, ensure_ascii=False)
