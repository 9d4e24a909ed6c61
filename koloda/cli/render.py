"""Show observations and results in a terminal (rich), for any game, in ru or en."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from koloda.cards import SUIT_SYMBOLS, TEXT_CARD, format_card, suit_of
from koloda.i18n import label, value_word

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


def value_text(value: Any, lang: str = "en") -> Text:
    """Any JSON value, cards coloured; in Russian, field names and known words too."""
    if isinstance(value, str):
        said = value_word(value, lang)
        return words_text(said, lang) if said == value else Text(said)
    if lang == "ru" and (value is None or isinstance(value, bool)):
        return Text("—" if value is None else "да" if value else "нет")
    if isinstance(value, list):
        out = Text("[")
        for i, v in enumerate(value):
            if i:
                out.append(", ")
            out.append_text(value_text(v, lang))
        out.append("]")
        return out
    if isinstance(value, dict):
        out = Text("{")
        for i, (k, v) in enumerate(value.items()):
            if i:
                out.append(", ")
            out.append(f"{k if lang == 'en' else label(str(k), lang)}: ")
            out.append_text(value_text(v, lang))
        out.append("}")
        return out
    return Text(str(value))


_SKIP = {"game", "players", "seat"}


def observation_table(obs: Mapping[str, Any], lang: str = "en") -> Table:
    """Every field of an observation, cards coloured, the seat's hand first."""
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="dim")
    table.add_column()
    keys = sorted(obs, key=lambda k: (k != "hand", k == "sheet"))
    for key in keys:
        if key in _SKIP:
            continue
        table.add_row(key.replace("_", " ") if lang == "en" else label(key, lang),
                      value_text(obs[key], lang))
    return table


def show_result(console: Console, result: dict[str, Any], lang: str = "en",
                names: list[str] | None = None) -> None:
    """The result: winners, each seat's score, the durak, ranks; seats by name if given."""
    from koloda.i18n import t
    from koloda.tui.view import result_view
    console.print(f"[bold]{t('over', lang)}[/bold]")
    seats = names or [f"{t('seat', lang)} {i}" for i in range(len(result["scores"]))]
    console.print(result_view(result, seats, lang))


def suits_legend() -> str:
    return " ".join(SUIT_SYMBOLS)
