"""``koloda --help`` and every command's ``--help`` read well in English and in Russian."""

from __future__ import annotations

from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from koloda.cli.help_ru import RU
from koloda.cli.main import app

runner = CliRunner()
COMMANDS = sorted(get_command(app).commands)    # type: ignore[attr-defined]


def _help(args: list[str], lang: str) -> str:
    out = runner.invoke(app, [*args, "--help"], env={"KOLODA_LANG": lang, "COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    return out.output


def test_command_list_has_no_line_broken_mid_sentence() -> None:
    """A docstring's line break inside a paragraph no longer breaks the command list's
    line (``replay``'s summary read "… the" / "result, …")."""
    text = _help([], "en")
    rows = [ln for ln in text.split("Commands", 1)[1].splitlines() if ln.startswith("│ ")]
    names = [r.split()[1] for r in rows if len(r.split()) > 1]
    for name in COMMANDS:
        assert name in names, text
    for row in rows:
        assert row.split()[1] in COMMANDS, (row, text)    # no continuation lines


def _texts(command: Any) -> list[str]:
    out = [command.help] if command.help else []
    return out + [p.help for p in command.params if getattr(p, "help", None)]


@pytest.mark.parametrize("name", COMMANDS)
def test_every_help_text_has_its_russian(name: str) -> None:
    from koloda.cli.help_ru import said
    from koloda.cli.usage import _reflow
    group = get_command(app)
    _reflow(group)
    command = group.commands[name]     # type: ignore[attr-defined]
    for text in _texts(command):
        assert said(text) != text, f"no Russian help for {name}: {text!r}"
    ru = _help([name], "ru")
    assert "Параметры" in ru and "Показать эту справку и выйти." in ru
    assert "Options" not in ru and "Show this message" not in ru
    en = _help([name], "en")
    assert "Options" in en and "Параметры" not in en


def test_russian_help_of_the_program() -> None:
    ru = _help([], "ru")
    assert "koloda — русские карточные игры." in ru and "Команды" in ru
    assert "Играть с компьютером в терминале" in ru
    assert RU["Show this message and exit."] in ru
    assert "--lang ru" not in ru
    ru2 = runner.invoke(app, ["play", "--help", "--lang", "ru"], env={"COLUMNS": "200"})
    assert "ваше место (с 0)" in ru2.output
