"""The arena as a measuring instrument: log rows free of the wall clock, bots that read the
game state (and are marked when they cheat), OpenSpiel's ISMCTS as a seat, Ray tasks."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from koloda.arena import Game, play_game
from koloda.bots.base import register_bot
from koloda.cli.main import app
from koloda.engine.deal import DealState

runner = CliRunner()


def _arena(tmp_path: Path, name: str, *args: str) -> tuple[str, list[str]]:
    log = tmp_path / name
    out = runner.invoke(app, ["arena", *args, "--log", str(log)])
    assert out.exit_code == 0, out.output
    return out.output, log.read_text().splitlines()


def test_arena_log_lines_hold_no_wall_clock_and_repeat_byte_for_byte(tmp_path: Path) -> None:
    args = ["durak", "--players", "2", "--bots", "heuristic,random", "--deals", "3",
            "--seed", "11"]
    timings = tmp_path / "t.jsonl"
    printed, first = _arena(tmp_path, "a.jsonl", *args, "--timings", str(timings), "--json")
    _, second = _arena(tmp_path, "b.jsonl", *args)
    assert first == second and len(first) == 6
    assert all("times" not in json.loads(line) for line in first)
    # the move times went to the timings file, one line a game, and into the table
    lines = [json.loads(x) for x in timings.read_text().splitlines()]
    assert [(t["seed"], t["lineup"]) for t in lines] == \
        [(json.loads(r)["seed"], json.loads(r)["lineup"]) for r in first]
    assert all(len(t["times"]) == 2 and t["times"][0] for t in lines)
    summary = json.loads(printed)
    assert summary["bots"][0]["moves"] == sum(len(t["times"][t["lineup"].index("heuristic")])
                                              for t in lines)
    assert summary["bots"][0]["move_ms_median"] > 0


def test_arena_report_reads_old_logs_with_times_and_new_ones_with_a_timings_file(
        tmp_path: Path) -> None:
    timings = tmp_path / "t.jsonl"
    _, rows = _arena(tmp_path, "new.jsonl", "durak", "--players", "2", "--bots",
                     "heuristic,random", "--deals", "2", "--timings", str(timings))
    times = [json.loads(x)["times"] for x in timings.read_text().splitlines()]
    old = tmp_path / "old.jsonl"       # the format before: the times inside each row
    old.write_text("".join(json.dumps({**json.loads(r), "times": t}) + "\n"
                           for r, t in zip(rows, times, strict=True)))
    report_old = json.loads(runner.invoke(app, ["arena-report", str(old), "--json"]).stdout)
    report_new = json.loads(runner.invoke(
        app, ["arena-report", str(tmp_path / "new.jsonl"), "--timings", str(timings),
              "--json"]).stdout)
    without = json.loads(runner.invoke(
        app, ["arena-report", str(tmp_path / "new.jsonl"), "--json"]).stdout)
    moves = sum(len(t[json.loads(r)["lineup"].index("heuristic")])
                for r, t in zip(rows, times, strict=True))
    assert report_old["bots"][0]["moves"] == report_new["bots"][0]["moves"] == moves > 0
    assert report_old["bots"][0]["move_ms_median"] == report_new["bots"][0]["move_ms_median"]
    assert without["bots"][0]["moves"] == 0 and without["games"] == 4


class _Peeker:
    """A test bot that reads the live deal state: plays the first legal action after
    checking it was given the state of the seat to move."""

    name = "peeker"
    needs_state = True
    cheating = True
    calls = 0

    def choose(self, observation: object, legal: list[str], rng: random.Random) -> str:
        raise AssertionError("a needs_state bot is asked choose_state")

    def choose_state(self, state: DealState, seat: int, legal: list[str],
                     rng: random.Random) -> str:
        assert isinstance(state, DealState)
        assert state.to_move == seat and state.legal_actions() == legal
        _Peeker.calls += 1
        return legal[-1]


register_bot("peeker", lambda level, game, seconds: _Peeker(),   # type: ignore[arg-type, return-value]
             measuring=True)


def test_a_bot_needing_the_state_is_given_it_and_a_cheat_is_marked(tmp_path: Path) -> None:
    _Peeker.calls = 0
    printed, rows = _arena(tmp_path, "p.jsonl", "durak", "--players", "2", "--bots",
                           "peeker,random", "--deals", "2")
    assert _Peeker.calls > 0
    assert all(json.loads(r)["cheating"] == ["peeker"] for r in rows)
    # marked in the table, the mark said under it (a long name would widen the table)
    assert "peeker* " in printed and "\n* sees all cards" in printed
    _, honest = _arena(tmp_path, "h.jsonl", "durak", "--players", "2", "--bots",
                       "heuristic,random", "--deals", "1")
    assert all(json.loads(r)["cheating"] == [] for r in honest)


def test_openspiel_ismcts_plays_in_the_arena_deterministically_from_the_seed() -> None:
    pytest.importorskip("pyspiel")
    games = [Game("durak", 2, seed, lineup, "deal", (), k)
             for k, seed in enumerate((3,))
             for lineup in (("heuristic", "openspiel-ismcts:5"),
                            ("openspiel-ismcts:5", "heuristic"))]
    first = [play_game(g) for g in games]
    second = [play_game(g) for g in games]
    assert [r.row for r in first] == [r.row for r in second]
    # it really played: its seat made moves, each legal (the engine applied them)
    assert all(r.times[r.row["lineup"].index("openspiel-ismcts:5")] for r in first)


def test_openspiel_ismcts_takes_a_whole_number_of_simulations() -> None:
    for bad in ("openspiel-ismcts", "openspiel-ismcts:0", "openspiel-ismcts:many"):
        out = runner.invoke(app, ["arena", "durak", "--bots", f"{bad},random", "--deals", "1"])
        assert out.exit_code == 2 and "simulations a move" in out.output, out.output


def test_openspiel_ismcts_without_openspiel_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    monkeypatch.setitem(sys.modules, "open_spiel.python.algorithms", None)
    out = runner.invoke(app, ["arena", "durak", "--bots", "openspiel-ismcts:5,random",
                              "--deals", "1"])
    assert out.exit_code == 2 and "pip install 'koloda[openspiel]'" in out.output


def test_ray_arena_gives_the_rows_of_two_local_processes(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray is an optional extra (pip install 'koloda[ray]')")
    args = ["durak", "--players", "2", "--bots", "heuristic,random", "--deals", "3",
            "--seed", "21"]
    printed, on_ray = _arena(tmp_path, "ray.jsonl", *args, "--ray", "local", "-j", "2")
    _, on_pool = _arena(tmp_path, "pool.jsonl", *args, "-j", "2")
    assert sorted(on_ray) == sorted(on_pool) and len(on_ray) == 6
    assert "heuristic − random" in printed
