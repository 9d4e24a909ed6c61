"""A tenth game written in one folder (tests/tenth_game/) appears in every interface with no
change to any other file: listed by ``koloda games``, on the terminal's start screen and
played to its end with the keyboard, played in the browser over the API and websocket,
through PettingZoo's ``api_test`` and OpenSpiel's ``random_sim_test``, as an observation
tensor, with its own heuristic bot, and through the conformance suite."""

from __future__ import annotations

import asyncio
import json
import random
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

import koloda
import koloda.tensors as kt
from koloda.bots import make_bot
from koloda.engine.errors import ConfigError
from koloda.engine.registry import register, unregister
from tests.conformance import check_playout
from tests.tenth_game import SPEC
from tests.tenth_game.bot import DozenHeuristic

NAME = SPEC.name
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True, scope="module")
def _registered() -> Iterator[None]:
    register(SPEC)
    yield
    unregister(NAME)


@pytest.fixture
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KOLODA_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("KOLODA_DB", raising=False)


def test_nothing_outside_its_folder_names_the_game() -> None:
    """The interfaces hold no word of it: everything they show comes from its spec."""
    named = [p for p in (ROOT / "koloda").rglob("*") if p.is_file()
             and p.suffix in (".py", ".js", ".html", ".md")
             and NAME in p.read_text(encoding="utf-8").lower()]
    assert named == []


# ------------------------------------------------------------------ the engine
@pytest.mark.parametrize("seed", range(4))
def test_it_passes_the_conformance_suite(seed: int) -> None:
    check_playout(NAME, 2, seed, max_deals=2)
    assert check_playout(NAME, 2, 100 + seed, check_every=7).is_over


def test_the_spectator_sees_no_hand() -> None:
    m = koloda.new_game(NAME, seed=3)
    assert "hand" in m.observation(0).to_json()
    public = m.public_observation().to_json()
    assert "hand" not in public and public["seat"] is None


def test_its_bots_come_from_its_spec_and_no_search_is_made_up() -> None:
    assert isinstance(make_bot("heuristic", NAME), DozenHeuristic)
    with pytest.raises(ConfigError, match="no search bot"):
        make_bot("search", NAME)
    m = koloda.new_game(NAME, seed=1)
    bot, rng = make_bot("heuristic", NAME), random.Random(0)
    while not m.is_over:
        m.apply(bot.choose(m.observation(m.to_move), m.legal_actions(), rng))
    assert m.result is not None


# ------------------------------------------------------------------- the CLI
def test_koloda_games_lists_it() -> None:
    from typer.testing import CliRunner

    from koloda.cli.main import app
    runner = CliRunner()
    out = runner.invoke(app, ["games", "--json"])
    assert out.exit_code == 0, out.output
    game = next(g for g in json.loads(out.output) if g["name"] == NAME)
    assert game["title"] == {"en": "Dyuzhina (a dozen)", "ru": "Дюжина"} and game["players"] == [2]
    assert "target" in [o["name"] for o in game["options"]]
    table = runner.invoke(app, ["games", "--lang", "ru"])
    assert table.exit_code == 0 and "Дюжина" in table.output
    played = runner.invoke(app, ["simulate", NAME, "--games", "3", "--bots", "heuristic"])
    assert played.exit_code == 0, played.output


# ------------------------------------------------------------------ the tensor
def test_it_has_a_tensor_observation_that_shows_no_hidden_card() -> None:
    m = koloda.new_game(NAME, seed=5)
    enc = kt.encoder(NAME, 2)
    assert [b.name for b in kt.describe(NAME, 2)][:5] == ["seat", "to_move", "dealer",
                                                          "match_over", "deal_number"]
    rng = random.Random(5)
    while not m.is_over:
        for seat in range(2):
            obs = m.observation(seat)
            v = kt.encode(obs)
            assert len(v) == kt.size(NAME, 2) == enc.size
            assert enc.missing_fields(obs) == []
            shown = {c for i, c in enc.card_positions().items() if v[i]}
            assert not shown & m.hidden_from(seat)
        m.apply(rng.choice(m.legal_actions()))


# ------------------------------------------------------------- research APIs
def test_pettingzoo_api_test_passes() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from koloda.envs.pettingzoo import env
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(NAME, max_deals=1), num_cycles=200)


def test_openspiel_random_sim_test_passes() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import koloda.envs.openspiel as kos
    assert kos.game_name(NAME) in kos.register_all()    # a game registered later joins
    game = pyspiel.load_game(f"{kos.game_name(NAME)}(max_deals=2,target=1)")
    assert game.num_distinct_actions() == 52 and game.max_game_length() == 24
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


# -------------------------------------------------------------------- the TUI
def test_it_is_on_the_start_screen_and_played_to_its_end_with_the_keyboard(
        tmp_path: Path, _home: None) -> None:
    from koloda.tui.app import KolodaApp
    from koloda.tui.screens import InfoScreen, ResultScreen
    from koloda.tui.session import Session, make_seats
    from koloda.tui.start import StartForm

    form = StartForm()
    assert NAME in form.families
    form.set_spec(NAME)
    assert form.spec is SPEC and "heuristic" in form.bots

    match = koloda.new_game(NAME, seed=7, max_deals=1)
    seats = make_seats(2, 0, ["heuristic"], "Аня", "en")
    s = Session(match, seats, tmp_path / "dyuzhina.json", use_store=False)
    app = KolodaApp(s, "en", bot_delay=0)

    async def go() -> str:
        async with app.run_test(size=(100, 32)) as pilot:
            for _ in range(200):
                if isinstance(app.screen, ResultScreen):
                    break
                await pilot.press("enter" if isinstance(app.screen, InfoScreen) else "1")
            await pilot.pause()
            return app.export_text()
    text = asyncio.run(go())
    assert match.is_over and "The match is over" in text
    assert json.loads(s.path.read_text())["result"] == match.result.to_json()


# -------------------------------------------------------------------- the web
def test_two_people_play_it_in_the_browser_api_to_its_end(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from tests.browser.leaks import leaks
    from tests.test_web import Sock, client_for, play, two_seated

    with client_for(tmp_path) as c:
        games = {g["name"]: g for g in c.get("/api/games").json()}
        assert games[NAME]["bots"] == ["random", "heuristic"]
        tid, socks, frames = two_seated(c, NAME, options={"target": 1})
        watcher = Sock(c, tid, None, frames)
        assert "hand" in (socks[0].state or {})["view"]
        assert "hand" not in (watcher.state or {})["view"]
        n = play(socks, random.Random(2))
        assert n >= 12
        final = watcher.until(lambda s: s["view"]["match_over"])
        assert final["result"]["over"] is True
        record = c.get(f"/api/tables/{tid}/record").json()
        assert record["game"] == NAME and len(record["actions"]) == n
        for sock in [*socks.values(), watcher]:
            sock.close()
        assert leaks(record, frames) == []


def test_a_computer_plays_it_at_a_table(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from tests.test_web import Sock, client_for, create

    with client_for(tmp_path) as c:
        made = create(c, NAME, 2, seats=[{"kind": "person"},
                                         {"kind": "computer", "bot": "heuristic"}])
        assert made["table"]["seats"][1]["bot"] == "heuristic" and not made["notes"]
        me = Sock(c, made["id"], made["token"])
        rng, version = random.Random(1), -1
        while True:
            st = me.until(lambda s, v=version: s["version"] > v and (
                s["view"]["match_over"] or s["view"]["to_move"] == 0))
            if st["view"]["match_over"]:
                break
            version = st["version"]
            assert me.act(rng.choice(st["legal"]))["type"] == "ok"
        assert st["result"]["over"] is True
        me.close()


# ------------------------------------------------- its words, on every screen
def _terms(lang: str) -> set[str]:
    """The label of every field of the game's views a person may see, in ``lang``."""
    from koloda.engine.terms import term
    from koloda.engine.view import fields_of
    return {term(f.term, lang) for view in SPEC.views for f in fields_of(view)
            if f.term is not None}


def test_the_terminal_says_its_fields_in_its_own_words(tmp_path: Path, _home: None) -> None:
    from koloda.tui.app import KolodaApp
    from koloda.tui.session import Session, make_seats

    m = koloda.new_game(NAME, seed=7, max_deals=1)
    for _ in range(5):
        m.apply(m.legal_actions()[0])
    s = Session(m, make_seats(2, m.to_move, ["heuristic"], "Аня", "ru"),
                tmp_path / "t.json", use_store=False)
    app = KolodaApp(s, "ru", bot_delay=0)

    async def go() -> str:
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            return app.export_text()
    text = asyncio.run(go())
    assert "[" not in text and "{" not in text
    assert {"вышли", "выиграно сдач"} <= {w for w in _terms("ru") if w in text}


def test_the_browser_has_its_fields_labels_in_both_languages(tmp_path: Path) -> None:
    """The display the browser draws labels each field by its declared term, and the
    served vocabulary has the game's own terms (registered after the server started)."""
    pytest.importorskip("fastapi")
    import json

    from koloda.engine.terms import term
    from koloda.engine.view import fields_of
    from koloda.web.views import display
    from tests.test_web import client_for

    with client_for(tmp_path) as c:
        texts = c.get("/api/texts").json()
    m = koloda.new_game(NAME, seed=7, max_deals=1)
    for _ in range(5):
        m.apply(m.legal_actions()[0])
    for lang in ("en", "ru"):
        shown = json.dumps(display(m, 0, [{"name": "A"}, {"name": "B"}], lang),
                           ensure_ascii=False)
        for view in SPEC.views:
            for f in fields_of(view):
                if f.term is not None:
                    assert texts[lang].get(f"term.{f.term}") == term(f.term, lang), f.name
                if f.term is not None and f.role is None and f.kind != "view" \
                        and view is not SPEC.views[2]:   # the last trick's: "taken by B"
                    assert term(f.term, lang) in shown, (lang, f.name)   # label or mark
