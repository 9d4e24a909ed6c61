"""The lobby's "Play now" in Chromium (issue #20, item 1): two people press it for 2-player
Durak, people only, and both pages open the same table, each at its own seat."""

from __future__ import annotations

from pathlib import Path

from tests.browser.serving import ARGS, CHROMIUM, need_browser, serving


def test_two_people_pressing_play_now_land_at_one_table(tmp_path: Path) -> None:
    sync_playwright = need_browser()
    with serving(tmp_path) as address, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            pages = []
            for name in ("Аня", "Боря"):
                page = browser.new_context(locale="en-US").new_page()
                page.goto(address)
                page.wait_for_selector("#play-now")
                page.fill("#my-name", name)
                page.dispatch_event("#my-name", "input")
                page.select_option("#pn-game", "durak")
                page.select_option("#pn-players", "2")
                page.select_option("#pn-bot", "")
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
        finally:
            browser.close()
