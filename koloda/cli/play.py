"""Play in the terminal against computer seats: a prompt, numbered legal moves, autosave.

The full-screen TUI lives in koloda.tui; this line mode works on any terminal and pipe.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from koloda.bots import make_bot
from koloda.cli.render import observation_table, show_result, words_text
from koloda.engine.errors import IllegalAction
from koloda.engine.match import Match
from koloda.engine.records import from_record, load_record, parse_record
from koloda.i18n import t


def autosave_dir() -> Path:
    from koloda.paths import data_dir
    d = data_dir() / "autosave"
    d.mkdir(parents=True, exist_ok=True)
    return d


def save(match: Match, seats: list[dict[str, Any]], path: Path) -> None:
    """Write the record atomically: a crash never leaves half a file."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(match.record(seats), ensure_ascii=False, indent=1),
                   encoding="utf-8")
    tmp.replace(path)


def resume(path: Path) -> tuple[Match, list[dict[str, Any]]]:
    data = load_record(path)
    rec = parse_record(data)
    match = from_record(rec)
    for seat, action in rec.actions:
        if seat != match.to_move:
            raise IllegalAction(f"seat {seat} acted out of turn in {path}")
        match.apply(action)
    seats = data.get("seats") or [{"name": f"Player {i + 1}", "kind": "human"}
                                  for i in range(match.players)]
    return match, seats


def play_loop(match: Match, seats: list[dict[str, Any]], path: Path, lang: str,
              console: Console, input_fn: Any = input, bot_delay: float = 0.0) -> int:
    """Run until the match ends or the person quits; the record is saved after every move."""
    bots = {i: make_bot(s.get("bot", "random"), match.spec.name)
            for i, s in enumerate(seats) if s.get("kind") == "bot"}
    rng = random.Random(match.seed)
    save(match, seats, path)
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        legal = match.legal_actions()
        if seat in bots:
            action = bots[seat].choose(match.observation(seat), legal, rng)
            match.apply(action)
            who = seats[seat].get("name", f"{t('seat', lang)} {seat}")
            console.print(t("bot_moves", lang, who=who, action=""), words_text(action, lang))
            save(match, seats, path)
            if bot_delay:
                time.sleep(bot_delay)
            continue
        console.rule(t("your_turn", lang, seat=seat))
        console.print(observation_table(match.observation(seat), lang))
        if len(legal) == 1:
            console.print(t("press_enter", lang, action=legal[0]))
        else:
            for i, a in enumerate(legal, 1):
                console.print(f"  {i:>3}. ", words_text(a, lang))
            console.print(t("choose", lang))
        try:
            answer = input_fn("> ").strip()
        except EOFError:
            answer = "q"
        if answer.lower() in ("q", "quit", "exit"):
            save(match, seats, path)
            console.print(t("saved", lang, path=path))
            return 0
        if answer == "?":
            continue
        if answer == "" and len(legal) == 1:
            action = legal[0]
        elif answer.isdigit() and 1 <= int(answer) <= len(legal):
            action = legal[int(answer) - 1]
        else:
            action = answer
        try:
            match.apply(action)
        except IllegalAction as exc:
            console.print(f"[red]{t('illegal', lang, reason=exc)}[/red]")
            continue
        save(match, seats, path)
    save(match, seats, path)
    assert match.result is not None
    show_result(console, match.result.to_json(), lang)
    console.print(t("saved", lang, path=path))
    return 0
