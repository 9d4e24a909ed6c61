"""Watchers a trick behind and leavers as people meet them in Chromium at 390 px: a table
made in the lobby with "watchers see: a trick behind" shows its watcher no card of the
round in play (the table as it stood when the round began, with a note saying so) while
its players see every card at once, and the end at once; a signed-in player who goes away
time after time has their seat given up to the computer, which the other player's page
shows, the returning player's page says and offers them no move, and the players' pages
then count as a match not played to the end."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from koloda.web.table import LEAVER_STRIKES
from tests.browser.serving import ARGS, CHROMIUM, need_browser, serving

PASSWORD = "tri-kozyrya-v-rukave"
MATCH_SECONDS = 240

# every state a page draws, with what its table's middle holds then (for the watcher:
# it must never hold a card; for a player: whether it ever offered a move)
RECORD_STATES = """() => {
  window.__states = [];
  const note = () => window.__states.push({
    version: document.body.dataset.version, myTurn: document.body.dataset.myTurn,
    over: document.body.dataset.over,
    pairs: document.querySelectorAll('#center .pair').length,
    cards: document.querySelectorAll('#center [data-card], #hand [data-card]').length,
    moves: document.querySelectorAll('#moves button.move').length,
    status: document.getElementById('status').textContent });
  note();
  new MutationObserver(note).observe(document.body, {attributes: true,
    attributeFilter: ['data-version', 'data-my-turn', 'data-over']});
}"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    sync_playwright = need_browser()
    from argon2 import PasswordHasher, profiles
    with serving(tmp_path_factory.mktemp("watchers"), tick=0.1,
                 password_hasher=PasswordHasher.from_parameters(profiles.CHEAPEST)
                 ) as address, sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield chromium, address
        finally:
            chromium.close()


def _page(ctx: Any, errors: list[str]) -> Any:
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def _context(chromium: Any, errors: list[str]) -> tuple[Any, Any]:
    ctx = chromium.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    return ctx, _page(ctx, errors)


def _get(address: str, path: str) -> Any:
    with urllib.request.urlopen(address + path, timeout=10) as res:
        return json.loads(res.read())


def _texts(page: Any) -> dict[str, str]:
    """The page's own catalogue, in the language it shows."""
    texts: dict[str, dict[str, str]] = page.evaluate("fetch('/api/texts').then(r => r.json())")
    return texts[page.evaluate("document.documentElement.lang")]


def _loaded(page: Any) -> None:
    page.wait_for_function("document.body.dataset.version !== undefined", timeout=15000)


def _play_one(page: Any) -> str:
    """The first of the page's legal moves, clicked; the version it leads to."""
    if page.locator("#modal:not(.hidden)").count():
        page.click("#modal .continue")
    version = page.get_attribute("body", "data-version")
    page.locator("#moves details.all-moves summary").click()
    page.locator("#moves details.all-moves button.move").nth(0).click()
    page.wait_for_function(f"document.body.dataset.version !== '{version}'", timeout=15000)
    return str(page.get_attribute("body", "data-version"))


def _at(page: Any, version: str) -> None:
    page.wait_for_function(f"Number(document.body.dataset.version) >= {version}",
                           timeout=15000)


def _cards(page: Any) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        "#center [data-card]", "els => els.map(e => e.dataset.card)")
    return found


def test_a_watcher_a_trick_behind_sees_no_card_of_the_round_in_play(
        browser: tuple[Any, str]) -> None:
    chromium, address = browser
    errors: list[str] = []
    ctx_a, anna = _context(chromium, errors)
    anna.goto(address + "/")
    anna.wait_for_selector("#create")
    anna.select_option("#game", "durak")
    anna.select_option("#players", "2")
    anna.select_option("select[name='seat-1-kind']", "person")
    anna.select_option("#spectators", "trick")
    anna.fill("#my-name", "Аня")
    anna.click("#create")
    anna.wait_for_url("**/t/**", timeout=15000)
    _loaded(anna)
    tid = anna.url.rstrip("/").split("/")[-1]
    assert _get(address, f"/api/tables/{tid}")["settings"]["spectators"] == "trick"
    # Boris sits on the table's page; Vera watches it
    ctx_b, boris = _context(chromium, errors)
    boris.goto(f"{address}/t/{tid}")
    boris.wait_for_selector("#join button[data-sit='1']")
    boris.fill("#sit-name", "Борис")
    boris.click("#join button[data-sit='1']")
    boris.wait_for_function("document.body.dataset.seat === '1'", timeout=15000)
    ctx_v, vera = _context(chromium, errors)
    vera.goto(f"{address}/t/{tid}")
    _loaded(vera)
    assert vera.get_attribute("body", "data-seat") == ""
    vera.wait_for_selector("#watching-behind")
    vera.evaluate(RECORD_STATES)
    players = [anna, boris]
    start = str(anna.get_attribute("body", "data-version"))
    _at(boris, start)
    vera.wait_for_function(f"document.body.dataset.version === '{start}'", timeout=15000)
    clear = {start}          # the versions at which no card of a round is on the table
    last_clear = start
    rounds_in_play = caught_up = 0
    deadline = time.monotonic() + MATCH_SECONDS
    while True:
        assert time.monotonic() < deadline, "the match did not end"
        if anna.get_attribute("body", "data-over") == "1":
            break
        # both pages have drawn the latest state: one of them is to move
        mover = next(p for p in players if p.get_attribute("body", "data-my-turn") == "1")
        version = _play_one(mover)
        for p in players:
            _at(p, version)
        on_table = _cards(anna)
        # the players see the same cards, live
        assert _cards(boris) == on_table
        if anna.get_attribute("body", "data-over") == "1":
            break
        if on_table:
            rounds_in_play += 1
            # the watcher: the table as it stood when the round began, and the note
            assert vera.get_attribute("body", "data-version") == last_clear
            assert vera.locator("#center .pair").count() == 0
            assert vera.locator("#center [data-card]").count() == 0
            assert vera.locator("#watching-behind").is_visible()
        else:                   # the round is over: the watcher is shown it
            clear.add(version)
            last_clear = version
            vera.wait_for_function(f"document.body.dataset.version === '{version}'",
                                   timeout=15000)
            caught_up += 1
    # the end: the watcher sees it at once, as the players do
    end = str(anna.get_attribute("body", "data-version"))
    vera.wait_for_function(f"document.body.dataset.over === '1' && "
                           f"document.body.dataset.version === '{end}'", timeout=5000)
    assert rounds_in_play and caught_up
    states: list[dict[str, Any]] = vera.evaluate("window.__states")
    shown = [s for s in states if s["over"] != "1"]
    assert shown and all(s["pairs"] == 0 and s["cards"] == 0 for s in shown), shown
    assert {s["version"] for s in shown} <= clear
    assert all(s["myTurn"] == "0" for s in states)
    for ctx in (ctx_a, ctx_b, ctx_v):
        ctx.close()
    assert errors == []


def _register(page: Any, address: str, name: str) -> None:
    page.goto(address + "/")
    page.wait_for_selector("#create")
    res = page.evaluate("""async ([name, password]) => {
        const r = await fetch('/api/register', {method: 'POST',
          headers: {'Content-Type': 'application/json'},
          body: JSON.stringify({name, password})});
        return r.status; }""", [name, PASSWORD])
    assert res == 201


def _post(page: Any, path: str, body: dict[str, Any]) -> Any:
    """A POST from the page, signed in (with its session's CSRF token)."""
    return page.evaluate("""async ([path, body]) => {
        const me = await (await fetch('/api/me')).json();
        const r = await fetch(path, {method: 'POST', headers: {
          'Content-Type': 'application/json', 'X-CSRF-Token': me.csrf || ''},
          body: JSON.stringify(body)});
        return {status: r.status, body: await r.json()}; }""", [path, body])


def _away_table(anna: Any) -> dict[str, Any]:
    made = _post(anna, "/api/tables", {
        "game": "durak", "players": 2, "sit": 0, "name": "Аня",
        "seats": [{"kind": "person"}, {"kind": "person"}],
        "settings": {"away_timeout": 1, "away_policy": "computer", "away_bot": "random"}})
    assert made["status"] == 201, made
    body: dict[str, Any] = made["body"]
    anna.evaluate(f"localStorage.setItem('koloda.seat.{body['id']}', '{body['token']}')")
    return body


def _play_until(anna: Any, done: Any) -> None:
    """Anna plays her moves (the other seat's are Boris's or the computer's) until
    ``done()`` or the end of the match."""
    deadline = time.monotonic() + MATCH_SECONDS
    while not done():
        assert time.monotonic() < deadline, "never came"
        anna.wait_for_function("document.body.dataset.myTurn === '1' || "
                               "document.body.dataset.over === '1'", timeout=30000)
        if anna.get_attribute("body", "data-over") == "1" or done():
            return
        _play_one(anna)


def _seat_tag(page: Any, seat: int) -> str:
    return str(page.text_content(f".seat-box[data-seat='{seat}'] .seat-head .tag:not(.reliable)")
               ).strip()


def test_a_seat_away_time_after_time_is_given_up_and_its_player_sees_it(
        browser: tuple[Any, str]) -> None:
    chromium, address = browser
    errors: list[str] = []
    ctx_a, anna = _context(chromium, errors)
    _register(anna, address, "Анна")
    ctx_b, boris = _context(chromium, errors)
    _register(boris, address, "Борис")
    made = _away_table(anna)
    tid = made["id"]
    anna.goto(address + made["url"])
    _loaded(anna)
    boris.goto(f"{address}/t/{tid}")
    boris.wait_for_selector("#join button[data-sit='1']")
    boris.click("#join button[data-sit='1']")        # signed in: under his account's name
    boris.wait_for_function("document.body.dataset.seat === '1'", timeout=15000)
    texts = _texts(anna)
    anna.wait_for_function(
        "document.querySelector(\".seat-box[data-seat='1'] .tag.online\") !== null",
        timeout=15000)

    def strikes() -> int:
        n: int = _get(address, f"/api/tables/{tid}")["seats"][1]["timeouts"]
        return n

    for strike in range(1, LEAVER_STRIKES + 1):
        boris.close()                                  # away
        anna.wait_for_function(
            "document.querySelector(\".seat-box[data-seat='1'] .tag.online\") === null",
            timeout=15000)
        _play_until(anna, lambda n=strike: strikes() >= n)
        assert strikes() == strike
        assert anna.get_attribute("body", "data-over") == "0"
        seat = _get(address, f"/api/tables/{tid}")["seats"][1]
        assert seat["left"] is (strike == LEAVER_STRIKES)
        if strike < LEAVER_STRIKES:                    # back for a moment
            boris = _page(ctx_b, errors)
            boris.goto(f"{address}/t/{tid}")
            boris.wait_for_function("document.body.dataset.seat === '1'", timeout=15000)
            assert boris.locator("#seat-given-up").count() == 0
            anna.wait_for_function(
                "document.querySelector(\".seat-box[data-seat='1'] .tag.online\") !== null",
                timeout=15000)
    # the other player's page: Boris left, the computer plays his seat to the end
    anna.wait_for_function(f"""document.querySelector(".seat-box[data-seat='1'] .tag.away")
        ?.textContent === {json.dumps(texts['seat_left'])}""", timeout=15000)
    # Boris comes back: his page says the seat was given up, and offers him no move
    boris = _page(ctx_b, errors)
    boris.goto(f"{address}/t/{tid}")
    boris.wait_for_function("document.body.dataset.seat === '1'", timeout=15000)
    boris.wait_for_selector("#seat-given-up")
    assert boris.text_content("#seat-given-up") == texts["seat_given_up"]
    boris.evaluate(RECORD_STATES)
    # back, and still the computer's: Anna's page says so while Boris is connected
    assert _seat_tag(anna, 1) == texts["seat_left"]
    _play_until(anna, lambda: False)
    assert anna.get_attribute("body", "data-over") == "1"
    boris.wait_for_function("document.body.dataset.over === '1'", timeout=15000)
    states: list[dict[str, Any]] = boris.evaluate("window.__states")
    assert all(s["myTurn"] == "0" and s["moves"] == 0 for s in states), states
    assert any(s["status"] == texts["computer_plays_you"] for s in states), states
    assert _get(address, f"/api/tables/{tid}")["seats"][1]["left"] is True
    # the players' pages: Boris finished none of his one match, Anna hers
    deadline = time.monotonic() + 20
    while _get(address, "/api/players/%D0%91%D0%BE%D1%80%D0%B8%D1%81").get(
            "reliability", {}).get("matches") != 1:
        assert time.monotonic() < deadline, "the match was not stored"
        anna.wait_for_timeout(200)
    boris.goto(f"{address}/player/Борис")
    boris.wait_for_selector("#reliability")
    ptexts = _texts(boris)
    assert boris.text_content("#reliability") == ptexts["reliability"].format(
        finished=0, matches=1)
    # and at their next table the seats' chips say the same
    again = _away_table(anna)
    sat = _post(boris, f"/api/tables/{again['id']}/sit", {"seat": 1, "name": "Борис"})
    assert sat["status"] == 200, sat
    anna.goto(address + again["url"])
    _loaded(anna)
    anna.wait_for_selector(".seat-box[data-seat='1'] .tag.reliable")
    assert anna.text_content(".seat-box[data-seat='1'] .tag.reliable") == \
        ptexts["reliability_short"].format(finished=0, matches=1)
    anna.wait_for_selector(".seat-box[data-seat='0'] .tag.reliable")
    assert anna.text_content(".seat-box[data-seat='0'] .tag.reliable") == \
        ptexts["reliability_short"].format(finished=1, matches=1)
    ctx_a.close()
    ctx_b.close()
    assert errors == []
