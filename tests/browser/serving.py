"""What the browser tests share: Debian's chromium driven by Playwright (skipped, with the
reason, where either is missing; ``.ci/install-browser.sh`` installs both), and a real
``koloda serve`` app on a free loopback port."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("KOLODA_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def need_browser() -> Any:
    """Playwright's ``sync_playwright``, or a skip saying what is missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install playwright; see "
                    ".ci/install-browser.sh)")
    if not (os.path.exists(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium; see "
                    f".ci/install-browser.sh)")
    pytest.importorskip("uvicorn")
    return sync_playwright


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serving(tmp_path: Path, wrap: Any = None, **app_args: Any) -> Iterator[str]:
    """A koloda server on ``tmp_path``'s database; yields its address (with
    ``root_path``, the address under it; ``wrap(app)``: what stands in front of it, e.g.
    a proxy's rewriting)."""
    need_browser()
    import uvicorn

    from koloda.web.app import create_app
    app_args.setdefault("bot_workers", 0)
    app_args.setdefault("bot_delay", 0.05)
    app_args.setdefault("tick", 0.2)
    app = create_app(f"sqlite:///{tmp_path / 'koloda.db'}", **app_args)
    root = app_args.get("root_path", "")
    port = _free_port()
    srv = uvicorn.Server(uvicorn.Config(wrap(app) if wrap else app, host="127.0.0.1",
                                        port=port, log_level="warning", root_path=root,
                                        ws_max_size=65536, ws_per_message_deflate=False))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}{root}"
    finally:
        srv.should_exit = True
        thread.join(20)
