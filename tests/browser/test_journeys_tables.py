"""A person plays a short match of every game in Chromium, against computers, clicking the
first legal move each time: at the first move, in the score sheet between deals, at the
result and in the match's replay the page is checked at 390×844 and 1280×800, in English
and in Russian (tests/browser/looks.py): nothing wider than its box, table headers over
their columns, no program's words in its text — and whenever it is the person's move, the
hand and the move buttons are within the first screen.

One server and one Chromium for the module; the matches are shortened with ``max_deals``."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.looks import first_screen_problems, overflow_problems, page_problems
from tests.browser.serving import ARGS, CHROMIUM, need_browser, serving

pytestmark = pytest.mark.slow

SIZES = ((390, 844), (1280, 800))
LANGS = ("en", "ru")
#: (game, players, options): one short match of each game; Opendaum plays two deals, so
#: the score sheet between deals shows
MATCHES: list[tuple[str, int, dict[str, Any]]] = [
    ("opendaum", 4, {"max_deals": 2}),
    ("opendaum-33", 3, {"max_deals": 1}),
    ("opendaum-shakhi", 3, {"max_deals": 1}),
    ("mushka", 3, {"max_deals": 1}),
    ("kopilka", 4, {"max_deals": 1}),
    ("dreyfus", 3, {"max_deals": 1}),
    ("trinka", 4, {"max_deals": 1}),
    ("stukolka", 4, {"max_deals": 1}),
    ("pyanitsy", 2, {"max_deals": 1, "round_cap": 12}),
    ("durak", 2, {}),
    ("durak", 6, {}),
    ("durak-perevodnoy", 3, {}),
]


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    sync_playwright = need_browser()
    with serving(tmp_path_factory.mktemp("journeys")) as address, sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield chromium, address
        finally:
            chromium.close()


def _context(chromium: Any, size: tuple[int, int], lang: str) -> Any:
    ctx = chromium.new_context(viewport={"width": size[0], "height": size[1]},
                               bypass_csp=True)
    ctx.add_init_script(f"localStorage.getItem('koloda.lang') || "
                        f"localStorage.setItem('koloda.lang', '{lang}')")
    return ctx


def _errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def _each_look(page: Any, where: str, reload: bool = False, ready: str = "body") -> list[str]:
    """The checks at both sizes in both languages: the language chosen in the page's own
    switch (or, with ``reload``, stored and the page loaded again: a dialog drawn once)."""
    found: list[str] = []
    for lang in LANGS:
        if reload:
            page.evaluate(f"localStorage.setItem('koloda.lang', '{lang}')")
            page.reload()
            page.wait_for_selector(ready)
            page.wait_for_timeout(150)
        else:
            page.select_option("#lang", lang)
        for size in SIZES:
            page.set_viewport_size({"width": size[0], "height": size[1]})
            page.wait_for_timeout(60)
            found += page_problems(page, lang, f"{where} at {size[0]} px")
            _shoot(page, f"{where}-{size[0]}-{lang}")
    return found


def _shoot(page: Any, name: str) -> None:
    """With ``KOLODA_JOURNEY_SHOTS=dir``: the first screen kept there, to look at."""
    out = os.environ.get("KOLODA_JOURNEY_SHOTS")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(out) / (re.sub(r"[^\w-]+", "_", name) + ".png")))


def _my_move_problems(page: Any, where: str) -> list[str]:
    found = []
    for size in SIZES:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_timeout(60)
        found += [f"{where} at {size[0]} px: {p}" for p in first_screen_problems(page)]
        _shoot(page, f"{where}-{size[0]}")
    return found


def _click_first_legal_move(page: Any) -> None:
    """The first of "all possible moves", clicked as a person would: open, then click."""
    if page.locator("#moves details.all-moves[open]").count() == 0:
        page.click("#moves details.all-moves summary")
    page.click("#moves details.all-moves button.move >> nth=0")


def _start(page: Any, address: str, game: str, players: int, options: dict[str, Any],
           lobby: Any = None) -> str:
    """A table of ``game`` made from the lobby, this page in its first seat, the others
    computers; ``lobby(page)`` is called on the lobby once it lists the table."""
    page.goto(address + "/")
    page.wait_for_selector("#create")
    seats = [{"kind": "person"}] + [{"kind": "computer", "bot": "random"}] * (players - 1)
    made = page.evaluate(
        """async (body) => { const r = await fetch('/api/tables', {method: 'POST',
           headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
           return r.json(); }""",
        {"game": game, "players": players, "options": options, "seats": seats,
         "name": "Гость", "sit": 0})
    assert "id" in made, made
    page.evaluate(f"localStorage.setItem('koloda.seat.{made['id']}', {json.dumps(made['token'])})")
    if lobby is not None:
        page.wait_for_selector(f"#tables li.table-row[data-table='{made['id']}']")
        lobby(page)
    page.goto(address + made["url"])
    return str(made["id"])


@pytest.mark.parametrize(("game", "players", "options"), MATCHES,
                         ids=[f"{g}-{n}p" for g, n, _ in MATCHES])
def test_a_short_match_of_every_game_looks_right_at_every_step(
        browser: tuple[Any, str], game: str, players: int, options: dict[str, Any]) -> None:
    chromium, address = browser
    ctx = _context(chromium, SIZES[0], "ru")
    page = ctx.new_page()
    errors = _errors(page)
    problems: list[str] = []
    where = f"{game} {players}p"
    try:
        def lobby(page: Any) -> None:
            problems.extend(_each_look(page, f"{where}: the lobby listing the table"))
        _start(page, address, game, players, options, lobby)
        page.wait_for_function("document.body.dataset.version !== undefined")
        moves = sheets = 0
        deadline = time.monotonic() + 120
        while True:
            assert time.monotonic() < deadline, f"{where}: the match did not end in time"
            page.wait_for_function(
                "document.body.dataset.myTurn === '1' || document.body.dataset.over === '1'",
                timeout=30000)
            if page.get_attribute("body", "data-over") == "1":
                break
            if not page.is_hidden("#modal"):          # a deal is over: its score sheet
                if not sheets:
                    problems += _each_look(page, f"{where}: the sheet between deals")
                sheets += 1
                page.click("#modal .continue")
            if not moves:
                problems += _each_look(page, f"{where}: the first move")
                page.select_option("#lang", "ru")
                page.click("#sheet-button")
                problems += _each_look(page, f"{where}: the score sheet")
                page.click("#modal .continue")
            problems += _my_move_problems(page, f"{where}: move {moves + 1}")
            problems += page_problems(page, "ru", f"{where}: move {moves + 1}")
            version = page.get_attribute("body", "data-version")
            _click_first_legal_move(page)
            moves += 1
            page.wait_for_function(
                f"document.body.dataset.version !== '{version}' "
                f"|| document.body.dataset.over === '1'", timeout=30000)
        page.wait_for_selector("#join .replay-link", timeout=15000)   # stored: its replay
        problems += _each_look(page, f"{where}: the result", reload=True,
                               ready="#modal:not(.hidden) .replay-link")
        replay = page.get_attribute("#modal .replay-link", "href")
        page.goto(address + replay)
        page.wait_for_selector("body[data-at]")
        problems += _each_look(page, f"{where}: the replay's last step", reload=True,
                               ready="body[data-at]")
        page.keyboard.press("Home")
        page.wait_for_timeout(150)
        problems += _each_look(page, f"{where}: the replay's first step")

    finally:
        ctx.close()
    assert moves >= 1
    assert errors == []
    assert problems == [], "\n".join(problems)


# ----------------------------------------------------------- the defects met
def _to_my_move(page: Any) -> None:
    page.wait_for_function(
        "document.body.dataset.myTurn === '1' || document.body.dataset.over === '1'",
        timeout=30000)


def test_last_trick_shows_no_null_in_trick_games(browser: tuple[Any, str]) -> None:
    """A finished trick's panel once wrote the parts it lacks (no facts beside who took
    it) as the word "null"."""
    chromium, address = browser
    ctx = _context(chromium, SIZES[1], "en")
    page = ctx.new_page()
    try:
        _start(page, address, "opendaum", 4, {"max_deals": 1})   # one card each: one trick
        shown = []
        while True:
            _to_my_move(page)
            if page.get_attribute("body", "data-over") == "1":
                break
            version = page.get_attribute("body", "data-version")
            _click_first_legal_move(page)
            page.wait_for_function(f"document.body.dataset.version !== '{version}'")
        page.wait_for_selector("#last-trick h3")
        shown.append(page.inner_text("#last-trick"))
    finally:
        ctx.close()
    assert "taken by" in shown[0] and "null" not in shown[0], shown


def test_phone_opendaum_4p_hand_and_bids_on_first_screen(browser: tuple[Any, str]) -> None:
    """At 390×844 the three others once stacked to about 400 px and pushed the hand and the
    bid buttons below the first screen; they sit side by side now, small."""
    chromium, address = browser
    ctx = _context(chromium, SIZES[0], "ru")
    page = ctx.new_page()
    try:
        _start(page, address, "opendaum", 4, {"max_deals": 2})
        _to_my_move(page)
        assert page.locator("#moves > .move-row button.move").count() >= 2    # a bid
        others = page.evaluate("document.getElementById('opponents')"
                               ".getBoundingClientRect().height")
        problems = first_screen_problems(page)
    finally:
        ctx.close()
    assert others < 200
    assert problems == []


def test_score_sheet_fits_its_box_on_a_phone(browser: tuple[Any, str]) -> None:
    """The sheet's table (788 px of Opendaum's deals) in a 359 px dialog: the dialog keeps
    its width, the table scrolls in a box of its own inside it."""
    chromium, address = browser
    ctx = _context(chromium, SIZES[0], "ru")
    page = ctx.new_page()
    try:
        _start(page, address, "opendaum", 4, {"max_deals": 2})
        _to_my_move(page)
        page.click("#sheet-button")
        page.wait_for_selector("#modal:not(.hidden) table.sheet")
        box = page.evaluate("""() => {
          const b = document.getElementById('modal-box'), right = b.getBoundingClientRect().right;
          return [b.scrollWidth, b.clientWidth, innerWidth,
                  [...b.querySelectorAll('table.sheet')].map((t) => t.parentElement.matches(
                    '.scroll') && t.parentElement.getBoundingClientRect().right <= right)]; }""")
        problems = overflow_problems(page)
    finally:
        ctx.close()
    scroll_width, client_width, window, inside = box
    assert scroll_width <= client_width < window
    assert inside and all(inside)
    assert problems == []


def test_every_legal_move_list_stays_open_when_the_page_redraws(
        browser: tuple[Any, str]) -> None:
    """Opened, "every legal move" once closed again whenever the page drew itself anew at
    the same move (a seat's news, the language switched) — under the finger about to
    press one of its moves."""
    chromium, address = browser
    ctx = _context(chromium, SIZES[1], "en")
    page = ctx.new_page()
    try:
        _start(page, address, "durak", 2, {})
        _to_my_move(page)
        page.click("#moves details.all-moves summary")
        page.select_option("#lang", "ru")                 # the page draws itself again
        still_open = page.locator("#moves details.all-moves[open]").count()
    finally:
        ctx.close()
    assert still_open == 1
