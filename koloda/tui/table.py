"""The table: one screen for every game, drawn from the person's observation.

Keys: ←→ move along the hand, Space marks cards (moves of several cards), Enter plays the
marked cards or the card under the cursor; ↑↓ and the number keys choose from the list of
moves (bids, take, pass …); l shows the last trick, s the score sheet, q saves and quits.
Computer seats move on a timer so a person can follow them; every action is written to
the record at once (Session), so quitting never loses a game.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, ClassVar

from rich.columns import Columns
from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import RichLog, Static

from koloda.cli.render import card_text
from koloda.engine.errors import IllegalAction
from koloda.engine.terms import term
from koloda.i18n import reason, t
from koloda.tui.moves import MoveChooser
from koloda.tui.screens import InfoScreen, ResultScreen, rank_name, rules_screen, sheet_screen
from koloda.tui.session import Session
from koloda.tui.view import (
    action_text,
    centre,
    extra_lines,
    hand_text,
    heading,
    info_line,
    last_trick_view,
    players_table,
    present,
    reason_text,
    seat_name,
    sort_hand,
)


class TableScreen(Screen[None]):
    DEFAULT_CSS = """
    TableScreen #title { height: 1; background: $primary-background; color: $text;
                         text-style: bold; padding: 0 1; }
    TableScreen #body { height: 1fr; }
    TableScreen #main { width: 1fr; }
    TableScreen #side { width: 36; border: round $secondary; }
    TableScreen .panel { height: auto; border: round $primary; padding: 0 1; }
    TableScreen #centre { min-height: 4; }
    TableScreen .active { border: round $accent; }
    TableScreen #menu { max-height: 9; }
    TableScreen #message { height: auto; min-height: 1; padding: 0 1; }
    TableScreen #keys { height: 1; color: $text-muted; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", show=False), Binding("right", "cursor(1)", show=False),
        Binding("up", "menu_cursor(-1)", show=False),
        Binding("down", "menu_cursor(1)", show=False),
        Binding("space", "mark", show=False), Binding("enter", "act", show=False),
        Binding("escape", "clear", show=False),
        *[Binding(str(d), f"pick({(d - 1) % 10})", show=False) for d in range(10)],
        Binding("l", "last_trick", show=False), Binding("s", "sheet", show=False),
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
        self.zone = "hand"
        self.message: Text = Text("")
        self.hand: list[str] = []
        self.chooser = MoveChooser([], [])
        self.deal_seen = len(session.match.deals)
        self.pending = False
        self.deal_log: list[Text] = []
        self.disp: Mapping[str, Any] = {}
        self.obs: Mapping[str, Any] = {}   # the observation drawn (its JSON reads as a Mapping)
        self.shown_result = False

    # ------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="body"):
            with Vertical(id="main"):
                yield Static(id="players", classes="panel")
                yield Static(id="centre", classes="panel")
                yield Static(id="hand", classes="panel")
                yield Static(id="menu", classes="panel")
                yield Static(id="message")
            yield RichLog(id="side", wrap=True, markup=False, max_lines=1000)
        yield Static(t("keys_table", self.lang), id="keys")

    def on_mount(self) -> None:
        self.query_one("#players").border_title = t("players", self.lang)
        self.query_one("#centre").border_title = heading(term("table", self.lang))
        self.query_one("#side").border_title = t("log", self.lang)
        log = self.query_one(RichLog)
        names = self.session.names()
        for seat, action in self.session.match.history:   # a resumed game: its moves so far
            log.write(self._log_line(seat, action, names))
        self._deal_header(log)
        self.advance()

    # ----------------------------------------------------------- drawing
    @property
    def view_seat(self) -> int:
        m = self.session.match
        if m.to_move is not None and m.to_move in self.session.humans:
            return m.to_move
        return self.session.me

    def _log_line(self, seat: int, action: str, names: list[str]) -> Text:
        line = Text(f"{seat_name(seat, names)}: ", style="bold" if seat in self.session.humans
                    else "dim")
        line.append_text(action_text(action, self.lang))
        return line

    def _deal_header(self, log: RichLog) -> None:
        log.write(Text(f"— {t('deal_n', self.lang, n=len(self.session.match.deals))} —",
                       style="cyan"))

    def redraw(self) -> None:
        s, lang, m = self.session, self.lang, self.session.match
        names = s.names()
        me = self.view_seat
        obs = self.obs = m.observation(me)
        disp = self.disp = present(obs, lang, names, me)
        title = Text(f"koloda · {m.spec.title_ru if lang == 'ru' else m.spec.title_en} · "
                     f"{t('deal_n', lang, n=len(m.deals))} · "
                     f"{t('dealer_is', lang, who=seat_name(obs.dealer, names))} · ")
        if m.is_over:
            title.append(t("over", lang), style="bold")
        elif s.human_to_move():
            title.append(t("turn_you", lang), style="bold green")
        else:
            who = seat_name(m.to_move, names)
            title.append(t("thinking", lang, who=who) if self.pending
                         else t("turn_of", lang, who=who), style="yellow")
        self.query_one("#title", Static).update(title)
        self.query_one("#players", Static).update(players_table(disp, lang))
        self.query_one("#centre", Static).update(Group(
            centre(disp, lang), info_line(disp, lang), *extra_lines(disp, lang)))
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
        self.query_one("#message", Static).update(self.message)

    def _draw_hand(self) -> None:
        lang = self.lang
        panel = self.query_one("#hand", Static)
        title = t("your_hand", lang)
        if self.chooser.multi_verbs:
            verbs = ", ".join(action_text(v, lang).plain for v in self.chooser.multi_verbs)
            title += " — " + t("multi_hint", lang, verbs=verbs)
        panel.border_title = title
        cursor = self.cursor if self.zone == "hand" and self.hand else None
        panel.update(hand_text(self.hand, cursor, frozenset(self.marked),
                               self.chooser.legal_cards, lang))
        panel.set_class(self.zone == "hand", "active")

    def _draw_menu(self) -> None:
        lang = self.lang
        panel = self.query_one("#menu", Static)
        if not self.session.human_to_move():
            self.menu_items = []
        else:
            self.menu_items = self.chooser.menu(frozenset(self.marked))
        self.menu_cursor = max(0, min(self.menu_cursor, len(self.menu_items) - 1))
        items = []
        for i, a in enumerate(self.menu_items):
            item = Text(f"{i + 1 if i < 9 else (0 if i == 9 else ' ')} ", style="dim")
            item.append_text(action_text(a, lang))
            if i == self.menu_cursor and self.zone == "menu":
                item.stylize("reverse")
            items.append(item)
        panel.border_title = t("moves", lang)
        panel.update(Columns(items, padding=(0, 3)) if items else Text("…", style="dim"))
        panel.set_class(self.zone == "menu", "active")

    def say(self, text: Text | str, style: str = "") -> None:
        self.message = text if isinstance(text, Text) else Text(text, style=style)
        self.query_one("#message", Static).update(self.message)

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
                ended = self.deal_seen
                self.deal_seen = len(m.deals)
                self.redraw()
                tail, self.deal_log = self.deal_log[-m.players:], []
                self._deal_header(self.query_one(RichLog))
                self.app.push_screen(
                    sheet_screen(m.sheet(), s.names(), self.lang, m.players,
                                 t("sheet_between", self.lang, n=ended), tail),
                    callback=lambda _: self.advance())
                return
            if not s.bot_to_move():
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
        line = self._log_line(seat, action, self.session.names())
        self.deal_log.append(line)
        self.query_one(RichLog).write(line)

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
        self.app.push_screen(ResultScreen(m.result.to_json(), m.sheet(), s.names(), lang,
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
        self.menu_cursor = (self.menu_cursor + step) % len(self.menu_items)
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

    def action_clear(self) -> None:
        self.marked.clear()
        self.say("")
        self._draw_hand()
        self._draw_menu()

    def action_pick(self, index: int) -> None:
        if self._busy():
            return
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

    def action_last_trick(self) -> None:
        body = last_trick_view(self.disp, self.lang)
        self.app.push_screen(InfoScreen(heading(term("last_trick", self.lang)), body,
                                        t("press_close", self.lang)))

    def action_sheet(self) -> None:
        m = self.session.match
        self.app.push_screen(sheet_screen(m.sheet(), self.session.names(), self.lang,
                                          m.players, t("sheet_title", self.lang),
                                          keys=t("press_close", self.lang)))

    def action_rules(self) -> None:
        self.app.push_screen(rules_screen(self.session.match.spec.family, self.lang))

    def action_quit_game(self) -> None:
        self.session.save()
        self.app.exit(str(self.session.path))
