"""Open the store a command's ``--db`` names, or say in one line why it cannot be opened.

Every command that takes ``--db`` (play, stats, history, replay, serve) opens it here
before it does anything else, so a wrong URL is said up front — never after a whole game —
as ``cannot open the store URL: <what is wrong>`` in the person's language: an unknown
kind of database, a URL that is not one, a folder that does not exist, a database driver
that is not installed; the database's own words only as a last resort, first line only,
without SQLAlchemy's "Background on this error" link.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from koloda.i18n import t

#: the package to install for a database driver module SQLAlchemy could not import
DRIVER_PACKAGES = {"psycopg": "psycopg[binary]", "psycopg2": "psycopg2-binary",
                   "pymysql": "pymysql", "MySQLdb": "mysqlclient", "asyncpg": "asyncpg"}


class StoreProblem(Exception):
    """Why the store cannot be opened, already said in the person's language."""


def _sqlite_path(url: str) -> Path | None:
    """The file of a ``sqlite:///PATH`` URL (None for memory or another database)."""
    if not url.startswith("sqlite:"):
        return None
    try:
        from sqlalchemy.engine import make_url
        database = make_url(url).database
    except Exception:   # a URL SQLAlchemy cannot read is said by the store's own error
        return None
    if not database or database == ":memory:":
        return None
    return Path(database)


def _sqlite_problem(path: Path, lang: str) -> str | None:
    """What is wrong with a SQLite file's place, as a person can fix it."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        return t("db_is_folder", lang, path=path)
    if not folder.exists():
        missing = folder
        while not missing.parent.exists() and missing.parent != missing:
            missing = missing.parent
        return t("db_no_folder", lang, path=missing)
    if not folder.is_dir():
        return t("db_not_folder", lang, path=folder)
    if not path.exists() and not os.access(folder, os.W_OK | os.X_OK):
        return t("db_folder_locked", lang, path=folder)
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return t("db_file_locked", lang, path=path)
    return None


def _database_words(cause: str) -> str:
    """The database's own message: its first line, without the driver's class in brackets
    and SQLAlchemy's link."""
    text = re.sub(r"\(Background on this error at: [^)]*\)", "", cause)
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), text.strip())
    return re.sub(r"^\([\w.]+\)\s*", "", first)


def problem(url: str, exc: BaseException, lang: str = "en") -> str:
    """``exc`` (raised opening the store at ``url``) as one sentence naming ``url``."""
    if isinstance(exc, ModuleNotFoundError):   # a database driver that is not installed
        package = DRIVER_PACKAGES.get(str(exc.name), exc.name)
        return t("store_driver", lang, url=url, module=exc.name, package=package)
    cause: Any = exc.__cause__ or exc
    kind = type(cause).__name__
    said = str(getattr(exc, "cause", None) or cause)
    if kind == "NoSuchModuleError" or "Can't load plugin" in said:
        scheme = url.split(":", 1)[0]
        why = t("db_unknown_kind", lang, kind=scheme)
    elif "Could not parse SQLAlchemy URL" in said:
        why = t("db_not_url", lang)
    else:
        path = _sqlite_path(url)
        why = (_sqlite_problem(path, lang) if path is not None else None) or \
            _database_words(said)
        if path is not None and "file is not a database" in said:
            why = t("db_not_database", lang, path=path)
    return t("store_open", lang, url=_without_password(url), reason=why)


def open_store(url: str | None, lang: str = "en") -> Any:
    """The store at ``url`` (the default one for None); ``StoreProblem`` if it cannot be
    opened."""
    from koloda.store import Store, StoreError
    from koloda.store.store import default_url
    where = url or default_url()
    try:
        return Store(url)
    except (ModuleNotFoundError, StoreError) as exc:
        raise StoreProblem(problem(where, exc, lang)) from None


def check_store(url: str | None, lang: str = "en") -> None:
    """Open and close the store at ``url``: ``StoreProblem`` if it cannot be opened."""
    open_store(url, lang).close()


def _without_password(url: str) -> str:
    """``url`` as it may be printed: a password in it replaced by ***."""
    from urllib.parse import urlsplit, urlunsplit
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return url
    if password is None:
        return url
    netloc = parts.netloc.replace(f":{password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
