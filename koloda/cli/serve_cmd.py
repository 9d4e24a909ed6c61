"""``koloda serve``: the web server (lobby, tables, computer seats) on one port."""

from __future__ import annotations

from typing import Annotated

import typer

from koloda.cli.main import _fail, app


def _cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen there (the port taken, a bad address), or None —
    checked before the server starts, so the person reads one line, not a log."""
    import socket
    if not 0 < port < 65536:
        return "a port is a number 1..65535"
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        return str(exc.strerror or exc)
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            return str(exc.strerror or exc)
    return None


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
    problem = _cannot_listen(host, port)
    if problem:
        _fail(f"cannot listen on {host}:{port}: {problem}")
    web = create_app(db, bot_workers=bot_workers, bot_delay=bot_delay)
    typer.echo(f"koloda: http://{host}:{port}/  (database {web.state.manager.db_url})")
    uvicorn.run(web, host=host, port=port, log_level=log_level, ws_max_size=65536,
                ws_per_message_deflate=False)
