"""The errors every game speaks: each names what was wrong in words a person understands."""

from __future__ import annotations

from typing import Any

from koloda.engine.messages import CATALOG, Reason


class _Said(ValueError):
    """An error whose message may be a catalog :class:`Reason`.

    ``str(exc)`` is the English sentence. Raised with a :class:`Reason` (or a message key
    and its arguments: ``IllegalAction("not_held", cards=Cards([c]))``), it also carries
    ``key`` and ``args``, and ``render(lang)`` says it in the player's language.
    """

    def __init__(self, reason: str, /, **args: Any) -> None:
        if args or (not isinstance(reason, Reason) and reason in CATALOG):
            reason = Reason(reason, **args)
        super().__init__(reason)
        self.reason = reason

    @property
    def key(self) -> str | None:
        """The catalog key, or None for a plain-text message."""
        return self.reason.key if isinstance(self.reason, Reason) else None

    def render(self, lang: str = "en") -> str:
        if isinstance(self.reason, Reason):
            return self.reason.render(lang)
        return str(self.reason)


class IllegalAction(_Said):
    """An action the rules do not allow now; the message names the rule broken."""


class ConfigError(_Said):
    """An unknown game, variant or option, a bad option value or player count.

    Like :class:`IllegalAction`, raised with a message key and its arguments
    (``ConfigError("unknown_game", name=Value(name), games=Names(specs))``)."""


class RecordError(_Said):
    """A malformed record; the message names the broken field.

    Most are plain English text (a public interface: docs/records.md); a record file that
    cannot be read or is not a JSON object is a catalog message, said in Russian too."""
