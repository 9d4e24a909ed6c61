"""A game at the table, for any front end: who sits where, computer moves, the autosaved
record, and the store once the match is over.

Both the full-screen TUI and the line mode drive a match through this class. It never
looks inside a game: it asks the match for the seat to move and its legal actions, lets a
bot choose from an observation, and saves the record after every action, so quitting —
or a crash — never loses a game.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from koloda.bots import available_bots, make_bot
from koloda.bots.base import bot_levels, person_time_cap
from koloda.bots.hint import hint, hint_bot
from koloda.engine.errors import IllegalAction
from koloda.engine.match import Match
from koloda.engine.records import from_record, load_record, parse_record
from koloda.engine.turns import check_turn
from koloda.engine.view import Observation


def autosave_dir() -> Path:
    from koloda.paths import data_dir
    d = data_dir() / "autosave"
    d.mkdir(parents=True, exist_ok=True)
    return d


def autosave_path(match: Match) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return autosave_dir() / f"{match.spec.name}-{stamp}-{match.seed}.json"


def save(match: Match, seats: list[dict[str, Any]], path: Path) -> None:
    """Write the record atomically: a crash never leaves half a file."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(match.record(seats), ensure_ascii=False, indent=1),
                   encoding="utf-8")
    tmp.replace(path)


def resume(path: Path) -> tuple[Match, list[dict[str, Any]]]:
    """The match of a saved record, with every recorded action applied again."""
    data = load_record(path)
    rec = parse_record(data)
    match = from_record(rec)
    for seat, action in rec.actions:
        if seat != match.to_move:
            raise IllegalAction("acted_out_of_turn", seat=seat, path=str(path))
        match.apply(action)
    seats = data.get("seats") or [{"name": f"Player {i + 1}", "kind": "human"}
                                  for i in range(match.players)]
    return match, seats


def default_player_name() -> str:
    """``$KOLODA_PLAYER``, else the login name: the profile a person's games go to."""
    name = os.environ.get("KOLODA_PLAYER")
    if name:
        return name
    try:
        import getpass
        return getpass.getuser() or "Player"
    except (OSError, KeyError, ImportError):
        return "Player"


def make_seats(players: int, human: int | None, bots: list[str], name: str,
               lang: str = "en") -> list[dict[str, Any]]:
    """Seat descriptions for a record: the person at ``human``, computers elsewhere.

    ``bots`` names one bot for every computer seat, or one per computer seat in order."""
    out: list[dict[str, Any]] = []
    k = 0
    word = "Компьютер" if lang == "ru" else "Computer"
    for i in range(players):
        if i == human:
            out.append({"name": name, "kind": "human"})
            continue
        bot = bots[min(k, len(bots) - 1)] if bots else "random"
        k += 1
        out.append({"name": f"{word} {i + 1}", "kind": "bot", "bot": bot})
    return out


@dataclass
class Finished:
    """What happened when a finished match was stored (or why it was not)."""

    game_id: int | None = None
    rank_changes: list[Any] | None = None
    error: str | None = None


class Session:
    """One match at the table: the person's seat(s), computer seats, autosave, store."""

    def __init__(self, match: Match, seats: list[dict[str, Any]], path: Path | None = None,
                 store_url: str | None = None, use_store: bool = True) -> None:
        self.match = match
        self.seats = seats
        self.path = path or autosave_path(match)
        self.store_url = store_url
        self.use_store = use_store
        self.bots = {i: make_bot(s.get("bot") or "random", match.spec.name,
                                 person_time_cap(s.get("bot") or "random"))
                     for i, s in enumerate(seats) if s.get("kind") == "bot"}
        self.rng = random.Random((match.seed or 0) ^ len(match.history))
        self.finished: Finished | None = None
        self.save()

    # ------------------------------------------------------------- seats
    @property
    def humans(self) -> list[int]:
        return [i for i in range(self.match.players) if i not in self.bots]

    @property
    def me(self) -> int:
        """The seat the table is shown from (the first person's)."""
        return self.humans[0] if self.humans else 0

    def names(self) -> list[str]:
        return [str(s.get("name") or f"{i + 1}") for i, s in enumerate(self.seats)]

    def bot_to_move(self) -> bool:
        return not self.match.is_over and self.match.to_move in self.bots

    def human_to_move(self) -> bool:
        return not self.match.is_over and self.match.to_move not in self.bots

    # ----------------------------------------------------------- actions
    def bot_step(self) -> tuple[int, str]:
        """Let the computer seat to move choose and play; returns (seat, action)."""
        seat, obs, legal = self.bot_question()
        return self.bot_answer(seat, self.bot_decide(seat, obs, legal))

    def bot_question(self) -> tuple[int, Observation, list[str]]:
        """What the computer seat to move is asked: its seat, its typed observation (as
        the arena asks: a search bot determinizes from the typed view), legal actions."""
        seat = self.match.to_move
        assert seat is not None and seat in self.bots
        return seat, self.match.observation(seat), self.match.legal_actions()

    def bot_decide(self, seat: int, obs: Mapping[str, Any], legal: list[str]) -> str:
        """The bot's choice; touches no match (a front end may run it in a thread)."""
        return legal[0] if len(legal) == 1 else self.bots[seat].choose(obs, legal, self.rng)

    def bot_answer(self, seat: int, action: str) -> tuple[int, str]:
        """Apply the choice of the computer seat asked by ``bot_question``."""
        assert self.match.to_move == seat
        text = self.match.apply(action)
        self.after_action()
        return seat, text

    def play(self, action: str) -> tuple[int, str]:
        """The action of the person to move (of the first person when a computer is to
        move): refused with :class:`~koloda.engine.turns.TurnRefused` (an IllegalAction
        with the engine's reason) by the check every front end makes, changing nothing."""
        to_move = self.match.to_move
        seat = to_move if to_move is not None and to_move not in self.bots else self.me
        text = self.match.apply(check_turn(self.match, seat, action))
        self.after_action()
        return seat, text

    # -------------------------------------------------------------- hints
    def hint_bot_name(self) -> str | None:
        """The strongest computer player the game declares (:func:`koloda.bots.hint.hint_bot`)."""
        return hint_bot(self.match.spec)

    def hint_question(self) -> tuple[int, Observation, list[str]]:
        seat = self.match.to_move
        assert seat is not None
        return seat, self.match.observation(seat), self.match.legal_actions()

    def hint_decide(self, seat: int, obs: Mapping[str, Any], legal: list[str]
                    ) -> tuple[str, list[tuple[str, float]]] | None:
        """What the strongest bot would play for ``seat``, and its estimated value of its
        top moves where the bot exposes them (:func:`koloda.bots.hint.hint`). Touches no
        match and not the computer seats' generator: the game goes on exactly as it would
        without the hint (a front end may run this in a thread)."""
        found = hint(self.match.spec, obs, legal, self.match.seed or 0,
                     len(self.match.history))
        return None if found is None else (found.action, list(found.values))

    def note_hint(self, seat: int) -> None:
        """The record notes that a hint was shown: ``"hints"`` on the seat (a count; an
        extra key of the seat's metadata, nothing else in the record changes)."""
        self.seats[seat]["hints"] = int(self.seats[seat].get("hints", 0)) + 1
        self.save()

    def after_action(self) -> None:
        self.save()
        if self.match.is_over and self.finished is None:
            self.finished = self.store_result()

    def save(self) -> None:
        save(self.match, self.seats, self.path)

    def store_result(self) -> Finished:
        """Keep the finished match in the store (never fatal: the record file stays)."""
        if not self.use_store:
            return Finished()
        try:
            from koloda.store import Store
            store = Store(self.store_url)
            try:
                g = store.add_game(self.match.record(self.seats))
            finally:
                store.close()
        except Exception as exc:  # the game is saved as a file whatever the database does
            return Finished(error=f"{type(exc).__name__}: {exc}")
        return Finished(g.id, list(g.rank_changes))


def bot_choices(game: str) -> list[str]:
    """Every computer player that can take a seat at ``game``: each bot of
    ``koloda.bots.available_bots()`` (never a measuring bot), with its levels."""
    from koloda.engine.errors import ConfigError
    out: list[str] = []
    for name in available_bots():
        levels = bot_levels(name)
        for spec in [f"{name}:{lv}" for lv in levels] or [name]:
            try:
                make_bot(spec, game)
            except ConfigError:
                continue
            out.append(spec)
    return out


def default_bot(game: str) -> str:
    """The opponent a person gets without asking: a heuristic player where one exists."""
    choices = bot_choices(game)
    for preferred in ("heuristic", "search:easy", "random"):
        if preferred in choices:
            return preferred
    return choices[0] if choices else "random"
