"""``koloda play`` (line mode) keeping games in the store; ``stats``, ``history`` and
``replay ID`` reading them back."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from koloda.cli.main import app

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("KOLODA_HOME", str(tmp_path / "home"))
    return f"sqlite:///{tmp_path / 'k.db'}"


def play_durak(db: str, seed: int, name: str = "Аня") -> None:
    out = runner.invoke(app, ["play", "durak", "--line", "--seed", str(seed), "--lang", "en",
                              "--name", name, "--bots", "random", "--db", db],
                        input="1\n" * 500)
    assert out.exit_code == 0, out.output
    assert "Stored as game #" in out.output


def test_a_finished_line_mode_game_is_stored_and_listed(db: str) -> None:
    play_durak(db, 3)
    play_durak(db, 4)
    out = runner.invoke(app, ["history", "--db", db, "--json"])
    assert out.exit_code == 0, out.output
    games = json.loads(out.stdout)
    assert [g["id"] for g in games] == [2, 1]
    assert games[0]["names"][0] == "Аня" and games[0]["kinds"] == ["human", "bot"]
    table = runner.invoke(app, ["history", "--db", db, "--lang", "ru"])
    assert table.exit_code == 0 and "Дурак" in table.output and "игра" in table.output


def test_stats_of_a_player(db: str) -> None:
    play_durak(db, 3)
    out = runner.invoke(app, ["stats", "Аня", "--db", db, "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["name"] == "Аня" and data["games"][0]["game"] == "durak"
    assert data["games"][0]["played"] == 1 and data["rank"] is None
    text = runner.invoke(app, ["stats", "Аня", "--db", db, "--lang", "en"])
    assert text.exit_code == 0 and "games by kind" in text.output
    everyone = runner.invoke(app, ["stats", "--db", db])
    assert everyone.exit_code == 0 and "Аня" in everyone.output
    missing = runner.invoke(app, ["stats", "Боря", "--db", db])
    assert missing.exit_code == 1 and "No player" in missing.output


def test_stats_show_the_opendaum_33_rank_and_its_history(db: str) -> None:
    import random

    import koloda
    from koloda.store import Store
    m = koloda.new_game("opendaum-33", seed=1)
    rng = random.Random(1)
    while not m.is_over:
        legal = m.legal_actions()
        m.apply(legal[rng.randrange(len(legal))])
    Store(db).add_game(m.record([{"name": "Вера", "kind": "human"},
                                 {"name": "Bot", "kind": "bot", "bot": "random"},
                                 {"name": "Bot 2", "kind": "bot", "bot": "random"}]))
    data = json.loads(runner.invoke(app, ["stats", "Вера", "--db", db, "--json"]).stdout)
    assert data["rank"] is not None and len(data["rank_history"]) == 1
    text = runner.invoke(app, ["stats", "Вера", "--db", db, "--lang", "ru"])
    assert "Разряды опендаума-33" in text.output


def test_replay_a_stored_game_by_id(db: str) -> None:
    play_durak(db, 3)
    out = runner.invoke(app, ["replay", "1", "--db", db, "--lang", "en"])
    assert out.exit_code == 0, out.output
    assert "Аня:" in out.output and "record verified" in out.output
    js = runner.invoke(app, ["replay", "1", "--db", db, "--json"])
    assert js.exit_code == 0
    obj = json.loads(js.stdout)
    assert obj["id"] == 1 and obj["over"] is True and obj["steps"]
    missing = runner.invoke(app, ["replay", "7", "--db", db, "--json"])
    assert missing.exit_code == 2 and "no stored game 7" in missing.stdout


def test_replay_still_takes_a_record_file(db: str, tmp_path: Path) -> None:
    play_durak(db, 3)
    record = runner.invoke(app, ["replay", "1", "--db", db, "--json"])
    assert record.exit_code == 0
    saved = sorted((tmp_path / "home" / "autosave").glob("durak-*.json"))
    out = runner.invoke(app, ["replay", str(saved[0]), "--json"])
    assert out.exit_code == 0 and json.loads(out.stdout)["over"] is True


def test_play_refuses_a_bot_it_does_not_know(db: str) -> None:
    out = runner.invoke(app, ["play", "durak", "--line", "--bots", "oracle", "--db", db])
    assert out.exit_code == 2 and "unknown bot" in out.output


def test_an_illegal_typed_action_is_explained_in_the_chosen_language(db: str) -> None:
    out = runner.invoke(app, ["play", "trinka", "--line", "--seed", "2", "--lang", "ru",
                              "--bots", "random", "--no-store"], input="play 2C\nq\n")
    assert out.exit_code == 0, out.output
    assert "Нельзя:" in out.output


def test_line_mode_refuses_in_russian_with_lang_ru(db: str) -> None:
    """An illegal typed move is explained in Russian, the moves are listed in words."""
    out = runner.invoke(app, ["play", "durak", "--line", "--seed", "3", "--lang", "ru",
                              "--name", "Аня", "--bots", "random", "--db", db,
                              "--no-store"],
                        input="play XX\nfly\nq\n")
    assert out.exit_code == 0, out.output
    assert "Нельзя: это не карта: «xx»" in out.output
    assert "Нельзя: непонятный ход «fly»" in out.output
    assert re.search(r"\d\.  (побить|ход|взять|подкинуть|пас)", out.output)   # moves in words
    for english in ("deal number", "to move", "match over", "trump drawn by"):
        assert english not in out.output                  # field names in Russian too
