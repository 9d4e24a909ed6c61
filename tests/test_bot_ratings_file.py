"""The computers' fixed ratings are measured, not estimated:
``koloda/web/bot_ratings.json`` rates every level of every game that offers more than one,
each with the games it was measured on, random anchored at the people's 25; and
``benchmarks/bot_ratings.py`` rates by the arena's rating list (``koloda.ratings.rate``),
moved as a whole — no fit of its own."""

from __future__ import annotations

import importlib.util
import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openskill")

from koloda.engine.registry import registry
from koloda.ratings import rate
from koloda.web.bots import bots_for

ROOT = Path(__file__).resolve().parents[1]


def _file() -> dict[str, Any]:
    text = resources.files("koloda").joinpath("web", "bot_ratings.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _script() -> Any:
    spec = importlib.util.spec_from_file_location("bot_ratings", ROOT / "benchmarks" /
                                                  "bot_ratings.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_level_of_every_game_is_measured_none_estimated() -> None:
    data = _file()
    for game in registry():
        levels = bots_for(game)
        if len(levels) < 2:
            assert game not in data["games"]        # nothing to measure it against
            continue
        rated = data["games"][game]
        assert list(rated) == list(levels), game
        for level, r in rated.items():
            assert "estimated" not in r, (game, level)
            assert r["games"] > 0 and r["sigma"] > 0, (game, level)
        assert rated["random"]["mu"] == 25.0, game
        measured = data["measured"][game]
        assert measured["games"] > 0 and measured["commit"] and measured["command"]
        assert set(measured["deal_sets"]) == {f"{a} vs {b}" for a, b in
                                              zip(levels, levels[1:], strict=False)}


def test_the_script_rates_by_the_arena_rating_list_moved_so_random_is_at_25() -> None:
    rows = [{"seed": s, "lineup": lineup, "result": {"winners": [w]}}
            for s, (lineup, w) in enumerate([
                (["random", "heuristic"], 1), (["heuristic", "random"], 0),
                (["random", "heuristic"], 0), (["heuristic", "search:easy"], 1),
                (["search:easy", "heuristic"], 0)], start=1)]
    listed = {r.bot: r for r in rate(rows)}
    anchored = _script().anchored(rows)
    shift = 25.0 - listed["random"].mu
    assert shift != 0.0                     # the list's own scale drifted from 25
    for bot, r in listed.items():
        assert anchored[bot]["mu"] == pytest.approx(r.mu + shift, abs=1e-3)
        assert anchored[bot]["sigma"] == pytest.approx(r.sigma, abs=1e-3)
        assert anchored[bot]["games"] == r.games
