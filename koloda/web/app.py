"""The FastAPI application: pages, the JSON API, and the websocket every table plays on.

``create_app(db_url)`` builds it; ``koloda serve`` runs it with uvicorn. Pages and the
browser code are static files of this package; the only live channel is
``/ws/tables/{id}`` (protocol in ``koloda.web.protocol`` and docs/web.md).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from koloda.engine import terms
from koloda.engine.errors import ConfigError
from koloda.engine.messages import Value
from koloda.engine.registry import get_spec, registry
from koloda.i18n import option_allowed, option_name
from koloda.web import auth_routes, rating_routes
from koloda.web.accounts import Accounts
from koloda.web.bots import bots_for
from koloda.web.limits import Buckets, Limits, Said
from koloda.web.protocol import Message, Refusal, parse
from koloda.web.replays import Replays
from koloda.web.tables import Conn, TableError, TableManager
from koloda.web.texts import TEXTS

log = logging.getLogger("koloda.web")
#: seconds between two looks at a pushed lobby page
LOBBY_PUSH = 2.0
#: messages in a row refused for the rate after which a connection is closed
RATE_STRIKES = 50
STATIC = resources.files("koloda.web").joinpath("static")


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: str
    bot: str | None = Field(default=None, max_length=40)


class CreateIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=60)
    players: int | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatIn] = Field(max_length=12)
    name: str | None = Field(default=None, max_length=200)
    sit: int | None = None
    settings: dict[str, Any] = Field(default_factory=dict)


class SitIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int
    name: str = Field(max_length=200)


def _option_choices(option: Any) -> list[Any] | None:
    """The allowed values of an option checked by ``spec.one_of`` (a select, not a box)."""
    check = option.check
    if check is None or not getattr(check, "__qualname__", "").startswith("one_of."):
        return None
    try:
        return list(check.__closure__[0].cell_contents)
    except (AttributeError, IndexError, TypeError):
        return None


def _option_title(name: str) -> str:
    """An option as the page names it in English: the vocabulary's label (first round
    limit), never its identifier (first_bout_limit), which ``-o`` and the API take."""
    return terms.term(name, "en") if terms.has_term(name) else name.replace("_", " ")


def games_json() -> list[dict[str, Any]]:
    out = []
    for spec in sorted(registry().values(), key=lambda s: (s.order, s.name)):   # books' order
        out.append({
            "name": spec.name, "family": spec.family, "variant": spec.variant,
            "title": {"en": spec.title_en, "ru": spec.title_ru},
            "summary": {"en": spec.summary_en, "ru": spec.summary_ru},
            "players": list(spec.players), "default_players": spec.default_players,
            "bots": list(bots_for(spec.name)),
            "options": [{
                "name": o.name, "kind": o.kind.__name__, "allowed": o.allowed,
                "title": {"en": _option_title(o.name), "ru": option_name(o.name, "ru")},
                "allowed_text": {"en": o.allowed, "ru": option_allowed(o.allowed, "ru")},
                "help": {"en": o.help_en, "ru": o.help_ru},
                "defaults": {str(n): o.default_for(n) for n in spec.players},
                "choices": _option_choices(o),
            } for o in spec.all_options],
        })
    return out


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


def _client(conn: Request | WebSocket) -> str:
    """The client's address (behind a proxy: what uvicorn's --proxy-headers made of
    X-Forwarded-For, from the proxies it trusts)."""
    return conn.client.host if conn.client is not None else "?"


def create_app(db_url: str | None = None, bot_workers: int = 2, bot_delay: float = 0.8,
               use_store: bool = True, tick: float = 0.25,
               limits: Limits | None = None, redis_url: str | None = None,
               password_hasher: Any = None) -> FastAPI:
    """The web app on ``db_url`` (default: the store's database); with ``redis_url``,
    one of many servers on that database (``koloda.web.cluster``). ``password_hasher``: an
    ``argon2.PasswordHasher`` other than the default one (tests use a cheap one)."""
    if db_url is None:
        from koloda.store import default_url
        db_url = default_url()
    limits = limits or Limits()
    manager = TableManager(db_url, bot_workers=bot_workers, bot_delay=bot_delay,
                           use_store=use_store, tick=tick, limits=limits,
                           redis_url=redis_url)
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
        would come back whole): where, what and why only."""
        detail = [{k: e[k] for k in ("loc", "msg", "type") if k in e}
                  for e in exc.errors()][:20]
        return JSONResponse({"detail": detail}, status_code=422)

    @app.exception_handler(TableError)
    async def _table_error(_req: Request, exc: TableError) -> JSONResponse:
        headers = {}
        if exc.retry_after is not None:
            headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
        return JSONResponse(exc.to_json(), status_code=exc.status, headers=headers)

    # ------------------------------------------------------------------ pages
    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(str(STATIC.joinpath("lobby.html")))

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(str(STATIC.joinpath("table.html")))

    @app.get("/g/{game_id}", include_in_schema=False)
    async def replay_page(game_id: int) -> FileResponse:
        """A finished game stepped through move by move (``/g/<id>#42``: move 42)."""
        return FileResponse(str(STATIC.joinpath("replay.html")))

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    # -------------------------------------------------------------------- API
    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return games_json()

    @app.get("/api/rules/{game}")
    async def rules(game: str, lang: str = "en") -> dict[str, str]:
        """The rules for players (koloda/rules), as ``koloda rules`` prints them."""
        try:
            spec = get_spec(game)
        except ConfigError as exc:
            raise TableError(exc.reason, 404) from None
        lang = "ru" if lang == "ru" else "en"
        try:
            text = resources.files("koloda.rules").joinpath(f"{spec.family}.{lang}.md") \
                .read_text(encoding="utf-8")
        except FileNotFoundError:
            raise TableError("no_rules_text", 404, lang=lang, family=spec.family) from None
        return {"game": spec.name, "lang": lang, "text": text}

    @app.get("/api/texts")
    async def texts() -> dict[str, dict[str, str]]:
        return TEXTS

    @app.get("/api/stats")
    async def stats() -> dict[str, Any]:
        return manager.stats()

    @app.get("/api/tables")
    async def tables(response: Response, offset: int = 0, limit: int | None = None,
                     game: str | None = None) -> list[dict[str, Any]]:
        """A page of the tables in play, newest first (``limit`` default 100, at most
        500): the same list as ever; the total is in ``X-Total-Count`` and the next page
        in ``Link: <…>; rel="next"``."""
        page = manager.lobby_page(offset, limit, game)
        response.headers["X-Total-Count"] = str(page["total"])
        following = page["offset"] + page["limit"]
        if following < page["total"]:
            query = f"offset={following}&limit={page['limit']}" + (
                f"&game={quote(game)}" if game else "")
            response.headers["Link"] = f'</api/tables?{query}>; rel="next"'
        tables: list[dict[str, Any]] = page["tables"]
        return tables

    @app.get("/api/lobby")
    async def lobby(offset: int = 0, limit: int | None = None,
                    game: str | None = None) -> dict[str, Any]:
        """The same page with its figures: ``{"tables", "total", "offset", "limit"}``."""
        return manager.lobby_page(offset, limit, game)

    @app.websocket("/ws/lobby")
    async def lobby_feed(ws: WebSocket, offset: int = 0, limit: int | None = None,
                         game: str | None = None) -> None:
        """The lobby pushed: ``{"type": "lobby", "tables", "total", "offset", "limit"}``
        now and whenever that page changes (looked at every ``LOBBY_PUSH`` seconds)."""
        await ws.accept()
        keys = await _opened(ws)
        if keys is None:
            return

        async def watch_close() -> None:
            while (await ws.receive())["type"] != "websocket.disconnect":
                pass
        closer = asyncio.create_task(watch_close())
        last = None
        try:
            while not closer.done():
                page = manager.lobby_page(offset, limit, game)
                text = json.dumps({"type": "lobby", **page}, ensure_ascii=False,
                                  separators=(",", ":"))
                if text != last:
                    await ws.send_text(text)
                    last = text
                await asyncio.wait([closer], timeout=LOBBY_PUSH)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            closer.cancel()
            _closed(keys)

    @app.post("/api/tables", status_code=201)
    async def create(body: CreateIn, request: Request) -> dict[str, Any]:
        name, account = body.name, None
        if body.sit is not None:      # signed in: the account's name; a guest: no account's
            name, account = await auth.seat_identity(request, body.name)
        table, token, notes = await manager.create(
            body.game, body.players, body.options, [s.model_dump() for s in body.seats],
            name, body.sit, body.settings, client=_client(request), account_id=account)
        return {"id": table.id, "seat": body.sit, "token": token, "notes": notes,
                "table": table.info(), "url": f"/t/{table.id}"}

    @app.get("/api/replays/{game_id}")
    async def replay_step(game_id: int, at: int | None = None) -> dict[str, Any]:
        """Step ``at`` of stored game ``game_id`` (its first ``at`` actions; default: the
        last): the presenter's display, every seat's hand, the deal's moves, the result."""
        record = await asyncio.to_thread(replays.record, game_id)
        if record is None:
            raise TableError("no_stored_game", 404, id=game_id)
        return replays.step(game_id, record, at)

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        return (await _table(table_id)).info()

    @app.post("/api/tables/{table_id}/sit")
    async def sit(table_id: str, body: SitIn, request: Request) -> dict[str, Any]:
        table = await _table(table_id)
        name, account = await auth.seat_identity(request, body.name)
        token = await manager.sit(table, body.seat, name, account_id=account)
        return {"id": table.id, "seat": body.seat, "token": token}

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> dict[str, Any]:
        """The record, once the match is over (before, it would show every hand)."""
        table = await _table(table_id)
        if not table.match.is_over:
            raise TableError("record_later", 403)
        return table.match.record([s.record_seat(i) for i, s in enumerate(table.seats)])

    async def _table(table_id: str) -> Any:
        table = await manager.find(table_id)
        if table is None:
            raise TableError("no_table", 404, id=Value(table_id))
        return table

    # -------------------------------------------------------------- websocket
    open_by: dict[str, int] = {}
    messages = Buckets(limits.messages_per_second, limits.messages_per_second * 2)

    @app.websocket("/ws/tables/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        keys = await _opened(ws)
        if keys is None:
            return
        try:
            await _play(ws, table_id, keys)
        finally:
            _closed(keys)

    async def _opened(ws: WebSocket) -> tuple[str, ...] | None:
        """Count a new connection against its address and, signed in, its account — or
        refuse it (then None) when either has ``connections_per_client`` open."""
        signed = await auth.current(ws)
        keys = TableManager.owners(_client(ws), signed.account.id if signed else None)
        if any(open_by.get(k, 0) >= limits.connections_per_client for k in keys):
            said = Said("too_many_connections", n=limits.connections_per_client)
            await ws.send_json(Refusal("too_many_connections", said).to_json())
            await ws.close(code=1013)
            return None
        for k in keys:
            open_by[k] = open_by.get(k, 0) + 1
        return keys

    def _closed(keys: tuple[str, ...]) -> None:
        for k in keys:
            left = open_by.get(k, 1) - 1
            if left > 0:
                open_by[k] = left
            else:
                open_by.pop(k, None)

    async def _play(ws: WebSocket, table_id: str, keys: tuple[str, ...]) -> None:
        client = keys[0]
        table = await manager.find(table_id)
        if table is None:
            await ws.send_json(Refusal("no_table", f"no table {table_id!r}").to_json())
            await ws.close(code=4404)
            return
        conn = Conn(ws.send_text, ws.close, client=client)
        greeted = False
        strikes = 0
        try:
            while True:
                try:
                    frame = await ws.receive()
                except RuntimeError:    # closed by us (a client reading too slowly)
                    break
                if frame["type"] == "websocket.disconnect" or conn.dead:
                    break
                if not all(messages.take(k) for k in keys):
                    # over the address's rate: not read; far over it, closed
                    strikes += 1
                    if strikes > RATE_STRIKES:
                        log.warning("a client (%s) sends too fast; closing its "
                                    "connection", client)
                        conn.abandon()
                        break
                    said = Said("rate_limited", n=round(limits.messages_per_second))
                    manager.send(table, conn, Refusal("rate_limited", said)
                                 .to_json(table.version))
                    continue
                strikes = 0
                msg = parse(frame.get("text") if frame.get("text") is not None
                            else frame.get("bytes"))
                if isinstance(msg, Refusal):
                    manager.send(table, conn, msg.to_json(table.version))
                    continue
                if msg.type == "ping":
                    conn.push_json({"type": "pong", "id": msg.id, "version": table.version})
                elif msg.type == "hello":
                    greeted = await _hello(table, conn, msg, greeted)
                elif not greeted:
                    conn.push_json(Refusal("no_hello", "say hello first (with your seat "
                                                       "token, or none to watch)",
                                           msg.id).to_json(table.version))
                else:
                    result = await manager.submit(table, conn.seat, msg.fields["version"],
                                                  msg.fields["action"], conn, msg.id)
                    if isinstance(result, Refusal):
                        manager.send(table, conn, result.to_json(table.version))
        except WebSocketDisconnect:
            pass
        finally:
            manager.detach(conn)
            conn.shut()

    async def _hello(table: Any, conn: Conn, msg: Message, greeted: bool) -> bool:
        if greeted:
            conn.push_json(Refusal("bad_field", "hello: already said; open a new connection "
                                                "to change seats", msg.id).to_json())
            return True
        token = msg.fields.get("token")
        seat = None
        if token:
            seat = await manager.seat_of_fresh(table, token)
            if seat is None:
                conn.push_json(Refusal("bad_token", "this token holds no seat at this table; "
                                                    "you can watch or take an open seat",
                                       msg.id).to_json())
                return False
        manager.attach(table, conn, seat)
        return True

    return app
