"""Issue "the terminal table a player enjoys", item 5: results, replays and errors in
players' names and in sentences; every failure of play, replay, stats, history and serve a
one-line error with exit code 2, never a traceback."""

from __future__ import annotations

import json
import random
import socket
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

import koloda
from koloda.cli.main import app

runner = CliRunner()
SEATS = [{"name": "Аня", "kind": "human"}, {"name": "Борис", "kind": "bot", "bot": "heuristic"}]


def _record(seed: int = 3) -> dict[str, Any]:
    m = koloda.new_game("durak", players=2, seed=seed)
    rng = random.Random(seed)
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()))
    return m.record(SEATS)


def _one_line_error(out: Any) -> str:
    assert out.exit_code == 2, out.output
    assert "Traceback" not in out.output
    lines = [ln for ln in out.output.splitlines() if ln.strip()]
    starts = [i for i, ln in enumerate(lines) if ln.startswith(("error:", "ошибка:"))]
    assert len(starts) == 1, out.output        # one error, the last thing said
    assert not isinstance(out.exception, Exception) or isinstance(out.exception, SystemExit)
    return " ".join(lines[starts[0]:])    # (a long line wraps at the terminal's width)


def test_replay_names_players_not_seats(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(_record()), encoding="utf-8")
    out = runner.invoke(app, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    assert "Match winner: Аня" in out.output or "Match winner: Борис" in out.output
    assert "seat 0" not in out.output and "seat 1" not in out.output
    ru = runner.invoke(app, ["replay", str(path), "--lang", "ru"])
    assert "Победитель: " in ru.output and "место 0" not in ru.output


def test_replay_error_is_a_sentence_not_json(tmp_path: Path) -> None:
    record = _record()
    record["actions"][3] = {"seat": record["actions"][3]["seat"], "action": "attack AS"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    text = _one_line_error(runner.invoke(app, ["replay", str(path)]))
    assert "{" not in text and '"field"' not in text
    assert "move 4 (" in text and "is not allowed" in text
    ru = _one_line_error(runner.invoke(app, ["replay", str(path), "--lang", "ru"]))
    assert "ход 4 (" in ru and "недопустим" in ru
    # the JSON form (for programs) keeps the English reason of docs/records.md
    js = runner.invoke(app, ["replay", str(path), "--json"])
    assert js.exit_code == 2 and json.loads(js.output)["error"]["index"] == 3


def test_replay_of_a_non_utf8_file_is_a_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"game": "durak", "name": "\xe9t\xe9"}')
    text = _one_line_error(runner.invoke(app, ["replay", str(path)]))
    assert "UTF-8" in text
    js = runner.invoke(app, ["replay", str(path), "--json"])
    assert js.exit_code == 2 and json.loads(js.output)["error"]["field"] == "file"


def test_resume_of_a_record_naming_an_unknown_bot_is_a_one_line_error(tmp_path: Path) -> None:
    m = koloda.new_game("durak", players=2, seed=1)
    seats = [SEATS[0], {"name": "X", "kind": "bot", "bot": "superbot"}]
    path = tmp_path / "save.json"
    path.write_text(json.dumps(m.record(seats)), encoding="utf-8")
    text = _one_line_error(runner.invoke(app, ["play", "--resume", str(path), "--line",
                                               "--no-store"]))
    assert "superbot" in text and "cannot resume" in text


def test_stats_with_an_uninstalled_driver_names_the_package() -> None:
    for cmd in (["stats"], ["history"], ["replay", "7"]):
        text = _one_line_error(runner.invoke(app, [*cmd, "--db", "mysql://u@localhost/x"]))
        assert "pip install 'mysqlclient'" in text and "ModuleNotFoundError" not in text


def test_games_shows_a_default_that_depends_on_the_player_count() -> None:
    out = runner.invoke(app, ["games", "--json"])
    durak = next(g for g in json.loads(out.output) if g["name"] == "durak")
    teams = next(o for o in durak["options"] if o["name"] == "teams")
    assert teams["default_by_players"] == {"2": False, "3": False, "4": True, "5": False,
                                           "6": True}
    from koloda.cli.main import default_text
    spec = koloda.get_spec("durak")
    option = next(o for o in spec.all_options if o.name == "teams")
    assert default_text(spec, option) == "false (with 2, 3, 5 players); true (with 4, 6 players)"


def test_bots_help_names_the_real_default() -> None:
    out = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"})
    assert "the best available" not in out.output
    assert "heuristic where the game has one" in " ".join(out.output.split())
    from koloda.tui.session import default_bot
    assert default_bot("durak") == "heuristic"


def test_serve_on_a_taken_port_is_a_one_line_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        text = _one_line_error(runner.invoke(app, ["serve", "--port", str(port)]))
    assert f"cannot listen on 127.0.0.1:{port}" in text


def test_an_unknown_word_names_only_this_games_verbs() -> None:
    import pytest

    from koloda.engine.errors import IllegalAction
    m = koloda.new_game("durak", players=2, seed=1)
    with pytest.raises(IllegalAction) as exc:
        m.apply("fly 3")
    text = str(exc.value)
    assert "attack" in text and "beat" in text and "bid" not in text.split(": ")[-1]
    assert "flip" not in text and "knock" not in text
    assert "непонятный ход «fly 3»: в игре" in exc.value.render("ru")
    with pytest.raises(IllegalAction) as exc:
        m.apply("bid 3")       # another game's verb: the game's own sentence
    assert "bid" in str(exc.value)
