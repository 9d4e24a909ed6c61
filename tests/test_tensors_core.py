"""The core never needs the research extras: koloda, every game, the tensors and the
numpy-free parts of koloda.envs import and work with numpy, pettingzoo, gymnasium and
pyspiel made unimportable. And ``koloda.envs.determinize`` says clearly when a game has
no determinizer."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap

import pytest

import koloda
from koloda.envs import NoDeterminizer, determinizable, determinize

BLOCKED = ("numpy", "pettingzoo", "gymnasium", "pyspiel", "open_spiel")

SCRIPT = textwrap.dedent(f"""
    import importlib.abc, random, sys

    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in {BLOCKED!r}:
                raise ImportError("blocked: " + name)
            return None

    sys.meta_path.insert(0, Block())
    import koloda, koloda.tensors, koloda.envs, koloda.envs.actions, koloda.envs.chance
    import koloda.bots
    for name in koloda.registry():
        m = koloda.new_game(name, seed=1, max_deals=1)
        koloda.tensors.encode(m.observation(0))
        koloda.envs.action_space(name).mask(m.legal_actions())
        t = koloda.envs.chance.Table(name, m.players, {{"max_deals": 1}})
        rng = random.Random(0)
        while t.current_player() == -1:
            t.apply(rng.choice(t.chance_outcomes())[0])
        t.vector(0, True)
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in {BLOCKED!r})
    print("LOADED", loaded)
""")


def test_the_core_imports_and_runs_without_numpy_pettingzoo_or_pyspiel() -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "LOADED []" in out.stdout


def test_determinize_gives_a_state_that_agrees_with_the_seat() -> None:
    m = koloda.new_game("durak", players=3, seed=8)
    seat = m.to_move
    obs = m.observation(seat)
    state = determinize("durak", obs, random.Random(1))
    assert {**obs, **state.observation(seat)} == obs.to_json()
    assert "durak" in determinizable()


def test_determinize_names_the_games_it_can_do_when_a_game_has_no_determinizer() -> None:
    missing = [n for n, s in koloda.registry().items() if s.determinize is None]
    if not missing:
        pytest.skip("every game has a determinizer now")
    obs = koloda.new_game(missing[0], seed=1).observation(0)
    with pytest.raises(NoDeterminizer, match=f"{missing[0]} has no determinizer yet.*durak"):
        determinize(missing[0], obs, random.Random(0))
