"""Load on the web server: N concurrent tables played over websockets on loopback.

Not a test: run it by hand and read the figures. It starts ``koloda serve`` on
127.0.0.1 with a fresh SQLite database (or uses ``--url``, which must be a loopback
address), creates N tables whose every seat is a client of this script, and each client
plays random legal moves as fast as it is allowed to (or after ``--think`` seconds, as a
person would). When a match ends its table is replaced, so N tables stay in play for the
whole run. Printed: actions/s and the latency of one action — from sending ``act`` to
its ``ok``, which the server sends only after the action is stored in the database — at
p50, p90, p99 and max.

    python benchmarks/web_load.py --tables 200 --seconds 30
    python benchmarks/web_load.py --tables 200 --seconds 30 --think 1.0
    python benchmarks/web_load.py --compare --tables 50 --seconds 20 \
        --pg postgresql://user:pw@127.0.0.1/db --redis redis://127.0.0.1:6379/0
    python benchmarks/web_load.py --tables 50 --seconds 20 --spectators 1000

``--compare`` runs the same load on one process (SQLite, then PostgreSQL + Redis) and on
``--processes`` processes (PostgreSQL + Redis; a table's seats play on different servers),
with and without computer seats, and prints actions/s and p50/p99 side by side.
``--spectators N`` runs twice, without and with one more table watched by N spectators,
and prints how much that crowd delays the other tables' moves.

The script's clients share the machine with the server (2 cores here): the figures are
for both together. Every request loop is bounded by ``--seconds``; it stops by itself.

All of its tables come from one address, so the server it starts runs without the
per-client limits (``Limits.unlimited()``); a server given with ``--url`` keeps its own:
creations refused 429/503 are tried again (honouring Retry-After) and acts refused
``rate_limited`` are sent again after a pause — the figures then show the limits. The
server's CPU per action comes from its ``/api/stats`` (bot workers included), so it is
there with ``--url`` too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

import httpx
import orjson
import websockets

LOOPBACK = ("127.0.0.1", "localhost", "::1")


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)
    finished: int = 0
    created: int = 0
    frames: int = 0
    bytes: int = 0
    errors: list[str] = field(default_factory=list)
    #: requests to create a table or take a seat that were tried again
    retries: int = 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def seat_client(ws_url: str, token: str, seed: int, think: float, stats: Stats,
                      stop_at: float) -> bool:
    """Play one seat until its match ends (True) or the time is up (False)."""
    rng = random.Random(seed)
    async with websockets.connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        acted = -1
        sent = 0.0
        last: str | None = None
        async for raw in ws:
            stats.frames += 1
            stats.bytes += len(raw)
            msg = orjson.loads(raw)      # the clients' own cost kept small: it is
            kind = msg["type"]           # the servers' the run measures
            if kind == "ok":
                stats.latencies.append(time.perf_counter() - sent)
            elif kind == "refused":
                stats.refused[msg["code"]] = stats.refused.get(msg["code"], 0) + 1
                if msg["code"] == "rate_limited" and last is not None:
                    # a server with per-client limits: slow down, send it again
                    if time.monotonic() >= stop_at:
                        return False
                    await asyncio.sleep(0.2)
                    sent = time.perf_counter()
                    await ws.send(last)
            elif kind == "state":
                if msg["view"]["match_over"]:
                    return True
                if time.monotonic() >= stop_at:
                    return False
                if msg["legal"] and msg["version"] != acted:
                    acted = msg["version"]
                    if think:
                        await asyncio.sleep(rng.expovariate(1 / think))
                    sent = time.perf_counter()
                    last = json.dumps({"type": "act", "version": msg["version"],
                                       "action": rng.choice(msg["legal"]),
                                       "id": msg["version"]})
                    await ws.send(last)
    return False


async def bounded(client: Any, stop_at: float) -> bool:
    """A seat client, given up 3 s after the run's end whatever it waits for."""
    try:
        return bool(await asyncio.wait_for(client, max(1.0, stop_at - time.monotonic()
                                                       + 3)))
    except TimeoutError:
        return False


async def post_retrying(http: httpx.AsyncClient, url: str, body: dict, stats: Stats,
                        stop_at: float) -> httpx.Response:
    """POST, tried again (honouring Retry-After) while the server says 429 or 5xx or the
    connection fails, until the run's end."""
    wait = 0.2
    while True:
        try:
            res = await http.post(url, json=body)
        except httpx.HTTPError as exc:
            problem: str = f"{type(exc).__name__}: {exc}"
        else:
            if res.status_code < 500 and res.status_code != 429:
                res.raise_for_status()
                return res
            problem = f"{res.status_code} {res.text[:200]}"
            after = res.headers.get("retry-after")
            if after and after.isdigit():
                wait = max(wait, float(after))
        if time.monotonic() + wait >= stop_at:
            raise RuntimeError(f"{url}: gave up at the end of the run: {problem}")
        stats.retries += 1
        await asyncio.sleep(wait * random.uniform(0.5, 1.5))
        wait = min(wait * 2, 5.0)


async def table_driver(https: list[httpx.AsyncClient], ws_bases: list[str], game: str,
                       players: int, index: int, think: float, stats: Stats,
                       stop_at: float, computers: bool = False) -> None:
    """Keep one table in play: create it, sit every seat, play; again when it ends.
    With many servers the table is made on one and its seats play on different ones
    (seat s of table i on server i + s), so every move crosses between servers; with
    ``computers`` every seat but the first is a computer (random, no delay)."""
    round_ = 0
    n = len(https)
    while time.monotonic() < stop_at:
        http = https[index % n]
        seats = [{"kind": "person"}] + [{"kind": "computer", "bot": "random"}
                                        if computers else {"kind": "person"}
                                        for _ in range(players - 1)]
        res = await post_retrying(http, "/api/tables", {
            "game": game, "players": players, "seats": seats,
            "sit": 0, "name": f"t{index}s0"}, stats, stop_at)
        made = res.json()
        tokens = [made["token"]]
        for seat in range(1, 1 if computers else players):
            r = await post_retrying(https[(index + seat) % n],
                                    f"/api/tables/{made['id']}/sit",
                                    {"seat": seat, "name": f"t{index}s{seat}"}, stats,
                                    stop_at)
            tokens.append(r.json()["token"])
        stats.created += 1
        done = await asyncio.gather(*(bounded(seat_client(
            f"{ws_bases[(index + s) % n]}/ws/tables/{made['id']}", tok,
            index * 1000 + round_ * 10 + s, think, stats, stop_at), stop_at)
            for s, tok in enumerate(tokens)))
        if all(done):
            stats.finished += 1
        round_ += 1


async def spectator(ws_url: str, frames: list[int]) -> None:
    """Watch a table until cancelled, counting the frames it is sent."""
    async with websockets.connect(ws_url, max_size=2**22, open_timeout=120) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        async for _ in ws:
            frames[0] += 1


async def crowd_loop(urls: list[str], pipe: Any) -> None:
    """The crowd's own process: open every spectator, say "connected" once each has its
    welcome, then count frames; "reset" zeroes the count, "stop" answers it and ends."""
    frames = [0]
    watchers = []
    for i, url in enumerate(urls):
        watchers.append(asyncio.create_task(spectator(url, frames)))
        if i % 100 == 99:
            await asyncio.sleep(0.05)
    while frames[0] < len(urls) and not any(t.done() for t in watchers):
        await asyncio.sleep(0.1)
    broken = [t for t in watchers if t.done()]
    pipe.send(("connected", len(urls) - len(broken),
               [repr(t.exception()) for t in broken[:3]]))
    loop = asyncio.get_running_loop()
    said: asyncio.Queue[str] = asyncio.Queue()
    loop.add_reader(pipe.fileno(), lambda: said.put_nowait(pipe.recv()))
    while (word := await said.get()) != "stop":
        if word == "reset":
            frames[0] = 0
    pipe.send(("frames", frames[0]))
    for t in watchers:
        t.cancel()
    await asyncio.gather(*watchers, return_exceptions=True)


def crowd_main(urls: list[str], pipe: Any, nice: int) -> None:
    if nice:
        os.nice(nice)
    asyncio.run(crowd_loop(urls, pipe))


class Crowd:
    """N spectators in a process of their own: a real crowd is on other machines, and
    1 000 clients in this script's event loop would delay its players' clients (and so
    the latencies it measures) by their own work, not by the server's. ``nice`` lowers
    its priority, so that on a machine of few cores its reading takes less CPU from the
    server than a crowd elsewhere would (none); its CPU is printed."""

    def __init__(self, urls: list[str], nice: int) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.pipe, child = ctx.Pipe()
        self.proc = ctx.Process(target=crowd_main, args=(urls, child, nice), daemon=True)
        self.proc.start()

    async def said(self, timeout: float) -> Any:
        deadline = time.monotonic() + timeout
        while not self.pipe.poll():
            if time.monotonic() > deadline or not self.proc.is_alive():
                raise RuntimeError("the spectators' process did not answer")
            await asyncio.sleep(0.05)
        return self.pipe.recv()

    async def stop(self) -> int:
        """End the crowd; the frames it received since the last reset."""
        try:
            self.pipe.send("stop")
            _, frames = await self.said(30)
            return int(frames)
        finally:
            self.proc.join(10)
            if self.proc.is_alive():
                self.proc.kill()


async def watched_table(https: list[httpx.AsyncClient], ws_bases: list[str], game: str,
                        players: int, crowd: int, stats: Stats,
                        stop_at: float, crowd_nice: int) -> tuple[Crowd, list[Any]]:
    """One more table, watched by ``crowd`` spectators (spread over the servers, in a
    process of their own) who are all connected before the load starts; its people
    think 0.2 s a move. Returns the crowd and the tasks that play it."""
    n = len(https)
    res = await post_retrying(https[0], "/api/tables", {
        "game": game, "players": players, "seats": [{"kind": "person"}] * players,
        "sit": 0, "name": "watched0"}, stats, stop_at)
    made = res.json()
    tokens = [made["token"]]
    for seat in range(1, players):
        r = await post_retrying(https[seat % n], f"/api/tables/{made['id']}/sit",
                                {"seat": seat, "name": f"watched{seat}"}, stats, stop_at)
        tokens.append(r.json()["token"])
    path = f"/ws/tables/{made['id']}"
    watchers = Crowd([f"{ws_bases[i % n]}{path}" for i in range(crowd)], crowd_nice)
    _, connected, problems = await watchers.said(300)
    if connected < crowd:
        print(f"only {connected} of {crowd} spectators could connect: {problems}")
    players_ = [asyncio.create_task(bounded(seat_client(
        f"{ws_bases[s % n]}{path}", tok, 99_000 + s, 0.2, Stats(), stop_at), stop_at))
        for s, tok in enumerate(tokens)]
    return watchers, players_


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def sched_seconds(pid: int | None) -> tuple[float, float]:
    """Seconds ``pid``'s main thread (a server's event loop) has run on a CPU, and has
    waited for one while ready to run (``/proc/PID/schedstat``): the second is time the
    machine's other work took from it. (nan, nan) where that cannot be read."""
    if not pid:
        return float("nan"), float("nan")
    try:
        with open(f"/proc/{pid}/task/{pid}/schedstat") as f:
            ran, waited, _ = f.read().split()
    except (OSError, ValueError):
        return float("nan"), float("nan")
    return int(ran) / 1e9, int(waited) / 1e9


def machine_busy() -> tuple[float, float]:
    """The whole machine's CPU seconds busy and in all so far (``/proc/stat``, every
    core): how much of the machine a run used, whoever used it (servers, their database,
    Redis, these clients). (nan, nan) where that cannot be read."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return float("nan"), float("nan")
    tick = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)     # idle and iowait
    total = sum(fields[:8])
    return (total - idle) / tick, total / tick


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU seconds of ``pid`` (None: this process)."""
    if pid is None:
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Outcome:
    """One run's figures, for the side-by-side table."""

    stats: Stats
    elapsed: float
    #: actions every server accepted in the measured span (computers' too)
    accepted: int
    latencies_ms: list[float]
    #: the (first) server's event loop lag, ms: p50, p99, max
    loop_lag_ms: dict[str, Any] = field(default_factory=dict)
    #: the share of the machine's CPU (every core) busy in the measured span
    busy: float = float("nan")


async def all_stats(https: list[httpx.AsyncClient]) -> list[dict[str, Any]]:
    out = []
    for h in https:
        for attempt in range(3):
            try:
                out.append((await h.get("/api/stats")).json())
                break
            except httpx.TransportError:   # a kept-alive connection the server closed
                if attempt == 2:
                    raise
    return out


def summed(stats: list[dict[str, Any]], pids: list[int | None]) -> dict[str, Any]:
    """The servers' /api/stats as one: counts added, the first one's other figures."""
    out = dict(stats[0])
    for key in ("actions_accepted", "transactions"):
        out[key] = sum(s[key] for s in stats)
    out["cpu"] = sum(server_cpu(s, p) for s, p in zip(stats, pids, strict=True))
    fan = [s.get("spectator_fanout") or {} for s in stats]
    out["fan"] = {k: sum(f.get(k, 0) for f in fan) for k in ("frames", "offers",
                                                            "deferred", "cpu_s")}
    return out


async def run(url: str | list[str], tables: int, seconds: float, game: str, players: int,
              think: float, ramp: float, server_pid: int | list[int | None] | None = None,
              computers: bool = False, spectators: int = 0,
              crowd_nice: int = 0) -> Outcome:
    stats = Stats()
    urls = [url] if isinstance(url, str) else url
    pids = server_pid if isinstance(server_pid, list) else [server_pid] * len(urls)
    ws_bases = [u.replace("http://", "ws://", 1) for u in urls]
    limits = httpx.Limits(max_connections=64)
    https = [httpx.AsyncClient(base_url=u, timeout=60, limits=limits) for u in urls]
    watched_frames = 0
    crowd: Crowd | None = None
    try:
        start = time.monotonic()
        stop_at = start + seconds
        drivers = []
        watched: list[Any] = []
        if spectators:
            opened = time.monotonic()
            crowd, watched = await watched_table(https, ws_bases, game, players,
                                                 spectators, stats, stop_at + 300,
                                                 crowd_nice)
            # the crowd's connecting is not part of the run
            stop_at += time.monotonic() - opened
            print(f"{spectators} spectators connected to one more table in "
                  f"{time.monotonic() - opened:.1f} s (in a process of their own)")
            crowd.pipe.send("reset")
        for i in range(tables):
            drivers.append(asyncio.create_task(
                table_driver(https, ws_bases, game, players, i, think, stats, stop_at,
                             computers)))
            if ramp:
                await asyncio.sleep(ramp / tables)
        measured_from = time.monotonic()
        warm = len(stats.latencies)
        before = summed(await all_stats(https), pids)
        cpu0 = (before["cpu"], cpu_seconds(None),
                cpu_seconds(crowd.proc.pid) if crowd else 0.0)
        sched0 = sched_seconds(pids[0]) + sched_seconds(os.getpid())
        machine0 = machine_busy()
        accepted0 = before["actions_accepted"]
        # every driver ends by itself soon after ``stop_at``; one that does not (a socket
        # that never closes) is given up a minute later and counted as an error
        finished, stuck = await asyncio.wait(drivers, timeout=max(1.0, stop_at -
                                                                  time.monotonic() + 60))
        for task in stuck:
            task.cancel()
            stats.errors.append("a table's clients did not end by themselves")
        for task in finished:
            exc = task.exception()
            if exc is not None:
                stats.errors.append(f"{type(exc).__name__}: {exc}")
        elapsed = min(time.monotonic(), stop_at + 3) - measured_from
        server = summed(await all_stats(https), pids)
        cpu1 = (server["cpu"], cpu_seconds(None),
                cpu_seconds(crowd.proc.pid) if crowd else 0.0)
        sched1 = sched_seconds(pids[0]) + sched_seconds(os.getpid())
        machine1 = machine_busy()
        busy = (machine1[0] - machine0[0]) / max(1e-9, machine1[1] - machine0[1])
        for task in watched:
            task.cancel()
        if watched:
            await asyncio.wait(watched, timeout=30)
        if crowd is not None:
            watched_frames = await crowd.stop()
            crowd = None
        done = max(1, server["actions_accepted"] - accepted0)
    finally:
        if crowd is not None:
            crowd.proc.kill()
        for h in https:
            await h.aclose()
    lat = stats.latencies[warm:]
    ms = [x * 1000 for x in lat]
    print(f"{len(urls)} server process(es); tables {tables} ({game}, {players} seats each"
          f"{', all but one computers' if computers else ''}), think {think} s, "
          f"{seconds:.0f} s run, measured {elapsed:.1f} s after the ramp")
    print(f"actions {len(lat)}  actions/s {len(lat) / elapsed:.0f}  "
          f"matches finished {stats.finished}  tables created {stats.created}")
    if ms:
        print(f"latency per action (act → stored → ok), ms: p50 {pct(ms, .5):.1f}  "
              f"p90 {pct(ms, .9):.1f}  p99 {pct(ms, .99):.1f}  max {max(ms):.1f}  "
              f"mean {statistics.fmean(ms):.1f}")
    print(f"frames received {stats.frames} ({stats.bytes / 1e6:.1f} MB)  refused "
          f"{stats.refused or 'none'}  errors {len(stats.errors)}  requests retried "
          f"{stats.retries}")
    print(f"server: {server['actions_accepted']} actions in {server['transactions']} "
          f"transactions ({server['jobs_per_commit']} writes each, commit ms "
          f"{server['commit_ms']}); event loop lag ms {server['loop_lag_ms']}")
    gc0, gc1 = before.get("gc"), server.get("gc")
    if gc0 and gc1:
        passes = [n1 - n0 for n0, n1 in zip(gc0["passes"], gc1["passes"], strict=True)]
        spent = sum(gc1["ms"]) - sum(gc0["ms"])
        print(f"server's garbage collector in the run: passes by generation {passes}, "
              f"{spent:.0f} ms in all; its longest pass since the start "
              f"{max(gc1['longest_ms'])} ms (generations {gc1['longest_ms']})")
    print(f"event loop threads in the run ({elapsed:.1f} s), on a CPU / ready but waiting "
          f"for one (the machine's other work): server {sched1[0] - sched0[0]:.1f} / "
          f"{sched1[1] - sched0[1]:.1f} s, these clients {sched1[2] - sched0[2]:.1f} / "
          f"{sched1[3] - sched0[3]:.1f} s")
    print(f"CPU per action: server (with its bot workers) "
          f"{(cpu1[0] - cpu0[0]) / done * 1000:.2f} ms, "
          f"these clients {(cpu1[1] - cpu0[1]) / done * 1000:.2f} ms "
          f"(load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores); the "
          f"machine's CPU busy {busy * 100:.0f}% of all its cores")
    if spectators:
        print(f"the watched table's {spectators} spectators received {watched_frames} "
              f"frames during the run (their process: CPU "
              f"{(cpu1[2] - cpu0[2]) / elapsed * 100:.0f}% of a core)")
        fan = {k: server["fan"][k] - before["fan"][k] for k in server["fan"]}
        if fan["offers"]:
            print(f"server's fan-out: {fan['frames']} frames, {fan['offers']} offers "
                  f"({fan['offers'] / elapsed:.0f}/s, {fan['deferred']} to a busy "
                  f"connection), {fan['cpu_s'] / fan['offers'] * 1e6:.1f} µs CPU each, "
                  f"{fan['cpu_s'] / elapsed * 100:.1f}% of the event loop's core")
    for e in stats.errors[:5]:
        print("  error:", e)
    return Outcome(stats, elapsed, done, ms, server["loop_lag_ms"], busy)


def server_cpu(stats: dict, pid: int | None) -> float:
    """The server's CPU seconds so far, with its bot workers: from its own /api/stats
    (so ``--url`` has it too), else from /proc for a server started here."""
    cpu = stats.get("cpu_s")
    if cpu is not None:
        return float(cpu["server"]) + float(cpu.get("bot_workers") or 0)
    return cpu_seconds(pid) if pid else float("nan")


#: the server started here: ``koloda serve`` as it runs, but without the per-client
#: limits (every table of this script comes from one address)
SERVE = """
import sys, uvicorn
from koloda.web.app import create_app
from koloda.web.limits import Limits
port, db, workers, redis = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
uvicorn.run(create_app(db, bot_workers=workers, limits=Limits.unlimited(), bot_delay=0.0,
                       redis_url=redis or None),
            host="127.0.0.1", port=port, log_level="warning", ws_max_size=65536,
            ws_per_message_deflate=False, ws=sys.argv[5])
"""


#: uvicorn's websocket implementation for the servers started here (``--ws``)
WS_IMPL = ["auto"]


def start_server(port: int, db: str, bot_workers: int, redis: str | None = None,
                 wait: bool = True) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-c", SERVE, str(port), db, str(bot_workers),
                             redis or "", WS_IMPL[0]])
    if wait:
        wait_started(proc, port)
    return proc


def wait_started(proc: subprocess.Popen[bytes], port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start")


def fresh_pg_database(url: str) -> tuple[str, str]:
    """A new database on ``url``'s PostgreSQL (its URL and name), so every run starts
    empty; the user must be allowed to create databases."""
    import psycopg
    name = f"koloda_load_{os.getpid()}_{int(time.time() * 1000) % 10**8}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{url.rpartition('/')[0]}/{name}", name


def drop_pg_database(url: str, name: str) -> None:
    import psycopg
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def compare(args: argparse.Namespace) -> None:
    """The same load on one process (SQLite, the default; and PostgreSQL + Redis) and on
    ``--processes`` processes (PostgreSQL + Redis), with and without computer seats;
    the figures side by side at the end."""
    if not (args.pg and args.redis):
        raise SystemExit("--compare needs --pg postgresql://… and --redis redis://… "
                         "(or KOLODA_TEST_PG and KOLODA_TEST_REDIS)")
    setups = [("1 process, SQLite", 1, False), ("1 process, PostgreSQL+Redis", 1, True),
              (f"{args.processes} processes, PostgreSQL+Redis", args.processes, True)]
    rows = []
    for computers in (False, True):
        for label, n, shared in setups:
            tmp = tempfile.mkdtemp(prefix="koloda-load-")
            name = ""
            if shared:
                db, name = fresh_pg_database(args.pg)
            else:
                db = f"sqlite:///{os.path.join(tmp, 'load.db')}"
            ports = [free_port() for _ in range(n)]
            procs = [start_server(p, db, 0, args.redis if shared else None, wait=False)
                     for p in ports]
            try:
                for proc, port in zip(procs, ports, strict=True):
                    wait_started(proc, port)
                print(f"\n=== {label}, {'with' if computers else 'without'} computer seats")
                out = asyncio.run(run([f"http://127.0.0.1:{p}" for p in ports], args.tables,
                                      args.seconds, args.game, args.players, args.think,
                                      args.ramp, [pr.pid for pr in procs], computers))
            finally:
                for proc in procs:
                    proc.terminate()
                for proc in procs:
                    proc.wait(15)
                if name:
                    drop_pg_database(args.pg, name)
            ms = out.latencies_ms
            rows.append((label, "yes" if computers else "no", out.accepted / out.elapsed,
                         len(ms) / out.elapsed, pct(ms, .5), pct(ms, .99),
                         out.busy * 100, len(out.stats.errors)))
    print(f"\n{args.tables} tables of {args.game} ({args.players} seats), "
          f"{args.seconds:.0f} s each, on {os.cpu_count()} cores (clients included)")
    head = ("servers", "computers", "actions/s", "people's acts/s", "p50 ms", "p99 ms",
            "CPU busy", "errors")
    print(f"{head[0]:<30} {head[1]:>9} {head[2]:>10} {head[3]:>16} {head[4]:>8} "
          f"{head[5]:>8} {head[6]:>8} {head[7]:>7}")
    for label, comp, total, people, p50, p99, busy, errors in rows:
        print(f"{label:<30} {comp:>9} {total:>10.0f} {people:>16.0f} {p50:>8.1f} "
              f"{p99:>8.1f} {busy:>7.0f}% {errors:>7}")
    by = {(label.split(",")[0], label.split(", ")[-1], comp): total
          for label, comp, total, *_ in rows}
    for comp in ("no", "yes"):
        one = by.get(("1 process", "PostgreSQL+Redis", comp))
        many = by.get((f"{args.processes} processes", "PostgreSQL+Redis", comp))
        if one and many:
            print(f"{args.processes} processes ÷ 1 process on PostgreSQL+Redis, "
                  f"{'with' if comp == 'yes' else 'without'} computers: {many / one:.2f}×")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--game", default="durak")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--think", type=float, default=0.0,
                    help="mean seconds a client waits before its move (0: at once)")
    ap.add_argument("--ramp", type=float, default=3.0,
                    help="seconds over which the tables are opened")
    ap.add_argument("--url", help="a running server on loopback (default: start one)")
    ap.add_argument("--db", help="database URL for the server started here")
    ap.add_argument("--computers", action="store_true",
                    help="every seat but the first a computer (random, no delay)")
    ap.add_argument("--compare", action="store_true",
                    help="1 process against --processes processes (PostgreSQL + Redis), "
                         "with and without computers, side by side")
    ap.add_argument("--processes", type=int, default=3)
    ap.add_argument("--pg", default=os.environ.get("KOLODA_TEST_PG"),
                    help="PostgreSQL URL for --compare (a fresh database is made there)")
    ap.add_argument("--redis", default=os.environ.get("KOLODA_TEST_REDIS"),
                    help="Redis URL for --compare")
    ap.add_argument("--spectators", type=int, default=0,
                    help="run twice, without and with one more table watched by this many "
                         "spectators, and print how much the crowd delays the other tables")
    ap.add_argument("--ws", default="auto",
                    help="uvicorn's websocket implementation for the servers started here "
                         "(auto, websockets-sansio, websockets, wsproto)")
    ap.add_argument("--crowd-nice", type=int, default=0,
                    help="with --spectators: lower the spectators' process priority by "
                         "this much (19: the lowest), as if the crowd were elsewhere")
    ap.add_argument("--rounds", type=int, default=1,
                    help="with --spectators: this many pairs of runs, alternating (the "
                         "machine's other load then weighs on both alike)")
    args = ap.parse_args()
    WS_IMPL[0] = args.ws
    if args.compare:
        compare(args)
        return
    proc = None
    tmp = None
    if args.url:
        host = urlparse(args.url).hostname or ""
        if host not in LOOPBACK and not host.startswith("127."):
            raise SystemExit("--url must be a loopback address (127.0.0.1, localhost)")
        url = args.url.rstrip("/")
    else:
        tmp = tempfile.mkdtemp(prefix="koloda-load-")
        db = args.db or f"sqlite:///{os.path.join(tmp, 'load.db')}"
        port = free_port()
        proc = start_server(port, db, 0)
        url = f"http://127.0.0.1:{port}"
    try:
        pid = proc.pid if proc is not None else None
        if not args.spectators:
            asyncio.run(run(url, args.tables, args.seconds, args.game, args.players,
                            args.think, args.ramp, pid, args.computers))
            return
        outs: dict[int, list[Outcome]] = {0: [], args.spectators: []}
        runs = 0
        for round_ in range(args.rounds):
            for crowd in (0, args.spectators):
                print(f"\n=== round {round_ + 1}: {crowd} spectators at one more table")
                if runs and proc is not None:
                    # a fresh server for every run: its figures (loop lag) are its own
                    proc.terminate()
                    proc.wait(15)
                    assert tmp is not None
                    port = free_port()
                    proc = start_server(port, args.db or
                                        f"sqlite:///{os.path.join(tmp, f'run{runs}.db')}", 0)
                    url, pid = f"http://127.0.0.1:{port}", proc.pid
                runs += 1
                outs[crowd].append(asyncio.run(run(
                    url, args.tables, args.seconds, args.game, args.players, args.think,
                    args.ramp, pid, args.computers, crowd, args.crowd_nice)))
        print(f"\nthe other {args.tables} tables' moves (think {args.think} s), without and "
              f"with {args.spectators} spectators at one table, {args.rounds} round(s) "
              f"of {args.seconds:.0f} s each, alternating")
        print(f"{'round':>5} {'spectators':>10} {'acts/s':>8} {'p50 ms':>8} {'p99 ms':>8} "
              f"{'max ms':>8} {'loop lag p99 ms':>16} {'loop lag max ms':>16}")
        for round_ in range(args.rounds):
            for crowd in (0, args.spectators):
                out = outs[crowd][round_]
                ms = out.latencies_ms
                print(f"{round_ + 1:>5} {crowd:>10} {len(ms) / out.elapsed:>8.0f} "
                      f"{pct(ms, .5):>8.1f} {pct(ms, .99):>8.1f} "
                      f"{max(ms, default=float('nan')):>8.1f} "
                      f"{out.loop_lag_ms.get('p99')!s:>16} "
                      f"{out.loop_lag_ms.get('max')!s:>16}")
        base = [x for o in outs[0] for x in o.latencies_ms]
        crowded = [x for o in outs[args.spectators] for x in o.latencies_ms]
        print(f"all rounds: without p50 {pct(base, .5):.1f} p99 {pct(base, .99):.1f} max "
              f"{max(base, default=float('nan')):.1f} ms; with p50 {pct(crowded, .5):.1f} "
              f"p99 {pct(crowded, .99):.1f} max {max(crowded, default=float('nan')):.1f} ms")
        print(f"delay the crowd added to the other tables' moves: p50 "
              f"{pct(crowded, .5) - pct(base, .5):+.1f} ms, "
              f"p99 {pct(crowded, .99) - pct(base, .99):+.1f} ms, "
              f"max {max(crowded, default=0) - max(base, default=0):+.1f} ms")
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
