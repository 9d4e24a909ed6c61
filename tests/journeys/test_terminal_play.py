"""A person's whole path through the real ``koloda play`` in a pseudo-terminal: the start
screen (with no saved games, and with saved games, one of them finished), choosing the
game, its variant and a short match, then playing it to its end against computer players
by always choosing the first listed move, through the score sheets to the result.

Every screen on the way is read back as a person sees it and checked: at the table your
hand, the moves, whose move it is, every player's row and how to quit; on every screen
nothing raw (no brackets or braces, ``None``, ``null``, code identifiers).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import koloda
from koloda.engine.registry import registry
from koloda.tui.start import option_label
from tests.journeys.terminal import RAW, Terminal

GAMES = sorted(registry())
#: options that keep a whole match short, typed on the start screen (label → value): one
#: deal for the games of many deals; Durak is one game already; Pyanitsy a few rounds
SHORT: dict[str, dict[str, int]] = {
    "durak": {}, "durak-perevodnoy": {}, "pyanitsy": {"round_cap": 25},
}
#: a sentence of the presenter that names an option by its code; said in words by the
#: vocabulary's owner (koloda/engine/terms.py, "capped_note"), left out of the raw check
KNOWN_RAW: tuple[str, ...] = ()
NAME = "Anna"


def short_options(game: str) -> dict[str, int]:
    return SHORT.get(game, {"max_deals": 1})


# ----------------------------------------------------------------- reading
def panel(lines: list[str], title: str) -> list[str]:
    """The lines inside the panel whose top border carries ``title``, whole."""
    tops = [i for i, line in enumerate(lines) if f"─ {title}" in line]
    assert tops, f"no {title} panel on the screen:\n" + "\n".join(lines)
    top = tops[0]
    left = lines[top].rfind("╭", 0, lines[top].index(f"─ {title}") + 1)
    body = []
    for line in lines[top + 1:]:
        if line[left:left + 1] == "╰":
            return body
        body.append(line)
    raise AssertionError(f"the {title} panel is cut off:\n" + "\n".join(lines))


def no_raw(text: str) -> None:
    for known in KNOWN_RAW:
        text = text.replace(known, "")
    found = RAW.search(text)
    assert found is None, f"raw text {found.group()!r} on the screen:\n{text}"


def kind(text: str) -> str:
    if "koloda — a new game" in text.splitlines()[0]:
        return "start"
    if "The match is over" in text:
        return "result"
    if "█▀" in text:
        return "box"
    if "─ Your hand" in text or "─ Moves" in text:
        return "table"
    return "other"


def check_table(text: str, players: int, full: bool = True) -> None:
    """What the table must show on any size of screen."""
    lines = text.splitlines()
    head = lines[0].strip()
    assert head.startswith(("Your move", "Computer")), f"whose move? {head!r}\n{text}"
    moves = "\n".join(panel(lines, "Moves"))
    assert re.search(r"\b1 \S", moves), f"no moves listed:\n{text}"
    assert "q quit" in lines[-1], f"how to quit? {lines[-1]!r}"
    if full:
        panel(lines, "Your hand")
        rows = "\n".join(panel(lines, "Players"))
        for name in [NAME, *(f"Computer {i + 1}" for i in range(1, players))]:
            assert name in rows, f"{name}'s row is not on the screen:\n{text}"
    no_raw(text)


# ----------------------------------------------------------- the start screen
def marked(text: str) -> str:
    """The start screen's line under the ▶, from its label on."""
    rows = [m.group(1) for m in re.finditer(r"│ ▶ (.*)", text)]
    assert len(rows) == 1, f"no single ▶ line:\n{text}"
    return rows[0]


def go_to(term: Terminal, label: str, limit: int = 60) -> str:
    """Down until the ▶ is on the line that starts with ``label``."""
    text = term.settle()
    for _ in range(limit):
        if marked(text).startswith(label):
            return text
        term.press("down")
        text = term.settle(0.1)
    raise AssertionError(f"no {label} line:\n{text}")


def choose(term: Terminal, label: str, want: str, limit: int = 20) -> str:
    """Right on the ``label`` line until it shows ``want``."""
    text = go_to(term, label)
    for _ in range(limit):
        if want in marked(text):
            return text
        term.press("right")
        text = term.settle(0.1)
    raise AssertionError(f"{label} never shows {want}:\n{text}")


def start_game(term: Terminal, game: str) -> None:
    """Choose ``game`` and its short options on the start screen, then start it."""
    spec = registry()[game]
    family = [s for s in registry().values() if s.family == spec.family]
    first = sorted(family, key=lambda s: s.name != spec.family)[0]
    choose(term, "Game", first.title_en)
    text = choose(term, "Variant", f"◀ {spec.title_en} ▶")
    no_raw(text)
    for name, value in short_options(game).items():
        text = go_to(term, option_label(name, "en"))
        term.press("enter", *["backspace"] * 8, str(value), "enter")
        text = term.settle(0.15)
        assert f" {value}" in marked(text), marked(text)
    text = term.settle()
    for _ in range(60):
        if "Start the game" in marked(text):
            break
        term.press("down")
        text = term.settle(0.1)
        no_raw(text)
    term.press("enter")
    # the match is made and the computers are set up before the table is drawn
    term.wait(lambda s: kind(s) != "start", timeout=30, what="the table")


def play_to_the_end(term: Terminal, players: int, limit: int = 400) -> str:
    """Play by the first listed move, Enter on every sheet, until the result."""
    for _ in range(limit):
        text = term.settle(0.15)
        k = kind(text)
        if k == "result":
            no_raw(text)
            assert "Enter — new game" in text and "q — quit" in text, text
            return text
        if k == "box":
            no_raw(text)
            assert "Enter — continue" in text, text
            term.press("enter")
        elif k == "table":
            if text.splitlines()[0].strip().startswith("Your move"):
                check_table(text, players)
                term.press("1")
        else:
            raise AssertionError(f"an unknown screen:\n{text}")
    raise AssertionError(f"the match did not end in {limit} steps:\n{term.text}")


# ----------------------------------------------------------------- saved games
def save_games(home: Path) -> tuple[list[Path], Path]:
    """Two unfinished autosaved games and a finished one, as the table leaves them."""
    import os

    from koloda.tui.session import Session, autosave_dir, make_seats
    old = os.environ.get("KOLODA_HOME")
    os.environ["KOLODA_HOME"] = str(home)
    try:
        going = []
        for i, game in enumerate(("trinka", "durak")):
            m = koloda.new_game(game, seed=i + 1, max_deals=1)
            s = Session(m, make_seats(m.players, 0, ["random"], NAME), use_store=False,
                        path=autosave_dir() / f"{game}-going.json")
            for _ in range(2):
                s.play(m.legal_actions()[0]) if s.human_to_move() else s.bot_step()
            going.append(s.path)
        m = koloda.new_game("trinka", seed=3, max_deals=1)
        s = Session(m, make_seats(4, 0, ["random"], NAME), use_store=False,
                    path=autosave_dir() / "trinka-finished.json")
        while not m.is_over:
            s.play(m.legal_actions()[0]) if s.human_to_move() else s.bot_step()
        assert json.loads(s.path.read_text())["result"] is not None
        return going, s.path
    finally:
        if old is None:
            os.environ.pop("KOLODA_HOME", None)
        else:
            os.environ["KOLODA_HOME"] = old


# -------------------------------------------------------------------- journeys
def _journey(home: Path, game: str, size: tuple[int, int], saved: bool) -> None:
    players = registry()[game].default_players
    term = Terminal(["--delay", "0"], home, *size, name=NAME)
    try:
        text = term.wait(lambda s: "Start the game" in s, what="the start screen")
        no_raw(text)
        continues = [line for line in text.splitlines() if "Continue:" in line]
        assert len(continues) == (2 if saved else 0), text
        if saved:
            assert "↻ Continue" in marked(text)       # the ▶ starts on the newest game
        start_game(term, game)
        result = play_to_the_end(term, players)
        assert NAME in result
        term.press("q")
        assert term.ended() == 0
    finally:
        term.close()
    records = [p for p in (home / "autosave").glob(f"{game}-*.json")]
    finished = [json.loads(p.read_text()) for p in records]
    assert any(r.get("result") for r in finished), "the finished match was not saved"


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_match_from_the_start_screen_at_80x24_with_saved_games(
        game: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    home = tmp_path_factory.mktemp("home")
    save_games(home)
    _journey(home, game, (80, 24), saved=True)


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_match_from_the_start_screen_at_120x40_without_saved_games(
        game: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    _journey(tmp_path_factory.mktemp("home"), game, (120, 40), saved=False)


@pytest.mark.parametrize("game", GAMES)
def test_at_60x20_whose_move_the_moves_and_how_to_quit_are_shown(
        game: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    home = tmp_path_factory.mktemp("home")
    players = registry()[game].default_players
    term = Terminal([game, "--delay", "0", "--seed", "5", "--no-store"], home, 60, 20,
                    name=NAME)
    try:
        term.wait(lambda s: kind(s) in ("table", "box"), what="the table")
        seen = 0
        for _ in range(40):
            text = term.settle(0.15)
            k = kind(text)
            if k == "result":
                break
            if k == "box":
                no_raw(text)
                term.press("enter")
                continue
            assert k == "table", text
            if text.splitlines()[0].strip().startswith("Your move"):
                check_table(text, players)
                seen += 1
                if seen >= 8:
                    break
                term.press("1")
        assert seen, "never the person's move"
        term.press("q")
        assert term.ended() in (0, None)
    finally:
        term.close()


def test_a_saved_game_is_continued_from_the_start_screen_and_played_out(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    home = tmp_path_factory.mktemp("home")
    going, done = save_games(home)
    term = Terminal(["--delay", "0"], home, 80, 24, name=NAME)
    try:
        text = term.wait(lambda s: "Start the game" in s, what="the start screen")
        newest = max(going, key=lambda p: p.stat().st_mtime)
        game = registry()[json.loads(newest.read_text())["game"]]
        assert game.title_en in marked(text)
        term.press("enter")
        text = term.wait(lambda s: kind(s) == "table", what="the table")
        assert game.title_en in text.splitlines()[0]
        play_to_the_end(term, game.default_players, limit=600)
        term.press("q")
        assert term.ended() == 0
    finally:
        term.close()
    record: dict[str, Any] = json.loads(newest.read_text())
    assert record["result"] is not None and len(record["actions"]) > 2
    assert json.loads(done.read_text())["result"] is not None
