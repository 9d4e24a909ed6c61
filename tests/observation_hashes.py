"""Hashes of every seat's observation at every step of seeded random matches.

``tests/test_observation_hashes.py`` compares them with ``tests/fixtures/observation_hashes.json``,
written from the code before the observations were made incremental (cached facts in the
deal state): any change to an observation's value changes a hash. Regenerate only when an
observation is meant to change: ``python3 -m tests.observation_hashes --write``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import koloda

FIXTURE = Path(__file__).parent / "fixtures" / "observation_hashes.json"

#: (game, players): every variant of the games whose observations are cached, durak 2–6p
CASES: tuple[tuple[str, int], ...] = tuple(
    [(name, p) for name in ("durak", "durak-perevodnoy") for p in range(2, 7)]
    + [("opendaum", p) for p in range(2, 7)] + [("opendaum-shakhi", p) for p in (2, 4, 6)]
    + [("opendaum-33", 3)] + [("mushka", p) for p in range(2, 7)])
MATCHES = 3
MAX_DEALS = 3


def match_hash(game: str, players: int, seed: int) -> str:
    """Play one random match (actions from ``seed``); hash every seat's observation (and the
    public one) after every action, as JSON, and asked twice to catch stale caches."""
    rng = random.Random(seed)
    m = koloda.new_game(game, players=players, seed=seed, max_deals=MAX_DEALS)
    h = hashlib.sha256()

    def look() -> None:
        for seat in range(players):
            h.update(json.dumps(m.observation(seat).to_json(), sort_keys=True).encode())
        h.update(json.dumps(m.public_observation().to_json(), sort_keys=True).encode())

    look()
    while not m.is_over:
        if rng.random() < 0.5:
            look()
        m.apply(rng.choice(m.legal_actions()))
        look()
    return h.hexdigest()


def all_hashes() -> dict[str, str]:
    return {f"{game}/{players}/{k}": match_hash(game, players, 1000 * players + k)
            for game, players in CASES for k in range(MATCHES)}


if __name__ == "__main__":
    hashes = all_hashes()
    if "--write" in sys.argv:
        FIXTURE.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n")
    print(len(hashes), "matches")
