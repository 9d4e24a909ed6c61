"""Cached observations are the observations: every seat's observation (and the public one)
at every step of seeded random Durak (both variants, 2–6 players), Opendaum (all three
variants) and Mushka matches hashes as the code before the caches did
(tests/fixtures/observation_hashes.json; see tests/observation_hashes.py)."""

from __future__ import annotations

import json

import pytest

from tests.observation_hashes import CASES, FIXTURE, MATCHES, match_hash

EXPECTED = json.loads(FIXTURE.read_text())


@pytest.mark.parametrize(("game", "players"), CASES)
def test_cached_observations_equal_the_uncached(game: str, players: int) -> None:
    for k in range(MATCHES):
        key = f"{game}/{players}/{k}"
        assert match_hash(game, players, 1000 * players + k) == EXPECTED[key], key
