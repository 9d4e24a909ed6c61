"""The table and the boxes over it on small terminals: the defects met in ``koloda play``,
one test each, named after the defect."""

from __future__ import annotations

from pathlib import Path

import pytest

from koloda.engine.match import Match
from koloda.present import present_sheet
from koloda.tui.app import KolodaApp
from koloda.tui.screens import InfoScreen
from koloda.tui.table import TableScreen
from tests.test_tui import _home, reach, run, session, tap
from tests.test_tui_layout import _panel

__all__ = ["_home"]


def _screen(match: Match, tmp_path: Path, size: tuple[int, int], *keys: str) -> str:
    """The table of ``match`` (the person at seat 0) at ``size``, after ``keys``."""
    app = KolodaApp(session(match, tmp_path), "en", bot_delay=0)
    text: list[str] = []

    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await tap(pilot, *keys)
            await pilot.pause()
            text.append(app.export_text())
    run(go())
    return text[0]


def _known(m: Match) -> int:
    return sum(len(k) for k in m.observation(0).to_json().get("known_cards") or [])


def _everything_shown(text: str, match: Match, size: tuple[int, int]) -> None:
    lines = text.splitlines()
    assert len(lines) <= size[1]
    assert lines[0].lstrip().startswith("Your move"), lines[0]
    players = "\n".join(_panel(lines, "Players"))
    for name in ["Аня"] + [f"Computer {i + 1}" for i in range(1, match.players)]:
        assert name[:8] in players, (name, text)
    _panel(lines, "Your hand")
    _panel(lines, "Moves")
    assert "q quit" in lines[-1] and "s sheet" in lines[-1], lines[-1]


GROWN = [("kopilka", {}, lambda m: True),
         ("durak", {}, lambda m: _known(m) >= 6),
         ("durak-perevodnoy", {"players": 3}, lambda m: _known(m) >= 4)]


@pytest.mark.parametrize("size", [(80, 24), (60, 20)], ids=["80x24", "60x20"])
@pytest.mark.parametrize(("game", "options", "grown"), GROWN, ids=[g for g, _, _ in GROWN])
def test_the_players_panel_the_turn_and_how_to_quit_stay_on_a_small_screen(
        game: str, options: dict[str, int], grown: object, size: tuple[int, int],
        tmp_path: Path) -> None:
    match = reach(game, grown, seeds=range(60), **options)   # type: ignore[arg-type]
    _everything_shown(_screen(match, tmp_path, size), match, size)


def test_the_deal_over_sheet_at_80x24_shows_the_latest_deal_enter_and_readable_names(
        tmp_path: Path) -> None:
    match = reach("opendaum", lambda m: len(m.deals) >= 16)     # more than the box shows
    app = KolodaApp(session(match, tmp_path), "en", bot_delay=0)
    seen: list[str] = []

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            await tap(pilot, "s")
            await pilot.pause()
            assert isinstance(app.screen, InfoScreen)
            seen.append(app.export_text())
            await tap(pilot, "up", "up", "up", "pageup")      # the box scrolls back
            await pilot.pause()
            seen.append(app.export_text())
    run(go())
    text, scrolled = seen
    sheet = present_sheet(match.sheet(), "en", ["Аня", "Computer 2", "Computer 3",
                                                "Computer 4"], 4)
    last = sheet["tables"][0]["rows"][-1]      # the latest deal: its number … its seats
    want = [last[0]["text"], *(c["text"] for c in last[3:])]
    assert any(line.startswith(f"█ {want[0]} ") and all(w in line for w in want)
               for line in text.splitlines()), text
    assert "Enter or Esc — close" in text and "…" not in text
    assert "Comp. 2" in text and "Comp. 3" in text
    assert scrolled != text and "Enter or Esc — close" in scrolled


def test_the_header_says_whose_move_first_on_a_narrow_screen(tmp_path: Path) -> None:
    match = reach("kopilka", lambda m: True)
    for size in ((60, 20), (80, 24)):
        head = _screen(match, tmp_path, size).splitlines()[0]
        assert head.lstrip().startswith("Your move"), head
