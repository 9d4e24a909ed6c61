"""One numbering of deals, counted from 1, wherever a person reads it: the header, the
dialog between deals and the score sheet's rows say the same number for a deal — also
for an Opendaum match started later in its schedule (option start_deal)."""

from __future__ import annotations

from pathlib import Path

import koloda
from koloda.present import present
from koloda.tui.app import KolodaApp
from koloda.tui.screens import InfoScreen
from tests.test_tui import SIZE, _home, run, session

__all__ = ["_home"]


def _between_deals(tmp_path: Path, **options: object) -> tuple[str, str, koloda.Match]:
    """The terminal's header in the first deal and its screen between the first two deals."""
    match = koloda.new_game("opendaum", players=3, seed=3, max_deals=2, **options)
    app = KolodaApp(session(match, tmp_path), "en", bot_delay=0)

    async def go() -> tuple[str, str]:
        async with app.run_test(size=SIZE) as pilot:
            header = app.export_text().splitlines()[0]
            while not isinstance(app.screen, InfoScreen):
                await pilot.press("1")
            return header, app.export_text()
    header, text = run(go())
    return header, text, match


def _sheet_deals(match: koloda.Match, lang: str = "en") -> list[str]:
    table = present(match.public_observation(), lang)["sheet"]["tables"][0]
    assert table["columns"][0] == ("deal" if lang == "en" else "сдача")
    return [row[0]["text"] for row in table["rows"]]


def test_deal_numbers_agree_header_dialog_and_sheet_from_1() -> None:
    m = koloda.new_game("opendaum", players=3, seed=2)
    assert present(m.public_observation())["deal"]["n"] == 1
    while len(m.deals) < 3:
        m.apply(m.legal_actions()[0])
    assert _sheet_deals(m) == ["1", "2"] and _sheet_deals(m, "ru") == ["1", "2"]
    assert present(m.public_observation())["deal"]["n"] == 3


def test_deal_numbers_agree_after_a_later_start_deal(tmp_path: Path) -> None:
    header, text, match = _between_deals(tmp_path, start_deal=11)
    assert "Deal 12/25" in header
    assert "Deal 12 is over — score sheet" in text and "Deal 1 is over" not in text
    assert _sheet_deals(match) == ["12"]
    assert present(match.public_observation())["deal"] == {"n": 13, "of": 25}


def test_deal_numbers_between_deals_of_a_match_from_its_first(tmp_path: Path) -> None:
    header, text, match = _between_deals(tmp_path)
    assert "Deal 1/25" in header and "Deal 1 is over — score sheet" in text
    assert _sheet_deals(match) == ["1"]

