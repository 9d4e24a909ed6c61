"""Random durak games, 2–6 players, both variants: the 36 cards are conserved at every step.

The suite plays ``GAMES`` (10 000) games, about 20 s; another seed or count by hand:
``python3 -m tests.test_durak_random 10000 SEED`` (prints the games and the time).
"""

from __future__ import annotations

import random
import sys
import time

import pytest

import koloda
from koloda.cards import deck
from koloda.games.durak import DurakGame

pytestmark = pytest.mark.slow

GAMES = 10_000
DECK = sorted(deck(36))


def check_step(g: DurakGame) -> None:
    """Every card in exactly one place; the table and the limit as the rules allow."""
    cards = [c for h in g.hands for c in h] + g.stock + g.attacks + g.discard
    cards += [c for c in g.covers if c is not None]
    assert sorted(cards) == DECK, "the 36 cards are not conserved"
    if g.is_over:
        return
    assert len(g.attacks) <= g.limit <= 6
    uncovered = len(g.attacks) - g.covered
    if not g.taken:
        assert uncovered <= len(g.hands[g.defender]), "more to cover than the defender holds"
    for s in range(g.players):
        if not g.in_game[s]:
            assert not g.hands[s] and not g.stock
    if g.phase != "attack":
        assert g.attacks
    if g.phase == "throw":
        assert g.hands[g.to_move] if g.to_move is not None else False
        assert g.teams is False or g.side[g.to_move] != g.side[g.defender]


def play_games(count: int, seed: int = 0) -> int:
    """Play ``count`` random games checking every step; return the number of actions."""
    rng = random.Random(seed)
    actions = 0
    for i in range(count):
        players = 2 + i % 5
        name = "durak" if i % 2 == 0 else "durak-perevodnoy"
        m = koloda.new_game(name, players=players, seed=seed * 1_000_003 + i)
        g = m.current
        assert isinstance(g, DurakGame)
        check_step(g)
        while not m.is_over:
            m.apply(rng.choice(m.legal_actions()))
            check_step(g)
            actions += 1
        assert g.is_over and m.result is not None
        losers = set(m.result.losers)
        assert losers == ({s for s in range(players) if g.side[s] == g.side[g.durak]}
                          if g.durak is not None else set())
    return actions


def test_random_games_conserve_the_36_cards_at_every_step() -> None:
    assert play_games(GAMES) > GAMES * 10


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    t = time.perf_counter()
    acts = play_games(n, seed=int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    print(f"{n} games, {acts} actions, every step checked, {time.perf_counter() - t:.1f} s")
