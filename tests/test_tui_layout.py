"""The table of every game at 80×24 and at 120×40: your hand, the moves and the
table are on the screen at both sizes. The screens are checked in under tests/screens/;
after a deliberate change of the table, write them again with

    KOLODA_SNAPSHOTS=update pytest tests/test_tui_layout.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import koloda
from koloda.cli.render import card_text
from koloda.engine.match import Match
from koloda.tui.app import KolodaApp
from koloda.tui.table import TableScreen
from koloda.tui.view import action_text
from tests.test_tui import _home, reach, run, session

__all__ = ["_home"]

SCREENS = Path(__file__).parent / "screens"
SIZES = [(80, 24), (120, 40)]


def _midgame(m: Match) -> bool:
    """A few moves in, the person to move (with cards in hand where the game has a hand)."""
    obs = m.observation(m.to_move).to_json()
    return len(m.history) >= 5 and (bool(obs.get("hand")) or "hand" not in obs)


def _panel(lines: list[str], title: str) -> list[str]:
    """The lines inside the panel whose border carries ``title`` (up to its bottom)."""
    top = next(i for i, line in enumerate(lines) if f"─ {title} " in line)
    left = lines[top].index("╭", max(0, lines[top].index(title) - 6))
    body = []
    for line in lines[top + 1:]:
        if line[left:left + 1] == "╰":
            return body
        body.append(line)
    raise AssertionError(f"the {title} panel is cut off at the bottom of the screen")


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("game", sorted(koloda.registry()))
def test_the_table_shows_your_hand_the_moves_and_the_table(game: str, size: tuple[int, int],
                                                          tmp_path: Path) -> None:
    match = reach(game, _midgame, seeds=range(40))
    app = KolodaApp(session(match, tmp_path), "en", bot_delay=0)
    seen: dict[str, list[str]] = {}

    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, TableScreen)
            seen.update(text=[app.export_text()], hand=list(screen.hand),
                        moves=list(screen.menu_items))
    run(go())
    text = seen["text"][0]
    lines = text.splitlines()
    assert len(lines) <= size[1]
    hand = "\n".join(_panel(lines, "Your hand"))
    cards = seen["hand"]
    assert (card_text(cards[0], "en").plain in hand and
            card_text(cards[-1], "en").plain in hand) if cards else "no cards" in hand
    moves = "\n".join(_panel(lines, "Moves"))
    first = seen["moves"][0]
    assert action_text(first, "en").plain in moves
    _panel(lines, "Table")
    path = SCREENS / f"{game}-{size[0]}x{size[1]}.txt"
    if os.environ.get("KOLODA_SNAPSHOTS") == "update" or not path.exists():
        path.write_text(text + "\n", encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text + "\n", \
        f"{path.name} differs: check the screen, then KOLODA_SNAPSHOTS=update"
