"""Show observations and results in a terminal (rich), for any game, in ru or en."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from koloda.cards import TEXT_CARD, format_card, suit_of
from koloda.engine.match import Match

_COLOURS = ("white", "green", "yellow", "red")  # ♠ ♣ ♦ ♥ — four colours, easy to tell apart


def card_text(word: str, lang: str = "en") -> Text:
    """A card word (``TH``) as a coloured ``10♥``; other words unchanged."""
    c = TEXT_CARD.get(word)
    if c is None:
        return Text(word)
    return Text(format_card(c, "symbol", lang), style=f"bold {_COLOURS[suit_of(c)]}")


def words_text(text: str, lang: str = "en") -> Text:
    out = Text()
    for i, w in enumerate(text.split(" ")):
        if i:
            out.append(" ")
        out.append_text(card_text(w, lang))
    return out


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
