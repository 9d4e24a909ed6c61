"""Positions for tests that look at every state of a game: matches played by random legal
actions, each seed its own match and its own choices."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import koloda


def random_positions(game: str, seeds: range, players: int | None = None,
                     **options: Any) -> Iterator[koloda.Match]:
    """Every position of the matches of ``game`` on ``seeds`` (the final one included),
    played by legal actions drawn from ``random.Random(seed)``. The same match object moves
    on after each yield: look at it before asking for the next."""
    for seed in seeds:
        rng = random.Random(seed)
        m = koloda.new_game(game, players=players, seed=seed, **options)
        while not m.is_over:
            yield m
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])
        yield m
