"""Whether a seat may play an action now: the one check every front end makes before it
stores and applies a person's move (the browser's server, the terminal, line mode).

``check_turn`` asks in order: is the asker seated, is the match still on, has the asker
seen the latest state (when the front end counts versions), is it this seat's move, and
is the action legal (``Match.check``: the rule it breaks, changing nothing). A refusal is
:class:`TurnRefused`, an :class:`IllegalAction` with a ``code`` for programs beside the
reason for people.
"""

from __future__ import annotations

from typing import Any

from koloda.engine.actions import Action
from koloda.engine.errors import IllegalAction
from koloda.engine.match import Match
from koloda.engine.messages import Reason

#: the codes of a refusal, in the order they are asked
CODES = ("spectator", "over", "stale", "not_your_turn", "illegal")


class TurnRefused(IllegalAction):
    """A move refused before anything changed; ``code`` is one of :data:`CODES`."""

    def __init__(self, code: str, reason: str, /, **args: Any) -> None:
        super().__init__(reason, **args)
        self.code = code


def check_seat_to_move(match: Match, seat: int | None, *, seen: int | None = None,
                       version: int | None = None) -> int:
    """``seat`` if it is to move in the version the asker saw, else :class:`TurnRefused`
    (the checks of :func:`check_turn` before the action's own: what asking for a hint
    needs too)."""
    if seat is None:
        raise TurnRefused("spectator", "spectator")
    if match.is_over:
        raise TurnRefused("over", "match_over")
    if seen is not None and seen != version:
        raise TurnRefused("stale", "stale", seen=seen, now=version)
    to_move = match.to_move
    if to_move != seat:
        who = Reason("nobody") if to_move is None else Reason("seat_n", n=to_move + 1)
        raise TurnRefused("not_your_turn", "not_your_turn_web", who=who)
    return seat


def check_turn(match: Match, seat: int | None, action: str | Action, *,
               seen: int | None = None, version: int | None = None) -> str:
    """The canonical text of ``action`` if ``seat`` may play it now, else
    :class:`TurnRefused`. ``seen`` is the version of the table the asker last saw and
    ``version`` the table's own (both or neither: a front end without versions passes
    none). Changes nothing."""
    check_seat_to_move(match, seat, seen=seen, version=version)
    try:
        return match.check(action)
    except IllegalAction as exc:
        raise TurnRefused("illegal", exc.reason) from None
