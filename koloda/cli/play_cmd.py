"""``koloda play``: a person against computer seats in the terminal."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from koloda.cli.main import _fail, _parse_options, app, console
from koloda.engine.errors import ConfigError, RecordError
from koloda.engine.registry import new_game, registry
from koloda.i18n import check_lang


@app.command()
def play(
    game: Annotated[str | None, typer.Argument(help="game name; omit for a menu")] = None,
    variant: Annotated[str | None, typer.Option(help="variant of the game")] = None,
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    seat: Annotated[int, typer.Option(help="your seat (0-based)")] = 0,
    bots: Annotated[str, typer.Option(help="bot for the other seats")] = "random",
    seed: Annotated[int | None, typer.Option(help="deal seed")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o",
                                                     help="name=value")] = None,
    lang: Annotated[str | None, typer.Option(help="ru or en")] = None,
    resume: Annotated[Path | None, typer.Option(help="continue a saved game")] = None,
    line: Annotated[bool, typer.Option("--line", help="line mode instead of the TUI")] = False,
) -> None:
    """Play against computer seats in the terminal."""
    from koloda.cli.play import autosave_dir, play_loop
    from koloda.cli.play import resume as resume_game
    try:
        language = check_lang(lang)
    except ValueError as exc:
        _fail(str(exc))
        raise
    if resume is not None:
        try:
            match, seats = resume_game(resume)
        except (RecordError, ValueError) as exc:
            _fail(f"cannot resume {resume}: {exc}")
        path = resume
    else:
        if game is None:
            game = _menu(language)
        try:
            from koloda.bots import make_bot
            make_bot(bots)
            match = new_game(game, players=players, variant=variant, seed=seed,
                             **_parse_options(option or []))
        except ConfigError as exc:
            _fail(str(exc))
        if not 0 <= seat < match.players:
            _fail(f"--seat {seat}: seats are 0..{match.players - 1}")
        seats = [{"name": "You" if language == "en" else "Вы", "kind": "human"} if i == seat else
                 {"name": f"Bot {i}", "kind": "bot", "bot": bots} for i in range(match.players)]
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = autosave_dir() / f"{match.spec.name}-{stamp}-{match.seed}.json"
    raise typer.Exit(play_loop(match, seats, path, language, console))


def _menu(lang: str) -> str:
    specs = list(registry().values())
    for i, s in enumerate(specs, 1):
        console.print(f"{i:>3}. {s.title_ru if lang == 'ru' else s.title_en} ({s.name})")
    answer = typer.prompt("#")
    if answer.isdigit() and 1 <= int(answer) <= len(specs):
        return specs[int(answer) - 1].name
    return answer
