"""benchmarks/durak_paired.py: a variant paired against the heuristic by default, or
against another opponent (a bot name or a search variant's settings), seated as the
arena seats ``search:normal,OPPONENT``."""

from __future__ import annotations

import importlib.util
import pathlib
from types import ModuleType

from koloda.bots.search.games.durak import OPPONENT_WIDEN, DurakSearch

SCRIPT = pathlib.Path(__file__).resolve().parent.parent / "benchmarks" / "durak_paired.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("durak_paired", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_opponent_is_a_bot_name_or_a_search_variant_s_settings() -> None:
    paired = load()
    name, bot = paired.opponent("heuristic")
    assert name == "heuristic" and not isinstance(bot, DurakSearch)
    name, bot = paired.opponent('{"level": "easy", "widen": 4}')
    assert name == "search:easy" and isinstance(bot, DurakSearch) and bot.widen == 4
    name, bot = paired.opponent("search:normal")
    assert name == "search:normal" and isinstance(bot, DurakSearch)
    assert bot.widen == OPPONENT_WIDEN


def test_a_variant_plays_a_search_opponent_in_the_row_format() -> None:
    paired = load()
    row = paired.play((("v", {"level": "easy"}), 3, 1, '{"level": "easy"}'))
    name, seed, seat, loss, win, times = row
    assert (name, seed, seat) == ("v", 3, 1)
    assert loss in (0.0, 1.0) and win in (0.0, 1.0) and loss + win <= 1.0
    assert times and all(t >= 0 for t in times)
