"""Every failure of the command line — Typer's own usage errors included — is one line on
stderr with exit code 2; a bad ``--db`` is said before anything is played; ``play
--resume`` refuses another game's name and a game that is over."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import koloda
from koloda.cli.main import app


class _Runner(CliRunner):
    def invoke(self, *args: Any, **kw: Any) -> Any:   # the help hints name ``koloda``
        return super().invoke(*args, prog_name="koloda", **kw)


runner = _Runner()

USAGE_ERRORS = [
    (["play", "durak", "--players", "abc"], "--players: 'abc' is not a whole number",
     "koloda play --help"),
    (["nosuchcmd"], "no command 'nosuchcmd'", "koloda --help"),
    (["pla"], "did you mean 'play'", "koloda --help"),
    (["arena"], "missing argument 'game'", "koloda arena --help"),
    (["arena", "durak"], "missing option '--bots'", "koloda arena --help"),
    (["play", "durak", "--nosuch"], "no option '--nosuch'", "koloda play --help"),
    (["play", "durak", "extra"], "unexpected extra argument(s): extra", "koloda play --help"),
    (["simulate", "durak", "--games", "x"], "--games: 'x' is not a whole number",
     "koloda simulate --help"),
    (["play", "durak", "--seed"], "option '--seed' needs a value", ""),
    (["rules"], "missing argument 'game'", "koloda rules --help"),
    (["games", "--json", "x"], "unexpected extra argument(s): x", "koloda games --help"),
]


def _error_line(out: Any) -> str:
    """The one line said, on stderr, exit code 2."""
    assert out.exit_code == 2, out.output
    assert out.stdout == "", out.stdout
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    assert "╭" not in out.stderr and "Usage:" not in out.stderr and "Traceback" not in out.stderr
    return lines[0]


@pytest.mark.parametrize(("args", "said", "hint"), USAGE_ERRORS)
def test_typer_usage_errors_are_one_line_not_a_box(args: list[str], said: str,
                                                   hint: str) -> None:
    line = _error_line(runner.invoke(app, args))
    assert line.startswith("error: ") and said in line
    assert hint in line


def test_typer_usage_errors_are_one_line_in_russian() -> None:
    line = _error_line(runner.invoke(app, ["play", "durak", "--players", "abc",
                                           "--lang", "ru"]))
    assert line == ("ошибка: --players: «abc» — не целое число "
                    "(справка: koloda play --help)")
    line = _error_line(runner.invoke(app, ["arena", "durak"], env={"KOLODA_LANG": "ru"}))
    assert line.startswith("ошибка: не указан параметр «--bots»")
    line = _error_line(runner.invoke(app, ["nosuchcmd"], env={"KOLODA_LANG": "ru"}))
    assert line == "ошибка: нет команды «nosuchcmd» (справка: koloda --help)"


def test_typer_usage_errors_are_one_line_from_the_real_program() -> None:
    """``python -m koloda`` (the console entry) says them the same way."""
    for args in (["play", "durak", "--players", "abc"], ["nosuchcmd"], ["arena"]):
        out = subprocess.run([sys.executable, "-m", "koloda", *args], capture_output=True,
                             text=True, timeout=120, env={"KOLODA_LANG": "en",
                                                          "PATH": "/usr/bin:/bin",
                                                          "PYTHONPATH": str(Path.cwd())})
        assert out.returncode == 2 and out.stdout == ""
        assert len(out.stderr.splitlines()) == 1 and out.stderr.startswith("error: "), \
            out.stderr


def test_every_command_with_no_arguments_or_a_bad_one_fails_in_one_line() -> None:
    """Each command `koloda --help` lists: an option it does not have is one line."""
    from typer.main import get_command
    for name in get_command(app).commands:    # type: ignore[attr-defined]
        line = _error_line(runner.invoke(app, [name, "--no-such-option"]))
        assert line.startswith("error: no option '--no-such-option'")
        assert f"koloda {name} --help" in line


# ------------------------------------------------------------------ --db
BAD_DBS = [
    ("bogus://x", "unknown kind of database “bogus”"),
    ("sqlite:////nonexistent/x.db", "the folder /nonexistent does not exist"),
    ("notaurl", "not a database URL"),
]


@pytest.mark.parametrize(("url", "why"), BAD_DBS)
def test_play_with_a_bad_db_fails_before_the_game(url: str, why: str, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KOLODA_HOME", str(tmp_path))
    out = runner.invoke(app, ["play", "durak", "--line", "--seed", "1", "--lang", "en",
                              "--bots", "random", "--db", url], input="1\n" * 500)
    line = _error_line(out)
    assert line == f"error: cannot open the store {url}: {why}" or \
        line.startswith(f"error: cannot open the store {url}: {why}")
    assert not (tmp_path / "autosave").exists() or \
        not list((tmp_path / "autosave").glob("*.json"))        # nothing was played


@pytest.mark.parametrize(("url", "why"), BAD_DBS)
def test_every_db_command_says_a_bad_db_in_one_clean_line(url: str, why: str) -> None:
    for cmd in (["stats"], ["history"], ["replay", "1"]):
        line = _error_line(runner.invoke(app, [*cmd, "--db", url]))
        assert f"cannot open the store {url}: {why}" in line
        assert "sqlalche.me" not in line and "Background" not in line
        assert "sqlite3." not in line and "plugin" not in line


def test_sqlite_db_in_a_missing_folder_names_the_folder_in_russian() -> None:
    line = _error_line(runner.invoke(app, ["history", "--db", "sqlite:////nonexistent/x.db",
                                           "--lang", "ru"]))
    assert line == ("ошибка: не удалось открыть хранилище sqlite:////nonexistent/x.db: "
                    "папки /nonexistent нет")


def test_serve_with_a_bad_db_fails_in_one_line() -> None:
    line = _error_line(runner.invoke(app, ["serve", "--port", "0", "--db", "bogus://x"]))
    assert "cannot open the store bogus://x: unknown kind of database" in line


def test_a_db_password_is_not_printed() -> None:
    line = _error_line(runner.invoke(app, ["history", "--db",
                                           "postgresql://u:secret@127.0.0.1:1/x"]))
    assert "secret" not in line and "u:***@127.0.0.1:1/x" in line


# ------------------------------------------------------------------ --resume
SEATS = [{"name": "Аня", "kind": "human"},
         {"name": "Борис", "kind": "bot", "bot": "random"},
         {"name": "Вера", "kind": "bot", "bot": "random"},
         {"name": "Глеб", "kind": "bot", "bot": "random"}]


def _saved(tmp_path: Path, moves: int | None) -> Path:
    m = koloda.new_game("opendaum", seed=1)
    rng = random.Random(1)
    while not m.is_over and (moves is None or len(m.history) < moves):
        m.apply(rng.choice(m.legal_actions()))
    path = tmp_path / "save.json"
    path.write_text(json.dumps(m.record(SEATS)), encoding="utf-8")
    return path


def test_resume_refuses_a_game_name_that_differs_from_the_record(tmp_path: Path) -> None:
    path = _saved(tmp_path, 2)
    line = _error_line(runner.invoke(app, ["play", "durak", "--resume", str(path), "--line",
                                           "--no-store", "--lang", "en"], input="q\n"))
    assert "the record is a game of opendaum, not durak" in line
    ru = _error_line(runner.invoke(app, ["play", "durak", "--resume", str(path), "--line",
                                         "--no-store", "--lang", "ru"], input="q\n"))
    assert "в записи игра opendaum, а не durak" in ru
    same = runner.invoke(app, ["play", "opendaum", "--resume", str(path), "--line",
                               "--no-store", "--lang", "en"], input="q\n")
    assert same.exit_code == 0, same.output            # its own name is fine


def test_resume_of_a_finished_game_says_it_is_over(tmp_path: Path) -> None:
    path = _saved(tmp_path, None)
    out = runner.invoke(app, ["play", "--resume", str(path), "--line", "--no-store",
                              "--lang", "en"], input="\n" * 50)
    line = _error_line_after_result(out)
    assert "the game is already over" in line and f"koloda replay {path}" in line
    assert "The match is over." in out.stdout and "Match winner:" in out.stdout
    assert "Continue" not in out.output and "--resume" not in out.output
    ru = runner.invoke(app, ["play", "--resume", str(path), "--line", "--no-store",
                             "--lang", "ru"])
    assert "игра уже окончена" in _error_line_after_result(ru)


def _error_line_after_result(out: Any) -> str:
    assert out.exit_code == 2, out.output
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    return lines[0]
