"""Every game's determinizer (``GameSpec.determinize``: a deal consistent with what one seat
knows, for the search bots) against the game itself, at random positions of every player
count: the seat sees exactly what it saw, the same actions are legal, and the cards are the
deal's cards (none made up, none lost). Games add their own checks in their test files
(Durak's stock and trump card, Opendaum's voids)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import koloda

#: (game, players, options): each game at every player count it allows (Stukolka also on
#: its 52-card deck), games with a determinizer only
SETTINGS = [(name, players, {}) for name, spec in koloda.registry().items()
            if spec.determinize is not None for players in spec.players]
SETTINGS.append(("stukolka", 6, {"deck": 52}))


def positions(name: str, players: int, options: dict[str, Any], seeds: range,
              steps: int = 120) -> Iterator[koloda.Match]:
    """Positions where a seat is to move, of matches played by random legal actions (at
    most ``steps`` actions a match, so the long games stay short)."""
    for seed in seeds:
        rng = random.Random(seed)
        m = koloda.new_game(name, players=players, seed=seed, **options)
        for _ in range(steps):
            if m.is_over:
                break
            yield m
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("name", "players", "options"), SETTINGS,
                         ids=[f"{n}-{p}p{'-' + str(o['deck']) if o else ''}"
                              for n, p, o in SETTINGS])
def test_a_determinized_deal_shows_the_seat_exactly_its_observation(
        name: str, players: int, options: dict[str, Any]) -> None:
    determinize = koloda.get_spec(name).determinize
    assert determinize is not None
    rng = random.Random(players)
    checked = 0
    for m in positions(name, players, options, range(4)):
        seat = m.to_move
        assert seat is not None
        obs = m.observation(seat)
        for _ in range(2):
            det = determinize(obs, rng)
            assert det.observation(seat) == obs.deal                 # typed, field by field
            assert det.observation(seat).to_json() == obs.deal.to_json()
            assert det.to_move == seat and det.legal_actions() == m.legal_actions()
            zones = Counter(c for cards in det.card_zones().values() for c in cards)
            assert zones == Counter(m.deals[-1].all_cards())
            checked += 1
    assert checked > 50
