"""``koloda arena``: bots on duplicate deals, win rates with 95% intervals, a JSONL log."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.measure import Measurement
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from koloda.cli.main import _fail, _fail_config, _parse_options, app, console, err
from koloda.engine.errors import ConfigError
from koloda.i18n import check_lang

#: the exit status of a run stopped by Ctrl-C (SIGINT), as a shell gives it
STOPPED = 130

#: the arena's own sentences (English, Russian)
_TEXTS: dict[str, tuple[str, str]] = {
    "heading": ("{game}, {n} players: {what}", "{game}, игроков: {n}; {what}"),
    "intervals": ("[…]: 95% intervals (Wilson's for rates)",
                  "[…]: 95% интервалы (для долей — Уилсона)"),
    "what": ("{deals} deal-sets × rotations = {games} games (seeds {seeds})",
             "{deals} наборов сдач × пересадки = {games} игр (сиды {seeds})"),
    "dropped": ("; {n} games of incomplete deal-sets left out",
                "; игр из неполных наборов не учтено: {n}"),
    "bot": ("bot", "бот"),
    "seat_games": ("seat-games", "мест-игр"),
    "moves": ("moves", "ходов"),
    "ms_median": ("ms median", "мс медиана"),
    "ms_p95": ("ms p95", "мс p95"),
    "cheating": ("* sees all cards (cheats)", "* видит все карты (жульничает)"),
    "difference": ("{measure}, paired by deal-set ({k} deal-sets):\n  {a} − {b} = {d} [{lo}, {hi}]",
                   "{measure}, попарно по наборам сдач ({k}):\n  {a} − {b} = {d} [{lo}, {hi}]"),
    "stopped": ("Stopped after {n} of {total} games", "Остановлено: сыграно {n} из {total} игр"),
    "stopped_partial": ("; games of the unfinished deal-set left out: {k}",
                        "; не учтено игр незаконченного набора сдач: {k}"),
    "stopped_none": ("Stopped after {n} of {total} games, before a deal-set was complete: "
                     "nothing to tally",
                     "Остановлено: сыграно {n} из {total} игр, ни один набор сдач не закончен: "
                     "считать нечего"),
    "stopped_log": ("the log {log} holds every finished game: koloda arena-report {log}",
                    "в журнале {log} все законченные игры: koloda arena-report {log}"),
    "stopped_no_log": ("with --log FILE a stopped run keeps its games for koloda arena-report",
                       "с --log ФАЙЛ остановленный прогон сохранит игры для "
                       "koloda arena-report"),
}


def _t(key: str, lang: str, **kw: object) -> str:
    en, ru = _TEXTS[key]
    return (ru if lang == "ru" else en).format(**kw)


def _lang(lang: str | None) -> str:
    try:
        return check_lang(lang)
    except ValueError as exc:
        _fail(f"--lang: {exc}")


@app.command(epilog="Ctrl-C stops a run: the table of the deal-sets finished so far is "
                    "printed and the exit status is 130; `koloda arena-report LOG` "
                    "summarises the log of a stopped run, or of several runs, later.")
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
                                                  "lines); a stopped run keeps every "
                                                  "finished game")] = None,
    timings: Annotated[Path | None, typer.Option(help="JSONL file of each game's move "
                                                      "times (seconds, per seat)")] = None,
    ray: Annotated[str | None, typer.Option(
        "--ray", help="run the deal-sets as Ray tasks: a cluster ADDRESS, 'auto' (a "
                      "running cluster, else a local one) or 'local' (a local one of -j "
                      "CPUs)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
    lang: Annotated[str | None, typer.Option(help="ru or en")] = None,
) -> None:
    """Measure bots against each other on the same deals, seats rotated: win, draw and the
    game's own rates with 95% intervals, and with two bots their paired difference."""
    from koloda import arena as a
    from koloda.bots import make_bot
    from koloda.engine.registry import get_spec
    language = _lang(lang)
    names = [b.strip() for b in bots.split(",") if b.strip()]
    try:
        spec = get_spec(game)
        n = spec.player_count(players)
        opts = _parse_options(option or [], language)
        spec.resolve_options(n, opts)
        for b in names:
            make_bot(b, spec.name)
    except ConfigError as exc:
        _fail_config(exc, language)
    if len(names) < 1 or len(set(names)) != len(names):
        _fail("--bots: name each bot once, e.g. --bots search,heuristic")
    if unit not in ("deal", "match"):
        _fail("--unit: deal or match")
    if deals < 1:
        _fail("--deals must be at least 1")
    games = a.schedule_games(spec.name, n, names, deals, seed, unit, opts)
    results: Iterator[a.GameResult]
    if ray is not None:
        from koloda.arena_ray import RayUnavailable, run_ray
        try:
            results = run_ray(games, ray, max(1, jobs))
        except RayUnavailable as exc:
            _fail(str(exc))
    else:
        results = a.run(games, max(1, jobs))
    rows = []
    times = []
    stopped = False
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
    except KeyboardInterrupt:
        stopped = True
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()         # the worker processes (or Ray) stop with the run
        for f in (out, tout):
            if f:
                f.close()
    played = len(rows)
    note = ""
    extra: dict[str, Any] = {"seed": seed}
    if stopped:
        rotations = len(a.lineups(names, n))
        whole = played // rotations         # the games come in schedule order
        rows, times = rows[:whole * rotations], times[:whole * rotations]
        deals = whole
        extra |= {"stopped": True, "games_played": played, "games_scheduled": len(games)}
        if not rows:
            _stopped_hint(log, language, _t("stopped_none", language, n=played,
                                             total=len(games)), as_json, extra)
            raise typer.Exit(STOPPED)
        note = _t("stopped", language, n=played, total=len(games))
        if played > len(rows):
            note += _t("stopped_partial", language, k=played - len(rows))
    what = _t("what", language, deals=deals, games=len(rows),
              seeds=f"{seed}..{seed + deals - 1}")
    _report(spec.name, spec.family, n, rows, names, deals, unit, as_json, what, extra, times,
            language, note)
    if stopped:
        _stopped_hint(log, language, note, as_json, None)
        raise typer.Exit(STOPPED)


def _stopped_hint(log: Path | None, lang: str, note: str, as_json: bool,
                  summary: dict[str, Any] | None) -> None:
    """Say on stderr that the run was stopped, and how its log is read later."""
    if as_json and summary is not None:
        print(json.dumps(summary, ensure_ascii=False))
    hint = (_t("stopped_log", lang, log=log) if log is not None
            else _t("stopped_no_log", lang))
    err.print(escape(f"{note}.\n{hint[0].upper()}{hint[1:]}"), soft_wrap=True, highlight=False)


@app.command("arena-report")
def arena_report(
    logs: Annotated[list[Path], typer.Argument(help="JSONL logs written by koloda arena")],
    timings: Annotated[list[Path] | None, typer.Option(
        help="timings files written by koloda arena --timings (for the move times)")]
    = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
    lang: Annotated[str | None, typer.Option(help="ru or en")] = None,
) -> None:
    """Summarise arena logs together (e.g. one long run split over seed ranges, or a run
    stopped by Ctrl-C): only deal-sets played in every rotation count, each (seed, seats)
    once."""
    from koloda import arena as a
    from koloda.engine.registry import get_spec
    language = _lang(lang)
    texts = read_all(logs)
    try:
        c = a.combine_logs(texts)
        spec = get_spec(c.name)
        times = a.read_timings(c.rows, read_all(timings)) if timings else None
    except (a.LogError, ConfigError) as exc:
        _fail(str(exc))
    if not c.rows:
        _fail("no complete deal-set in the logs (every rotation of a seed is needed)")
    dropped = _t("dropped", language, n=c.dropped) if c.dropped else ""
    _report(spec.name, spec.family, c.players, c.rows, c.bots, len(c.seeds), c.unit, as_json,
            _t("what", language, deals=len(c.seeds), games=len(c.rows),
               seeds=a.seed_ranges(c.seeds)) + dropped,
            {"seeds": a.seed_ranges(c.seeds), "dropped_games": c.dropped}, times, language)


def read_all(paths: list[Path]) -> list[tuple[str, str]]:
    texts = []
    for path in paths:
        try:
            texts.append((str(path), path.read_text(encoding="utf-8")))
        except OSError as exc:
            _fail(f"cannot read {path}: {exc.strerror}")
    return texts


def _rate(v: float, lo: float, hi: float) -> str:
    return f"{v:.3f} [{lo:.3f}, {hi:.3f}]"


def _mean(v: float, lo: float, hi: float) -> str:
    return f"{v:.2f} [{lo:.2f}, {hi:.2f}]"


def _put(out: Console, thing: Any) -> None:
    """Print a table or a line: at the terminal's width on a terminal; piped, at its own
    width, so nothing is wrapped (a file gets one line a row)."""
    if out.is_terminal:
        out.print(thing, soft_wrap=isinstance(thing, str), highlight=False)
        return
    if isinstance(thing, str):
        out.print(thing, soft_wrap=True, highlight=False)
        return
    wide = Measurement.get(out, out.options.update(max_width=10_000), thing).maximum
    width = out.width
    out.width = max(width, wide)      # print() itself never goes past the console's width
    try:
        out.print(thing, highlight=False)
    finally:
        out.width = width


def _report(name: str, family: str, n: int, rows: list[dict[str, Any]], names: list[str],
            deals: int, unit: str, as_json: bool, title: str,
            extra: dict[str, Any], times: list[list[list[float]]] | None = None,
            lang: str = "en", stopped: str = "") -> None:
    from koloda import arena as a
    stats = a.tally(rows, names, times, family)
    columns = a.table_columns(family, rows)
    rate = a.measure_is_rate(family)
    summary: dict[str, Any] = {
        "game": name, "players": n, "deal_sets": deals, "games": len(rows), **extra,
        "unit": unit, "measure": a.measure_of(family).name,
        "measure_is_rate": rate, "columns": [c.key for c in columns],
        "bots": [stats[b].to_json() for b in names]}
    if len(names) == 2:
        d, lo, hi, k = a.paired_difference(rows, names[0], names[1], rate)
        summary["difference"] = {"of": names, "mean": d, "95": [lo, hi], "deal_sets": k}
    if as_json:
        print(json.dumps(summary, ensure_ascii=False))
        return
    if stopped:
        _put(console, escape(stopped))
    _put(console, escape(_t("heading", lang, game=name, n=n, what=title)))
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, highlight=False)
    table.add_column(_t("bot", lang), overflow="fold")
    for col in columns:
        table.add_column(col.ru if lang == "ru" else col.en, no_wrap=True)
    marked = False
    for b in summary["bots"]:
        marked = marked or b["cheating"]
        cells = [escape(b["bot"] + ("*" if b["cheating"] else ""))]
        for col in columns:
            if col.key == "measure":
                v, (lo, hi) = b["measure_mean"], b["measure_95"]
            else:
                v, (lo, hi) = b[col.key], b[col.key + "_95"]
            cells.append((_rate if col.rate else _mean)(v, lo, hi))
        table.add_row(*cells)
    _put(console, table)
    if any(b["moves"] for b in summary["bots"]):
        times_table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                            highlight=False)
        times_table.add_column(_t("bot", lang), overflow="fold")
        for key in ("seat_games", "moves", "ms_median", "ms_p95"):
            times_table.add_column(_t(key, lang), justify="right")
        for b in summary["bots"]:
            times_table.add_row(escape(b["bot"] + ("*" if b["cheating"] else "")),
                                str(b["seat_games"]), str(b["moves"]),
                                f"{b['move_ms_median']:.2f}", f"{b['move_ms_p95']:.2f}")
        console.print()
        _put(console, times_table)
    notes = [_t("intervals", lang)]
    note = a.measure_of(family).note
    if note is not None:
        notes.append(note[1] if lang == "ru" else note[0])
    if marked:
        notes.append(_t("cheating", lang))
    for line in notes:
        _put(console, escape(line))
    if "difference" in summary:
        d = summary["difference"]
        own = next(c for c in columns if c.key == "measure")
        fmt = "{:+.3f}" if rate else "{:+.2f}"
        first, second = (x + ("*" if stats[x].cheating else "") for x in names)
        _put(console, escape(_t("difference", lang, k=d["deal_sets"],
                                measure=own.ru if lang == "ru" else own.en, a=first, b=second,
                                d=fmt.format(d["mean"]), lo=fmt.format(d["95"][0]),
                                hi=fmt.format(d["95"][1]))))
