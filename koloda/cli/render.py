"""Show observations and results in a terminal (rich), for any game, in ru or en."""

from __future__ import annotations

from rich.console import Console

from koloda.engine.match import Match
from koloda.tui.view import card_text, words_text

__all__ = ["card_text", "show_result", "words_text"]

def show_result(console: Console, match: Match, lang: str = "en",
                names: list[str] | None = None) -> None:
    """The finished match's result: winners, each seat's score and what the game adds (the
    durak, ranks, the pot); seats by name if given."""
    from koloda.i18n import t
    from koloda.present import present_result
    from koloda.tui.view import result_view
    assert match.result is not None
    console.print(f"[bold]{t('over', lang)}[/bold]")
    console.print(result_view(present_result(match.result.to_json(), match.spec.name, lang,
                                             names)))
