"""koloda-record/1: read, check and replay records (docs/records.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from koloda.cards import Card, parse_card
from koloda.engine.deal import Deal, not_your_turn
from koloda.engine.errors import ConfigError, IllegalAction, RecordError
from koloda.engine.match import Match
from koloda.engine.messages import CATALOG, Reason
from koloda.engine.registry import get_spec

FORMAT = "koloda-record/1"
_KEYS = {"format", "game", "players", "options", "seats", "seed", "first_dealer", "deals",
         "actions", "result"}


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file; a file that is not JSON is a RecordError naming where."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError("cannot_read", path=str(path), why=_os_reason(exc)) from None
    except UnicodeDecodeError as exc:
        raise RecordError("not_utf8", path=str(path), at=exc.start) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError("not_json", msg=exc.msg, line=exc.lineno, column=exc.colno) \
            from None
    if not isinstance(data, dict):
        raise RecordError("record_not_object")
    return data


#: the system's words for the common reasons a file cannot be read, as catalog keys
_OS_REASONS = {"No such file or directory": "file_missing", "Permission denied": "file_denied",
               "Is a directory": "file_is_dir"}


def _os_reason(exc: OSError) -> str:
    text = str(exc.strerror or exc)
    key = _OS_REASONS.get(text)
    return Reason(key) if key is not None and CATALOG[key][0] == text else text


def _card(value: Any, where: str) -> Card:
    if not isinstance(value, str):
        raise RecordError(f"{where}: a card is text like \"6C\", not {value!r}")
    try:
        return parse_card(value)
    except ValueError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _int(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{where}: expected a whole number, not {value!r}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"{where}: expected a list, not {type(value).__name__}")
    return value


def parse_deal(data: Any, index: int, players: int) -> Deal:
    where = f"deals[{index}]"
    if not isinstance(data, dict):
        raise RecordError(f"{where}: expected an object with dealer, hands, stock, trump_card")
    for key in ("dealer", "hands"):
        if key not in data:
            raise RecordError(f"{where}.{key}: missing")
    dealer = _int(data["dealer"], f"{where}.dealer")
    if not 0 <= dealer < players:
        raise RecordError(f"{where}.dealer: {dealer} is not a seat of {players}")
    hands = _list(data["hands"], f"{where}.hands")
    if len(hands) != players:
        raise RecordError(f"{where}.hands: {len(hands)} hands for {players} players")
    parsed = tuple(tuple(_card(c, f"{where}.hands[{i}][{j}]")
                         for j, c in enumerate(_list(h, f"{where}.hands[{i}]")))
                   for i, h in enumerate(hands))
    stock = tuple(_card(c, f"{where}.stock[{j}]")
                  for j, c in enumerate(_list(data.get("stock", []), f"{where}.stock")))
    trump = data.get("trump_card")
    trump_card = None if trump is None else _card(trump, f"{where}.trump_card")
    return Deal(dealer, parsed, stock, trump_card)


@dataclass
class ParsedRecord:
    game: str
    players: int
    options: dict[str, Any]
    seed: int | None
    first_dealer: int | None
    deals: list[Deal]
    actions: list[tuple[int, str]]
    result: dict[str, Any] | None
    raw: dict[str, Any] = field(repr=False, default_factory=dict)


def parse_record(data: Any) -> ParsedRecord:
    """Check every field of a record; the first problem is a RecordError naming the field."""
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"format: expected {FORMAT!r}, got {data.get('format')!r}")
    for key in ("game", "players", "deals", "actions"):
        if key not in data:
            raise RecordError(f"{key}: missing")
    if not isinstance(data["game"], str):
        raise RecordError(f"game: expected a game name, not {data['game']!r}")
    try:
        spec = get_spec(data["game"])
    except ConfigError as exc:
        raise RecordError("record_field", field="game", reason=exc.reason) from None
    players = _int(data["players"], "players")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise RecordError("options: expected an object")
    try:
        spec.check_players(players)
        opts = spec.resolve_options(players, options)
    except ConfigError as exc:
        field = "players" if exc.key == "players_count" else "options"
        raise RecordError("record_field", field=field, reason=exc.reason) from None
    seed = data.get("seed")
    if seed is not None:
        seed = _int(seed, "seed")
    first_dealer = data.get("first_dealer")
    if first_dealer is not None:
        first_dealer = _int(first_dealer, "first_dealer")
        if not 0 <= first_dealer < players:
            raise RecordError(f"first_dealer: {first_dealer} is not a seat of {players}")
    deals = [parse_deal(d, i, players) for i, d in enumerate(_list(data["deals"], "deals"))]
    if not deals and seed is None:
        raise RecordError("deals: empty, and no seed to deal from")
    actions: list[tuple[int, str]] = []
    for i, a in enumerate(_list(data["actions"], "actions")):
        if not isinstance(a, dict) or "seat" not in a or "action" not in a:
            raise RecordError(f"actions[{i}]: expected {{\"seat\": N, \"action\": \"...\"}}")
        seat = _int(a["seat"], f"actions[{i}].seat")
        if not isinstance(a["action"], str):
            raise RecordError(f"actions[{i}].action: expected text, not {a['action']!r}")
        actions.append((seat, a["action"]))
    result = data.get("result")
    if result is not None and not isinstance(result, dict):
        raise RecordError("result: expected null or an object")
    return ParsedRecord(spec.name, players, opts, seed, first_dealer, deals, actions, result,
                        data)


def from_record(data: dict[str, Any] | ParsedRecord) -> Match:
    """The match as it stood before the first action of the record."""
    rec = data if isinstance(data, ParsedRecord) else parse_record(data)
    spec = get_spec(rec.game)
    return spec.match_class(spec, rec.players, rec.options, seed=rec.seed, deals=rec.deals,
                            first_dealer=rec.first_dealer)


@dataclass
class Replay:
    """The replay object of docs/records.md (``to_json``), and the match as replayed."""

    steps: list[dict[str, Any]] = field(default_factory=list)
    match: Match | None = None
    error: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.match is not None:
            out["steps"] = self.steps
            out["over"] = self.match.is_over
            res = self.match.result
            out["result"] = res.to_json() if res else None
        if self.error is not None:
            out["error"] = self.error
        return out


_RESULT_KEYS = ("winners", "losers", "scores", "capped")


def replay(data: dict[str, Any], *, keep_steps: bool = True) -> Replay:
    """Replay every action; stop at the first illegal one; check the written result."""
    out = Replay()
    try:
        rec = parse_record(data)
        match = from_record(rec)
    except RecordError as exc:
        out.error = {"field": str(exc).split(":", 1)[0], "reason": str(exc)}
        return out
    out.match = match
    for index, (seat, action) in enumerate(rec.actions):
        legal = match.legal_actions()
        if keep_steps:
            out.steps.append({"index": index, "seat": seat, "action": action, "legal": legal})
        if match.is_over:
            out.error = {"index": index, "action": action,
                         "reason": "the match is already over"}
            return out
        if match.awaiting_dealer is not None:
            n = len(match.deals)
            out.error = {"index": index, "action": action, "field": "deals",
                         "reason": f"deals[{n}]: the record has no deal {n} and no seed to "
                                   f"deal it from"}
            return out
        if seat != match.to_move:
            out.error = {"index": index, "action": action,
                         "reason": not_your_turn(seat, match.to_move)}
            return out
        try:
            match.apply(action)
        except IllegalAction as exc:
            # the Reason itself: English in the JSON, any language for a person
            out.error = {"index": index, "action": action, "reason": exc.reason or str(exc)}
            return out
        except RecordError as exc:
            out.error = {"index": index, "action": action, "field": "deals",
                         "reason": str(exc)}
            return out
    if rec.result is not None:
        mine = match.result.to_json() if match.result else None
        if mine is None:
            out.error = {"field": "result", "reason": "the record has a result but the match "
                                                      "is not over after its actions"}
        else:
            diff = [k for k in _RESULT_KEYS if k in rec.result and rec.result[k] != mine[k]]
            if diff:
                out.error = {"field": "result",
                             "reason": "the written result differs from the replay in "
                                       + ", ".join(f"{k} (written {rec.result[k]!r}, replayed "
                                                   f"{mine[k]!r})" for k in diff)}
    return out
