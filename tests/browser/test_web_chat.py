"""The table's chat in Chromium at 390 px: a line typed by one player shows on the other's
page as text (markup stays text), a muted player's lines are hidden and shown again."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.serving import ARGS, CHROMIUM, need_browser, serving


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    sync_playwright = need_browser()
    with serving(tmp_path_factory.mktemp("chat")) as address, sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield chromium, address
        finally:
            chromium.close()


def _seat_page(chromium: Any, address: str, table: dict[str, Any], token: str
               ) -> tuple[Any, Any, list[str]]:
    ctx = chromium.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: errors.append(f"a dialog opened: {d.message}"))
    page.goto(address + "/")
    page.wait_for_selector("#create")
    page.evaluate(f"localStorage.setItem('koloda.seat.{table['id']}', {json.dumps(token)})")
    page.goto(address + table["url"])
    page.wait_for_selector("#chat-input")
    return ctx, page, errors


def test_a_line_shows_on_the_other_page_as_text_and_a_muted_player_is_hidden(
        browser: tuple[Any, str]) -> None:
    import httpx
    chromium, address = browser
    made = httpx.post(f"{address}/api/tables", json={
        "game": "durak", "players": 2, "seats": [{"kind": "person"}] * 2, "sit": 0,
        "name": "Anna"}).json()
    boris = httpx.post(f"{address}/api/tables/{made['id']}/sit",
                       json={"seat": 1, "name": "Boris"}).json()["token"]
    ctx_a, anna_page, errors_a = _seat_page(chromium, address, made, made["token"])
    ctx_b, boris_page, errors_b = _seat_page(chromium, address, made, boris)
    evil = '<img src=x onerror="alert(1)"> привет'
    anna_page.fill("#chat-input", evil)
    anna_page.press("#chat-input", "Enter")
    boris_page.wait_for_selector("#chat-lines li")
    line = boris_page.locator("#chat-lines li .chat-text").first
    assert line.text_content() == evil
    assert boris_page.locator("#chat-lines img").count() == 0     # text, not markup
    assert anna_page.input_value("#chat-input") == ""
    # Boris mutes Anna: her lines go, a note says whom he muted; he shows her again
    boris_page.locator("#chat-lines li .chat-name").first.click()
    assert boris_page.locator("#chat-lines li").count() == 0
    assert "Anna" in (boris_page.locator("#chat .muted").text_content() or "")
    boris_page.locator("#chat button.unmute").click()
    assert boris_page.locator("#chat-lines li").count() == 1
    box = boris_page.locator("#chat").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    ctx_a.close()
    ctx_b.close()
    assert errors_a == [] and errors_b == []
