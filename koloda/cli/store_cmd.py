"""``koloda stats``, ``koloda history`` and ``koloda replay ID``: the local store.

``replay`` is registered again here so that it takes either a record file (as before) or
the id of a stored game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from koloda.cli.main import LangOption, _fail, app, console, replay_cmd
from koloda.engine.errors import IllegalAction, RecordError
from koloda.engine.messages import render_reason
from koloda.engine.records import load_record
from koloda.i18n import check_lang, reason, t
from koloda.tui.view import action_text

DbOption = Annotated[str | None, typer.Option(
    "--db", help="database URL (default: SQLite in the data directory)")]


def _open(db: str | None, lang: str = "en") -> Any:
    from koloda.cli.store_open import StoreProblem, open_store
    try:
        return open_store(db, lang)
    except StoreProblem as exc:
        _fail(str(exc), lang=lang)


def _lang(lang: str | None) -> str:
    try:
        return check_lang(lang)
    except ValueError as exc:
        _fail(str(exc))


def _rank(rank_id: str | None, lang: str) -> str:
    from koloda.ranks import RANK_BY_ID
    if not rank_id:
        return t("no_rank", lang)
    r = RANK_BY_ID[rank_id]
    return r.ru if lang == "ru" else r.en


def _result_text(g: Any, lang: str) -> str:
    if not g.winners:
        return t("draw_short", lang)
    return ", ".join(g.names[w] for w in g.winners)


def _title(game: str, lang: str) -> str:
    from koloda.engine.registry import registry
    spec = registry().get(game)
    if spec is None:
        return game
    return spec.title_ru if lang == "ru" else spec.title_en


@app.command()
def stats(
    player: Annotated[str | None, typer.Argument(help="a player's name; omit for everyone")]
    = None,
    db: DbOption = None,
    lang: LangOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable")] = False,
) -> None:
    """A player's games, results and Opendaum-33 rank (разряд); or every player."""
    language = _lang(lang)
    store = _open(db, language)
    names = [player] if player else store.player_names()
    found = [s for s in (store.stats(n) for n in names) if s is not None]
    if player and not found:
        if as_json:
            print(json.dumps({"error": f"no player {player!r}"}, ensure_ascii=False))
        else:
            console.print(t("no_player", language, name=player))
        raise typer.Exit(1)
    if as_json:
        print(json.dumps([s.to_json() for s in found] if not player else found[0].to_json(),
                         ensure_ascii=False))
        return
    if not found:
        console.print(t("no_games", language))
        return
    if not player:
        table = Table()
        for col in ("players", "col_played", "col_won", "col_rank"):
            table.add_column(t(col, language) if col != "players" else
                             t("players", language))
        for s in found:
            table.add_row(s.name, str(sum(g.played for g in s.games)),
                          str(sum(g.won for g in s.games)),
                          _rank(s.rank.id if s.rank else None, language))
        console.print(table)
        return
    s = found[0]
    console.print(Text(f"{s.name} — {t('col_rank', language)}: "
                       f"{_rank(s.rank.id if s.rank else None, language)}", style="bold"))
    table = Table(title=t("stats_of", language, name=s.name))
    for col in ("col_game", "col_played", "col_won", "col_lost", "col_drawn", "col_mean"):
        table.add_column(t(col, language))
    for g in s.games:
        table.add_row(_title(g.game, language), str(g.played), str(g.won), str(g.lost),
                      str(g.drawn), f"{g.mean_score:g}")
    console.print(table)
    if s.rank_history:
        ranks = Table(title=t("rank_history", language))
        for col in ("col_id", "col_total", "col_earned", "col_held"):
            ranks.add_column(t(col, language))
        for r in s.rank_history:
            ranks.add_row(str(r["game_id"]), f"{r['total']:g}", _rank(r["earned"], language),
                          f"{_rank(r['before'], language)} → {_rank(r['after'], language)}")
        console.print(ranks)
    if s.recent:
        _history_table(s.recent, language)


def _history_table(games: list[Any], lang: str) -> None:
    table = Table()
    for col in ("col_id", "col_date", "col_game", "col_players", "col_result"):
        table.add_column(t(col, lang))
    table.add_column(t("col_scores", lang))
    for g in games:
        table.add_row(str(g.id), g.finished.strftime("%Y-%m-%d %H:%M"), _title(g.game, lang),
                      ", ".join(g.names), _result_text(g, lang),
                      " ".join(f"{x:g}" for x in g.scores))
    console.print(table)


@app.command()
def history(
    player: Annotated[str | None, typer.Option(help="only games of this player")] = None,
    game: Annotated[str | None, typer.Option(help="only games of this kind")] = None,
    limit: Annotated[int, typer.Option(help="how many, newest first")] = 50,
    db: DbOption = None,
    lang: LangOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable")] = False,
) -> None:
    """Stored games, newest first (replay one with: koloda replay ID)."""
    language = _lang(lang)
    store = _open(db, language)
    games = store.history(limit, player=player, game=game)
    if as_json:
        print(json.dumps([g.to_json() for g in games], ensure_ascii=False))
        return
    if not games:
        console.print(t("no_games", language))
        return
    _history_table(games, language)


def replay(
    target: Annotated[str, typer.Argument(help="a record file, or the id of a stored game")],
    as_json: Annotated[bool, typer.Option("--json", help="print the replay object")] = False,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Replay a record file or a stored game, checking every move (exit 2 if one fails).

    Every move by the players' names, the result, and whether every action and the
    written result hold."""
    language = _lang(lang)
    stored: int | None = None
    if not target.isdigit() or Path(target).exists():
        try:
            record = load_record(Path(target))
        except RecordError as exc:
            if as_json:
                print(json.dumps({"error": {"field": "file", "reason": str(exc)}},
                                 ensure_ascii=False))
                raise typer.Exit(2) from None
            _fail(f"{target}: {reason(exc, language)}", lang=language)
    else:
        stored = int(target)
        found = _open(db, language).record(stored)
        if found is None:
            if as_json:
                print(json.dumps({"error": {"field": "id",
                                            "reason": f"no stored game {target}"}}))
                raise typer.Exit(2)
            _fail(t("no_stored_game", language, id=target), lang=language)
        record = found
    from koloda.engine.records import replay as replay_record
    rep = replay_record(record, keep_steps=as_json)
    if as_json:
        extra = {} if stored is None else {"id": stored}
        print(json.dumps(rep.to_json() | extra, ensure_ascii=False))
        raise typer.Exit(0 if rep.ok else 2)
    names = seat_names(record)
    if rep.match is not None:
        _show_moves(record, names, language)
        if rep.match.result is not None:
            from koloda.cli.render import show_result
            show_result(console, rep.match, language, names)
    if rep.error is not None:
        _fail(replay_error(rep.error, record, names, language), lang=language)
    console.print(f"[green]{t('record_verified', language)}[/green]")


def seat_names(record: dict[str, Any]) -> list[str]:
    """The players' names as the record's seats give them (``Player N`` where missing)."""
    given = record.get("seats")
    seats: list[Any] = given if isinstance(given, list) else []
    names = [str(s.get("name") or f"Player {i + 1}") if isinstance(s, dict)
             else f"Player {i + 1}" for i, s in enumerate(seats)]
    players = record.get("players")
    n = players if isinstance(players, int) and 0 < players < 64 else len(names)
    return (names + [f"Player {i + 1}" for i in range(len(names), n)])[:max(n, 0)]


def replay_error(error: dict[str, Any], record: dict[str, Any], names: list[str],
                 lang: str) -> str:
    """A replay's first error as a sentence: which move, by whom, and why."""
    why = render_reason(error.get("reason", ""), lang)
    index = error.get("index")
    if not isinstance(index, int):
        return t("record_broken", lang, reason=why)
    actions = record.get("actions") or []
    seat = actions[index].get("seat") if index < len(actions) else None
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    return t("move_refused", lang, n=index + 1, who=who,
             action=action_text(str(error.get("action", "")), lang).plain, reason=why)


def _show_moves(record: dict[str, Any], names: list[str], lang: str) -> None:
    """Every move of a game, deal by deal, with the seats' names."""
    from koloda.engine.records import from_record
    match = from_record(record)
    console.rule(f"{_title(record['game'], lang)} — {', '.join(names)}")
    deal = 0
    console.print(Text(t("deal_n", lang, n=1), style="cyan"))
    for a in record["actions"]:
        if match.is_over:
            break
        seat = match.to_move
        try:
            match.apply(a["action"])
        except IllegalAction:
            break   # the replay below reports it
        line = Text(f"  {names[seat] if seat is not None else '?'}: ")
        line.append_text(action_text(a["action"], lang))
        console.print(line)
        if len(match.deals) - 1 != deal and not match.is_over:
            deal = len(match.deals) - 1
            console.print(Text(t("deal_n", lang, n=deal + 1), style="cyan"))


# ``koloda replay`` takes a file or a stored game's id: this command replaces the first
app.registered_commands[:] = [c for c in app.registered_commands
                              if c.name != "replay" and c.callback is not replay_cmd]
app.command("replay")(replay)
