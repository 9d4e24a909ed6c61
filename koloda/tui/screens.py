"""The screens shown over the table: a score sheet (between deals or on request), the last
trick, and the final result."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any, ClassVar

from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from koloda.i18n import t
from koloda.present import present_sheet
from koloda.ranks import Rank
from koloda.tui.view import result_view, sheet_view

#: below this many columns a box over the table takes the whole width
NARROW = 100


def box_width(screen_width: int) -> int:
    """The width inside a box over the table (its border, padding and scroll bar off)."""
    outer = screen_width if screen_width < NARROW else min(110, screen_width * 9 // 10)
    return outer - 6


class Boxed(ModalScreen[str]):
    """A box over the table whose text scrolls (↑↓ PgUp PgDn) inside it, its keys line
    always under the text, on any size of screen; ``at_end``: opened scrolled to the end
    (a score sheet: the latest deal)."""

    DEFAULT_CSS = """
    Boxed { align: center middle; }
    Boxed > Vertical { width: 90%; max-width: 110; height: auto; max-height: 100%;
                       background: $surface; padding: 0 1; }
    Boxed.narrow > Vertical { width: 100%; }
    Boxed VerticalScroll { height: auto; }
    Boxed .keys { color: $text-muted; margin-top: 1; }
    """
    at_end = False
    keys = ""

    def on_mount(self) -> None:
        self.fit(self.app.size.width, self.app.size.height)
        self.call_after_refresh(self._opened)

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width, event.size.height)

    def fit(self, width: int, height: int) -> None:
        self.set_class(width < NARROW, "narrow")
        # the box's border (2), the keys line and the line above it (2)
        room = (height if width < NARROW else height * 9 // 10) - 4
        self.query_one(VerticalScroll).styles.max_height = max(3, room)

    def _opened(self) -> None:
        box = self.query_one(VerticalScroll)
        box.focus()
        if self.at_end:
            box.scroll_end(animate=False, immediate=True)
        keys = self.query_one(".keys", Static)
        if box.max_scroll_y > 0:        # more than the box shows: say how to see it
            keys.update(f"{self.keys} · {t('scroll_keys', getattr(self, 'lang', 'en'))}")


class InfoScreen(Boxed):
    """A box of text over the table; Enter or Esc closes it (returning "close")."""

    DEFAULT_CSS = """
    InfoScreen > Vertical { border: thick $accent; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", show=False), Binding("escape", "close", show=False),
        Binding("space", "close", show=False)]

    def __init__(self, title: str, body: RenderableType, keys: str, at_end: bool = False,
                 lang: str = "en") -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.keys = keys
        self.at_end = at_end
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = self.title_text
            with VerticalScroll():
                yield Static(self.body, id="info-body")
            yield Static(self.keys, id="info-keys", classes="keys")

    def action_close(self) -> None:
        self.dismiss("close")


def short_name(name: str) -> str:
    """A name for a narrow column: each long word cut to four letters («Computer 2» →
    «Comp. 2», «Компьютер 3» → «Комп. 3»); short names and marks as they are."""
    return " ".join(w[:4] + "." if len(w) > 5 and w.isalpha() else w for w in name.split(" "))


def fitted_sheet(sheet: Mapping[str, Any], names: list[str], lang: str, players: int,
                 width: int | None) -> RenderableType:
    """The score sheet drawn to ``width`` columns: the players' names in full where its
    tables fit, else cut short (a column per player stays readable); values broken over
    lines only when even that does not fit."""
    view = sheet_view(present_sheet(sheet, lang, names, players), lang)
    if width is None:
        return view
    console = Console(width=10_000, file=io.StringIO())     # its natural width, unwrapped
    if Measurement.get(console, console.options, view).maximum <= width:
        return view
    short = present_sheet(sheet, lang, [short_name(n) for n in names], players)
    view = sheet_view(short, lang)
    if Measurement.get(console, console.options, view).minimum <= width:
        return view
    return sheet_view(short, lang, whole_values=False)


def sheet_screen(sheet: Mapping[str, Any], names: list[str], lang: str, players: int,
                 title: str, tail: list[Text] | None = None,
                 keys: str | None = None, width: int | None = None) -> InfoScreen:
    """The game's own score sheet, opened at its end (the latest deal); ``tail``: the last
    moves of the deal just ended; ``width``: the screen's (names cut short to fit it)."""
    parts: list[RenderableType] = []
    if tail:
        parts.extend(tail)
        parts.append(Text(""))
    parts.append(fitted_sheet(sheet, names, lang, players,
                              None if width is None else box_width(width)))
    return InfoScreen(title, Group(*parts), keys or t("press_continue", lang), at_end=True,
                      lang=lang)


class ResultScreen(Boxed):
    """The end of the match: result, final sheet, ranks, where the record is."""

    DEFAULT_CSS = """
    ResultScreen > Vertical { border: thick $success; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "again", show=False), Binding("q", "quit_app", show=False),
        Binding("escape", "quit_app", show=False)]

    def __init__(self, result: dict[str, Any], sheet: Mapping[str, Any], names: list[str],
                 lang: str, players: int, notes: list[Text]) -> None:
        super().__init__()
        self.result = result
        self.sheet = sheet
        self.names = names
        self.lang = lang
        self.players = players
        self.notes = notes

    def compose(self) -> ComposeResult:
        lang = self.lang
        self.keys = t("result_keys", lang)
        body = Group(result_view(self.result), Text(""),
                     Text(t("sheet_title", lang), style="bold underline"),
                     fitted_sheet(self.sheet, self.names, lang, self.players,
                                  box_width(self.app.size.width)), Text(""),
                     *self.notes)
        with Vertical() as box:
            box.border_title = t("result_title", lang)
            with VerticalScroll():
                yield Static(body, id="result-body")
            yield Static(self.keys, id="result-keys", classes="keys")

    def action_again(self) -> None:
        self.dismiss("again")

    def action_quit_app(self) -> None:
        self.dismiss("quit")


def rules_screen(family: str, lang: str) -> InfoScreen:
    """The game's rules for players (koloda/rules/<family>.<lang>.md), as ``koloda rules``."""
    from importlib import resources

    from rich.markdown import Markdown
    try:
        text = resources.files("koloda.rules").joinpath(f"{family}.{lang}.md") \
            .read_text(encoding="utf-8")
        body: RenderableType = Markdown(text)
    except (FileNotFoundError, OSError):
        body = Text(t("no_rules", lang), style="dim")
    return InfoScreen(t("rules_title", lang), body, t("press_close", lang), lang=lang)


def rank_name(rank: Rank | None, lang: str) -> str:
    if rank is None:
        return t("no_rank", lang)
    return rank.ru if lang == "ru" else rank.en
