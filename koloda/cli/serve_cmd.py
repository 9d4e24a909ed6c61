"""``koloda serve``: the web server (lobby, tables, computer seats) on one port."""

from __future__ import annotations

from typing import Annotated

import typer

from koloda.cli.main import _fail, app


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[str | None, typer.Option(
        help="SQLAlchemy database URL (default: the store's SQLite file, or $KOLODA_DB)")]
    = None,
    bot_workers: Annotated[int, typer.Option(
        help="processes computer players think in (0: threads)")] = 2,
    bot_delay: Annotated[float, typer.Option(
        help="least seconds a computer move takes, so people can follow it")] = 0.8,
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "info",
) -> None:
    """Play in the browser: open http://HOST:PORT/ and create a table."""
    try:
        import uvicorn

        from koloda.web.app import create_app
    except ModuleNotFoundError as exc:
        _fail(f"the web server needs {exc.name}: pip install 'koloda[web]' "
              f"(fastapi, uvicorn[standard])")
    if bot_workers < 0 or bot_delay < 0:
        _fail("--bot-workers and --bot-delay must not be negative")
    web = create_app(db, bot_workers=bot_workers, bot_delay=bot_delay)
    typer.echo(f"koloda: http://{host}:{port}/  (database {web.state.manager.db_url})")
    uvicorn.run(web, host=host, port=port, log_level=log_level, ws_max_size=65536,
                ws_per_message_deflate=False)
