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
import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from koloda.cards import CARD_TEXT, TEXT_CARD
from koloda.engine.match import Match
from koloda.engine.terms import card_word
from koloda.moves import MoveChooser
from koloda.present import present, present_result
from koloda.web.conn import dumps

log = logging.getLogger("koloda.web")

CARD_TEXTS = frozenset(CARD_TEXT)
HIDDEN = "??"


#: a card's code (``9H``) wherever it stands, inside a longer word too
_CARD_CODE = re.compile(r"[2-9TJQKA][SCDH]")


def mentions(text: str, hidden: frozenset[str]) -> bool:
    """Whether ``hidden`` card texts occur in ``text`` (a serialized message) at all: a
    quick test that may say yes wrongly (``"9H"`` inside a longer word), never no
    wrongly — so the exact, slower ``redact`` runs only when it might matter. (Every
    place a code could start is looked at: a code's second character, a suit, never
    begins another.)"""
    if len(hidden) <= 2:
        return any(c in text for c in hidden)
    return not hidden.isdisjoint(_CARD_CODE.findall(text))


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


#: a message's parts public by the engine's word, never redacted: a finished match's
#: result (its whole record is served once the match is over). Its card texts need not
#: be the deal's: Mushka's draw for the first dealer uses its own pack, so a "7H" drawn
#: there is no 7H that is in anyone's hand now.
PUBLIC_PARTS = ("result",)


def guarded(msg: dict[str, Any], hidden: frozenset[str], dumps: Any) -> str:
    """``msg`` serialized, with every card of ``hidden`` redacted wherever it stands —
    the last line of defence for everything a connection is sent (but a finished match's
    ``result``, see :data:`PUBLIC_PARTS`)."""
    text: str = dumps(msg)
    if mentions(text, hidden):
        public = {k: msg[k] for k in PUBLIC_PARTS if msg.get(k) is not None}
        safe, n = redact({k: v for k, v in msg.items() if k not in public}, hidden)
        safe = {k: public[k] if k in public else safe[k] for k in msg} if n else msg
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


# ------------------------------------------------------------ what a person sees
def seat_names(seats: Sequence[Mapping[str, Any]], players: int, lang: str) -> list[str]:
    """Seats as the page names them: a person's name, «Компьютер 2», «Место 3»."""
    from koloda.web.texts import TEXTS
    said = TEXTS["ru" if lang == "ru" else "en"]
    out = []
    for i in range(players):
        s = seats[i] if i < len(seats) else {}
        if s.get("kind") == "computer":
            out.append(said["computer_n"].format(n=i + 1))
        else:
            out.append(s.get("name") or said["seat_n"].format(n=i + 1))
    return out


_CARD_WORD = re.compile(r"(?:10|[2-9JQKAВДКТ])[♠♣♦♥]")


def _guard_display(value: Any, hidden: frozenset[str], lang: str,
                   words: frozenset[str] | None = None) -> tuple[Any, int]:
    """A display with every card the receiver may not know shown face down: its code as
    ``"??"`` and its words (10♥, also inside a sentence) as a card back — the display
    says cards in words, which the JSON-level ``redact`` cannot see."""
    if words is None:
        words = frozenset(card_word(TEXT_CARD[c], lang) for c in hidden)
    if isinstance(value, str):
        n = 0

        def back(m: re.Match[str]) -> str:
            nonlocal n
            if m.group(0) in words:
                n += 1
                return BACK
            return m.group(0)
        out_text = _CARD_WORD.sub(back, value)
        return (out_text, n) if n else (value, 0)
    if isinstance(value, list):
        total = 0
        items = []
        for v in value:
            r, n = _guard_display(v, hidden, lang, words)
            items.append(r)
            total += n
        return items, total
    if not isinstance(value, dict):
        return value, 0
    total = 0
    out: dict[str, Any] = {}
    for k, v in value.items():
        if k in ("cards", "card"):
            cards = v if isinstance(v, list) else [v]
            n = sum(c in hidden for c in cards)
            if n:
                total += n
                safe = [HIDDEN if c in hidden else c for c in cards]
                out[k] = safe if isinstance(v, list) else safe[0]
            else:
                out[k] = v
            continue
        r, n = _guard_display(v, hidden, lang, words)
        out[k] = r
        total += n
    return out, total


BACK = "🂠"


def display(match: Match, viewer: int | None, seats: Sequence[Mapping[str, Any]],
            lang: str, hidden: frozenset[str] | None = None) -> dict[str, Any]:
    """The presenter's display (koloda.present) of the table for ``viewer`` (None: a
    spectator — the engine's public observation), in ``lang``, cards the viewer may not
    know face down."""
    obs = match.observation(viewer) if viewer is not None else match.public_observation()
    names = seat_names(seats, match.players, lang)
    disp = present(obs, lang, names, viewer)
    if match.result is not None:
        disp["result"] = present_result(match.result.to_json(), match.spec.name, lang, names)
    if hidden is None:
        hidden = hidden_texts(match, viewer)
    if not hidden:
        return disp
    words = frozenset(card_word(TEXT_CARD[c], lang) for c in hidden)
    probe = dumps(disp)
    if words.isdisjoint(_CARD_WORD.findall(probe)) and not mentions(probe, hidden):
        # no hidden card's word nor code anywhere in it (the walk below would find
        # none either): as it is
        return disp
    safe, n = _guard_display(disp, hidden, lang, words)
    if n:
        log.warning("display: %d hidden card(s) shown face down", n)
    out: dict[str, Any] = safe
    return out


def displays(match: Match, viewer: int | None,
             seats: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """The display in each language, for the ``state`` message's ``display`` part (the
    page shows the one of its chosen language and can switch without asking)."""
    hidden = hidden_texts(match, viewer)
    return {lang: display(match, viewer, seats, lang, hidden) for lang in ("en", "ru")}


# ------------------------------------------------------------- choosing a move
def open_targets(disp: Mapping[str, Any]) -> list[str]:
    """The uncovered attack cards of a display's Durak table, in the table's order (the
    cards a person may choose to cover; none when the centre is no such table)."""
    part = disp.get("centre")
    if not part or part.get("kind") != "table":
        return []
    return [str(p["attack"]["cards"][0]) for p in part["pairs"]
            if p["cover"] is None and p["attack"].get("cards")]


def moves_json(match: Match, viewer: int | None, legal: Sequence[str]) -> dict[str, Any]:
    """The ``state`` message's ``moves``: what the move chooser (koloda.moves, the one the
    terminal uses) computes for ``viewer``'s legal actions and hand — the page maps the
    cards a person chooses to actions with it and never reads an action's text for that."""
    if viewer is None or not legal:
        return MoveChooser([], []).to_json()
    disp = present(match.observation(viewer), "en", None, viewer)
    hand = disp["hand"]["cards"] if disp["hand"] else []
    return MoveChooser(list(legal), list(hand)).to_json(open_targets(disp))
