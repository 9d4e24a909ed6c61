"""Each Durak hand's public cards (``DurakGame.known``) are kept as the cards move —
taken from the table, the trump card drawn, played — and are always the public set
within that hand, in every variant and player count, in a clone and in a determinized
copy; the observation's ``known_cards`` are those sets, sorted."""

from __future__ import annotations

import random

import pytest

import koloda
from koloda.games.durak.determinize import determinize


def _check(st: object) -> None:
    public, hands, known = st.public, st.hands, st.known  # type: ignore[attr-defined]
    assert known == [public & set(h) for h in hands]


@pytest.mark.parametrize(("name", "players", "options"), [
    ("durak", 2, {}), ("durak", 4, {}), ("durak", 6, {}), ("durak", 4, {"teams": True}),
    ("durak-perevodnoy", 2, {}), ("durak-perevodnoy", 3, {}),
])
def test_each_hands_public_cards_are_the_public_set_within_it(
        name: str, players: int, options: dict[str, object]) -> None:
    rng = random.Random(players)
    taken = drawn_trump = 0
    for seed in range(8):
        m = koloda.new_game(name, players=players, seed=seed, max_deals=1, **options)
        while not m.is_over:
            st = m.current
            _check(st)
            seat = m.to_move
            obs = m.observation(seat)
            assert obs.deal.known_cards == tuple(tuple(sorted(k)) for k in st.known)
            if rng.random() < 0.1:
                _check(st.clone())
                _check(determinize(obs, random.Random(seed)))
            taken += any(a == "take" for a in m.legal_actions())
            drawn_trump += st.trump_holder is not None
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])
    assert taken and drawn_trump          # (the moves that make cards public were met)
