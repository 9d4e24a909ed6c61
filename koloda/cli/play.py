"""Play in the terminal, line by line: a prompt, numbered legal moves, autosave.

The full-screen TUI lives in koloda.tui; this line mode works on any terminal and pipe.
Both drive the match through ``koloda.tui.session.Session`` (computer seats, the record
saved after every action, the store when the match is over).
"""

from __future__ import annotations

import time
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from koloda.cli.render import observation_table, show_result, words_text
from koloda.engine.errors import IllegalAction
from koloda.i18n import reason, t
from koloda.tui.session import Session, autosave_dir, resume, save
from koloda.tui.view import action_text

__all__ = ["autosave_dir", "play_loop", "resume", "save"]


def _action(action: str, lang: str) -> Text:
    """An action in the list: as typed in English, in words in Russian («побить 7♠ картой 9♠»)."""
    return words_text(action, lang) if lang == "en" else action_text(action, lang)


def play_loop(session: Session, lang: str, console: Console, input_fn: Any = input,
              bot_delay: float = 0.0) -> int:
    """Run until the match ends or the person quits; the record is saved after every move."""
    match, path = session.match, session.path
    names = session.names()
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        if session.bot_to_move():
            seat, action = session.bot_step()
            console.print(t("bot_moves", lang, who=names[seat], action=""),
                          _action(action, lang))
            if bot_delay:
                time.sleep(bot_delay)
            continue
        legal = match.legal_actions()
        console.rule(t("your_turn", lang, seat=seat))
        console.print(observation_table(match.observation(seat), lang, names))
        if len(legal) == 1:
            console.print(t("press_enter", lang, action=escape(_action(legal[0], lang).plain)))
        else:
            for i, a in enumerate(legal, 1):
                console.print(f"  {i:>3}. ", _action(a, lang))
            console.print(t("choose", lang))
        try:
            answer = input_fn("> ").strip()
        except EOFError:
            answer = "q"
        if answer.lower() in ("q", "quit", "exit"):
            session.save()
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
            session.play(action)
        except IllegalAction as exc:
            console.print(f"[red]{t('illegal', lang, reason=escape(reason(exc, lang)))}[/red]")
    assert match.result is not None
    show_result(console, match.result.to_json(), lang, names)
    fin = session.finished
    if fin is not None and fin.game_id is not None:
        console.print(t("stored_as", lang, id=fin.game_id))
        for ch in fin.rank_changes or []:
            console.print(t("rank_now", lang, who=ch.player,
                            rank=ch.after.ru if lang == "ru" else ch.after.en,
                            earned=ch.earned.ru if lang == "ru" else ch.earned.en,
                            held=(ch.before.ru if lang == "ru" else ch.before.en)
                            if ch.before else t("no_rank", lang)))
    elif fin is not None and fin.error:
        console.print(f"[yellow]{fin.error}[/yellow]")
    console.print(t("saved", lang, path=path))
    return 0
