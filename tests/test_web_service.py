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


# ------------------------------------------------------ a client reading too slowly
def test_a_connection_whose_send_queue_fills_is_closed_once_and_detached(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A client that never reads: its queue fills; it is closed (the page reconnects),
    its seat no longer shows connected, and one line is logged — not one per message."""
    import asyncio

    from koloda.web.conn import Conn
    from koloda.web.tables import TableManager

    async def scenario() -> tuple[list[int], Any, int, bool]:
        manager = TableManager(f"sqlite:///{tmp_path / 'k.db'}", bot_workers=0,
                               bot_delay=0, use_store=False)
        await manager.start()
        try:
            table, _token, _ = await manager.create(
                "durak", 2, {}, [{"kind": "person"}, {"kind": "person"}], "Anna", 0, {})
            closed: list[int] = []
            stuck = asyncio.Event()

            async def send(_text: str) -> None:
                await stuck.wait()           # the client never reads

            async def close(code: int = 1000) -> None:
                closed.append(code)
            conn = Conn(send, close, client="10.0.0.9")
            manager.attach(table, conn, 0)
            for _ in range(Conn.QUEUE * 3):
                table.broadcast_state()
                conn.push("x")
            await asyncio.sleep(0.05)
            seats = table.seats_json()
            return closed, seats[0], len(table.conns), conn.dead
        finally:
            await manager.stop()

    with caplog.at_level("WARNING", logger="koloda.web"):
        closed, seat0, conns, dead = asyncio.run(scenario())
    assert closed == [Conn.SLOW_CODE]
    assert dead and conns == 0
    assert not seat0["connected"] and seat0["away"]
    slow = [r for r in caplog.records if "reads too slowly" in r.getMessage()]
    assert len(slow) == 1


# ------------------------------------------------------------------ fair computers
def _slow_bot(monkeypatch: pytest.MonkeyPatch, seconds: float, order: list[int]) -> None:
    """Every bot decision takes ``seconds`` (in the pool's threads) and is legal[-1];
    ``order`` gets each decision's seed as it starts."""
    import koloda.web.bots as bots

    def choose(spec: str, game: str, obs: Any, legal: list[str], seed: int) -> str:
        order.append(seed)
        time.sleep(seconds)
        return legal[-1]
    monkeypatch.setattr(bots, "choose", choose)


def test_computers_at_peoples_tables_are_served_before_unwatched_tables(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from koloda.web.bots import NOBODY, PEOPLE, BotPool
    order: list[int] = []
    _slow_bot(monkeypatch, 0.1, order)

    async def scenario() -> None:
        pool = BotPool(0)                       # two threads
        legal = [f"m{i}" for i in range(20)]
        try:
            jobs = [asyncio.create_task(pool.decide("heuristic", "durak", {}, legal, 100 + i,
                                                    NOBODY)) for i in range(8)]
            await asyncio.sleep(0.02)           # one unwatched decision is running (the
            t0 = time.monotonic()               # other worker is kept for people)
            people = asyncio.create_task(pool.decide("heuristic", "durak", {}, legal, 1,
                                                     PEOPLE))
            await people
            waited.append(time.monotonic() - t0)
            await asyncio.gather(*jobs)
        finally:
            pool.close()
    waited: list[float] = []
    asyncio.run(scenario())
    assert order[:2] == [100, 1], order         # at once, beside the one running
    assert waited[0] < 0.1 + 0.08, waited       # its own decision's time, no queue


def test_a_computer_at_a_peoples_table_never_falls_back_to_random_while_queued(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """40 unwatched tables' computers used to push people's computers past their time
    limit (which counted the wait in the queue) and into random moves."""
    import asyncio

    import koloda.web.bots as bots
    order: list[int] = []
    _slow_bot(monkeypatch, 0.1, order)
    monkeypatch.setattr(bots, "hard_limit", lambda spec: 0.4)   # 4 decisions' time

    async def scenario() -> tuple[list[str], int]:
        pool = bots.BotPool(0)
        legal = [f"m{i}" for i in range(20)]
        try:
            jobs = [pool.decide("search:hard", "durak", {}, legal, i, bots.NOBODY)
                    for i in range(12)]
            jobs += [pool.decide("heuristic", "durak", {}, legal, 50 + i, bots.PEOPLE)
                     for i in range(6)]
            got = await asyncio.gather(*jobs)
            return [d.action for d in got], pool.fallbacks
        finally:
            pool.close()
    actions, fallbacks = asyncio.run(scenario())
    assert fallbacks == 0
    assert actions == ["m19"] * 18                 # every one the bot's own


def test_an_overloaded_machine_tells_the_page_why_a_computer_played_at_random(
        tmp_path: Path) -> None:
    from tests.test_web import Sock
    with client_for(tmp_path) as c:
        pool = c.app.state.manager.pool  # type: ignore[attr-defined]
        pool.slots, pool.max_wait = 0, 0.05          # no worker ever free: overloaded
        made = create(c, "durak", 2, seats=[{"kind": "person"},
                                             {"kind": "computer", "bot": "heuristic"}])
        me = Sock(c, made["id"], made["token"])
        seen = -1
        while True:
            st = me.until(lambda s, v=seen: s["version"] > v, timeout=10)
            if st["view"]["to_move"] == 1 or st["view"]["match_over"]:
                seen = st["version"]
                continue
            if st["version"] > 0 and st["notice"] is not None:
                break
            assert me.act(st["legal"][0])["type"] == "ok"
            seen = st["version"]
        assert st["notice"]["code"] == "overloaded"
        assert "overloaded" in st["notice"]["en"] and "перегружен" in st["notice"]["ru"]
        assert pool.fallbacks >= 1


# ------------------------------------------------------------- presence fan-out
@pytest.mark.slow
def test_spectators_joining_and_leaving_cost_frames_linear_not_quadratic(
        tmp_path: Path) -> None:
    """Every join or leave used to send a ``seats`` frame to every connection: 2 000
    spectators took 17 s to open and stalled the loop for every table. Now one frame per
    table per short tick carries all of them."""
    import asyncio

    from koloda.web import table as web_table
    from koloda.web.conn import Conn
    from koloda.web.tables import TableManager
    n = 1500

    async def scenario() -> tuple[int, float, list[int], int]:
        manager = TableManager(f"sqlite:///{tmp_path / 'k.db'}", bot_workers=0,
                               bot_delay=0, use_store=False)
        await manager.start()
        seats_frames = 0
        last_count: dict[int, int] = {}
        try:
            table, _, _ = await manager.create(
                "durak", 2, {}, [{"kind": "person"}, {"kind": "person"}], "Anna", 0, {})
            conns = []

            def sender(i: int) -> Any:
                async def send(text: str) -> None:
                    nonlocal seats_frames
                    if text.startswith('{"type":"seats"'):
                        seats_frames += 1
                        last_count[i] = int(text.rsplit('"spectators":', 1)[1].rstrip("}"))
                return send
            start = time.perf_counter()
            for i in range(n):
                conn = Conn(sender(i))
                manager.attach(table, conn, None)
                conns.append(conn)
                if i % 100 == 0:
                    await asyncio.sleep(0)      # the clients arrive over a few ticks
            busy = time.perf_counter() - start
            # the gathering delay, then the fan-out's rounds: one under way, then the
            # newest, each reaching the last spectator n / FAN_RATE after the first
            settle = min(web_table.PRESENCE_MAX,
                         max(web_table.PRESENCE_DELAY, n / web_table.PRESENCE_RATE)) + 0.25 \
                + 2 * n / web_table.FAN_RATE
            await asyncio.sleep(settle)
            joined = [last_count.get(i, -1) for i in range(0, n, 300)]
            for conn in conns[: n // 2]:
                manager.detach(conn)
            await asyncio.sleep(settle)
            left = table.info()["spectators"]
            return seats_frames, busy, joined, left
        finally:
            await manager.stop()
    frames, busy, joined, left = asyncio.run(scenario())
    assert frames <= 6 * n, frames            # n joins + n/2 leaves: a few frames each
    assert joined == [n] * len(joined)        # everyone's latest frame counts them all
    assert left == n - n // 2
    assert busy < 2.0, busy


# ------------------------------------------------------------------ the last check
def test_ok_and_refused_frames_pass_the_hidden_card_check(tmp_path: Path) -> None:
    """A refusal that names a card the receiver cannot know (here: the engine echoing
    an attack with the opponent's card) shows it face down, as every state does."""
    from tests.test_web import two_seated
    with client_for(tmp_path) as c:
        tid, socks, _ = two_seated(c, "durak")
        match = server_table(c, tid).match
        mover = match.to_move
        theirs = match.observation(1 - mover)["hand"]
        known = match.observation(mover)["known_cards"][1 - mover]
        secret = next(card for card in theirs if card not in known)
        if match.observation(mover)["phase"] == "defend":
            pytest.skip("the deal starts with a defence")
        r = socks[mover].act(f"attack {secret}")
        assert r["type"] == "refused" and r["code"] == "illegal"
        assert secret not in r["reason"] and "??" in r["reason"], r
        assert secret not in r["reason_ru"]
        ok = socks[mover].act(socks[mover].state["legal"][0])
        assert ok["type"] == "ok"


def test_a_stand_in_thinking_about_a_gone_state_does_not_hold_up_the_next_computer(
        tmp_path: Path) -> None:
    """The person came back and moved while their stand-in still waited for a worker:
    the computer after them plays at once, instead of after the stale stand-in."""
    from tests.test_web import Sock
    with client_for(tmp_path) as c:
        pool = c.app.state.manager.pool  # type: ignore[attr-defined]
        pool.slots, pool.max_wait = 0, 30.0          # the stand-in's decision never starts
        made = create(c, "durak", 2, seats=[{"kind": "person"},
                                             {"kind": "computer", "bot": "random"}],
                      settings={"away_policy": "computer", "away_timeout": 1,
                                "away_bot": "heuristic"})
        table = server_table(c, made["id"])
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not (
                table.match.to_move == 0 and len(table.match.legal_actions()) > 1
                and table.bot_task is not None and not table.bot_task.done()):
            time.sleep(0.02)
        stand_in = table.bot_task
        assert stand_in is not None and not stand_in.done()   # waits for a worker
        me = Sock(c, made["id"], made["token"])
        while True:
            st = me.until(lambda s: s["view"]["to_move"] == 0 and bool(s["legal"]))
            answer = me.act(st["legal"][0])
            assert answer["type"] == "ok"
            now = me.until(lambda s, v=answer["version"]: s["version"] >= v)
            if now["view"]["to_move"] == 1 or now["view"]["match_over"]:
                break
        start = time.monotonic()
        after = me.until(lambda s, v=answer["version"]: s["version"] > v
                         or s["view"]["match_over"], timeout=5)
        assert time.monotonic() - start < 2, "the computer waited for the stale stand-in"
        assert stand_in.cancelled() or stand_in.done()
        assert after is not None
