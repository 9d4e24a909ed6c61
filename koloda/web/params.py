"""What a request's path and query may hold, checked before anything looks it up: a stored
game's id (a 64-bit signed integer, as the database keeps it), a count or a place in a
list (``offset``, ``limit``, ``at``, ``recent``: sane bounds), and a table's id (the form
the server makes them in). Out of bounds, FastAPI refuses the request with 422, and
:func:`one_line` says why in one line, in English and Russian.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import Path, Query

from koloda.engine.messages import Value
from koloda.web import limits

#: the largest id the database holds (a 64-bit signed integer)
ID_MAX = 2**63 - 1
#: the largest count or place in a list a request may name
COUNT_MAX = 10**9
#: a table's id: the server makes them with ``secrets.token_urlsafe(6)`` (8 characters
#: of A-Z a-z 0-9 - _); this allows up to 16 of them
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")
#: characters of a malformed id an answer repeats
SHOWN = 8

#: the bounds of each number a route takes (name → lowest, highest)
BOUNDS: dict[str, tuple[int, int]] = {
    "game_id": (1, ID_MAX), "at": (0, COUNT_MAX), "offset": (0, COUNT_MAX),
    "limit": (1, COUNT_MAX), "recent": (1, COUNT_MAX),
}

GameId = Annotated[int, Path(ge=BOUNDS["game_id"][0], le=BOUNDS["game_id"][1])]
At = Annotated[int | None, Query(ge=BOUNDS["at"][0], le=BOUNDS["at"][1])]
Offset = Annotated[int, Query(ge=BOUNDS["offset"][0], le=BOUNDS["offset"][1])]
Limit = Annotated[int | None, Query(ge=BOUNDS["limit"][0], le=BOUNDS["limit"][1])]
Count = Annotated[int, Query(ge=BOUNDS["limit"][0], le=BOUNDS["limit"][1])]
Recent = Annotated[int, Query(ge=BOUNDS["recent"][0], le=BOUNDS["recent"][1])]

limits.TEXTS.update({
    "bad_number": ("{field}: a whole number from {lo} to {hi}",
                   "{field}: целое число от {lo} до {hi}"),
    "bad_whole": ("{field}: a whole number", "{field}: нужно целое число"),
    "bad_missing": ("{field}: missing", "{field}: не указано"),
    "bad_value": ("{field}: {why}", "{field}: недопустимое значение"),
})

_INT_ERRORS = frozenset({"int_parsing", "int_type", "int_from_float", "greater_than_equal",
                         "less_than_equal", "greater_than", "less_than"})


def well_formed_table_id(table_id: str) -> bool:
    """Whether ``table_id`` has the form of an id the server makes."""
    return TABLE_ID.fullmatch(table_id) is not None


def shown_table_id(table_id: str) -> Value:
    """``table_id`` as an answer repeats it: whole if well formed, else its first
    :data:`SHOWN` characters and an ellipsis."""
    return Value(table_id if well_formed_table_id(table_id) else table_id[:SHOWN] + "…")


def one_line(errors: list[Any]) -> limits.Said:
    """What is wrong with a request FastAPI refused, the first of its ``errors`` in one
    line (a field's name shortened, its value never repeated)."""
    first = errors[0] if errors else {}
    loc = [str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path")]
    name = loc[-1] if loc else "request"
    field = ".".join(loc)[:40] or "request"
    kind = first.get("type", "")
    if kind in _INT_ERRORS:
        ctx = first.get("ctx") or {}
        lo, hi = BOUNDS.get(name, (ctx.get("ge"), ctx.get("le")))
        if lo is not None and hi is not None:
            return limits.Said("bad_number", field=field, lo=lo, hi=hi)
        return limits.Said("bad_whole", field=field)
    if kind == "missing":
        return limits.Said("bad_missing", field=field)
    return limits.Said("bad_value", field=field, why=str(first.get("msg", ""))[:80])
