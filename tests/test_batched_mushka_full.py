"""Whole Mushka deals batched, the exchange round as steps (koloda/rules/mushka.en.md §Precisely),
replayed through the engine step by step: every exchange choice and every play (the same legal set,
the same seat to move, the same points). ``KOLODA_BATCHED_FULL``: games per table size."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from koloda.batched import MushkaFull
from koloda.batched.mushka_full import PASS, STAND
from koloda.cards import TEXT_CARD
from tests.test_batched import FULL, engine_match


def index_of(text: str, hand: list[int]) -> int:
    """The batched action of an engine action text, ``hand`` the mover's (card order)."""
    words = text.split()
    if words[0] == "play":
        return TEXT_CARD[words[1]]
    if words[0] in ("stand", "pass"):
        return STAND if words[0] == "stand" else PASS
    cards = {TEXT_CARD[w] for w in words[1:]}
    return PASS + sum(1 << q for q, c in enumerate(sorted(hand)) if c in cards)


def play_batch(game: MushkaFull, keys: np.ndarray, seed: int) -> tuple[Any, list, list]:
    rng = np.random.default_rng(seed)
    state = game.init(keys)
    masks, movers = [game.mask(state)], [game.to_move(state)]
    total = np.zeros((state.games, game.table), dtype=np.float32)
    while not game.is_over(state):
        state, obs, mask, reward = game.step(state, game.random_actions(state, rng))
        assert obs.shape == (state.games, game.observation_size)
        total += reward
        masks.append(mask)
        movers.append(game.to_move(state))
    assert (total == state.points.T).all()
    return state, masks, movers


@pytest.mark.parametrize("table", [4, 2, 3, 5, 6])
def test_whole_mushka_deals_replay_through_the_engine(table: int) -> None:
    game = MushkaFull(table)
    count = FULL or (300 if table == 4 else 100)
    state, masks, movers = play_batch(game, np.arange(count) + 31 * table, table)
    kinds = set()
    for g in range(state.games):
        record = game.record(state, g)
        match = engine_match(record)
        for t, act in enumerate(record["actions"]):
            hand = match.current.hands[match.to_move]
            want = sorted(index_of(a, hand) for a in match.legal_actions())
            assert np.flatnonzero(masks[t][g]).tolist() == want, (g, t, record)
            assert match.to_move == movers[t][g] == act["seat"], (g, t)
            match.apply(act["action"])
        assert match.is_over and movers[len(record["actions"])][g] == -1
        assert match.current.payoffs() == state.points[:, g].tolist(), (g, record)
        assert match.current.tricks == state.won[:, g].tolist()
        kinds.add(int(state.players_in[g]))
    assert len(kinds) >= 2          # how many stay in differs from deal to deal


def test_a_deal_over_waits_with_stand_only() -> None:
    game = MushkaFull(6)
    state, masks, _ = play_batch(game, np.arange(500), 1)
    lengths = (state.history[:, 0] >= 0).sum(axis=0)
    assert lengths.min() < lengths.max()
    assert (masks[-1][:, STAND]).all() and masks[-1].sum() == len(masks[-1])


def test_everyone_passing_is_void_and_one_in_takes_all_five() -> None:
    """§2: every player passing voids the deal; exactly one in takes the five tricks
    without play (+5); both end with the exchange. Replayed through the engine."""
    game = MushkaFull(4)
    state = game.init(np.arange(200))
    for _ in range(4):                       # pass whenever allowed (the AS holder stands)
        mask = game.mask(state)
        game.advance(state, np.where(mask[:, PASS], PASS, STAND))
    alone = state.players_in == 1
    void = state.players_in == 0
    assert alone.any() and void.any() and state.over[alone | void].all()
    assert (state.points[:, void] == 0).all()
    assert (state.points[:, alone].sum(axis=0) == 5).all()
    for g in np.flatnonzero(alone | void)[:40]:
        record = game.record(state, int(g))
        match = engine_match(record)
        for act in record["actions"]:
            match.apply(act["action"])
        assert match.is_over and match.current.payoffs() == state.points[:, g].tolist()
