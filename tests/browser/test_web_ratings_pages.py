"""The leaderboard, the player page and its plot in Chromium, under the
server's Content-Security-Policy: the leaderboard lists the rated accounts by rating, the
player page draws one plot point per rated game plus the start, links its games to their
replays, says everything in Russian too — no raw identifiers.

With ``KOLODA_SCREENSHOTS=DIR`` set it also saves the screenshots of docs/web.md (player
page, leaderboard, replay; 1280 and 390 px wide) into DIR: ``benchmarks/web_screenshots.py``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from koloda.engine.registry import registry
from koloda.store import Store
from tests.browser.serving import ARGS, CHROMIUM, need_browser, serving
from tests.test_store import played

PEOPLE = ("Аня", "Боря", "Вера")
#: an identifier where words should be: a text key (rating_history), a game's name
#: (durak-perevodnoy, opendaum-33), a computer level (search:easy)
RAW = re.compile("|".join([r"\b[a-z]+_[a-z]+", "search:",
                           *(re.escape(n) for n in registry() if "-" in n)]))


def _seat(name: str) -> dict[str, Any]:
    return {"name": name, "kind": "human"}


def _bot(level: str) -> dict[str, Any]:
    return {"name": "Computer", "kind": "bot", "bot": level}


def rated_games(url: str) -> dict[str, Any]:
    """A few rated matches as the server stores them (``Store.add_game`` with the seats'
    accounts): Аня against computers and people at Durak and Trinka, Боря and Вера too."""
    store = Store(url)
    try:
        ids = {n: store.add_account(n, "$argon2id$not-a-real-hash").id for n in PEOPLE}
        last = 0
        plan: list[tuple[str, list[dict[str, Any]], dict[int, int], dict[str, Any]]] = []
        for i in range(8):
            other = _bot(("random", "heuristic", "search:easy")[i % 3])
            plan.append(("durak", [_seat("Аня"), other], {0: ids["Аня"]}, {}))
        for _i in range(4):
            plan.append(("durak", [_seat("Боря"), _seat("Аня")],
                         {0: ids["Боря"], 1: ids["Аня"]}, {}))
            plan.append(("durak", [_seat("Вера"), _bot("random")], {0: ids["Вера"]}, {}))
        for _i in range(3):
            plan.append(("trinka", [_seat("Аня"), _bot("heuristic"), _seat("Вера"),
                                    _bot("random")], {0: ids["Аня"], 2: ids["Вера"]}, {}))
        for seed, (game, seats, accounts, options) in enumerate(plan):
            last = store.add_game(played(game, 300 + seed, seats, **options),
                                  accounts=accounts).id
        return {"ids": ids, "last": last, "games": len(plan)}
    finally:
        store.close()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    need_browser()
    made = rated_games(f"sqlite:///{tmp_path / 'koloda.db'}")
    with serving(tmp_path) as address:
        yield address, made


#: the screenshots kept: English at 1280 px, Russian at 390 px
SHOTS = {(1280, "en"), (390, "ru")}


def _shoot(page: Any, name: str, width: int, lang: str) -> None:
    out = os.environ.get("KOLODA_SCREENSHOTS")
    if out and (width, lang) in SHOTS:
        Path(out).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(out) / f"{name}.png"), full_page=True)


def test_leaderboard_and_player_page_with_its_plot(site: tuple[str, dict[str, Any]]) -> None:
    address, made = site
    sync_playwright = need_browser()
    import json
    from urllib.request import urlopen
    board = json.load(urlopen(f"{address}/api/leaderboard/durak"))
    anya = json.load(urlopen(f"{address}/api/players/%D0%90%D0%BD%D1%8F"))
    assert {r["name"] for r in board["rows"]} == set(made["ids"])   # no computer listed
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            for width, height in ((1280, 900), (390, 844)):
                for lang in ("en", "ru"):
                    ctx = browser.new_context(viewport={"width": width, "height": height},
                                              locale="en-US")
                    ctx.add_init_script(f"localStorage.setItem('koloda.lang', '{lang}')")
                    page = ctx.new_page()
                    errors: list[str] = []
                    page.on("pageerror", lambda e, errs=errors: errs.append(str(e)))
                    page.on("console", lambda m, errs=errors: errs.append(m.text)
                            if m.type == "error" else None)
                    page.goto(f"{address}/leaderboard/durak")
                    page.wait_for_selector("#leaderboard tbody tr")
                    names = [r.get_attribute("data-name")
                             for r in page.query_selector_all("#leaderboard tbody tr")]
                    assert names == [r["name"] for r in board["rows"]]
                    text = page.inner_text("main")
                    assert ("Рейтинг" if lang == "ru" else "Leaderboard") in text
                    assert not RAW.search(text), RAW.search(text)
                    _shoot(page, f"web-leaderboard-{width}", width, lang)
                    page.goto(f"{address}/player/%D0%90%D0%BD%D1%8F")
                    page.wait_for_selector("#plot")
                    points = len(page.query_selector_all("#plot circle"))
                    assert points == len(anya["history"]["durak"]) + 1
                    links = [a.get_attribute("href")
                             for a in page.query_selector_all("#recent a")]
                    assert links == [f"/g/{g['id']}" for g in anya["recent"]]
                    text = page.inner_text("main")
                    assert ("История рейтинга" if lang == "ru" else "Rating history") in text
                    assert not RAW.search(text), RAW.search(text)
                    assert "trinka" not in text
                    _shoot(page, f"web-player-{width}", width, lang)
                    if (width, lang) in SHOTS:
                        page.goto(f"{address}/g/{anya['recent'][-1]['id']}")
                        page.wait_for_selector("body[data-at]", timeout=10000)
                        page.keyboard.press("End")
                        page.wait_for_timeout(300)
                        _shoot(page, f"web-replay-{width}", width, lang)
                    assert errors == []
                    ctx.close()
        finally:
            browser.close()
