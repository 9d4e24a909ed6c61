"""The start screen's defects met in ``koloda play``, one test each, named after the defect."""

from __future__ import annotations

import re
from pathlib import Path

import koloda
from koloda.tui.app import KolodaApp
from koloda.tui.session import Session, autosave_dir, make_seats
from koloda.tui.start import StartForm, StartScreen, unfinished_games
from koloda.tui.table import TableScreen
from tests.test_tui import _home, run

__all__ = ["_home"]

#: what a person should never read on the start screen: data structures, code names
RAW = re.compile(r"[{}\[\]]|\bNone\b|\bnull\b|\b[a-z]+_[a-z_]+\b")


def _saved(name: str, game: str = "trinka", moves: int = 1, finished: bool = False) -> Path:
    """An autosaved record as the table leaves it: some moves in, or played to the end."""
    match = koloda.new_game(game, seed=1, **({"max_deals": 1} if finished else {}))
    path = autosave_dir() / f"{name}.json"
    s = Session(match, make_seats(match.players, 0, ["random"], "Аня"), path, use_store=False)
    while not match.is_over and (finished or len(match.history) < moves):
        if s.bot_to_move():
            s.bot_step()
        else:
            s.play(match.legal_actions()[0])
    return path


def _marked_line(text: str) -> str:
    """The start screen's line under the ▶ (the row being changed)."""
    rows = [line for line in text.splitlines() if re.match(r"^│ ▶ ", line)]
    assert len(rows) == 1, f"no single ▶ line on the screen:\n{text}"
    return rows[0]


def test_at_80x24_with_saved_games_down_moves_the_marker_and_a_new_game_starts() -> None:
    saved = [_saved(f"t{i}", moves=i + 1) for i in range(3)]
    app = KolodaApp(None, "en", player_name="Аня", use_store=False, bot_delay=0)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, StartScreen)
            form = screen.form
            assert form.current == "resume:0"
            await pilot.press("down", "down", "down")
            await pilot.pause()
            assert form.current == "game"
            assert "Game" in _marked_line(app.export_text())
            before = form.family
            await pilot.press("right")
            assert form.family != before          # Right changes the game
            while form.current != "start":
                await pilot.press("down")
                await pilot.pause()
                label = form.line(form.current)[0] or "Start the game"
                assert label.split(":")[0] in _marked_line(app.export_text()), form.current
            await pilot.press("enter")
            assert isinstance(app.screen, TableScreen)
    run(go())
    assert app.session is not None and app.session.path not in saved
    assert app.session.match.history == [] or app.session.match.spec.name != "trinka"


def test_a_finished_saved_game_is_not_offered_to_continue() -> None:
    done = _saved("done", finished=True)
    going = _saved("going", moves=2)
    offered = [path for path, _ in unfinished_games()]
    assert going in offered and done not in offered
    form = StartForm(resumable=unfinished_games())
    assert [k for k in form.rows() if k.startswith("resume:")] == ["resume:0"]


def test_the_start_screen_seats_the_games_default_player_count() -> None:
    form = StartForm(spec_name="opendaum")          # four players
    assert form.players == 4
    for _ in form.families:
        form.row = form.rows().index("game")
        form.change(1)
        assert form.players == form.spec.default_players, form.spec.name
        assert form.players == koloda.new_game(form.spec.name).players   # as `koloda play`
    form = StartForm(spec_name="opendaum")
    form.row = form.rows().index("game")
    while form.family != "durak":
        form.change(1)
    assert form.spec.name == "durak" and form.players == 2


def test_the_start_screen_shows_every_option_with_its_label_and_value_in_words() -> None:
    for lang in ("en", "ru"):
        for name in koloda.registry():
            form = StartForm(lang=lang, spec_name=name, name="Anna")
            for i, key in enumerate(form.rows()):
                form.row = i
                label, value = form.line(key)
                for text in (label, value.plain, form.help().plain):
                    assert not RAW.search(text), (lang, name, key, text)
    form = StartForm(spec_name="kopilka", name="Anna")
    lines = [form.line(k) for k in form.rows() if k.startswith("opt:values")]
    assert [(label, value.plain) for label, value in lines] == [
        ("Values: hearts", "4"), ("Values: clubs", "3"), ("Values: diamonds", "2"),
        ("Values: spades", "1")]
    shown = form.render().plain
    assert "Start deal" not in shown and "Stake" in shown and "Max deals" in shown
    opendaum = StartForm(spec_name="opendaum", name="Anna").render().plain
    assert "Start deal" in opendaum and "start_deal" not in opendaum
    durak = StartForm(spec_name="durak", name="Anna").render().plain
    assert "First round limit" in durak and "Teams" in durak and "no" in durak


def test_a_value_per_suit_is_changed_on_its_own_line_and_the_game_gets_it() -> None:
    form = StartForm(spec_name="kopilka", name="Anna")
    form.row = form.rows().index("opt:values:C")
    form.change(1)
    assert form.options["values"] == {"H": 4, "C": 4, "D": 2, "S": 1}
    assert form.set_typed("7") is None and form.options["values"]["C"] == 7
    assert form.set_typed("-1") is not None and form.options["values"]["C"] == 7
    form.row = form.rows().index("opt:values:S")
    form.change(-1)
    form.change(-1)                                  # 0 is the least a trick pays
    assert form.options["values"]["S"] == 0
    assert form.changed_options() == {"values": {"H": 4, "C": 7, "D": 2, "S": 0}}
    assert form.problem() is None


def test_cycling_variants_past_a_three_player_one_keeps_each_variants_default_count() -> None:
    form = StartForm(spec_name="opendaum")
    form.row = form.rows().index("variant")
    seen = {}
    for _ in range(len(form.variants("opendaum")) * 2):
        form.change(1)
        seen[form.spec.name] = form.players
        assert form.players == form.spec.default_players, form.spec.name
    assert seen == {"opendaum": 4, "opendaum-shakhi": 4, "opendaum-33": 3}
    form.row = form.rows().index("players")      # a count the person chose is kept
    while form.players != 5:
        form.change(1)
    form.row = form.rows().index("variant")
    while form.spec.name != "opendaum-shakhi":
        form.change(1)
    assert form.players == 5
