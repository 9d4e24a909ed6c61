"""Every page but a table's in Chromium — the lobby (a guest's and a signed-in one's), play
now while it waits, a leaderboard, a player page, an unknown player's page and a stored
game's replay — at 390×844 and 1280×800 in English and in Russian, checked as
tests/browser/looks.py says (nothing wider than its box, headers over their columns, no
program's words); and the defects people met on these pages, each pinned by name.

One server (with a few rated matches stored) and one Chromium for the module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.looks import column_problems, overflow_problems, page_problems
from tests.browser.serving import ARGS, CHROMIUM, need_browser, serving
from tests.browser.test_web_ratings_pages import rated_games

pytestmark = pytest.mark.slow

SIZES = ((390, 844), (1280, 800))
LANGS = ("en", "ru")
ANYA = "/player/%D0%90%D0%BD%D1%8F"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str, dict[str, Any]]]:
    sync_playwright = need_browser()
    tmp = tmp_path_factory.mktemp("pages")
    made = rated_games(f"sqlite:///{tmp / 'koloda.db'}")
    with serving(tmp) as address, sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield chromium, address, made
        finally:
            chromium.close()


def _page(chromium: Any, lang: str, size: tuple[int, int] = SIZES[0]) -> tuple[Any, Any]:
    ctx = chromium.new_context(viewport={"width": size[0], "height": size[1]},
                               bypass_csp=True)
    ctx.add_init_script(f"localStorage.setItem('koloda.lang', '{lang}')")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return ctx, page


def _looks(chromium: Any, address: str, path: str, ready: str, where: str,
           then: Any = None) -> list[str]:
    """The page at ``path`` at both sizes in both languages: what looks.py finds."""
    found: list[str] = []
    for lang in LANGS:
        ctx, page = _page(chromium, lang)
        try:
            page.goto(address + path)
            page.wait_for_selector(ready)
            if then is not None:
                then(page)
            for w, h in SIZES:
                page.set_viewport_size({"width": w, "height": h})
                page.wait_for_timeout(80)
                found += page_problems(page, lang, f"{where} at {w} px")
            found += [f"{where}: {e}" for e in page.errors]
        finally:
            ctx.close()
    return found


def _wait_for_people(page: Any) -> None:
    """Play now for 4-player Durak, people only: the page waits, saying so (the next
    page to wait sees this one in the queue)."""
    page.wait_for_selector("#play-now")
    page.fill("#my-name", f"Гость {page.evaluate('document.documentElement.lang')}")
    page.dispatch_event("#my-name", "input")
    page.select_option("#pn-game", "durak")
    page.select_option("#pn-players", "4")
    page.select_option("#pn-bot", "")
    page.click("#play-now")
    page.wait_for_selector("#pn-cancel:not([disabled])")
    page.wait_for_timeout(300)


def test_every_page_looks_right_at_both_widths_in_both_languages(
        site: tuple[Any, str, dict[str, Any]]) -> None:
    chromium, address, made = site
    problems = []
    problems += _looks(chromium, address, "/", "#create", "the lobby")
    problems += _looks(chromium, address, "/", "#create", "play now, waiting",
                       then=_wait_for_people)
    for game in ("durak", "trinka", "opendaum"):     # rated, rated in teams, nobody rated
        problems += _looks(chromium, address, f"/leaderboard/{game}", "#app section",
                           f"the {game} leaderboard")
    problems += _looks(chromium, address, ANYA, "#plot", "Аня's page")
    problems += _looks(chromium, address, "/player/X", "#not-found", "an unknown player")
    problems += _looks(chromium, address, f"/g/{made['last']}", "body[data-at]",
                       "a stored game's replay")
    assert problems == [], "\n".join(problems)


# ----------------------------------------------------------- the defects met
def test_leaderboard_rows_sit_under_their_header_at_every_width(
        site: tuple[Any, str, dict[str, Any]]) -> None:
    """The table once had the id of the table page's grid (``#board``): its rows stood
    beside its header."""
    chromium, address, _ = site
    for size in SIZES:
        ctx, page = _page(chromium, "en", size)
        try:
            page.goto(address + "/leaderboard/durak")
            page.wait_for_selector("table.board tbody tr")
            assert column_problems(page) == []
        finally:
            ctx.close()


def test_player_page_number_columns_not_stretched_and_wins_table_fits_a_phone(
        site: tuple[Any, str, dict[str, Any]]) -> None:
    chromium, address, _ = site
    for size in SIZES:
        ctx, page = _page(chromium, "ru", size)
        try:
            page.goto(address + ANYA)
            page.wait_for_selector("#wins tbody tr")
            widths = page.evaluate("""() => [...document.querySelectorAll('#ratings, #wins')]
              .map((t) => [t.getBoundingClientRect().width,
                           [...t.tHead.rows[0].cells].filter((c) => c.getClientRects().length)
                             .map((c) => c.getBoundingClientRect().width)])""")
            for table, cells in widths:
                assert max(cells[1:]) < table / 3, (size, table, cells)   # none takes it all
            cut = page.evaluate("""() => [...document.querySelectorAll('.scroll > table')]
              .map((t) => [t.id, t.getBoundingClientRect().width, t.parentElement.clientWidth])
              .filter(([, w, box]) => w > box + 1)""")
            assert cut == []
            assert column_problems(page) == [] and overflow_problems(page) == []
        finally:
            ctx.close()


@pytest.mark.parametrize("lang", LANGS)
def test_unknown_player_page_says_whom_it_did_not_find(
        site: tuple[Any, str, dict[str, Any]], lang: str) -> None:
    chromium, address, _ = site
    ctx, page = _page(chromium, lang)
    try:
        res = page.goto(address + "/player/X")
        assert res is not None and res.status == 404
        page.wait_for_selector("#not-found")
        text = page.inner_text("#not-found")
    finally:
        ctx.close()
    if lang == "ru":
        assert "Такого игрока нет" in text and "зарегистрированного игрока «X» нет" in text
    else:
        assert "No such player" in text and "no registered player 'X'" in text
    assert "Value(" not in text


def test_russian_player_page_names_computers_in_russian_grammatically(
        site: tuple[Any, str, dict[str, Any]]) -> None:
    """The records call a computer "Computer"; a Russian page says «Компьютер 2», and
    lists the others at the table without a preposition that would need their case."""
    chromium, address, _ = site
    ctx, page = _page(chromium, "ru")
    try:
        page.goto(address + ANYA)
        page.wait_for_selector("#recent li")
        recent = page.inner_text("#recent")
    finally:
        ctx.close()
    assert "Computer" not in recent and " с " not in recent
    assert "за столом: Компьютер 2" in recent


def test_lobby_game_choice_shows_no_internal_id(
        site: tuple[Any, str, dict[str, Any]]) -> None:
    chromium, address, _ = site
    ctx, page = _page(chromium, "ru")
    try:
        page.goto(address + "/")
        page.wait_for_selector("#game")
        names = page.eval_on_selector_all("#game option", "(os) => os.map((o) => o.textContent)")
    finally:
        ctx.close()
    assert "Опендаум" in names
    assert not [n for n in names if "(" in n and n.endswith(")") and n[-2].isascii()]


@pytest.mark.parametrize("lang", LANGS)
def test_a_rank_is_never_shown_without_its_label(
        site: tuple[Any, str, dict[str, Any]], lang: str) -> None:
    """A registered player without an Opendaum-33 rank: the lobby says «разряда пока нет»
    ("no rank yet"), not a bare «пока нет»; the player page labels it too."""
    chromium, address, _ = site
    ctx, page = _page(chromium, lang)
    name = f"Ранг{lang}"
    try:
        page.goto(address + "/")
        page.wait_for_selector("#account summary")
        page.click("#account summary")
        page.fill("#account-name", name)
        page.fill("#account-password", "tri-kozyrya-v-rukave")
        page.click("#register")
        page.wait_for_selector("#my-rank")
        lobby = page.inner_text("#my-rank")
        page.goto(address + f"/player/{name}")
        page.wait_for_selector("#rank")
        player = page.inner_text("#rank").strip()
        line = page.inner_text("#rank >> xpath=..")
    finally:
        ctx.close()
    if lang == "ru":
        assert lobby == "разряда пока нет"
        assert line == f"Разряд в Опендаум-33: {player}"
    else:
        assert lobby == "no rank yet"
        assert line == f"Opendaum-33 rank: {player}"
