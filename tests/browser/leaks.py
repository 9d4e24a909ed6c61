"""Checking what a client was sent against what its seat could know.

Every frame is checked against ``match.hidden_from(seat)`` *at the version the frame
names*: the finished match's record is replayed action by action, so each version's
hidden cards are the engine's own answer, not the server's.
"""

from __future__ import annotations

import json
from typing import Any

from koloda.cards import CARD_TEXT
from koloda.engine.records import from_record

CARDS = frozenset(CARD_TEXT)


def hidden_by_version(record: dict[str, Any]) -> list[list[frozenset[str]]]:
    """``[version][seat]`` → card texts hidden from that seat after ``version`` actions."""
    match = from_record(dict(record, actions=[], result=None))
    seats = range(match.players)

    def now() -> list[frozenset[str]]:
        return [frozenset(CARD_TEXT[c] for c in match.hidden_from(s)) for s in seats]

    out = [now()]
    for a in record["actions"]:
        match.apply(a["action"])
        out.append(now())
    return out


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in strings(k) + strings(v)]
    return []


def leaks(record: dict[str, Any], frames: list[tuple[int | None, str]]) -> list[str]:
    """Every (seat, frame) that names a card hidden from its receiver at its version.
    Seat None is a spectator: nothing hidden from any seat may reach it."""
    table = hidden_by_version(record)
    problems = []
    for seat, text in frames:
        msg = json.loads(text)
        version = msg.get("version")
        if version is None and isinstance(msg.get("table"), dict):
            version = msg["table"].get("version")
        if version is None:
            version_sets = table  # no version: it must hold at every version
        else:
            version_sets = [table[version]]
        for sets in version_sets:
            hidden = frozenset().union(*sets) if seat is None else sets[seat]
            named = {w for s in strings(msg) for w in s.split() if w in CARDS}
            bad = named & hidden
            if bad:
                problems.append(f"seat {seat} at version {version}: {sorted(bad)} in "
                                f"{msg.get('type')} {text[:200]}")
                break
    return problems
