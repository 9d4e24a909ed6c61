"""The rating list: OpenSkill (Plackett–Luce) over arena rows, from logs or a round-robin."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from koloda.cli.main import app
from koloda.ratings import rate, seat_scores

runner = CliRunner()


def _row(seed: int, lineup: list[str], winners: list[int]) -> dict[str, Any]:
    return {"seed": seed, "lineup": lineup, "result": {"winners": winners}}


def _scored(seed: int, lineup: list[str], scores: list[float],
              name: str = "stukolka") -> dict[str, Any]:
    best = (min if name in ("durak", "mushka") else max)(scores)
    return {"name": name, "seed": seed, "lineup": lineup,
            "result": {"scores": scores,
                       "winners": [s for s, m in enumerate(scores) if m == best]}}


def test_each_seat_scores_its_score_in_the_game_with_lower_better_negated() -> None:
    assert seat_scores(_scored(1, ["a", "b", "a"], [2.0, 0.0, -3.0])) == [
        ("a", 2.0), ("b", 0.0), ("a", -3.0)]
    durak = _scored(1, ["a", "b", "a"], [0.0, 1.0, 0.0], name="durak")
    assert seat_scores(durak) == [("a", -0.0), ("b", -1.0), ("a", -0.0)]
    mushka = _scored(1, ["a", "b"], [3.0, 20.0], name="mushka")
    assert seat_scores(mushka) == [("a", -3.0), ("b", -20.0)]
    # a log row without scores: its winners above the rest
    assert seat_scores(_row(1, ["a", "b", "a", "b"], [2])) == [
        ("a", 0.0), ("b", 0.0), ("a", 1.0), ("b", 0.0)]


def test_a_bot_holding_more_seats_is_not_rated_above_an_equal_one() -> None:
    # three seats, a at two of them, b at one; every seat wins equally often (a third of
    # its games), so a and b are equally strong. Rated as teams ("did any of my seats
    # win") a came out 4.5 above b; seat by seat they are level.
    rows = [_scored(k, lineup, [1.0 if s == w else 0.0 for s in range(3)], "opendaum-33")
            for k, (lineup, w) in enumerate(
                (lineup, w) for _ in range(20)
                for lineup in (["a", "b", "a"], ["b", "a", "a"], ["a", "a", "b"])
                for w in range(3))]
    a, b = sorted(rate(rows), key=lambda r: r.bot)
    assert abs(a.mu - b.mu) < 0.5 and a.games == b.games == 180


def test_what_a_deal_was_worth_to_each_seat_orders_the_bots() -> None:
    # a and b each take the deal half the time, but a loses three when it does not and
    # b nothing (it drops its hand): b is the stronger by money a deal
    rows = [_scored(k, ["a", "b", "c"], [3.0, 0.0, -1.0] if k % 2 else [-3.0, 3.0, -1.0])
            for k in range(40)]
    assert [x.bot for x in rate(rows)] == ["b", "a", "c"]
    durak = [_scored(k, ["a", "b", "c"], [0.0, 0.0, 1.0] if k % 4 else [0.0, 1.0, 0.0],
                       name="durak") for k in range(40)]
    assert [x.bot for x in rate(durak)][-1] == "c"     # Durak: the loser is rated last


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


def test_the_list_weighs_every_game_alike_not_the_last_ones_most() -> None:
    # h takes the first 28 games (by seed) and r the last 12: h is the stronger, but
    # OpenSkill's one pass in seed order ends with r far above it
    rows = []
    for k in range(40):
        lineup = ["h", "r"] if k % 2 else ["r", "h"]
        winner = lineup.index("h" if k < 28 else "r")
        rows.append(_scored(k, lineup, [1.0 if s == winner else 0.0 for s in range(2)],
                            "opendaum"))
    assert [x.bot for x in rate(rows, orders=1)] == ["r", "h"]
    assert [x.bot for x in rate(rows)] == ["h", "r"]
