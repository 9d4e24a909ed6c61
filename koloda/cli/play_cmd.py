"""``koloda play``: a person against computer seats in the terminal.

The full-screen TUI when stdin and stdout are a terminal, else (or with ``--line``) the
line mode. Without a game name the TUI opens its start screen (the line mode a menu).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from koloda.cli.main import LangOption, _fail, _fail_config, _parse_options, app, console
from koloda.engine.errors import ConfigError, IllegalAction, RecordError
from koloda.engine.match import Match
from koloda.engine.registry import get_spec, new_game, registry
from koloda.i18n import check_lang, reason, t


@app.command()
def play(
    game: Annotated[str | None, typer.Argument(help="game name; omit for the start screen")]
    = None,
    variant: Annotated[str | None, typer.Option(help="variant of the game")] = None,
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    seat: Annotated[int, typer.Option(help="your seat (0-based)")] = 0,
    bots: Annotated[str | None, typer.Option(
        help="computer players for the other seats: one for all or comma-separated "
             "(random, heuristic, search:easy|normal|hard …); default: heuristic where the "
             "game has one, else random")]
    = None,
    seed: Annotated[int | None, typer.Option(help="deal seed")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="NAME=VALUE",
        help="a game option (koloda games lists them)")] = None,
    lang: LangOption = None,
    resume: Annotated[Path | None, typer.Option(help="continue a saved game")] = None,
    line: Annotated[bool, typer.Option("--line", help="line mode instead of the TUI")] = False,
    name: Annotated[str | None, typer.Option(help="your player name (profile, ranks)")] = None,
    db: Annotated[str | None, typer.Option(help="database URL of the store "
                                                "(default: SQLite in the data directory)")]
    = None,
    no_store: Annotated[bool, typer.Option("--no-store",
                                           help="do not keep the game in the store")] = False,
    delay: Annotated[float, typer.Option(help="seconds between computer moves in the TUI")]
    = 0.4,
) -> None:
    """Play against computer seats in the terminal (TUI, or --line)."""
    from koloda.tui.session import Session, default_bot, default_player_name, make_seats
    from koloda.tui.session import resume as resume_game
    try:
        language = check_lang(lang)
    except ValueError as exc:
        _fail(str(exc))
    person = name or default_player_name()
    use_tui = not line and sys.stdout.isatty() and sys.stdin.isatty()
    if not no_store:    # a store that cannot be opened is said now, not after the game
        from koloda.cli.store_open import StoreProblem, check_store
        try:
            check_store(db, language)
        except StoreProblem as exc:
            _fail(str(exc), lang=language)
    if resume is not None:
        try:
            match, seats = resume_game(resume)
        except (RecordError, IllegalAction, ValueError) as exc:
            _fail(t("cannot_resume", language, path=resume, reason=reason(exc, language)),
                  lang=language)
        _check_resumed(match, seats, resume, game, variant, language)
        try:
            session = Session(match, seats, resume, store_url=db, use_store=not no_store)
        except ConfigError as exc:   # a seat names a bot this koloda does not have
            _fail(t("cannot_resume", language, path=resume, reason=reason(exc, language)),
                  lang=language)
    else:
        if game is None:
            if use_tui:
                _run_tui(None, language, person, db, no_store, delay)
                return
            game = _menu(language)
        try:
            spec = get_spec(game, variant)
            n = spec.player_count(players)
            names = [b.strip() for b in (bots or default_bot(spec.name)).split(",")
                     if b.strip()]
            from koloda.bots import make_bot
            for b in names:
                make_bot(b, spec.name)
            match = new_game(spec.name, players=n, seed=seed,
                             **_parse_options(option or [], language))
        except ConfigError as exc:
            _fail_config(exc, language)
        if not 0 <= seat < match.players:
            _fail(t("bad_seat", language, seat=seat, last=match.players - 1), lang=language)
        seats = make_seats(match.players, seat, names, person, language)
        session = Session(match, seats, store_url=db, use_store=not no_store)
    if use_tui:
        _run_tui(session, language, person, db, no_store, delay)
        return
    from koloda.cli.play import play_loop
    raise typer.Exit(play_loop(session, language, console))


def _check_resumed(match: Match, seats: list[dict[str, Any]], path: Path, game: str | None,
                   variant: str | None, lang: str) -> None:
    """Refuse to resume a record as another game than its own, or one that is over (its
    result is shown, and how to replay it)."""
    if game is not None or variant is not None:
        try:
            asked = get_spec(game or match.spec.family, variant).name
        except ConfigError as exc:
            _fail_config(exc, lang)
        if asked != match.spec.name:
            _fail(t("cannot_resume", lang, path=path,
                    reason=t("resume_other_game", lang, game=match.spec.name, asked=asked)),
                  lang=lang)
    if match.is_over:
        from koloda.cli.render import show_result
        show_result(console, match, lang, [str(s.get("name") or f"{i + 1}")
                                           for i, s in enumerate(seats)])
        _fail(t("cannot_resume", lang, path=path, reason=t("resume_over", lang, path=path)),
              lang=lang)


def _run_tui(session: object, lang: str, person: str, db: str | None, no_store: bool,
             delay: float) -> None:
    from koloda.tui.app import KolodaApp
    tui = KolodaApp(session, lang, player_name=person, store_url=db,  # type: ignore[arg-type]
                    use_store=not no_store, bot_delay=delay)
    tui.run()
    last = tui.session   # however the app ended, the record is on disk: say where
    if last is not None:
        key = "autosaved" if last.match.is_over else "quit_saved"
        console.print(t(key, tui.lang, path=last.path))


def _menu(lang: str) -> str:
    specs = list(registry().values())
    for i, s in enumerate(specs, 1):
        console.print(f"{i:>3}. {s.title_ru if lang == 'ru' else s.title_en} ({s.name})")
    answer = typer.prompt("#")
    if answer.isdigit() and 1 <= int(answer) <= len(specs):
        return specs[int(answer) - 1].name
    return answer
