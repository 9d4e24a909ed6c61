"""The Durak search's budget (koloda/bots/search/games/durak.py, ``budget``): two players of
simple durak run the level's whole budget (1 500 iterations at ``normal`` since session
13), every other table ``OTHER_SHARE`` of it — the 600 iterations and endgame nodes they
all ran before, so those tables play exactly as they did; the shared ISMCTS runs what its
``budget`` hook gives a decision."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import koloda.bots.search.games.durak as durak_search
from koloda.bots import make_bot
from koloda.bots.search.games.durak import OTHER_SHARE, DurakSearch
from koloda.bots.search.levels import LEVELS
from koloda.engine.registry import new_game


def decision(game: str, players: int, seed: int = 3,
             where: Callable[[Any], bool] = lambda obs: True) -> tuple[Any, list[str]]:
    """The observation and legal actions of the first decision with a choice where
    ``where(observation)`` holds, random moves before it."""
    match = new_game(game, players=players, seed=seed)
    rng = random.Random(seed)
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        legal = match.legal_actions()
        obs = match.observation(seat)
        if len(legal) > 1 and where(obs):
            return obs, legal
        match.apply(legal[rng.randrange(len(legal))])
    raise AssertionError("the game ended before such a decision")


class Unsettled(DurakSearch):
    """The Durak search without the early stop, so a decision runs its whole budget."""

    settle = False


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize(("game", "players", "whole"), [
    ("durak", 2, True), ("durak", 3, False), ("durak", 4, False),
    ("durak-perevodnoy", 2, False), ("durak-perevodnoy", 4, False)])
def test_only_two_players_of_simple_durak_run_the_whole_budget(
        level: str, game: str, players: int, whole: bool) -> None:
    bot: Any = make_bot(f"search:{level}", game)
    obs, _ = decision(game, players)
    expected = bot.iterations if whole else max(1, round(bot.iterations * OTHER_SHARE))
    assert bot.budget(obs) == expected
    if not whole and level == "normal":
        assert bot.budget(obs) == 600        # OTHER_SHARE of the normal level's 1 500


def test_the_normal_level_of_two_player_simple_durak_is_1500_iterations() -> None:
    bot: Any = make_bot("search:normal", "durak")
    obs, _ = decision("durak", 2)
    assert bot.budget(obs) == DurakSearch.normal_iterations == 1500


@pytest.mark.parametrize(("game", "players", "iterations"), [
    ("durak", 2, 50), ("durak", 4, 20), ("durak-perevodnoy", 2, 20)])
def test_a_decision_runs_the_iterations_its_budget_gives(
        game: str, players: int, iterations: int) -> None:
    bot = Unsettled(game, iterations=50)
    obs, legal = decision(game, players)
    bot.choose(obs, legal, random.Random(1))
    assert bot.last.iterations == iterations


@pytest.mark.parametrize(("game", "share"), [("durak", 1.0), ("durak-perevodnoy", OTHER_SHARE)])
def test_the_endgame_solver_gets_the_same_share_of_its_nodes(
        game: str, share: float, monkeypatch: pytest.MonkeyPatch) -> None:
    budgets: list[int] = []
    real = durak_search.SolverBudget

    def recording(nodes: int, deadline: float) -> Any:
        budgets.append(nodes)
        return real(nodes, deadline)

    monkeypatch.setattr(durak_search, "SolverBudget", recording)
    bot: Any = make_bot("search:normal", game)
    # two players, at most the trump card left in the stock: the solver's turn
    obs, legal = decision(game, 2, seed=11, where=lambda o: o["stock_size"] <= 1)
    bot.choose(obs, legal, random.Random(1))
    assert budgets == [round(bot.endgame_nodes * share)]
