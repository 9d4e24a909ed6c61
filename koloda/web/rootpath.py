"""Serving under a path prefix behind a proxy (``koloda serve --root-path /koloda``).

The proxy takes ``https://cards.example/koloda/…`` and passes ``/…`` on (nginx
``location /koloda/ { proxy_pass http://koloda_up/; }``); uvicorn's ``root_path`` lets
the routes match, and every address the server and the pages make starts with the
prefix. One mechanism carries it to the browser: each HTML page is served with its
site paths (``="/…``) prefixed and ``<meta name="koloda-root" content="/koloda">``, which
``static/js/common.js`` reads once (``url()``, ``wsUrl()``, ``here()``); every fetch, link
and websocket of the pages goes through those. Without a root path (``""``) the pages
are the files as they are.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from fastapi.responses import FileResponse, HTMLResponse, Response

ROOT_META = "koloda-root"

# a prefix of path segments: letters, digits and - . _ ~ (no "..", no empty segment)
_SEGMENT = re.compile(r"[A-Za-z0-9._~-]+")


def check_root_path(value: str) -> str:
    """``/koloda`` (or ``/games/koloda``): "" for none; anything that could not be a
    prefix of the served paths (no leading "/", a trailing "/", "..", spaces, a query)
    is a ValueError naming the option."""
    if value in ("", "/"):
        return ""
    segments = value.split("/")
    if (not value.startswith("/") or value.endswith("/")
            or not all(_SEGMENT.fullmatch(s) and s not in (".", "..") for s in segments[1:])):
        raise ValueError(f"--root-path: {value!r} is not a path prefix like /koloda "
                         f"(starts with /, no / at the end, segments of letters, digits "
                         f"and - . _ ~, no . or ..)")
    return value


def root_of(conn: Any) -> str:
    """The prefix of the app a request or websocket came to ("" for none)."""
    root: str = getattr(conn.app.state, "root_path", "")
    return root


@lru_cache(maxsize=32)
def _page_text(path: str, root: str) -> str:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = text.replace('="/', f'="{root}/')
    return text.replace('<meta charset="utf-8">',
                        f'<meta charset="utf-8">\n<meta name="{ROOT_META}" content="{root}">', 1)


def page(path: str, root: str, status_code: int = 200) -> Response:
    """The HTML page at ``path`` for an app served under ``root``: the file itself where
    there is no prefix, else the file with its site paths prefixed and the root in a
    meta tag."""
    if not root:
        return FileResponse(path, status_code=status_code)
    return HTMLResponse(_page_text(path, root), status_code=status_code)
