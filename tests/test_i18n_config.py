"""Option, player-count and game-name errors (``ConfigError``) are catalog messages
like the refusals: ``str(exc)`` is the English sentence as before, ``render("ru")`` Russian;
the command line, the TUI start screen and the web say them in the player's language."""

from __future__ import annotations

import pickle
import re
from pathlib import Path
from typing import Any

import pytest

import koloda
from koloda.engine.errors import ConfigError
from koloda.engine.messages import CATALOG, Reason
from tests.test_i18n_refusals import check_russian

KOLODA = Path(koloda.__file__).parent

BAD_VALUES: list[Any] = [-1, 0, 7, 40, 99, "zzz", True, {}, {"S": 1},
                         {"S": 1, "C": 2, "D": 3, "H": -1}, 3.5, None, [1]]


def check_config_error(exc: ConfigError) -> str:
    assert exc.key in CATALOG, f"not a catalog message: {str(exc)!r}"
    assert isinstance(exc.reason, Reason)
    assert exc.render("en") == str(exc) == exc.reason
    check_russian(exc.render("ru"))
    return exc.key


def test_every_config_error_raised_in_the_package_names_a_catalog_key() -> None:
    sites = 0
    for path in KOLODA.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        raises = re.findall(r"raise ConfigError\(", text)
        keyed = re.findall(r"raise ConfigError\(\s*(f?)([\"'])([^\"']*)\2", text)
        assert len(raises) == len(keyed), (path, "a ConfigError not raised with a key")
        for f, _, key in keyed:
            assert not f and key in CATALOG, (path, key)
        sites += len(raises)
    assert sites >= 12   # the scan found the raises (the seven copied level checks are one now)


@pytest.mark.parametrize("name", sorted(koloda.registry()))
def test_every_bad_option_value_is_said_in_both_languages(name: str) -> None:
    spec = koloda.get_spec(name)
    keys: set[str] = set()
    for players in spec.players:
        for opt in spec.all_options:
            for value in BAD_VALUES:
                try:
                    spec.resolve_options(players, {opt.name: value})
                except ConfigError as exc:
                    keys.add(check_config_error(exc))
                    if exc.key == "option_value":      # the check's own words, as a key
                        problem = exc.reason.args["problem"]  # type: ignore[attr-defined]
                        assert isinstance(problem, Reason), (opt.name, value, str(exc))
    assert keys <= {"option_kind", "option_value"} and "option_kind" in keys


def test_games_players_options_and_seeds_are_said_in_both_languages() -> None:
    cases = [
        (lambda: koloda.get_spec("xyz"), "unknown_game",
         "unknown game 'xyz'; games: " + ", ".join(koloda.registry()),
         "нет такой игры: «xyz»; игры: " + ", ".join(koloda.registry())),
        (lambda: koloda.get_spec("durak", "zz"), "no_variant",
         "durak has no variant 'zz'; variants: simple, perevodnoy",
         "у игры durak нет варианта «zz»; варианты: simple, perevodnoy"),
        (lambda: koloda.new_game("durak", players=9), "players_count",
         "durak is played by 2–6 players, not 9",
         "«Дурак простой, или подкидной»: число игроков — 2–6, а не «9»"),
        (lambda: koloda.new_game("durak", foo=1), "unknown_option",
         "durak has no option 'foo'; options: teams, first_bout_limit, games, max_deals",
         "«Дурак простой, или подкидной»: нет параметра «foo»; параметры: teams, "
         "first_bout_limit, games, max_deals"),
        (lambda: koloda.new_game("durak", seed="x"), "seed_whole",
         "seed must be a whole number, not 'x'",
         "номер раздачи (seed) — целое число, а не «x»"),
        (lambda: koloda.new_game("durak", teams=True, players=3), "option_value",
         "option teams=True: teams play only with 4 (2 vs 2) or 6 (3 vs 3) players; allowed: "
         "true or false (true only with 4 or 6 players)",
         "параметр teams=«true»: командами играют только вчетвером (2 на 2) или вшестером "
         "(3 на 3); допустимо: да или нет (да — только вчетвером или вшестером)"),
        (lambda: koloda.new_game("stukolka", ante="x"), "option_kind",
         "option ante='x': expected a multiple of 3, at least 3",
         "параметр ante=«x»: неверное значение; допустимо: кратное 3, не меньше 3"),
        (lambda: koloda.new_game("opendaum", players=3, deck=32), "option_value",
         "option deck=32: with 3 players the deck is 36; allowed: 32 (2 players), 36 (3), "
         "32 or 36 (4), 30 (5), 36 (6)",
         "параметр deck=«32»: при 3 игроках колода — 36; допустимо: 32 (двое), 36 (трое), "
         "32 или 36 (четверо), 30 (пятеро), 36 (шестеро)"),
    ]
    for make, key, en, ru in cases:
        with pytest.raises(ConfigError) as err:
            make()
        assert check_config_error(err.value) == key
        assert str(err.value) == en
        assert err.value.render("ru") == ru


def test_a_start_deal_beyond_a_smaller_schedule_is_said_in_both_languages() -> None:
    spec = koloda.get_spec("opendaum")
    last = max(v for v in range(40) if _ok(spec, 4, v))   # valid for the 36-card deck
    with pytest.raises(ConfigError) as err:
        koloda.new_game("opendaum", players=4, deck=32, start_deal=last)
    assert check_config_error(err.value) == "start_deal_schedule"
    deals = err.value.reason.args["deals"]  # type: ignore[attr-defined]
    assert str(err.value) == (f"option start_deal={last}: this match has {deals} deals; "
                              f"allowed: 0..{deals - 1}")
    assert f"от 0 до {deals - 1}" in err.value.render("ru")


def _ok(spec: koloda.GameSpec, players: int, start: int) -> bool:
    try:
        spec.resolve_options(players, {"start_deal": start})
    except ConfigError:
        return False
    return True


def test_a_config_error_survives_pickle_and_plain_text_still_works() -> None:
    with pytest.raises(ConfigError) as err:
        koloda.new_game("durak", first_bout_limit=9)
    again = pickle.loads(pickle.dumps(err.value))
    assert str(again) == str(err.value) == ("option first_bout_limit=9: must be 1..6; "
                                             "allowed: a whole number 1..6")
    assert again.key == "option_value" and again.render("ru") == err.value.render("ru")
    for make in (lambda: koloda.new_game("durak", players=9),           # Named, Value
                 lambda: koloda.new_game("durak", foo=1),               # Quotes, Names
                 lambda: koloda.new_game("opendaum", players=3, deck=32),  # Either, Allowed
                 lambda: koloda.new_game("dreyfus", finish="x")):       # a nested Reason
        with pytest.raises(ConfigError) as err:
            make()
        again = pickle.loads(pickle.dumps(err.value))
        assert again.key == err.value.key and str(again) == str(err.value)
        assert again.render("ru") == err.value.render("ru")
    plain = ConfigError("the bot is not ready")
    assert plain.key is None and plain.render("ru") == str(plain) == "the bot is not ready"


# ------------------------------------------------------------------ the command line
def _run(args: list[str], **env: str) -> tuple[int, str]:
    from typer.testing import CliRunner

    from koloda.cli.main import app
    out = CliRunner(env=env or None).invoke(app, args, input="")
    return out.exit_code, re.sub(r"\s+", " ", out.output).strip()


def test_play_with_too_many_players_fails_in_russian_and_in_english_as_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KOLODA_HOME", str(tmp_path))
    code, ru = _run(["play", "durak", "--players", "9", "--lang", "ru", "--line"])
    assert code == 2
    assert ru == "ошибка: «Дурак простой, или подкидной»: число игроков — 2–6, а не «9»"
    code, en = _run(["play", "durak", "--players", "9", "--lang", "en", "--line"])
    assert (code, en) == (2, "error: durak is played by 2–6 players, not 9")
    # no --lang: the locale decides
    code, said = _run(["play", "durak", "--players", "9", "--line"], KOLODA_LANG="ru_RU.UTF-8")
    assert (code, said) == (2, ru)


@pytest.mark.parametrize(("args", "ru"), [
    (["play", "durak", "-o", "first_bout_limit=9"],
     "ошибка: параметр first_bout_limit=«9»: нужно от 1 до 6; допустимо: целое число от 1 до 6"),
    (["play", "durak", "-o", "jokers=2"],
     "ошибка: «Дурак простой, или подкидной»: нет параметра «jokers»; параметры: teams, "
     "first_bout_limit, games, max_deals"),
    (["play", "durak", "-o", "teams"], "ошибка: параметр «teams»: пишите имя=значение"),
    (["play", "durak", "--variant", "zz"],
     "ошибка: у игры durak нет варианта «zz»; варианты: simple, perevodnoy"),
    (["play", "poker"], "ошибка: нет такой игры: «poker»; игры: " + ", ".join(koloda.registry())),
    (["play", "durak", "--seat", "5", "--no-store"], "ошибка: --seat 5: места от 0 до 1"),
    (["play", "--resume", "/nonexistent/k.json"],
     "ошибка: не удалось продолжить /nonexistent/k.json: не удалось прочитать "
     "/nonexistent/k.json: такого файла нет"),
])
def test_play_failures_are_said_in_russian(args: list[str], ru: str, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KOLODA_HOME", str(tmp_path))
    code, said = _run([*args, "--lang", "ru", "--line"])
    assert (code, said) == (2, ru)
    code, said = _run([*args, "--lang", "en", "--line"])
    assert code == 2 and said.startswith("error: ") and not re.search("[а-яё]", said)


def test_rules_replay_and_the_store_fail_in_russian(tmp_path: Path) -> None:
    code, said = _run(["rules", "poker", "--lang", "ru"])
    assert code == 2 and said.startswith("ошибка: нет такой игры: «poker»")
    bad = tmp_path / "bad.json"
    bad.write_text('{"a": ', encoding="utf-8")
    code, said = _run(["replay", str(bad), "--lang", "ru"])
    assert (code, said) == (2, f"ошибка: {bad}: это не JSON: строка 1, столбец 7 "
                               "(Expecting value)")
    code, said = _run(["replay", str(bad), "--lang", "en"])
    assert (code, said) == (2, f"error: {bad}: not JSON: Expecting value at line 1 column 7")
    db = f"sqlite:///{tmp_path / 'k.db'}"
    code, said = _run(["replay", "7", "--db", db, "--lang", "ru"])
    assert (code, said) == (2, "ошибка: в хранилище нет игры 7")
    nowhere = f"sqlite:///{tmp_path / 'no' / 'such' / 'k.db'}"
    for command in (["history"], ["stats"], ["replay", "7"]):
        code, said = _run([*command, "--db", nowhere, "--lang", "ru"])
        # (a long address is cut by the console's width)
        assert code == 2 and said.startswith("ошибка: не удалось открыть хранилище sqlite:")


# ------------------------------------------------------------------ the web server
def test_the_web_says_its_errors_in_russian_too(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from tests.test_web import client_for, create

    def body(**kw: Any) -> dict[str, Any]:
        return {"game": "durak", "players": 2, "seats": [{"kind": "person"}] * 2, "sit": 0,
                "name": "Anna"} | kw

    def error(res: Any, status: int) -> dict[str, str]:
        assert res.status_code == status, res.text
        out: dict[str, str] = res.json()
        check_russian(out["error_ru"])
        return out

    with client_for(tmp_path) as c:
        bad = error(c.post("/api/tables", json=body(options={"first_bout_limit": 9})), 400)
        assert bad == {"error": "option first_bout_limit=9: must be 1..6; allowed: a whole "
                                "number 1..6",
                       "error_ru": "параметр first_bout_limit=«9»: нужно от 1 до 6; "
                                   "допустимо: целое число от 1 до 6"}
        many = error(c.post("/api/tables", json=body(players=9)), 400)
        assert many["error"] == "durak is played by 2–6 players, not 9"
        assert many["error_ru"] == ("«Дурак простой, или подкидной»: число игроков — 2–6, "
                                    "а не «9»")
        game = error(c.post("/api/tables", json=body(game="chess")), 400)
        assert game["error"].startswith("unknown game 'chess'")
        assert game["error_ru"].startswith("нет такой игры: «chess»")
        nameless = error(c.post("/api/tables", json=body(name=" ")), 400)
        assert nameless == {"error": "name: say how the table should call you",
                            "error_ru": "имя: скажите, как вас называть за столом"}
        assert error(c.get("/api/rules/chess"), 404)["error_ru"].startswith("нет такой игры")
        tid = create(c, "durak", 2, seats=[{"kind": "person"}, {"kind": "computer",
                                                                  "bot": "random"}])["id"]
        robot = error(c.post(f"/api/tables/{tid}/sit", json={"seat": 1, "name": "V"}), 409)
        assert robot == {"error": "seat 2 is a computer's",
                         "error_ru": "место 2 занимает компьютер"}
        taken = error(c.post(f"/api/tables/{tid}/sit", json={"seat": 0, "name": "V"}), 409)
        assert taken == {"error": "seat 1 is taken", "error_ru": "место 1 уже занято"}
        assert error(c.get("/api/tables/nope"), 404) == {"error": "no table 'nope'",
                                                         "error_ru": "стола «nope» нет"}
        assert error(c.get(f"/api/tables/{tid}/record"), 403)["error"] == \
            "the record is public once the match is over"


# ------------------------------------------------------------------ the TUI start screen
def test_the_start_screen_says_in_russian_what_only_the_whole_match_checks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A start deal beyond the 32-card schedule passes the option check but not the match:
    the start screen says so in Russian and stays (it used to stop the program)."""
    import asyncio

    from textual.widgets import Static

    from koloda.tui.app import KolodaApp
    from koloda.tui.start import StartScreen
    monkeypatch.setenv("KOLODA_HOME", str(tmp_path))
    spec = koloda.get_spec("opendaum")
    last = max(v for v in range(40) if _ok(spec, 4, v))
    app = KolodaApp(None, "ru", player_name="Аня", use_store=False, bot_delay=0)

    async def go() -> str:
        async with app.run_test(size=(100, 32)) as pilot:
            screen = app.screen
            assert isinstance(screen, StartScreen)
            form = screen.form
            form.set_spec("opendaum", 4)
            form.options.update(deck=32, start_deal=last)
            assert form.problem() is None
            form.row = form.rows().index("start")
            await pilot.press("enter")
            assert isinstance(app.screen, StartScreen)
            return str(app.screen.query_one("#start-message", Static).render())
    said = asyncio.run(go())
    assert said.startswith(f"параметр start_deal={last}: в этой партии ")
    check_russian(said)


def test_simulate_and_arena_say_a_bad_option_in_the_locale_language() -> None:
    for command in (["simulate", "durak", "--games", "1"],
                    ["arena", "durak", "--bots", "random,heuristic"]):
        code, said = _run([*command, "-o", "games=0"], KOLODA_LANG="ru")
        assert (code, said) == (2, "ошибка: параметр games=«0»: нужно не меньше 1; допустимо: "
                                   "целое число ≥ 1")
        code, said = _run([*command, "-o", "games=0"])
        assert (code, said) == (2, "error: option games=0: must be at least 1; allowed: a "
                                   "whole number ≥ 1")


def test_the_start_screen_says_why_a_saved_game_cannot_go_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A saved game the engine refuses (here: nine players of durak) is explained in the
    person's language on the start screen, which stays open."""
    import asyncio
    import json

    from textual.widgets import Static

    from koloda.tui.app import KolodaApp
    from koloda.tui.session import autosave_dir
    from koloda.tui.start import StartScreen
    monkeypatch.setenv("KOLODA_HOME", str(tmp_path))
    record = koloda.new_game("durak", seed=1).record()
    record["players"] = 9
    autosave_dir().mkdir(parents=True, exist_ok=True)
    path = autosave_dir() / "durak-broken.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    app = KolodaApp(None, "ru", player_name="Аня", use_store=False, bot_delay=0)

    async def go() -> str:
        async with app.run_test(size=(100, 32)) as pilot:
            form = app.screen.form  # type: ignore[attr-defined]
            assert form.resumable and form.resumable[0][0] == path
            form.row = form.rows().index("resume:0")
            await pilot.press("enter")
            assert isinstance(app.screen, StartScreen)
            return str(app.screen.query_one("#start-message", Static).render())
    said = asyncio.run(go())
    assert said == (f"не удалось продолжить {path}: поле players: «Дурак простой, или "
                    "подкидной»: число игроков — 2–6, а не «9»")


def test_the_bots_own_errors_are_said_in_both_languages() -> None:
    from koloda.bots import make_bot
    cases = [("chess-bot", "durak", "unknown_bot", "unknown bot 'chess-bot'; bots: "),
             ("search:ultra", "durak", "unknown_level",
              "unknown search level 'ultra'; levels: ")]
    for bot, game, key, en in cases:
        with pytest.raises(ConfigError) as err:
            make_bot(bot, game)
        assert check_config_error(err.value) == key and str(err.value).startswith(en)
    for game in sorted(koloda.registry()):
        with pytest.raises(ConfigError) as err:
            make_bot("search:ultra", game)
        if "search" not in koloda.get_spec(game).bots:     # a game without a search
            assert check_config_error(err.value) == "no_search"
            assert err.value.render("ru") == f"игрока «перебор» для {game} пока нет"
            continue
        assert check_config_error(err.value) == "unknown_level"
        assert err.value.render("ru").startswith("нет такого уровня перебора: 'ultra'; уровни: ")
    code, said = _run(["play", "durak", "--bots", "genius", "--lang", "ru", "--line"])
    assert code == 2 and said.startswith("ошибка: нет такого компьютерного игрока: 'genius'")
