"""Served under a path prefix behind a proxy (``koloda serve --root-path /koloda``): the
proxy strips the prefix, uvicorn puts it back in the ASGI ``root_path``, and every address
the server and its pages make starts with it; without one, nothing changes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import typer
from fastapi.testclient import TestClient

from koloda.web.page_routes import STATIC
from koloda.web.rootpath import check_root_path
from tests.test_web_accounts import CHEAP
from tests.test_web_origin import _served_config

pytestmark = pytest.mark.unit

ROOT = "/koloda"
JS = Path(str(STATIC.joinpath("js")))


def _app(tmp_path: Path, root_path: str = ROOT) -> Any:
    from koloda.web.app import create_app
    from koloda.web.limits import Limits
    return create_app(f"sqlite:///{tmp_path / 'web.db'}", bot_workers=0, bot_delay=0.0,
                      tick=0.05, limits=Limits(messages_per_second=1e6),
                      password_hasher=CHEAP, root_path=root_path)


def _client(tmp_path: Path) -> TestClient:
    """As uvicorn with ``root_path`` hands requests on: the path with the prefix put
    back, and ``root_path`` in the scope."""
    return TestClient(_app(tmp_path), root_path=ROOT)


# ------------------------------------------------------------------ the option
def test_a_root_path_is_a_clean_prefix_of_the_served_paths() -> None:
    assert check_root_path("/koloda") == "/koloda"
    assert check_root_path("/games/koloda-2") == "/games/koloda-2"
    assert check_root_path("") == "" and check_root_path("/") == ""
    for bad in ("koloda", "/koloda/", "/a/../b", "/..", "/a b", "//koloda", "/k?x=1",
                "/k#x", "/kолода", "https://cards.example/koloda", "/k%2e"):
        with pytest.raises(ValueError, match="--root-path"):
            check_root_path(bad)


def test_serve_refuses_a_bad_root_path_at_start_naming_the_option(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(typer.Exit) as ended:
        _served_config(monkeypatch, tmp_path, root_path="koloda/")
    assert ended.value.exit_code == 2
    assert "--root-path" in capsys.readouterr().err


def test_serve_hands_the_root_path_to_uvicorn_and_the_app(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    config = _served_config(monkeypatch, tmp_path, root_path="/koloda")
    assert config.root_path == "/koloda"
    assert config.app.state.root_path == "/koloda"
    assert config.app.state.manager.root_path == "/koloda"
    plain = _served_config(monkeypatch, tmp_path)
    assert plain.root_path == "" and plain.app.state.root_path == ""


# ------------------------------------------------------------------ the pages
PAGES = ("/", "/t/abc", "/g/1", "/leaderboard/durak")


def _site_paths(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/[^"]*)"', html)


def test_under_a_root_path_every_page_names_prefixed_assets_that_are_served(
        tmp_path: Path) -> None:
    with _client(tmp_path) as c:
        for page in PAGES:
            res = c.get(ROOT + page)
            assert res.status_code == 200, page
            assert f'<meta name="koloda-root" content="{ROOT}">' in res.text
            paths = _site_paths(res.text)
            assert paths and all(p.startswith(ROOT + "/") for p in paths), (page, paths)
            for p in paths:
                if "/static/" in p:
                    assert c.get(p).status_code == 200, p


def test_without_a_root_path_the_pages_are_the_files_as_they_are(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path, "")) as c:
        for page, name in zip(PAGES, ("lobby", "table", "replay", "ratings"), strict=True):
            res = c.get(page)
            assert res.text == STATIC.joinpath(f"{name}.html").read_text(encoding="utf-8")
            assert "koloda-root" not in res.text
            assert c.get(page).headers.get("etag")       # served as a file, as before


def test_under_a_root_path_the_api_the_websocket_and_the_links_carry_it(
        tmp_path: Path) -> None:
    body = {"game": "durak", "players": 2, "sit": 0, "name": "Вера",
            "seats": [{"kind": "person"}, {"kind": "computer", "bot": "random"}]}
    with _client(tmp_path) as c:
        assert any(g["name"] == "durak" for g in c.get(ROOT + "/api/games").json())
        made = c.post(ROOT + "/api/tables", json=body)
        assert made.status_code == 201, made.text
        table, token = made.json()["id"], made.json()["token"]
        assert made.json()["url"] == f"{ROOT}/t/{table}"
        private = c.post(ROOT + "/api/tables", json={**body, "settings": {"private": True}})
        assert private.json()["url"].startswith(f"{ROOT}/t/{private.json()['id']}#invite=")
        with c.websocket_connect(f"{ROOT}/ws/tables/{table}",
                                 headers={"Origin": "http://testserver"}) as ws:
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            assert json.loads(ws.receive_text())["type"] == "welcome"
        moved = c.get(ROOT + "/leaderboard", follow_redirects=False)
        assert moved.status_code in (302, 307)
        assert re.search(rf"^(https?://[^/]+)?{ROOT}/leaderboard/\w+$",
                         moved.headers["location"]), moved.headers["location"]


def test_under_a_root_path_the_session_cookie_is_scoped_to_it(tmp_path: Path) -> None:
    with _client(tmp_path) as c:
        signed = c.post(ROOT + "/api/register",
                        json={"name": "Vera", "password": "a long secret 9"})
        assert signed.status_code == 201, signed.text
        assert f"path={ROOT}" in signed.headers["set-cookie"].lower()
        assert c.get(ROOT + "/api/me").json()["account"]["name"] == "Vera"
        csrf = {"X-CSRF-Token": c.get(ROOT + "/api/me").json()["csrf"]}
        out = c.post(ROOT + "/api/logout", headers=csrf)
        assert out.status_code == 200
        assert f"path={ROOT}" in out.headers["set-cookie"].lower()
        assert c.get(ROOT + "/api/me").json()["account"] is None


def test_the_pages_code_makes_every_address_through_the_root_helpers() -> None:
    """No fetch, websocket, link or navigation in the browser code names a site path
    itself: each goes through ``url()`` / ``wsUrl()`` / ``api()`` of common.js, which
    put the page's root in front (or takes a URL the server made, which has it)."""
    bare = re.compile(r"""(fetch\(\s*|new WebSocket\(\s*|href:\s*|location\.href\s*=\s*|"""
                      r"""location\.assign\(\s*|src\s*=\s*)["'`]/""")
    for path in sorted(JS.glob("*.js")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not bare.search(line), f"{path.name}:{n}: {line.strip()}"
            assert "location.pathname.split" not in line or "filter(Boolean).pop()" in line, \
                f"{path.name}:{n}: read the path through here()"


def test_under_a_root_path_play_now_seats_at_a_prefixed_table_address(
        tmp_path: Path) -> None:
    import time
    with _client(tmp_path) as c:
        asked = c.post(ROOT + "/api/playnow", json={"game": "durak", "players": 2,
                                                    "bot": "random", "wait": 1,
                                                    "name": "Аня"})
        assert asked.status_code == 201, asked.text
        state, deadline = asked.json(), time.monotonic() + 10
        while state["state"] == "waiting" and time.monotonic() < deadline:
            time.sleep(0.3)
            state = c.get(f"{ROOT}/api/playnow/{asked.json()['ticket']}").json()
        assert state["state"] == "seated"
        assert state["url"] == f"{ROOT}/t/{state['table']}"
