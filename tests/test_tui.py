"""The TUI driven headlessly by Textual's pilot: every game to its end with the keyboard,
illegal attempts refused with the engine's reason, moves of several cards, sheets between
deals, quitting and resuming, the start screen."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual import events

import koloda
from koloda.engine.errors import IllegalAction
from koloda.engine.match import Match
from koloda.engine.records import from_record
from koloda.i18n import reason
from koloda.tui.app import KolodaApp
from koloda.tui.screens import InfoScreen, ResultScreen
from koloda.tui.session import Session, make_seats, resume
from koloda.tui.start import StartScreen
from koloda.tui.table import TableScreen
from koloda.tui.view import reason_text

SIZE = (100, 32)
#: what keeps a game short: one deal (max_deals=1) for all; Pyanitsy a few rounds; Durak
#: for four, whose seed 1 happens to end soon (any seed ends; these are just quicker)
SHORT: dict[str, dict[str, Any]] = {"pyanitsy": {"round_cap": 4},
                                    "durak": {"players": 4, "seed": 1},
                                    "durak-perevodnoy": {"players": 4, "seed": 1}}


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KOLODA_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("KOLODA_DB", raising=False)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def session(match: Match, tmp_path: Path, human: int = 0, lang: str = "en",
            store_url: str | None = None) -> Session:
    seats = make_seats(match.players, human, ["random"], "Аня", lang)
    return Session(match, seats, tmp_path / f"{match.spec.name}.json", store_url=store_url,
                   use_store=store_url is not None)


def reach(game: str, pred: Callable[[Match], bool], human: int = 0, players: int | None = None,
          seeds: range = range(200), **options: Any) -> Match:
    """A match played at random (every seat) until ``pred`` holds at the person's turn."""
    for seed in seeds:
        m = koloda.new_game(game, players=players, seed=seed, **options)
        rng = random.Random(seed)
        while not m.is_over:
            if m.to_move == human and pred(m):
                return m
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])
    raise AssertionError(f"no {game} position found")


async def tap(pilot: Any, *keys: str) -> None:
    """Key presses as the pilot sends them, waiting only until every widget has handled
    them (``pilot.press`` also waits for the process to look idle: slow on a busy host)."""
    for key in keys:
        event = events.Key(key, {"enter": "\r", "space": " "}.get(key, key if len(key) == 1
                                                                  else None))
        pilot.app._driver.send_message(event)
        await pilot._wait_for_screen()


async def finish(app: KolodaApp, pilot: Any, limit: int = 3000) -> int:
    """Press keys until the result screen: the first listed move, Enter on sheets."""
    presses = 0
    while not isinstance(app.screen, ResultScreen):
        await tap(pilot, "enter" if isinstance(app.screen, InfoScreen) else "1")
        presses += 1
        assert presses < limit, "the game does not end"
    await pilot.pause()
    return presses


def engine_reason(match: Match, action: str) -> str:
    """What the engine says about ``action`` in a copy of ``match`` (same position)."""
    copy = from_record(match.record())
    for _, a in match.history:
        copy.apply(a)
    with pytest.raises(IllegalAction) as err:
        copy.apply(action)
    return err.value.reason


# --------------------------------------------------------------- every game
@pytest.mark.parametrize("game", sorted(koloda.registry()))
def test_every_game_can_be_played_to_its_end_with_the_keyboard(game: str,
                                                               tmp_path: Path) -> None:
    match = koloda.new_game(game, **({"seed": 7, "max_deals": 1} | SHORT.get(game, {})))
    s = session(match, tmp_path, store_url=f"sqlite:///{tmp_path / 'k.db'}")
    app = KolodaApp(s, "en", bot_delay=0)

    async def go() -> str:
        async with app.run_test(size=SIZE) as pilot:
            await finish(app, pilot)
            return app.export_text()
    text = run(go())
    assert match.is_over and "The match is over" in text
    saved = json.loads(s.path.read_text())
    assert saved["result"] == match.result.to_json()       # autosaved to the very end
    assert s.finished is not None and s.finished.game_id == 1   # and kept in the store


# ------------------------------------------------------------ illegal moves
def _follow_position(m: Match) -> bool:
    legal = m.legal_actions()
    hand = m.observation(m.to_move).get("hand") or []
    return bool(legal) and all(a.startswith("play ") for a in legal) and \
        any(f"play {c}" not in legal for c in hand)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_an_illegal_card_is_refused_with_the_engines_reason(tmp_path: Path,
                                                            lang: str) -> None:
    match = reach("trinka", _follow_position)
    legal = match.legal_actions()
    hand = match.observation(0)["hand"]
    bad = next(c for c in hand if f"play {c}" not in legal)
    expected = engine_reason(match, f"play {bad}")
    before = len(match.history)
    app = KolodaApp(session(match, tmp_path, lang=lang), lang, bot_delay=0)

    async def go() -> str:
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            steps = (screen.hand.index(bad) - screen.cursor) % len(screen.hand)
            await pilot.press(*["right"] * steps, "enter")
            assert len(match.history) == before      # refused: nothing happened
            message = screen.message.plain
            good = next(c for c in screen.hand if f"play {c}" in legal)
            steps = (screen.hand.index(good) - screen.cursor) % len(screen.hand)
            await pilot.press(*["right"] * steps, "enter")
            assert match.history[before] == (0, f"play {good}")
            return message
    message = run(go())
    if lang == "en":
        assert message == "Not allowed: " + reason_text(expected).plain
        assert "must follow" in message
    else:
        assert message == "Нельзя: " + reason(expected, "ru")
        assert message.startswith("Нельзя: нужно ходить в ")


def test_a_card_of_the_wrong_phase_is_refused_with_the_engines_reason(tmp_path: Path) -> None:
    """Opendaum bidding: a card is not a bid; the engine says so."""
    match = reach("opendaum-33", lambda m: m.legal_actions()[0].startswith("bid"),
                  start_deal=4)
    hand = match.observation(0)["hand"]
    expected = engine_reason(match, f"play {hand[0]}")
    app = KolodaApp(session(match, tmp_path), "en", bot_delay=0)

    async def go() -> str:
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen) and screen.zone == "menu"
            await pilot.press("left", "enter")
            return screen.message.plain
    assert run(go()).endswith(reason_text(expected).plain)


# ------------------------------------------------------- several cards
def _pair_attack(m: Match) -> bool:
    return any(a.startswith("attack ") and len(a.split()) == 3 for a in m.legal_actions())


def test_durak_attack_with_two_cards_marked_with_space(tmp_path: Path) -> None:
    match = reach("durak", _pair_attack)
    pair = next(a for a in match.legal_actions() if a.startswith("attack ")
                and len(a.split()) == 3)
    first, second = pair.split()[1:]
    before = len(match.history)
    app = KolodaApp(session(match, tmp_path), "en", bot_delay=0)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            for card in (first, second):
                steps = (screen.hand.index(card) - screen.cursor) % len(screen.hand)
                await pilot.press(*["right"] * steps, "space")
            assert screen.marked == {first, second}
            assert screen.menu_items[0] == pair       # the marked set is a legal move
            await pilot.press("enter")
    run(go())
    assert match.history[before] == (0, pair)


def test_a_card_with_two_moves_asks_which(tmp_path: Path) -> None:
    """A shakha is played wild or plain: Enter on it lists both; a number chooses."""
    def shakha(m: Match) -> bool:
        legal = m.legal_actions()
        return any(a.endswith(" wild") for a in legal)
    match = reach("opendaum-shakhi", shakha)
    wild = next(a for a in match.legal_actions() if a.endswith(" wild"))
    card = wild.split()[1]
    before = len(match.history)
    app = KolodaApp(session(match, tmp_path), "en", bot_delay=0)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            steps = (screen.hand.index(card) - screen.cursor) % len(screen.hand)
            await pilot.press(*["right"] * steps, "enter")
            assert len(match.history) == before
            assert screen.menu_items[:2] == [f"play {card} plain", wild]
            assert "Several moves" in screen.message.plain
            await pilot.press("2")
    run(go())
    assert match.history[before] == (0, wild)


def test_part_of_a_longer_move_asks_for_more_cards(tmp_path: Path) -> None:
    """Mushka's exchange: marked cards that only a longer discard uses are not refused."""
    def big_discard(m: Match) -> bool:
        return any(a.startswith("discard ") and len(a.split()) == 4 for a in m.legal_actions())
    match = reach("mushka", big_discard)
    three = next(a for a in match.legal_actions() if a.startswith("discard ")
                 and len(a.split()) == 4)
    cards = three.split()[1:]
    before = len(match.history)
    app = KolodaApp(session(match, tmp_path), "en", bot_delay=0)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            for card in cards:
                steps = (screen.hand.index(card) - screen.cursor) % len(screen.hand)
                await pilot.press(*["right"] * steps, "space")
            await pilot.press("space")                 # unmark the third again
            assert len(screen.marked) == 2
            await pilot.press("space", "enter")
    run(go())
    assert match.history[before] == (0, three)


# ---------------------------------------------------- sheets and last trick
def test_the_score_sheet_is_shown_between_deals(tmp_path: Path) -> None:
    match = koloda.new_game("opendaum", players=3, seed=3, max_deals=2)
    app = KolodaApp(session(match, tmp_path), "en", bot_delay=0)

    async def go() -> str:
        async with app.run_test(size=SIZE) as pilot:
            while not isinstance(app.screen, InfoScreen):
                await pilot.press("1")
            text = app.export_text()
            assert len(match.deals) == 2 and not match.is_over
            await pilot.press("enter")
            assert isinstance(app.screen, TableScreen)
            return text
    text = run(go())
    assert "Deal 1 is over — score sheet" in text
    assert "(bid · tricks · points)" in text and "Аня" in text


def test_the_last_trick_can_be_viewed(tmp_path: Path) -> None:
    match = reach("trinka", lambda m: m.observation(0).get("last_trick") is not None)
    last = match.observation(0)["last_trick"]
    app = KolodaApp(session(match, tmp_path), "en", bot_delay=0)

    async def go() -> str:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("l")
            assert isinstance(app.screen, InfoScreen)
            text = app.export_text()
            await pilot.press("escape")
            assert isinstance(app.screen, TableScreen)
            return text
    text = run(go())
    assert "Last trick" in text and "taken by" in text
    assert reason_text(last["cards"][0][1]).plain in text


def test_the_rules_are_one_key_away_in_the_chosen_language(tmp_path: Path) -> None:
    match = koloda.new_game("durak", seed=1)
    app = KolodaApp(session(match, tmp_path, lang="ru"), "ru", bot_delay=0)

    async def go() -> str:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("r")
            assert isinstance(app.screen, InfoScreen)
            text = app.export_text()
            await pilot.press("enter")
            return text
    text = run(go())
    assert "Правила" in text and "Дурак" in text


# ------------------------------------------------------- quit and resume
def test_quitting_saves_and_resume_continues_to_the_end(tmp_path: Path) -> None:
    match = koloda.new_game("opendaum-33", seed=5, max_deals=2)
    s = session(match, tmp_path)
    app = KolodaApp(s, "en", bot_delay=0)

    async def first() -> str | None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("1", "q")
        return app.return_value
    path = run(first())
    assert path == str(s.path)
    saved = json.loads(s.path.read_text())
    assert saved["result"] is None and len(saved["actions"]) == len(match.history) >= 1

    again, seats = resume(Path(path))
    assert again.history == match.history and seats[0]["name"] == "Аня"
    app2 = KolodaApp(Session(again, seats, Path(path), use_store=False), "en", bot_delay=0)

    async def second() -> None:
        async with app2.run_test(size=SIZE) as pilot:
            await finish(app2, pilot)
    run(second())
    final = json.loads(Path(path).read_text())
    assert final["result"]["over"] is True
    assert final["actions"][:len(saved["actions"])] == saved["actions"]


def test_computer_moves_wait_for_their_timer(tmp_path: Path) -> None:
    """With a delay the bots move one by one (a person can follow them), then it is the
    person's turn again."""
    match = koloda.new_game("trinka", seed=2)
    human = (match.to_move + 3) % 4          # the person plays fourth: three bots first
    s = session(match, tmp_path, human=human)
    app = KolodaApp(s, "en", bot_delay=0.15)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            assert len(match.history) < 3 and screen.pending   # not all at once
            await pilot.press("1")                             # not the person's turn
            assert "not your move" in screen.message.plain
            for _ in range(100):
                if s.human_to_move():
                    break
                await pilot.pause(0.05)
            assert s.human_to_move() and len(match.history) == 3
    run(go())


# ------------------------------------------------------------- the start
def test_the_start_screen_starts_the_chosen_game_variant_players_and_language(
        tmp_path: Path) -> None:
    app = KolodaApp(None, "en", player_name="Аня", use_store=False, bot_delay=0)

    async def go() -> tuple[str, str]:
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, StartScreen)
            form = screen.form
            steps = (form.families.index("durak") - form.families.index(form.family)) \
                % len(form.families)
            await pilot.press(*["right"] * steps)
            assert form.spec.name == "durak"
            await pilot.press("down", "right")            # variant: transfer durak
            assert form.spec.name == "durak-perevodnoy"
            await pilot.press("down")                      # players
            while form.players != 3:
                await pilot.press("right")
            assert form.seats.count("human") == 1
            english = app.export_text()
            while form.current != "lang":
                await pilot.press("down")
            await pilot.press("right")                    # Русский
            russian = app.export_text()
            await pilot.press("enter")
            assert isinstance(app.screen, TableScreen)
            return english, russian
    english, russian = run(go())
    assert "Transfer durak" in english and "Seat 3" in english
    assert "Дурак переводной" in russian and "Место 3" in russian
    m = app.session.match
    assert m.spec.name == "durak-perevodnoy" and m.players == 3 and app.lang == "ru"
    assert [s["kind"] for s in app.session.seats] == ["human", "bot", "bot"]


def test_the_start_screen_edits_typed_values_and_refuses_bad_ones() -> None:
    app = KolodaApp(None, "en", player_name="Аня", use_store=False, bot_delay=0)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, StartScreen)
            form = screen.form
            while form.current != "name":
                await pilot.press("down")
            await pilot.press("enter", "backspace", "backspace", "backspace", "q", "w",
                              "enter")
            assert form.name == "qw" and isinstance(app.screen, StartScreen)  # q is typed
            while form.current != "opt:max_deals":
                await pilot.press("down")
            await pilot.press("enter", *["backspace"] * 3, "0", "enter")
            assert screen.editing and "max deals" in str(
                screen.query_one("#start-message").render())       # 0 is refused
            await pilot.press("backspace", "3", "enter")
            assert not screen.editing and form.options["max_deals"] == 3
    run(go())


def test_the_start_screen_offers_unfinished_games_to_continue(tmp_path: Path) -> None:
    match = koloda.new_game("trinka", seed=1)
    match.apply(match.legal_actions()[0])
    from koloda.tui.session import autosave_dir
    s = Session(match, make_seats(4, 0, ["random"], "Аня"), autosave_dir() / "t.json",
                use_store=False)
    app = KolodaApp(None, "en", use_store=False, bot_delay=0)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, StartScreen)
            assert screen.form.current == "resume:0"
            await pilot.press("enter")
            assert isinstance(app.screen, TableScreen)
    run(go())
    resumed = app.session.match.history
    assert app.session.path == s.path and resumed[:len(match.history)] == match.history


# ------------------------------------------------------------ the capture
def test_the_durak_capture_shows_the_table_against_two_computer_players() -> None:
    from koloda.tui.capture import capture
    svg, text = run(capture(seed=3))
    assert svg.lstrip().startswith("<svg")
    assert "attack" in text and "cover" in text and "Computer 2" in text \
        and "Computer 3" in text and "Your move" in text


def test_the_start_screen_seats_you_at_any_seat_and_never_leaves_the_table_without_you(
        ) -> None:
    """Seat cycling moved you off seat 1 and could leave every seat a computer."""
    for target in range(4):
        app = KolodaApp(None, "en", player_name="Аня", use_store=False, bot_delay=0)

        async def go(target: int = target, app: KolodaApp = app) -> None:
            async with app.run_test(size=SIZE) as pilot:
                form = app.screen.form   # type: ignore[attr-defined]
                while form.current != "game":
                    await pilot.press("down")
                while form.spec.name != "trinka":
                    await pilot.press("right")
                while form.current != "you":
                    await pilot.press("down")
                await pilot.press(*["right"] * target)
                assert form.my_seat == target
                # every seat line, cycled through every choice: still exactly one person
                for seat in range(form.players):
                    while form.current != f"seat:{seat}":
                        await pilot.press("down")
                    if seat == target:
                        continue
                    for _ in range(len(form.bots) + 1):
                        await pilot.press("right")
                        assert form.seats.count("human") == 1 and form.my_seat == target
                assert form.problem() is None
                await pilot.press(*["down"] * 40)
                while form.current != "start":
                    await pilot.press("down")
                await pilot.press("enter")
                assert isinstance(app.screen, TableScreen)
        run(go())
        kinds = [s["kind"] for s in app.session.seats]
        assert kinds.index("human") == target and kinds.count("human") == 1


def test_the_start_screens_continue_lines_say_what_their_number_is(tmp_path: Path) -> None:
    match = koloda.new_game("trinka", seed=1)
    match.apply(match.legal_actions()[0])
    from koloda.tui.session import autosave_dir
    from koloda.tui.start import StartForm
    Session(match, make_seats(4, 0, ["random"], "Аня"), autosave_dir() / "t.json",
            use_store=False)
    form = StartForm(resumable=[(autosave_dir() / "t.json", match.record())])
    assert "1 move made" in form.line("resume:0")[1].plain
    form.lang = "ru"
    assert "сделано ходов: 1" in form.line("resume:0")[1].plain
    match.apply(match.legal_actions()[0])
    form = StartForm(resumable=[(autosave_dir() / "t.json", match.record())])
    assert "2 moves made" in form.line("resume:0")[1].plain


def test_the_start_screen_names_the_variant_by_its_title_not_its_id() -> None:
    from koloda.tui.start import StartForm
    form = StartForm()
    for lang in ("en", "ru"):
        form.lang = lang
        for spec in form.variants(form.family):
            form.set_spec(spec.name)
            shown = form.line("variant")[1].plain
            assert shown == (spec.title_ru if lang == "ru" else spec.title_en)
            assert f"({spec.name})" not in shown
