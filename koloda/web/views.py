"""What each connection may see: a seat's observation, the public view, a redacted log.

The engine's ``observation(seat)`` is the only source of a seat's view. Everything that
leaves the server is also passed through ``redact`` with the receiver's hidden cards
(``match.hidden_from``): a card the receiver could not know is replaced by ``"??"``
wherever it appears — a last line of defence, so a mistake anywhere (an engine field, the
log, a new game) shows a face-down card instead of leaking one.

A spectator sees what every seat may see: a seat's observation with its private fields
dropped, and every card hidden from *any* seat redacted.
"""

from __future__ import annotations

import logging
from typing import Any, NamedTuple

from koloda.cards import CARD_TEXT
from koloda.engine.match import Match

log = logging.getLogger("koloda.web")

CARD_TEXTS = frozenset(CARD_TEXT)
HIDDEN = "??"


def mentions(text: str, hidden: frozenset[str]) -> bool:
    """Whether ``hidden`` card texts occur in ``text`` (a serialized message) at all: a
    quick substring test that may say yes wrongly (``"9H"`` inside a longer word), never
    no wrongly — so the exact, slower ``redact`` runs only when it might matter."""
    return any(c in text for c in hidden)


def cards_in(text: str) -> list[str]:
    """The card texts in an action or any other text (``"beat 9H KH"`` → 9H, KH)."""
    return [w for w in text.split() if w in CARD_TEXTS]


def hidden_texts(match: Match, seat: int | None) -> frozenset[str]:
    """Card texts ``seat`` cannot know now (None: a spectator — hidden from any seat)."""
    if seat is not None:
        return frozenset(CARD_TEXT[c] for c in match.hidden_from(seat))
    out: set[str] = set()
    for s in range(match.players):
        out.update(CARD_TEXT[c] for c in match.hidden_from(s))
    return frozenset(out)


def redact(value: Any, hidden: frozenset[str]) -> tuple[Any, int]:
    """``value`` with every hidden card text replaced by ``"??"``; and how many were."""
    if isinstance(value, str):
        if value in hidden:
            return HIDDEN, 1
        if " " in value and any(w in hidden for w in value.split()):
            words = value.split(" ")
            n = sum(w in hidden for w in words)
            return " ".join(HIDDEN if w in hidden else w for w in words), n
        return value, 0
    if isinstance(value, list):
        total = 0
        out = []
        for v in value:
            r, n = redact(v, hidden)
            out.append(r)
            total += n
        return (out, total) if total else (value, 0)
    if isinstance(value, dict):
        total = 0
        dout = {}
        for k, v in value.items():
            r, n = redact(v, hidden)
            dout[k] = r
            total += n
        return (dout, total) if total else (value, 0)
    return value, 0


def guarded(msg: dict[str, Any], hidden: frozenset[str], dumps: Any) -> str:
    """``msg`` serialized, with every card of ``hidden`` redacted wherever it stands —
    the last line of defence for everything a connection is sent."""
    text: str = dumps(msg)
    if mentions(text, hidden):
        safe, n = redact(msg, hidden)
        if n:
            log.warning("redacted %d hidden card(s) from a %s message", n, msg.get("type"))
            text = dumps(safe)
    return text


def public_view(match: Match, hidden_any: frozenset[str]) -> dict[str, Any]:
    """The spectator's view: the engine's public observation (no field private to a
    seat), every card hidden from any seat redacted."""
    obs = match.public_observation().to_json()
    safe, _ = redact(obs, hidden_any)
    return safe


class LogEntry(NamedTuple):
    """One accepted action, with the cards in it that each seat could not see when it was
    made (index ``players`` is the spectators'; None: everyone saw them all). Plain tuples
    of text: the garbage collector soon stops tracking them, which matters with many
    tables in play."""

    seat: int
    text: str
    deal: int
    secret: tuple[tuple[str, ...], ...] | None

    def for_viewer(self, viewer: int | None, players: int) -> tuple[int, str]:
        if self.secret is None or viewer == self.seat:
            return (self.seat, self.text)
        hide = self.secret[players if viewer is None else viewer]
        if not hide:
            return (self.seat, self.text)
        return (self.seat, " ".join(HIDDEN if w in hide else w for w in self.text.split(" ")))


def log_entry(match: Match, seat: int, text: str, deal: int) -> LogEntry:
    """Called right after ``text`` was applied: which of its cards each seat can't see."""
    cards = cards_in(text)
    if not cards:
        return LogEntry(seat, text, deal, None)
    if len(match.deals) - 1 != deal:
        # the action ended its deal; a new deal is on the table — its hidden cards say
        # nothing about this one, so hide the action's cards from everyone but the actor
        everything = tuple(cards)
        return LogEntry(seat, text, deal, tuple(everything for _ in range(match.players + 1)))
    per_seat = []
    union: set[str] = set()
    for s in range(match.players):
        hid = {CARD_TEXT[c] for c in match.hidden_from(s)}.intersection(cards)
        per_seat.append(tuple(sorted(hid)))
        union |= hid
    if not union:
        return LogEntry(seat, text, deal, None)
    per_seat.append(tuple(sorted(union)))
    return LogEntry(seat, text, deal, tuple(per_seat))
