"""A person in a real browser (Debian's chromium driven by Playwright): opens the lobby,
creates a Durak table with two computer seats, plays the match to its end by clicking
cards and buttons, and no websocket frame the page received names a card its seat could
not know at that frame's version.

Skips (with the reason) where chromium or Playwright is missing; ``.ci/install-browser.sh``
installs both. ``KOLODA_WEB_SCREENSHOT=path`` also keeps a screenshot of the table.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.leaks import leaks
from tests.browser.serving import ARGS, CHROMIUM, need_browser, serving

_need = need_browser


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    with serving(tmp_path) as url:
        yield url


def test_a_person_plays_durak_against_two_computers_in_the_browser(server: str) -> None:
    sync_playwright = _need()
    frames: list[str] = []
    rng = random.Random(2024)
    profile = tempfile.mkdtemp(prefix="koloda-chromium-")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, headless=True, args=ARGS,
                viewport={"width": 1280, "height": 860}, locale="en-US",
                bypass_csp=True)  # the page needs no eval; the test's waits do
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("websocket", lambda ws: ws.on(
                "framereceived",
                lambda payload: frames.append(payload if isinstance(payload, str)
                                              else payload.decode())))
            page.goto(server + "/")
            page.fill("#my-name", "Аня")
            page.select_option("#game", "durak")
            page.select_option("#players", "3")
            assert page.input_value("select[name=seat-1-kind]") == "computer"
            assert page.input_value("select[name=seat-2-kind]") == "computer"
            page.select_option("select[name=seat-2-bot]", "random")
            page.click("#create")
            page.wait_for_url("**/t/*")
            table_id = page.url.rsplit("/", 1)[1]
            page.wait_for_function("document.body.dataset.version !== undefined")
            assert page.get_attribute("body", "data-seat") == "0"
            clicks = refused_shown = 0
            shot = os.environ.get("KOLODA_WEB_SCREENSHOT")
            deadline = time.monotonic() + 150
            while page.get_attribute("body", "data-over") != "1":
                assert time.monotonic() < deadline, "the match did not end in time"
                page.wait_for_function(
                    "document.body.dataset.myTurn === '1' || document.body.dataset.over === '1'",
                    timeout=30000)
                if page.get_attribute("body", "data-over") == "1":
                    break
                version = page.get_attribute("body", "data-version")
                if not refused_shown and _try_an_illegal_card(page):
                    refused_shown += 1
                    assert page.get_attribute("body", "data-version") == version
                _click_a_move(page, rng)
                clicks += 1
                if shot and clicks == 6:
                    page.screenshot(path=shot)
                page.wait_for_function(
                    f"document.body.dataset.version !== '{version}' "
                    f"|| document.body.dataset.over === '1'", timeout=30000)
            page.wait_for_selector("#modal:not(.hidden)")
            assert "The match is over" in page.inner_text("#modal-box")
            record = page.evaluate(f"fetch('/api/tables/{table_id}/record').then(r => r.json())")
            assert errors == []
            browser.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    assert clicks >= 3
    assert record["result"] is not None
    assert len(frames) > clicks
    states = [json.loads(f) for f in frames]
    assert any(m["type"] == "state" and m["view"].get("match_over") for m in states)
    assert leaks(record, [(0, f) for f in frames]) == []


#: where a person taps a card of the hand: its top left corner, which a phone's fanned
#: hand leaves uncovered (the next card lies over the rest)
CORNER = {"x": 8, "y": 24}


def _try_an_illegal_card(page: Any) -> bool:
    """Click a card no legal move uses: the engine's reason shows, nothing changes."""
    dull = page.locator("#hand img.card:not(.playable)")
    if not dull.count() or page.query_selector("#hand img.card.playable") is None:
        return False
    version = page.get_attribute("body", "data-version")
    dull.first.click(position=CORNER)
    page.wait_for_function("document.getElementById('msg').textContent.length > 0",
                           timeout=10000)
    text = page.inner_text("#msg")
    assert text.startswith("Not allowed:"), text
    assert page.get_attribute("body", "data-version") == version
    return True


def _click_a_move(page: Any, rng: random.Random) -> None:
    """Like a person: a playable card from the hand (then the move it makes, if the page
    asks), or a button such as take or pass. Clicked through locators, which find the
    element again when it is clicked: the page may draw the hand afresh between the look
    and the click (an element handle would be detached then)."""
    if not page.is_hidden("#modal"):
        page.click("#modal .continue")
    cards = page.locator("#hand img.card.playable")
    buttons = page.locator("#moves > .move-row > button.move")
    n_cards, n_buttons = cards.count(), buttons.count()
    if n_cards and (not n_buttons or rng.random() < 0.8):
        version = page.get_attribute("body", "data-version")
        cards.nth(rng.randrange(n_cards)).click(position=CORNER)
        page.wait_for_function(
            f"document.body.dataset.version !== '{version}' "
            f"|| document.querySelector('#hand img.card.selected') !== null", timeout=30000)
        if page.get_attribute("body", "data-version") != version:
            return
        choice = page.locator("#moves > .move-row > button.move.primary")
        if choice.count():
            choice.nth(rng.randrange(choice.count())).click()
            return
        # a card that needs company: add another playable card
        others = page.locator("#hand img.card.playable:not(.selected)")
        if others.count():
            others.first.click(position=CORNER)
            page.wait_for_timeout(50)
            choice = page.locator("#moves > .move-row > button.move.primary")
            if choice.count():
                choice.first.click()
                return
        page.click("#moves button.clear")
        n_buttons = buttons.count()
    if n_buttons:
        buttons.nth(rng.randrange(n_buttons)).click()
        return
    page.click("#moves details.all-moves summary")
    page.click("#moves details.all-moves button.move")


def test_the_lobby_says_a_bad_option_in_russian(server: str) -> None:
    """The server's own errors carry ``error_ru``; a Russian page shows it."""
    sync_playwright = _need()
    profile = tempfile.mkdtemp(prefix="koloda-chromium-")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, headless=True, args=ARGS,
                viewport={"width": 1280, "height": 860}, locale="ru-RU", bypass_csp=True)
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(server + "/")
            page.fill("#my-name", "Аня")
            page.select_option("#game", "durak")
            page.select_option("#players", "3")
            page.fill("input[name=first_bout_limit]", "9")
            page.dispatch_event("input[name=first_bout_limit]", "change")
            page.click("#create")
            page.wait_for_function("document.getElementById('lobby-msg').textContent !== ''")
            said = page.inner_text("#lobby-msg")
            assert errors == []
            browser.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    assert said == ("параметр first_bout_limit=«9»: нужно от 1 до 6; допустимо: целое число "
                    "от 1 до 6")
