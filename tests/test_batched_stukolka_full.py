"""Whole Stukolka deals batched, the declarations as steps (koloda/rules/stukolka.en.md §Precisely),
replayed through the engine step by step: every declaration and every play (the same legal set, the
same seat to move, the same money). ``KOLODA_BATCHED_FULL``: games per shape."""

from __future__ import annotations

import numpy as np
import pytest

from koloda.batched import StukolkaFull
from koloda.batched.stukolka_full import DROP, GOLETS, KNOCK
from koloda.cards import TEXT_CARD
from tests.test_batched import FULL, engine_match

DECLARE = {"knock": KNOCK, "drop": DROP, "golets": GOLETS}


def index_of(text: str) -> int:
    words = text.split()
    return TEXT_CARD[words[1]] if words[0] == "play" else DECLARE[words[0]]


@pytest.mark.parametrize(("table", "deck", "ante"), [(5, 36, 3), (4, 36, 6), (7, 36, 3),
                                                     (6, 52, 9)])
def test_whole_stukolka_deals_replay_through_the_engine(table: int, deck: int,
                                                        ante: int) -> None:
    game = StukolkaFull(table, deck, ante)
    count = FULL or (300 if table == 5 else 100)
    rng = np.random.default_rng(table)
    state = game.init(np.arange(count) + 13 * table)
    masks, movers = [game.mask(state)], [game.to_move(state)]
    total = np.zeros((count, table), dtype=np.float32)
    while not game.is_over(state):
        state, obs, mask, reward = game.step(state, game.random_actions(state, rng))
        assert obs.shape == (count, game.observation_size)
        total += reward
        masks.append(mask)
        movers.append(game.to_move(state))
    assert (total == state.points.T).all()
    kinds = set()
    for g in range(count):
        record = game.record(state, g)
        match = engine_match(record)
        for t, act in enumerate(record["actions"]):
            want = sorted(index_of(a) for a in match.legal_actions())
            assert np.flatnonzero(masks[t][g]).tolist() == want, (g, t, record)
            assert match.to_move == movers[t][g] == act["seat"], (g, t)
            match.apply(act["action"])
        assert match.is_over and movers[len(record["actions"])][g] == -1
        assert match.current.payoffs() == state.points[:, g].tolist(), (g, record)
        assert list(match.result.scores) == state.points[:, g].tolist()
        kinds.add(min(int(state.players_in[g]), 2))
    assert {1, 2} <= kinds           # some play alone, most with others


def test_nobody_playing_keeps_the_pot_and_one_alone_takes_it() -> None:
    """§6: nobody plays — the pot stays (the dealer's ante in it); exactly one — he takes
    the three tricks, the whole pot, without play and pays no remiz. Replayed."""
    game = StukolkaFull(5)
    state = game.init(np.arange(300))
    rng = np.random.default_rng(0)
    for _ in range(5):                  # drop, but for a player in four who knocks
        knock = rng.random(300) < 0.25
        game.advance(state, np.where(knock, KNOCK, DROP))
    ar = np.arange(300)
    nobody, alone = state.players_in == 0, state.players_in == 1
    assert nobody.any() and alone.any() and state.over[nobody | alone].all()
    assert (state.points[:, nobody].sum(axis=0) == -3).all()
    assert (state.points[state.dealer, ar][nobody] == -3).all()
    assert (state.won[:, alone].max(axis=0) == 3).all()
    for g in np.flatnonzero(nobody | alone)[:40]:
        record = game.record(state, int(g))
        match = engine_match(record)
        for act in record["actions"]:
            match.apply(act["action"])
        assert match.is_over and match.current.payoffs() == state.points[:, g].tolist()
