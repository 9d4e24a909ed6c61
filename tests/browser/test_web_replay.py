"""A finished game's replay page in Chromium: ``/g/<id>#5`` opens at move
5, the keys and buttons step through the record, every seat's hand is the one the engine
holds at that move, and the last move shows the same result as ``koloda replay ID``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from koloda.engine.records import from_record
from koloda.store import Store
from tests.browser.serving import ARGS, CHROMIUM, need_browser, serving
from tests.test_store import played

SEATS = [{"name": "Аня", "kind": "human"}, {"name": "Computer 2", "kind": "bot",
                                             "bot": "random"}]


@pytest.fixture
def stored(tmp_path: Path) -> Iterator[tuple[str, int, dict[str, Any], str]]:
    """A server whose store holds one finished Durak match: (address, id, record, db)."""
    url = f"sqlite:///{tmp_path / 'koloda.db'}"
    store = Store(url)
    try:
        record = played("durak", 4, SEATS)
        game_id = store.add_game(record).id
    finally:
        store.close()
    with serving(tmp_path) as address:
        yield address, game_id, record, url


def cli_replay(game_id: int, db: str, lang: str) -> str:
    from typer.testing import CliRunner

    from koloda.cli.main import app
    out = CliRunner().invoke(app, ["replay", str(game_id), "--db", db, "--lang", lang])
    assert out.exit_code == 0, out.output
    return str(out.output)


def hands_after(record: dict[str, Any], n: int) -> list[list[str]]:
    match = from_record(dict(record, actions=[], result=None))
    for a in record["actions"][:n]:
        match.apply(a["action"])
    return [sorted(match.observation(s).to_json()["hand"]) for s in range(match.players)]


def shown_hands(page: Any, players: int) -> list[list[str]]:
    return [sorted(img.get_attribute("data-card") for img in
                   page.query_selector_all(f"#hands [data-seat='{s}'] img.card"))
            for s in range(players)]


def at(page: Any, n: int) -> None:
    page.wait_for_function(f"document.body.dataset.at === '{n}'", timeout=10000)


def test_the_replay_page_steps_to_the_last_move_and_shows_koloda_replays_result(
        stored: tuple[str, int, dict[str, Any], str]) -> None:
    address, game_id, record, db = stored
    total = len(record["actions"])
    sync_playwright = need_browser()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            page = browser.new_context(viewport={"width": 1280, "height": 900},
                                       locale="en-US", bypass_csp=True).new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            # a link to a move
            page.goto(f"{address}/g/{game_id}#5")
            at(page, 5)
            assert page.inner_text("#step") == f"move 5 of {total}"
            assert page.inner_text("#action").startswith("5. ")
            assert shown_hands(page, 2) == hands_after(record, 5)
            # the keyboard and the buttons
            page.keyboard.press("ArrowRight")
            at(page, 6)
            assert page.url.endswith("#6")
            page.keyboard.press("ArrowLeft")
            page.keyboard.press("ArrowLeft")
            at(page, 4)
            page.click("#next")
            at(page, 5)
            page.keyboard.press("Home")
            at(page, 0)
            assert page.is_disabled("#prev")
            assert shown_hands(page, 2) == hands_after(record, 0)
            page.keyboard.press("End")
            at(page, total)
            assert page.get_attribute("body", "data-over") == "1"
            assert page.is_disabled("#next")
            assert shown_hands(page, 2) == hands_after(record, total)
            # the same result as the terminal's replay
            english = cli_replay(game_id, db, "en")
            winner = page.inner_text("#result p.big")
            assert winner in english.splitlines()
            assert _scores(page) == _cli_scores(english)
            durak = page.inner_text("#result p:not(.big)")
            assert durak in english.splitlines()
            # in Russian, on a phone: the same seats and scores, nothing wider than it
            page = browser.new_context(viewport={"width": 390, "height": 844},
                                       locale="ru-RU", is_mobile=True,
                                       bypass_csp=True).new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{address}/g/{game_id}#{total}")
            at(page, total)
            assert page.evaluate("innerWidth") == 390
            assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
            russian = cli_replay(game_id, db, "ru")
            assert [score for _name, score in _scores(page)] == \
                [score for _name, score in _cli_scores(russian)]
            assert page.inner_text("#result p.big").startswith("Победитель: ")
            assert "Победитель: " in russian
            assert errors == []
        finally:
            browser.close()


def test_an_unknown_game_says_so_on_the_page(stored: tuple[str, int, dict[str, Any], str]
                                              ) -> None:
    address, game_id, _record, _db = stored
    sync_playwright = need_browser()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            page = browser.new_context(locale="en-US", bypass_csp=True).new_page()
            page.goto(f"{address}/g/{game_id + 100}")
            page.wait_for_function("document.getElementById('msg').textContent !== ''")
            assert page.inner_text("#msg") == f"no finished game {game_id + 100} is stored here"
        finally:
            browser.close()


def _scores(page: Any) -> list[tuple[str, str]]:
    """(seat name, score) as the page's result table shows them (a row's marks, such as
    "(durak)", left out)."""
    rows = []
    for tr in page.query_selector_all("#result table.sheet tbody tr"):
        name = tr.query_selector("th").inner_text()
        rows.append((re.sub(r" \(.*\)$", "", name), tr.query_selector("td").inner_text()))
    return rows


def _cli_scores(text: str) -> list[tuple[str, str]]:
    """(seat name, score) from ``koloda replay``'s result table."""
    rows = []
    for name in (s["name"] for s in SEATS):
        found = re.search(rf"^\s*{re.escape(name)}(?: \([^)]*\))?\s+(-?[\d.]+)\s*$", text,
                          re.MULTILINE)
        assert found, f"{name} not in the result:\n{text}"
        rows.append((name, found.group(1)))
    return rows
