"""``koloda serve``: the web server (lobby, tables, computer seats) on one port."""

from __future__ import annotations

from typing import Annotated, Any

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
        help="SQLAlchemy database URL (default: the store's SQLite file, or $KOLODA_DB); "
             "postgresql://… for many servers")]
    = None,
    redis: Annotated[str | None, typer.Option(
        help="redis://… : one of many servers on one PostgreSQL (--db) and this Redis, "
             "behind one address")] = None,
    reuse_port: Annotated[bool, typer.Option(
        help="share the port with other servers on this machine (SO_REUSEPORT: the "
             "kernel spreads connections over them)")] = False,
    bot_workers: Annotated[int, typer.Option(
        help="processes computer players think in (0: threads)")] = 2,
    bot_delay: Annotated[float, typer.Option(
        help="least seconds a computer move takes, so people can follow it")] = 0.8,
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "info",
    forwarded_allow_ips: Annotated[str, typer.Option(
        help="addresses of the proxies whose X-Forwarded-For/-Proto are believed "
             "(comma-separated, * for any)")] = "127.0.0.1",
    public_origin: Annotated[str | None, typer.Option(
        help="the address people open, behind a proxy (https://cards.example): the "
             "origin the sign-in and websocket checks expect, whatever Host the proxy "
             "sends")] = None,
    root_path: Annotated[str, typer.Option(
        help="the path prefix people open the server under, behind a proxy that strips "
             "it (/koloda for https://cards.example/koloda/): every page, link, cookie "
             "and websocket the server makes starts with it")] = "",
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
    problem = _cluster_problem(db, redis)
    if problem:
        _fail(problem)
    from koloda.cli.store_open import StoreProblem, check_store
    try:
        check_store(db)
    except StoreProblem as exc:
        _fail(str(exc))
    sock = None
    if reuse_port:
        try:
            sock = _shared_socket(host, port)
        except OSError as exc:
            _fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
    else:
        problem = _cannot_listen(host, port)
        if problem:
            _fail(f"cannot listen on {host}:{port}: {problem}")
    if public_origin is not None:
        from koloda.web.app import check_public_origin
        try:
            public_origin = check_public_origin(public_origin)
        except ValueError as exc:
            _fail(str(exc))
    from koloda.web.rootpath import check_root_path
    try:
        root_path = check_root_path(root_path)
    except ValueError as exc:
        _fail(str(exc))
    web = create_app(db, bot_workers=bot_workers, bot_delay=bot_delay, redis_url=redis,
                     public_origin=public_origin, root_path=root_path)
    shown = _without_password(web.state.manager.db_url)
    typer.echo(f"koloda: http://{host}:{port}/  (database {shown}"
               + (f", served under {root_path}/" if root_path else "")
               + (f", one of many servers on {_without_password(redis)})" if redis else ")"))
    config = uvicorn.Config(web, host=host, port=port, log_level=log_level,
                            ws_max_size=65536, ws_per_message_deflate=False,
                            proxy_headers=True, forwarded_allow_ips=forwarded_allow_ips,
                            root_path=root_path)
    uvicorn.Server(config).run(sockets=None if sock is None else [sock])


def _cluster_problem(db: str | None, redis: str | None) -> str | None:
    """Why these --db/--redis cannot make many servers (None: they can, or one alone)."""
    if redis is None:
        return None
    if not redis.startswith(("redis://", "rediss://", "unix://")):
        return f"--redis must be a redis:// URL, not {redis!r}"
    if db is None or not db.startswith(("postgresql", "postgres://")):
        return ("--redis needs --db postgresql://…: many servers share one PostgreSQL "
                "(SQLite is for one server alone)")
    for module, package in (("redis", "redis"), ("psycopg", "psycopg[binary]")):
        try:
            __import__(module)
        except ModuleNotFoundError:
            return f"many servers need {package}: pip install 'koloda[cluster]'"
    return None


def _shared_socket(host: str, port: int) -> Any:
    """A listening socket other processes may listen on too (SO_REUSEPORT)."""
    import socket
    family, kind, proto, _, address = socket.getaddrinfo(host, port,
                                                         type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(address)
    sock.set_inheritable(True)
    return sock


def _without_password(url: str) -> str:
    """``url`` as it may be printed: a password in it replaced by ***."""
    from urllib.parse import urlsplit, urlunsplit
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
