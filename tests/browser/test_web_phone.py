"""A person on a phone (Chromium at 390×844, Playwright): registers, creates a two-player
Durak table against a computer and plays the whole match, then opens its replay — in
English and in Russian. At every step the page scrolls not sideways (``scrollWidth <=
innerWidth``) and its visible text names no raw field of the game (no snake_case identifier
such as ``first_bout_limit``; no view field's name where its label belongs, ``phase:`` and
the like; on the Russian page no English field name at all).

``KOLODA_PHONE_SHOTS=dir`` keeps a screenshot of every checked step there.
"""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from koloda import new_game, registry
from koloda.engine import terms
from tests.browser.serving import ARGS, CHROMIUM, need_browser, serving
from tests.browser.test_web_browser import _click_a_move

PHONE = {"width": 390, "height": 844}
GAME = "durak"
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
LATIN = re.compile(r"[A-Za-z][A-Za-z_]*")


def raw_fields(game: str) -> frozenset[str]:
    """Every field name of the game's views and options: what the engine calls things."""
    names: set[str] = {o.name for o in registry()[game].all_options}

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                names.add(k)
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
    for seed in range(3):
        match = new_game(game, players=2, seed=seed)
        rng = random.Random(seed)
        while not match.is_over:
            for seat in range(match.players):
                walk(match.observation(seat).to_json())
            match.apply(rng.choice(match.legal_actions()))
        walk(match.observation(0).to_json())
        walk(match.public_observation().to_json())
    return frozenset(names)


def raw_words(text: str, fields: frozenset[str], lang: str) -> set[str]:
    """The raw identifiers ``text`` shows: snake_case words; in English a field shown as
    ``name:`` where the vocabulary labels it otherwise; in Russian any field's name."""
    found = set(SNAKE.findall(text))
    if lang == "ru":
        found |= {w for w in LATIN.findall(text) if w in fields}
    else:
        relabelled = {f for f in fields if terms.has_term(f) and terms.term(f, "en") != f}
        found |= {f"{f}:" for f in relabelled if re.search(rf"\b{re.escape(f)}:", text)}
    return found


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    from argon2 import PasswordHasher, profiles
    with serving(tmp_path, password_hasher=PasswordHasher.from_parameters(
            profiles.CHEAPEST)) as url:
        yield url


class Phone:
    """The page, checked after every step: no sideways scroll, no raw field name."""

    def __init__(self, page: Any, lang: str) -> None:
        self.page, self.lang = page, lang
        self.fields = raw_fields(GAME)
        self.checks = 0

    def check(self, where: str) -> None:
        page = self.page
        shots = os.environ.get("KOLODA_PHONE_SHOTS")
        if shots:
            page.screenshot(path=str(Path(shots) / f"{self.lang}-{self.checks:03d}.png"))
        width = page.evaluate("document.scrollingElement.scrollWidth")
        inner = page.evaluate("innerWidth")
        # (a mobile browser widens its layout viewport to fit a page too wide: not here)
        assert inner == PHONE["width"], f"{where}: the layout is {inner} px wide"
        assert width <= inner, f"{where}: the page scrolls sideways ({width} > {inner} px)"
        text = page.inner_text("body")
        raw = raw_words(text, self.fields, self.lang)
        assert not raw, f"{where} ({self.lang}): raw field names {sorted(raw)} in\n{text}"
        self.checks += 1


@pytest.mark.parametrize(("locale", "lang", "name"), [("en-US", "en", "Anna"),
                                                      ("ru-RU", "ru", "Аня")])
def test_a_whole_game_on_a_phone_scrolls_not_sideways_and_shows_no_raw_field(
        server: str, locale: str, lang: str, name: str) -> None:
    sync_playwright = need_browser()
    rng = random.Random(19)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            context = browser.new_context(viewport=PHONE, locale=locale, is_mobile=True,
                                          has_touch=True, bypass_csp=True)
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            phone = Phone(page, lang)
            page.goto(server + "/")
            page.wait_for_selector("#account")
            assert page.evaluate("document.documentElement.lang") == lang
            phone.check("the lobby")
            # register: the page signs in and plays under the account's name
            page.click("#account summary")
            page.fill("#account-name", name)
            page.fill("#account-password", "tri-kozyrya-v-rukave")
            page.click("#register")
            page.wait_for_selector(f"#account[data-account='{name}']")
            phone.check("the lobby, signed in")
            page.select_option("#game", GAME)
            page.select_option("#players", "2")
            page.select_option("select[name=seat-1-kind]", "computer")
            page.select_option("select[name=seat-1-bot]", "random")
            phone.check("the new table's form")
            page.click("#create")
            page.wait_for_url("**/t/*")
            page.wait_for_function("document.body.dataset.version !== undefined")
            assert page.get_attribute("body", "data-seat") == "0"
            page.wait_for_selector(".seat-box.mine .registered")
            assert name in page.inner_text(".seat-box.mine .seat-head")
            phone.check("the table")
            moves = 0
            deadline = time.monotonic() + 240
            while page.get_attribute("body", "data-over") != "1":
                assert time.monotonic() < deadline, "the match did not end in time"
                page.wait_for_function("document.body.dataset.myTurn === '1' "
                                       "|| document.body.dataset.over === '1'", timeout=30000)
                if page.get_attribute("body", "data-over") == "1":
                    break
                phone.check(f"move {moves + 1}")
                version = page.get_attribute("body", "data-version")
                _click_a_move(page, rng)
                moves += 1
                page.wait_for_function(f"document.body.dataset.version !== '{version}' "
                                       f"|| document.body.dataset.over === '1'",
                                       timeout=30000)
            page.wait_for_selector("#modal:not(.hidden)")
            phone.check("the result")
            page.click("#modal .continue")
            phone.check("the finished table")
            # the stored game's replay, from the finished table's link, at its last move
            page.click("#join a.replay-link")
            page.wait_for_url("**/g/*")
            page.wait_for_function("document.body.dataset.at !== undefined")
            phone.check("the replay's start")
            page.click("#last")
            page.wait_for_function("document.body.dataset.over === '1'")
            phone.check("the replay's end")
            assert errors == []
        finally:
            browser.close()
    assert moves >= 3 and phone.checks >= moves + 5
