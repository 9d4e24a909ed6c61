"""Durak with six players in its most crowded position: the person holds sixteen cards
(taken more than once), six attacks lie on the table, the five others each show a long
list of known cards and (more than a real deal gives them) all of the marks but one. At
390×844 and at 1280×800, in both languages, the hand and the move buttons stay on the
first screen (tests/browser/looks.py's ``first_screen_problems``), whether the person
defends (the beatable attack, "take") or throws in (only "pass" left, the table full).

The table is a real one of the server (its page, its welcome, its seats); each ``state``
message it sends the page is rewritten on the way (Playwright's WebSocket routing) into
that position, so the position is the same at every run whatever the deal."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.looks import first_screen_problems, overflow_problems
from tests.browser.serving import ARGS, CHROMIUM, need_browser, serving

SIZES = ((390, 844), (1280, 800))

HAND = ["6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS",
        "6C", "7C", "8C", "9C", "TC", "KD", "9H"]
PAIRS = [("6D", "9D"), ("7D", "TD"), ("8D", "JD"), ("QC", "KC"), ("JC", "AC"), ("QD", "AD")]
KNOWN = ["6H", "7H", "8H", "TH", "JH", "QH"]
SUIT = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
#: the most marks a seat of six players may have, in both languages
MARKS = {"en": ["drew the trump card", "attacker", "passed", "in the game", "team 1", "partner"],
         "ru": ["взял(а) козырную карту", "атакует", "пас", "в игре", "команда 1", "партнёр"]}


def _text(card: str) -> str:
    return ("10" if card[0] == "T" else card[0]) + SUIT[card[1]]


def _crowded(msg: dict[str, Any], defend: bool) -> dict[str, Any]:
    """The server's state message for seat 0 made the crowded position: seat 0 to move,
    its hand of sixteen, six attacks (the last one open when it defends)."""
    pairs: list[dict[str, Any]] = [{"attack": {"text": _text(a), "cards": [a]},
                                    "cover": {"text": _text(b), "cards": [b]}} for a, b in PAIRS]
    if defend:
        pairs[-1]["cover"] = None
        legal = ["beat QD KD", "beat QD 9H", "take"]
        moves = {"hand": HAND, "playable": ["KD", "9H"], "plain": ["take"], "exact": {},
                 "more": [], "attempts": {}, "aims": {}, "beatable": ["QD"]}
    else:
        legal = ["pass"]
        moves = {"hand": HAND, "playable": [], "plain": ["pass"], "exact": {}, "more": [],
                 "attempts": {}, "aims": {}, "beatable": []}
    msg = json.loads(json.dumps(msg))
    msg["view"].update(to_move=0, hand=HAND, match_over=False)
    for lang, shown in msg["display"].items():
        shown["to_move"] = 0
        shown["hand"]["cards"] = HAND
        shown["centre"]["pairs"] = pairs
        for row in shown["players"]["rows"]:
            me = row["seat"] == 0
            row["to_move"] = me
            # one of them drew the trump card; all of the others have the rest of the marks
            row["marks"] = MARKS[lang][3:5] if me else \
                MARKS[lang] if row["seat"] == 3 else MARKS[lang][1:]
            size = len(HAND) if me else 9
            known = [] if me else KNOWN
            row["cells"] = [{"text": str(size)},
                            {"text": " ".join(map(_text, known)), "cards": known}
                            if known else {"text": "·"},
                            {"text": "0"}]
    msg["legal"] = legal
    msg["moves"] = moves
    return msg


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    sync_playwright = need_browser()
    with serving(tmp_path_factory.mktemp("crowded")) as address, sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield chromium, address
        finally:
            chromium.close()


def _open(chromium: Any, address: str, lang: str, defend: bool) -> tuple[Any, Any]:
    ctx = chromium.new_context(viewport={"width": SIZES[0][0], "height": SIZES[0][1]},
                               bypass_csp=True)
    ctx.add_init_script(f"localStorage.setItem('koloda.lang', '{lang}')")
    page = ctx.new_page()

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_server(text: Any) -> None:
            msg = json.loads(text)
            if msg.get("type") == "state" and msg.get("seat") == 0:
                text = json.dumps(_crowded(msg, defend))
            ws.send(text)
        server.on_message(from_server)

    page.route_web_socket(re.compile(r".*/ws/tables/.*"), route)
    page.goto(address + "/")
    page.wait_for_selector("#create")
    seats = [{"kind": "person"}] + [{"kind": "computer", "bot": "random"}] * 5
    made = page.evaluate(
        """async (body) => { const r = await fetch('/api/tables', {method: 'POST',
           headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
           return r.json(); }""",
        {"game": "durak", "players": 6, "options": {}, "seats": seats, "name": "Гость",
         "sit": 0})
    assert "id" in made, made
    page.evaluate(f"localStorage.setItem('koloda.seat.{made['id']}', "
                  f"{json.dumps(made['token'])})")
    page.goto(address + made["url"])
    page.wait_for_function("document.body.dataset.myTurn === '1'")
    page.wait_for_selector("#center .pair:nth-child(6)")
    return ctx, page


@pytest.mark.parametrize("defend", [True, False], ids=["defends", "throws-in"])
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_durak_6p_crowded_hand_and_moves_on_first_screen(
        browser: tuple[Any, str], lang: str, defend: bool) -> None:
    chromium, address = browser
    ctx, page = _open(chromium, address, lang, defend)
    problems: list[str] = []
    try:
        assert page.locator("#hand img.card").count() == len(HAND)
        assert page.locator("#center .pair").count() == 6
        for w, h in SIZES:
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_timeout(80)
            where = f"{'defends' if defend else 'throws in'} {lang} at {w} px"
            problems += [f"{where}: {p}" for p in first_screen_problems(page)]
            problems += [f"{where}: {p}" for p in overflow_problems(page)]
            out = os.environ.get("KOLODA_JOURNEY_SHOTS")
            if out:
                Path(out).mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(Path(out) / f"crowded-{lang}-{int(defend)}-{w}.png"))
    finally:
        ctx.close()
    assert problems == [], "\n".join(problems)
