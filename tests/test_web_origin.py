"""How ``koloda serve`` sits behind a proxy: whose forwarded headers uvicorn believes."""

import socket
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from koloda.cli.main import app

pytestmark = pytest.mark.unit


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _served_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *args: str) -> Any:
    seen: dict[str, Any] = {}

    def run(self: uvicorn.Server, sockets: Any = None) -> None:
        seen["config"] = self.config

    monkeypatch.setattr(uvicorn.Server, "run", run)
    result = CliRunner().invoke(app, ["serve", "--port", str(_free_port()), "--bot-workers", "0",
                                      "--db", f"sqlite:///{tmp_path / 'k.db'}", *args])
    assert result.exit_code == 0, result.output
    return seen["config"]


def test_forwarded_allow_ips_reaches_uvicorn(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    config = _served_config(monkeypatch, tmp_path, "--forwarded-allow-ips", "10.0.0.5")
    assert config.proxy_headers is True
    assert config.forwarded_allow_ips == "10.0.0.5"


def test_forwarded_allow_ips_default_is_loopback(monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path) -> None:
    config = _served_config(monkeypatch, tmp_path)
    assert config.forwarded_allow_ips == "127.0.0.1"
