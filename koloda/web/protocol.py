"""The websocket protocol: what a client may send, checked before anything else sees it.

Client → server (JSON objects, one per text frame, at most ``MAX_MESSAGE`` bytes):

- ``{"type": "hello", "token": "…", "invite": "…"}`` — first message; with a seat token
  the connection acts for that seat, without one (or ``"token": null``) it watches as a
  spectator; a private table's watcher also gives its invite key.
- ``{"type": "act", "version": N, "action": "play 9H", "id": …}`` — an action for the
  connection's seat; ``version`` is the state version the client saw, ``id`` (optional,
  a number or short text) is echoed in the answer.
- ``{"type": "ping", "id": …}`` — answered by ``pong``.
- ``{"type": "hint", "version": N, "id": …}`` — what the game's strongest computer player
  would play for the connection's seat, answered by ``hint`` (at a table where every other
  seat is a computer; the record counts the hints).
- ``{"type": "takeback", "version": N, "id": …}`` — undo the seat's last move in this deal
  and the computers' since (at such a table too), answered by ``ok`` and a new state.
- ``{"type": "chat", "text": "…", "id": …}`` — a line of the table's chat, from a seat.
- ``{"type": "rematch", "id": …}`` — once the match is over, a seat asks for the next one
  with the same seats; everyone at the table is told where it is played.

Anything else is refused with ``{"type": "refused", "code": …, "reason": …}`` and
changes nothing. Server → client messages are listed in docs/web.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

#: bytes of one client message; a real one is under 200
MAX_MESSAGE = 2048
MAX_ACTION = 200
MAX_TOKEN = 100
MAX_ID = 64

#: message type → (required fields, optional fields)
FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "hello": (frozenset(), frozenset({"token", "invite"})),
    "act": (frozenset({"version", "action"}), frozenset({"id"})),
    "ping": (frozenset(), frozenset({"id"})),
    "hint": (frozenset({"version"}), frozenset({"id"})),
    "takeback": (frozenset({"version"}), frozenset({"id"})),
    "chat": (frozenset({"text"}), frozenset({"id"})),
    "rematch": (frozenset(), frozenset({"id"})),
}


@dataclass(frozen=True)
class Refusal:
    """Why a message was not accepted; ``code`` is for programs, ``reason`` for people."""

    code: str
    reason: str
    id: Any = None

    def to_json(self, version: int | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "refused", "code": self.code, "reason": self.reason}
        render = getattr(self.reason, "render", None)
        if render is not None:
            # a refusal from the engine's message catalog (or the server's own): the
            # browser shows the player's language (``reason`` stays the English
            # sentence, for programs and logs)
            out["reason"] = str(self.reason)
            out["reason_ru"] = render("ru")
        if self.id is not None:
            out["id"] = self.id
        if version is not None:
            out["version"] = version
        return out


@dataclass(frozen=True)
class Message:
    type: str
    fields: dict[str, Any]

    @property
    def id(self) -> Any:
        return self.fields.get("id")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def parse(raw: str | bytes | None) -> Message | Refusal:
    """One client frame → a checked message, or the reason it is refused."""
    if raw is None or isinstance(raw, bytes | bytearray):
        return Refusal("malformed", "binary frames are not part of the protocol: send JSON "
                                    "text")
    if len(raw.encode("utf-8")) > MAX_MESSAGE:
        return Refusal("oversize", f"message too long: at most {MAX_MESSAGE} bytes")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        return Refusal("malformed", "not JSON")
    if not isinstance(data, dict):
        return Refusal("malformed", "a message is a JSON object with a \"type\"")
    mid = data.get("id")
    if mid is not None and not (_is_int(mid) or (isinstance(mid, str) and len(mid) <= MAX_ID)):
        return Refusal("bad_field", f"id: a number or text of at most {MAX_ID} characters")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        return Refusal("unknown_type", f"unknown message type {kind!r}; types: "
                                       f"{', '.join(FIELDS)}", mid)
    required, optional = FIELDS[kind]
    unknown = sorted(set(data) - required - optional - {"type"})
    if unknown:
        return Refusal("unknown_field", f"{kind}: unknown field(s) {', '.join(unknown)}", mid)
    missing = sorted(required - set(data))
    if missing:
        return Refusal("bad_field", f"{kind}: missing {', '.join(missing)}", mid)
    if kind == "act":
        if not _is_int(data["version"]) or data["version"] < 0:
            return Refusal("bad_field", "act: version is the state version you saw, a whole "
                                        "number", mid)
        action = data["action"]
        if not isinstance(action, str) or not action.strip() or len(action) > MAX_ACTION:
            return Refusal("bad_field", f"act: action is text like \"play 9H\", at most "
                                        f"{MAX_ACTION} characters", mid)
    if kind in ("hint", "takeback") and (not _is_int(data["version"])
                                         or data["version"] < 0):
        return Refusal("bad_field", f"{kind}: version is the state version you saw, a "
                                    f"whole number", mid)
    if kind == "chat" and (not isinstance(data["text"], str) or len(data["text"]) > 1000):
        return Refusal("bad_field", "chat: text is a line of at most 200 characters", mid)
    if kind == "hello":
        token = data.get("token")
        if token is not None and (not isinstance(token, str) or len(token) > MAX_TOKEN):
            return Refusal("bad_field", "hello: token is the seat token text (or null to "
                                        "watch)", mid)
        invite = data.get("invite")
        if invite is not None and (not isinstance(invite, str) or len(invite) > MAX_TOKEN):
            return Refusal("bad_field", "hello: invite is a private table's invite key "
                                        "(from its link)", mid)
    return Message(kind, {k: v for k, v in data.items() if k != "type"})
