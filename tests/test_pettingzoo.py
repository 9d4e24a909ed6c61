"""The PettingZoo environments (koloda.envs.pettingzoo): PettingZoo's own api_test for
every game and variant, full matches with the result's rewards, seeding, the select/
confirm steps, and no hidden card in any observation vector."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test

import koloda
from koloda.cards import CARD_TEXT, TEXT_CARD
from koloda.envs.common import Features, result_rewards
from koloda.envs.pettingzoo import env, raw_env
from koloda.tensors import TableMemory

OPTIONS: dict[str, dict[str, Any]] = {"pyanitsy": {"round_cap": 40}}


def configs() -> list[tuple[str, int]]:
    return [(name, p) for name, spec in koloda.registry().items()
            for p in sorted({spec.players[0], spec.players[-1]})]


@pytest.mark.parametrize(("name", "players"), configs())
def test_pettingzoo_api_test_passes(name: str, players: int) -> None:
    e = env(name, players=players, max_deals=1, **OPTIONS.get(name, {}))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # its advice for dict observations
        api_test(e, num_cycles=200)


def play_out(e: Any, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    final: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            final[agent] = reward
            e.step(None)
        else:
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal), "a live agent with nothing allowed"
            e.step(int(rng.choice(legal)))
    return final


@pytest.mark.parametrize("name", list(koloda.registry()))
def test_a_full_match_ends_with_the_results_rewards_for_every_agent(name: str) -> None:
    e = raw_env(name, max_deals=1, **OPTIONS.get(name, {}))
    final = play_out(e, seed=3)
    m = e.match
    assert m is not None and m.is_over and not e.agents
    expected = result_rewards(m.result, m.players)
    assert final == {f"player_{s}": expected[s] for s in range(m.players)}
    assert m.result is not None
    tie = not m.result.losers        # every seat (both sides) won: worth 0 to each
    for s in m.result.winners:
        assert final[f"player_{s}"] == (0.0 if tie else 1.0)
    for s in m.result.losers:
        assert final[f"player_{s}"] == -1.0


def test_rewards_are_plus_one_minus_one_and_zero_for_a_draw() -> None:
    draw = koloda.Result.of([], 3, [0, 0, 0])
    assert result_rewards(draw, 3) == [0.0, 0.0, 0.0]
    assert result_rewards(koloda.Result.of([0, 2], 4, [1, -1, 1, -1]), 4) == \
        [1.0, -1.0, 1.0, -1.0]
    assert result_rewards(None, 2) == [0.0, 0.0]


def trace(e: Any, seed: int, steps: int = 40) -> list[bytes]:
    out = []
    e.reset(seed=seed)
    rng = random.Random(0)
    for _ in e.agent_iter(steps):
        obs, _, terminated, truncated, _ = e.last()
        out.append(obs["observation"].tobytes() + obs["action_mask"].tobytes())
        if terminated or truncated:
            e.step(None)
        else:
            e.step(rng.choice(list(np.flatnonzero(obs["action_mask"]))))
    return out


def test_reset_with_a_seed_deals_the_same_match_again() -> None:
    e = env("mushka", players=4, max_deals=1)
    assert trace(e, 5) == trace(e, 5)
    assert trace(e, 5) != trace(e, 6)
    e.reset(seed=1)
    first = e.unwrapped.match.record()["deals"]
    e.reset()
    second = e.unwrapped.match.record()["deals"]
    e.reset(seed=1)
    assert e.unwrapped.match.record()["deals"] == first
    e.reset()
    assert e.unwrapped.match.record()["deals"] == second != first


def test_a_two_card_attack_is_two_selections_and_a_confirm_by_the_same_agent() -> None:
    e = raw_env("durak", players=2, max_deals=1)
    for seed in range(50):
        e.reset(seed=seed)
        m = e.match
        pairs = [a for a in m.legal_actions() if a.startswith("attack") and len(a.split()) == 3]
        if pairs:
            break
    else:
        pytest.fail("no deal with a two-card attack")
    action = pairs[0]
    agent = e.agent_selection
    space = e.space
    first, second = sorted(TEXT_CARD[w] for w in action.split()[1:])
    e.step(space.select_base + first)
    assert e.agent_selection == agent and m.history == []
    obs = e.observe(agent)
    selected = Features("durak", 2).extra[1]
    assert obs["observation"][selected.offset + first] == 1.0
    mask = obs["action_mask"]
    assert mask[space.index["take"]] == 0 and mask[space.select_base + second] == 1
    e.step(space.select_base + second)
    e.step(space.index["confirm attack"])
    assert m.history == [(int(agent.split("_")[1]), action)]


def test_a_forbidden_index_is_refused() -> None:
    e = raw_env("trinka")
    e.reset(seed=2)
    mask = e.observe(e.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="not allowed now"):
        e.step(int(np.flatnonzero(mask == 0)[0]))


@pytest.mark.parametrize("name", list(koloda.registry()))
def test_the_observation_vector_is_the_seats_features_and_shows_no_hidden_card(
        name: str) -> None:
    e = raw_env(name, max_deals=1, **OPTIONS.get(name, {}))
    features = e.features
    card_at = features.card_positions()
    e.reset(seed=11)
    memory = TableMemory()
    rng = np.random.default_rng(0)
    checked = 0
    for step in range(60):
        m = e.match
        if m.is_over:
            break
        for s, agent in enumerate(e.possible_agents):
            obs = e.observe(agent)["observation"]
            if s != m.to_move:
                want = features.vector(m.observation(s), memory, e.selection.__class__())
                assert np.allclose(obs, np.asarray(want, dtype=np.float32))
            hidden = m.hidden_from(s)
            lit = {CARD_TEXT[c] for i, c in card_at.items() if obs[i] and c in hidden}
            assert not lit, f"{agent} sees hidden {lit}"
            checked += bool(hidden)
        before, deals = len(m.history), len(m.deals)
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
        if len(m.history) > before:
            memory.record(m.history[-1][1])
        if len(m.deals) != deals:
            memory.new_deal()
        assert step < 59 or checked
    assert checked
