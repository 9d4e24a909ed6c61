"""The routes of play now, the leaderboards and the player pages (installed by ``app.py``).

* ``POST /api/playnow`` ``{"game", "players", "bot", "wait", "name"}`` → a ticket and its
  state; ``/ws/playnow/<ticket>`` pushes its state now and whenever it changes (the page
  opens the table once seated); ``GET /api/playnow/<ticket>`` its state (the page's
  fallback while the push is down); ``DELETE /api/playnow/<ticket>`` leaves the queue;
  ``GET /api/playnow`` who waits for which table (``koloda.web.playnow``).
* ``GET /api/leaderboard/<game>?offset=&limit=`` the accounts rated in a game, best ordinal
  (mu - 3 sigma) first; ``/leaderboard/<game>`` the page.
* ``GET /api/players/<name>`` an account's ratings and their histories, its games by kind
  (wins), its Opendaum-33 rank and its recent games; ``/player/<name>`` the page.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from koloda.engine.errors import ConfigError
from koloda.engine.messages import Value
from koloda.engine.registry import get_spec, registry
from koloda.store import name_key
from koloda.store import ratings as store_ratings
from koloda.store.models import Account
from koloda.web import limits
from koloda.web.params import Count, Offset, Recent
from koloda.web.playnow import EXPIRE, PlayNow
from koloda.web.rootpath import page, root_of
from koloda.web.tables import TableError, TableManager
from koloda.web.texts import TEXTS

#: rows of a leaderboard page: default and most
PAGE, MAX_PAGE = 50, 200

limits.TEXTS.update({
    "no_player": ("no registered player {name}", "зарегистрированного игрока {name} нет"),
})

_PAIRS: dict[str, tuple[str, str]] = {
    "reliability": ("Played to the end: {finished} of the last {matches} matches",
                    "Доиграно до конца: {finished} из последних {matches} партий"),
    "reliability_short": ("{finished}/{matches} played to the end",
                          "доиграно {finished} из {matches}"),
    "play_now": ("Play now", "Играть сейчас"),
    "play_now_go": ("Play now", "Играть"),
    "play_now_help": ("Seats you with others waiting for the same table.",
                      "Посадит за стол с теми, кто ждёт такой же игры."),
    "computers": ("Computers", "Компьютеры"),
    "people_only": ("people only", "только люди"),
    "wait_for_people": ("Wait for people", "Ждать людей"),
    "wait_s": ("{n} s, then computers", "{n} с, потом компьютеры"),
    "wait_never": ("as long as it takes", "сколько понадобится"),
    "waiting_n": ("Waiting for players: {n} of {of} here", "Ждём игроков: {n} из {of}"),
    "computers_in": ("computers sit down in {n} s", "компьютеры сядут через {n} с"),
    "cancel": ("Cancel", "Отменить"),
    "playnow_cancelled": ("You left the queue.", "Вы вышли из очереди."),
    "playnow_gone": ("The request ended.", "Заявка закончилась."),
    "playnow_failed": ("No table could be made for this request; please try again.",
                       "Стол для этой заявки создать не удалось; попробуйте ещё раз."),
    "playnow_expired": (
        "Nobody else came in {m} minutes, and computers were never to sit down, so the "
        "request ended. Try again with computers after a wait, or another game.",
        "За {m} минут больше никто не пришёл, а компьютеры садиться не должны были — "
        "заявка закончилась. Попробуйте с компьютерами после ожидания или другую игру."),
    "never_note": (f"Computers never sit down: if nobody comes, the request ends after "
                   f"{EXPIRE // 60} minutes.",
                   f"Компьютеры не сядут: если никто не придёт, заявка закончится через "
                   f"{EXPIRE // 60} минут."),
    "waited": ("waiting {t}", "ждём {t}"),
    "expires_in": ("ends in {t} if nobody comes", "закончится через {t}, если никто не придёт"),
    "playnow_queue_n": ("Waiting for this table now: {n}", "Сейчас ждут такой стол: {n}"),
    "waiting_people": ("{n} waiting, the longest {t}", "ждут: {n}, дольше всех {t}"),
    "leaderboard": ("Leaderboard", "Рейтинг"),
    "leaderboard_of": ("Leaderboard: {game}", "Рейтинг: {game}"),
    "place": ("Place", "Место"),
    "player": ("Player", "Игрок"),
    "rating": ("Rating", "Рейтинг"),
    "rating_help": ("rating = mu − 3·sigma (OpenSkill): the skill the player is very likely "
                    "above", "рейтинг = mu − 3·sigma (OpenSkill): умение, выше которого игрок "
                    "почти наверняка"),
    "skill": ("Skill (mu)", "Умение (mu)"),
    "uncertainty": ("Uncertainty (sigma)", "Неуверенность (sigma)"),
    "games_n": ("Games", "Партии"),
    "no_ratings": ("Nobody is rated in this game yet.", "В этой игре рейтингов пока нет."),
    "prev_page": ("previous", "назад"),
    "next_page": ("next", "дальше"),
    "ratings": ("Ratings", "Рейтинги"),
    "rating_history": ("Rating history", "История рейтинга"),
    "after_game_n": ("after rated game {n}", "после рейтинговой партии {n}"),
    "recent_games": ("Recent games", "Последние партии"),
    "wins_by_game": ("Wins by game", "Победы по играм"),
    "won": ("won", "выиграно"),
    "lost": ("lost", "проиграно"),
    "drawn": ("drawn", "ничьих"),
    "rank_33": ("Opendaum-33 rank", "Разряд в Опендаум-33"),
    "rank_none": ("none yet", "пока нет"),
    "no_such_player": ("No such player", "Такого игрока нет"),
    "registered_since": ("registered {date}", "зарегистрирован {date}"),
    "replay": ("replay", "повтор"),
    "result_won": ("won", "победа"),
    "result_lost": ("lost", "поражение"),
    "result_draw": ("draw", "ничья"),
    "no_games": ("No games yet.", "Партий пока нет."),
    "with_players": ("with {who}", "за столом: {who}"),
}
for _i, _lang in enumerate(("en", "ru")):
    TEXTS.setdefault(_lang, {}).update({k: v[_i] for k, v in _PAIRS.items()})


class PlayNowIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=60)
    players: int | None = None
    bot: str | None = Field(default=None, max_length=40)
    wait: int | None = None
    name: str | None = Field(default=None, max_length=200)


def _game(game: str) -> str:
    try:
        return get_spec(game).name
    except ConfigError as exc:
        raise TableError(exc.reason, 404) from None


def install(app: FastAPI, manager: TableManager, accounts: Any, auth: Any,
            db_url: str, static: Any) -> PlayNow:
    """The routes on ``app``; returns the play-now queue (closed with the app)."""
    queue = PlayNow(db_url, manager)
    app.state.playnow = queue
    store = accounts.store

    @app.get("/leaderboard", include_in_schema=False)
    async def first_leaderboard(request: Request) -> RedirectResponse:
        """The leaderboard of the first game in the books' order (the lobby's first)."""
        first = min(registry().values(), key=lambda s: (s.order, s.name))
        return RedirectResponse(str(request.url_for("leaderboard_page", game=first.name)))

    @app.get("/leaderboard/{game}", include_in_schema=False)
    async def leaderboard_page(game: str, request: Request) -> Response:
        return page(str(static.joinpath("ratings.html")), root_of(request))

    def account_of(s: Session, name: str) -> Account | None:
        found: Account | None = s.scalar(select(Account).where(Account.key == name_key(name)))
        return found

    @app.get("/player/{name}", include_in_schema=False)
    async def player_page(name: str, request: Request) -> Response:
        """The page; 404 (the same page, which says whom it did not find) for a name no
        account has."""
        def known() -> bool:
            with Session(store.engine) as s:
                return account_of(s, name) is not None
        status = 200 if await asyncio.to_thread(known) else 404
        return page(str(static.joinpath("ratings.html")), root_of(request), status)

    @app.post("/api/playnow", status_code=201)
    async def playnow(body: PlayNowIn, request: Request) -> dict[str, Any]:
        name, account = await auth.seat_identity(request, body.name)
        client = request.client.host if request.client is not None else None
        return await queue.join(body.game, body.players, body.bot, body.wait, name, account,
                                client)

    @app.get("/api/playnow/{ticket}")
    async def playnow_state(ticket: str) -> dict[str, Any]:
        return await queue.status(ticket)

    @app.delete("/api/playnow/{ticket}")
    async def playnow_cancel(ticket: str) -> dict[str, Any]:
        return await queue.cancel(ticket)

    @app.get("/api/playnow")
    async def playnow_queues() -> list[dict[str, Any]]:
        return await asyncio.to_thread(queue.queues)

    @app.websocket("/ws/playnow/{ticket}")
    async def playnow_push(ws: WebSocket, ticket: str) -> None:
        """``{"type": "playnow", "state", …}`` now and at every change until the request
        ends; then the connection closes (1000). An unknown ticket: ``{"type":
        "refused", "error", "error_ru"}`` and close 4404."""
        await ws.accept()

        async def push() -> None:
            async with contextlib.aclosing(queue.follow(ticket)) as states:
                async for state in states:      # (closed, and unfollowed, at once)
                    await ws.send_json({"type": "playnow", **state})

        async def watch_close() -> None:
            while (await ws.receive())["type"] != "websocket.disconnect":
                pass
        pusher, closer = asyncio.create_task(push()), asyncio.create_task(watch_close())
        try:
            done, _ = await asyncio.wait({pusher, closer},
                                         return_when=asyncio.FIRST_COMPLETED)
            exc = pusher.exception() if pusher in done else None
            if exc is not None:
                if isinstance(exc, TableError):
                    await ws.send_json({"type": "refused", **exc.to_json()})
                    await ws.close(code=4404 if exc.status == 404 else 1008)
                    return
                if not isinstance(exc, WebSocketDisconnect | RuntimeError):
                    raise exc
            if pusher in done:
                with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                    await ws.close(code=1000)
        finally:
            for task in (pusher, closer):
                task.cancel()
            for task in (pusher, closer):
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    @app.get("/api/leaderboard/{game}")
    async def leaderboard(game: str, offset: Offset = 0, limit: Count = PAGE) -> dict[str, Any]:
        game = _game(game)
        offset, limit = max(0, offset), max(1, min(limit, MAX_PAGE))

        def read() -> dict[str, Any]:
            with Session(store.engine) as s:
                return store_ratings.leaderboard(s, game, offset, limit)
        return await asyncio.to_thread(read)

    @app.get("/api/players/{name}")
    async def player(name: str, recent: Recent = 20) -> dict[str, Any]:
        def read() -> dict[str, Any] | None:
            with Session(store.engine) as s:
                found = account_of(s, name)
                if found is None:
                    return None
                rated = store_ratings.account_ratings(s, found.id)
            stats = store.account_stats(found.id, recent=max(1, min(recent, 100)))
            return {"name": found.name, "created": found.created.isoformat(),
                    "rank": stats.rank.to_json() if stats.rank else None,
                    "reliability": store.reliability(found.id),
                    "games": [g.to_json() for g in stats.games],
                    "recent": [g.to_json() for g in stats.recent], **rated}
        out = await asyncio.to_thread(read)
        if out is None:
            raise TableError("no_player", 404, name=Value(name))
        return out

    return queue
