"""The table: one screen for every game, drawn from the person's observation.

Keys: ←→ move along the hand, Space marks cards (moves of several cards), Enter plays the
marked cards or the card under the cursor; ↑↓ move the highlight in the list of moves
(bids, take, pass …) and Enter plays it; the list of any length is shown a page of ten at
a time (PgUp/PgDn; the number keys 1-9, 0 choose on the page) and ``/`` filters it by what
one types; h asks the strongest computer player for a hint; l shows the last trick (in
Durak the last round), s the score sheet, r the rules, q saves and quits.
Computer seats move on a timer so a person can follow them; every action is written to
the record at once (Session), so quitting never loses a game.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, ClassVar

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, RichLog, Static

from koloda.engine.errors import IllegalAction
from koloda.engine.terms import BOTS, term
from koloda.i18n import reason, t
from koloda.moves import MoveChooser
from koloda.present import present_result
from koloda.tui.chronicle import Chronicle, Event, display_after, replay
from koloda.tui.screens import InfoScreen, ResultScreen, rank_name, rules_screen, sheet_screen
from koloda.tui.session import Session
from koloda.tui.view import (
    action_text,
    card_text,
    centre,
    extra_lines,
    hand_text,
    heading,
    info_line,
    last_round_view,
    last_trick_view,
    players_table,
    present,
    reason_text,
    seat_name,
    sort_hand,
)


def bot_word(name: str, lang: str) -> str:
    """A kind of computer player in the one vocabulary (terms.BOTS)."""
    en, ru = BOTS.get(name, (name, name))
    return ru if lang == "ru" else en


#: below this many columns the log of moves folds away; below TINY the keys line names
#: how to quit first
NARROW, TINY = 100, 80
#: from this many columns the log of moves is wider (a larger terminal uses the room)
WIDE = 140
#: the log's width (the side panel), by the screen's class
SIDE = {"narrow": 0, "normal": 36, "wide": 52}
#: lines of moves shown at once (the Moves panel's max-height less its border)
MENU_LINES = 7
#: moves shown at once in the Moves panel: one per digit key (1-9, 0)
PAGE = 10


class TableScreen(Screen[None]):
    DEFAULT_CSS = """
    TableScreen #title { height: 1; background: $primary-background; color: $text;
                         text-style: bold; padding: 0 1; }
    TableScreen #body { height: 1fr; }
    TableScreen #main { width: 1fr; }
    TableScreen #table { height: auto; border: round $primary; padding: 0 1; }
    TableScreen #table.hidden { display: none; }
    TableScreen #centre { height: auto; }
    TableScreen #gap { height: 0; }
    TableScreen #side { width: 36; border: round $secondary; }
    TableScreen.narrow #side { display: none; }
    TableScreen.wide #side { width: 52; }
    TableScreen .panel { height: auto; border: round $primary; padding: 0 1; }
    TableScreen .active { border: round $accent; }
    TableScreen #menu { max-height: 9; }
    TableScreen #filter { display: none; height: 1; border: none; padding: 0 1; }
    TableScreen #filter.shown { display: block; }
    TableScreen #message { height: auto; padding: 0 1; }
    TableScreen #keys { height: 1; color: $text-muted; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", show=False), Binding("right", "cursor(1)", show=False),
        # priority: the arrows move the Moves highlight even while the filter line is typed in
        Binding("up", "menu_cursor(-1)", show=False, priority=True),
        Binding("down", "menu_cursor(1)", show=False, priority=True),
        Binding("pageup", "menu_cursor(-10)", show=False, priority=True),
        Binding("pagedown", "menu_cursor(10)", show=False, priority=True),
        Binding("slash", "filter", show=False),
        Binding("space", "mark", show=False), Binding("enter", "act", show=False),
        Binding("escape", "clear", show=False),
        *[Binding(str(d), f"pick({(d - 1) % 10})", show=False) for d in range(10)],
        Binding("l", "last_trick", show=False), Binding("s", "sheet", show=False),
        Binding("h", "hint", show=False),
        Binding("r", "rules", show=False),
        Binding("q", "quit_game", show=False),
    ]

    def __init__(self, session: Session, lang: str, bot_delay: float = 0.4) -> None:
        super().__init__()
        self.session = session
        self.lang = lang
        self.bot_delay = bot_delay
        self.cursor_card: str | None = None
        self.cursor = 0
        self.marked: set[str] = set()
        self.menu_items: list[str] = []
        self.menu_cursor = 0
        self.filter = ""
        self.zone = "hand"
        self.message: Text = Text("")
        self.hand: list[str] = []
        self.chooser = MoveChooser([], [])
        self.deal_seen = len(session.match.deals)
        self.pending = False
        self.deal_log: list[Text] = []
        self.chronicle = Chronicle()
        self.hint: Text | None = None
        self.disp: Mapping[str, Any] = {}
        self.compact = False              # the hand as a line of cards (a short screen)
        self.players_view: RenderableType = Text("")
        self.centre_view: RenderableType = Text("")
        self.menu_view: RenderableType = Text("")
        self.obs: Mapping[str, Any] = {}   # the observation drawn (its JSON reads as a Mapping)
        self.shown_result = False

    # ------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="body"):
            with Vertical(id="main"):
                # every player's row, the hand and the moves keep their room; the table
                # takes what is left and scrolls in it (``fit_panels``)
                yield Static(id="players", classes="panel")
                with VerticalScroll(id="table"):
                    yield Static(id="centre")
                yield Static(id="gap")        # the hand and the moves sit at the bottom
                yield Static(id="hand", classes="panel")
                yield Static(id="menu", classes="panel")
                yield Input(id="filter", placeholder=t("filter_hint", self.lang))
                yield Static(id="message")
            yield RichLog(id="side", wrap=True, markup=False, max_lines=1000)
        yield Static(t("keys_table", self.lang), id="keys")

    def on_mount(self) -> None:
        self.query_one("#players").border_title = t("players", self.lang)
        self.query_one("#table").border_title = heading(term("table", self.lang))
        self.query_one("#side").border_title = t("log", self.lang)
        log = self.query_one(RichLog)
        log.can_focus = False      # the arrows are the Moves list's, not the log's
        self.query_one("#filter", Input).can_focus = False    # until / opens it
        self.query_one("#table").can_focus = False
        self.set_focus(None)
        self.fit(self.app.size.width, self.app.size.height)
        names = self.session.names()
        if self.session.match.history:      # a resumed game: its moves so far, as they were
            self.chronicle, first, steps = replay(self.session.match, names, self.lang)
            self._deal_header(log, first)
            for seat, action, events, _ in steps:
                log.write(self._log_line(seat, action, names))
                self._write_events(log, events)
        else:
            self._deal_header(log, display_after(self.session.match, names,
                                                 self.lang)["deal"]["n"])
        self.advance()

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width, event.size.height)

    def fit(self, width: int, height: int) -> None:
        """Below 100 columns the log of moves folds away (the hand needs the width); the
        keys line fits the width, how to quit first on the narrowest."""
        self.set_class(width < NARROW, "narrow")
        self.set_class(width >= WIDE, "wide")
        self.query_one("#keys", Static).update(
            t("keys_table" if width >= NARROW else "keys_short" if width >= TINY
              else "keys_tiny", self.lang))
        if self.disp:
            self._draw_hand()
            self.fit_panels()

    @property
    def inner_width(self) -> int:
        """The width inside a panel of the main column (the screen less the log)."""
        kind = "narrow" if self.has_class("narrow") else "wide" if self.has_class("wide") \
            else "normal"
        return self.app.size.width - SIDE[kind] - 4

    def _lines(self, renderable: Any, width: int) -> int:
        console = self.app.console
        return len(console.render_lines(renderable, console.options.update_width(
            max(1, width)), pad=False))

    def fit_panels(self) -> None:
        """Every player's row, the hand and the moves always on the screen, whatever its
        size: the table gets the rows left (scrolling inside its box). When that leaves
        the table no room the hand is drawn as a line of cards, then the players a line
        each (what does not fit cut with …); the table folds away only when not even one
        of its lines would fit."""
        if not self.disp:
            return
        height = self.app.size.height
        inner = self.inner_width
        filter_shown = self.query_one("#filter", Input).has_class("shown")
        said = self._lines(self.message, inner + 2) if self.message.plain else 0
        free = height - 2 - said - filter_shown
        menu = min(self._lines(self.menu_view, inner), MENU_LINES) + 2
        table = self._lines(self.centre_view, inner) + 2
        hands = {c: self._lines(self._hand_view(compact=c), inner) + 2 for c in (False, True)}
        views = {c: players_table(self.disp, self.lang, inner if c else None)
                 for c in (False, True)}
        rows = {c: self._lines(views[c], inner) + 2 for c in (False, True)}
        tight, compact = True, True
        for tight, compact in ((False, False), (False, True), (True, True)):
            if rows[tight] + menu + hands[compact] + min(table, 3 if compact else 4) <= free:
                break
        self.players_view = views[tight]
        self.query_one("#players", Static).update(self.players_view)
        if compact != self.compact:
            self.compact = compact
            self._draw_hand()
        rest = free - rows[tight] - menu - hands[compact]
        box = self.query_one("#table", VerticalScroll)
        box.set_class(rest < 3, "hidden")
        box.styles.max_height = max(3, rest)
        # what the table leaves empty goes above the hand (the hand and the moves sit at
        # the bottom, over the keys)
        self.query_one("#gap").styles.height = max(0, rest - table if rest >= 3 else rest)

    # ----------------------------------------------------------- drawing
    @property
    def view_seat(self) -> int:
        m = self.session.match
        if m.to_move is not None and m.to_move in self.session.humans:
            return m.to_move
        return self.session.me

    def _log_line(self, seat: int, action: str, names: list[str]) -> Text:
        line = Text(f"{seat_name(seat, names)} ", style="bold" if seat in self.session.humans
                    else "dim")
        line.append_text(action_text(action, self.lang, done=True))
        return line

    def team_names(self) -> list[str]:
        """The players' names with their team and partner marks (the presenter's marks
        from a "teams" role): the score sheet and the result say who played with whom."""
        names = self.session.names()
        rows = (self.disp.get("players") or {}).get("rows") or []
        words = (term("team", self.lang), term("partner", self.lang))
        out = list(names)
        for row in rows:
            marks = [m for m in row["marks"] if m.startswith(words)]
            if marks and 0 <= row["seat"] < len(out):
                out[row["seat"]] = f"{names[row['seat']]} ({', '.join(marks)})"
        return out

    @staticmethod
    def _deal_text(disp: Mapping[str, Any]) -> str:
        deal = disp.get("deal") or {}
        return f"{deal.get('n')}/{deal['of']}" if deal.get("of") else str(deal.get("n"))

    def _deal_header(self, log: RichLog, n: int) -> None:
        log.write(Text(f"— {t('deal_n', self.lang, n=n)} —", style="cyan"))

    def _write_events(self, log: RichLog, events: list[Event]) -> None:
        """After a move: who took the trick or the round; a new deal's header."""
        names = self.session.names()
        for ev in events:
            if ev.kind == "deal":
                self._deal_header(log, ev.deal)
            elif ev.kind == "trick" and ev.who:
                log.write(Text(f"  → {t('won_by', self.lang, who=ev.who)}", style="italic dim"))
            elif ev.kind == "round":
                said = (t("round_taken", self.lang, who=seat_name(ev.seat, names))
                        if ev.seat is not None else t("round_beaten", self.lang))
                log.write(Text(f"  → {said}", style="italic dim"))

    def redraw(self) -> None:
        s, lang, m = self.session, self.lang, self.session.match
        names = s.names()
        me = self.view_seat
        obs = self.obs = m.observation(me)
        disp = self.disp = present(obs, lang, names, me)
        # whose move first: a narrow terminal cuts the header's end, never the turn
        title = Text(no_wrap=True, overflow="ellipsis")
        if m.is_over:
            title.append(t("over", lang), style="bold")
        elif s.human_to_move():
            title.append(t("turn_you", lang), style="bold green")
        else:
            who = seat_name(m.to_move, names)
            title.append(t("thinking", lang, who=who) if self.pending
                         else t("turn_of", lang, who=who), style="yellow")
        title.append(f" · {m.spec.title_ru if lang == 'ru' else m.spec.title_en} · "
                     f"{t('deal_n', lang, n=self._deal_text(disp))} · "
                     f"{t('dealer_is', lang, who=seat_name(obs.dealer, names))}"
                     + (" · koloda" if self.app.size.width >= NARROW else ""))
        self.query_one("#title", Static).update(title)
        self.centre_view = Group(centre(disp, lang), info_line(disp, lang),
                                 *extra_lines(disp, lang))
        self.query_one("#centre", Static).update(self.centre_view)
        self.hand = sort_hand(disp["hand"]["cards"] if disp["hand"] else [], disp["trump"])
        legal = m.legal_actions() if s.human_to_move() else []
        self.chooser = MoveChooser(legal, self.hand)
        self.marked &= set(self.hand)
        if self.cursor_card in self.hand:
            self.cursor = self.hand.index(self.cursor_card)
        self.cursor = max(0, min(self.cursor, len(self.hand) - 1))
        self.cursor_card = self.hand[self.cursor] if self.hand else None
        self._draw_hand()
        self._draw_menu()
        self._show_message()

    def _draw_hand(self) -> None:
        lang = self.lang
        panel = self.query_one("#hand", Static)
        title = t("your_hand", lang)
        if self.chooser.multi_verbs:
            verbs = ", ".join(action_text(v, lang).plain for v in self.chooser.multi_verbs)
            title += " — " + t("multi_hint", lang, verbs=verbs)
        panel.border_title = title
        panel.update(self._hand_view(self.compact))
        panel.set_class(self.zone == "hand", "active")

    def _hand_view(self, compact: bool) -> Text:
        """The hand as boxed cards where they fit the width, else (or ``compact``) a line."""
        cursor = self.cursor if self.zone == "hand" and self.hand else None
        return hand_text(self.hand, cursor, frozenset(self.marked), self.chooser.legal_cards,
                         self.lang, width=0 if compact else self.inner_width)

    def _draw_menu(self) -> None:
        lang = self.lang
        panel = self.query_one("#menu", Static)
        if not self.session.human_to_move():
            self.menu_items = []
        else:
            self.menu_items = self.chooser.menu(frozenset(self.marked))
        if self.filter:
            self.menu_items = [a for a in self.menu_items if self._matches(a)]
        self.menu_cursor = max(0, min(self.menu_cursor, len(self.menu_items) - 1))
        first = self.page_start
        items = []
        for i, a in enumerate(self.menu_items[first:first + PAGE], start=first):
            item = Text(f"{(i - first + 1) % 10} ", style="dim")
            item.append_text(action_text(a, lang))
            if i == self.menu_cursor and self.zone == "menu":
                item.stylize("reverse")
            items.append(item)
        title = t("moves", lang)
        if len(self.menu_items) > PAGE:
            title += " " + t("moves_page", lang, first=first + 1,
                             last=min(first + PAGE, len(self.menu_items)),
                             n=len(self.menu_items))
        if self.filter:
            title += f" · /{self.filter}"
        panel.border_title = title
        self.menu_view = Columns(items, padding=(0, 3)) if items else Text("…", style="dim")
        panel.update(self.menu_view)
        panel.set_class(self.zone == "menu", "active")
        self.fit_panels()

    @property
    def page_start(self) -> int:
        """The first move of the page the highlight is on (pages of ten: the digit keys)."""
        return self.menu_cursor // PAGE * PAGE

    def _matches(self, action: str) -> bool:
        want = self.filter.lower()
        return want in action.lower() or want in action_text(action, self.lang).plain.lower()

    def _clear_wait(self) -> None:
        """A "not your move" said while the computers played is stale once it is yours."""
        if self.message.plain == t("not_yours", self.lang):
            self.say("")

    def _show_message(self) -> None:
        """The message line, taking no row while there is nothing to say."""
        box = self.query_one("#message", Static)
        box.update(self.message)
        box.display = bool(self.message.plain)
        self.fit_panels()

    def say(self, text: Text | str, style: str = "") -> None:
        self.message = text if isinstance(text, Text) else Text(text, style=style)
        self._show_message()
        self.fit_panels()

    # -------------------------------------------------------- the flow
    def advance(self) -> None:
        """Run computer seats until a person must act, a deal ends or the match ends."""
        s = self.session
        while True:
            m = s.match
            if m.is_over:
                self.redraw()
                self.show_result()
                return
            if len(m.deals) != self.deal_seen:
                ended = (self.disp.get("deal") or {}).get("n", self.deal_seen)
                self.deal_seen = len(m.deals)
                self.redraw()
                tail, self.deal_log = self.deal_log[-m.players:], []
                self.app.push_screen(
                    sheet_screen(m.sheet(), self.team_names(), self.lang, m.players,
                                 t("sheet_between", self.lang, n=ended), tail,
                                 width=self.app.size.width),
                    callback=lambda _: self.advance())
                return
            if not s.bot_to_move():
                self._clear_wait()
                self.redraw()
                legal = self.chooser.legal_cards
                self.zone = "hand" if legal else "menu"
                if legal and self.cursor_card not in legal:   # start on a card one may play
                    self.cursor = next(i for i, c in enumerate(self.hand) if c in legal)
                    self.cursor_card = self.hand[self.cursor]
                self._draw_hand()
                self._draw_menu()
                return
            if self.bot_delay > 0:
                if not self.pending:
                    self.pending = True
                    self.redraw()
                    self.set_timer(self.bot_delay, self._bot_tick)
                return
            self._bot_move()

    def _bot_tick(self) -> None:
        if self.session.bot_to_move():
            self.run_worker(self._bot_think(), exclusive=True, group="bots")
        else:
            self.pending = False
            self.advance()

    async def _bot_think(self) -> None:
        """A computer move: the bot thinks in a thread (a search bot may take seconds) while
        the table stays responsive; the move is applied here, on the app's own thread."""
        s = self.session
        seat, obs, legal = s.bot_question()
        action = await asyncio.to_thread(s.bot_decide, seat, obs, legal)
        self.pending = False
        if s.match.to_move == seat and not s.match.is_over:
            self._logged(*s.bot_answer(seat, action))
        self.advance()

    def _bot_move(self) -> None:
        seat, action = self.session.bot_step()
        self._logged(seat, action)

    def _logged(self, seat: int, action: str) -> None:
        m = self.session.match
        names = self.session.names()
        line = self._log_line(seat, action, names)
        self.deal_log.append(line)
        log = self.query_one(RichLog)
        log.write(line)
        self._write_events(log, self.chronicle.after(
            seat, action, display_after(m, names, self.lang), len(m.deals)))

    def play(self, action: str) -> None:
        """The person's move; a refusal shows the engine's reason and changes nothing."""
        try:
            seat, text = self.session.play(action)
        except IllegalAction as exc:
            msg = Text(t("illegal", self.lang, reason=""), style="bold red")
            msg.append_text(reason_text(reason(exc, self.lang), self.lang))
            self.say(msg)
            return
        self.marked.clear()
        self.menu_cursor = 0
        self._close_filter()
        self.say("")
        self._logged(seat, text)
        self.advance()

    def show_result(self) -> None:
        if self.shown_result:
            return
        self.shown_result = True
        s, lang, m = self.session, self.lang, self.session.match
        assert m.result is not None
        notes = [Text(t("autosaved", lang, path=s.path), style="dim")]
        fin = s.finished
        if fin is not None and fin.game_id is not None:
            notes.append(Text(t("stored_as", lang, id=fin.game_id), style="dim"))
            for ch in fin.rank_changes or []:
                notes.append(Text(t("rank_now", lang, who=ch.player,
                                    rank=rank_name(ch.after, lang),
                                    earned=rank_name(ch.earned, lang),
                                    held=rank_name(ch.before, lang)), style="bold"))
        elif fin is not None and fin.error:
            notes.append(Text(fin.error, style="red"))
        outcome = present_result(m.result.to_json(), m.spec.name, lang, self.team_names())
        self.app.push_screen(ResultScreen(outcome, m.sheet(), self.team_names(), lang,
                                          m.players, notes), callback=self._after_result)

    def _after_result(self, choice: str | None) -> None:
        if choice == "again" and getattr(self.app, "can_restart", False):
            self.app.restart()  # type: ignore[attr-defined]
        else:
            self.app.exit(str(self.session.path))

    # --------------------------------------------------------- the keys
    def _busy(self) -> bool:
        if not self.session.human_to_move():
            self.say(t("not_yours", self.lang), "yellow")
            return True
        return False

    def action_cursor(self, step: int) -> None:
        if not self.hand:
            return
        self.zone = "hand"
        self.cursor = (self.cursor + step) % len(self.hand)
        self.cursor_card = self.hand[self.cursor]
        self._draw_hand()
        self._draw_menu()

    def action_menu_cursor(self, step: int) -> None:
        if not self.menu_items:
            return
        self.zone = "menu"
        n = len(self.menu_items)
        if abs(step) == 1:
            self.menu_cursor = (self.menu_cursor + step) % n
        else:            # a page: to the same place on the next page, or the list's end
            self.menu_cursor = max(0, min(self.menu_cursor + step, n - 1))
        self._draw_hand()
        self._draw_menu()

    def action_mark(self) -> None:
        if not self.hand or self._busy():
            return
        card = self.hand[self.cursor]
        self.marked ^= {card}
        self.zone = "hand"
        if self.marked:
            shown = " ".join(card_text(c, self.lang).plain
                             for c in sort_hand(sorted(self.marked), self.disp.get("trump")))
            self.say(Text(t("marked", self.lang, cards=shown)))
        else:
            self.say("")
        self.menu_cursor = 0
        self._draw_hand()
        self._draw_menu()

    def action_filter(self) -> None:
        """Show the filter line: what one types keeps the moves that contain it."""
        box = self.query_one("#filter", Input)
        box.add_class("shown")
        box.can_focus = True
        box.focus()
        self.fit_panels()

    def on_input_changed(self, event: Input.Changed) -> None:
        if not event.input.has_class("shown"):
            return          # the line emptied as it closed (after a move): nothing to filter
        self.filter = event.value.strip()
        self.zone = "menu"
        self.menu_cursor = 0
        self._draw_hand()
        self._draw_menu()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.zone = "menu"
        self.action_act()

    def _close_filter(self) -> None:
        box = self.query_one("#filter", Input)
        if box.has_class("shown") or self.filter:
            box.remove_class("shown")
            box.can_focus = False
            box.value = ""
            self.filter = ""
            self.set_focus(None)

    def action_clear(self) -> None:
        self._close_filter()
        self.marked.clear()
        self.say("")
        self._draw_hand()
        self._draw_menu()

    def action_pick(self, index: int) -> None:
        if self._busy():
            return
        index += self.page_start
        if 0 <= index < len(self.menu_items):
            self.play(self.menu_items[index])

    def action_act(self) -> None:
        if self._busy():
            return
        if self.zone == "menu" or not self.hand:
            if self.menu_items:
                self.play(self.menu_items[self.menu_cursor])
            return
        chosen = frozenset(self.marked) if self.marked else frozenset({self.hand[self.cursor]})
        exact = self.chooser.exact(chosen)
        if len(exact) == 1:
            self.play(exact[0])
            return
        if exact:
            self.marked = set(chosen)
            self.zone = "menu"
            self.menu_cursor = 0
            self.say(t("which", self.lang), "cyan")
            self._draw_hand()
            self._draw_menu()
            return
        longer = self.chooser.extending(chosen)
        if longer:
            self.marked = set(chosen)
            examples = ", ".join(action_text(a, self.lang).plain for a in longer[:3])
            self.say(t("more_cards", self.lang, examples=examples), "cyan")
            self._draw_hand()
            self._draw_menu()
            return
        # no legal move uses these cards: let the engine say which rule forbids it
        self.play(self.chooser.attempt(chosen, self._beat_target()))

    def _beat_target(self) -> str | None:
        """The first uncovered attack card of a Durak table (what a lone card would beat)."""
        part = self.disp.get("centre")
        if part and part.get("kind") == "table":
            for pair in part["pairs"]:
                if pair["cover"] is None and pair["attack"].get("cards"):
                    return str(pair["attack"]["cards"][0])
        return None

    def action_hint(self) -> None:
        """Ask the strongest bot the game has what it would play here (in a thread: a
        search takes a moment); the game does not change, the record notes the hint."""
        if self._busy():
            return
        if self.session.hint_bot_name() is None:
            self.say(t("no_hint", self.lang), "yellow")
            return
        self.say(t("hint_thinking", self.lang), "cyan")
        self.run_worker(self._hint(), exclusive=True, group="hint")

    async def _hint(self) -> None:
        s = self.session
        seat, obs, legal = s.hint_question()
        answer = await asyncio.to_thread(s.hint_decide, seat, obs, legal)
        if answer is None or s.match.to_move != seat or s.match.is_over:
            return
        s.note_hint(seat)
        choice, values = answer
        line = Text(t("hint_is", self.lang, bot=bot_word(s.hint_bot_name() or "", self.lang)),
                    style="cyan")
        line.append_text(action_text(choice, self.lang))
        if values:
            line.append(f" — {t('hint_values', self.lang)} ", style="dim")
            for i, (a, v) in enumerate(values):
                if i:
                    line.append(", ", style="dim")
                line.append_text(action_text(a, self.lang))
                line.append(f" {v:+.2f}", style="dim")
        self.hint = line
        self.say(line)

    def action_last_trick(self) -> None:
        """The last trick; at a table of pairs (Durak) the last round: who laid what, who
        covered it with what, and whether it was beaten off or taken."""
        rnd = self.chronicle.last_round
        if rnd is not None:
            body = last_round_view(rnd, self.session.names(), self.lang)
            title = t("last_round", self.lang)
        else:
            body = last_trick_view(self.disp, self.lang)
            title = heading(term("last_trick", self.lang))
        self.app.push_screen(InfoScreen(title, body, t("press_close", self.lang),
                                        lang=self.lang))

    def action_sheet(self) -> None:
        m = self.session.match
        self.app.push_screen(sheet_screen(m.sheet(), self.team_names(), self.lang,
                                          m.players, t("sheet_title", self.lang),
                                          keys=t("press_close", self.lang),
                                          width=self.app.size.width))

    def action_rules(self) -> None:
        self.app.push_screen(rules_screen(self.session.match.spec.family, self.lang))

    def action_quit_game(self) -> None:
        self.session.save()
        self.app.exit(str(self.session.path))
