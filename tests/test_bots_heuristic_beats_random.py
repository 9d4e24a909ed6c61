"""The heuristic beats random on the arena's duplicate deals: the paired difference in the
game's own measure has its 95 % interval above 0 (fixed seeds, never used for tuning)."""

from __future__ import annotations

import pytest

from koloda import arena

CASES = [("stukolka", 4, 60), ("stukolka", 5, 40), ("dreyfus", 3, 20), ("opendaum-33", 3, 40)]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players", "deal_sets"), CASES)
def test_heuristic_beats_random_paired(game: str, players: int, deal_sets: int) -> None:
    games = arena.schedule_games(game, players, ["heuristic", "random"], deal_sets, 300001,
                                 "deal", {})
    rows = [res.row for res in arena.run(games, 1)]
    mean, low, _high, n = arena.paired_difference(
        rows, "heuristic", "random", arena.measure_of(game).rate)
    assert n == deal_sets
    assert low > 0, (game, players, mean, low)
