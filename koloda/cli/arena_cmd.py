"""``koloda arena``: bots on duplicate deals, win rates with 95% intervals, a JSONL log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from koloda.cli.main import _fail, _fail_config, _parse_options, app, console, err
from koloda.engine.errors import ConfigError
from koloda.i18n import default_lang


@app.command()
def arena(
    game: str,
    bots: Annotated[str, typer.Option(help="comma-separated bots, e.g. search,heuristic")],
    deals: Annotated[int, typer.Option(help="deal-sets (each played in every rotation)")]
    = 100,
    seed: Annotated[int, typer.Option(help="first seed; deal-set k uses seed+k")] = 1,
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    jobs: Annotated[int, typer.Option("-j", "--jobs", help="worker processes")] = 1,
    unit: Annotated[str, typer.Option(help="deal (single deals) or match")] = "deal",
    option: Annotated[list[str] | None, typer.Option("--option", "-o",
                                                     help="name=value")] = None,
    log: Annotated[Path | None, typer.Option(help="JSONL log, one line a game (no wall "
                                                  "clock: the same seed gives the same "
                                                  "lines)")] = None,
    timings: Annotated[Path | None, typer.Option(help="JSONL file of each game's move "
                                                      "times (seconds, per seat)")] = None,
    ray: Annotated[str | None, typer.Option(
        "--ray", help="run the deal-sets as Ray tasks: a cluster ADDRESS, 'auto' (a "
                      "running cluster, else a local one) or 'local' (a local one of -j "
                      "CPUs)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
) -> None:
    """Measure bots against each other on the same deals, seats rotated."""
    from koloda import arena as a
    from koloda.bots import make_bot
    from koloda.engine.registry import get_spec
    names = [b.strip() for b in bots.split(",") if b.strip()]
    try:
        spec = get_spec(game)
        n = spec.player_count(players)
        opts = _parse_options(option or [])
        spec.resolve_options(n, opts)
        for b in names:
            make_bot(b, spec.name)
    except ConfigError as exc:
        _fail_config(exc, default_lang())
    if len(names) < 1 or len(set(names)) != len(names):
        _fail("--bots: name each bot once, e.g. --bots search,heuristic")
    if unit not in ("deal", "match"):
        _fail("--unit: deal or match")
    if deals < 1:
        _fail("--deals must be at least 1")
    games = a.schedule_games(spec.name, n, names, deals, seed, unit, opts)
    if ray is not None:
        from koloda.measure.ray_arena import RayUnavailable, run_ray
        try:
            results = run_ray(games, ray, max(1, jobs))
        except RayUnavailable as exc:
            _fail(str(exc))
    else:
        results = a.run(games, max(1, jobs))
    rows = []
    times = []
    out = log.open("w", encoding="utf-8") if log else None
    tout = timings.open("w", encoding="utf-8") if timings else None
    try:
        with Progress("[progress.description]{task.description}", BarColumn(),
                      MofNCompleteColumn(), TimeElapsedColumn(), console=err,
                      disable=as_json or not err.is_terminal) as progress:
            task = progress.add_task(f"{spec.name} {'/'.join(names)}", total=len(games))
            for res in results:
                rows.append(res.row)
                times.append(res.times)
                if out:
                    out.write(json.dumps(res.row, ensure_ascii=False) + "\n")
                    out.flush()     # a run stopped early keeps every finished game
                if tout:
                    tout.write(json.dumps(a.timings_line(res)) + "\n")
                    tout.flush()
                progress.advance(task)
    finally:
        for f in (out, tout):
            if f:
                f.close()
    _report(spec.name, spec.family, n, rows, names, deals, unit, as_json,
            f"{deals} deal-sets × rotations = {len(rows)} games "
            f"(seeds {seed}..{seed + deals - 1})", {"seed": seed}, times)


@app.command("arena-report")
def arena_report(
    logs: Annotated[list[Path], typer.Argument(help="JSONL logs written by koloda arena")],
    timings: Annotated[list[Path] | None, typer.Option(
        help="timings files written by koloda arena --timings (for the move times)")]
    = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
) -> None:
    """Summarise arena logs together (e.g. one long run split over seed ranges): only
    deal-sets played in every rotation count, each (seed, seats) once."""
    from koloda import arena as a
    from koloda.engine.registry import get_spec
    texts = read_all(logs)
    try:
        c = a.combine_logs(texts)
        spec = get_spec(c.name)
        times = a.read_timings(c.rows, read_all(timings)) if timings else None
    except (a.LogError, ConfigError) as exc:
        _fail(str(exc))
    if not c.rows:
        _fail("no complete deal-set in the logs (every rotation of a seed is needed)")
    dropped = f"; {c.dropped} games of incomplete deal-sets left out" if c.dropped else ""
    _report(spec.name, spec.family, c.players, c.rows, c.bots, len(c.seeds), c.unit, as_json,
            f"{len(c.seeds)} deal-sets × rotations = {len(c.rows)} games "
            f"(seeds {a.seed_ranges(c.seeds)}){dropped}",
            {"seeds": a.seed_ranges(c.seeds), "dropped_games": c.dropped}, times)


def read_all(paths: list[Path]) -> list[tuple[str, str]]:
    texts = []
    for path in paths:
        try:
            texts.append((str(path), path.read_text(encoding="utf-8")))
        except OSError as exc:
            _fail(f"cannot read {path}: {exc.strerror}")
    return texts


def _report(name: str, family: str, n: int, rows: list[dict[str, Any]], names: list[str],
            deals: int, unit: str, as_json: bool, title: str,
            extra: dict[str, Any], times: list[list[list[float]]] | None = None) -> None:
    from koloda import arena as a
    stats = a.tally(rows, names, times)
    summary: dict[str, Any] = {
        "game": name, "players": n, "deal_sets": deals, "games": len(rows), **extra,
        "unit": unit, "measure": a.MEASURE_NAMES.get(family, "points per deal"),
        "bots": [stats[b].to_json() for b in names]}
    if len(names) == 2:
        d, lo, hi, k = a.paired_difference(rows, names[0], names[1])
        summary["difference"] = {"of": names, "mean": d, "95": [lo, hi], "deal_sets": k}
    if as_json:
        print(json.dumps(summary, ensure_ascii=False))
        return
    table = Table(title=f"{name}, {n} players: {title}")
    for col in ("bot", "win rate [95%]", "points [95%]", summary["measure"] + " [95%]",
                "move ms median / p95"):
        table.add_column(col)
    for b in summary["bots"]:
        table.add_row(
            a.shown_name(b["bot"], b["cheating"]),
            f"{b['win_rate']:.3f} [{b['win_rate_95'][0]:.3f}, {b['win_rate_95'][1]:.3f}]",
            f"{b['points_mean']:.2f} [{b['points_95'][0]:.2f}, {b['points_95'][1]:.2f}]",
            f"{b['measure_mean']:.3f} [{b['measure_95'][0]:.3f}, {b['measure_95'][1]:.3f}]",
            f"{b['move_ms_median']:.2f} / {b['move_ms_p95']:.2f}" if b["moves"] else "—")
    console.print(table)
    if "difference" in summary:
        d = summary["difference"]
        first, second = (a.shown_name(x, stats[x].cheating) for x in names)
        console.print(f"{first} − {second}, {summary['measure']}, paired by deal-set: "
                      f"{d['mean']:+.3f} [{d['95'][0]:+.3f}, {d['95'][1]:+.3f}] "
                      f"({d['deal_sets']} deal-sets)")
