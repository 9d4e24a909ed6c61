"""``koloda ratings``: the bots of one game on one OpenSkill scale, from arena logs or from a
round-robin of short arenas."""

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

LEVELS = ("easy", "normal", "hard")


def default_bots(game: str, ismcts: int) -> list[str]:
    """random, heuristic and every search level the game has, and OpenSpiel's ISMCTS
    when OpenSpiel is installed."""
    from koloda.bots import make_bot
    out = ["random"]
    for b in ("heuristic", *(f"search:{level}" for level in LEVELS),
              f"openspiel-ismcts:{ismcts}"):
        try:
            make_bot(b, game)
        except ConfigError:
            continue
        out.append(b)
    return out


@app.command()
def ratings(
    game: str,
    log: Annotated[list[Path] | None, typer.Option(
        "--log", help="arena logs (JSONL) to rate; repeat for several")] = None,
    deals: Annotated[int | None, typer.Option(
        help="run a round-robin: every pair of bots on this many deal-sets")] = None,
    seed: Annotated[int, typer.Option(help="first seed of the round-robin")] = 1,
    bots: Annotated[str | None, typer.Option(
        help="comma-separated bots of the round-robin (default: random, heuristic, every "
             "search level, openspiel-ismcts)")] = None,
    ismcts: Annotated[int, typer.Option(
        help="OpenSpiel ISMCTS simulations a move in the default bots")] = 20,
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    jobs: Annotated[int, typer.Option("-j", "--jobs", help="worker processes")] = 1,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="NAME=VALUE",
        help="a game option (koloda games lists them)")] = None,
    log_dir: Annotated[Path | None, typer.Option(
        help="write each pair's arena log here (PAIR.jsonl), to rate again later")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the list as JSON")] = False,
) -> None:
    """The rating list of GAME: OpenSkill (Plackett–Luce) mu with mu ± 2 sigma."""
    from koloda import arena as a
    from koloda import ratings as r
    from koloda.bots import make_bot
    from koloda.engine.registry import get_spec
    try:
        spec = get_spec(game)
        n = spec.player_count(players)
        opts = _parse_options(option or [])
        spec.resolve_options(n, opts)
        names = [b.strip() for b in bots.split(",") if b.strip()] if bots \
            else default_bots(spec.name, ismcts)
        for b in names:
            make_bot(b, spec.name)
    except ConfigError as exc:
        _fail_config(exc, default_lang())
    if not log and deals is None:
        _fail("give arena logs (--log FILE) or a round-robin to run (--deals N --seed S)")
    rows: list[dict[str, Any]] = []
    source = []
    if log:
        from koloda.cli.arena_cmd import read_all
        try:
            logged = r.rows_of_logs(read_all(log))
        except a.LogError as exc:
            _fail(str(exc))
        if logged and logged[0]["name"] != spec.name:
            _fail(f"the logs are of {logged[0]['name']}, not {spec.name}")
        rows += logged
        source.append(f"{len(logged)} logged games")
    if deals is not None:
        if deals < 1:
            _fail("--deals must be at least 1")
        if len(set(names)) != len(names) or len(names) < 2:
            _fail("--bots: name at least two bots, each once")
        pairs = r.round_robin(spec.name, n, names, deals, seed, "deal", opts)
        if log_dir is not None:
            log_dir.mkdir(parents=True, exist_ok=True)
        total = sum(len(g) for _, g in pairs)
        with Progress("[progress.description]{task.description}", BarColumn(),
                      MofNCompleteColumn(), TimeElapsedColumn(), console=err,
                      disable=as_json or not err.is_terminal) as progress:
            task = progress.add_task(f"{spec.name} round-robin", total=total)
            for (x, y), games in pairs:
                out = (log_dir / f"{x}_vs_{y}.jsonl".replace(":", "-")).open(
                    "w", encoding="utf-8") if log_dir else None
                for res in a.run(games, max(1, jobs)):
                    rows.append(res.row)
                    if out:
                        out.write(json.dumps(res.row, ensure_ascii=False) + "\n")
                    progress.advance(task)
                if out:
                    out.close()
        source.append(f"a round-robin of {len(names)} bots, {deals} deal-sets a pair "
                      f"(seeds {seed}..{seed + deals - 1}), {total} games")
    if not rows:
        _fail("no complete deal-set to rate")
    players_at = len(rows[0]["lineup"])
    ranking = r.rate(rows)
    if as_json:
        print(json.dumps({"game": spec.name, "players": players_at, "games": len(rows),
                          "model": "openskill PlackettLuce",
                          "ratings": [x.to_json() for x in ranking]}, ensure_ascii=False))
        return
    table = Table(title=f"{spec.name}, {players_at} players: OpenSkill (Plackett–Luce) "
                        f"ratings from {'; '.join(source)}")
    for col in ("#", "bot", "mu", "mu ± 2σ", "games"):
        table.add_column(col)
    for k, rating in enumerate(ranking, 1):
        table.add_row(str(k), a.shown_name(rating.bot, rating.cheating), f"{rating.mu:.2f}",
                      f"[{rating.low:.2f}, {rating.high:.2f}]", str(rating.games))
    console.print(table)
