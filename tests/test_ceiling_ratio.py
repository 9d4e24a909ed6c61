"""benchmarks/ceiling_ratio.py: the clairvoyant's margin over the search over its margin
over the heuristic, paired by deal-set, from arena logs."""

from __future__ import annotations

import importlib.util
import json
import pathlib
import sys
from types import ModuleType

import pytest

from koloda.arena import lineups

SCRIPT = pathlib.Path(__file__).resolve().parent.parent / "benchmarks" / "ceiling_ratio.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ceiling_ratio", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module          # (its dataclass looks its module up)
    spec.loader.exec_module(module)
    return module


def _row(seed: int, lineup: list[str], measure: list[float]) -> dict[str, object]:
    """An arena log line with the fields the logs are combined by."""
    return {"name": "durak", "seed": seed, "lineup": lineup, "unit": "deal", "options": {},
            "result": {"winners": []}, "measure": measure}


def write_log(path: pathlib.Path, other: str, losses: dict[int, list[tuple[float, float]]]
              ) -> str:
    """seed → per rotation (clairvoyant's loss, other's loss); rotation 0 seats the
    clairvoyant first."""
    rows = []
    for seed, rotations in losses.items():
        for r, (c, o) in enumerate(rotations):
            lineup = ["clairvoyant", other] if r == 0 else [other, "clairvoyant"]
            measure = [c, o] if r == 0 else [o, c]
            rows.append(json.dumps(_row(seed, lineup, measure)))
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def test_ratio_pairs_deal_sets_and_drops_the_unfinished(tmp_path: pathlib.Path) -> None:
    cr = load()
    search = write_log(tmp_path / "cs.jsonl", "search:normal", {
        1: [(0, 1), (0, 0)],            # margin −0.5
        2: [(1, 1), (0, 0)],            # 0
        3: [(0, 1)],                    # one rotation only: left out
    })
    heuristic = write_log(tmp_path / "ch.jsonl", "heuristic", {
        1: [(0, 1), (0, 1)],            # −1
        2: [(0, 1), (0, 1)],            # −1
        3: [(0, 1), (0, 1)],
    })
    s, h = cr.margins([search]), cr.margins([heuristic])
    assert s == {1: -0.5, 2: 0.0}
    r = cr.ceiling_ratio(s, h, resamples=200)
    assert r.deal_sets == 2
    assert r.ratio == pytest.approx(0.25)
    assert r.over_search == pytest.approx(-0.25) and r.over_heuristic == pytest.approx(-1.0)
    assert 0.0 <= r.low <= r.ratio <= r.high <= 0.5


def test_a_line_that_is_not_an_arena_log_is_named(tmp_path: pathlib.Path) -> None:
    cr = load()
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(_row(1, ["clairvoyant", "heuristic"], [0, 1])) + "\n"
                   "not json\n")
    with pytest.raises(ValueError, match=r"bad.jsonl:2: not an arena log line"):
        cr.margins([str(bad)])
    with pytest.raises(ValueError, match="no deal-set in common"):
        cr.ceiling_ratio({1: -1.0}, {2: -1.0})


def test_four_seats_two_bots_count_both_seats_and_two_rotations(tmp_path: pathlib.Path
                                                                 ) -> None:
    """Opendaum 4p: the clairvoyant holds two seats; the arena plays two seatings."""
    cr = load()
    log = tmp_path / "o.jsonl"
    rows = [
        _row(7, ["clairvoyant", "heuristic"] * 2, [1, 0, 1, 1]),
        _row(7, ["heuristic", "clairvoyant"] * 2, [0, 1, 0, 0]),
        _row(8, ["clairvoyant", "heuristic"] * 2, [1, 1, 1, 1]),
    ]
    log.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert len(lineups(["clairvoyant", "heuristic"], 4)) == 2
    # seed 7: (1 − 0.5 + 0.5 − 0) / 2; seed 8 has one seating only
    assert cr.margins([str(log)]) == {7: pytest.approx(0.5)}
