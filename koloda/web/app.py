"""The FastAPI application: pages, the JSON API, and the websocket every table plays on.

``create_app(db_url)`` builds it; ``koloda serve`` runs it with uvicorn. Pages and the
browser code are static files of this package; the only live channel is
``/ws/tables/{id}`` (protocol in ``koloda.web.protocol`` and docs/web.md). The routes are
in their routers: ``koloda.web.page_routes`` (pages, games, rules, texts),
``koloda.web.table_routes`` (tables, the lobby, the websockets),
``koloda.web.auth_routes`` (accounts), ``koloda.web.rating_routes`` (play now, ratings).
"""

from __future__ import annotations

import json
import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from koloda.web import auth_routes, page_routes, rating_routes, table_routes
from koloda.web.accounts import Accounts
from koloda.web.checks import TableError
from koloda.web.limits import Limits, Said
from koloda.web.page_routes import STATIC
from koloda.web.params import one_line
from koloda.web.replays import Replays
from koloda.web.rootpath import check_root_path
from koloda.web.tables import TableManager


class BodyLimit:
    """Refuse an HTTP request body over ``limit`` bytes with 413 before anything parses
    it: at once if its Content-Length says so, else as soon as that many have come."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", ()):
            if key == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
                if declared > self.limit or declared < 0:
                    await self._refuse(send)
                    return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.limit:
                await self._refuse(send)
                return
            chunks.append(body)
            if not message.get("more_body"):
                break
        whole = b"".join(chunks)
        sent = False

        async def replay() -> Any:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()
        await self.app(scope, replay, send)

    async def _refuse(self, send: Any) -> None:
        said = Said("body_too_large", n=self.limit)
        body = json.dumps({"error": str(said), "error_ru": said.render("ru")},
                          ensure_ascii=False).encode("utf-8")
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


class WebSocketOrigin:
    """Refuse a websocket whose ``Origin`` names another site (close 1008, policy, before
    it is accepted): a page elsewhere cannot play or watch with its visitor's cookie. The
    served origin is ``public_origin`` where one is given (the address people open behind
    a proxy), else the ``Host`` the request came to, over http or https; a client that
    sends no ``Origin`` (not a browser) is let in."""

    def __init__(self, app: Any, public_origin: str | None = None) -> None:
        self.app = app
        self.public_origin = public_origin

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket" and not same_origin(scope, self.public_origin):
            await send({"type": "websocket.close", "code": 1008,
                        "reason": "cross-site websocket refused"})
            return
        await self.app(scope, receive, send)


def same_origin(scope: Any, public_origin: str | None = None) -> bool:
    """Whether a request's ``Origin`` (if it has one) is the served origin: the public
    one where given, else the host it came to."""
    headers = dict(scope.get("headers", ()))
    origin = headers.get(b"origin")
    if origin is None:
        return True
    given = origin.decode("latin-1").lower()
    if public_origin is not None:
        return given == public_origin.lower()
    host = headers.get(b"host", b"").decode("latin-1").lower()
    return bool(host) and given in (f"http://{host}", f"https://{host}")


def check_public_origin(origin: str) -> str:
    """``https://cards.example`` (or ``http://…``, a port allowed) as browsers send it in
    ``Origin``: scheme and host, no path; anything else is a ValueError saying so."""
    from urllib.parse import urlsplit
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname \
            or parts.path not in ("", "/") or parts.query or parts.fragment \
            or parts.username or parts.password:
        raise ValueError(f"--public-origin: {origin!r} is not an origin like "
                         f"https://cards.example (a scheme and a host, no path)")
    return f"{parts.scheme}://{parts.netloc}".lower()


def create_app(db_url: str | None = None, bot_workers: int = 2, bot_delay: float = 0.8,
               use_store: bool = True, tick: float = 0.25,
               limits: Limits | None = None, redis_url: str | None = None,
               password_hasher: Any = None, public_origin: str | None = None,
               root_path: str = "") -> FastAPI:
    """The web app on ``db_url`` (default: the store's database); with ``redis_url``,
    one of many servers on that database (``koloda.web.cluster``). ``password_hasher``: an
    ``argon2.PasswordHasher`` other than the default one (tests use a cheap one).
    ``root_path``: the prefix it is served under behind a proxy (``/koloda``; checked by
    ``koloda.web.rootpath.check_root_path``), that every address it makes starts with."""
    if db_url is None:
        from koloda.store import default_url
        db_url = default_url()
    root_path = check_root_path(root_path)
    limits = limits or Limits()
    manager = TableManager(db_url, bot_workers=bot_workers, bot_delay=bot_delay,
                           use_store=use_store, tick=tick, limits=limits,
                           redis_url=redis_url, root_path=root_path)
    accounts = Accounts(db_url, hasher=password_hasher)
    replays = Replays(accounts.store)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await manager.start()
        await playnow.start()
        yield
        await playnow.stop()
        await manager.stop()
        playnow.close()
        accounts.close()

    app = FastAPI(title="koloda", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.manager = manager
    app.state.accounts = accounts
    auth = auth_routes.install(app, accounts)
    playnow = rating_routes.install(app, manager, accounts, auth, db_url, STATIC)
    app.add_middleware(BodyLimit, limit=limits.max_body)
    app.state.public_origin = public_origin
    app.state.root_path = root_path
    app.add_middleware(WebSocketOrigin, public_origin=public_origin)

    @app.middleware("http")
    async def _headers(request: Request, call_next: Any) -> Any:
        """Everything the pages use is served from here: say so, so that nothing else
        can run in them; and never tell other sites which table a page showed."""
        response = await call_next(request)
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self'; "
            "style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; "
            "frame-ancestors 'none'")
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    @app.exception_handler(RequestValidationError)
    async def _invalid(_req: Request, exc: RequestValidationError) -> JSONResponse:
        """FastAPI's 422, without the ``input`` it would echo back (a 60 KB field
        would come back whole): where, what and why only, and the first error in one
        line (``error``, ``error_ru``)."""
        errors = list(exc.errors())
        detail = [{k: e[k] for k in ("loc", "msg", "type") if k in e} for e in errors][:20]
        said = one_line(errors)
        return JSONResponse({"error": str(said), "error_ru": said.render("ru"),
                             "detail": detail}, status_code=422)

    @app.exception_handler(TableError)
    async def _table_error(_req: Request, exc: TableError) -> JSONResponse:
        headers = {}
        if exc.retry_after is not None:
            headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
        return JSONResponse(exc.to_json(), status_code=exc.status, headers=headers)

    page_routes.install(app)
    table_routes.install(app, manager, auth, replays, limits)
    return app
