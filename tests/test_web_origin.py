"""How ``koloda serve`` sits behind a proxy: whose forwarded headers uvicorn believes."""

import json
import socket
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.websockets import WebSocketDisconnect

pytestmark = pytest.mark.unit


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _served_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **options: Any) -> Any:
    """What ``koloda serve`` hands uvicorn (the command called as typer calls it, with
    uvicorn's run and its global logging setup left out)."""
    from koloda.cli.serve_cmd import serve
    seen: dict[str, Any] = {}

    def run(self: uvicorn.Server, sockets: Any = None) -> None:
        seen["config"] = self.config

    monkeypatch.setattr(uvicorn.Server, "run", run)
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda self: None)
    serve(port=_free_port(), bot_workers=0, db=f"sqlite:///{tmp_path / 'k.db'}", **options)
    return seen["config"]


def test_forwarded_allow_ips_reaches_uvicorn(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    config = _served_config(monkeypatch, tmp_path, forwarded_allow_ips="10.0.0.5")
    assert config.proxy_headers is True
    assert config.forwarded_allow_ips == "10.0.0.5"


def test_forwarded_allow_ips_default_is_loopback(monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path) -> None:
    config = _served_config(monkeypatch, tmp_path)
    assert config.forwarded_allow_ips == "127.0.0.1"


# ----------------------------------------------------------------- --public-origin
def test_a_public_origin_is_a_scheme_and_a_host() -> None:
    from koloda.web.app import check_public_origin
    assert check_public_origin("https://Cards.Example") == "https://cards.example"
    assert check_public_origin("http://127.0.0.1:8443/") == "http://127.0.0.1:8443"
    for bad in ("cards.example", "ftp://cards.example", "https://cards.example/koloda",
                "https://user:pw@cards.example", "https://"):
        with pytest.raises(ValueError, match="public-origin"):
            check_public_origin(bad)


def test_behind_a_proxy_that_rewrites_host_the_public_origin_is_the_one_checked(
        tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from koloda.web.app import create_app
    from koloda.web.limits import Limits
    app = create_app(f"sqlite:///{tmp_path / 'web.db'}", bot_workers=0, bot_delay=0.0,
                     limits=Limits(messages_per_second=1e6),
                     public_origin="https://cards.example")
    body = {"game": "durak", "players": 2, "seats": [{"kind": "person"}] * 2}
    with TestClient(app, base_url="http://backend:8001") as c:     # the Host nginx sends
        ok = c.post("/api/tables", json=body, headers={"Origin": "https://cards.example"})
        assert ok.status_code == 201, ok.text
        assert c.post("/api/tables", json=body,
                      headers={"Origin": "http://backend:8001"}).status_code == 403
        signed = c.post("/api/register", json={"name": "Vera", "password": "a long secret 9"},
                        headers={"Origin": "https://cards.example"})
        assert signed.status_code == 201 and "secure" in signed.headers["set-cookie"].lower()
        table = ok.json()["id"]
        with c.websocket_connect(f"/ws/tables/{table}",
                                 headers={"Origin": "https://cards.example"}) as ws:
            ws.send_text(json.dumps({"type": "hello", "token": None}))
            assert json.loads(ws.receive_text())["type"] == "welcome"
        with pytest.raises(WebSocketDisconnect) as closed, \
                c.websocket_connect(f"/ws/tables/{table}",
                                    headers={"Origin": "http://backend:8001"}) as ws:
            ws.receive_text()
        assert closed.value.code == 1008
