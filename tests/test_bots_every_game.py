"""What every game's bots must do, over the registry: the heuristic in every seat and the
searches (the game's own, at a tiny budget, beside the generic ISMCTS) take only legal
actions through whole deals; ``search`` is the game's own declared search."""

from __future__ import annotations

import random

import pytest

import koloda
from koloda.bots import make_bot
from koloda.bots.interface import search_class
from koloda.bots.search import SearchBot
from tests.bots_common import drive

GAMES = sorted(koloda.registry())
WITH_HEURISTIC = [g for g in GAMES if "heuristic" in koloda.get_spec(g).bots]
WITH_SEARCH = [g for g in GAMES if "search" in koloda.get_spec(g).bots]


@pytest.mark.parametrize("game", WITH_HEURISTIC)
def test_heuristic_bot_in_every_seat_takes_only_legal_actions(game: str) -> None:
    rng = random.Random(3)
    spec = koloda.get_spec(game)
    for players in spec.players:
        for seed in range(8):
            deal = koloda.new_deal(game, players=players, seed=seed)
            drive(deal, [make_bot("heuristic", game)] * players, rng)


@pytest.mark.parametrize("game", WITH_SEARCH)
def test_search_bots_play_only_legal_actions(game: str) -> None:
    rng = random.Random(5)
    spec = koloda.get_spec(game)
    own = search_class(game)(spec.name, iterations=3)
    generic = SearchBot(game, iterations=12)
    others = [make_bot("heuristic", game) if "heuristic" in spec.bots else
              make_bot("random", game), make_bot("random", game)]
    players = spec.default_players
    lineup = [[own, generic, *others][i % 4] for i in range(players)]
    deal = koloda.new_deal(game, players=players, seed=1)
    drive(deal, lineup, rng)


@pytest.mark.parametrize("game", WITH_SEARCH)
def test_the_default_search_is_the_games_own(game: str) -> None:
    bot = make_bot("search", game)
    assert isinstance(bot, search_class(game)) and bot.name == "search:normal"
