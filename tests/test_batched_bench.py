"""``koloda bench --batched-only``: the batched simulator's figures beside OpenSpiel's."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from koloda.cli.main import app

pytest.importorskip("numpy")
runner = CliRunner()


def test_bench_batched_only_prints_hands_per_second() -> None:
    out = runner.invoke(app, ["bench", "--batched-only", "--quick", "--no-openspiel",
                              "--batched-hands", "2000", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["figures"] == [] and data["side_by_side"] is None
    batched = data["batched"]
    assert batched["batched_hands_per_s"] > 0 and batched["batched_observed_hands_per_s"] > 0
    assert "hands/s" in batched["lines"][2]
    from koloda.bench import batched_games
    per_game = batched["batched_games_hands_per_s"]
    assert sorted(per_game) == sorted(label for label, _ in batched_games())
    assert all(rate > 0 for rate in per_game.values())


def test_bench_batched_beside_openspiel_cpp() -> None:
    pytest.importorskip("pyspiel")
    out = runner.invoke(app, ["bench", "--batched-only", "--quick", "--batched-hands", "2000",
                              "--hands", "20"])
    assert out.exit_code == 0, out.output
    assert "evaluate_bots" in out.output and "ratio batched / OpenSpiel-C++" in out.output
