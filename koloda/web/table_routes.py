"""The tables' routes: the lobby (``/api/tables``, ``/api/lobby``, pushed on
``/ws/lobby``), making a table and sitting down, a table's description and record, a
stored game's replay steps, the server's figures (``/api/stats``), and the websocket every
table plays on (``/ws/tables/{id}``: protocol in ``koloda.web.protocol`` and docs/web.md).
Every change to a table goes through ``koloda.web.tables.TableManager``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import (
    APIRouter,
    FastAPI,
    Query,
    Request,
    Response,
    WebSocket,
    WebSocketDisconnect,
)
from pydantic import BaseModel, ConfigDict, Field

from koloda.engine.messages import Reason
from koloda.web.auth_routes import Auth
from koloda.web.checks import TableError
from koloda.web.conn import Conn
from koloda.web.limits import Limits, Said
from koloda.web.params import At, GameId, Limit, Offset, shown_table_id
from koloda.web.protocol import Message, Refusal, parse
from koloda.web.replays import Replays
from koloda.web.table import PRIVATE_KEY, invited
from koloda.web.tables import TableManager
from koloda.web.takeback import take_back

log = logging.getLogger("koloda.web")
#: seconds between two looks at a pushed lobby page
LOBBY_PUSH = 2.0
#: messages in a row refused for the rate after which a connection is closed
RATE_STRIKES = 50


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
    #: a private table's invite key (from its invite link)
    invite: str | None = Field(default=None, max_length=100)


#: a private table's invite key, given with a request (``?invite=``)
Invite = Annotated[str | None, Query(max_length=100)]


def _client(conn: Request | WebSocket) -> str:
    """The client's address (behind a proxy: what uvicorn's --proxy-headers made of
    X-Forwarded-For, from the proxies it trusts)."""
    return conn.client.host if conn.client is not None else "?"


def install(app: FastAPI, manager: TableManager, auth: Auth, replays: Replays,
            limits: Limits) -> None:
    """The tables' API and websockets on ``app``."""
    router = APIRouter()

    @router.get("/api/stats")
    async def stats() -> dict[str, Any]:
        return manager.stats()

    @router.get("/api/tables")
    async def tables(response: Response, offset: Offset = 0, limit: Limit = None,
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

    @router.get("/api/lobby")
    async def lobby(offset: Offset = 0, limit: Limit = None,
                    game: str | None = None) -> dict[str, Any]:
        """The same page with its figures: ``{"tables", "total", "offset", "limit"}``."""
        return manager.lobby_page(offset, limit, game)

    @router.websocket("/ws/lobby")
    async def lobby_feed(ws: WebSocket, offset: Offset = 0, limit: Limit = None,
                         game: str | None = None) -> None:
        """The lobby pushed: ``{"type": "lobby", "tables", "total", "offset", "limit"}``
        now and whenever that page changes (looked at every ``LOBBY_PUSH`` seconds)."""
        await ws.accept()
        opened = await _opened(ws)
        if opened is None:
            return
        keys, conn_id = opened

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
            await manager.caps.disconnect(keys, conn_id)

    @router.post("/api/tables", status_code=201)
    async def create(body: CreateIn, request: Request) -> dict[str, Any]:
        name, account = body.name, None
        if body.sit is not None:      # signed in: the account's name; a guest: no account's
            name, account = await auth.seat_identity(request, body.name)
        table, token, notes = await manager.create(
            body.game, body.players, body.options, [s.model_dump() for s in body.seats],
            name, body.sit, body.settings, client=_client(request), account_id=account)
        url = f"{manager.root_path}/t/{table.id}"
        out = {"id": table.id, "seat": body.sit, "token": token, "notes": notes,
               "table": table.info(), "url": url}
        if table.invite is not None:      # shown once: the link that opens the table
            out.update(invite=table.invite, url=f"{url}#invite={table.invite}")
        return out

    @router.get("/api/replays/{game_id}")
    async def replay_step(game_id: GameId, at: At = None, invite: Invite = None
                          ) -> dict[str, Any]:
        """Step ``at`` of stored game ``game_id`` (its first ``at`` actions; default: the
        last): the presenter's display, every seat's hand, the deal's moves, the result."""
        record = await asyncio.to_thread(replays.record, game_id)
        if record is None or not invited(record.get(PRIVATE_KEY), invite):
            raise TableError("no_stored_game", 404, id=game_id)
        return replays.step(game_id, record, at)

    @router.get("/api/tables/{table_id}")
    async def table_info(table_id: str, invite: Invite = None) -> dict[str, Any]:
        return (await _table(table_id, invite)).info()

    @router.post("/api/tables/{table_id}/sit")
    async def sit(table_id: str, body: SitIn, request: Request) -> dict[str, Any]:
        table = await _table(table_id, body.invite)
        name, account = await auth.seat_identity(request, body.name)
        token = await manager.sit(table, body.seat, name, account_id=account)
        return {"id": table.id, "seat": body.seat, "token": token}

    @router.get("/api/tables/{table_id}/record")
    async def record(table_id: str, invite: Invite = None) -> dict[str, Any]:
        """The record, once the match is over (before, it would show every hand)."""
        table = await _table(table_id, invite)
        if not table.match.is_over:
            raise TableError("record_later", 403)
        return table.record()

    async def _table(table_id: str, invite: str | None = None) -> Any:
        """The table, if it exists and ``invite`` opens it (a private table without its
        invite is answered as no table: nothing says it is there)."""
        table = await manager.find(table_id)
        if table is None or not table.admits(invite):
            raise TableError("no_table", 404, id=shown_table_id(table_id))
        if table.cold_version is not None:
            async with table.lock:
                await manager.sync.warm(table)
        return table

    # -------------------------------------------------------------- websocket
    @router.websocket("/ws/tables/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        opened = await _opened(ws)
        if opened is None:
            return
        keys, conn_id = opened
        try:
            await _play(ws, table_id, keys)
        finally:
            await manager.caps.disconnect(keys, conn_id)

    async def _opened(ws: WebSocket) -> tuple[tuple[str, ...], str] | None:
        """Count a new connection against its address and, signed in, its account (over
        every server) — or refuse it (then None) when either has
        ``connections_per_client`` open."""
        signed = await auth.current(ws)
        keys = TableManager.owners(_client(ws), signed.account.id if signed else None)
        conn_id = await manager.caps.connect(keys)
        if conn_id is None:
            said = Said("too_many_connections", n=limits.connections_per_client)
            await ws.send_json(Refusal("too_many_connections", said).to_json())
            await ws.close(code=1013)
            return None
        return keys, conn_id

    async def _play(ws: WebSocket, table_id: str, keys: tuple[str, ...]) -> None:
        client = keys[0]
        table = await manager.find(table_id)
        if table is None:
            unknown = Reason("no_table", id=shown_table_id(table_id))
            await ws.send_json(Refusal("no_table", unknown).to_json())
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
                wait = 0.0
                for k in keys:      # counted by every server on the same Redis
                    wait = max(wait, await manager.rates.message(k))
                if wait:
                    # over the address's rate: not read; far over it, closed
                    strikes += 1
                    if strikes > RATE_STRIKES:
                        log.warning("a client (%s) sends too fast; closing its "
                                    "connection", client)
                        conn.abandon()
                        break
                    said = Said("rate_limited", n=round(limits.messages_per_second))
                    refused = Refusal("rate_limited", said).to_json(table.version)
                    # when to send it again (the page does, by itself)
                    refused["retry_after"] = round(wait, 2)
                    manager.send(table, conn, refused)
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
                elif msg.type == "hint":
                    manager.hints.start(table, conn, msg.fields["version"], msg.id)
                elif msg.type == "chat":
                    refusal = await manager.chat.say(table, conn, msg.fields["text"], msg.id)
                    if refusal is not None:
                        manager.send(table, conn, refusal.to_json(table.version))
                elif msg.type == "rematch":
                    refusal = await manager.rematches.ask(table, conn, msg.id)
                    if refusal is not None:
                        manager.send(table, conn, refusal.to_json(table.version))
                elif msg.type == "takeback":
                    result = await take_back(manager, table, conn.seat,
                                             msg.fields["version"], conn, msg.id)
                    if isinstance(result, Refusal):
                        manager.send(table, conn, result.to_json(table.version))
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
        if seat is None and not table.admits(msg.fields.get("invite")):
            # a private table, and neither a seat's token nor its invite: as no table
            unknown = Reason("no_table", id=shown_table_id(table.id))
            conn.push_json(Refusal("no_table", unknown, msg.id).to_json())
            conn.shut()             # the refusal first, then closed
            return False
        if token and seat is None:
            conn.push_json(Refusal("bad_token", "this token holds no seat at this table; "
                                                "you can watch or take an open seat",
                                   msg.id).to_json())
            return False
        async with table.lock:           # no news between reading it back and attaching
            await manager.sync.warm(table)
            manager.attach(table, conn, seat)
        await manager.chat.history(table, conn)
        return True

    app.include_router(router)
