"""Line mode takes a move typed as it lists it, in Russian and in English, and the engine's
notation too."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

import koloda
from koloda.cli.main import app
from koloda.cli.moves_text import card_of, translate, typed_action
from koloda.cli.play import _action

runner = CliRunner()


def shown(action: str, lang: str) -> str:
    return _action(action, lang).plain


def test_russian_line_mode_accepts_the_russian_moves_it_lists() -> None:
    """`koloda play opendaum --lang ru`: «заказ 0», as listed, is a bid, not a refusal."""
    out = runner.invoke(app, ["play", "opendaum", "--line", "--seed", "1", "--lang", "ru",
                              "--bots", "random", "--no-store", "--name", "Аня"],
                        input="заказ 0\nq\n")
    assert out.exit_code == 0, out.output
    assert "  1. заказ 0" in out.output
    assert "Нельзя" not in out.output and "ходы начинаются со слов" not in out.output
    # the bid was made: the next table shows Аня's bid
    assert "▶ Аня: карт 1, заказ 0" in out.output.split("> ", 1)[1]


def _states(game: str, count: int, seed: int) -> list[koloda.Match]:
    """Matches of ``game`` at ``count`` points of random play (copies by replaying)."""
    rng = random.Random(seed)
    spec = koloda.get_spec(game)
    out = []
    for k in range(count):
        m = koloda.new_game(game, players=spec.players[k % len(spec.players)], seed=seed + k)
        for _ in range(rng.randrange(0, 60)):
            if m.is_over:
                break
            m.apply(rng.choice(m.legal_actions()))
        if not m.is_over:
            out.append(m)
    return out


@pytest.mark.parametrize("game", sorted(koloda.registry()))
def test_every_listed_move_is_taken_as_typed_in_both_languages(game: str) -> None:
    for m in _states(game, 12, 7):
        legal = m.legal_actions()[:200]
        for action in legal:
            for lang in ("ru", "en"):
                said = shown(action, lang)
                assert typed_action(said, legal, shown) == action, (lang, said)
                assert typed_action(said.upper(), legal, shown) == action
                # word by word too (a move not listed, e.g. a longer discard set)
                assert translate(said, [a.split()[0] for a in legal]).split() == \
                    action.split() or sorted(translate(said).split()) == \
                    sorted(action.split()), (lang, said)
            assert typed_action(action, legal, shown) == action       # the notation


def test_cards_as_either_language_writes_them() -> None:
    assert card_of("Д♦") == "QD" and card_of("Q♦") == "QD" and card_of("qd") == "QD"
    assert card_of("10ч") == "TH" and card_of("10♥") == "TH" and card_of("TH") == "TH"
    assert card_of("Т♠") == "AS" and card_of("тт") == "AC"     # the Russian Т is the ace
    assert card_of("заказ") is None and card_of("0") is None


def test_a_longer_russian_move_not_listed_is_translated() -> None:
    assert translate("снести 7♠ 8п Д♦") == "discard 7S 8S QD"
    assert translate("побить 7♠ картой 9♠") == "beat 7S 9S"
    assert translate("взять карту 2", ["pick"]) == "pick 1"
    assert translate("сыграть 7♠ как шаха") == "play 7S wild"
    assert translate("пас", ["drop"]) == "drop" and translate("пас", ["pass"]) == "pass"
