"""A private table and a rematch as people meet them in Chromium at 390 px: the lobby's
"private" box makes a table only its invite link opens, a friend watches through that link;
at the end of a match the rematch button takes the player to the same seats again."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.serving import ARGS, CHROMIUM, need_browser, serving


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    sync_playwright = need_browser()
    with serving(tmp_path_factory.mktemp("private")) as address, sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield chromium, address
        finally:
            chromium.close()


def _page(chromium: Any) -> tuple[Any, Any, list[str]]:
    ctx = chromium.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, errors


def test_a_private_table_is_opened_by_its_invite_link_only(browser: tuple[Any, str]
                                                           ) -> None:
    chromium, address = browser
    ctx, page, errors = _page(chromium)
    page.goto(address + "/")
    page.wait_for_selector("#create")
    page.fill("#my-name", "Вера")
    page.check("#private")
    page.click("#create")
    page.wait_for_selector("#join input.wide")
    link = page.input_value("#join input.wide")
    assert "#invite=" in link
    assert "#invite=" not in page.url          # the key left the address bar
    tid = page.url.rstrip("/").split("/")[-1]
    # the lobby does not list it
    page.goto(address + "/")
    page.wait_for_selector("#create")
    page.wait_for_timeout(300)
    assert page.locator(f"[data-table='{tid}'], a[href='/t/{tid}']").count() == 0
    # a stranger with the bare address finds nothing; a friend with the link sits
    ctx2, friend, errors2 = _page(chromium)
    friend.goto(f"{address}/t/{tid}")
    friend.wait_for_function("document.getElementById('msg').textContent.length > 0",
                             timeout=10000)
    assert "no table" in (friend.text_content("#msg") or "").lower() or \
        "нет" in (friend.text_content("#msg") or "")
    friend = ctx2.new_page()           # (a new page: only the fragment differs)
    friend.on("pageerror", lambda e: errors2.append(str(e)))
    friend.goto(link)
    friend.wait_for_function("document.body.dataset.version !== undefined", timeout=10000)
    assert friend.get_attribute("body", "data-seat") == ""      # watching, by invitation
    assert "#invite=" in friend.input_value("#join input.wide")  # and may pass it on
    ctx.close()
    ctx2.close()
    assert errors == [] and errors2 == []


def test_the_rematch_button_takes_the_player_to_the_same_seats(browser: tuple[Any, str]
                                                              ) -> None:
    chromium, address = browser
    ctx, page, errors = _page(chromium)
    page.goto(address + "/")
    page.wait_for_selector("#create")
    made = page.evaluate(
        """async () => { const r = await fetch('/api/tables', {method: 'POST',
           headers: {'Content-Type': 'application/json'}, body: JSON.stringify({
             game: 'durak', players: 2, name: 'Вера', sit: 0,
             seats: [{kind: 'person'}, {kind: 'computer', bot: 'random'}]})});
           return r.json(); }""")
    page.evaluate(f"localStorage.setItem('koloda.seat.{made['id']}', '{made['token']}')")
    page.goto(address + made["url"])
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        page.wait_for_function("document.body.dataset.myTurn === '1' || "
                               "document.body.dataset.over === '1'", timeout=30000)
        if page.get_attribute("body", "data-over") == "1":
            break
        if page.locator("#modal:not(.hidden)").count():
            page.click("#modal .continue")
        version = page.get_attribute("body", "data-version")
        page.locator("#moves details.all-moves summary").click()
        page.locator("#moves details.all-moves button.move").nth(0).click()
        page.wait_for_function(f"document.body.dataset.version !== '{version}'",
                               timeout=30000)
    assert page.get_attribute("body", "data-over") == "1"
    page.wait_for_selector("#modal-rematch", timeout=10000)
    page.click("#modal-rematch")
    page.wait_for_url(lambda url: made["id"] not in url, timeout=15000)
    page.wait_for_function("document.body.dataset.seat === '0'", timeout=15000)
    new_id = page.url.rstrip("/").split("/")[-1]
    info = page.evaluate(f"fetch('/api/tables/{new_id}').then(r => r.json())")
    assert info["seats"][0]["name"] == "Вера" and info["seats"][1]["kind"] == "computer"
    assert not info["over"]
    ctx.close()
    assert errors == []
