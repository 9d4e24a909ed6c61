"""A finished game's replay for the browser (``/g/<id>``): its record stepped through move by
move, each step drawn by the presenter the terminal uses (``koloda.present`` through
:func:`koloda.web.views.display`). The game is over, so nothing is hidden: every seat's
hand is shown, as ``koloda replay ID`` replays the same record.

Step ``n`` is the match after its first ``n`` actions (0: before the first move; the last
step: the result). A request rebuilds the match from the record, or goes on from the one
it built last for that game (stepping forward costs one action).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from koloda.engine.match import Match
from koloda.engine.records import from_record
from koloda.engine.registry import get_spec
from koloda.web import limits
from koloda.web.views import display

LANGS = ("en", "ru")
#: matches kept for stepping on (game id → the match at some step)
KEEP = 32

limits.TEXTS.update({
    "no_stored_game": ("no finished game {id} is stored here",
                       "партии {id} среди сохранённых нет"),
})


def page_seats(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The record's seats as the pages name them (a computer's kind is ``computer``)."""
    given = record.get("seats")
    seats: list[Any] = given if isinstance(given, list) else []
    out = []
    for i in range(int(record["players"])):
        s = seats[i] if i < len(seats) and isinstance(seats[i], dict) else {}
        bot = s.get("kind") == "bot"
        out.append({"seat": i, "kind": "computer" if bot else "person",
                    "name": s.get("name") or f"Player {i + 1}", "bot": s.get("bot"),
                    "taken": True, "connected": True})
    return out


@dataclass
class _Stepped:
    match: Match
    at: int
    #: the index of the action each deal began with (deal 1: 0)
    starts: list[int]


class Replays:
    """Steps of stored games (``store``: a :class:`koloda.store.Store`)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self._kept: OrderedDict[int, _Stepped] = OrderedDict()

    def record(self, game_id: int) -> dict[str, Any] | None:
        found: dict[str, Any] | None = self.store.record(game_id)
        return found

    def step(self, game_id: int, record: dict[str, Any], at: int | None) -> dict[str, Any]:
        """Step ``at`` (None or past the end: the last) of the stored game."""
        actions = record.get("actions") or []
        total = len(actions)
        at = total if at is None else max(0, min(int(at), total))
        kept = self._stepped(game_id, record, at)
        match = kept.match
        seats = page_seats(record)
        public = match.public_observation().to_json()
        done = actions[kept.starts[min(len(match.deals), len(kept.starts)) - 1]:at]
        spec = get_spec(record["game"])
        return {
            "game_id": game_id, "game": spec.name, "at": at, "total": total,
            "title": {"en": spec.title_en, "ru": spec.title_ru},
            "seats": seats,
            "action": actions[at - 1] if at > 0 else None,
            "display": {lang: display(match, None, seats, lang, frozenset()) for lang in LANGS},
            "hands": [{"seat": s, "cards": _hand(match, s, seats)}
                      for s in range(match.players)],
            "view": {k: public.get(k) for k in ("game", "deal_number", "dealer", "to_move",
                                                 "match_over")},
            "log": [[a["seat"], a["action"]] for a in done],
            "result": match.result.to_json() if match.result is not None else None,
        }

    def _stepped(self, game_id: int, record: dict[str, Any], at: int) -> _Stepped:
        kept = self._kept.get(game_id)
        if kept is None or kept.at > at:
            kept = _Stepped(from_record(dict(record, actions=[], result=None)), 0, [0])
        actions = record.get("actions") or []
        for i in range(kept.at, at):
            deals = len(kept.match.deals)
            kept.match.apply(actions[i]["action"])
            if len(kept.match.deals) > deals:
                del kept.starts[deals:]
                kept.starts.append(i + 1)
        kept.at = at
        self._kept[game_id] = kept
        self._kept.move_to_end(game_id)
        while len(self._kept) > KEEP:
            self._kept.popitem(last=False)
        return kept


def _hand(match: Match, seat: int, seats: list[dict[str, Any]]) -> list[str]:
    hand = display(match, seat, seats, "en", frozenset()).get("hand")
    return list(hand["cards"]) if hand else []
