"""The presenter: what a person sees, made from the observation's declarations alone — and
every screen the terminal draws and every display the web sends, for random games of every
registered variant, in both languages: no Python/JSON syntax of a raw container, and no
field without a label in the screen's language."""

from __future__ import annotations

import asyncio
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import koloda
from koloda.cards import TEXT_CARD
from koloda.engine import terms
from koloda.engine.match import Match
from koloda.engine.view import Observation, View, item
from koloda.present import present, present_result, present_sheet
from koloda.ranks import rank_for_total
from koloda.tui.app import KolodaApp
from koloda.tui.screens import InfoScreen, ResultScreen
from koloda.tui.session import Session, make_seats
from koloda.tui.view import (
    action_text,
    centre,
    extra_lines,
    info_line,
    last_trick_view,
    players_table,
    result_view,
    sheet_view,
)
from koloda.web.views import display

C = TEXT_CARD


# ------------------------------------------------------------ a typed game
@dataclass(frozen=True)
class Trick(View):
    plays: tuple[tuple[int, int], ...] = item("plays", "trick", default=())
    winner: int | None = item("seat", "winner", default=None)


@dataclass(frozen=True)
class Deal(View):
    hand: tuple[int, ...] = item("cards", "hand", private=True, role="hand")
    hand_sizes: tuple[int, ...] = item("per_seat", "hand_sizes")
    voids: tuple[tuple[int, ...], ...] = item("per_seat_suits", "voids")
    trump: int | None = item("suit", "trump", role="trump")
    trick: tuple[tuple[int, int], ...] = item("plays", "trick", role="trick")
    last_trick: Trick | None = item("view", "last_trick", role="last_trick")
    leader: int | None = item("seat", "leader")
    passed: tuple[int, ...] = item("seats", "passed")
    final_deal: bool = item("flag", "final_deal")
    phase: str = item("word", "phase")
    teams: tuple[tuple[int, ...], ...] = item("data", role="teams")
    history: tuple[Trick, ...] = item("views", None, role="history")
    my_discards: tuple[int, ...] = item("cards", "my_discards", private=True)


@dataclass(frozen=True)
class Row(View):
    deal: int = item("number", "deal")
    trump: int | None = item("suit", "trump")
    points: tuple[int, ...] = item("per_seat", "points")


@dataclass(frozen=True)
class Sheet(View):
    totals: tuple[int, ...] = item("per_seat", "totals")
    deals: tuple[Row, ...] = item("views", "deals")


def _deal() -> Deal:
    return Deal(hand=(C["AS"], C["TH"]), hand_sizes=(2, 3, 2, 3), voids=((), (3,), (), (0, 1)),
                trump=3, trick=((1, C["9H"]), (2, C["QH"])),
                last_trick=Trick(((0, C["6C"]), (1, C["KC"])), 1), leader=1, passed=(3,),
                final_deal=False, phase="play", teams=((0, 2), (1, 3)),
                history=(Trick(((0, C["6C"]), (1, C["KC"])), 1),), my_discards=(C["2D"],))


def _obs(seat: int | None = 0) -> Observation:
    # a sheet row's deal counts from 0, as the observation does (shown from 1)
    sheet = Sheet((10, 5, 0, 0), (Row(0, 3, (10, 5, 0, 0)),))
    obs = Observation("typed", 4, 0, 0, 3, 1, False, sheet, _deal())
    return obs if seat is not None else obs.public()


NAMES = ["Аня", "Боря", "Вера", "Гоша"]


def test_each_field_shows_by_its_kind_with_its_label() -> None:
    d = present(_obs(), "ru", NAMES)
    cols = [c["label"] for c in d["players"]["columns"]]
    assert cols == ["карт", "нет масти", "очки"]           # deal's per-seat, then the sheet's
    assert d["players"]["rows"][3]["cells"][1]["text"] == "♠ ♣"
    info = {i["label"]: i["text"] for i in d["info"]}
    assert info["козыри"] == "♥ черви" and info["фаза"] == "розыгрыш"
    assert info["последняя сдача"] == "нет" and info["ваш снос"] == "2♦"
    assert [p["text"] for p in d["centre"]["plays"]] == ["9♥", "Д♥"]
    assert d["centre"]["plays"][0]["name"] == "Боря"
    assert d["last"]["winner"] == "Боря" and d["last"]["plays"][1]["text"] == "К♣"
    assert d["hand"]["cards"] == ["AS", "TH"] and d["trump"] == "H"


def test_marks_name_the_turn_the_dealer_the_roles_the_teams_and_my_partner() -> None:
    rows = present(_obs(), "ru", NAMES)["players"]["rows"]
    assert rows[1]["to_move"] and rows[3]["dealer"] and rows[0]["me"]
    assert "ходит первым" in rows[1]["marks"] and "пас" in rows[3]["marks"]
    assert "команда 1" in rows[2]["marks"] and "партнёр" in rows[2]["marks"]
    assert "партнёр" not in rows[1]["marks"] and "команда 2" in rows[1]["marks"]


def test_a_field_without_a_term_is_never_shown_and_a_spectator_sees_nothing_private() -> None:
    seated = json.dumps(present(_obs(), "en", NAMES), ensure_ascii=False)
    assert "history" not in seated and "teams" not in seated
    public = present(_obs(None), "en", NAMES)
    text = json.dumps(public, ensure_ascii=False)
    assert public["hand"] is None and "your discards" not in text and "2♦" not in text
    assert "A♠" not in text


def test_the_sheet_lists_its_rows_under_a_legend() -> None:
    s = present_sheet(_obs().sheet, "en", NAMES, 4)
    assert [r["cells"][0]["text"] for r in s["rows"]] == ["10", "5", "0", "0"]
    (deals,) = s["tables"]
    assert deals["columns"][:2] == ["deal", "trumps"] and deals["legend"] == "points"
    assert [c["text"] for c in deals["rows"][0]] == ["1", "♥ hearts", "10", "5", "0", "0"]


def test_cards_read_as_people_write_them() -> None:
    d = present(_obs(), "ru", NAMES)
    assert d["last"]["plays"][0]["text"] == "6♣"
    assert terms.card_word(C["JS"], "ru") == "В♠" and terms.card_word(C["TH"], "en") == "10♥"


# --------------------------------------------- every variant, every screen
RAW = re.compile(r"[{}\[\]]|\bNone\b|\bTrue\b|\bFalse\b")
LATIN = re.compile(r"\b[A-Za-z][A-Za-z_]{2,}\b")
#: Latin a Russian screen may show: the program's name and the keys' names
KEY_NAMES = ("koloda", "Enter", "Esc")


def _labels(value: Any) -> list[str]:
    out: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k in ("label", "legend") and isinstance(v, str):
                out.append(v)
            out += _labels(v)
    elif isinstance(value, list):
        for v in value:
            out += _labels(v)
    return out


def _texts(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [t for k, v in value.items() if k not in ("name", "card", "cards")
                for t in _texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return [value] if isinstance(value, str) else []


def _words(lang: str) -> set[str]:
    i = 1 if lang == "ru" else 0
    return {pair[i] for pair in terms.TERMS.values()}


def _check_display(disp: dict[str, Any], lang: str, where: str) -> None:
    words = _words(lang)
    for label in _labels(disp):
        parts = [p.strip() for p in label.split("·")]
        assert all(p in words or p.isdigit() for p in parts), (where, lang, label)
        if lang == "ru":
            assert not LATIN.search(label), (where, label)
    for text in _texts(disp):
        assert not RAW.search(text), (where, lang, text)


def _plain(renderable: object, width: int = 140) -> str:
    console = Console(width=width, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(renderable)
    return console.export_text()


def _check_screen(text: str, lang: str, where: str, names: list[str]) -> None:
    assert not RAW.search(text), (where, lang, text)
    if lang == "ru":
        for name in names:
            text = text.replace(name, "")
        for word in KEY_NAMES:
            text = text.replace(word, "")
        text = re.sub(r"/\S+", "", text)   # where the record is saved
        assert not LATIN.search(text), (where, text)


SEATS = [{"kind": "person", "name": "Аня"}, {"kind": "computer", "bot": "random"}]


@pytest.mark.parametrize("name", sorted(koloda.registry()))
def test_every_display_and_screen_of_random_games_has_labels_and_no_raw_data(
        name: str, request: pytest.FixtureRequest) -> None:
    for seed in (1,):
        rng = random.Random(seed)
        m = koloda.new_game(name, seed=seed, max_deals=2)
        seats = SEATS[:1] + SEATS[1:] * (m.players - 1)
        step = 0
        while True:
            if step % 3 == 0 or m.is_over:
                for lang in ("en", "ru"):
                    names = ["Аня"] + [f"P{i}" for i in range(1, m.players)] if lang == "en" \
                        else ["Аня"] + [f"Игрок{i}" for i in range(1, m.players)]
                    for viewer in (m.to_move if m.to_move is not None else 0, None):
                        where = f"{name} seed {seed} step {step} viewer {viewer}"
                        _check_display(display(m, viewer, seats, lang), lang, where)
                    disp = present(m.observation(m.to_move or 0), lang, names)
                    parts = [players_table(disp, lang), centre(disp, lang),
                             info_line(disp, lang), *extra_lines(disp, lang),
                             last_trick_view(disp, lang),
                             sheet_view(present_sheet(m.sheet(), lang, names, m.players),
                                        lang),
                             *(action_text(a, lang) for a in m.legal_actions()[:40])]
                    if m.is_over:
                        assert m.result is not None
                        parts.append(result_view(present_result(m.result.to_json(), m.spec.name,
                                                                lang, names)))
                    for part in parts:
                        _check_screen(_plain(part), lang, f"{name} step {step}", names)
            if m.is_over:
                break
            m.apply(rng.choice(m.legal_actions()))
            step += 1


# ------------------------------------------- the TUI itself, driven by keys
def _session(match: Match, tmp_path: Path, lang: str) -> Session:
    seats = make_seats(match.players, 0, ["random"], "Аня", lang)
    return Session(match, seats, tmp_path / f"{match.spec.name}.json", use_store=False)


@pytest.mark.parametrize(("name", "lang"), [(name, "ru" if i % 2 else "en") for i, name in
                                             enumerate(sorted(koloda.registry()))])
def test_every_screen_the_table_draws_shows_no_raw_data(
        name: str, lang: str, tmp_path: Path, request: pytest.FixtureRequest,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The table, its score sheet and last trick, between-deal sheets and the result, as
    the terminal shows them (exported screen text), key press by key press."""
    monkeypatch.setenv("KOLODA_HOME", str(tmp_path / "home"))
    match = koloda.new_game(name, seed=3, max_deals=1)
    session = _session(match, tmp_path, lang)
    app = KolodaApp(session, lang, bot_delay=0)
    names = session.names()
    rng = random.Random(3)

    async def go() -> list[str]:
        shots: list[str] = []
        async with app.run_test(size=(120, 40)) as pilot:
            for press in range(30):
                shots.append(app.export_text())
                if isinstance(app.screen, ResultScreen):
                    break
                if isinstance(app.screen, InfoScreen):
                    await pilot.press("enter")
                    continue
                key = rng.choice(["enter", "1", "2", "right", "l", "s"]) if press % 7 \
                    else "s"
                await pilot.press(key)
                if key in ("l", "s"):
                    shots.append(app.export_text())
                    await pilot.press("escape")
        return shots

    for shot in asyncio.run(go()):
        _check_screen(shot, lang, name, names)


# ------------------------------------------------------------ the end of a match
def test_present_result_marks_the_durak_and_states_epaulettes() -> None:
    result = {"winners": [1], "losers": [0], "scores": [1, 0], "capped": False,
              "details": {"durak": 0, "epaulettes": True}}
    disp = present_result(result, "durak", "en", ["Ann", "Bob"])
    assert disp["headline"] == {"label": "match winner", "text": "Bob"}
    assert disp["rows"][0]["marks"] == ["durak"] and disp["rows"][1]["marks"] == []
    assert [i["label"] for i in disp["info"]] == ["durak", "with epaulettes"]
    plain_loss = present_result({**result, "details": {"durak": 0, "epaulettes": False}},
                                "durak", "ru", ["Ann", "Bob"])
    assert [i["label"] for i in plain_loss["info"]] == ["дурак"]


def test_present_result_gives_opendaum_33_ranks_a_column_and_classic_none() -> None:
    match = koloda.new_game("opendaum-33", seed=4, max_deals=3)
    rng = random.Random(4)
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    assert match.result is not None
    disp = present_result(match.result.to_json(), "opendaum-33", "ru")
    assert [c["label"] for c in disp["columns"]] == ["счёт", "разряд"]
    earned = [rank_for_total(t).ru for t in match.result.scores]
    assert [r["cells"][1]["text"] for r in disp["rows"]] == earned
    classic = present_result({"winners": [0], "scores": [10, 5, 0, 2], "details": {}},
                             "opendaum", "en")
    assert [c["name"] for c in classic["columns"]] == ["scores"]


def test_present_result_says_a_draw_and_the_cap() -> None:
    disp = present_result({"winners": [], "scores": [0, 0], "capped": True, "details": {}},
                          "durak", "en", ["A", "B"])
    assert disp["headline"]["label"] == "a draw: nobody wins" and disp["headline"]["text"] == ""
    assert disp["capped"] is not None and "most deals" in disp["capped"]


def test_present_result_reads_malformed_details_as_nothing() -> None:
    for game in ("durak", "opendaum-33", "trinka", "stukolka", "kopilka", "dreyfus",
                 "pyanitsy", "mushka"):
        for details in ({}, {"durak": "x", "ranks": "no", "how": 3, "stake": "1",
                             "pot": None, "above": 5, "rounds": True}, None):
            disp = present_result({"winners": [0], "scores": [1, 0, 0, 0],
                                   "details": details}, game, "en")
            assert len(disp["rows"]) == 4
            assert all(i["text"] != "None" for i in disp["info"])


def test_every_game_says_how_its_match_ended_in_both_languages() -> None:
    """Every game's outcome view is read by its declared fields: each label is a term of
    the vocabulary in both languages (no raw key), for a finished random match."""
    for name in ("durak", "opendaum-33", "trinka", "stukolka", "kopilka", "dreyfus",
                 "pyanitsy"):
        match = koloda.new_game(name, seed=2, max_deals=3)
        rng = random.Random(2)
        while not match.is_over:
            match.apply(rng.choice(match.legal_actions()))
        assert match.result is not None
        en = present_result(match.result.to_json(), name, "en")
        ru = present_result(match.result.to_json(), name, "ru")
        assert en["info"] or len(en["columns"]) > 1, name
        for a, b in zip(en["info"] + en["columns"], ru["info"] + ru["columns"], strict=True):
            assert a["label"] != b["label"], (name, a["label"])
