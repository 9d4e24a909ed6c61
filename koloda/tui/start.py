"""The start screen: game, variant, players, who sits where, language, options.

``StartForm`` holds the choices and knows nothing of Textual (tests drive it directly);
``StartScreen`` draws it as a list of lines changed with the arrow keys. Everything it
offers comes from the registry (games, variants, player counts, options with their
meaning) and from the bots module (computer players and their levels).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, Static

from koloda.bots.base import bot_note
from koloda.engine import terms
from koloda.engine.errors import ConfigError, IllegalAction, RecordError
from koloda.engine.messages import Reason, render_reason
from koloda.engine.registry import registry
from koloda.engine.spec import GameSpec, Option
from koloda.i18n import (
    LANGS,
    bot_label,
    option_allowed,
    option_value,
    reason,
    suit_word,
    t,
)
from koloda.store.ratings import bot_ratings
from koloda.tui.session import bot_choices, default_bot


def unfinished_games(limit: int = 3) -> list[tuple[Path, dict[str, Any]]]:
    """The newest autosaved records whose match is not over (they can be continued)."""
    from koloda.tui.session import autosave_dir
    try:
        files = sorted(autosave_dir().glob("*.json"), key=lambda p: p.stat().st_mtime,
                       reverse=True)[:30]
    except OSError:
        return []
    out = []
    for p in files:
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("result") is None and data.get("game"):
            out.append((p, data))
        if len(out) >= limit:
            break
    return out


@dataclass
class StartForm:
    """The choices of the start screen, one line each."""

    lang: str = "en"
    name: str = "Player"
    family: str = ""
    spec_name: str = ""
    players: int = 0
    seats: list[str] = field(default_factory=list)   # "human" or a bot spec
    options: dict[str, Any] = field(default_factory=dict)
    resumable: list[tuple[Path, dict[str, Any]]] = field(default_factory=list)
    row: int = 0
    #: the number of players the person chose (0: none), kept by every variant that can
    #: seat it; else each game and variant seats its own default, as ``koloda play GAME``
    wanted: int = 0

    def __post_init__(self) -> None:
        specs = registry()
        # in the games' own order (GameSpec.order: the book's), then by name
        place: dict[str, int] = {}
        for s in specs.values():
            place[s.family] = min(place.get(s.family, s.order), s.order)
        self.families = sorted(place, key=lambda f: (place[f], f))
        if self.spec_name not in specs:
            fam = self.family if self.family in self.families else self.families[0]
            self.spec_name = self.variants(fam)[0].name
        self.family = self.spec.family
        self.set_spec(self.spec_name, self.players or None, keep_seats=bool(self.seats))

    # ----------------------------------------------------------- the game
    @property
    def spec(self) -> GameSpec:
        return registry()[self.spec_name]

    def variants(self, family: str) -> list[GameSpec]:
        specs = [s for s in registry().values() if s.family == family]
        # the variant named like its family first (the book's own game)
        return sorted(specs, key=lambda s: s.name != family)

    def set_spec(self, name: str, players: int | None = None, keep_seats: bool = False) -> None:
        self.spec_name = name
        self.family = self.spec.family
        n = players if players in self.spec.players else self.spec.default_players
        self.set_players(n, keep_seats)

    def set_players(self, n: int, keep_seats: bool = False) -> None:
        self.players = n
        self.bots = bot_choices(self.spec.name) or ["random"]
        bot = default_bot(self.spec.name)
        old = self.seats if keep_seats else []
        seats = [s if s == "human" or s in self.bots else bot for s in old[:n]]
        seats += [bot] * (n - len(seats))
        if "human" not in seats:
            seats[0] = "human"
        self.seats = seats
        self.options = {o.name: o.default_for(n) for o in self.spec.all_options}

    # ------------------------------------------------------------- lines
    def rows(self) -> list[str]:
        out = [f"resume:{i}" for i in range(len(self.resumable))]
        out += ["game", "variant", "players", "you"]
        out += [f"seat:{i}" for i in range(self.players)]
        out += ["lang", "name"]
        for o in self.spec.all_options:
            value = self.options[o.name]
            if isinstance(value, dict):   # a value per key (Kopilka's suits): a line each
                out += [f"opt:{o.name}:{k}" for k in value]
            else:
                out.append(f"opt:{o.name}")
        out.append("start")
        return out

    @property
    def current(self) -> str:
        rows = self.rows()
        self.row = max(0, min(self.row, len(rows) - 1))
        return rows[self.row]

    def move(self, step: int) -> None:
        self.row = (self.row + step) % len(self.rows())

    def option(self, name: str) -> Option:
        """The option of a line (``values:H``, a line of a dict option, is ``values``)."""
        name = name.partition(":")[0]
        return next(o for o in self.spec.all_options if o.name == name)

    @staticmethod
    def sub_key(key: str) -> str | None:
        """The key inside a dict option's value on line ``key`` (``opt:values:H`` → H)."""
        parts = key.split(":")
        return parts[2] if len(parts) == 3 and parts[0] == "opt" else None

    def change(self, step: int) -> None:
        """←/→ on the current line."""
        key = self.current
        if key == "game":
            i = self.families.index(self.family)
            fam = self.families[(i + step) % len(self.families)]
            self.wanted = 0
            self.set_spec(self.variants(fam)[0].name)   # as `koloda play GAME` seats it
        elif key == "variant":
            vs = [s.name for s in self.variants(self.family)]
            i = vs.index(self.spec_name)
            self.set_spec(vs[(i + step) % len(vs)], self.wanted or None, keep_seats=True)
        elif key == "players":
            counts = list(self.spec.players)
            i = counts.index(self.players)
            self.set_players(counts[(i + step) % len(counts)], keep_seats=True)
            self.wanted = self.players
        elif key == "you":
            self.sit(self.my_seat + step)
        elif key.startswith("seat:"):
            seat = int(key[5:])
            if self.seats[seat] == "human":   # your own line: ←→ move you
                self.sit(seat + step)
                return
            choices = self.bots   # a computer's line cycles the computers, never a person
            i = choices.index(self.seats[seat]) if self.seats[seat] in choices else 0
            self.seats[seat] = choices[(i + step) % len(choices)]
        elif key == "lang":
            self.lang = LANGS[(LANGS.index(self.lang) + step) % len(LANGS)]
        elif key.startswith("opt:"):
            self._step_option(self.option(key[4:]), step, self.sub_key(key))

    @property
    def my_seat(self) -> int:
        """The seat the person takes (exactly one seat is always theirs)."""
        return self.seats.index("human")

    def sit(self, seat: int) -> None:
        """Move the person to ``seat`` (wrapping around); the computer there takes the
        seat they leave, so the table always has one person and the same computers."""
        seat %= self.players
        old = self.my_seat
        if seat != old:
            self.seats[old], self.seats[seat] = self.seats[seat], "human"

    def _step_option(self, opt: Option, step: int, sub: str | None = None) -> None:
        value = self.options[opt.name]
        if sub is not None:      # one number of a dict option: the whole dict is checked
            for k in range(1, 65):
                each = {**value, sub: value[sub] + step * k}
                try:
                    self.options[opt.name] = opt.validate(each, self.players)
                    return
                except ConfigError:
                    continue
            return
        if opt.kind is bool:
            self.options[opt.name] = not value
            return
        if opt.kind is int and isinstance(value, int):
            for k in range(1, 65):
                candidate = value + step * k
                try:
                    self.options[opt.name] = opt.validate(candidate, self.players)
                    return
                except ConfigError:
                    continue
            return
        if opt.kind is str:
            alternatives = re.findall(r'"([^"]*)"', opt.allowed)
            if value not in alternatives:
                alternatives.insert(0, value)
            self.options[opt.name] = alternatives[
                (alternatives.index(value) + step) % len(alternatives)]

    def editable(self) -> bool:
        """Lines whose value is typed (Enter opens an input box)."""
        key = self.current
        if key == "name":
            return True
        return key.startswith("opt:") and self.option(key[4:]).kind is not bool

    def edit_value(self) -> str:
        key = self.current
        if key == "name":
            return self.name
        value = self.options[self.option(key[4:]).name]
        sub = self.sub_key(key)
        if sub is not None:
            return str(value[sub])
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

    def set_typed(self, text: str) -> str | None:
        """A typed value for the current line; returns an error text or None."""
        key = self.current
        if key == "name":
            text = text.strip()
            if not text:
                return t("bad_value", self.lang, name=t("your_name", self.lang), reason="—")
            self.name = text
            return None
        opt = self.option(key[4:])
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = text.strip()
        sub = self.sub_key(key)
        if sub is not None:
            value = {**self.options[opt.name], sub: value}
        try:
            self.options[opt.name] = opt.validate(value, self.players)
        except ConfigError as exc:
            return t("bad_value", self.lang, name=terms.term(opt.name, self.lang),
                     reason=self._why(exc, opt))
        return None

    def _why(self, exc: ConfigError, opt: Option) -> str:
        """What is wrong with an option's value, in the person's language: the check's own
        words and what is allowed (never the option's code or the typed value's quoting)."""
        allowed = t("allowed_is", self.lang, allowed=option_allowed(opt.allowed, self.lang))
        why = exc.reason.args.get("problem") if isinstance(exc.reason, Reason) else None
        return f"{render_reason(why, self.lang)}; {allowed}" if why else allowed

    def problem(self) -> str | None:
        """Why the game cannot start as chosen (None: it can)."""
        if "human" not in self.seats:
            return t("need_human", self.lang)
        try:
            self.spec.resolve_options(self.players, self.changed_options())
        except ConfigError as exc:
            for opt in self.spec.all_options:   # say which option, in the person's words
                try:
                    opt.validate(self.options[opt.name], self.players)
                except ConfigError as bad:
                    return t("bad_value", self.lang, name=terms.term(opt.name, self.lang),
                             reason=self._why(bad, opt))
            return reason(exc, self.lang) if exc.key else t("cannot_start", self.lang)
        return None

    def changed_options(self) -> dict[str, Any]:
        return self.spec.changed_options(self.players, self.options)

    # ----------------------------------------------------------- drawing
    def line(self, key: str) -> tuple[str, Text]:
        lang, spec = self.lang, self.spec
        if key.startswith("resume:"):
            path, data = self.resumable[int(key[7:])]
            moves = len(data.get("actions") or [])
            specs = registry()
            game = specs[data["game"]] if data.get("game") in specs else None
            title = data.get("game") if game is None else \
                game.title_ru if lang == "ru" else game.title_en
            when = _saved_at(path)
            made = t("moves_made_one" if moves == 1 else "moves_made", lang, n=moves)
            return "↻", Text(t("resume_line", lang, name=f"{title} · {made}"
                               f"{f' · {when}' if when else ''}"))
        if key == "game":
            v = self.variants(self.family)[0]
            return t("game", lang), Text(v.title_ru if lang == "ru" else v.title_en)
        if key == "variant":
            return t("variant", lang), Text(spec.title_ru if lang == "ru" else spec.title_en)
        if key == "players":
            return t("players", lang), Text(str(self.players))
        if key == "you":
            return t("your_seat", lang), Text(t("sits", lang, n=self.my_seat + 1),
                                              style="bold green")
        if key.startswith("seat:"):
            seat = int(key[5:])
            who = self.seats[seat]
            value = Text(t("human", lang) + f" ({self.name})", style="bold green") \
                if who == "human" else Text(t("computer", lang, bot=bot_label(who, lang)))
            return t("sits", lang, n=seat + 1), value
        if key == "lang":
            return t("language", lang), Text(t("lang_name", lang))
        if key == "name":
            return t("your_name", lang), Text(self.name)
        if key.startswith("opt:"):
            opt = self.option(key[4:])
            value = self.options[opt.name]
            sub = self.sub_key(key)
            if sub is not None:
                return (f"{option_label(opt.name, lang)}: {suit_word(sub, lang)}",
                        Text(value_text(value[sub], lang)))
            return option_label(opt.name, lang), Text(value_text(value, lang))
        return "", Text(t("start", lang), style="bold")

    def render(self) -> Text:
        """A line per row, never wrapped (the screen scrolls to the row with the ▶)."""
        out = Text(no_wrap=True, overflow="ellipsis")
        current = self.current
        for key in self.rows():
            name, value = self.line(key)
            here = key == current
            row = Text("▶ " if here else "  ", style="bold magenta")
            row.append(f"{name} " if key.startswith("resume:") else f"{name:<28}",
                       style="bold" if here else "dim")
            arrows = key not in ("start", "name") and not key.startswith("resume:")
            if arrows and here:
                row.append("◀ ", style="magenta")
            row.append_text(value)
            if arrows and here:
                row.append(" ▶", style="magenta")
            if here:
                row.stylize("on grey23")
            out.append_text(row)
            out.append("\n")
        return out

    def help(self) -> Text:
        """What the current line means: the game's summary or the option's rule."""
        lang, spec, key = self.lang, self.spec, self.current
        if key.startswith("resume:"):
            return Text(str(self.resumable[int(key[7:])][0]), style="dim")
        if key.startswith("seat:") and self.seats[int(key[5:])] != "human":
            # what this computer player is, and its measured rating in this game
            bot = self.seats[int(key[5:])]
            out = Text(bot_note(bot, lang))
            found = bot_ratings().get(spec.name, {}).get(bot)
            if found is not None:
                out.append(f"\n{t('level_rating', lang, mu=round(found['mu']))}", style="dim")
            return out
        if key.startswith("opt:"):
            opt = self.option(key[4:])
            codes = _codes(opt)
            out = Text(_with_words(opt.help_ru if lang == "ru" else opt.help_en, codes, lang))
            default = opt.default_for(self.players)
            sub = self.sub_key(key)
            if sub is not None:     # one number of a dict option: what each line takes
                allowed = t("whole_number", lang)
                shown = value_text(default.get(sub), lang)
            elif codes:
                allowed = f" {t('or', lang)} ".join(value_text(c, lang) for c in codes)
                shown = value_text(default, lang)
            else:
                allowed = option_allowed(opt.allowed, lang)
                shown = value_text(default, lang)
            out.append(f"\n{allowed} · {t('option_default', lang, value=shown)}", style="dim")
            return out
        summary = spec.summary_ru if lang == "ru" else spec.summary_en
        return Text(summary or "")


class StartScreen(Screen[None]):
    DEFAULT_CSS = """
    StartScreen { align: center top; }
    StartScreen > Vertical { width: 100%; max-width: 110; height: 1fr;
                             border: round $primary; padding: 0 1; }
    StartScreen #form-scroll { height: 1fr; overflow-x: hidden; }
    StartScreen #form { height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
    StartScreen #help { height: auto; max-height: 5; border-top: solid $secondary;
                        color: $text; }
    StartScreen #start-message { height: auto; color: $warning; }
    StartScreen #start-keys { height: auto; color: $text-muted; }
    StartScreen Input { display: none; }
    StartScreen Input.editing { display: block; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", show=False), Binding("down", "move(1)", show=False),
        Binding("left", "change(-1)", show=False), Binding("right", "change(1)", show=False),
        Binding("enter", "enter", show=False), Binding("escape", "cancel", show=False),
        Binding("q", "quit_app", show=False), Binding("r", "rules", show=False),
    ]

    #: no widget takes the keys until a value is typed (the arrows and q are the form's)
    AUTO_FOCUS = None

    def __init__(self, form: StartForm) -> None:
        super().__init__()
        self.form = form
        self.editing = False

    def compose(self) -> ComposeResult:
        # the lines scroll (the one with the ▶ always in view); what the line means, a
        # typed value and how to use the screen stay under them
        with Vertical() as box:
            box.border_title = t("start_title", self.form.lang)
            with VerticalScroll(id="form-scroll"):
                yield Static(id="form")
            yield Input(id="edit")
            yield Static(id="start-message")
            yield Static(id="help")
            yield Static(id="start-keys")

    def on_mount(self) -> None:
        # the arrows are the form's: the scroll only follows the ▶, it takes no keys
        self.query_one("#form-scroll").can_focus = False
        self.query_one(Input).can_focus = False
        self.set_focus(None)
        self.redraw()

    def redraw(self) -> None:
        f = self.form
        self.query_one(Vertical).border_title = t("start_title", f.lang)
        self.query_one("#form", Static).update(f.render())
        self.query_one("#help", Static).update(f.help())
        self.query_one("#start-keys", Static).update(t("start_help", f.lang))
        self.call_after_refresh(self.follow)

    def follow(self) -> None:
        """Scroll the lines so the current one (a line each) is in view."""
        box = self.query_one("#form-scroll", VerticalScroll)
        row, seen = self.form.row, box.scrollable_content_region.height
        if row < box.scroll_y:
            box.scroll_to(y=row, animate=False)
        elif seen and row >= box.scroll_y + seen:
            box.scroll_to(y=row - seen + 1, animate=False)

    def say(self, text: str) -> None:
        self.query_one("#start-message", Static).update(text)

    def action_move(self, step: int) -> None:
        if not self.editing:
            self.form.move(step)
            self.say("")
            self.redraw()

    def action_change(self, step: int) -> None:
        if not self.editing:
            self.form.change(step)
            self.say("")
            self.redraw()

    def action_enter(self) -> None:
        if self.editing:
            return
        f = self.form
        if f.current.startswith("resume:"):
            path = f.resumable[int(f.current[7:])][0]
            try:
                self.app.resume_game(path)  # type: ignore[attr-defined]
            except (RecordError, IllegalAction, ValueError) as exc:
                self.say(t("cannot_resume", f.lang, path=path, reason=reason(exc, f.lang)))
            return
        if f.editable():
            box = self.query_one(Input)
            box.value = f.edit_value()
            box.add_class("editing")
            self.editing = True
            box.can_focus = True
            box.focus()
            self.say(t("type_value", f.lang, name=f.line(f.current)[0]))
            return
        problem = f.problem()
        if problem:
            self.say(problem)
            return
        try:
            self.app.start_game(f)  # type: ignore[attr-defined]
        except ConfigError as exc:   # a check only the whole match makes (start_deal)
            self.say(reason(exc, f.lang))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        error = self.form.set_typed(event.value)
        if error:
            self.say(error)
            return
        self._close_editor()

    def action_cancel(self) -> None:
        if self.editing:
            self._close_editor()

    def _close_editor(self) -> None:
        box = self.query_one(Input)
        box.remove_class("editing")
        box.can_focus = False
        self.editing = False
        self.set_focus(None)
        self.say("")
        self.redraw()

    def action_rules(self) -> None:
        if not self.editing:
            from koloda.tui.screens import rules_screen
            self.app.push_screen(rules_screen(self.form.family, self.form.lang))

    def action_quit_app(self) -> None:
        if not self.editing:
            self.app.exit(None)


def option_label(name: str, lang: str) -> str:
    """An option as the start screen names it: its term (``start_deal`` → "Start deal")."""
    word = terms.term(name, lang)
    return word[:1].upper() + word[1:]


def value_text(value: Any, lang: str) -> str:
    """An option's value in words: yes/no, a word value's term, a number as written."""
    if isinstance(value, bool):
        return terms.term("yes" if value else "no", lang)
    if isinstance(value, str):
        said = option_value(value, lang)
        code = f" ({value})"      # the code in brackets: the help says it in words too
        said = said[:-len(code)] if said.endswith(code) else said
        return terms.term(value, lang) if said == value and terms.has_term(value) else said
    if isinstance(value, dict):
        return ", ".join(f"{suit_word(str(k), lang)} {value_text(v, lang)}"
                         for k, v in value.items())
    return str(value)


def _codes(opt: Option) -> list[str]:
    """The word values a word option takes ("cycle", "deal"), from its allowed text."""
    return re.findall(r'"([^"]*)"', opt.allowed) if opt.kind is str else []


def _with_words(text: str, codes: list[str], lang: str) -> str:
    """An option's help with its codes of several words (``first_elimination``) said in
    words, as the value line says them."""
    for code in codes:
        if "_" in code:
            text = text.replace(code, value_text(code, lang))
    return text


def _saved_at(path: Path) -> str:
    """When a saved game was last played (the file's time), for the Continue line."""
    import datetime
    try:
        stamp = path.stat().st_mtime
    except OSError:
        return ""
    return datetime.datetime.fromtimestamp(stamp).strftime("%Y-%m-%d %H:%M")
