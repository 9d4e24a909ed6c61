"""The hint in the browser, as a person meets it at 390 px: against computers a Hint
button beside the moves asks the strongest computer player, the page says what it would
play (a move the seat may make) and its values; at a table of people there is no button."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.serving import ARGS, CHROMIUM, need_browser, serving


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    sync_playwright = need_browser()
    with serving(tmp_path_factory.mktemp("hint")) as address, sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield chromium, address
        finally:
            chromium.close()


def _open(chromium: Any, address: str, seats: list[dict[str, Any]], lang: str
          ) -> tuple[Any, Any, list[str], dict[str, Any], list[dict[str, Any]]]:
    ctx = chromium.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True,
                               locale=lang)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    frames: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(
        json.loads(p if isinstance(p, str) else p.decode()))))
    page.goto(address + "/")
    page.wait_for_selector("#create")
    page.evaluate(f"localStorage.setItem('koloda.lang', '{lang}')")
    made = page.evaluate(
        """async (body) => { const r = await fetch('/api/tables', {method: 'POST',
           headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
           return r.json(); }""",
        {"game": "durak", "players": 2, "seats": seats, "name": "Вера", "sit": 0})
    page.evaluate(f"localStorage.setItem('koloda.seat.{made['id']}', {json.dumps(made['token'])})")
    page.goto(address + made["url"])
    page.wait_for_function("document.body.dataset.version !== undefined")
    return ctx, page, errors, made, frames


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_hint_button_shows_the_strongest_computers_move(browser: tuple[Any, str],
                                                            lang: str) -> None:
    chromium, address = browser
    ctx, page, errors, _, frames = _open(
        chromium, address, [{"kind": "person"}, {"kind": "computer", "bot": "heuristic"}], lang)
    page.wait_for_function("document.body.dataset.myTurn === '1'", timeout=30000)
    if page.locator("#modal:not(.hidden)").count():
        page.click("#modal .continue")
    button = page.locator("#hint-button")
    assert button.text_content() == ("Подсказка" if lang == "ru" else "Hint")
    button.click()
    page.wait_for_selector("#hint-text", timeout=30000)
    text = page.locator("#hint-text").text_content() or ""
    assert text.startswith("Подсказка (перебор): " if lang == "ru" else "Hint (search): ")
    hint = next(f for f in frames if f["type"] == "hint")
    state = [f for f in frames if f["type"] == "state" and f["version"] == hint["version"]][-1]
    assert hint["action"] in state["legal"]
    # the hint row fits the phone's width
    box = page.locator("#hint-row").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    ctx.close()
    assert errors == []


def test_no_hint_button_at_a_table_of_people(browser: tuple[Any, str]) -> None:
    chromium, address = browser
    ctx, page, errors, _, _ = _open(chromium, address,
                                       [{"kind": "person"}, {"kind": "person"}], "en")
    page.wait_for_selector("#hand")
    page.wait_for_timeout(300)
    assert page.locator("#hint-button").count() == 0
    ctx.close()
    assert errors == []


def test_take_back_puts_the_hand_back_as_it_was(browser: tuple[Any, str]) -> None:
    chromium, address = browser
    ctx, page, errors, _, frames = _open(
        chromium, address, [{"kind": "person"}, {"kind": "computer", "bot": "random"}], "en")
    page.wait_for_function("document.body.dataset.myTurn === '1'", timeout=30000)
    if page.locator("#modal:not(.hidden)").count():
        page.click("#modal .continue")
    assert page.locator("#takeback-button").is_disabled()     # nothing to take back yet
    hand = sorted(page.locator("#hand img.card").evaluate_all(
        "els => els.map(e => e.dataset.card)"))
    version = page.get_attribute("body", "data-version")
    page.locator("#moves details.all-moves summary").click()
    page.locator("#moves details.all-moves button.move").nth(0).click()
    page.wait_for_function(f"document.body.dataset.version !== '{version}' && "
                           "document.body.dataset.myTurn === '1'", timeout=30000)
    if page.get_attribute("body", "data-over") == "1":
        pytest.skip("the match ended at the first move")
    moved = page.get_attribute("body", "data-version")
    page.locator("#takeback-button").click()
    page.wait_for_function(f"document.body.dataset.version !== '{moved}'", timeout=30000)
    assert sorted(page.locator("#hand img.card").evaluate_all(
        "els => els.map(e => e.dataset.card)")) == hand
    assert any(f["type"] == "ok" and f["action"].startswith("takeback ") for f in frames)
    ctx.close()
    assert errors == []
