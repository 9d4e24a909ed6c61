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
                        input="attack XX\nfly\nq\n")
    assert out.exit_code == 0, out.output
    assert "Нельзя: это не карта: «xx»" in out.output
    assert re.search(r"Нельзя: .*«fly»", out.output)
    assert re.search(r"\d\. +(побить|ход|взять|подкинуть|пас)", out.output)   # moves in words
    for english in ("deal number", "to move", "match over", "trump drawn by"):
        assert english not in out.output                  # field names in Russian too


# ------------------------------------------------------------------------ line mode
def _line(game: str, answers: str, *extra: str) -> str:
    out = runner.invoke(app, ["play", game, "--line", "--seed", "3", "--lang", "en",
                              "--name", "Аня", "--bots", "random", "--no-store", *extra],
                        input=answers)
    assert out.exit_code == 0, out.output
    return out.output


def test_line_mode_names_seats_and_numbers_moves_in_a_few_lines(db: str) -> None:
    text = _line("durak", "q\n")
    table = text.split("— Your move, Аня —")[1].split("Choose a number")[0]
    assert "seat 0" not in text
    assert re.search(r"^\s+1\. ", table, re.M)                  # numbered moves
    lines = [line for line in table.splitlines() if line.strip()
             and not re.match(r"\s+\d+\. ", line)]
    assert len(lines) <= 6                                       # the table in a few lines
    for raw in ("match over", "trump drawn by", "None", "{", "["):
        assert raw not in text


def test_line_mode_an_error_reprints_only_the_prompt(db: str) -> None:
    text = _line("durak", "fly\nfly\nq\n")
    assert text.count("— Your move, Аня —") == 1
    after = text.split("Not allowed:", 1)[1]
    assert "Your hand" not in after and "1. " not in after     # no table, no list again
    assert after.count("> ") >= 2


def test_line_mode_a_question_mark_reprints_the_table(db: str) -> None:
    assert _line("durak", "?\nq\n").count("— Your move, Аня —") == 2


def test_line_mode_ctrl_c_saves_and_prints_the_resume_hint(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    import io

    from rich.console import Console

    import koloda
    from koloda.cli.play import play_loop
    from koloda.tui.session import Session, make_seats
    monkeypatch.setenv("KOLODA_HOME", str(tmp_path / "home"))
    match = koloda.new_game("durak", seed=3)
    session = Session(match, make_seats(2, 0, ["random"], "Аня"), tmp_path / "d.json",
                      use_store=False)
    buf = io.StringIO()

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt
    code = play_loop(session, "en", Console(file=buf, width=80), input_fn=interrupt)
    assert code == 130
    assert f"koloda play --resume {tmp_path / 'd.json'}" in buf.getvalue().replace("\n", "")
    assert json.loads((tmp_path / "d.json").read_text())["game"] == "durak"


def test_line_mode_says_the_persons_own_move(db: str) -> None:
    """A number typed at the prompt is said back as the move it played, as a computer
    seat's move is («Аня: заказ 0»), so the log of the match is whole."""
    out = runner.invoke(app, ["play", "opendaum", "--line", "--seed", "1", "--lang", "ru",
                              "--name", "Аня", "--bots", "random", "--no-store"],
                        input="1\nq\n")
    assert out.exit_code == 0, out.output
    first = out.output.split("> ", 1)[1]
    assert first.startswith("Аня: заказ 0\n"), first[:200]


def test_line_mode_writes_each_fact_as_label_colon_value(db: str) -> None:
    """"the trump card is the dealer's no" read as one phrase: each fact is "label: value",
    as the table writes it."""
    text = _line("opendaum", "q\n", "--players", "3")
    facts = next(line for line in text.splitlines() if line.startswith("phase"))
    assert facts.startswith("phase: ") and "; final deal: no" in facts, facts
    assert all(": " in part for part in facts.split("; ")), facts
