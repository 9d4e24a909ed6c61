"""The browser numbers deals as the terminal and the score sheet do: the header of an
Opendaum match begun at its twelfth deal (``start_deal=11``) says "Deal 12/25", not the
view's index plus one ("Deal 1"), and the replay's header says the same."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.serving import ARGS, CHROMIUM, need_browser, serving


@pytest.fixture()
def page(tmp_path: Path) -> Iterator[tuple[Any, str]]:
    sync_playwright = need_browser()
    with serving(tmp_path) as address, sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield chromium.new_page(viewport={"width": 1280, "height": 800},
                                    bypass_csp=True), address
        finally:
            chromium.close()


def test_browser_header_says_the_deal_number_the_sheet_and_terminal_say(
        page: tuple[Any, str]) -> None:
    pg, address = page
    pg.goto(address + "/")
    made = pg.evaluate("""async () => {
        const seats = [{kind: "person"}, {kind: "computer", bot: "random"},
                       {kind: "computer", bot: "random"}, {kind: "computer", bot: "random"}];
        const r = await fetch("/api/tables", {method: "POST",
            headers: {"Content-Type": "application/json"},
            body: JSON.stringify({game: "opendaum", players: 4, options: {start_deal: 11},
                                  seats, name: "Anna", sit: 0})});
        const res = await r.json();
        if (res.token) localStorage.setItem(`koloda.seat.${res.id}`, res.token);
        return res;
    }""")
    assert "url" in made, made
    pg.goto(address + made["url"])
    pg.wait_for_function("document.body.dataset.version !== undefined")
    pg.wait_for_function("document.getElementById('deal-info').textContent.includes('Deal')")
    header = pg.inner_text("#deal-info")
    assert re.search(r"Deal 12/\d+", header), header
    assert "Deal 1 " not in header + " "

