"""Every registered game and variant passes the generic conformance checks."""

import pytest

from koloda import get_spec, registry
from tests.conformance import check_playout

GAMES = sorted(registry())


def _counts(name: str) -> list[int]:
    spec = get_spec(name)
    return sorted({spec.players[0], spec.default_players, spec.players[-1]})


@pytest.mark.parametrize("name", GAMES)
def test_random_playouts_conform(name: str) -> None:
    """Short matches (max_deals=2) at every edge player count, every step checked."""
    for players in _counts(name):
        for seed in range(3):
            check_playout(name, players, seed, max_deals=2)


@pytest.mark.parametrize("name", GAMES)
def test_full_matches_terminate(name: str) -> None:
    """Whole matches with default options end (by their rules or the cap)."""
    spec = get_spec(name)
    for seed in range(2):
        match = check_playout(name, spec.default_players, 100 + seed, check_every=97)
        assert match.is_over
