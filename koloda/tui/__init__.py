"""The full-screen terminal interface (Textual). ``run`` starts it; it renders observations
and applies legal actions, and contains no game rule."""

from __future__ import annotations

from typing import Any


def run(**kwargs: Any) -> str | None:
    """Start the app (see ``koloda.tui.app.KolodaApp``); returns the last record path."""
    from koloda.tui.app import KolodaApp
    return KolodaApp(**kwargs).run()
