"""The rating list: OpenSkill (Plackett–Luce) over arena rows, from logs or a round-robin."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from koloda.cli.main import app
from koloda.ratings import rate, team_scores

runner = CliRunner()


def _row(seed: int, lineup: list[str], winners: list[int]) -> dict[str, Any]:
    return {"seed": seed, "lineup": lineup, "result": {"winners": winners}}


def test_a_team_scores_the_share_of_its_seats_among_the_winners() -> None:
    assert team_scores(_row(1, ["a", "b", "a", "b"], [2])) == {"a": 0.5, "b": 0.0}
    assert team_scores(_row(1, ["a", "b"], [])) == {"a": 0.0, "b": 0.0}


def test_ratings_put_the_bot_that_wins_more_above_and_ignore_the_order_of_rows() -> None:
    rng = random.Random(4)
    rows = []
    for seed in range(40):           # strong wins 3 games in 4 against random
        lineup = ["strong", "random"] if seed % 2 else ["random", "strong"]
        wins = rng.random() < 0.75
        rows.append(_row(seed, lineup, [lineup.index("strong" if wins else "random")]))
    ranking = rate(rows)
    assert [x.bot for x in ranking] == ["strong", "random"]
    assert ranking[0].low < ranking[0].mu < ranking[0].high and ranking[0].games == 40
    shuffled = rows[:]
    random.Random(1).shuffle(shuffled)
    assert rate(shuffled) == ranking


def test_ratings_of_a_real_log_order_the_heuristic_above_random(tmp_path: Path) -> None:
    log = tmp_path / "d.jsonl"
    out = runner.invoke(app, ["arena", "durak", "--players", "2", "--bots", "heuristic,random",
                              "--deals", "6", "--log", str(log), "--json"])
    assert out.exit_code == 0, out.output
    got = runner.invoke(app, ["ratings", "durak", "--log", str(log), "--json"])
    assert got.exit_code == 0, got.output
    listed = json.loads(got.stdout)
    assert [x["bot"] for x in listed["ratings"]] == ["heuristic", "random"]
    assert listed["games"] == 12 and listed["players"] == 2


def test_a_round_robin_rates_every_named_bot_on_one_scale(tmp_path: Path) -> None:
    got = runner.invoke(app, ["ratings", "durak", "--players", "2", "--bots",
                              "random,heuristic,search:easy", "--deals", "1", "--json",
                              "--log-dir", str(tmp_path)])
    assert got.exit_code == 0, got.output
    listed = json.loads(got.stdout)
    assert {x["bot"] for x in listed["ratings"]} == {"random", "heuristic", "search:easy"}
    assert listed["games"] == 6 and all(x["games"] == 4 for x in listed["ratings"])
    # each pair's log rates again to the same list
    logs = sorted(str(p) for p in tmp_path.glob("*.jsonl"))
    assert len(logs) == 3
    again = runner.invoke(app, ["ratings", "durak", *[x for p in logs for x in ("--log", p)],
                                "--json"])
    assert json.loads(again.stdout)["ratings"] == listed["ratings"]


def test_ratings_say_what_they_need_and_refuse_another_games_logs(tmp_path: Path) -> None:
    out = runner.invoke(app, ["ratings", "durak"])
    assert out.exit_code == 2 and "--log" in out.output and "--deals" in out.output
    log = tmp_path / "p.jsonl"
    runner.invoke(app, ["arena", "pyanitsy", "--bots", "random", "--deals", "1", "--unit",
                        "match", "--log", str(log), "--json"])
    out = runner.invoke(app, ["ratings", "durak", "--log", str(log)])
    assert out.exit_code == 2 and "pyanitsy, not durak" in out.output
