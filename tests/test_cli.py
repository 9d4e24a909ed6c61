"""The koloda command line, driven in-process."""

import json
from pathlib import Path

from typer.testing import CliRunner

from koloda.cli.main import app
from tests.conftest import RECORDS

runner = CliRunner()


def test_games_lists_every_game_with_options() -> None:
    out = runner.invoke(app, ["games", "--json"])
    assert out.exit_code == 0
    data = json.loads(out.stdout)
    py = next(g for g in data if g["name"] == "pyanitsy")
    assert py["players"] == [2, 3, 4, 5, 6]
    assert {o["name"] for o in py["options"]} == {"deck", "end", "round_cap", "max_deals"}


def test_simulate_writes_records_that_replay(tmp_path: Path) -> None:
    out = runner.invoke(app, ["simulate", "pyanitsy", "--games", "20", "--seed", "1",
                              "--record", str(tmp_path), "--json"])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    assert summary["games"] == 20 and sum(summary["wins_by_seat"]) + summary["draws"] >= 20
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 20
    rep = runner.invoke(app, ["replay", str(files[0]), "--json"])
    assert rep.exit_code == 0
    obj = json.loads(rep.stdout)
    assert obj["over"] is True and obj["steps"][0]["legal"] == ["flip"]


def test_simulate_refuses_a_wrong_bot_count() -> None:
    out = runner.invoke(app, ["simulate", "pyanitsy", "--bots", "random,random,random"])
    assert out.exit_code == 2 and "3 bots for 2 seats" in out.output


def test_replay_illegal_action_exits_2_with_index_and_reason(tmp_path: Path) -> None:
    data = json.loads((RECORDS / "pyanitsy-sweep.json").read_text())
    data["actions"][5]["action"] = "take"
    p = tmp_path / "r.json"
    p.write_text(json.dumps(data))
    out = runner.invoke(app, ["replay", str(p), "--json"])
    assert out.exit_code == 2
    err = json.loads(out.stdout)["error"]
    assert err["index"] == 5 and err["action"] == "take" and "flip" in err["reason"]


def test_replay_malformed_file_exits_2_without_traceback(tmp_path: Path) -> None:
    p = tmp_path / "r.json"
    p.write_text("not json")
    out = runner.invoke(app, ["replay", str(p), "--json"])
    assert out.exit_code == 2
    obj = json.loads(out.stdout)
    assert "steps" not in obj and "not JSON" in obj["error"]["reason"]
    assert out.exception is None or isinstance(out.exception, SystemExit)


def test_play_pyanitsy_by_pressing_enter_then_resume(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("KOLODA_HOME", str(tmp_path))
    out = runner.invoke(app, ["play", "pyanitsy", "--seed", "3", "--lang", "en", "--line"],
                        input="\n\n\nq\n")
    assert out.exit_code == 0, out.output
    saved = list((tmp_path / "autosave").glob("pyanitsy-*.json"))
    assert len(saved) == 1
    record = json.loads(saved[0].read_text())
    assert len(record["actions"]) >= 3 and record["result"] is None
    out = runner.invoke(app, ["play", "--resume", str(saved[0]), "--lang", "en", "--line"],
                        input="\n" * 5000)
    assert out.exit_code == 0, out.output
    assert json.loads(saved[0].read_text())["result"]["over"] is True


def test_play_refuses_an_unknown_option() -> None:
    out = runner.invoke(app, ["play", "pyanitsy", "-o", "jokers=2", "--line"])
    assert out.exit_code == 2 and "no option 'jokers'" in out.output


def test_rules_unknown_game_is_a_clear_error() -> None:
    out = runner.invoke(app, ["rules", "poker"])
    assert out.exit_code == 2 and "unknown game" in out.output


def test_python_dash_m_koloda_runs_the_same_command_line() -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "koloda", "games"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "durak" in out.stdout and "opendaum" in out.stdout
