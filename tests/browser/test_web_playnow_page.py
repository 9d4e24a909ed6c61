"""The lobby's "Play now" in Chromium: two people press it for 2-player
Durak, people only, and both pages open the same table, each at its own seat. It is told,
not polled: the first page waits on its push connection — it shows how long it has waited
and how many wait — and never asks ``GET /api/playnow/<ticket>``; the second page sees,
before it presses, that one waits for that table (and every table someone waits for, a
click choosing it). A request computers never fill says
so; after a reload the page follows the same request on; cancel leaves the queue; with its
push connection down the page polls, and is seated all the same."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.browser.serving import ARGS, CHROMIUM, need_browser, serving


@contextmanager
def _browser(tmp_path: Path) -> Iterator[tuple[Any, str]]:
    """Chromium and a server's address."""
    sync_playwright = need_browser()
    with serving(tmp_path) as address, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield browser, address
        finally:
            browser.close()


def _choose(page: Any, name: str) -> None:
    """2-player Durak, people only, as ``name``."""
    page.wait_for_selector("#play-now")
    page.fill("#my-name", name)
    page.dispatch_event("#my-name", "input")
    page.select_option("#pn-game", "durak")
    page.select_option("#pn-players", "2")
    page.select_option("#pn-bot", "")


def test_two_people_pressing_play_now_land_at_one_table(tmp_path: Path) -> None:
    with _browser(tmp_path) as (browser, address):
        pages = []
        for name in ("Аня", "Боря"):
            page = browser.new_context(locale="en-US").new_page()
            page.goto(address)
            _choose(page, name)
            page.click("#play-now")
            pages.append(page)
        pages[0].wait_for_url("**/t/*", timeout=15000)
        pages[1].wait_for_url("**/t/*", timeout=15000)
        assert pages[0].url == pages[1].url
        seats = set()
        for page in pages:
            table = page.url.rsplit("/", 1)[1]
            seats.add(page.evaluate(f"localStorage.getItem('koloda.seat.{table}')"))
        assert len(seats) == 2 and None not in seats      # two seat tokens, one each


def test_play_now_waits_on_its_push_and_both_pages_open_the_table(tmp_path: Path) -> None:
    from playwright.sync_api import expect
    with _browser(tmp_path) as (browser, address):
        anna = browser.new_context(locale="en-US").new_page()
        asked: list[str] = []
        anna.on("request", lambda r: asked.append(r.url) if re.search(
            r"/api/playnow/[^/?]+$", r.url) and r.method == "GET" else None)
        anna.goto(address)
        _choose(anna, "Аня")
        assert "nobody comes" in anna.inner_text("#pn-note")   # never computers: said
        anna.click("#play-now")
        expect(anna.locator("#pn-status")).to_contain_text("1 of 2")
        expect(anna.locator("#pn-status")).to_contain_text(re.compile(r"waiting 0:0[1-9]"))
        assert anna.title().startswith("(1/2) Play now")     # seen from another tab too
        anna.reload()                           # a reload follows the same request on
        expect(anna.locator("#pn-status")).to_contain_text("1 of 2")
        assert anna.is_enabled("#pn-cancel") and not anna.is_enabled("#play-now")

        boris = browser.new_context(locale="en-US").new_page()
        boris.goto(address)
        _choose(boris, "Боря")
        expect(boris.locator("#pn-queued")).to_contain_text("Waiting for this table now: 1")
        queue = boris.locator("#pn-queues .pn-queue")     # every table someone waits for
        expect(queue).to_have_count(1)
        expect(queue).to_contain_text("· 2 players · people only — 1 waiting, the longest")
        boris.select_option("#pn-players", "3")
        boris.select_option("#pn-bot", "random")
        queue.click()                                     # …and a click chooses it
        assert boris.input_value("#pn-players") == "2" and boris.input_value("#pn-bot") == ""
        boris.click("#play-now")
        anna.wait_for_url("**/t/*", timeout=15000)
        boris.wait_for_url("**/t/*", timeout=15000)
        assert anna.url == boris.url
        assert asked == []          # told by the push, never polled


def test_cancel_in_the_page_leaves_the_queue(tmp_path: Path) -> None:
    from playwright.sync_api import expect
    with _browser(tmp_path) as (browser, address):
        page = browser.new_context(locale="en-US").new_page()
        page.goto(address)
        _choose(page, "Аня")
        page.click("#play-now")
        expect(page.locator("#pn-status")).to_contain_text("1 of 2")
        page.click("#pn-cancel")
        expect(page.locator("#pn-status")).to_contain_text("left the queue")
        assert page.evaluate("fetch('/api/playnow').then((r) => r.json())") == []
        assert page.is_enabled("#play-now")


def test_with_its_push_down_the_page_polls_and_still_opens_the_table(tmp_path: Path) -> None:
    """The fallback: every push connection refused (closed at once), the page asks
    ``GET /api/playnow/<ticket>`` and is seated all the same."""
    from playwright.sync_api import expect
    with _browser(tmp_path) as (browser, address):
        anna = browser.new_context(locale="en-US").new_page()
        asked: list[str] = []
        anna.on("request", lambda r: asked.append(r.url) if re.search(
            r"/api/playnow/[^/?]+$", r.url) and r.method == "GET" else None)
        anna.route_web_socket(re.compile(r".*/ws/playnow/.*"), lambda ws: ws.close())
        anna.goto(address)
        _choose(anna, "Аня")
        anna.click("#play-now")
        expect(anna.locator("#pn-status")).to_contain_text("1 of 2")
        boris = browser.new_context(locale="en-US").new_page()
        boris.goto(address)
        _choose(boris, "Боря")
        boris.click("#play-now")
        anna.wait_for_url("**/t/*", timeout=15000)
        boris.wait_for_url("**/t/*", timeout=15000)
        assert anna.url == boris.url and asked       # seated by polling
