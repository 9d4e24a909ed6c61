"""What the interfaces need to know of a game they read from its spec: a game declares its
own verbs (the parser accepts them in any case and spacing, and a refusal names the game's
verbs), the arena's measure of it, whether its scores are better lower and whether its
matches move ranks. Shown with a variant of the tenth game (tests/tenth_game/fold.py) that
declares all of them in its folder, with no change to any other file."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

import koloda
from koloda.arena import (
    game_measure,
    measure_is_rate,
    measure_of,
    play,
    schedule_games,
    table_columns,
    tally,
)
from koloda.cli.main import app
from koloda.engine.actions import Action
from koloda.engine.errors import IllegalAction
from koloda.engine.registry import get_spec, register, unregister
from koloda.ratings import seat_scores
from koloda.store.store import ranked
from tests.tenth_game.fold import FOLD_SPEC, FoldMatch

NAME = FOLD_SPEC.name
LOW = dataclasses.replace(FOLD_SPEC, name="dyuzhina-low", family="dyuzhina-low",
                          scores_lower_is_better=True)


@pytest.fixture(autouse=True, scope="module")
def _registered() -> Iterator[None]:
    register(FOLD_SPEC)
    register(LOW)
    yield
    unregister(NAME)
    unregister(LOW.name)


# ------------------------------------------------------------------ its own verb
@pytest.mark.parametrize("said", ["fold", "Fold", " fold ", "FOLD"])
def test_a_games_own_verb_is_accepted_in_any_case_and_spacing(said: str) -> None:
    m = koloda.new_game(NAME, seed=1)
    assert "fold" in m.legal_actions()
    assert m.check(said) == "fold"
    assert m.apply(said) == "fold"


def test_an_unknown_verb_is_refused_naming_the_games_verbs_not_the_engines() -> None:
    m = koloda.new_game(NAME, seed=1)
    with pytest.raises(IllegalAction) as err:
        m.apply("folds")
    said = str(err.value)
    assert "fold, play" in said and "attack" not in said, said


def test_the_parser_reads_a_games_declared_verbs() -> None:
    assert str(Action.parse("  FOLD ", FOLD_SPEC.actions)) == "fold"
    with pytest.raises(IllegalAction, match="'fold' takes no arguments"):
        Action.parse("fold QS", FOLD_SPEC.actions)
    with pytest.raises(IllegalAction) as err:
        Action.parse("folds", FOLD_SPEC.actions)
    assert "fold, play" in str(err.value) and "attack" not in str(err.value)
    with pytest.raises(IllegalAction):     # the engine's words alone know no "fold"
        Action.parse("fold")
    # the engine's own verbs still parse beside a game's
    assert str(Action.parse("Play 10h", FOLD_SPEC.actions)) == "play TH"


# ------------------------------------------------------------------ its arena measure
def test_the_arena_measures_it_as_its_spec_declares() -> None:
    rows = [play(g) for g in schedule_games(NAME, 2, ["random"], 6, 1, "deal", {})]
    family = FOLD_SPEC.family
    for g in schedule_games(NAME, 2, ["random"], 3, 1, "match", {}):
        m = koloda.new_game(NAME, seed=g.seed)
        folds = [0, 0]
        while not m.is_over:
            seat, legal = m.to_move, m.legal_actions()
            assert seat is not None
            if seat == 0 and "fold" in legal:     # seat 0 folds every deal it leads
                folds[seat] += 1
            m.apply("fold" if seat == 0 and "fold" in legal else legal[0])
        assert isinstance(m, FoldMatch) and sum(folds) > 0
        assert game_measure(m) == [folds[0] / m.deals_played, 0.0]
    assert measure_of(family).name == "deals folded (share of deals)"
    assert measure_is_rate(family)
    keys = [c.key for c in table_columns(family, rows)]
    drew = any(not r["result"]["winners"] for r in rows)
    assert keys == ["win_rate", *(["draw_rate"] if drew else []), "measure", "per_deal"]
    stats = tally(rows, ["random"], family=family)["random"]
    assert stats.measure_rate


def test_the_arena_command_heads_its_table_with_its_own_words() -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["arena", NAME, "--bots", "random", "--deals", "2", "--json"])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    assert summary["measure"] == "deals folded (share of deals)"
    assert summary["measure_is_rate"] is True
    assert summary["columns"][-2:] == ["measure", "per_deal"]
    out = runner.invoke(app, ["arena", NAME, "--bots", "random", "--deals", "2", "--lang", "ru"])
    assert out.exit_code == 0, out.output
    head = next(line for line in out.stdout.splitlines() if line.startswith("бот "))
    assert "сдался" in head and "выиграно за сдачу" in head


# ------------------------------------------------------------------ ratings and ranks
def test_the_rating_list_reads_lower_is_better_from_the_spec() -> None:
    row = {"lineup": ["a", "b"], "result": {"winners": [0], "scores": [2, 1]}}
    assert seat_scores({**row, "name": NAME}) == [("a", 2.0), ("b", 1.0)]
    assert seat_scores({**row, "name": LOW.name}) == [("a", -2.0), ("b", -1.0)]
    # the games of the book as before: Durak and Mushka lower, Opendaum higher
    assert seat_scores({**row, "name": "durak"})[0][1] == -2.0
    assert seat_scores({**row, "name": "mushka"})[0][1] == -2.0
    assert seat_scores({**row, "name": "opendaum"})[0][1] == 2.0
    assert seat_scores({**row, "name": "no-such-game"})[0][1] == 2.0


def test_whether_a_match_moves_ranks_is_the_games_declaration() -> None:
    assert ranked(NAME, {"options": {}}, capped=False)
    assert not ranked(NAME, {"options": {}}, capped=True)
    assert not ranked(LOW.name.replace("low", "x"), {}, capped=False)   # no such game
    assert get_spec("dyuzhina-low").moves_ranks is not None
    # the book's games as before: only a whole opendaum-33 match
    assert ranked("opendaum-33", {"options": {"start_deal": 0}}, capped=False)
    assert not ranked("opendaum-33", {"options": {"start_deal": 2}}, capped=False)
    assert not ranked("opendaum-33", {}, capped=True)
    assert not ranked("opendaum", {}, capped=False)
    assert not ranked("durak", {}, capped=False)
