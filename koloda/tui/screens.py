"""The screens shown over the table: a score sheet (between deals or on request), the last
trick, and the final result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from koloda.i18n import t
from koloda.present import present_sheet
from koloda.ranks import Rank
from koloda.tui.view import result_view, sheet_view


class InfoScreen(ModalScreen[str]):
    """A box of text over the table; Enter or Esc closes it (returning "close")."""

    DEFAULT_CSS = """
    InfoScreen { align: center middle; }
    InfoScreen > Vertical { width: 90%; max-width: 110; height: auto; max-height: 90%;
                            border: thick $accent; background: $surface; padding: 0 1; }
    InfoScreen VerticalScroll { height: auto; max-height: 30; }
    InfoScreen #info-keys { color: $text-muted; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", show=False), Binding("escape", "close", show=False),
        Binding("space", "close", show=False)]

    def __init__(self, title: str, body: RenderableType, keys: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.keys = keys

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = self.title_text
            with VerticalScroll():
                yield Static(self.body, id="info-body")
            yield Static(self.keys, id="info-keys")

    def action_close(self) -> None:
        self.dismiss("close")


def sheet_screen(sheet: Mapping[str, Any], names: list[str], lang: str, players: int,
                 title: str, tail: list[Text] | None = None,
                 keys: str | None = None) -> InfoScreen:
    """The game's own score sheet; ``tail``: the last moves of the deal just ended."""
    parts: list[RenderableType] = []
    if tail:
        parts.extend(tail)
        parts.append(Text(""))
    parts.append(sheet_view(present_sheet(sheet, lang, names, players), lang))
    return InfoScreen(title, Group(*parts), keys or t("press_continue", lang))


class ResultScreen(ModalScreen[str]):
    """The end of the match: result, final sheet, ranks, where the record is."""

    DEFAULT_CSS = """
    ResultScreen { align: center middle; }
    ResultScreen > Vertical { width: 90%; max-width: 110; height: auto; max-height: 95%;
                              border: thick $success; background: $surface; padding: 0 1; }
    ResultScreen VerticalScroll { height: auto; max-height: 32; }
    ResultScreen #result-keys { color: $text-muted; margin-top: 1; }
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
        body = Group(result_view(self.result), Text(""),
                     Text(t("sheet_title", lang), style="bold underline"),
                     sheet_view(present_sheet(self.sheet, lang, self.names, self.players),
                                lang), Text(""),
                     *self.notes)
        with Vertical() as box:
            box.border_title = t("result_title", lang)
            with VerticalScroll():
                yield Static(body, id="result-body")
            yield Static(t("result_keys", lang), id="result-keys")

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
    return InfoScreen(t("rules_title", lang), body, t("press_close", lang))


def rank_name(rank: Rank | None, lang: str) -> str:
    if rank is None:
        return t("no_rank", lang)
    return rank.ru if lang == "ru" else rank.en
