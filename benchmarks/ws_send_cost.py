"""What one websocket send costs the server's event loop, by uvicorn's implementation
and by how the frame is handed over: a bare Starlette app (no koloda) with N clients
connected on loopback sends one 3.8 KB text frame (about a spectator's state) to all of
them, 20 times, and prints the event loop's CPU per send (median and least).

Not a test: run it by hand and read the figures (the clients run in a process of their
own; the figures are the server's CPU, so other work on the machine weighs on them less
than on latencies).

    python benchmarks/ws_send_cost.py --clients 1000
    python benchmarks/ws_send_cost.py --ws websockets-sansio,websockets,wsproto

Ways: ``queue`` (each connection's own task takes the frame from its queue and sends
it: one task woken per send), ``direct`` (one loop awaits ``send_text`` on every
connection), ``bytes`` (the same with one encoded ``bytes`` object: a binary frame),
``asgi`` (the ASGI ``send`` under Starlette's ``WebSocket``).
"""

from __future__ import annotations

import argparse
import importlib.util
import socket
import statistics
import subprocess
import sys
import time
from typing import Any

WAYS = ("queue", "direct", "bytes", "asgi")

SERVER = r'''
import asyncio, json, sys, time
import uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute

port, ws_impl = int(sys.argv[1]), sys.argv[2]
payload = json.dumps({"type": "state", "pad": "x" * 3800})
conns = []


class Conn:
    def __init__(self, ws):
        self.ws = ws
        self.queue = asyncio.Queue()
        self.task = asyncio.create_task(self.pump())

    async def pump(self):
        while True:
            await self.ws.send_text(await self.queue.get())


async def endpoint(ws):
    await ws.accept()
    c = Conn(ws)
    conns.append(c)
    try:
        while (await ws.receive())["type"] != "websocket.disconnect":
            pass
    finally:
        conns.remove(c)
        c.task.cancel()


async def count(request):
    return JSONResponse({"n": len(conns)})


async def measure(request):
    way = request.path_params["way"]
    per_send = []
    for _ in range(20):
        cpu = time.process_time()
        if way == "queue":
            for c in conns:
                c.queue.put_nowait(payload)
            while any(not c.queue.empty() for c in conns):
                await asyncio.sleep(0)
            await asyncio.sleep(0)
        elif way == "direct":
            for c in conns:
                await c.ws.send_text(payload)
        elif way == "bytes":
            data = payload.encode()
            for c in conns:
                await c.ws.send_bytes(data)
        else:
            msg = {"type": "websocket.send", "text": payload}
            for c in conns:
                await c.ws._send(msg)
        per_send.append((time.process_time() - cpu) / len(conns) * 1e6)
        await asyncio.sleep(0.2)
    return JSONResponse({"n": len(conns), "us": per_send})


app = Starlette(routes=[WebSocketRoute("/ws", endpoint), Route("/n", count),
                        Route("/go/{way}", measure)])
uvicorn.run(app, host="127.0.0.1", port=port, ws=ws_impl, log_level="warning",
            ws_per_message_deflate=False)
'''

CLIENTS = r'''
import asyncio, sys
import websockets

async def one(url):
    async with websockets.connect(url, max_size=2**22, open_timeout=120) as ws:
        async for _ in ws:
            pass

async def main():
    url, n = sys.argv[1], int(sys.argv[2])
    tasks = []
    for i in range(n):
        tasks.append(asyncio.create_task(one(url)))
        if i % 50 == 49:
            await asyncio.sleep(0.05)
    await asyncio.gather(*tasks, return_exceptions=True)

asyncio.run(main())
'''


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def get(url: str, timeout: float = 120) -> Any:
    import httpx
    return httpx.get(url, timeout=timeout).json()


def one_implementation(ws_impl: str, clients: int, ways: list[str]) -> dict[str, Any]:
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(port), ws_impl])
    crowd = None
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                get(f"http://127.0.0.1:{port}/n", 1)
                break
            except Exception:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit(f"the server ({ws_impl}) did not start") from None
                time.sleep(0.2)
        crowd = subprocess.Popen([sys.executable, "-c", CLIENTS,
                                  f"ws://127.0.0.1:{port}/ws", str(clients)])
        deadline = time.monotonic() + 120
        while get(f"http://127.0.0.1:{port}/n")["n"] < clients:
            if time.monotonic() > deadline:
                raise SystemExit(f"only {get(f'http://127.0.0.1:{port}/n')['n']} of "
                                 f"{clients} clients connected")
            time.sleep(0.2)
        return {way: get(f"http://127.0.0.1:{port}/go/{way}")["us"] for way in ways}
    finally:
        for proc in (crowd, server):
            if proc is not None:
                proc.terminate()
                proc.wait(15)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=1000)
    ap.add_argument("--ws", default="websockets-sansio,websockets,wsproto",
                    help="uvicorn websocket implementations, comma-separated (those not "
                         "installed are skipped)")
    ap.add_argument("--ways", default=",".join(WAYS))
    args = ap.parse_args()
    ways = args.ways.split(",")
    print(f"event loop CPU per send of one 3.8 KB text frame to each of {args.clients} "
          f"websockets on loopback, µs (median / least of 20 rounds)")
    print(f"{'implementation':<20}" + "".join(f"{w:>16}" for w in ways))
    for ws_impl in args.ws.split(","):
        needs = {"wsproto": "wsproto"}.get(ws_impl, "websockets")
        if importlib.util.find_spec(needs) is None:
            print(f"{ws_impl:<20} (not installed)")
            continue
        got = one_implementation(ws_impl, args.clients, ways)
        print(f"{ws_impl:<20}" + "".join(
            f"{statistics.median(got[w]):>9.1f} / {min(got[w]):>4.1f}" for w in ways))


if __name__ == "__main__":
    main()
