"""What a table is made with, checked before the engine sees it: options and settings
small enough to read, a seat's name, the away settings. A request that cannot be done is a
:class:`TableError` (its message says why, in English and Russian).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from koloda.engine.messages import CATALOG, Names, Reason
from koloda.web.bots import bots_for, resolve_bot
from koloda.web.limits import TEXTS, Limits, Said, bad_name_char

AWAY_POLICIES = ("wait", "computer")
MAX_NAME = 40


class TableError(ValueError):
    """A request about tables that cannot be done (the message says why).

    Raised with a catalog key and its arguments (or a :class:`Reason`, e.g. a
    ``ConfigError``'s), the answer also carries the Russian sentence (``error_ru``)."""

    def __init__(self, reason: str, status: int = 400, **args: Any) -> None:
        if not isinstance(reason, Reason | Said):
            if reason in CATALOG:
                reason = Reason(reason, **args)
            elif reason in TEXTS:
                reason = Said(reason, **args)
        super().__init__(reason)
        self.reason = reason
        self.status = status
        #: seconds after which trying again may work (429): the Retry-After header
        self.retry_after: float | None = None

    def to_json(self) -> dict[str, str]:
        out = {"error": str(self.reason)}
        if isinstance(self.reason, Reason | Said):
            out["error_ru"] = self.reason.render("ru")
        return out



def _small_value(value: Any, text: int, depth: int) -> bool:
    """A number, a short text, true/false, null, or a short list/object of them."""
    if value is None or isinstance(value, bool | int | float):
        return True
    if isinstance(value, str):
        return len(value) <= text
    if depth <= 0:
        return False
    if isinstance(value, list):
        return len(value) <= 64 and all(_small_value(v, text, depth - 1) for v in value)
    if isinstance(value, dict):
        return len(value) <= 64 and all(isinstance(k, str) and len(k) <= text
                                        and _small_value(v, text, depth - 1)
                                        for k, v in value.items())
    return False


def _long_text(value: Any, text: int) -> bool:
    return isinstance(value, str) and len(value) > text


def check_sizes(lim: Limits, given: Any, what: str) -> None:
    """Options (or settings) small enough to be read, and named briefly enough to be
    echoed in an error: checked before the engine sees them, so an error never
    repeats a huge name or value."""
    if not isinstance(given, dict):
        raise TableError("options_not_object")
    if len(given) > lim.max_options:
        raise TableError("too_many_options", n=lim.max_options)
    for name, value in given.items():
        if not isinstance(name, str) or len(name) > lim.max_option_name:
            raise TableError("option_name_long", n=lim.max_option_name,
                             given=len(str(name)))
        if not _small_value(value, lim.max_option_text, 2):
            kind = "option_value_long" if _long_text(value, lim.max_option_text) \
                else "option_value_kind"
            raise TableError(kind, name=f"{name}" if what == "options"
                             else f"{name} ({what})", n=lim.max_option_text)


def check_name(name: Any) -> str:
    """A name as the table shows it: NFC, spaces collapsed; a control, NUL,
    zero-width, direction-override, separator or private-use character is refused
    (saying which and where), so two names that look alike are alike."""
    if not isinstance(name, str) or not name.strip():
        raise TableError("name_missing")
    name = unicodedata.normalize("NFC", name)
    bad = bad_name_char(name)
    if bad is not None:
        raise TableError(bad)
    name = " ".join(name.split())
    if len(name) > MAX_NAME:
        raise TableError("name_too_long", n=MAX_NAME)
    return name


#: what watchers see: the table live, or as it stood when the trick (round) in play began
SPECTATORS = ("live", "trick")

def check_settings(game: str, given: dict[str, Any], notes: list[str]) -> dict[str, Any]:
    unknown = sorted(set(given) - {"away_timeout", "away_policy", "away_bot", "private",
                                   "spectators"})
    if unknown:
        raise TableError("settings_unknown", names=Names(unknown))
    timeout = given.get("away_timeout", 120)
    if not isinstance(timeout, int) or isinstance(timeout, bool) \
            or not 1 <= timeout <= 86400:
        raise TableError("away_timeout")
    policy = given.get("away_policy", "computer")
    if policy not in AWAY_POLICIES:
        raise TableError("away_policy", policies=Names(AWAY_POLICIES))
    offered = bots_for(game)
    default = "heuristic" if "heuristic" in offered else "random"
    bot, note = resolve_bot(str(given.get("away_bot") or default), game)
    if note:
        notes.append(f"away_bot: {note}")
    private = given.get("private", False)
    if not isinstance(private, bool):
        raise TableError("private_flag")
    spectators = given.get("spectators", "live")
    if spectators not in SPECTATORS:
        raise TableError("spectators_setting", kinds=Names(SPECTATORS))
    return {"away_timeout": timeout, "away_policy": policy, "away_bot": bot,
            "private": private, "spectators": spectators}
