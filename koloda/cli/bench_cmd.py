"""``koloda bench``: games/s, actions/s and peak memory for every game; OpenSpiel beside."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table

from koloda.cli.main import _fail, app, console

#: a unit's name for one of it
ONE = {"deals": "deal", "matches": "match"}


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
    hands: Annotated[int, typer.Option(help="hands per round of the side-by-side run")]
    = 1000,
    rounds: Annotated[int, typer.Option(help="rounds of the side-by-side run")] = 9,
    batched: Annotated[bool, typer.Option("--batched/--no-batched",
                                          help="the batched simulator (numpy) beside "
                                               "OpenSpiel's C++ loop")] = True,
    batched_only: Annotated[bool, typer.Option("--batched-only",
                                               help="only the batched run")] = False,
    batched_hands: Annotated[int, typer.Option(help="hands per round of the batched run")]
    = 131072,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable")] = False,
    adapters: Annotated[int, typer.Option(
        help="also: PettingZoo and OpenSpiel beside the raw engine, this many episodes "
             "per side and round (koloda.envs.speed; 0 = skip)")] = 0,
    shapes: Annotated[str, typer.Option(
        help="with --adapters: only these shapes, comma-separated (durak, opendaum-8, "
             "opendaum-match, mushka, dreyfus, kopilka, stukolka, trinka); all when "
             "empty")] = "",
) -> None:
    """Throughput of every game through the public API (uniformly random play)."""
    from koloda import bench as b
    adapter_rows: list[Any] = []
    if adapters:       # koloda.envs.speed: PettingZoo and OpenSpiel beside the raw engine
        from koloda.envs import speed
        try:
            chosen = speed.named([n.strip() for n in shapes.split(",") if n.strip()]) \
                if shapes.strip() else None
        except ValueError as exc:
            _fail(str(exc))
        adapter_rows = speed.measure(min(adapters, 5) if quick else adapters,
                                     shapes=chosen)
    if quick:
        deals, matches, hands, rounds = min(deals, 20), min(matches, 1), min(hands, 100), 1
        batched_hands = min(batched_hands, 8192)
    if deals < 0 or matches < 0 or hands < 1 or rounds < 1 or batched_hands < 1:
        _fail("--deals and --matches must be ≥ 0, --hands, --rounds and --batched-hands ≥ 1")
    if batched_only:
        deals = matches = 0
        batched = True
    figures = b.bench_all(deals, matches, seed, game) if deals or matches else []
    side = _side_by_side(hands, seed, rounds) if openspiel and not batched_only else None
    batch = _batched(batched_hands, hands, seed, rounds, openspiel) if batched else None
    if as_json:
        print(json.dumps({"figures": [f.to_json() for f in figures], "side_by_side": side,
                          "batched": batch}
                         | ({"adapters": [r.to_json() for r in adapter_rows]} if adapters
                            else {})))
        return
    if batched_only and batch is not None:
        for line in batch["lines"]:
            console.print(line)
        _print_adapters(adapter_rows)
        return
    table = Table(title=f"koloda bench (seed {seed}; uniformly random play, public API)")
    table.box = box.SIMPLE_HEAD        # (no column rules: the table fits 80 columns)
    table.pad_edge = False
    for col in ("game", "seats", "unit", "cards", "deals", "per s", "actions/s", "KiB"):
        table.add_column(col, justify="left" if col in ("game", "unit") else "right",
                         no_wrap=True)
    notes: list[str] = []
    for f in figures:
        unit = f.unit
        if f.options:
            notes.append(f"{'*' * (len(notes) + 1)} {f.name} {f.shape}")
            unit += "*" * len(notes)
        table.add_row(f.name, str(f.players), unit, f.cards_text, f.deals_text,
                      f"{f.per_second:,.0f}", f"{f.actions_per_second:,.0f}",
                      f"{f.peak_kib:,.0f}")
    console.print(table)
    if figures:
        counts = sorted({(f.unit, f.count) for f in figures})
        for line in ("cards: each hand as a deal begins; deals: in one unit; KiB: peak memory",
                     "measured: " + ", ".join(f"{n} {u if n != 1 else ONE[u]}"
                                              for u, n in counts) + " per row", *notes):
            console.print(line, soft_wrap=True)
    if side is not None:
        for line in side["lines"]:
            console.print(line)
    if batch is not None:
        for line in batch["lines"]:
            console.print(line)
    _print_adapters(adapter_rows)


def _print_adapters(rows: list[Any]) -> None:
    if rows:
        from koloda.envs import speed
        for line in speed.lines(rows):
            console.print(line, soft_wrap=True)


def _batched(hands: int, cpp_hands: int, seed: int, rounds: int,
             openspiel: bool) -> dict[str, Any]:
    """The batched simulator's hands/s beside OpenSpiel's C++ loop, as printed lines."""
    import statistics

    from koloda import bench as b
    lines: list[str] = []
    out: dict[str, Any] = {"hands": hands, "cpp_hands": cpp_hands, "rounds": rounds,
                           "seed": seed, "batch": b.BATCH, "lines": lines,
                           "clock": "CPU time of this process"}
    sbs = b.batched_side_by_side(hands, cpp_hands, seed, rounds, openspiel)
    if sbs is None:
        lines.append("batched simulator: numpy not installed (pip install numpy)")
        return out
    med = statistics.median
    out |= {"batched_hands_per_s": round(med(sbs.batched), 1),
            "batched_steps_per_s": round(med(sbs.batched_steps), 1),
            "batched_observed_hands_per_s": round(med(sbs.observed), 1),
            "batched_featured_hands_per_s": round(med(sbs.featured), 1),
            "batched_trinka_hands_per_s": round(med(sbs.trinka), 1),
            "rounds_hands_per_s": [round(x, 1) for x in sbs.batched]}
    lines.append(f"batched simulator (koloda.batched, numpy, one core), {rounds} rounds,")
    lines.append(f"  seeds from {seed}, hands per CPU second (median of the rounds):")
    lines.append(f"  opendaum 4p, 36 cards, 8 each, advance: {med(sbs.batched):,.0f} hands/s")
    lines.append(f"    ({med(sbs.batched_steps):,.0f} steps/s; {hands} hands a round, "
                 f"{b.BATCH} a batch)")
    lines.append(f"  opendaum through step (observation + mask): {med(sbs.observed):,.0f} "
                 f"hands/s")
    lines.append(f"  opendaum through step (the adapters' vector + mask): "
                 f"{med(sbs.featured):,.0f} hands/s")
    lines.append(f"  trinka 4p, 9 each, advance: {med(sbs.trinka):,.0f} hands/s")
    out["batched_games_hands_per_s"] = {k: round(med(v), 1) for k, v in sbs.games.items()}
    if sbs.games:
        lines.append(f"  the other batched games, {sbs.games_hands} hands a round, advance:")
    for label, rates in sbs.games.items():
        lines.append(f"    {label}: {med(rates):,.0f} hands/s")
    if sbs.durak:
        out["batched_durak_games_per_s"] = round(med(sbs.durak), 1)
        out["rounds_durak_games_per_s"] = [round(x, 1) for x in sbs.durak]
        lines.append(f"  durak 2p, whole games, advance: {med(sbs.durak):,.0f} games/s "
                     f"({med(sbs.durak_steps):,.0f} steps/s; {sbs.durak_games} games a round, "
                     f"{b.DURAK_BATCH} a batch kept full)")
        lines.append(f"    by round: {', '.join(f'{x:,.0f}' for x in sbs.durak)}")
    if sbs.durak_featured:
        out["batched_durak_featured_games_per_s"] = round(med(sbs.durak_featured), 1)
        lines.append(f"  durak 2p, each step writing the adapters' vector and the mask: "
                     f"{med(sbs.durak_featured):,.0f} games/s ({max(hands // 8, 1)} a round)")
    if not sbs.cpp:
        lines.append("  OpenSpiel not installed (pip install '.[bench]'): no side-by-side"
                     if openspiel else "  (--no-openspiel: no side-by-side)")
        return out
    ratios, obs_ratios = sbs.ratios(sbs.batched), sbs.ratios(sbs.observed)
    feat_ratios = sbs.ratios(sbs.featured)
    out |= {"openspiel_cpp_hands_per_s": round(med(sbs.cpp), 1),
            "ratio_vs_cpp": round(med(ratios), 3),
            "ratios_vs_cpp": [round(x, 3) for x in ratios],
            "observed_ratio_vs_cpp": round(med(obs_ratios), 3),
            "featured_ratio_vs_cpp": round(med(feat_ratios), 3)}
    lines.append(f"  OpenSpiel oh_hell in C++ (evaluate_bots): {med(sbs.cpp):,.0f} hands/s "
                 f"({cpp_hands} a round)")
    lines.append(f"  ratio batched / OpenSpiel-C++: {med(ratios):.2f}× (advance), "
                 f"{med(obs_ratios):.2f}× (step), {med(feat_ratios):.2f}× (step with the "
                 f"adapters' vector)")
    lines.append(f"    by round (advance): {', '.join(f'{x:.1f}' for x in ratios)}")
    if sbs.durak:
        # no durak in OpenSpiel: its oh_hell loop, run in the same rounds, says how loaded
        # the machine was (the rounds' figures move together)
        durak_ratios = sbs.ratios(sbs.durak)
        out["durak_games_per_cpp_hand"] = round(med(durak_ratios), 3)
        lines.append(f"  durak games / OpenSpiel-C++ oh_hell hands, same rounds: "
                     f"{med(durak_ratios):.2f} (by round: "
                     f"{', '.join(f'{x:.2f}' for x in durak_ratios)})")
    return out


def _side_by_side(hands: int, seed: int, rounds: int) -> dict[str, Any]:
    from koloda import bench as b
    lines: list[str] = []
    out: dict[str, Any] = {"hands": hands, "rounds": rounds, "seed": seed, "lines": lines,
                           "clock": "CPU time of this process"}
    try:
        sbs = b.side_by_side(hands, seed, rounds)
    except RuntimeError as exc:
        lines.append(f"side-by-side: {exc}")
        return out
    if sbs is None:
        ours_s, ours_actions = b.opendaum_like_oh_hell(hands, seed)
        out["koloda_hands_per_s"] = round(hands / ours_s, 1)
        lines.append(f"koloda opendaum, 4 players, 36 cards, 8 each: {hands / ours_s:,.0f} "
                     f"hands/s ({ours_actions / ours_s:,.0f} actions/s, {hands} hands)")
        lines.append("OpenSpiel not installed (pip install '.[bench]'): no side-by-side")
        return out
    med = sbs.median
    vs_py, vs_cpp = sbs.ratios(sbs.python), sbs.ratios(sbs.cpp)
    out |= {"koloda_hands_per_s": round(med(sbs.ours), 1),
            "openspiel_python_hands_per_s": round(med(sbs.python), 1),
            "openspiel_cpp_hands_per_s": round(med(sbs.cpp), 1),
            "ratio_vs_python": round(med(vs_py), 3), "ratio_vs_cpp": round(med(vs_cpp), 3),
            "ratios_vs_python": [round(x, 3) for x in vs_py]}
    lines.append(f"side by side, {rounds} rounds of {hands} hands each (seeds from {seed}), "
                 "hands per CPU second, median of the rounds:")
    lines.append(f"  koloda opendaum, 4 players, 36 cards, 8 each: {med(sbs.ours):,.0f} "
                 f"hands/s ({med(sbs.ours_actions):,.0f} actions/s)")
    lines.append(f"  OpenSpiel {b.OH_HELL} from Python: {med(sbs.python):,.0f} hands/s")
    lines.append(f"  OpenSpiel {b.OH_HELL} in C++ (evaluate_bots): {med(sbs.cpp):,.0f} hands/s")
    lines.append(f"  ratio koloda / OpenSpiel-Python: {med(vs_py):.2f}× (rounds: "
                 f"{', '.join(f'{x:.2f}' for x in vs_py)}); koloda / OpenSpiel-C++: "
                 f"{med(vs_cpp):.2f}×")
    return out
