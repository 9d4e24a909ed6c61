"""The arena's statistics and duplicate-deal scheduling; the bench command works."""

import json
import math
from pathlib import Path

from typer.testing import CliRunner

from koloda.arena import lineups, mean_interval, percentile, schedule_games, wilson
from koloda.cli.main import app

runner = CliRunner()


def test_wilson_interval_matches_the_textbook_value() -> None:
    lo, hi = wilson(60, 100)
    assert math.isclose(lo, 0.5020, abs_tol=1e-4) and math.isclose(hi, 0.6906, abs_tol=1e-4)
    assert math.isclose(wilson(0, 10)[0], 0.0, abs_tol=1e-12)
    assert math.isclose(wilson(10, 10)[1], 1.0)


def test_mean_interval_and_percentile() -> None:
    m, lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5 and lo < 2.5 < hi
    assert percentile([float(i) for i in range(1, 101)], 0.95) == 95.0


def test_lineups_rotate_every_bot_through_every_seat() -> None:
    assert lineups(["A", "B"], 2) == [("A", "B"), ("B", "A")]
    assert lineups(["A", "B"], 4) == [("A", "B", "A", "B"), ("B", "A", "B", "A")]
    assert len(lineups(["A", "B", "C"], 3)) == 3


def test_duplicate_deals_share_a_seed_across_rotations() -> None:
    games = schedule_games("pyanitsy", 2, ["random"], 3, 10, "match", {})
    assert [g.seed for g in games] == [10, 11, 12]
    games = schedule_games("trinka", 4, ["a", "b"], 2, 5, "deal", {})
    assert [(g.seed, g.lineup[0]) for g in games] == [(5, "a"), (5, "b"), (6, "a"), (6, "b")]


def test_arena_command_prints_rates_and_writes_a_replayable_log(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    out = runner.invoke(app, ["arena", "pyanitsy", "--bots", "random", "--deals", "4",
                              "--unit", "match", "--log", str(log), "--json"])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    bot = summary["bots"][0]
    assert bot["seat_games"] == 8 and 0 <= bot["win_rate_95"][0] <= bot["win_rate_95"][1] <= 1
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(rows) == 4 and {r["seed"] for r in rows} == {1, 2, 3, 4}


def test_arena_refuses_unknown_bots() -> None:
    out = runner.invoke(app, ["arena", "pyanitsy", "--bots", "genius"])
    assert out.exit_code == 2 and "unknown bot 'genius'" in out.output


def test_bench_quick_mode_prints_figures() -> None:
    out = runner.invoke(app, ["bench", "--quick", "--no-openspiel", "--game", "pyanitsy",
                              "--json"])
    assert out.exit_code == 0, out.output
    figs = json.loads(out.stdout)["figures"]
    assert {f["unit"] for f in figs} == {"deals", "matches"}
    assert all(f["actions"] > 0 and f["per_second"] > 0 for f in figs)


def _arena_log(tmp_path: Path, name: str, seed: int, deals: int) -> Path:
    log = tmp_path / name
    out = runner.invoke(app, ["arena", "durak", "--players", "2", "--bots", "heuristic,random",
                              "--deals", str(deals), "--seed", str(seed), "--log", str(log),
                              "--json"])
    assert out.exit_code == 0, out.output
    return log


def test_arena_report_combines_logs_over_seed_ranges(tmp_path: Path) -> None:
    a = _arena_log(tmp_path, "a.jsonl", 1, 3)
    b = _arena_log(tmp_path, "b.jsonl", 10, 2)
    whole = runner.invoke(app, ["arena-report", str(a), str(b), "--json"])
    assert whole.exit_code == 0, whole.output
    s = json.loads(whole.stdout)
    assert s["deal_sets"] == 5 and s["games"] == 10 and s["seeds"] == "1..3, 10..11"
    assert [x["seat_games"] for x in s["bots"]] == [10, 10]
    # the same as the two runs' rows tallied directly
    rows = [json.loads(x) for p in (a, b) for x in p.read_text().splitlines()]
    wins = sum(1 for r in rows if r["lineup"].index("heuristic") in r["result"]["winners"])
    assert s["bots"][0]["bot"] == "heuristic" and s["bots"][0]["wins"] == wins


def test_arena_report_leaves_out_a_deal_set_missing_a_rotation(tmp_path: Path) -> None:
    a = _arena_log(tmp_path, "a.jsonl", 1, 3)
    lines = a.read_text().splitlines()
    a.write_text("\n".join(lines[:-1]) + "\n")          # the run stopped mid deal-set
    s = json.loads(runner.invoke(app, ["arena-report", str(a), "--json"]).stdout)
    assert s["deal_sets"] == 2 and s["games"] == 4 and s["dropped_games"] == 1


def test_arena_report_refuses_a_game_twice_and_mixed_logs(tmp_path: Path) -> None:
    a = _arena_log(tmp_path, "a.jsonl", 1, 1)
    out = runner.invoke(app, ["arena-report", str(a), str(a)])
    assert out.exit_code == 2 and "appears twice" in out.output
    other = tmp_path / "o.jsonl"
    r = runner.invoke(app, ["arena", "pyanitsy", "--bots", "random", "--deals", "1",
                            "--unit", "match", "--log", str(other), "--json"])
    assert r.exit_code == 0
    out = runner.invoke(app, ["arena-report", str(a), str(other)])
    assert out.exit_code == 2 and "does not match" in out.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    out = runner.invoke(app, ["arena-report", str(bad)])
    assert out.exit_code == 2 and "bad.jsonl:1" in out.output


def test_paired_difference_is_per_deal_set() -> None:
    from koloda.arena import paired_difference

    def row(seed: int, lineup: list[str], measure: list[float]) -> dict[str, object]:
        return {"seed": seed, "lineup": lineup, "measure": measure}
    rows = [row(1, ["a", "b"], [1.0, 0.0]), row(1, ["b", "a"], [0.0, 3.0]),
            row(2, ["a", "b"], [0.0, 1.0]), row(2, ["b", "a"], [1.0, 0.0])]
    mean, lo, hi, k = paired_difference(rows, "a", "b")   # seed 1: 2 − 0, seed 2: 0 − 1
    assert k == 2 and mean == 0.5 and lo < 0.5 < hi


def test_an_arena_game_replays_alike_in_another_process() -> None:
    """The bots' generator comes from the seed and the seating, not from the per-process
    salted str hash: a game with random bots plays the same in two processes."""
    import os
    import subprocess
    import sys
    code = ("import json; from koloda.arena import Game, play; "
            "r = play(Game('durak', 2, 7, ('random', 'heuristic'), 'deal', (), 0)); "
            "print(json.dumps(r['result']))")
    outs = []
    for salt in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=salt)
        outs.append(subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                   capture_output=True, text=True).stdout)
    assert outs[0] == outs[1] and outs[0].startswith("{")


def test_arena_report_takes_logs_with_the_bots_named_in_either_order(tmp_path: Path) -> None:
    """Three seats, two bots: `--bots a,b` and `--bots b,a` seat them differently; a
    deal-set complete in either seating counts."""
    logs = []
    for name, bots, seed in (("ab.jsonl", "heuristic,random", 1),
                             ("ba.jsonl", "random,heuristic", 5)):
        log = tmp_path / name
        out = runner.invoke(app, ["arena", "dreyfus", "--bots", bots, "--deals", "2",
                                  "--seed", str(seed), "--log", str(log), "--json"])
        assert out.exit_code == 0, out.output
        logs.append(str(log))
    s = json.loads(runner.invoke(app, ["arena-report", *logs, "--json"]).stdout)
    assert s["deal_sets"] == 4 and s["games"] == 12 and s.get("dropped_games", 0) == 0


# ------------------------------------------------------------ rates, columns, width, a stop

def _rows(measures: list[list[float]], lineups: list[list[str]], winners: list[list[int]]
          ) -> list[dict[str, object]]:
    return [{"seed": 1 + k // 2, "lineup": lu, "measure": m, "deals": 1,
             "result": {"winners": w, "scores": m}}
            for k, (m, lu, w) in enumerate(zip(measures, lineups, winners, strict=True))]


def test_rate_intervals_stay_inside_zero_and_one() -> None:
    """A loss rate of 17/18 and one of 3/16 (the normal interval gave 0.944 [0.836, 1.053]
    and 0.188 [−0.010, 0.385]): Wilson's interval, inside [0, 1]; a paired difference of a
    rate inside [−1, 1]."""
    from koloda.arena import paired_difference, tally
    for lost, n in ((17, 18), (3, 16), (0, 5), (5, 5)):
        seats = [1.0] * lost + [0.0] * (n - lost)
        rows = _rows([[x] for x in seats], [["a"]] * n, [[] if x else [0] for x in seats])
        bot = tally(rows, ["a"], family="durak")["a"].to_json()
        lo, hi = bot["measure_95"]
        assert 0.0 <= lo <= bot["measure_mean"] <= hi <= 1.0
        assert (lo, hi) == wilson(lost, n)
        assert mean_interval(seats)[2] > 1.0 or mean_interval(seats)[1] < 0.0 or lost in (0, n)
    # four deal-sets, a − b = 1, 1, 1, 0: the normal interval's top is 1.24
    rows = _rows([[1.0, 0.0], [0.0, 1.0]] * 3 + [[0.0, 0.0], [0.0, 0.0]],
                 [["a", "b"], ["b", "a"]] * 4, [[0], [1]] * 4)
    mean, lo, hi, k = paired_difference(rows, "a", "b", rate=True)
    assert k == 4 and mean == 0.75 and -1.0 <= lo < mean < hi == 1.0
    assert paired_difference(rows, "a", "b")[2] > 1.0     # points are not bounded


def test_durak_table_shows_draws_and_no_points_column_repeating_the_loss_rate() -> None:
    """Durak's measure is the loss; its score per deal is the same number, so no points
    column; a draw (no durak) gets its own column; a win is the rest."""
    from koloda.arena import table_columns, tally
    rows = _rows([[1.0, 0.0], [0.0, 0.0], [0.0, 1.0], [0.0, 1.0]],
                 [["a", "b"], ["b", "a"]] * 2, [[1], [], [0], [0]])
    cols = [c.key for c in table_columns("durak", rows)]
    assert cols == ["draw_rate", "measure"]
    a = tally(rows, ["a", "b"], family="durak")["a"].to_json()
    assert (a["draws"], a["measure_mean"], a["win_rate"]) == (1, 0.5, 0.25)
    assert a["win_rate"] == 1 - a["draw_rate"] - a["measure_mean"]
    out = runner.invoke(app, ["arena", "durak", "--players", "2", "--bots", "heuristic,random",
                              "--deals", "2", "--lang", "en"])
    assert out.exit_code == 0, out.output
    head = next(line for line in out.stdout.splitlines() if line.startswith("bot "))
    assert head.split() == ["bot", "draw", "rate", "loss", "rate"]


def test_every_games_table_columns_mean_something_distinct() -> None:
    """Each game's table: no column whose every value another column repeats, and never the
    raw score beside points per deal (single deals: the same number)."""
    from koloda.arena import Column, play, schedule_games, table_columns
    from koloda.engine.registry import registry

    def values(col: Column, row: dict[str, object], seat: int) -> float:
        res = row["result"]
        assert isinstance(res, dict)
        if col.key == "win_rate":
            return float(seat in res["winners"])
        if col.key == "draw_rate":
            return float(not res["winners"])
        if col.key == "per_deal":
            return float(res["scores"][seat])
        return float(row["measure"][seat])  # type: ignore[index]
    for name in sorted({spec.name for spec in registry().values()}):
        rows = [play(g) for g in schedule_games(name, get_players(name), ["random"], 3, 1,
                                                "deal", {})]
        cols = table_columns(get_family(name), rows)
        assert len({c.key for c in cols}) == len(cols), name
        seen = {c.key: [values(c, r, s) for r in rows for s in range(len(r["lineup"]))]
                for c in cols}
        keys = list(seen)
        for i, x in enumerate(keys):
            for y in keys[i + 1:]:
                assert seen[x] != seen[y] or {x, y} == {"win_rate", "draw_rate"}, (name, x, y)


def get_players(name: str) -> int:
    from koloda.engine.registry import get_spec
    return get_spec(name).player_count(None)


def get_family(name: str) -> str:
    from koloda.engine.registry import get_spec
    return get_spec(name).family


def test_piped_table_fits_80_columns_and_does_not_wrap_an_interval() -> None:
    import re
    out = runner.invoke(app, ["arena", "opendaum", "--players", "4", "--bots",
                              "heuristic,random", "--deals", "2", "--lang", "en"])
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert max(map(len, lines)) <= 80, lines
    interval = r"-?\d+\.\d+ \[-?\d+\.\d+, -?\d+\.\d+\]"
    for bot in ("heuristic", "random"):
        row = next(line for line in lines if line.startswith(bot + " "))
        assert len(re.findall(interval, row)) == 3, row
    assert not any(re.search(r"\[-?\d+\.\d+,$", line.rstrip()) for line in lines)


def test_piped_table_wider_than_the_console_is_not_wrapped() -> None:
    """Piped at a width too narrow for the table, the rows stay whole, one line each."""
    import re

    from koloda.cli.main import console
    before = console.width
    console.width = 50
    try:
        out = runner.invoke(app, ["arena", "opendaum", "--players", "4", "--bots",
                                  "heuristic,random", "--deals", "1", "--lang", "en"])
    finally:
        console.width = before
    assert out.exit_code == 0, out.output
    rows = [line for line in out.stdout.splitlines() if line.startswith(("heuristic ", "random "))]
    assert len(rows) == 4    # the figures table and the move times table, one line a bot
    assert all(len(re.findall(r"\d \[", row)) == 3 for row in rows[:2]), rows


def test_a_stopped_run_prints_the_table_so_far_and_exits_130(tmp_path: Path,
                                                              monkeypatch: object) -> None:
    """Ctrl-C after three games of four deal-sets × two rotations: the one complete deal-set
    is tallied, the stop is said with the way to the log, the exit status is 130."""
    import pytest

    from koloda import arena
    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    real = arena.run

    def stopped(games: list[arena.Game], jobs: int):  # type: ignore[no-untyped-def]
        for k, res in enumerate(real(games, jobs)):
            if k == 3:
                raise KeyboardInterrupt
            yield res
    monkeypatch.setattr(arena, "run", stopped)
    log = tmp_path / "log.jsonl"
    out = runner.invoke(app, ["arena", "durak", "--players", "2", "--bots", "heuristic,random",
                              "--deals", "4", "--log", str(log), "--lang", "en"])
    assert out.exit_code == 130, out.output
    assert "Stopped after 3 of 8 games; games of the unfinished deal-set left out: 1" in out.stdout
    assert "1 deal-sets × rotations = 2 games (seeds 1..1)" in out.stdout
    assert f"The log {log} holds every finished game: koloda arena-report {log}" in out.stderr
    assert sum(1 for line in out.stdout.splitlines() if line.startswith("heuristic ")) == 2
    assert len(log.read_text().splitlines()) == 3
    report = runner.invoke(app, ["arena-report", str(log), "--json"])
    assert json.loads(report.stdout)["dropped_games"] == 1


def test_arena_help_says_what_ctrl_c_does_and_names_arena_report() -> None:
    out = runner.invoke(app, ["arena", "--help"], terminal_width=100)
    assert out.exit_code == 0
    text = " ".join(out.stdout.split())
    assert "Ctrl-C" in text and "koloda arena-report LOG" in text and "130" in text
