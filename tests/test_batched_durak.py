"""Batched 2-player durak against the engine: every game of a batch replayed step by step.

The batch plays uniformly random legal indices of the engine's durak action space (select
and confirm steps included); each game is then written as a koloda-record/1 and replayed
through the engine, whose legal actions (as the adapters' masks, koloda.envs.actions) must
be exactly the batch's mask at every step, with the same seat to move, the same durak (or
draw) and the same epaulettes. ``KOLODA_BATCHED_FULL=<games>`` runs that many games per
case; CI runs a few hundred.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from koloda.batched import IllegalBatchAction
from koloda.batched.durak import CONFIRM_ATTACK, NUM_ACTIONS, PASS, SELECT, TAKE, Durak
from koloda.engine.match import Match
from koloda.engine.records import parse_record, replay
from koloda.engine.registry import get_spec
from koloda.envs.actions import Selection, action_space
from koloda.games.durak.views import DurakView

FULL = int(os.environ.get("KOLODA_BATCHED_FULL", "0"))


def engine_match(record: dict) -> Match:
    rec = parse_record(record)
    spec = get_spec(rec.game)
    return spec.match_class(spec, rec.players, rec.options, seed=rec.seed, deals=rec.deals,
                            first_dealer=rec.first_dealer, single_deal=True)


def play_and_compare(game: Durak, keys: np.ndarray, seed: int) -> dict[str, int]:
    """Play the batch at random, replay every game through the engine comparing each
    step; return counts (games, steps, draws, epaulettes)."""
    rng = np.random.default_rng(seed)
    state = game.init(keys)
    masks = []
    while not game.is_over(state):
        mask = game.mask(state)
        masks.append(np.packbits(mask, axis=1))
        state, obs, _, _reward = game.step(state, game.random_actions(state, rng))
        assert obs.shape == (state.games, game.observation_size)
        over = game.terminated(state)
        assert not obs[over].any()
    assert not game.mask(state).any()
    assert (game.returns(state).sum(axis=1) == 0).all()
    space = action_space("durak")
    assert space.size == NUM_ACTIONS
    steps = 0
    for g in range(state.games):
        record = game.record(state, g)
        match = engine_match(record)
        sel = Selection()
        for t in range(int(state.steps[g])):
            legal = match.legal_actions()
            want = sorted(space.allowed(legal, sel))
            got = np.flatnonzero(np.unpackbits(masks[t][g])[:NUM_ACTIONS]).tolist()
            assert got == want, (g, t, legal, sel)
            assert match.to_move == int(state.movers[t][g]), (g, t)
            action, sel = space.step(int(state.history[t][g]), legal, sel)
            if action is not None:
                match.apply(action)
            steps += 1
        assert match.is_over and match.result is not None, (g, record)
        durak = match.current.durak
        assert (-1 if durak is None else durak) == int(state.durak[g]), (g, record)
        assert match.current.epaulettes == bool(state.epaulettes[g]), g
        rewards = [0.0, 0.0] if durak is None else [1.0 if s != durak else -1.0 for s in (0, 1)]
        assert game.returns(state)[g].tolist() == rewards
    return {"games": state.games, "steps": steps, "draws": int((state.durak < 0).sum()),
            "epaulettes": int(state.epaulettes.sum())}


@pytest.mark.parametrize(("first_bout_limit", "count"), [(6, 250), (5, 100)])
def test_durak_batch_replays_through_the_engine(first_bout_limit: int, count: int) -> None:
    game = Durak(first_bout_limit=first_bout_limit)
    out = play_and_compare(game, np.arange(FULL or count) + 1000 * first_bout_limit,
                           first_bout_limit)
    assert out["games"] == (FULL or count)
    assert out["steps"] > out["games"] * 20


def test_durak_first_attacker_holds_the_lowest_trump() -> None:
    game = Durak()
    state = game.init(np.arange(300))
    for g in range(state.games):
        match = engine_match(game.record(state, g))
        assert match.to_move == int(game.to_move(state)[g])
        trump = int(state.trump[g])
        mine = [c for c in range(52) if (int(state.ha[g]) >> c) & 1 and c // 13 == trump]
        theirs = [c for c in range(52) if (int(state.hd[g]) >> c) & 1 and c // 13 == trump]
        if mine or theirs:
            assert mine and (not theirs or min(mine) < min(theirs))


def test_durak_illegal_action_is_refused_naming_the_game() -> None:
    game = Durak()
    state = game.init(np.arange(4))
    actions = game.random_actions(state, np.random.default_rng(0))
    actions[2] = TAKE            # nobody defends yet: take is not legal in an attack
    with pytest.raises(IllegalBatchAction, match="game 2: action 0"):
        game.advance(state, actions)
    with pytest.raises(IllegalBatchAction, match="game 0"):
        game.advance(state, np.full(4, PASS))
    with pytest.raises(IllegalBatchAction):
        game.advance(state, np.full(4, CONFIRM_ATTACK))   # nothing selected yet
    with pytest.raises(ValueError, match="one per game"):
        game.advance(state, np.zeros(3, dtype=np.int64))


def test_durak_reset_done_deals_into_finished_slots() -> None:
    game = Durak()
    state = game.init(np.arange(64), history=False)
    rng = np.random.default_rng(3)
    while not game.terminated(state).any():
        game.advance(state, game.random_actions(state, rng))
    done = game.reset_done(state, np.arange(1000, 1064))
    fresh = game.init(np.arange(1000, 1000 + int(done.sum())), history=False)
    assert (state.ha[done] == fresh.ha).all() and (state.phase[done] == 0).all()
    assert (state.phase != 3).all()


def test_durak_record_replays_with_the_engine_result() -> None:
    game = Durak()
    state = game.init(np.arange(20))
    rng = np.random.default_rng(8)
    while not game.is_over(state):
        game.advance(state, game.random_actions(state, rng))
    for g in range(20):
        out = replay(game.record(state, g))
        assert out.ok and out.match is not None and out.match.is_over
        res = out.match.result
        assert res is not None
        durak = int(state.durak[g])
        assert list(res.losers) == ([] if durak < 0 else [durak])


def test_durak_select_step_keeps_the_selection() -> None:
    game = Durak()
    state = game.init(np.arange(50))
    card = np.array([game.legal_actions(state, g)[0] for g in range(50)])
    assert (card >= SELECT).all()
    game.advance(state, card)
    mask = game.mask(state)
    assert mask[:, CONFIRM_ATTACK].all() and not mask[:, TAKE].any()


def test_bench_batched_prints_durak_games_per_second() -> None:
    import json

    from typer.testing import CliRunner

    from koloda.cli.main import app
    out = CliRunner().invoke(app, ["bench", "--batched-only", "--quick", "--no-openspiel",
                                   "--batched-hands", "2000", "--json"])
    assert out.exit_code == 0, out.output
    batched = json.loads(out.stdout)["batched"]
    assert batched["batched_durak_games_per_s"] > 0
    assert any("durak 2p" in line and "games/s" in line for line in batched["lines"])


def test_play_random_finishes_every_game() -> None:
    from koloda.batched.durak import play_random
    games, steps, draws = play_random(Durak(), np.arange(500), 4)
    assert games == 500 and steps > 500 * 20 and 0 <= draws < 500


def test_durak_vector_env_resets_each_game_on_its_own() -> None:
    pytest.importorskip("gymnasium")
    from koloda.batched.durak_env import DurakVectorEnv
    env = DurakVectorEnv(num_envs=32)
    obs, infos = env.reset(seed=5)
    assert obs.shape == (32, 559) and infos["action_mask"].shape == (32, NUM_ACTIONS)
    rng = np.random.default_rng(0)
    ended_games = 0
    prev_ended = np.zeros(32, dtype=bool)
    for _ in range(400):
        mask = env.action_masks()
        # (a game just over has no legal action: its action is ignored, 0 will do)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert not env.action_masks()[terminated].any()
        assert not truncated.any()
        points = infos["points"]
        # a game that ended: +1 and −1 (or 0, 0 in a draw); the slot is dealt anew next
        assert (points[terminated].sum(axis=1) == 0).all()
        assert (np.abs(points[~terminated]).sum() == 0)
        assert (rewards[prev_ended] == 0).all() and (infos["to_move"][prev_ended] >= 0).all()
        assert not obs[terminated].any()
        ended_games += int(terminated.sum())
        prev_ended = terminated
    assert ended_games > 32


def test_advance_random_is_advance_of_random_actions() -> None:
    game = Durak()
    one, two = game.init(np.arange(300), history=False), game.init(np.arange(300), history=False)
    r1, r2 = np.random.default_rng(9), np.random.default_rng(9)
    while not game.is_over(one):
        taken = game.advance_random(one, r1)
        chosen = game.random_actions(two, r2)
        assert (taken == chosen).all()
        game.advance(two, chosen)
        assert (one.ha == two.ha).all() and (one.phase == two.phase).all()
    assert (one.durak == two.durak).all()


def test_durak_observation_is_the_engine_view_of_the_seat_to_move() -> None:
    """Every part of the observation against the engine's view of the same seat: the hand,
    the table, the opponent's known cards, the discard, trump, phase, stock and sizes."""
    game = Durak()
    layout = {name: (start, width) for name, start, width in game.observation_layout()}

    def part(obs: np.ndarray, name: str) -> list[int]:
        start, width = layout[name]
        return np.flatnonzero(obs[start:start + width]).tolist()

    state = game.init(np.arange(40))
    rng = np.random.default_rng(2)
    observations = [game.observe(state)]
    while not game.is_over(state):
        state, obs, _, _ = game.step(state, game.random_actions(state, rng))
        observations.append(obs)
    space = action_space("durak")
    phases = ["attack", "defend", "throw"]
    for g in range(state.games):
        match = engine_match(game.record(state, g))
        sel = Selection()
        for t in range(int(state.steps[g])):
            obs = observations[t][g]
            seat = match.to_move
            assert seat is not None
            view = match.observation(seat).deal
            assert isinstance(view, DurakView)
            other = 1 - seat
            assert part(obs, "hand") == list(view.hand)
            assert part(obs, "uncovered") == sorted(a for a, b in view.table if b is None)
            assert part(obs, "covered") == sorted(a for a, b in view.table if b is not None)
            assert part(obs, "covers") == sorted(b for _, b in view.table if b is not None)
            assert part(obs, "selected") == list(sel.cards)
            assert part(obs, "opponent_known") == list(view.known_cards[other])
            assert part(obs, "discard") == list(view.discard)
            assert part(obs, "trump_card") == [view.trump_card]
            assert part(obs, "trump_suit") == [view.trump_suit]
            assert part(obs, "phase") == [phases.index(view.phase)]
            assert part(obs, "attacking") == ([0] if seat == view.attacker else [])
            assert part(obs, "taken") == ([0] if view.taken else [])
            assert part(obs, "first_bout") == ([0] if view.first_bout else [])
            assert part(obs, "stock_size") == [view.stock_size]
            assert part(obs, "opponent_hand_size") == [view.hand_sizes[other]]
            assert part(obs, "room_left") == [view.limit - len(view.table)]
            legal = match.legal_actions()
            action, sel = space.step(int(state.history[t][g]), legal, sel)
            if action is not None:
                match.apply(action)


def test_play_random_keeps_its_batch_full_dealing_each_key_once() -> None:
    """``width`` games at a time: finished games are replaced by the next keys' games
    until every key is dealt (each once, in order), then the batch drains."""
    from koloda.batched.durak import play_random
    game = Durak()
    dealt: list[int] = []
    widths: list[int] = []
    init = game.init

    def counting_init(keys: Any, history: bool = True) -> Any:
        dealt.extend(np.asarray(keys).tolist())
        state = init(keys, history=history)
        widths.append(state.games)
        return state
    game.init = counting_init  # type: ignore[method-assign]
    games, steps, draws = play_random(game, np.arange(500) + 7, 4, width=64)
    assert games == 500 and dealt == list(range(7, 507))
    assert widths[0] == 64 and len(widths) > 5
    _, full_steps, _ = play_random(Durak(), np.arange(500) + 7, 4)
    assert 0.8 < steps / full_steps < 1.25 and 0 <= draws < 500


@pytest.mark.parametrize("phase", ["several to cover", "one to cover", "attack"])
def test_the_random_policy_is_uniform_over_the_legal_actions(phase: str) -> None:
    """``random_actions`` (the benchmark's policy) draws every legal index alike: one
    game copied 30 000 times, each legal action drawn about as often (a fixed seed)."""
    from koloda.batched.durak import ATTACK, DEFEND
    game = Durak()
    state = game.init(np.arange(200), history=False)
    rng = np.random.default_rng(11)

    def wanted(s: Any) -> np.ndarray:
        cards = np.bitwise_count(s.uncovered)
        if phase == "attack":
            return (s.phase == ATTACK) & (np.bitwise_count(s.ha) >= 5)
        return (s.phase == DEFEND) & ((cards >= 2) if phase.startswith("several")
                                      else (cards == 1))
    while not wanted(state).any():
        game.advance(state, game.random_actions(state, rng))
    g = int(np.flatnonzero(wanted(state))[0])
    copies = game.take(state, np.full(30000, g))
    legal = game.legal_actions(copies, 0)
    drawn = game.random_actions(copies, rng)
    values, counts = np.unique(drawn, return_counts=True)
    assert values.tolist() == legal and len(legal) >= 3
    expected = 30000 / len(legal)
    assert (np.abs(counts - expected) < 0.1 * expected).all(), (legal, counts)


def test_play_random_counts_the_steps_and_draws_of_every_game_once() -> None:
    """Refilled or not, the totals are those of the games' own counters (each game's
    steps and draw, summed once)."""
    from koloda.batched import durak
    game = Durak()
    seen: list[tuple[int, int]] = []
    take = game.take

    def counting_take(state: Any, games: Any) -> Any:
        over = state.phase == durak.OVER
        seen.extend(zip(state.steps[over].tolist(), (state.durak[over] < 0).tolist(),
                        strict=True))
        return take(state, games)
    game.take = counting_take  # type: ignore[method-assign]
    deal_into = game.deal_into

    def counting_deal_into(state: Any, slots: Any, keys: Any) -> None:
        seen.extend(zip(state.steps[slots].tolist(), (state.durak[slots] < 0).tolist(),
                        strict=True))
        deal_into(state, slots, keys)
    game.deal_into = counting_deal_into  # type: ignore[method-assign]
    games, steps, draws = durak.play_random(game, np.arange(300), 2, width=40)
    assert len(seen) == games == 300
    assert steps == sum(s for s, _ in seen) and draws == sum(d for _, d in seen)
