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


def test_bench_figures_measure_opendaum_on_its_8_card_deal_and_say_each_shape() -> None:
    """``koloda bench`` measured Opendaum's "deals" on the one-card deal a match opens
    with, and said nothing of a row's cards or deals: the 8-card deal (OpenSpiel's
    oh_hell shape) is a row of its own now, and every row says its shape."""
    out = runner.invoke(app, ["bench", "--quick", "--no-openspiel", "--no-batched",
                              "--game", "opendaum", "--json"])
    assert out.exit_code == 0, out.output
    figs = json.loads(out.stdout)["figures"]
    shapes = {(f["unit"], tuple(f["cards"]), tuple(f["deals"]), f["players"]) for f in figs}
    assert ("deals", (8,), (1, 1), 4) in shapes           # the 8-card deal
    assert ("deals", (1,), (1, 1), 4) in shapes           # the match's first deal
    assert ("matches", tuple(range(1, 10)), (20, 20), 4) in shapes
    assert all(f["shape"].startswith("4 players, ") for f in figs)
    text = runner.invoke(app, ["bench", "--quick", "--no-openspiel", "--no-batched",
                               "--game", "opendaum", "--matches", "0"])
    assert "opendaum 4 players, 8 cards each, 1 deal (start_deal=7)" in text.output
