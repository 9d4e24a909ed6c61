"""Mushka batched from the end of the exchange round (koloda/rules/mushka.en.md §Precisely),
replayed through the engine from the deal: the exchange's choices, then every trick step by step
(the same legal set, the same seat to move, the same payoffs and counts). ``KOLODA_BATCHED_FULL``:
games per shape."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from koloda.batched import Mushka
from koloda.cards import TEXT_CARD
from tests.test_batched import FULL, play_and_compare

SHAPES = [(4, 3), (4, 4), (4, 2), (2, 2), (3, 3), (5, 4), (6, 6), (6, 2)]


def counts_from_25(match: Any, rewards: np.ndarray) -> None:
    """One deal from 25: a trick counts one down, none in play five up, a pass nothing."""
    assert list(match.result.scores) == (25 - rewards).tolist()


@pytest.mark.parametrize(("table", "players"), SHAPES)
def test_mushka_batch_replays_through_the_engine(table: int, players: int) -> None:
    game = Mushka(table, players)
    count = FULL or (300 if (table, players) == (4, 3) else 100)
    games, steps = play_and_compare(game, np.arange(count) + 100 * table + players, players,
                                    result=counts_from_25)
    assert games == count and steps == count * game.length


def test_the_ace_of_spades_holder_never_passes_and_exactly_k_stay() -> None:
    """§2: a player holding AS may not pass; the batch's shape: ``players`` stay in."""
    game = Mushka(5, 2)
    state = game.init(np.arange(2000))
    held = 0
    for g in range(state.games):
        record = game.record(state, g)
        deal = record["deals"][0]
        acts = record["actions"]
        stayed = [a["seat"] for a in acts if a["action"] != "pass"]
        assert len(stayed) == 2
        for a in acts:
            if "AS" in deal["hands"][a["seat"]]:
                held += 1
                assert a["action"] != "pass"
    assert held > 500


def test_discards_never_exceed_the_stock() -> None:
    """§2: never discard more than the stock holds (4 seats, 32 cards: a stock of 11)."""
    game = Mushka(4, 4)
    state = game.init(np.arange(1500))
    emptied = 0
    for g in range(state.games):
        acts = game.record(state, g)["actions"]
        drawn = [len(a["action"].split()) - 1 for a in acts if a["action"].startswith("discard")]
        assert sum(drawn) <= 11
        emptied += sum(drawn) >= 10
    assert emptied > 10


def test_no_trick_costs_five() -> None:
    game = Mushka(6, 6)
    state = game.init(np.arange(400))
    rng = np.random.default_rng(2)
    while not game.is_over(state):
        game.advance(state, game.random_actions(state, rng))
    tricks = game.by_seat_tricks(state)
    assert (state.points[tricks == 0] == -5).all() and (tricks == 0).any()
    assert (state.points[tricks > 0] == tricks[tricks > 0]).all()
    assert TEXT_CARD["AS"] == 12
