"""The routes that show no table of their own: the pages (the lobby, a table, a replay;
their browser code under ``/static``), the games and their options (``/api/games``), the
rules (``/api/rules/{game}``) and the pages' catalogue of texts (``/api/texts``).
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles

from koloda.bots.base import bot_note
from koloda.engine import terms
from koloda.engine.errors import ConfigError
from koloda.engine.registry import get_spec, registry
from koloda.i18n import option_allowed, option_name
from koloda.store.ratings import bot_ratings
from koloda.web.bots import bots_for
from koloda.web.checks import TableError
from koloda.web.params import GameId
from koloda.web.rootpath import page, root_of
from koloda.web.texts import TEXTS

STATIC = resources.files("koloda.web").joinpath("static")


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
    ratings = bot_ratings()
    out = []
    for spec in sorted(registry().values(), key=lambda s: (s.order, s.name)):   # books' order
        out.append({
            "name": spec.name, "family": spec.family, "variant": spec.variant,
            "title": {"en": spec.title_en, "ru": spec.title_ru},
            "summary": {"en": spec.summary_en, "ru": spec.summary_ru},
            "players": list(spec.players), "default_players": spec.default_players,
            "bots": list(bots_for(spec.name)),
            # what each level is, and its measured rating in this game (a new player: 25)
            "levels": {b: {"note": {"en": bot_note(b, "en"), "ru": bot_note(b, "ru")},
                           "rating": ratings.get(spec.name, {}).get(b, {}).get("mu")}
                       for b in bots_for(spec.name)},
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


def install(app: FastAPI) -> None:
    """The pages, the static files and the games' API on ``app``."""
    router = APIRouter()

    # ------------------------------------------------------------------ pages
    @router.get("/", include_in_schema=False)
    async def lobby_page(request: Request) -> Response:
        return page(str(STATIC.joinpath("lobby.html")), root_of(request))

    @router.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str, request: Request) -> Response:
        return page(str(STATIC.joinpath("table.html")), root_of(request))

    @router.get("/g/{game_id}", include_in_schema=False)
    async def replay_page(game_id: GameId, request: Request) -> Response:
        """A finished game stepped through move by move (``/g/<id>#42``: move 42)."""
        return page(str(STATIC.joinpath("replay.html")), root_of(request))

    @router.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return games_json()

    @router.get("/api/rules/{game}")
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

    @router.get("/api/texts")
    async def texts() -> dict[str, dict[str, str]]:
        return TEXTS

    app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
