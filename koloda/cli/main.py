"""``koloda``: games, rules, play, simulate, replay."""

from __future__ import annotations

import importlib
import json
import sys
import time
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from koloda.cli.usage import KolodaGroup
from koloda.engine.errors import ConfigError, RecordError
from koloda.engine.records import load_record, replay
from koloda.engine.registry import get_spec, registry
from koloda.i18n import check_lang, default_lang, option_allowed, option_value, reason, t

app = typer.Typer(cls=KolodaGroup, add_completion=False, no_args_is_help=True,
                  help="koloda — traditional Russian card games.")
console = Console()
err = Console(stderr=True)

#: ``--lang``, as every command takes it
LangOption = Annotated[str | None, typer.Option(metavar="ru|en", help="language (default: "
                                                                       "from the locale)")]


def _fail(message: str, code: int = 2, lang: str = "en") -> NoReturn:
    """Print ``error: message`` (``ошибка: …`` in Russian) and exit with ``code``."""
    err.print(f"[red]{t('error', lang)}:[/red] {escape(message)}", soft_wrap=True)
    raise typer.Exit(code)


def _fail_config(exc: ConfigError, lang: str = "en") -> NoReturn:
    """A bad game, variant, player count or option, said in ``lang``."""
    _fail(reason(exc, lang), lang=lang)


def _parse_options(pairs: list[str], lang: str = "en") -> dict[str, Any]:
    """``-o name=value``: the value is read as JSON when it parses, else as text."""
    out: dict[str, Any] = {}
    for p in pairs:
        name, sep, raw = p.partition("=")
        if not sep or not name:
            _fail(t("option_pair", lang, pair=repr(p) if lang == "en" else f"«{p}»"),
                  lang=lang)
        try:
            out[name.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            out[name.strip()] = raw
    return out


@app.command()
def games(as_json: Annotated[bool, typer.Option("--json", help="machine-readable")] = False,
          lang: LangOption = None) -> None:
    """Every game and variant, its player counts and options."""
    lang = check_lang(lang)
    specs = registry()
    if as_json:
        data = [{"name": s.name, "family": s.family, "variant": s.variant,
                 "title": {"en": s.title_en, "ru": s.title_ru}, "players": list(s.players),
                 "options": [{"name": o.name, "default": o.default_for(s.default_players),
                              "default_by_players": {str(n): o.default_for(n)
                                                     for n in s.players},
                              "allowed": o.allowed, "help": {"en": o.help_en, "ru": o.help_ru}}
                             for o in s.all_options]} for s in specs.values()]
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return
    table = Table(title="koloda")
    for col in ("col_game", "col_title", "col_players", "col_options"):
        table.add_column(t(col, lang))
    for s in specs.values():
        opts = "\n".join(f"{o.name} ({default_text(s, o, lang)}; "
                         f"{option_allowed(o.allowed, lang)}) — "
                         f"{o.help_ru if lang == 'ru' else o.help_en}" for o in s.all_options)
        title = s.title_ru if lang == "ru" else s.title_en
        table.add_row(s.name, title, ", ".join(map(str, s.players)), opts)
    console.print(table)


def default_text(spec: Any, option: Any, lang: str = "en") -> str:
    """An option's default as a person reads it; one that depends on the player count
    says so (``false with 2, 3, 5 players; true with 4, 6``)."""
    by_count: dict[str, list[int]] = {}
    for n in spec.players:
        by_count.setdefault(option_value(option.default_for(n), lang), []).append(n)
    if len(by_count) == 1:
        return next(iter(by_count))
    word = "players" if lang != "ru" else "игроков"
    return "; ".join(f"{v} ({'с' if lang == 'ru' else 'with'} "
                     f"{', '.join(map(str, ns))} {word})" for v, ns in by_count.items())


@app.command()
def rules(game: Annotated[str, typer.Argument(help="game name (koloda games lists them)")],
          lang: LangOption = None) -> None:
    """The rules of GAME in the chosen language."""
    try:
        lang = check_lang(lang)
    except ValueError as exc:
        _fail(str(exc))
    try:
        spec = get_spec(game)
    except ConfigError as exc:
        _fail_config(exc, lang)
    name = f"{spec.family}.{lang}.md"
    try:
        text = resources.files("koloda.rules").joinpath(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        _fail(t("no_rules_lang", lang, language=lang, family=spec.family), lang=lang)
    console.print(Markdown(text))


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="game name (koloda games lists them)")],
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    games_: Annotated[int, typer.Option("--games", help="matches to play")] = 100,
    seed: Annotated[int, typer.Option(help="first seed; match i uses seed+i")] = 0,
    bots: Annotated[str, typer.Option(help="comma-separated, one per seat or one for all")]
    = "random",
    record: Annotated[Path | None, typer.Option(help="write every record into DIR")] = None,
    jobs: Annotated[int, typer.Option("-j", "--jobs", help="worker processes")] = 1,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="NAME=VALUE",
        help="a game option (koloda games lists them)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
) -> None:
    """Play many matches between bots and summarise them."""
    from koloda.bots import make_bot
    from koloda.cli.simulate import Job, Summary, run_jobs
    try:
        spec = get_spec(game)
        n = spec.player_count(players)
        opts = _parse_options(option or [])
        spec.resolve_options(n, opts)
        names = [b.strip() for b in bots.split(",") if b.strip()]
        if len(names) == 1:
            names = names * n
        if len(names) != n:
            _fail(f"--bots: {len(names)} bots for {n} seats")
        for b in names:
            make_bot(b, spec.name)
    except ConfigError as exc:
        _fail_config(exc, default_lang())
    if games_ < 1:
        _fail("--games must be at least 1")
    if record is not None:
        record.mkdir(parents=True, exist_ok=True)
    job_list = [Job(spec.name, n, seed + i, tuple(names), tuple(sorted(opts.items())),
                    str(record) if record else None) for i in range(games_)]
    summary = Summary(n)
    start = time.perf_counter()
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=err,
                  disable=as_json or not err.is_terminal) as progress:
        task = progress.add_task(spec.name, total=games_)
        for r in run_jobs(job_list, max(1, jobs)):
            summary.add(r)
            progress.advance(task)
    elapsed = time.perf_counter() - start
    out = summary.to_json() | {"game": spec.name, "players": n, "bots": names, "seed": seed,
                               "seconds": round(elapsed, 3)}
    if as_json:
        print(json.dumps(out, ensure_ascii=False))
        return
    table = Table(title=f"{spec.name}: {games_} matches, seeds {seed}..{seed + games_ - 1}, "
                        f"{elapsed:.1f} s")
    for col in ("seat", "bot", "wins", "win rate", "score mean", "min", "max"):
        table.add_column(col)
    for s in range(n):
        sc = out["scores_by_seat"][s]
        table.add_row(str(s), names[s], str(out["wins_by_seat"][s]),
                      f"{out['win_rate_by_seat'][s]:.3f}", str(sc["mean"]), str(sc["min"]),
                      str(sc["max"]))
    console.print(table)
    console.print(f"draws {out['draws']}, capped {out['capped']}; actions per match "
                  f"mean {out['actions']['mean']} (min {out['actions']['min']:.0f}, max "
                  f"{out['actions']['max']:.0f}); deals per match mean {out['deals']['mean']}")


@app.command("replay")
def replay_cmd(
    file: Path,
    as_json: Annotated[bool, typer.Option("--json", help="print the replay object")] = False,
    lang: LangOption = None,
) -> None:
    """Replay a record and verify every action and its result (exit 2 on any error)."""
    try:
        language = check_lang(lang)
    except ValueError as exc:
        _fail(str(exc))
    try:
        data = load_record(file)
    except RecordError as exc:
        out: dict[str, Any] = {"error": {"field": "file", "reason": str(exc)}}
        if as_json:
            print(json.dumps(out, ensure_ascii=False))
            raise typer.Exit(2) from None
        _fail(f"{file}: {reason(exc, language)}", lang=language)
    rep = replay(data, keep_steps=as_json)
    if as_json:
        print(json.dumps(rep.to_json(), ensure_ascii=False))
        raise typer.Exit(0 if rep.ok else 2)
    if rep.match is not None:
        console.print(f"{rep.match.spec.name}: {len(rep.match.history)} actions replayed, "
                      f"{len(rep.match.deals)} deals")
        if rep.match.result is not None:
            from koloda.cli.render import show_result
            show_result(console, rep.match)
    if rep.error is not None:
        _fail(json.dumps(rep.error, ensure_ascii=False), lang=language)
    console.print(f"[green]{t('record_verified', language)}[/green]")


# Commands that live in their own modules register themselves on ``app`` when imported.
COMMAND_MODULES = ("koloda.cli.play_cmd", "koloda.cli.store_cmd", "koloda.cli.arena_cmd",
                   "koloda.cli.bench_cmd", "koloda.cli.serve_cmd", "koloda.cli.ratings_cmd")
for _name in COMMAND_MODULES:
    try:
        importlib.import_module(_name)
    except ModuleNotFoundError as _exc:  # a module not written yet
        if _exc.name != _name:
            raise


def main() -> None:  # pragma: no cover - console entry
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
