"""The web server through its API and websocket (Starlette's test client): creating,
sitting, watching, playing, every refused message, seat tokens, reconnection, computer
seats and stand-ins, the store, and a restart that resumes a table mid-deal."""

from __future__ import annotations

import json
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

import anyio
from fastapi.testclient import TestClient

from koloda.engine.errors import IllegalAction
from koloda.store import Store
from koloda.web.app import create_app
from koloda.web.limits import Limits
from koloda.web.protocol import MAX_MESSAGE
from tests.browser.leaks import leaks


# ------------------------------------------------------------------ helpers
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'koloda.db'}"


class Client(TestClient):
    """A test client that closes its websockets before the server stops."""

    socks: list[Sock]

    def __exit__(self, *args: Any) -> None:
        for s in getattr(self, "socks", []):
            s.close()
        super().__exit__(*args)


def client_for(tmp_path: Path, **kw: Any) -> Client:
    kw.setdefault("bot_workers", 0)
    kw.setdefault("bot_delay", 0.0)
    kw.setdefault("tick", 0.05)
    # these tests play as fast as they can from one address: no rate limit for them
    # (tests/test_web_limits.py tests the limits)
    kw.setdefault("limits", Limits(messages_per_second=1e6))
    client = Client(create_app(db_url(tmp_path), **kw))
    client.socks = []
    return client


class Sock:
    """A websocket with a receive timeout; every frame kept for the leak check."""

    def __init__(self, client: TestClient, table: str, token: str | None,
                 frames: list[tuple[int | None, str]] | None = None, hello: bool = True,
                 path: str | None = None):
        self.cm = client.websocket_connect(path or f"/ws/tables/{table}")
        self.ws = self.cm.__enter__()
        self.open = True
        getattr(client, "socks", []).append(self)
        self.frames = frames if frames is not None else []
        self.seat: int | None = None
        self.state: dict[str, Any] | None = None
        if hello:
            self.send({"type": "hello", "token": token})
            welcome = self.expect("welcome")
            self.seat = welcome["seat"]
            self.state = self.expect("state")

    def send(self, data: Any) -> None:
        self.ws.send_text(data if isinstance(data, str) else json.dumps(data))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()
        message = self.ws.portal.call(get)
        if message["type"] == "websocket.close":
            raise ConnectionError(f"closed: {message.get('code')}")
        text = message["text"]
        self.frames.append((self.seat, text))
        data: dict[str, Any] = json.loads(text)
        if data["type"] == "state":
            self.state = data
        return data

    def expect(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        """The next message of ``kind`` (skipping presence updates and the like)."""
        while True:
            msg = self.recv(timeout)
            if msg["type"] == kind:
                return msg
            if msg["type"] == "refused" and kind != "refused":
                raise AssertionError(f"refused: {msg}")

    def until(self, pred: Any, timeout: float = 20) -> dict[str, Any]:
        """Read states until one satisfies ``pred``."""
        if self.state is not None and pred(self.state):
            return self.state
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.1, deadline - time.monotonic()))
            if msg["type"] == "state" and pred(msg):
                return msg

    def act(self, action: str, version: int | None = None) -> dict[str, Any]:
        assert self.state is not None
        v = self.state["version"] if version is None else version
        self.send({"type": "act", "version": v, "action": action, "id": v})
        while True:
            msg = self.recv()
            if msg["type"] in ("ok", "refused"):
                return msg

    def close(self) -> None:
        if self.open:
            self.open = False
            self.cm.__exit__(None, None, None)


def create(client: TestClient, game: str = "durak", players: int = 2,
           seats: list[dict[str, Any]] | None = None, sit: int | None = 0,
           name: str = "Anna", **extra: Any) -> dict[str, Any]:
    body = {"game": game, "players": players,
            "seats": seats or [{"kind": "person"}] * players, "sit": sit, "name": name}
    body.update(extra)
    res = client.post("/api/tables", json=body)
    assert res.status_code == 201, res.text
    data: dict[str, Any] = res.json()
    return data


def sit(client: TestClient, table: str, seat: int, name: str) -> str:
    res = client.post(f"/api/tables/{table}/sit", json={"seat": seat, "name": name})
    assert res.status_code == 200, res.text
    token: str = res.json()["token"]
    return token


def two_seated(client: TestClient, game: str = "durak", **extra: Any
               ) -> tuple[str, dict[int, Sock], list[tuple[int | None, str]]]:
    made = create(client, game, **extra)
    tid = made["id"]
    t1 = sit(client, tid, 1, "Boris")
    frames: list[tuple[int | None, str]] = []
    socks = {0: Sock(client, tid, made["token"], frames), 1: Sock(client, tid, t1, frames)}
    return tid, socks, frames


def play(socks: dict[int, Sock], rng: random.Random, steps: int | None = None) -> int:
    """Play random legal moves over the sockets (persons only); returns moves made."""
    made = 0
    any_sock = next(iter(socks.values()))
    while steps is None or made < steps:
        st = any_sock.state
        assert st is not None
        if st["view"]["match_over"]:
            break
        mover = st["view"]["to_move"]
        mine = socks[mover].until(lambda s, v=st["version"]: s["version"] == v)
        answer = socks[mover].act(rng.choice(mine["legal"]))
        assert answer["type"] == "ok", answer
        made += 1
        for s in socks.values():
            s.until(lambda x, v=answer["version"]: x["version"] == v)
    return made


def server_table(client: TestClient, tid: str) -> Any:
    return client.app.state.manager.get(tid)  # type: ignore[attr-defined]


# --------------------------------------------------------------------- API
def test_games_lists_every_game_with_options_meanings_and_bots(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        games = {g["name"]: g for g in c.get("/api/games").json()}
    assert {"durak", "durak-perevodnoy", "pyanitsy", "opendaum-33"} <= set(games)
    durak = games["durak"]
    assert "random" in durak["bots"]
    opt = {o["name"]: o for o in durak["options"]}
    assert opt["games"]["help"]["ru"] and opt["games"]["defaults"]["2"] == 1
    assert {o["name"]: o for o in games["pyanitsy"]["options"]}["end"]["choices"] == \
        ["all", "first_elimination"]


def test_pages_and_static_files_are_served(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        page = c.get("/")
        assert "lobby.js" in page.text
        assert "default-src 'self'" in page.headers["content-security-policy"]
        assert "table.js" in c.get("/t/abc").text
        assert c.get("/static/cards/ru/QS.svg").text.startswith("<svg")
        assert c.get("/static/js/table.js").status_code == 200
        texts = c.get("/api/texts").json()
        assert texts["ru"]["your_move"] == "Ваш ход"
        rules = c.get("/api/rules/durak-perevodnoy?lang=ru").json()
        assert rules["lang"] == "ru" and rules["text"].startswith("#")
        assert c.get("/api/rules/chess").status_code == 404


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"game": "chess", "seats": [{"kind": "person"}] * 2}, 400, "unknown game"),
    ({"game": "durak", "players": 9, "seats": [{"kind": "person"}] * 9}, 400, "played by"),
    ({"game": "durak", "players": 2, "seats": [{"kind": "person"}] * 2,
      "options": {"games": 0}}, 400, "games"),
    ({"game": "durak", "players": 2, "seats": [{"kind": "person"}] * 2,
      "options": {"colour": 1}}, 400, "no option"),
    ({"game": "durak", "players": 3, "seats": [{"kind": "person"}] * 2}, 400, "seat(s)"),
    ({"game": "durak", "players": 2, "seats": [{"kind": "ghost"}] * 2}, 400, "kind"),
    ({"game": "durak", "players": 2, "seats": [{"kind": "computer"}] * 2, "sit": 0,
      "name": "A"}, 400, "not a seat for a person"),
    ({"game": "durak", "players": 2, "seats": [{"kind": "person"}] * 2, "sit": 0}, 400,
     "name"),
    ({"game": "durak", "players": 2, "seats": [{"kind": "person"}] * 2,
      "settings": {"away_policy": "panic"}}, 400, "away_policy"),
    ({"game": "durak", "players": 2, "seats": [{"kind": "person"}] * 2,
      "settings": {"away_timeout": 0}}, 400, "away_timeout"),
    ({"game": "durak", "players": 2, "seats": [{"kind": "person"}] * 2, "colour": "red"},
     422, "colour"),
])
def test_create_refuses_bad_tables_with_a_reason(tmp_path: Path, body: dict[str, Any],
                                                 status: int, words: str) -> None:
    with client_for(tmp_path) as c:
        res = c.post("/api/tables", json=body)
        assert res.status_code == status
        assert words in res.text
        assert c.get("/api/tables").json() == []


def test_a_bot_the_game_lacks_falls_back_to_random_with_a_note(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        made = create(c, "dreyfus", 3, seats=[{"kind": "person"},
                                               {"kind": "computer", "bot": "search:hard"},
                                               {"kind": "computer", "bot": "random"}])
        seats = made["table"]["seats"]
        if "search:hard" not in c.get("/api/games").json()[0]["bots"]:
            assert seats[1]["bot"] == "random"
            assert any("search:hard" in n for n in made["notes"])
        assert seats[2]["bot"] == "random"


def test_lobby_lists_open_tables_and_sitting_takes_a_seat_once(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        made = create(c, "durak", 3, seats=[{"kind": "person"}, {"kind": "person"},
                                              {"kind": "computer", "bot": "random"}])
        tid = made["id"]
        lobby = c.get("/api/tables").json()
        assert [t["id"] for t in lobby] == [tid]
        assert lobby[0]["open_seats"] == [1]
        token = sit(c, tid, 1, "Boris")
        assert token != made["token"] and len(token) >= 30
        again = c.post(f"/api/tables/{tid}/sit", json={"seat": 1, "name": "Vera"})
        assert again.status_code == 409 and "taken" in again.text
        robot = c.post(f"/api/tables/{tid}/sit", json={"seat": 2, "name": "Vera"})
        assert robot.status_code == 409 and "computer" in robot.text
        assert c.post(f"/api/tables/{tid}/sit", json={"seat": 7, "name": "V"}).status_code \
            == 404
        assert c.post("/api/tables/nope/sit", json={"seat": 0, "name": "V"}).status_code \
            == 404
        assert c.get(f"/api/tables/{tid}").json()["open_seats"] == []
        # the record would show every hand: closed until the match is over
        assert c.get(f"/api/tables/{tid}/record").status_code == 403


# ------------------------------------------------------------------ playing
def test_two_people_play_a_durak_match_to_its_end_and_it_is_stored(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        tid, socks, frames = two_seated(c, "durak")
        watcher = Sock(c, tid, None, frames)
        assert watcher.seat is None
        assert socks[0].seat == 0 and socks[1].seat == 1
        n = play(socks, random.Random(5))
        assert n > 10
        final = watcher.until(lambda s: s["view"]["match_over"])
        assert final["result"]["winners"] is not None
        final = socks[0].until(lambda s: s["game_id"] is not None)
        record = c.get(f"/api/tables/{tid}/record").json()
        assert len(record["actions"]) == n
        assert [s["name"] for s in record["seats"]] == ["Anna", "Boris"]
        for s in [*socks.values(), watcher]:
            s.close()
        assert leaks(record, frames) == []
    store = Store(db_url(tmp_path))
    try:
        (game,) = store.history()
        assert game.id == final["game_id"] and game.names == ["Anna", "Boris"]
        stats = store.stats("Anna")
        assert stats is not None and stats.games[0].played == 1
    finally:
        store.close()


def test_an_opendaum_33_match_moves_the_players_ranks(tmp_path: Path) -> None:
    """Finished at a table, stored as in the terminal: history, statistics, ranks."""
    with client_for(tmp_path) as c:
        made = create(c, "opendaum-33", 3)
        tid = made["id"]
        socks = {0: Sock(c, tid, made["token"]), 1: Sock(c, tid, sit(c, tid, 1, "Boris")),
                 2: Sock(c, tid, sit(c, tid, 2, "Vera"))}
        play(socks, random.Random(1))
        socks[0].until(lambda s: s["game_id"] is not None)
    store = Store(db_url(tmp_path))
    try:
        for name in ("Anna", "Boris", "Vera"):
            assert store.rank_of(name) is not None
        (game,) = store.history()
        assert game.game == "opendaum-33" and len(game.rank_changes) == 3
    finally:
        store.close()


def test_every_accepted_action_is_in_the_database_before_it_is_acknowledged(
        tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        tid, socks, _ = two_seated(c, "durak")
        rng = random.Random(1)
        for _ in range(6):
            st = socks[0].state
            assert st is not None
            mover = st["view"]["to_move"]
            mine = socks[mover].until(lambda s, v=st["version"]: s["version"] == v)
            ok = socks[mover].act(rng.choice(mine["legal"]))
            assert ok["type"] == "ok"
            with sqlite3.connect(tmp_path / "koloda.db") as db:
                (count,) = db.execute("select count(*) from web_actions where table_id = ?",
                                      (tid,)).fetchone()
            assert count == ok["version"]
            for s in socks.values():
                s.until(lambda x, v=ok["version"]: x["version"] == v)


def test_an_action_the_database_refuses_is_refused_and_changes_nothing(
        tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        tid, socks, _ = two_seated(c, "durak")
        writer = c.app.state.manager.writer  # type: ignore[attr-defined]
        real = writer.add_action

        async def broken(*args: Any) -> None:
            raise OSError("disk full")
        writer.add_action = broken
        mover = socks[0].state["view"]["to_move"]
        move = socks[mover].state["legal"][0]
        r = socks[mover].act(move)
        assert r["code"] == "server_error" and "nothing changed" in r["reason"]
        _unchanged(c, tid, 0)
        writer.add_action = real
        assert socks[mover].act(move)["type"] == "ok"
        assert server_table(c, tid).version == 1


def test_a_seat_sees_its_hand_and_a_spectator_sees_no_hand(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        tid, socks, _ = two_seated(c, "durak")
        watcher = Sock(c, tid, None)
        match = server_table(c, tid).match
        assert socks[0].state["view"]["hand"] == match.observation(0)["hand"]
        assert socks[1].state["view"]["hand"] == match.observation(1)["hand"]
        assert "hand" not in watcher.state["view"]
        assert watcher.state["view"]["seat"] is None and watcher.state["legal"] == []
        # (without the table's id: a random id may spell a card, e.g. "6HS6Nh3J")
        text = json.dumps({**watcher.state, "table": None})
        for card in match.observation(0)["hand"] + match.observation(1)["hand"]:
            if card not in match.observation(0)["known_cards"][0] + \
                    match.observation(1)["known_cards"][1]:
                assert card not in text
        # only the seat to move is offered moves
        mover = match.to_move
        assert socks[mover].state["legal"] == match.legal_actions()
        assert socks[1 - mover].state["legal"] == []


def test_others_discards_show_face_down_in_the_log(tmp_path: Path) -> None:
    """Mushka discards are private: the log shows the discarder the cards, others "??"."""
    with client_for(tmp_path) as c:
        tid, socks, frames = two_seated(c, "mushka")
        rng = random.Random(3)
        for _ in range(40):
            st = socks[0].state
            if any(a.startswith("discard") for _, a in st["log"]):
                break
            mover = st["view"]["to_move"]
            mine = socks[mover].until(lambda s, v=st["version"]: s["version"] == v)
            legal = [a for a in mine["legal"] if a.startswith("discard")] or mine["legal"]
            ok = socks[mover].act(rng.choice(legal))
            for s in socks.values():
                s.until(lambda x, v=ok["version"]: x["version"] == v)
        entries = {seat: s.state["log"] for seat, s in socks.items()}
        found = [(i, e) for i, e in enumerate(entries[0]) if e[1].startswith("discard")]
        assert found, entries
        i, (who, text) = found[0]
        other = 1 - who
        assert "??" not in text if who == 0 else "??" in text
        mirror = entries[other][i][1] if other in entries else None
        assert mirror is not None and mirror.split()[0] == "discard"
        assert ("??" in mirror) == (other != who)
        table = server_table(c, tid)
        record = table.match.record()
        assert leaks(record, frames) == []


# ------------------------------------------------------------- refusals
def _unchanged(c: TestClient, tid: str, version: int) -> None:
    assert server_table(c, tid).version == version


@pytest.mark.parametrize(("frame", "code"), [
    (b"\x00\x01", "malformed"),
    ("x" * (MAX_MESSAGE + 1), "oversize"),
    ("{not json", "malformed"),
    ("[1, 2]", "malformed"),
    ('"act"', "malformed"),
    (json.dumps({"type": "shout"}), "unknown_type"),
    (json.dumps({"action": "take"}), "unknown_type"),
    (json.dumps({"type": "act", "version": 0, "action": "take", "extra": 1}), "unknown_field"),
    (json.dumps({"type": "act", "action": "take"}), "bad_field"),
    (json.dumps({"type": "act", "version": "0", "action": "take"}), "bad_field"),
    (json.dumps({"type": "act", "version": True, "action": "take"}), "bad_field"),
    (json.dumps({"type": "act", "version": 0, "action": 7}), "bad_field"),
    (json.dumps({"type": "act", "version": 0, "action": "  "}), "bad_field"),
    (json.dumps({"type": "act", "version": 0, "action": "take", "id": {"a": 1}}), "bad_field"),
    (json.dumps({"type": "hello", "token": 5}), "bad_field"),
])
def test_malformed_messages_are_refused_and_change_nothing(tmp_path: Path, frame: Any,
                                                           code: str) -> None:
    with client_for(tmp_path) as c:
        tid, socks, _ = two_seated(c, "durak")
        mover = socks[0].state["view"]["to_move"]
        s = socks[mover]
        if isinstance(frame, bytes):
            s.ws.send_bytes(frame)
        else:
            s.send(frame)
        msg = s.expect("refused")
        assert msg["code"] == code and msg["reason"]
        _unchanged(c, tid, 0)
        # the connection still works afterwards
        assert s.act(s.state["legal"][0])["type"] == "ok"


def test_acting_before_hello_and_with_a_bad_token_is_refused(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        made = create(c, "durak")
        tid = made["id"]
        other = create(c, "durak")
        raw = Sock(c, tid, None, hello=False)
        raw.send({"type": "act", "version": 0, "action": "take"})
        assert raw.expect("refused")["code"] == "no_hello"
        raw.send({"type": "hello", "token": "guessed-token"})
        assert raw.expect("refused")["code"] == "bad_token"
        raw.send({"type": "hello", "token": other["token"]})   # another table's token
        assert raw.expect("refused")["code"] == "bad_token"
        raw.send({"type": "hello", "token": made["token"]})
        assert raw.expect("welcome")["seat"] == 0
        raw.send({"type": "hello", "token": made["token"]})
        assert raw.expect("refused")["code"] == "bad_field"
        _unchanged(c, tid, 0)


def test_game_refusals_name_their_reason_and_change_nothing(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        tid, socks, _ = two_seated(c, "durak")
        watcher = Sock(c, tid, None)
        match = server_table(c, tid).match
        mover = match.to_move
        waiting = 1 - mover
        before = json.dumps(match.observation(mover).to_json())
        # a spectator
        r = watcher.act("take", 0)
        assert r["code"] == "spectator"
        # the seat not to move (its token acts for its own seat only)
        r = socks[waiting].act(match.legal_actions()[0], 0)
        assert r["code"] == "not_your_turn" and f"seat {mover + 1}" in r["reason"]
        # stale version
        r = socks[mover].act(match.legal_actions()[0], 5)
        assert r["code"] == "stale" and "version 5" in r["reason"]
        assert "вы видели состояние 5" in r["reason_ru"]
        # illegal: the engine's own reason
        hand = match.observation(mover)["hand"]
        bad = "beat AS 6S" if match.observation(mover)["phase"] == "defend" else \
            f"attack {hand[0]} {hand[1]} {hand[2]}"
        try:
            match.current.apply(bad)
            raise AssertionError("expected the engine to refuse")
        except IllegalAction as exc:
            engine_reason, russian = str(exc), exc.render("ru")
        match.current._legal = None  # the failed apply cached nothing; be explicit
        r = socks[mover].act(bad, 0)
        assert r["code"] == "illegal" and r["reason"] == engine_reason
        assert r["reason_ru"] == russian and russian != engine_reason    # the player's language
        r = socks[mover].act("dance wildly", 0)
        assert r["code"] == "illegal"
        _unchanged(c, tid, 0)
        assert json.dumps(match.observation(mover).to_json()) == before


def test_a_finished_match_refuses_every_action(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        _, socks, _ = two_seated(c, "pyanitsy", options={"deck": 36, "round_cap": 3})
        play(socks, random.Random(2))
        r = socks[0].act("flip")
        assert r["code"] == "over"


def test_a_finished_table_is_read_back_after_it_left_memory(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        tid, socks, _ = two_seated(c, "pyanitsy", options={"deck": 36, "round_cap": 3})
        play(socks, random.Random(2))
        socks[0].until(lambda s: s["game_id"] is not None)
        version = server_table(c, tid).version
        del c.app.state.manager.tables[tid]  # type: ignore[attr-defined]
        assert c.get(f"/api/tables/{tid}").json()["finished"] is True
        watcher = Sock(c, tid, None)
        assert watcher.state["version"] == version and watcher.state["view"]["match_over"]
        assert c.get("/api/tables/nothing-here").status_code == 404
        lost = Sock(c, "nothing-here", None, hello=False)
        assert lost.expect("refused")["code"] == "no_table"


# ------------------------------------------------- tokens and reconnection
def test_reconnecting_with_the_token_resumes_the_seat(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        made = create(c, "durak", settings={"away_policy": "wait", "away_timeout": 1})
        tid = made["id"]
        t1 = sit(c, tid, 1, "Boris")
        socks = {0: Sock(c, tid, made["token"]), 1: Sock(c, tid, t1)}
        play(socks, random.Random(7), steps=4)
        version = socks[0].state["version"]
        mover = socks[0].state["view"]["to_move"]
        socks[mover].close()
        seats = socks[1 - mover].expect("seats")["seats"]
        assert seats[mover]["away"] and not seats[mover]["connected"]
        time.sleep(1.3)   # longer than away_timeout: the "wait" table waits
        assert server_table(c, tid).version == version
        # another device with the token: the same seat, the same state
        back = Sock(c, tid, made["token"] if mover == 0 else t1)
        assert back.seat == mover and back.state["version"] == version
        assert back.state["legal"] == server_table(c, tid).match.legal_actions()
        assert back.act(back.state["legal"][0])["type"] == "ok"


def test_an_away_seat_is_taken_over_by_a_computer_after_the_timeout(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        made = create(c, "durak", settings={"away_policy": "computer", "away_timeout": 1,
                                            "away_bot": "random"})
        tid = made["id"]
        t1 = sit(c, tid, 1, "Boris")
        s0 = Sock(c, tid, made["token"])
        s1 = Sock(c, tid, t1)
        mover = s0.state["view"]["to_move"]
        (s0, s1)[mover].close()
        stay = (s0, s1)[1 - mover]
        st = stay.until(lambda s: s["version"] >= 1, timeout=10)
        assert st["version"] >= 1
        seats = server_table(c, tid).seats_json()
        assert seats[mover]["away"]


def test_computer_seats_play_in_the_pool_without_a_person_waiting(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        made = create(c, "durak", 3, seats=[{"kind": "person"},
                                             {"kind": "computer", "bot": "random"},
                                             {"kind": "computer", "bot": "heuristic"}])
        me = Sock(c, made["id"], made["token"])
        rng = random.Random(4)
        seen = -1
        while True:
            st = me.until(lambda s, v=seen: s["version"] > v and (
                s["view"]["to_move"] == 0 or s["view"]["match_over"]), timeout=30)
            if st["view"]["match_over"]:
                break
            assert st["legal"]
            assert me.act(rng.choice(st["legal"]))["type"] == "ok"
            seen = st["version"]
        record = c.get(f"/api/tables/{made['id']}/record").json()
        assert {s["kind"] for s in record["seats"]} == {"human", "bot"}
        assert leaks(record, me.frames) == []


# ------------------------------------------------------------------ restart
def test_a_restart_resumes_every_unfinished_table_mid_deal(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        tid, socks, _ = two_seated(c, "opendaum", players=2)
        made_tokens = server_table(c, tid).seats
        play(socks, random.Random(11), steps=7)
        before = server_table(c, tid)
        version = before.version
        deal = before.match.observation(0)["deal_number"]
        views = {s: before.match.observation(s) for s in (0, 1)}
        legal = before.match.legal_actions()
        hashes = [s.token_hash for s in made_tokens]
        for s in socks.values():
            s.close()
    # the server stops; a new one starts on the same database
    with client_for(tmp_path) as c:
        after = server_table(c, tid)
        assert after is not None and after.version == version
        assert after.match.observation(0)["deal_number"] == deal
        assert {s: after.match.observation(s) for s in (0, 1)} == views
        assert after.match.legal_actions() == legal
        assert [s.token_hash for s in after.seats] == hashes
        assert [t["id"] for t in c.get("/api/tables").json()] == [tid]


def test_the_same_token_plays_on_after_a_restart(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        made = create(c, "durak")
        tid = made["id"]
        t1 = sit(c, tid, 1, "Boris")
        socks = {0: Sock(c, tid, made["token"]), 1: Sock(c, tid, t1)}
        play(socks, random.Random(3), steps=5)
        for s in socks.values():
            s.close()
    with client_for(tmp_path) as c:
        socks = {0: Sock(c, tid, made["token"]), 1: Sock(c, tid, t1)}
        assert socks[0].seat == 0 and socks[0].state["version"] == 5
        play(socks, random.Random(3))
        assert socks[0].state["view"]["match_over"]
        socks[0].until(lambda s: s["game_id"] is not None)
        assert c.get("/api/tables").json() == []   # finished: off the lobby


def test_computer_players_think_in_worker_processes() -> None:
    """The pool the server uses by default: a decision made in another process."""
    import asyncio
    import os

    from koloda import new_game
    from koloda.web.bots import BotPool, bots_for

    match = new_game("durak", players=2, seed=9)
    seat = match.to_move
    assert seat is not None
    level = "heuristic" if "heuristic" in bots_for("durak") else "random"

    async def decide() -> tuple[str, int]:
        pool = BotPool(1)
        try:
            loop = asyncio.get_running_loop()
            worker_pid = await loop.run_in_executor(pool._executor(), os.getpid)
            action = await pool.choose(level, "durak", match.observation(seat),
                                       match.legal_actions(), 1)
            return action, worker_pid
        finally:
            pool.close()

    action, pid = asyncio.run(decide())
    assert action in match.legal_actions()
    assert pid != os.getpid()


def test_koloda_serve_is_a_command() -> None:
    from typer.testing import CliRunner

    from koloda.cli.main import app
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--db" in result.output and "--bot-workers" in result.output
