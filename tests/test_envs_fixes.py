"""The PettingZoo and OpenSpiel adapters: what researchers hit first there, one test each."""

from __future__ import annotations

import pickle
import random
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import koloda  # noqa: E402
import koloda.envs.openspiel as kos  # noqa: E402
from koloda.envs.bots import BotPolicy  # noqa: E402
from koloda.envs.common import result_rewards  # noqa: E402
from koloda.envs.pettingzoo import env, raw_env  # noqa: E402
from koloda.envs.single import SingleAgentEnv  # noqa: E402


def random_step(e: Any, rng: random.Random) -> None:
    agent = e.agent_selection
    if e.terminations[agent] or e.truncations[agent]:
        e.step(None)
    else:
        allowed = np.flatnonzero(e.observe(agent)["action_mask"])
        e.step(int(allowed[rng.randrange(len(allowed))]))


def play_out(e: Any, seed: int, **reset: Any) -> dict[str, float]:
    """Rewards summed per agent over a whole match of random play."""
    rng = random.Random(seed)
    e.reset(seed=seed, **reset)
    total = {a: 0.0 for a in e.possible_agents}
    while e.agents:
        agent = e.agent_selection
        total[agent] += e._cumulative_rewards[agent]
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
        else:
            random_step(e, rng)
    return total


def random_openspiel(game: Any, seed: int) -> Any:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return state


def two_player_games() -> list[str]:
    return [n for n, s in koloda.registry().items() if 2 in s.players]


# ------------------------------------------------------------------ ties are worth 0
def test_a_tie_of_every_seat_is_worth_zero_to_each() -> None:
    tie = koloda.Result.of([0, 1], 2, [3, 3], capped=True)
    assert tie.winners == (0, 1) and tie.losers == ()
    assert result_rewards(tie, 2) == [0.0, 0.0]
    both_sides = koloda.Result.of([0, 1, 2, 3], 4, [0, 0, 0, 0])
    assert result_rewards(both_sides, 4) == [0.0] * 4
    # the case of the issue: random 2-player Mushka matches capped at two deals, some tied
    e = raw_env("mushka", players=2, max_deals=2)
    ties = 0
    for seed in range(40):
        total = play_out(e, seed)
        result = e.match.result
        ties += not result.losers
        assert sum(total.values()) == 0.0, (seed, result, total)
    assert ties, "no tied match among the seeds: pick others"
    game = pyspiel.load_game("koloda_mushka(players=2,max_deals=2)")
    for seed in range(15):
        state = random_openspiel(game, seed)
        assert sum(state.returns()) == 0.0


# ------------------------------------------------------------------ zero-sum type
@pytest.mark.parametrize("name", two_player_games())
def test_two_player_games_are_declared_zero_sum_in_openspiel(name: str) -> None:
    extra = ",round_cap=30" if name == "pyanitsy" else ""
    game = pyspiel.load_game(f"{kos.game_name(name)}(players=2,max_deals=1{extra})")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.utility_sum() == 0.0
    for seed in range(6):
        assert sum(random_openspiel(game, seed).returns()) == 0.0
    spec = koloda.get_spec(name)
    if max(spec.players) > 2:
        more = pyspiel.load_game(f"{kos.game_name(name)}(players=3,max_deals=1{extra})")
        assert more.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


# ------------------------------------------------------------------ pickling
def test_games_states_and_envs_pickle_mid_game() -> None:
    game = pyspiel.load_game("koloda_durak")
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.num_players() == 2
    assert pickle.loads(pickle.dumps(pyspiel.load_game("koloda_opendaum_shakhi(players=3)"))
                        ).num_players() == 3
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node() or len(state.history()) < 60:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history()
    assert copy.observation_tensor(0) == state.observation_tensor(0)
    for wrapped in (False, True):
        e = env("durak", players=2) if wrapped else raw_env("durak", players=2)
        e.reset(seed=4)
        rng = random.Random(2)
        for _ in range(30):
            random_step(e, rng)
        clone = pickle.loads(pickle.dumps(e))
        r1, r2 = random.Random(5), random.Random(5)
        for _ in range(20):
            a, b = e.agent_selection, clone.agent_selection
            assert a == b
            o1, o2 = e.observe(a), clone.observe(b)
            assert (o1["observation"] == o2["observation"]).all()
            assert (o1["action_mask"] == o2["action_mask"]).all()
            random_step(e, r1)
            random_step(clone, r2)


# ------------------------------------------------------------------ numpy seeds
def test_numpy_integer_seeds_are_accepted() -> None:
    e = raw_env("durak", players=2)
    e.reset(seed=np.int64(3))
    first = e.match.record()["deals"]
    e.reset(seed=3)
    assert e.match.record()["deals"] == first
    with pytest.raises(TypeError, match="seed"):
        e.reset(seed=2.5)
    single = SingleAgentEnv("durak", players=2, opponents="random")
    obs, _ = single.reset(seed=np.int32(3))
    assert obs.shape == single.observation_space.shape


# ------------------------------------------------------------------ global state
def test_state_is_every_seats_vector_for_a_centralised_critic() -> None:
    e = raw_env("mushka", players=3, max_deals=1)
    e.reset(seed=2)
    size = e.features.size
    state = e.state()
    assert state.shape == (3 * size,) and state.dtype == np.float32
    assert e.state_space.contains(state)
    m = e.match
    for s in range(3):
        want = e.observe(f"player_{s}")["observation"]
        assert (state[s * size:(s + 1) * size] == want).all()
    hands = [set(m.observation(s)["hand"]) for s in range(3)]
    assert all(hands)      # every hand is in the state, while each agent sees its own only


# ------------------------------------------------------------------ reset options
def test_reset_options_pass_game_options_or_refuse_unknown_ones() -> None:
    e = raw_env("durak", players=2)
    e.reset(seed=1, options={"max_deals": 1, "games": 3})
    assert e.match.options["games"] == 3
    e.reset(seed=1)
    assert e.match.options["games"] == 1          # for that match only
    with pytest.raises(ValueError, match="no option 'colour'"):
        e.reset(options={"colour": "red"})
    with pytest.raises(ValueError, match="players"):
        e.reset(options={"players": 3})
    with pytest.raises(ValueError, match="games"):
        e.reset(options={"games": 0})


# ------------------------------------------------------------------ infos
def test_infos_carry_the_raw_observation_and_the_legal_actions() -> None:
    e = env("durak", players=2, max_deals=1)
    e.reset(seed=7)
    rng = random.Random(0)
    for _ in range(30):
        agent = e.agent_selection
        _, _, _, _, info = e.last()
        m = e.unwrapped.match
        seat = int(agent.split("_")[1])
        assert info["observation"].to_json() == m.observation(seat).to_json()
        assert dict(info["observation"]) == m.observation(seat).to_json()   # reads as JSON
        assert info["legal_actions"] == m.legal_actions()
        random_step(e, rng)


# ------------------------------------------------------------------ per-deal rewards
def test_per_deal_rewards_are_the_score_deltas_of_each_deal() -> None:
    deal = raw_env("mushka", players=2, max_deals=3, rewards="deal")
    match = raw_env("mushka", players=2, max_deals=3)
    for seed in range(3):
        rng = random.Random(seed)
        deal.reset(seed=seed)
        per_deal: list[list[float]] = []
        while deal.agents:
            agent = deal.agent_selection
            deals = len(deal.match.deals)
            random_step(deal, rng)
            if deal.match is not None and (len(deal.match.deals) != deals
                                           or deal.match.is_over) and agent != "x":
                per_deal.append([deal.rewards.get(a, 0.0) for a in deal.possible_agents])
                if deal.match.is_over:
                    break
        m = deal.match
        result = m.result
        # Mushka counts down: a seat's rewards are minus its score, summed over the deals
        totals = [sum(r[s] for r in per_deal) for s in range(2)]
        assert totals == [-float(x) for x in result.scores]
        # no effect on play: the same seed and choices give the same match
        rng = random.Random(seed)
        match.reset(seed=seed)
        while not match.match.is_over:
            random_step(match, rng)
        assert match.match.history == m.history


# ------------------------------------------------------------------ truncation
def test_max_deals_ends_the_match_as_a_truncation_not_a_termination() -> None:
    e = raw_env("mushka", players=3, max_deals=1)
    e.reset(seed=1)
    rng = random.Random(1)
    while not e.match.is_over:
        random_step(e, rng)
    assert e.match.result.capped
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert all(info["capped"] for info in e.infos.values())
    d = raw_env("durak", players=2)          # one game: the rules end it, not the cap
    d.reset(seed=1)
    while not d.match.is_over:
        random_step(d, rng)
    assert all(d.terminations.values()) and not any(d.truncations.values())


def test_the_pettingzoo_seed_test_and_api_test_still_pass_with_the_fixes() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: env("durak", players=2, max_deals=1), num_cycles=50)
        api_test(env("mushka", players=2, max_deals=2, rewards="deal"), num_cycles=100)


# ------------------------------------------------------------------ single-agent env
def test_a_single_agent_env_seats_koloda_bots_at_the_other_seats() -> None:
    import gymnasium
    e = SingleAgentEnv("durak", players=2, seat=1, opponents="heuristic", max_deals=1)
    assert isinstance(e, gymnasium.Env)
    outcomes = []
    for seed in range(4):
        obs, info = e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        done, reward = False, 0.0
        while not done:
            assert e.env.agent_selection == "player_1"
            assert (e.action_masks() == info["action_mask"].astype(bool)).all()
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, terminated, truncated, info = e.step(action)
            assert e.observation_space.contains(obs)
            done = terminated or truncated
        outcomes.append(reward)
        assert reward == result_rewards(e.env.match.result, 2)[1]
    assert set(outcomes) <= {-1.0, 0.0, 1.0}
    three = SingleAgentEnv("mushka", players=3, seat=0, opponents=["random", "heuristic"],
                           max_deals=1)
    three.reset(seed=1)
    assert set(three.drivers) == {1, 2}


# ------------------------------------------------------------------ bots as policies
def test_koloda_bots_play_as_openspiel_bots_and_as_pettingzoo_policies() -> None:
    game = pyspiel.load_game("koloda_durak(players=2,max_deals=1)")
    assert isinstance(kos.KolodaBot(game, 0), pyspiel.Bot)
    bots = [kos.KolodaBot(game, 0, "heuristic", seed=1), kos.KolodaBot(game, 1, "random", 2)]
    wins = 0
    for seed in range(6):
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        assert sum(returns) == 0.0
        wins += returns[0] > 0
    assert wins >= 3, "the heuristic should beat random most of the time"
    e = env("durak", players=2, max_deals=1)
    e.reset(seed=3)
    policy = BotPolicy(e, "heuristic", seed=1)
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        action = None if terminated or truncated else policy(obs, agent)
        if action is not None:
            assert obs["action_mask"][action] == 1
        e.step(action)
    assert e.unwrapped.match.is_over
