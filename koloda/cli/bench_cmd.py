"""``koloda bench``: games/s, actions/s and peak memory for every game; OpenSpiel beside."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table

from koloda.cli.main import _fail, app, console


@app.command()
def bench(
    deals: Annotated[int, typer.Option(help="single deals per game")] = 2000,
    matches: Annotated[int, typer.Option(help="whole matches per game")] = 20,
    seed: Annotated[int, typer.Option(help="first seed")] = 1,
    game: Annotated[list[str] | None, typer.Option(help="only these games")] = None,
    quick: Annotated[bool, typer.Option("--quick", help="a few seconds: checks it works")]
    = False,
    openspiel: Annotated[bool, typer.Option("--openspiel/--no-openspiel",
                                            help="the side-by-side run with OpenSpiel")]
    = True,
    hands: Annotated[int, typer.Option(help="hands for the side-by-side run")] = 5000,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable")] = False,
) -> None:
    """Throughput of every game through the public API (uniformly random play)."""
    from koloda import bench as b
    if quick:
        deals, matches, hands = min(deals, 20), min(matches, 1), min(hands, 100)
    if deals < 0 or matches < 0 or hands < 1:
        _fail("--deals and --matches must be ≥ 0, --hands ≥ 1")
    figures = b.bench_all(deals, matches, seed, game)
    side = _side_by_side(hands, seed) if openspiel else None
    if as_json:
        print(json.dumps({"figures": [f.to_json() for f in figures], "side_by_side": side}))
        return
    table = Table(title=f"koloda bench (seed {seed}; uniformly random play, public API)")
    for col in ("game", "players", "unit", "count", "per s", "actions/s", "peak KiB"):
        table.add_column(col, justify="right" if col not in ("game", "unit") else "left")
    for f in figures:
        table.add_row(f.name, str(f.players), f.unit, str(f.count), f"{f.per_second:,.0f}",
                      f"{f.actions_per_second:,.0f}", f"{f.peak_kib:,.0f}")
    console.print(table)
    if side is not None:
        for line in side["lines"]:
            console.print(line)


def _side_by_side(hands: int, seed: int) -> dict[str, Any]:
    from koloda import bench as b
    lines: list[str] = []
    out: dict[str, Any] = {"hands": hands, "seed": seed, "lines": lines}
    try:
        ours_s, ours_actions = b.opendaum_like_oh_hell(hands, seed)
    except RuntimeError as exc:
        lines.append(f"side-by-side: {exc}")
        return out
    ours = hands / ours_s
    out["koloda_hands_per_s"] = round(ours, 1)
    lines.append(f"koloda opendaum, 4 players, 36 cards, 8 each: {ours:,.0f} hands/s "
                 f"({ours_actions / ours_s:,.0f} actions/s, {hands} hands, seed {seed})")
    py = b.openspiel_python(hands, seed)
    if py is None:
        lines.append("OpenSpiel not installed (pip install '.[bench]'): no side-by-side")
        return out
    py_rate = hands / py[0]
    cpp_s = b.openspiel_cpp(hands, seed)
    cpp_rate = hands / cpp_s if cpp_s else 0.0
    out |= {"openspiel_python_hands_per_s": round(py_rate, 1),
            "openspiel_cpp_hands_per_s": round(cpp_rate, 1),
            "ratio_vs_python": round(ours / py_rate, 3),
            "ratio_vs_cpp": round(ours / cpp_rate, 3) if cpp_rate else None}
    lines.append(f"OpenSpiel {b.OH_HELL} from Python: {py_rate:,.0f} hands/s")
    lines.append(f"OpenSpiel {b.OH_HELL} in C++ (evaluate_bots): {cpp_rate:,.0f} hands/s")
    lines.append(f"ratio koloda / OpenSpiel-Python: {ours / py_rate:.2f}×; "
                 f"koloda / OpenSpiel-C++: {ours / cpp_rate:.2f}×")
    return out
