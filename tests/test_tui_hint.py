"""The hint: h asks the strongest bot the game declares what it would play,
says it in one line, changes nothing in the game, and the record notes it."""

from __future__ import annotations

import json
from pathlib import Path

import koloda
from koloda.tui.app import KolodaApp
from koloda.tui.table import TableScreen
from tests.test_tui import SIZE, _home, reach, run, session, tap

__all__ = ["_home"]


def test_h_shows_the_strongest_bots_move_without_changing_the_game(tmp_path: Path) -> None:
    match = reach("trinka", lambda m: len(m.legal_actions()) > 1 and len(m.history) > 4)
    before = list(match.history)
    s = session(match, tmp_path)
    app = KolodaApp(s, "en", bot_delay=0)
    assert s.hint_bot_name() == "search"

    async def go() -> str:
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            await tap(pilot, "h")
            for _ in range(200):
                if screen.hint is not None:
                    break
                await pilot.pause(0.02)
            return screen.message.plain
    said = run(go())
    assert said.startswith("Hint (search): play ")
    assert said.split("Hint (search): ")[1].split(" —")[0].replace("play ", "") != ""
    assert match.history == before                       # nothing played
    record = json.loads(s.path.read_text())
    assert record["seats"][0]["hints"] == 1              # the record notes the hint
    assert [a["action"] for a in record["actions"]] == [a for _, a in before]
    koloda.engine.records.parse_record(record)           # still a valid record


def test_a_search_bot_at_the_table_gets_the_typed_observation(tmp_path: Path) -> None:
    """A search bot determinizes from the typed view: the table asks it as the arena does
    (it failed on the observation's JSON)."""
    from koloda.tui.session import Session, make_seats
    match = koloda.new_game("trinka", seed=3)
    s = Session(match, make_seats(4, None, ["search:easy"], "Аня"), tmp_path / "t.json",
                use_store=False)
    for _ in range(3):
        seat, action = s.bot_step()
        assert match.history[-1] == (seat, action)
