"""The koloda terminal app: the start screen, then the table, then the result, again."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console
from textual.app import App

from koloda.engine.registry import new_game
from koloda.tui.session import Session, make_seats, resume
from koloda.tui.start import StartForm, StartScreen, unfinished_games
from koloda.tui.table import TableScreen


class KolodaApp(App[str | None]):
    """``session`` given: straight to the table; else the start screen first.

    ``bot_delay``: seconds between computer moves (0 in tests: they move at once)."""

    TITLE = "koloda"

    def __init__(self, session: Session | None = None, lang: str = "en", *,
                 player_name: str = "Player", store_url: str | None = None,
                 use_store: bool = True, bot_delay: float = 0.4,
                 form: StartForm | None = None) -> None:
        super().__init__()
        self.session = session
        self.lang = lang
        self.player_name = player_name
        self.store_url = store_url
        self.use_store = use_store
        self.bot_delay = bot_delay
        self.form = form
        self.can_restart = True

    def on_mount(self) -> None:
        if self.session is not None:
            self.push_screen(TableScreen(self.session, self.lang, self.bot_delay))
        else:
            self.push_screen(StartScreen(self.new_form()))

    def new_form(self) -> StartForm:
        if self.form is not None:
            form, self.form = self.form, None
            form.resumable = form.resumable or unfinished_games()
            return form
        spec_name, players, seats = "", 0, []
        if self.session is not None:   # "new game" after a match: start from the same one
            m = self.session.match
            spec_name, players = m.spec.name, m.players
            seats = ["human" if s.get("kind") == "human" else s.get("bot", "random")
                     for s in self.session.seats]
        return StartForm(lang=self.lang, name=self.player_name, spec_name=spec_name,
                         players=players, seats=seats, resumable=unfinished_games())

    # ---------------------------------------------------- from the start
    def start_game(self, form: StartForm) -> None:
        self.lang = form.lang
        self.player_name = form.name
        match = new_game(form.spec.name, players=form.players, **form.changed_options())
        human = form.seats.index("human")
        bots = [s for s in form.seats if s != "human"]
        seats = make_seats(match.players, human, bots, form.name, form.lang)
        self.begin(Session(match, seats, store_url=self.store_url, use_store=self.use_store))

    def resume_game(self, path: Path) -> None:
        match, seats = resume(path)
        self.begin(Session(match, seats, path, store_url=self.store_url,
                           use_store=self.use_store))

    def begin(self, session: Session) -> None:
        self.session = session
        self.switch_screen(TableScreen(session, self.lang, self.bot_delay))

    def restart(self) -> None:
        self.switch_screen(StartScreen(self.new_form()))

    # ------------------------------------------------------- captures
    def export_text(self) -> str:
        """The screen as plain text (what ``export_screenshot`` draws as SVG)."""
        width, height = self.size
        console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                          color_system="truecolor", record=True, legacy_windows=False,
                          safe_box=False)
        console.print(self.screen._compositor.render_update(
            full=True, screen_stack=self._background_screens))
        return "\n".join(line.rstrip() for line in console.export_text().splitlines())
