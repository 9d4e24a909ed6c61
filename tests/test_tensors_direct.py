"""The tensor written straight from the match state (koloda.tensors.direct) is the tensor
written from the observation, for every seat at every step; hidden cards stay hidden on
that path; the adapters' lazily made observation is the observation of its position."""

from __future__ import annotations

import copy
import pickle
import random
from array import array
from collections.abc import Mapping
from typing import ClassVar

import pytest

import koloda
from koloda.cards import CARD_TEXT
from koloda.engine.registry import registry
from koloda.envs.common import LazyObservation, features
from koloda.tensors import direct
from tests.test_tensors import swapped_matches

CONFIGS = [(name, n) for name, spec in registry().items() if spec.layout for n in spec.players]
#: the games whose deal states the direct path knows (the adapters' benchmark shapes)
DIRECT = {"durak", "durak-perevodnoy", "opendaum", "opendaum-shakhi", "opendaum-33", "mushka",
          "trinka", "stukolka"}


def both_ways(m: koloda.Match, seat: int) -> tuple[list[float], list[float], list[float],
                                                  list[float]]:
    """(from the observation, from the state) as float32 arrays, then as the float32
    lists OpenSpiel's tensors are."""
    typed = features(m.spec.name, m.players).typed
    ref, fast = array("f", [0.0]) * typed.size, array("f", [0.0]) * typed.size
    typed.write(m.observation(seat), memoryview(ref))
    typed.write_match(m, seat, memoryview(fast))
    ref32, fast32 = [0.0] * typed.size, [0.0] * typed.size
    typed.write32(m.observation(seat), ref32)
    typed.write_match(m, seat, fast32, True)
    return list(ref), list(fast), ref32, fast32


def uses_direct(m: koloda.Match) -> bool:
    return direct.source_of(type(m.current)) is not None


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_the_state_written_tensor_equals_the_observation_written_one_at_every_step(
        name: str, players: int) -> None:
    games = 4 if name in DIRECT else 1
    steps = 0
    for seed in range(games):
        rng = random.Random(seed)
        m = koloda.new_game(name, players=players, seed=seed, max_deals=2)
        while True:
            for seat in range(players):
                ref, fast, ref32, fast32 = both_ways(m, seat)
                assert fast == ref, f"{name} {players}p seed {seed} step {len(m.history)}"
                assert fast32 == ref32
            steps += 1
            if m.is_over:
                break
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])
    assert steps > games
    assert uses_direct(m) == (name in DIRECT), f"{name}: direct path {uses_direct(m)}"


def test_a_seats_writer_reads_its_per_seat_values_unpacked_and_any_other_length_looped(
        ) -> None:
    """A seat's own writer unpacks a per-seat field (one value a seat, no loop); a field of
    another length is looped over as before — read again, since the unpacking may have
    used up an iterator — so the tensor is what the loop writes: the seats' values, and
    nothing for an entry past the last seat."""
    m = koloda.new_game("opendaum", players=4, seed=3, max_deals=2)
    rng = random.Random(3)
    while len(m.deals) < 2:
        legal = m.legal_actions()
        m.apply(legal[rng.randrange(len(legal))])
    typed = features("opendaum", 4).typed
    source = typed.writers(m)[1].__doc__
    assert "x0, x1, x2, x3 = v" in source and "mv[72] = x0 * s" in source
    assert any(m.totals), "the first deal scored something"
    totals = list(m.totals)
    expected = both_ways(m, 1)[1]
    m.totals = [*totals, 99]                    # one entry too many: looped, cut at P
    assert both_ways(m, 1)[1] == expected
    m.totals = [*totals[:3], 0]                 # unpacked
    padded = both_ways(m, 1)[1]
    m.totals = totals[:3]                       # one too few: looped
    assert both_ways(m, 1)[1] == padded
    m.totals = totals


@pytest.mark.parametrize(("name", "players", "options"), [
    ("durak", 2, {}), ("durak", 4, {"teams": True}), ("durak-perevodnoy", 3, {})])
def test_a_block_that_sets_ones_in_the_buffer_sets_the_entries_its_put_gives(
        name: str, players: int, options: dict[str, object]) -> None:
    """Durak's table and partners blocks set their 1.0s in the buffer itself
    (``put_ones``) in the writers into a buffer; the entries are those ``put`` gives
    (the index lists of ``TypedEncoder.indices``), at every step of random matches."""
    typed = features(name, players).typed
    assert [b.name for b in typed.blocks if b.puts_ones()]
    for seed in range(3):
        rng = random.Random(seed)
        m = koloda.new_game(name, players=players, seed=seed, max_deals=1, **options)
        while not m.is_over:
            for seat in range(players):
                listed = array("f", typed.dense(m.observation(seat)))
                written = array("f", [0.0]) * typed.size
                typed.write_match(m, seat, memoryview(written))
                assert written == listed
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])


def test_a_deal_state_that_makes_its_own_observation_is_not_written_directly() -> None:
    from koloda.games.durak.rounds import DurakGame

    class Other(DurakGame):
        def observation(self, seat: int):  # type: ignore[no-untyped-def]
            return DurakGame.observation(self, seat)

    assert direct.source_of(DurakGame) is not None
    assert direct.source_of(Other) is None


def test_the_direct_path_reads_the_deal_states_declaration_and_imports_no_game() -> None:
    """The fields' expressions are the game's own (``tensor_fields`` on its deal state,
    kept beside its layout), the view class the one its ``observation`` returns; the
    direct module names no game and imports nothing from koloda.games."""
    import ast
    import inspect

    from koloda.games.durak.layout import STATE_FIELDS
    from koloda.games.durak.rounds import DurakGame
    from koloda.games.durak.views import DurakView

    assert direct.source_of(DurakGame) == (DurakView, STATE_FIELDS)
    tree = ast.parse(inspect.getsource(direct))
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [name for name in imported if name.startswith("koloda.games")]
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert not names & {"DURAK", "OPENDAUM", "MUSHKA"}
    for name in sorted(DIRECT):                 # the games' public attributes only
        found = direct.source_of(type(koloda.new_game(name, seed=1).current))
        assert found is not None
        private = {f: e for f, e in found[1].items() if "._" in e}
        assert not private, f"{name} reads private attributes: {private}"


def test_a_deal_state_that_declares_its_fields_is_written_from_its_state() -> None:
    """A declaration is read off the class (or a base that makes the observation), so a
    game's subclass with fields of its own is written by them, one that drops them is not."""
    from koloda.games.durak.layout import STATE_FIELDS
    from koloda.games.durak.rounds import DurakGame

    class Renamed(DurakGame):
        tensor_fields: ClassVar[Mapping[str, str]] = {**STATE_FIELDS,
                                                      "hand": "st.hands[seat][:]"}
        observation = DurakGame.observation

    class Undeclared(DurakGame):
        tensor_fields = None

    found = direct.source_of(Renamed)
    assert found is not None and found[1]["hand"] == "st.hands[seat][:]"
    assert direct.source_of(Undeclared) is None


@pytest.mark.parametrize(("name", "players"), [("opendaum", 4), ("opendaum-shakhi", 3),
                                               ("opendaum-33", 3)])
def test_opendaums_shown_voids_are_its_known_voids_at_every_play(name: str,
                                                                 players: int) -> None:
    """``OpendaumDeal.shown_voids`` (what the direct path reads, kept for the position and
    read on as the trick grows) holds the sets ``known_voids`` makes afresh."""
    for seed in range(3):
        rng = random.Random(seed)
        m = koloda.new_game(name, players=players, seed=seed, max_deals=2)
        while not m.is_over:
            st = m.current
            for _ in range(2):              # asked again at the same position: the same
                assert [set(v) for v in st.shown_voids()] == st.known_voids()
            m.apply(rng.choice(m.legal_actions()))


@pytest.mark.parametrize("name", sorted(DIRECT - {"opendaum-33", "durak-perevodnoy"}))
def test_swapping_two_hidden_cards_changes_no_state_written_tensor(name: str) -> None:
    """The leak test of tests/test_tensors.py through the direct path: a deal where two
    cards the seat cannot see trade places gives the seat the same tensor."""
    compared = 0
    for m, other, seat, a, b in swapped_matches(name):
        _, mine, _, mine32 = both_ways(m, seat)
        _, theirs, _, theirs32 = both_ways(other, seat)
        assert theirs == mine, f"{name}: swapping {a} and {b} shows in seat {seat}"
        assert theirs32 == mine32
        compared += 1
    assert compared >= 3


def test_the_state_written_tensor_lights_no_hidden_card() -> None:
    for name, players in [("durak", 4), ("opendaum", 4), ("mushka", 4)]:
        card_at = features(name, players).encoder.card_positions()
        rng = random.Random(3)
        m = koloda.new_game(name, players=players, seed=3, max_deals=1)
        checked = 0
        while not m.is_over:
            for seat in range(players):
                hidden = m.hidden_from(seat)
                _, fast, _, _ = both_ways(m, seat)
                lit = {CARD_TEXT[c] for i, c in card_at.items() if fast[i] and c in hidden}
                assert not lit, f"{name}: seat {seat}'s tensor shows hidden {lit}"
                checked += bool(hidden)
            m.apply(rng.choice(m.legal_actions()))
        assert checked


# ------------------------------------------------------------------ LazyObservation
def test_a_lazy_observation_is_the_observation_of_its_position_even_read_later() -> None:
    m = koloda.new_game("mushka", players=3, seed=5)
    rng = random.Random(5)
    lazies, wanted = [], []
    for _ in range(25):
        seat = m.to_move
        assert seat is not None
        lazies.append(LazyObservation(m, seat))
        wanted.append(m.observation(seat))
        m.apply(rng.choice(m.legal_actions()))
    for lazy, want in zip(lazies, wanted, strict=True):     # read after moving on
        assert lazy == want and want == lazy
        assert lazy.to_json() == want.to_json()
        assert dict(lazy) == want.to_json()
        assert lazy.deal == want.deal and lazy.seat == want.seat
        assert isinstance(lazy, koloda.engine.view.Observation)


def test_a_lazy_observation_pickles_and_copies_as_the_plain_one() -> None:
    m = koloda.new_game("durak", players=2, seed=1)
    m.apply(m.legal_actions()[0])
    lazy = LazyObservation(m, 1)
    back = pickle.loads(pickle.dumps(lazy))
    assert type(back) is koloda.engine.view.Observation
    assert back == m.observation(1)
    assert copy.deepcopy(LazyObservation(m, 0)) == m.observation(0)
    assert repr(LazyObservation(m, 0)) == repr(m.observation(0))


def test_pettingzoo_infos_observation_read_after_later_steps_is_its_own_position() -> None:
    pytest.importorskip("pettingzoo")
    from koloda.envs.pettingzoo import raw_env
    e = raw_env("durak", players=2)
    e.reset(seed=3)
    rng = random.Random(3)
    kept = []
    for _ in range(40):
        agent = e.agent_selection
        m = e.match
        assert m is not None
        info = e.infos[agent]
        kept.append((info, m.observation(e.agent_name_mapping[agent]).to_json()))
        mask = e.observe(agent)["action_mask"]
        e.step(rng.choice([i for i, x in enumerate(mask) if x]))
    for info, want in kept:
        assert info["observation"].to_json() == want





@pytest.mark.parametrize(("name", "players", "module", "state"),
                         [("trinka", 4, "koloda.games.trinka", "TrinkaDeal"),
                          ("stukolka", 5, "koloda.games.stukolka", "StukolkaDeal")])
def test_a_layouts_state_fields_write_the_tensor_its_observation_writes(
        name: str, players: int, module: str, state: str) -> None:
    """The ``STATE_FIELDS`` a game's layout declares for its deal state (Trinka's,
    Stukolka's) read the same values as the state's ``observation``: a deal state
    declaring them is written from its state, the observation's tensor, for every seat at
    every step (float32 and OpenSpiel's rounding alike)."""
    import importlib
    deal_cls = getattr(importlib.import_module(module), state)
    fields = importlib.import_module(f"koloda.games.{name}.layout").STATE_FIELDS
    declared = type("Declared", (deal_cls,), {"tensor_fields": fields,
                                              "observation": deal_cls.observation})
    typed = features(name, players).typed
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        m = koloda.new_game(name, players=players, seed=seed, max_deals=3)
        while not m.is_over:
            if type(m.current) is deal_cls:
                m.current.__class__ = declared
                assert typed.writers(m) is not None and typed.writers(m, True) is not None
                for seat in range(players):
                    ref, fast = [0.0] * typed.size, [0.0] * typed.size
                    typed.write(m.observation(seat), ref)
                    typed.write_match(m, seat, fast)
                    assert fast == ref, f"seed {seed} step {len(m.history)} seat {seat}"
                    ref32, fast32 = [0.0] * typed.size, [0.0] * typed.size
                    typed.write32(m.observation(seat), ref32)
                    typed.write_match(m, seat, fast32, True)
                    assert fast32 == ref32
                    checked += 1
                m.current.__class__ = deal_cls
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])
    assert checked > 100
