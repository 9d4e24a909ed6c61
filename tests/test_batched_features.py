"""Batched Opendaum writes the adapters' observation vector and speaks their action
numbers: one space from the batch to every env. Random batches are played, every deal
replayed through the engine, and at each step the batch's ``features`` row must equal the
vector the adapters build for the seat to move (``koloda.envs.common.Features``), float for
float, and the batch's legal actions, converted, must be the adapters' mask."""

from __future__ import annotations

import numpy as np
import pytest

from koloda.batched import Opendaum
from koloda.envs.actions import Selection, action_space
from koloda.envs.common import features
from koloda.tensors import TableMemory
from tests.test_batched import engine_match


@pytest.mark.parametrize(("players", "hand", "count"), [(4, 8, 40), (3, 12, 15), (5, 6, 15),
                                                        (4, 1, 10), (2, 16, 8)])
def test_batched_opendaum_features_are_the_adapters_vector_at_every_step(
        players: int, hand: int, count: int) -> None:
    game = Opendaum(players=players, hand=hand)
    feats = features("opendaum", players)
    assert game.features_size == feats.size
    assert {i.name: (i.offset, i.size) for i in feats.infos()} == game.features_layout()
    space = action_space("opendaum")
    rng = np.random.default_rng(players * 100 + hand)
    state = game.init(np.arange(count) + 7 * hand)
    rows, masks = [game.features(state)], [game.mask(state)]
    adapter_masks = [game.adapter_mask(state)]
    while not game.is_over(state):
        state, _, mask, _ = game.step(state, game.random_actions(state, rng))
        rows.append(game.features(state))
        masks.append(mask)
        adapter_masks.append(game.adapter_mask(state))
    assert not rows[-1].any(), "all zero once over"
    for g in range(count):
        record = game.record(state, g)
        match = engine_match(record)
        memory = TableMemory()
        for t, act in enumerate(record["actions"]):
            seat = match.to_move
            want = np.array(feats.vector(match.observation(seat), memory, Selection()),
                            np.float32)
            bad = np.flatnonzero(rows[t][g] != want)
            assert not len(bad), (g, t, [(i, rows[t][g][i], want[i]) for i in bad[:8]])
            legal = np.flatnonzero(masks[t][g])
            want_mask = sorted(space.index[a] for a in match.legal_actions())
            assert sorted(game.to_adapter_actions(legal).tolist()) == want_mask
            assert np.flatnonzero(adapter_masks[t][g]).tolist() == want_mask
            memory.record(match.apply(act["action"]))


def test_adapter_actions_convert_both_ways_and_a_wrong_one_is_refused() -> None:
    game = Opendaum(players=4, hand=8)
    space = action_space("opendaum")
    assert space.index["play 2S"] == 19 and space.index["bid 0"] == 0
    ours = np.arange(game.num_actions)
    theirs = game.to_adapter_actions(ours)
    assert (game.from_adapter_actions(theirs) == ours).all()
    assert [space.labels[i] for i in theirs[[0, 51, 52, 60]]] == [
        "play 2S", "play AH", "bid 0", "bid 8"]
    with pytest.raises(ValueError, match=r"adapter action 9 is no bid of 0\.\.8"):
        game.from_adapter_actions([9])
    with pytest.raises(ValueError, match="adapter action 71"):
        game.from_adapter_actions([71])
