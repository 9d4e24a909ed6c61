"""Kopilka's first deal batched whole (koloda/rules/kopilka.en.md §Precisely), replayed through
the engine from the deal: the exchange's picks and discards, then every play, pass and draw,
step by step (the same legal set, the same seat to move, the same money).
``KOLODA_BATCHED_FULL``: games per option set."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from koloda.batched import Kopilka
from koloda.batched.kopilka import DRAW, PASS, PICK
from koloda.cards import TEXT_CARD
from tests.test_batched import FULL, engine_match


def index_of(text: str) -> int:
    """The batched action of an engine action (a discard: its card, as a play)."""
    words = text.split()
    if words[0] in ("play", "discard"):
        return TEXT_CARD[words[1]]
    if words[0] == "pick":
        return PICK + int(words[1])
    return {"pass": PASS, "draw": DRAW}[words[0]]


def play_batch(game: Kopilka, keys: np.ndarray, seed: int) -> tuple[Any, list, list, np.ndarray]:
    rng = np.random.default_rng(seed)
    state = game.init(keys)
    masks, movers = [game.mask(state)], [game.to_move(state)]
    ended = np.zeros((state.games, 4), dtype=np.float32)
    while not game.is_over(state):
        live = ~state.over
        state, obs, mask, reward = game.step(state, game.random_actions(state, rng))
        assert obs.shape == (state.games, game.observation_size)
        assert not obs[state.over].any()
        assert not reward[~state.over | ~live].any()
        ended += reward
        masks.append(mask)
        movers.append(game.to_move(state))
    return state, masks, movers, ended


def replay_and_compare(game: Kopilka, keys: np.ndarray, seed: int) -> tuple[int, int]:
    state, masks, movers, rewards = play_batch(game, keys, seed)
    steps = 0
    points = game.points(state)
    assert (points == rewards.T).all()
    for g in range(state.games):
        record = game.record(state, g)
        match = engine_match(record)
        for t, act in enumerate(record["actions"]):
            want = sorted(index_of(a) for a in match.legal_actions())
            got = np.flatnonzero(masks[t][g]).tolist()
            assert got == want, (g, t, record)
            assert match.to_move == movers[t][g] == act["seat"], (g, t)
            match.apply(act["action"])
            steps += 1
        assert match.is_over, (g, record)
        assert movers[len(record["actions"])][g] == -1
        assert match.current.payoffs() == points[:, g].tolist(), (g, record)
        assert match.current.first_to_shed == (None if state.first_to_shed[g] < 0
                                                else state.first_to_shed[g])
        assert list(match.result.scores) == state.money[:, g].tolist()
    return state.games, steps


@pytest.mark.parametrize(("options", "count"),
                         [({}, 400), ({"fee": 0, "remiz": 2, "stake": 3}, 150),
                          ({"values": {"H": 1, "C": 2, "D": 3, "S": 8}}, 150)])
def test_kopilka_batch_replays_through_the_engine(options: dict[str, Any], count: int) -> None:
    count = FULL or count
    games, steps = replay_and_compare(Kopilka(**options), np.arange(count) + 7 * len(options),
                                      count)
    assert games == count and steps > 10 * count


def test_the_batch_holds_every_kind_of_deal() -> None:
    """Blocked deals, shed deals, draws, remiz passes and mushka tricks all occur (each
    checked against the engine above); a game over waits, its only action ``PASS``."""
    game = Kopilka()
    state, masks, _, _ = play_batch(game, np.arange(2000), 1)
    assert (state.first_to_shed < 0).any() and (state.first_to_shed >= 0).any()
    acts = state.history[:, 1]
    assert (acts == DRAW).any() and (acts == PASS).any()
    assert (state.picks[:, 0] >= 0).any() and (state.picks[:, 0] < 0).any()
    lengths = (state.history[:, 0] >= 0).sum(axis=0)
    assert lengths.min() < lengths.max()
    done_early = lengths < len(masks) - 1
    assert done_early.any()
    last = masks[-1]
    assert (last[:, PASS]).all() and last.sum() == len(last)


def test_no_lead_of_the_last_tricks_suit_and_draws_only_while_void() -> None:
    """§3: a lead may not be of the last completed trick's suit unless the hand is all of
    it; a responder draws only while void in the led suit (AS a spade) and the talon
    holds cards; passing is always open to a responder."""
    from koloda.batched.kopilka import _SUIT_BITS
    game = Kopilka()
    state = game.init(np.arange(1500) + 5)
    rng = np.random.default_rng(5)
    banned_seen = draws_seen = 0
    while not game.is_over(state):
        live = ~state.over
        h = state.hands[state.mover, np.arange(state.games)]
        lead = live & (state.led < 0)
        b = _SUIT_BITS.take(np.maximum(state.banned, 0))
        mixed = lead & (state.banned >= 0) & ((h & ~b) != 0) & ((h & b) != 0)
        assert not (state.legal[mixed] & b[mixed]).any()
        banned_seen += int(mixed.sum())
        resp = live & (state.led >= 0)
        same = h & _SUIT_BITS.take(np.maximum(state.led, 0))
        can_draw = (state.legal >> np.uint64(DRAW)) & np.uint64(1) == 1
        assert (can_draw[resp] == ((same == 0) & (state.talon_left > 0))[resp]).all()
        assert ((state.legal >> np.uint64(PASS)) & np.uint64(1) == 1)[resp].all()
        draws_seen += int((can_draw & resp).sum())
        game.advance(state, game.random_actions(state, rng))
    assert banned_seen > 100 and draws_seen > 100


def test_a_pass_holding_the_led_suit_costs_a_remiz() -> None:
    """§3: passing while holding the led suit pays the remiz into the pot at once."""
    from koloda.batched.kopilka import _SUIT_BITS
    game = Kopilka(remiz=7)
    state = game.init(np.arange(800) + 9)
    rng = np.random.default_rng(9)
    fined = 0
    while not game.is_over(state):
        actions = game.random_actions(state, rng)
        ar = np.arange(state.games)
        h = state.hands[state.mover, ar]
        holds = (h & _SUIT_BITS.take(np.maximum(state.led, 0))) != 0
        passing = ~state.over & (state.led >= 0) & (actions == PASS) & (state.acted < 2)
        before = state.money[state.mover, ar].copy()
        seat = state.mover.copy()
        game.advance(state, actions)
        paid = before - state.money[seat, ar]
        assert (paid[passing & holds] == 7).all() and (paid[passing & ~holds] == 0).all()
        fined += int((passing & holds).sum())
    assert fined > 100


def test_the_exchange_is_played_as_steps_and_observed() -> None:
    """§2: the picks and discards are the batch's own steps: a pick due offers the free
    positions only (``pick_due``, ``free_positions`` in the observation say so), a
    discard any card held; the offer's cards, on the table, are not ``gone``."""
    game = Kopilka()
    layout = {name: (start, width) for name, start, width in game.observation_layout()}
    state = game.init(np.arange(300) + 3)
    rng = np.random.default_rng(3)
    picks = discards = 0
    while not game.is_over(state):
        obs, mask = game.observe(state), game.mask(state)
        ar = np.arange(state.games)
        trading = ~state.over & (state.stage < 4)
        start, _ = layout["exchange"]
        assert (obs[:, start] == trading).all()
        due = trading & state.picking
        start, width = layout["free_positions"]
        assert not mask[due, :52].any()
        assert (mask[due][:, 54:62] == obs[due][:, start:start + width]).all()
        hand = state.hands[state.mover, ar]
        held = np.unpackbits(hand.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
        disc = trading & ~state.picking
        assert (mask[disc][:, :52] == held[disc][:, :52]).all()
        start, width = layout["gone"]
        free = np.unpackbits(state.free.view(np.uint8).reshape(-1, 8), axis=1,
                             bitorder="little")[:, :52]
        assert not (obs[:, start:start + width] & free).any()
        picks += int(due.sum())
        discards += int(disc.sum())
        game.advance(state, game.random_actions(state, rng))
    assert picks == discards > 300
