"""The fast encoder (koloda.tensors.typed, read off the typed views) gives exactly the
reference encoder's tensor (koloda.tensors.Encoder.encode of the JSON observation), for
every seat of random positions of every game and player count; and the adapters' vectors
built from it are the reference Features vector."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import koloda
from koloda.engine.layout import Cards, Number, PerSeat, Seat, Suit, lookup
from koloda.engine.view import Observation
from koloda.tensors import encoder
from tests.test_envs_speed import positions as speed_positions

SHAPES = [(name, players) for name, spec in koloda.registry().items()
          for players in spec.players]


def positions(name: str, players: int, matches: int, seed: int = 0, steps: int = 150
              ) -> Iterator[koloda.Match]:
    """The positions of a few random matches (tests/test_envs_speed.py's, one match each
    from ``seed`` on)."""
    for g in range(matches):
        yield from speed_positions(name, players, seed + g, steps)


@pytest.mark.parametrize(("name", "players"), SHAPES)
def test_the_typed_encoder_gives_the_reference_tensor_at_every_position(
        name: str, players: int) -> None:
    enc = encoder(name, players)
    checked = 0
    for m in positions(name, players, matches=2):
        for seat in range(players):
            obs = m.observation(seat)
            want = enc.encode(obs.to_json())
            assert enc.typed.dense(obs) == want, (name, players, seat)
            written = [0.0] * enc.size
            enc.typed.write(obs, written)
            assert written == want, (name, players, seat)
            checked += 1
    assert checked > 10 * players


def test_the_shapes_of_issue_18_read_every_block_typed() -> None:
    """Durak, Opendaum and Mushka need no JSON at all (the fallback stays unused)."""
    for name, players in (("durak", 2), ("opendaum", 4), ("mushka", 4)):
        enc = encoder(name, players)
        for m in positions(name, players, matches=1):
            enc.typed.indices(m.observation(m.to_move or 0))
        assert enc.typed.fallback and not any(enc.typed.fallback.values()), name


def test_kopilka_and_trinka_read_every_block_typed_too() -> None:
    """Their own blocks (Kopilka's tricks won and offer, Trinka's per-pair numbers and
    voids) read the typed values, Kopilka's tricks though their JSON form is reshaped:
    no observation is turned into JSON for their tensors."""
    for name, players in (("kopilka", 4), ("trinka", 4)):
        enc = encoder(name, players)
        for m in positions(name, players, matches=1):
            enc.typed.indices(m.observation(m.to_move or 0))
        assert enc.typed.fallback and not any(enc.typed.fallback.values()), name


def test_a_block_whose_field_only_the_json_has_falls_back_to_the_json() -> None:
    """A path the views do not declare (here ``sheet.nothing``) is read from the JSON:
    missing, so zeros, exactly as the reference encoder writes."""
    from koloda.tensors.typed import TypedEncoder
    blocks = (Seat("to_move", "to_move", ""), Number("x", "sheet.nothing", ""),
              Suit("no", "nothing", "", no_suit=True), Cards("hand", "hand", ""),
              PerSeat("sizes", "hand_sizes", "", scale=0.5, optional=True))
    m = koloda.new_game("durak", players=2, seed=3)
    obs = m.observation(1)
    typed = TypedEncoder(blocks, [0, 2, 3, 8, 60], 2, 64)
    dense = typed.dense(obs)
    assert typed.fallback[(type(obs.deal), type(obs.sheet))] == ["x", "no"]
    assert dense[7] == 1.0             # a missing suit reads as null: the no-suit slot
    assert sorted(i - 8 for i in range(8, 60) if dense[i]) == sorted(obs.deal.hand)
    assert dense[60:64] == [1.0, 1.0, 3.0, 3.0]     # present flags, then 6 cards × 0.5
    assert dense[0:2] == [1.0 if r == (m.to_move - 1) % 2 else 0.0 for r in range(2)]
    ref = [0.0] * 64
    for b, at in zip(blocks, [0, 2, 3, 8, 60], strict=True):
        b.encode(lookup(obs.to_json(), b.path), 1, 2, ref, at)
    assert dense == ref


def test_the_typed_encoder_refuses_an_observation_of_another_player_count() -> None:
    m = koloda.new_game("durak", players=3, seed=1)
    with pytest.raises(ValueError, match="3 players"):
        encoder("durak", 2).typed.indices(m.observation(0))


def test_the_adapters_vectors_are_the_reference_features() -> None:
    """PettingZoo's vector (typed, written through a memoryview) equals the reference
    Features.vector of the JSON observation, the seen cards and the selection."""
    pytest.importorskip("pettingzoo")
    import numpy as np

    from koloda.envs.actions import Selection
    from koloda.envs.pettingzoo import env
    for name, players in (("durak", 3), ("mushka", 4), ("dreyfus", 3), ("kopilka", 4)):
        e = env(name, players=players, max_deals=2)
        u = e.unwrapped
        e.reset(seed=5)
        rng = random.Random(1)
        for agent in e.agent_iter(400):
            obs, _, term, trunc, _ = e.last()
            seat = u.agent_name_mapping[agent]
            m = u.match
            sel = u.selection if seat == m.to_move else Selection()
            want = u.features.vector(m.observation(seat).to_json(), u.memory, sel)
            assert np.array_equal(obs["observation"], np.asarray(want, np.float32))
            if term or trunc:
                e.step(None)
            else:
                e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_an_observation_is_a_typed_view_that_reads_as_its_json() -> None:
    m = koloda.new_game("opendaum", players=4, seed=2)
    obs = m.observation(0)
    assert isinstance(obs, Observation)
    assert dict(obs) == obs.to_json()


@pytest.mark.parametrize("name", list(koloda.registry()))
def test_every_blocks_put_writes_what_its_encode_writes(name: str) -> None:
    """Block.put (the typed twin the generated code calls, or inlines for the common
    blocks) writes the same entries as Block.encode of the field's JSON form."""
    from koloda.tensors.typed import _resolve
    players = koloda.get_spec(name).default_players
    enc = encoder(name, players)
    compared = 0
    for m in positions(name, players, matches=1, seed=7, steps=60):
        for seat in range(players):
            obs = m.observation(seat)
            json = obs.to_json()
            for b, info in zip(enc.blocks, enc.infos, strict=True):
                plan = _resolve(b.path, type(obs.deal), type(obs.sheet))
                if plan is None or plan.kind not in b.typed_kinds():
                    continue
                v: object = {"obs": obs, "deal": obs.deal, "sheet": obs.sheet}[plan.root]
                for part in plan.chain:
                    v = None if v is None else getattr(v, part)
                if v is None:
                    continue
                ones: list[int] = []
                ni: list[int] = []
                nv: list[float] = []
                b.put(v, seat, players, info.offset, ones, ni, nv)
                got = dict.fromkeys(ones, 1.0) | dict(zip(ni, nv, strict=True))
                want: dict[int, float] = {}
                b.encode(lookup(json, b.path), seat, players, want, info.offset)
                assert {i: x for i, x in got.items() if x} == \
                    {i: x for i, x in want.items() if x}, (name, b.name)
                compared += 1
    assert compared > 100
