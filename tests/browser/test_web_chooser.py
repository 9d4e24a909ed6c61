"""The page chooses moves by cards as the terminal's chooser does: in Chromium, a person
clicks hand cards (and Durak's attack cards), and every move the page sends is the one
``koloda.moves.MoveChooser`` gives for those clicks on the state the page was sent — a
Durak attack with several cards, a card that beats one of two attacks, a shakha wild or
plain, Mushka's and Dreyfus's discards of several cards, throws, and a card no move uses
(sent so the engine says why)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from koloda.moves import MoveChooser
from koloda.web.views import open_targets
from tests.browser.serving import ARGS, CHROMIUM, need_browser, serving

pytestmark = pytest.mark.slow

#: where a card is clicked: its top left corner, which a fanned hand leaves uncovered
CORNER = {"x": 8, "y": 24}

GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("durak", 2, {}),
    ("durak-perevodnoy", 3, {}),
    ("opendaum-shakhi", 3, {"max_deals": 6}),
    ("mushka", 3, {"max_deals": 1}),
    ("dreyfus", 3, {"max_deals": 1}),
]


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    sync_playwright = need_browser()
    with serving(tmp_path_factory.mktemp("chooser")) as address, sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield chromium, address
        finally:
            chromium.close()


class Wire:
    """The frames of the page's websocket: the states it got, the moves it sent."""

    def __init__(self, page: Any) -> None:
        self.states: dict[int, dict[str, Any]] = {}
        self.sent: list[str] = []
        self.refused = 0
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", self._got)
        ws.on("framesent", self._sent)

    def _got(self, payload: str | bytes) -> None:
        msg = json.loads(payload if isinstance(payload, str) else payload.decode())
        if msg.get("type") == "state":
            self.states[msg["version"]] = msg
        elif msg.get("type") == "refused":
            self.refused += 1

    def _sent(self, payload: str | bytes) -> None:
        msg = json.loads(payload if isinstance(payload, str) else payload.decode())
        if msg.get("type") == "act":
            self.sent.append(msg["action"])


def _clicks(chooser: MoveChooser, cards: list[str]) -> tuple[str | None, frozenset[str]]:
    """What the page does for these hand cards clicked one after another (none of them
    yet marked): the move it sends as soon as the marked cards mean exactly one, with no
    longer set to make; else None and the marked cards."""
    marked: frozenset[str] = frozenset()
    for card in cards:
        if not marked:
            exact = chooser.exact(frozenset({card}))
            if len(exact) == 1 and not chooser.extending(frozenset({card})):
                return exact[0], frozenset({card})
        marked = marked ^ {card}
        exact = chooser.exact(marked)
        if len(exact) == 1 and not chooser.extending(marked):
            return exact[0], marked
    return None, marked


def _send_wait(page: Any, wire: Any, before: int, timeout: float = 10.0) -> str:
    deadline = time.monotonic() + timeout
    while len(wire.sent) == before:
        assert time.monotonic() < deadline, "the page sent no move"
        page.wait_for_timeout(30)
    return str(wire.sent[-1])


def _one_move(page: Any, wire: Wire, rng: random.Random, seen: set[str],
              state: dict[str, Any]) -> None:
    """Choose a move by clicking as a person would; the move sent is the chooser's."""
    disp = state["display"]["en"]
    hand = disp["hand"]["cards"] if disp["hand"] else []
    legal = state["legal"]
    chooser = MoveChooser(legal, hand)
    targets = open_targets(disp)
    card = page.locator  # a locator finds the card again if the page redraws the hand
    before = len(wire.sent)
    dull = [c for c in hand if c not in chooser.legal_cards]
    if "dull" not in seen and dull and chooser.by_cards:
        seen.add("dull")            # a card no move uses: sent, and the engine says why
        refused = wire.refused
        card(f"#hand img.card[data-card='{dull[0]}']").click(position=CORNER)
        sent = _send_wait(page, wire, before)
        assert sent == chooser.attempt(frozenset({dull[0]}), targets[0] if targets else None)
        deadline = time.monotonic() + 10
        while wire.refused == refused:
            assert time.monotonic() < deadline, "no refusal came"
            page.wait_for_timeout(30)
        before = len(wire.sent)
    beats = [(t, c) for t in targets for c in hand if chooser.aimed(c, t) in legal]
    if beats and rng.random() < 0.7:
        seen.add("aim")             # an attack card, then the card that covers it
        target, cover = rng.choice(beats)
        card(f"#center span.attack[data-attack='{target}']").click()
        card(f"#hand img.card[data-card='{cover}']").click(position=CORNER)
        assert _send_wait(page, wire, before) == chooser.aimed(cover, target)
        return
    if not chooser.by_cards:
        page.locator("#moves details.all-moves summary").click()
        page.locator("#moves details.all-moves button.move").nth(0).click()
        assert _send_wait(page, wire, before) == legal[0]
        return
    # a set some move uses; sets of several cards and sets of several moves first
    sets = list(chooser.by_cards)
    rich = [u for u in sets if len(u) > 1 or len(chooser.by_cards[u]) > 1]
    used = rng.choice(rich if rich and rng.random() < 0.8 else sets)
    order = [c for c in hand if c in used]
    rng.shuffle(order)
    if len(used) > 1:
        seen.add("several")
    expected, marked = _clicks(chooser, order)
    for c in order:
        card(f"#hand img.card[data-card='{c}']").click(position=CORNER)
        if expected is not None and len(wire.sent) > before:
            break
    if expected is None:
        # the marked cards mean several moves: the page offers just those
        seen.add("which")
        shown = page.locator("#moves button.move.primary")
        page.wait_for_selector("#moves button.move.primary")
        offered = [shown.nth(i).get_attribute("data-action") for i in range(shown.count())]
        assert offered == chooser.exact(marked)
        expected = rng.choice(offered)
        page.locator(f"#moves button.move.primary[data-action='{expected}']").click()
    assert _send_wait(page, wire, before) == expected


@pytest.mark.parametrize(("game", "players", "options"), GAMES,
                         ids=[g for g, _, _ in GAMES])
def test_the_page_sends_the_move_the_chooser_gives(browser: tuple[Any, str], game: str,
                                                   players: int,
                                                   options: dict[str, Any]) -> None:
    chromium, address = browser
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    wire = Wire(page)
    rng = random.Random(game)
    seen: set[str] = set()
    page.goto(address + "/")
    page.wait_for_selector("#create")
    seats = [{"kind": "person"}] + [{"kind": "computer", "bot": "random"}] * (players - 1)
    made = page.evaluate(
        """async (body) => { const r = await fetch('/api/tables', {method: 'POST',
           headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
           return r.json(); }""",
        {"game": game, "players": players, "options": options, "seats": seats,
         "name": "Гость", "sit": 0})
    page.evaluate(f"localStorage.setItem('koloda.seat.{made['id']}', {json.dumps(made['token'])})")
    page.goto(address + made["url"])
    page.wait_for_function("document.body.dataset.version !== undefined")
    moves = 0
    deadline = time.monotonic() + 120
    while moves < 25 and time.monotonic() < deadline:
        page.wait_for_function(
            "document.body.dataset.myTurn === '1' || document.body.dataset.over === '1'",
            timeout=30000)
        if page.get_attribute("body", "data-over") == "1":
            break
        if page.locator("#modal:not(.hidden)").count():
            page.click("#modal .continue")
        version = int(page.get_attribute("body", "data-version"))
        _one_move(page, wire, rng, seen, wire.states[version])
        moves += 1
        page.wait_for_function(f"document.body.dataset.version !== '{version}'", timeout=30000)
    ctx.close()
    assert errors == []
    assert moves >= 3
