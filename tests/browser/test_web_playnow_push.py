"""The lobby's "Play now" told, not polled (issue #20), in Chromium: the first page waits
on its push connection — it shows how long it has waited and how many wait — and never asks
``GET /api/playnow/<ticket>``; the second page sees, before it presses, that one waits for
that table; both open the table when the second presses. A request computers never fill
says so, and after a reload the page follows the same request on."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.browser.serving import ARGS, CHROMIUM, need_browser, serving


def _choose(page: Any, name: str) -> None:
    """2-player Durak, people only, as ``name``."""
    page.wait_for_selector("#play-now")
    page.fill("#my-name", name)
    page.dispatch_event("#my-name", "input")
    page.select_option("#pn-game", "durak")
    page.select_option("#pn-players", "2")
    page.select_option("#pn-bot", "")


def test_play_now_waits_on_its_push_and_both_pages_open_the_table(tmp_path: Path) -> None:
    sync_playwright = need_browser()
    from playwright.sync_api import expect
    with serving(tmp_path) as address, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
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
            # a reload follows the same request on
            anna.reload()
            expect(anna.locator("#pn-status")).to_contain_text("1 of 2")
            assert anna.is_enabled("#pn-cancel") and not anna.is_enabled("#play-now")

            boris = browser.new_context(locale="en-US").new_page()
            boris.goto(address)
            _choose(boris, "Боря")
            expect(boris.locator("#pn-queued")).to_contain_text("Waiting for this table now: 1")
            boris.click("#play-now")
            anna.wait_for_url("**/t/*", timeout=15000)
            boris.wait_for_url("**/t/*", timeout=15000)
            assert anna.url == boris.url
            assert asked == []          # told by the push, never polled
        finally:
            browser.close()


def test_cancel_in_the_page_leaves_the_queue(tmp_path: Path) -> None:
    sync_playwright = need_browser()
    from playwright.sync_api import expect
    with serving(tmp_path) as address, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            page = browser.new_context(locale="en-US").new_page()
            page.goto(address)
            _choose(page, "Аня")
            page.click("#play-now")
            expect(page.locator("#pn-status")).to_contain_text("1 of 2")
            page.click("#pn-cancel")
            expect(page.locator("#pn-status")).to_contain_text("left the queue")
            queues = page.evaluate("fetch('/api/playnow').then((r) => r.json())")
            assert queues == []
            assert page.is_enabled("#play-now")
        finally:
            browser.close()
