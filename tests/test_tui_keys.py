"""Every legal move by keyboard: ↑↓ move the Moves highlight (the log of moves
does not take the keys), Enter plays it, PgUp/PgDn page, ``/`` filters a list of any
length."""

from __future__ import annotations

from pathlib import Path

import pytest

from koloda.engine.match import Match
from koloda.tui.app import KolodaApp
from koloda.tui.table import TableScreen
from tests.test_tui import SIZE, _home, reach, run, session, tap

__all__ = ["_home"]


def _bids(m: Match) -> bool:
    return len(m.legal_actions()) == 13 and m.legal_actions()[0] == "bid 0"


def _exchange(m: Match) -> bool:
    return len(m.legal_actions()) == 4096


def test_arrows_move_the_moves_highlight_and_enter_plays_it(tmp_path: Path) -> None:
    match = reach("opendaum", _bids, players=3, start_deal=11)
    before = len(match.history)
    app = KolodaApp(session(match, tmp_path), "en", bot_delay=0)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            await tap(pilot, "down", "down", "up", "down", "down")
            assert screen.menu_cursor == 3
            await tap(pilot, "enter")
    run(go())
    assert match.history[before] == (0, "bid 3")


@pytest.mark.parametrize("keys", [["down"] * 12, ["up"], ["pagedown", "down", "down"],
                                  ["slash", "1", "2"]],
                         ids=["arrows", "wrap", "page", "filter"])
def test_a_bid_of_12_in_opendaum_is_chosen_by_keyboard(tmp_path: Path,
                                                       keys: list[str]) -> None:
    match = reach("opendaum", _bids, players=3, start_deal=11)
    before = len(match.history)
    app = KolodaApp(session(match, tmp_path), "en", bot_delay=0)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await tap(pilot, *keys)
            await pilot.pause()           # the filter line's text reaches the list
            await tap(pilot, "enter")
            await pilot.pause()
    run(go())
    assert match.history[before] == (0, "bid 12")


def test_a_dreyfus_discard_past_the_tenth_is_chosen_by_keyboard(tmp_path: Path) -> None:
    match = reach("dreyfus", _exchange)
    before = len(match.history)
    app = KolodaApp(session(match, tmp_path), "en", bot_delay=0)
    chosen: list[str] = []

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            assert len(screen.menu_items) > 10
            chosen.append(screen.menu_items[11])
            await tap(pilot, *["down"] * 11, "enter")
    run(go())
    assert chosen[0].startswith("discard ")
    assert match.history[before] == (0, chosen[0])
