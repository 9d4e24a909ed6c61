"""The table's parts without a terminal: choosing moves from marked cards, rendering any
observation (also fields no view knows), score sheets, and both languages."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from rich.console import Console

import koloda
from koloda.cards import HEARTS, TEXT_CARD
from koloda.engine.errors import IllegalAction
from koloda.engine.messages import Cards, Reason, Suit
from koloda.engine.terms import TERMS, VERBS
from koloda.engine.view import EmptyView, Observation, View, item
from koloda.i18n import _TEXTS, label, option_allowed, option_name, reason, t, verb
from koloda.moves import MoveChooser
from koloda.present import present, present_result, present_sheet
from koloda.tui.start import StartForm
from koloda.tui.view import (
    action_text,
    centre,
    extra_lines,
    info_line,
    last_trick_view,
    players_table,
    reason_text,
    result_view,
    sheet_view,
    sort_hand,
)


def plain(renderable: object, width: int = 100) -> str:
    console = Console(width=width, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(renderable)
    return console.export_text()


# ------------------------------------------------------------------- moves
def test_marked_cards_become_the_one_legal_action_they_mean() -> None:
    legal = ["attack 7S", "attack 7C", "attack 7S 7C", "attack 9H"]
    chooser = MoveChooser(legal, ["7S", "7C", "9H", "KD"])
    assert chooser.exact(frozenset({"7S", "7C"})) == ["attack 7S 7C"]
    assert chooser.legal_cards == {"7S", "7C", "9H"}             # KD is not highlighted
    assert chooser.extending(frozenset({"7S"})) == ["attack 7S 7C"]
    assert chooser.multi_verbs == ["attack"]
    assert "attack 7S 7C" not in chooser.menu()                  # sets are made by marking
    assert chooser.attempt(frozenset({"KD"})) == "attack KD"


def test_a_durak_cover_names_the_attack_card_and_uses_the_hand_card() -> None:
    legal = ["beat 7S 9S", "beat 8S 9S", "take"]
    chooser = MoveChooser(legal, ["9S", "6H"])
    assert chooser.exact(frozenset({"9S"})) == ["beat 7S 9S", "beat 8S 9S"]
    assert chooser.menu() == ["take", "beat 7S 9S", "beat 8S 9S"]   # no-card moves first
    assert chooser.attempt(frozenset({"6H"}), "7S") == "beat 7S 6H"


def test_the_menu_lists_cards_in_the_order_of_the_hand() -> None:
    chooser = MoveChooser(["play AS", "play 7C", "play 9C"], ["7C", "9C", "AS"])
    assert chooser.menu() == ["play 7C", "play 9C", "play AS"]


def test_the_hand_is_sorted_by_suit_with_trumps_last() -> None:
    assert sort_hand(["AC", "7S", "6C", "TH", "2S"], "C") == ["2S", "7S", "TH", "6C", "AC"]
    assert sort_hand(["AC", "7S"], "S") == ["AC", "7S"]


# ------------------------------------------------------------ languages
def test_actions_read_in_both_languages() -> None:
    assert action_text("beat 7S 9S", "en").plain == "beat 7♠ with 9♠"
    assert action_text("beat 7S 9S", "ru").plain == "побить 7♠ картой 9♠"
    assert action_text("play 6C wild", "ru").plain == "сыграть 6♣ как шаха"
    assert action_text("play QH", "ru").plain == "сыграть Д♥"


def test_engine_refusals_read_in_russian_and_plain_text_stays_as_written() -> None:
    duty = Reason("duty_hold", duty=Reason("must_follow", suit=Suit(HEARTS)),
                  cards=Cards([TEXT_CARD["9H"]]))
    assert reason(duty, "ru") == "нужно ходить в черви: у вас есть 9♥"
    assert reason(duty, "en") == "must follow hearts: you hold 9H" == duty
    assert reason(IllegalAction(duty), "ru") == reason(duty, "ru")
    assert reason(Reason("not_held", cards=Cards([TEXT_CARD["AS"]])), "ru") == "у вас нет Т♠"
    assert reason("something new", "ru") == "something new"


def test_a_russian_refusal_colours_its_cards() -> None:
    text = reason_text("у вас нет Т♠ 10♥, а есть (9♦)", "ru")
    assert text.plain == "у вас нет Т♠ 10♥, а есть (9♦)"
    coloured = {text.plain[s.start:s.end] for s in text.spans if s.style}
    assert coloured == {"Т♠", "10♥", "9♦"}


def test_every_text_has_both_languages() -> None:
    for table in (_TEXTS, TERMS, VERBS):
        for key, pair in table.items():
            assert len(pair) == 2 and all(pair), key
    assert t("turn_you", "ru") == "Ваш ход" and verb("take", "ru") == "взять"
    assert label("a_field_nobody_knows", "ru") == "a field nobody knows"


# ----------------------------------------------------------- any observation
@dataclass(frozen=True)
class _Deal(View):
    hand: tuple[int, ...] = item("cards", "hand", private=True, role="hand", default=())
    hand_sizes: tuple[int, ...] = item("per_seat", "hand_sizes", default=(3, 4, 5))
    widgets: tuple[int, ...] = item("per_seat", "widgets", default=(7, 8, 9))
    gizmo: int = item("number", "count", default=42)
    attacker: int | None = item("seat", "attacker", default=None)
    table: tuple[tuple[int, int | None], ...] = item("table", "table", role="table",
                                                     default=())
    trick: tuple[tuple[Any, ...], ...] = item("plays", "trick", role="trick", default=())
    secret: tuple[int, ...] = item("data", default=())


def observe(deal: View, players: int = 3, seat: int | None = 0) -> Observation:
    return Observation("test", players, seat, 0, 1, 0, False, EmptyView(), deal)


def test_a_declared_field_shows_with_its_label_and_a_data_field_never() -> None:
    disp = present(observe(_Deal(secret=(1, 2))), "en", ["Аня", "Боря", "Вера"])
    table = plain(players_table(disp, "en"))
    assert "widgets" in table and "9" in table and "Вера" in table and "▶" in table
    assert "count: 42" in plain(info_line(disp, "en"))
    assert "secret" not in str(disp)


def test_the_durak_table_shows_attack_cards_over_their_covers() -> None:
    deal = _Deal(table=((TEXT_CARD["7S"], TEXT_CARD["9S"]), (TEXT_CARD["7C"], None)),
                 attacker=0)
    text = plain(centre(present(observe(deal, seat=1), "en", ["A", "B", "C"]), "en"))
    lines = [ln for ln in text.splitlines() if ln.strip()]
    assert lines[0].split() == ["attack", "7♠", "7♣"]
    assert lines[1].split() == ["cover", "9♠", "·"]


def test_a_trick_shows_how_a_shakha_was_played() -> None:
    deal = _Deal(trick=((2, TEXT_CARD["9H"]), (0, TEXT_CARD["6C"], "wild")))
    text = plain(centre(present(observe(deal), "ru", ["A", "B", "C"]), "ru"))
    assert "C 9♥" in text and "A 6♣ (как шаха)" in text


def screens(m: koloda.Match, names: list[str], lang: str) -> list[object]:
    seat = m.to_move if m.to_move is not None else 0
    disp = present(m.observation(seat), lang, names)
    parts: list[object] = [centre(disp, lang), info_line(disp, lang),
                           players_table(disp, lang), *extra_lines(disp, lang),
                           last_trick_view(disp, lang),
                           sheet_view(present_sheet(m.sheet(), lang, names, m.players), lang),
                           *(action_text(a, lang) for a in m.legal_actions()[:30])]
    if m.is_over:
        parts.append(result_view(present_result(m.result.to_json(), m.spec.name, lang, names)))
    return parts


def test_every_game_renders_from_its_observation_in_both_languages() -> None:
    for name in koloda.registry():
        m = koloda.new_game(name, seed=1)
        names = [f"P{i}" for i in range(m.players)]
        for lang in ("en", "ru"):
            for part in screens(m, names, lang):
                plain(part)


_LATIN_WORD = re.compile(r"\b[A-Za-z][A-Za-z_]{2,}\b")


def test_the_russian_table_of_every_game_shows_no_english_word() -> None:
    """Field names, phases, outcomes, suits, moves, sheets and results: all in Russian."""
    for name in sorted(koloda.registry()):
        rng = random.Random(5)
        m = koloda.new_game(name, seed=5, max_deals=2)
        names = [f"Игрок{i}" for i in range(m.players)]
        step = 0
        while True:
            if step % 3 == 0 or m.is_over:
                for part in screens(m, names, "ru"):
                    text = plain(part, 160)
                    assert not _LATIN_WORD.search(text), (name, text)
            if m.is_over:
                break
            m.apply(rng.choice(m.legal_actions()))
            step += 1


def test_the_start_screen_speaks_russian_for_every_game_and_option() -> None:
    for name in koloda.registry():
        form = StartForm(lang="ru", spec_name=name, name="Аня")
        for i, key in enumerate(form.rows()):
            form.row = i
            label_, value = form.line(key)
            codes = set()
            if key.startswith("opt:"):
                opt = form.option(key[4:])
                codes = set(re.findall(r'"([^"]*)"', opt.allowed))
                assert option_name(opt.name, "ru") != opt.name, opt.name
                assert option_allowed(opt.allowed, "ru") != opt.allowed, opt.allowed
            for text in (label_, value.plain, form.help().plain):
                text = re.sub(r"\([^)]*\)|«[^»]*»", "", text)   # codes in brackets, quotes
                words = set(_LATIN_WORD.findall(text)) - codes
                assert not words, (name, key, text)
    form = StartForm(lang="ru", spec_name="mushka", name="Аня")
    form.row = form.rows().index("opt:max_deals")
    # the check's own words (option errors are catalog messages), then what is allowed
    assert form.set_typed("0") == ("Неверное значение «не больше сдач»: нужно не меньше 1; "
                                   "допустимо: целое число ≥ 1")
    assert form.set_typed('"x"') == "Неверное значение «не больше сдач»: допустимо: целое число ≥ 1"
    durak = StartForm(lang="ru", spec_name="durak", players=3, name="Аня")
    durak.options["teams"] = True                       # teams need 4 or 6 players
    assert durak.problem() == ("Неверное значение «команды»: командами играют только "
                               "вчетвером (2 на 2) или вшестером (3 на 3); допустимо: да или нет "
                               "(да — только вчетвером или вшестером)")
    durak.lang = "en"
    assert "teams" in (durak.problem() or "")


# -------------------------------------------------------------- the sheets
def test_a_sheet_of_deals_lists_each_seats_values_under_a_legend() -> None:
    from koloda.cards import HEARTS
    from koloda.games.opendaum.views import OpendaumSheet, SheetRow
    sheet = OpendaumSheet((SheetRow(0, 0, 1, HEARTS, (1, 0, 1), (1, 0, 0), (10, 5, 0)),),
                          (10, 5, 0))
    text = plain(sheet_view(present_sheet(sheet, "en", ["A", "B", "C"], 3), "en"))
    assert "(bid · tricks · points)" in text
    assert "1 · 1 · 10" in text and "0 · 0 · 5" in text and "1 · 0 · 0" in text
    assert "hearts" in text and "total" in text


def test_the_result_names_winners_the_durak_and_ranks() -> None:
    result = {"winners": [1, 2], "losers": [0], "scores": [1, 0, 0], "capped": False,
              "details": {"durak": 0, "epaulettes": True}}
    text = plain(result_view(present_result(result, "durak", "ru", ["A", "B", "C"])))
    assert "Победители: B, C" in text and "Дурак: A" in text and "С погонами" in text
    assert "A (дурак)" in text
    ranked = {"winners": [0], "losers": [1, 2], "scores": [120, 40, 60], "capped": False,
              "details": {"ranks": [{"id": "second", "ru": "второй", "en": "second class"},
                                    {"id": "embryo", "ru": "эмбрион", "en": "embryo"},
                                    {"id": "junior", "ru": "детский", "en": "junior"}]}}
    text = plain(result_view(present_result(ranked, "opendaum-33", "en", ["A", "B", "C"])))
    assert "second class" in text and "embryo" in text and "junior" in text and "rank" in text
