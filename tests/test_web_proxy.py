"""The production setup as documented (deploy/, docs/web.md "Production"): Debian's nginx
terminating TLS with ``deploy/koloda.nginx.conf`` in front of three ``koloda serve`` on
PostgreSQL and Redis. A table is played through https and wss: writes with the public
origin go through, another site's are refused, the session cookie is Secure; two of the
three servers are killed mid-game and the table is played on to its end through the same
address, nothing acknowledged lost. And the same site served under a path prefix
(``location /koloda/``, ``koloda serve --root-path /koloda``): the lobby, its files, the
API, the cookie and the websocket all under ``/koloda/``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.test_web_cluster import (
    PG,
    REDIS,
    ROOT,
    Server,
    _drop_pg_database,
    _free_port,
    _new_pg_database,
    httpx,
    websockets,
)

pytestmark = pytest.mark.cluster

SITE = ROOT / "deploy" / "koloda.nginx.conf"


def _site(ports: list[int], listen: int, plain: int, cert: Path, key: Path,
          prefix: str = "") -> str:
    """The deployed site file with this test's ports and certificate; with ``prefix``,
    served under it as the file's comments say (``location /koloda/`` passing on to
    ``http://koloda/``, which strips the prefix)."""
    text = SITE.read_text()
    if prefix:
        assert "location / {" in text and "proxy_pass http://koloda;" in text
        text = text.replace("location / {", f"location {prefix}/ {{").replace(
            "proxy_pass http://koloda;", "proxy_pass http://koloda/;")
    lines = [ln for ln in text.splitlines() if not ln.strip().startswith("server 127.0.0.1:80")]
    text = "\n".join(lines).replace(
        "upstream koloda {", "upstream koloda {\n" + "".join(
            f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;\n" for p in ports))
    text = text.replace("listen 443 ssl;", f"listen 127.0.0.1:{listen} ssl;")
    text = text.replace("listen 80;", f"listen 127.0.0.1:{plain};")
    text = text.replace("/etc/ssl/certs/cards.example.pem", str(cert))
    return text.replace("/etc/ssl/private/cards.example.key", str(key))


def _certificate(tmp_path: Path) -> tuple[Path, Path]:
    nginx, openssl = shutil.which("nginx") or "/usr/sbin/nginx", shutil.which("openssl")
    if not Path(nginx).exists() or openssl is None:
        pytest.skip("needs Debian's nginx and openssl; .ci/services.sh installs them")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


@contextlib.contextmanager
def _nginx(tmp_path: Path, site: str, probe: str) -> Iterator[None]:
    """nginx (not a daemon) serving ``site``, until ``probe`` answers through it."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    conf = tmp_path / "nginx.conf"
    for part in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp_path / part).mkdir()
    root = "user root;\n" if os.geteuid() == 0 else ""
    conf.write_text(f"""{root}worker_processes 1;
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log {tmp_path}/access.log;
    client_body_temp_path {tmp_path}/body; proxy_temp_path {tmp_path}/proxy;
    fastcgi_temp_path {tmp_path}/fastcgi; uwsgi_temp_path {tmp_path}/uwsgi;
    scgi_temp_path {tmp_path}/scgi;
{site}
}}
""")
    proxy = subprocess.Popen([nginx, "-p", str(tmp_path), "-c", str(conf),
                              "-g", "daemon off;"], stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                httpx.get(probe, verify=False, timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline and proxy.poll() is None, \
                    (tmp_path / "error.log").read_text() if (tmp_path / "error.log").exists() \
                    else "nginx did not start"
                time.sleep(0.1)
        yield
    finally:
        proxy.terminate()
        proxy.wait(10)


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[str, list[Server]]]:
    if not (PG and REDIS):
        pytest.skip("needs KOLODA_TEST_PG and KOLODA_TEST_REDIS; .ci/run starts both")
    cert, key = _certificate(tmp_path)
    listen, plain = _free_port(), _free_port()
    origin = f"https://127.0.0.1:{listen}"
    db, name = _new_pg_database(PG)
    servers = [Server(db, REDIS, tmp_path / f"server{i}.log",
                      ("--public-origin", origin, "--forwarded-allow-ips", "127.0.0.1"))
               for i in range(3)]
    try:
        for s in servers:
            s.spawn()
        for s in servers:
            s.ready()
        with _nginx(tmp_path, _site([s.port for s in servers], listen, plain, cert, key),
                    f"{origin}/api/stats"):
            yield origin, servers
    finally:
        for s in servers:
            s.stop()
        _drop_pg_database(PG, name)


def _tls() -> ssl.SSLContext:
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE      # the test's own self-signed certificate
    return ctx


async def _play(origin: str, table: str, token: str, acked: list[tuple[int, str]],
                rng: random.Random, stop_at: int | None, until: float,
                prefix: str = "") -> dict[str, Any]:
    """Play seat 0 through the proxy until ``stop_at`` (a version) or the end."""
    wss = origin.replace("https://", "wss://") + prefix
    async with websockets.connect(f"{wss}/ws/tables/{table}", ssl=_tls(),
                                  origin=origin) as ws:    # type: ignore[arg-type]
        await ws.send(json.dumps({"type": "hello", "token": token}))
        acted = -1
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), until - time.monotonic()))
            if msg["type"] == "ok":
                acked.append((msg["version"] - 1, msg["action"]))
            elif msg["type"] == "state":
                if msg["view"]["match_over"] or (stop_at is not None
                                                 and msg["version"] >= stop_at):
                    return dict(msg)
                if msg["legal"] and msg["version"] != acted:
                    acted = msg["version"]
                    await ws.send(json.dumps({"type": "act", "version": msg["version"],
                                              "action": rng.choice(msg["legal"])}))


def test_a_table_played_through_nginx_with_tls_survives_two_servers_killed(
        proxied: tuple[str, list[Server]]) -> None:
    origin, servers = proxied
    client = httpx.Client(base_url=origin, verify=False, timeout=10)
    # writes from the public origin go through, another site's are refused
    body = {"game": "durak", "players": 2, "sit": 0, "name": "Вера",
            "seats": [{"kind": "person"}, {"kind": "computer", "bot": "random"}]}
    assert client.post("/api/tables", json=body,
                       headers={"Origin": "https://evil.example"}).status_code == 403
    made = client.post("/api/tables", json=body, headers={"Origin": origin})
    assert made.status_code == 201, made.text
    table, token = made.json()["id"], made.json()["token"]
    # the session cookie is Secure behind TLS
    signed = client.post("/api/register", json={"name": "Vera Proxy",
                                                "password": "a long secret 9"},
                         headers={"Origin": origin})
    assert signed.status_code == 201, signed.text
    assert "secure" in signed.headers["set-cookie"].lower()

    async def foreign() -> None:
        wss = origin.replace("https://", "wss://")
        async with websockets.connect(f"{wss}/ws/tables/{table}", ssl=_tls(),
                                      origin="https://evil.example") as ws:   # type: ignore[arg-type]
            await ws.recv()
    # closed (1008) before it is accepted: the handshake is refused
    with pytest.raises((websockets.InvalidStatus, websockets.ConnectionClosed)):
        asyncio.run(foreign())

    acked: list[tuple[int, str]] = []
    rng = random.Random(5)
    until = time.monotonic() + 120
    asyncio.run(_play(origin, table, token, acked, rng, 6, until))
    assert acked
    servers[0].kill()
    servers[1].kill()
    last = None
    while last is None and time.monotonic() < until:   # the connection drops with its
        try:                                             # server: again, until the end
            last = asyncio.run(_play(origin, table, token, acked, rng, None, until))
        except (OSError, websockets.ConnectionClosed, TimeoutError):
            time.sleep(0.5)
    assert last is not None and last["view"]["match_over"]
    deadline = time.monotonic() + 15
    while True:
        res = client.get(f"/api/tables/{table}/record")
        if res.status_code == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert res.status_code == 200, res.text
    actions = [a["action"] for a in res.json()["actions"]]
    for index, action in acked:
        assert index < len(actions) and actions[index] == action, (index, action)


PREFIX = "/koloda"


@pytest.fixture
def under_a_prefix(tmp_path: Path) -> Iterator[str]:
    """One ``koloda serve --root-path /koloda`` (on SQLite) behind the deployed site
    served under ``/koloda/``: the address people open, ``https://127.0.0.1:N``."""
    cert, key = _certificate(tmp_path)
    listen, plain = _free_port(), _free_port()
    origin = f"https://127.0.0.1:{listen}"
    server = Server(f"sqlite:///{tmp_path / 'k.db'}", None, tmp_path / "server.log",
                    ("--public-origin", origin, "--forwarded-allow-ips", "127.0.0.1",
                     "--root-path", PREFIX))
    try:
        server.start()
        with _nginx(tmp_path, _site([server.port], listen, plain, cert, key, PREFIX),
                    f"{origin}{PREFIX}/api/stats"):
            yield origin
    finally:
        server.stop()


def test_a_table_is_played_through_nginx_under_a_path_prefix(under_a_prefix: str) -> None:
    origin = under_a_prefix
    client = httpx.Client(base_url=origin + PREFIX, verify=False, timeout=10)
    # the lobby, and every file it names, under the prefix
    lobby = client.get("/")
    assert lobby.status_code == 200 and f'content="{PREFIX}"' in lobby.text
    assets = re.findall(r'(?:href|src)="(/[^"]*)"', lobby.text)
    assert assets and all(a.startswith(f"{PREFIX}/") for a in assets), assets
    for asset in assets:
        assert httpx.get(origin + asset, verify=False).status_code == 200, asset
    # the bare prefix goes on to the lobby; nothing is served outside it
    bare = httpx.get(origin + PREFIX, verify=False)
    assert bare.status_code == 301 and bare.headers["location"].endswith(f"{PREFIX}/")
    assert httpx.get(f"{origin}/api/games", verify=False).status_code == 404
    body = {"game": "durak", "players": 2, "sit": 0, "name": "Вера",
            "seats": [{"kind": "person"}, {"kind": "computer", "bot": "random"}]}
    assert client.post("/api/tables", json=body,
                       headers={"Origin": "https://evil.example"}).status_code == 403
    made = client.post("/api/tables", json=body, headers={"Origin": origin})
    assert made.status_code == 201, made.text
    table, token = made.json()["id"], made.json()["token"]
    assert made.json()["url"] == f"{PREFIX}/t/{table}"
    assert client.get(f"/t/{table}").status_code == 200
    # the session cookie: Secure, and only for the prefix's paths
    signed = client.post("/api/register", json={"name": "Vera Prefix",
                                                "password": "a long secret 9"},
                         headers={"Origin": origin})
    assert signed.status_code == 201, signed.text
    cookie = signed.headers["set-cookie"].lower()
    assert "secure" in cookie and f"path={PREFIX}" in cookie
    # the websocket under the prefix, played to the end
    acked: list[tuple[int, str]] = []
    last = asyncio.run(_play(origin, table, token, acked, random.Random(7), None,
                             time.monotonic() + 120, PREFIX))
    assert last["view"]["match_over"] and acked
    deadline = time.monotonic() + 15
    while True:
        res = client.get(f"/api/tables/{table}/record")
        if res.status_code == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert res.status_code == 200, res.text
    actions = [a["action"] for a in res.json()["actions"]]
    assert [actions[i] for i, _ in acked] == [a for _, a in acked]
