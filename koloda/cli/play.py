"""Play in the terminal, line by line: a prompt, numbered legal moves, autosave.

The full-screen TUI lives in koloda.tui; this line mode works on any terminal, on a pipe
and with a screen reader: plain lines, no boxes or columns — the table in a few lines
(one per seat, the cards on the table, the facts, your hand), seats by name, numbered
moves. A refused move prints the reason and the prompt again, not the table; ``?``
prints the table and the moves again; ``q``, end of input or Ctrl-C save the game and
print how to resume it. Both modes drive the match through
``koloda.tui.session.Session`` (computer seats, the record saved after every action, the
store when the match is over).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from koloda.cli.moves_text import typed_action
from koloda.cli.render import card_text, show_result, words_text
from koloda.engine.errors import IllegalAction
from koloda.engine.terms import term
from koloda.i18n import reason, t
from koloda.moves import MoveChooser
from koloda.present import NO_VALUE, NOTHING, present
from koloda.tui.session import Session, autosave_dir, resume, save
from koloda.tui.view import action_text, heading, sort_hand

__all__ = ["autosave_dir", "play_loop", "resume", "save", "table_lines"]


def _action(action: str, lang: str) -> Text:
    """An action in the list: as typed in English, in words in Russian («побить 7♠ картой 9♠»)."""
    return words_text(action, lang) if lang == "en" else action_text(action, lang)


def _cell(cell: Mapping[str, Any] | None, lang: str) -> str:
    if cell is None:
        return NO_VALUE
    cards = cell.get("cards")
    if cards:
        return " ".join(card_text(c, lang).plain for c in cards)
    return str(cell.get("text", ""))


def _items(items: Sequence[Mapping[str, Any]], lang: str) -> str:
    """The facts as the table writes them, "label: value", one after another."""
    return "; ".join(f"{it['label']}: {_cell(it, lang)}" for it in items
                     if _cell(it, lang) not in (NO_VALUE, NOTHING, ""))


def table_lines(disp: Mapping[str, Any], lang: str) -> list[str]:
    """The presenter's display as a few plain lines: a line per seat (▶ to move, its
    roles, its columns with a value), the cards on the table, the facts, the hand."""
    out: list[str] = []
    players = disp["players"]
    for row in players["rows"]:
        head = ("▶ " if row["to_move"] else "  ") + row["name"]
        marks = list(row["marks"]) + ([term("dealer", lang)] if row["dealer"] else [])
        if marks:
            head += f" ({', '.join(marks)})"
        cols = [f"{col['label']} {_cell(c, lang)}" for col, c in
                zip(players["columns"], row["cells"], strict=False)
                if _cell(c, lang) not in (NO_VALUE, NOTHING, "")]
        out.append(head + (": " + ", ".join(cols) if cols else ""))
    part = disp.get("centre")
    if part and part.get("pairs"):
        pairs = [card_text(p["attack"]["cards"][0], lang).plain if p["attack"].get("cards")
                 else _cell(p["attack"], lang) for p in part["pairs"]]
        covers = [_cell(p["cover"], lang) if p["cover"] else NO_VALUE for p in part["pairs"]]
        out.append(f"{heading(part['label'])}: " +
                   ", ".join(f"{a} ← {c}" for a, c in zip(pairs, covers, strict=True)))
    elif part and part.get("plays"):
        out.append(f"{heading(part['label'])}: " + ", ".join(
            f"{p['name']} {card_text(p['card'], lang).plain if p.get('card') else p['text']}"
            + (f" {p['note']}" if p.get("note") else "") for p in part["plays"]))
    else:
        out.append(t("empty_table", lang))
    last = disp.get("last")
    if last and last.get("plays") and not (part and part.get("plays")):
        line = f"{heading(last['label'])}: " + ", ".join(
            f"{p['name']} {card_text(p['card'], lang).plain if p.get('card') else p['text']}"
            for p in last["plays"])
        if last.get("result"):
            line += f" — {last['result']}"
        out.append(line)
    facts = _items(disp["info"], lang)
    if facts:
        out.append(facts)
    for g in disp["groups"]:
        out.append(f"{heading(g['label'])}: {_items(g['items'], lang)}")
    if disp["hand"] is not None:
        cards = sort_hand(disp["hand"]["cards"], disp["trump"])
        out.append(f"{t('your_hand', lang)}: " +
                   (" ".join(card_text(c, lang).plain for c in cards) or NOTHING))
    return out


def _moves(legal: list[str], hand: list[str]) -> list[str]:
    """The numbered moves: every move when there are few; of thousands (Dreyfus's 4 096
    discard sets) the moves of at most one card — a longer one is typed."""
    if len(legal) <= 40:
        return legal
    return MoveChooser(legal, hand).menu()


def play_loop(session: Session, lang: str, console: Console, input_fn: Any = input,
              bot_delay: float = 0.0) -> int:
    """Run until the match ends or the person quits; the record is saved after every move."""
    match, path = session.match, session.path
    names = session.names()

    def quit_saved(code: int = 0) -> int:
        session.save()
        console.print(t("saved", lang, path=path), soft_wrap=True)
        return code

    try:
        while not match.is_over:
            seat = match.to_move
            assert seat is not None
            if session.bot_to_move():
                seat, action = session.bot_step()
                console.print(Text(f"{names[seat]}: ").append_text(_action(action, lang)))
                if bot_delay:
                    time.sleep(bot_delay)
                continue
            legal = match.legal_actions()
            disp = present(match.observation(seat), lang, names, seat)
            moves = _moves(legal, list(disp["hand"]["cards"]) if disp["hand"] else [])
            show = True
            while True:
                if show:
                    console.print(f"— {t('your_move_name', lang, who=names[seat])} —")
                    for line in table_lines(disp, lang):
                        console.print(line, soft_wrap=True, markup=False)
                    if len(legal) == 1:
                        console.print(t("press_enter", lang,
                                        action=escape(_action(legal[0], lang).plain)))
                    else:
                        for i, a in enumerate(moves, 1):
                            console.print(Text(f"{i:>3}. ").append_text(_action(a, lang)))
                        if len(moves) < len(legal):
                            console.print(t("more_moves", lang, n=len(legal)))
                        console.print(t("choose", lang))
                    show = False
                try:
                    answer = input_fn("> ").strip()
                except EOFError:
                    answer = "q"
                if answer.lower() in ("q", "quit", "exit"):
                    return quit_saved()
                if answer == "?":
                    show = True
                    continue
                if answer == "" and len(legal) == 1:
                    action = legal[0]
                elif answer.isdigit() and 1 <= int(answer) <= len(moves):
                    action = moves[int(answer) - 1]
                else:
                    action = typed_action(answer, legal, lambda a, la: _action(a, la).plain)
                try:
                    _, played = session.play(action)
                except IllegalAction as exc:      # the reason, then only the prompt again
                    console.print(f"[red]{t('illegal', lang, reason=escape(reason(exc, lang)))}"
                                  "[/red]", soft_wrap=True)
                    continue
                # the move as the log says every seat's: what a number or a typed word meant
                console.print(Text(f"{names[seat]}: ").append_text(_action(played, lang)))
                break
    except KeyboardInterrupt:
        console.print()
        return quit_saved(130)
    assert match.result is not None
    show_result(console, match, lang, names)
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
    console.print(t("autosaved", lang, path=path), soft_wrap=True)   # over: nothing to resume
    return 0
