"""The table's bugs, one test each, named after the bug."""

from __future__ import annotations

import random
import re
from pathlib import Path

import koloda
from koloda.engine.match import Match
from koloda.present import present
from koloda.tui.app import KolodaApp
from koloda.tui.screens import InfoScreen, ResultScreen
from koloda.tui.table import TableScreen
from tests.test_tui import SIZE, _home, reach, run, session, tap

__all__ = ["_home"]


def _log(app: KolodaApp) -> list[str]:
    from textual.widgets import RichLog
    return [line.text for line in app.screen.query_one(RichLog).lines]


def _played(game: str, until: int, seed: int = 1, **options: object) -> Match:
    """A match played at random until seat 0 is to move with ``len(deals) >= until``."""
    m = koloda.new_game(game, seed=seed, **options)
    rng = random.Random(seed)
    while not (len(m.deals) >= until and m.to_move == 0):
        legal = m.legal_actions()
        m.apply(legal[rng.randrange(len(legal))])
    return m


def test_after_resume_moves_so_far_keeps_its_deal_separators(tmp_path: Path) -> None:
    match = _played("opendaum", 3, players=3)
    app = KolodaApp(session(match, tmp_path), "en", bot_delay=0)
    lines: list[str] = []

    async def go() -> None:
        async with app.run_test(size=(120, 40)):
            lines.extend(_log(app))
    run(go())
    heads = [i for i, line in enumerate(lines) if line.startswith("— Deal")]
    assert [lines[i] for i in heads[:3]] == ["— Deal 1 —", "— Deal 2 —", "— Deal 3 —"]
    assert heads[0] == 0 and heads[1] > 1 and heads[2] > heads[1] + 1   # moves between


def test_trick_winners_are_in_the_move_log(tmp_path: Path) -> None:
    match = _played("trinka", 1)
    while len(match.history) < 12 or match.to_move != 0:
        match.apply(match.legal_actions()[0])
    app = KolodaApp(session(match, tmp_path), "en", bot_delay=0)
    lines: list[str] = []

    async def go() -> None:
        async with app.run_test(size=(120, 40)):
            lines.extend(_log(app))
    run(go())
    assert any(line.strip().startswith("→ taken by") for line in lines)


def _beaten_off(m: Match) -> bool:
    """A card was covered and the table is clear again: a round has ended."""
    centre = present(m.public_observation(), "en")["centre"] or {}
    return any(a.startswith("beat ") for _, a in m.history) and not centre.get("pairs")


def test_durak_l_shows_the_last_round_who_covered_what(tmp_path: Path) -> None:
    match = reach("durak", _beaten_off, players=2)
    app = KolodaApp(session(match, tmp_path), "en", bot_delay=0)

    async def go() -> str:
        async with app.run_test(size=(120, 40)) as pilot:
            await tap(pilot, "l")
            await pilot.pause()
            assert isinstance(app.screen, InfoScreen)
            return app.export_text()
    text = run(go())
    assert "No trick has been completed yet" not in text
    assert "Last round" in text
    assert re.search(r"(Аня|Computer 2) \S+  ← (Аня|Computer 2) \S+", text)   # who covered what
    assert "beaten off" in text or "took the cards" in text


def test_a_stale_wait_clears_when_it_becomes_your_move(tmp_path: Path) -> None:
    match = koloda.new_game("trinka", seed=2)
    human = (match.to_move + 3) % 4          # three computers move first
    s = session(match, tmp_path, human=human)
    app = KolodaApp(s, "en", bot_delay=0.3)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            await pilot.press("1")
            assert "not your move" in screen.message.plain
            for _ in range(100):
                if s.human_to_move():
                    break
                await pilot.pause(0.05)
            await pilot.pause()
            assert s.human_to_move()
            assert "not your move" not in screen.message.plain
    run(go())


def test_the_header_deal_number_agrees_with_the_table(tmp_path: Path) -> None:
    match = koloda.new_game("opendaum", players=3, seed=1, start_deal=11)
    app = KolodaApp(session(match, tmp_path), "en", bot_delay=0)

    async def go() -> str:
        async with app.run_test(size=(120, 40)):
            return app.export_text()
    text = run(go())
    title = text.splitlines()[0]
    assert "Deal 12/25" in title
    assert "deal: 12/25" in text and "Deal 1 " not in title


def test_partners_and_teams_are_marked_on_the_sheet_and_the_result(tmp_path: Path) -> None:
    match = koloda.new_game("trinka", seed=1, max_deals=1)
    rng = random.Random(1)
    while len(match.history) < 30 or match.to_move != 0:
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
    app = KolodaApp(session(match, tmp_path), "en", bot_delay=0)

    async def go() -> tuple[str, str]:
        async with app.run_test(size=(120, 40)) as pilot:
            players = app.export_text()
            while not isinstance(app.screen, ResultScreen):
                await tap(pilot, "enter" if isinstance(app.screen, InfoScreen) else "1")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ResultScreen)
            return players, "\n".join(screen.names)
    players, result = run(go())
    assert "team 1" in players and "partner" in players
    assert "Аня (team 1)" in result and "(team 2)" in result and "team 1, partner" in result
