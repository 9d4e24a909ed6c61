"""Whole Dreyfus deals batched, the exchange with the widow as steps (koloda/rules/dreyfus.en.md
§Precisely), replayed through the engine step by step: each turn's twelve keep/discard decisions
against the engine's exchange (the same seat, the card asked being the hand's next in card order,
discard open exactly while fewer than the widow's cards are out, the engine's legal set being
exactly the subsets those masks allow, the decisions making an engine action it accepts), every
trick's legal set and seat, and the same points. Deal 0 (spades) replays as a record through the
match; every trump of the cycle (deal numbers 0–4) through the engine's ``DreyfusDeal`` of that
number. ``KOLODA_BATCHED_FULL``: games per deal number."""

from __future__ import annotations

from math import comb
from typing import Any

import numpy as np
import pytest

from koloda.batched import Dreyfus
from koloda.batched.dreyfus import DISCARD, HAND, KEEP, DreyfusState
from koloda.cards import CARD_TEXT, TEXT_CARD
from koloda.engine.deal import Deal
from koloda.engine.records import replay
from koloda.games.dreyfus import DreyfusDeal
from tests.test_batched import FULL, engine_match

#: games of each batch whose every exchange's legal set is parsed and checked set by set
WHOLE = 20
ASKED = next(start for name, start, _ in Dreyfus().observation_layout() if name == "asked")


def deal_of(number: int) -> Any:
    def engine(record: dict[str, Any]) -> DreyfusDeal:
        d = record["deals"][0]
        hands = tuple(tuple(TEXT_CARD[c] for c in h) for h in d["hands"])
        return DreyfusDeal(Deal(d["dealer"], hands, tuple(TEXT_CARD[c] for c in d["stock"]),
                                None), number)
    return engine


def play_batch(game: Dreyfus, keys: np.ndarray, seed: int
               ) -> tuple[DreyfusState, list[np.ndarray], list[np.ndarray], list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    state = game.init(keys)
    masks, movers = [game.mask(state)], [game.to_move(state)]
    asked = [game.observe(state)[:, ASKED:ASKED + 64]]
    total = np.zeros((state.games, game.table), dtype=np.float32)
    while not game.is_over(state):
        state, obs, mask, reward = game.step(state, game.random_actions(state, rng))
        assert obs.shape == (state.games, game.observation_size)
        total += reward
        masks.append(mask)
        movers.append(game.to_move(state))
        asked.append(obs[:, ASKED:ASKED + 64])
    assert (total == state.points.T).all()
    return state, masks, movers, asked


def exchange_sets(legal: list[str]) -> list[frozenset[int]]:
    return [frozenset() if a == "stand" else frozenset(TEXT_CARD[c] for c in a.split()[1:])
            for a in legal]


def replay_and_compare(game: Dreyfus, keys: np.ndarray, seed: int, engine: Any
                       ) -> tuple[int, int, set[int]]:
    """Play the batch at random, then replay every game through ``engine`` (a record's
    match, or its deal) comparing every step; return (games, steps, turns seen)."""
    state, masks, movers, asked = play_batch(game, keys, seed)
    steps, turns = 0, set()
    for g in range(state.games):
        record = game.record(state, g)
        match = engine(record)
        deal = getattr(match, "current", match)
        t, count = 0, 0
        for act in record["actions"]:
            assert match.to_move == movers[t][g] == act["seat"], (g, t)
            if act["action"].startswith("play"):
                want = sorted(TEXT_CARD[a.split()[1]] for a in match.legal_actions())
                assert np.flatnonzero(masks[t][g]).tolist() == want, (g, t, record)
                t += 1
            else:
                # a turn of the exchange: the engine offers every subset of the hand of at
                # most ``most`` cards; the twelve steps ask each card in order, discard
                # open exactly while fewer than ``most`` are out
                hand = sorted(deal.hands[match.to_move])
                most = len(deal.widow)
                legal = match.legal_actions()
                assert len(legal) == sum(comb(HAND, k) for k in range(most + 1))
                if g < WHOLE:      # (parsing up to 4 096 texts: the first games only)
                    sets = exchange_sets(legal)
                    assert len(set(sets)) == len(sets)
                    assert all(s <= set(hand) and len(s) <= most for s in sets)
                out: list[int] = []
                for j in range(HAND):
                    assert movers[t][g] == act["seat"]
                    assert np.flatnonzero(asked[t][g]).tolist() == [hand[j]], (g, t)
                    want = [KEEP, DISCARD] if len(out) < most else [KEEP]
                    assert np.flatnonzero(masks[t][g]).tolist() == want, (g, t, record)
                    if state.history[t, 1, g] == DISCARD:
                        out.append(hand[j])
                    t += 1
                assert act["action"] == ("discard " + " ".join(CARD_TEXT[c] for c in out)
                                         if out else "stand")
                assert act["action"] in legal
                count += 1
            match.apply(act["action"])
            steps += 1
        turns.add(count)
        assert match.is_over and movers[t][g] == -1 and not masks[t][g][:KEEP].any()
        assert deal.payoffs() == state.points[:, g].tolist(), (g, record)
        assert deal.tricks == state.won[:, g].tolist()
        assert deal.bought == state.bought[:, g].tolist()
    return state.games, steps, turns


def test_dreyfus_deal_0_replays_through_the_match() -> None:
    count = FULL or 300
    games, steps, turns = replay_and_compare(Dreyfus(0), np.arange(count) + 4800, 12,
                                             engine_match)
    assert games == count and steps > count * 36
    assert turns == {2, 3}           # the widow emptied before the dealer's turn, or not


@pytest.mark.parametrize("number", [0, 1, 2, 3, 4, 9])
def test_dreyfus_every_trump_replays_through_the_engine_deal(number: int) -> None:
    count = FULL or 100
    games, _, _ = replay_and_compare(Dreyfus(number), np.arange(count) + 480 * number,
                                     number, deal_of(number))
    assert games == count


def test_the_masks_allow_exactly_the_engines_exchanges() -> None:
    """At a turn, every one of the 4 096 keep/discard sequences is tried (one copy of the
    game each): the sequences the masks allow all the way make exactly the engine's legal
    exchanges — for the first turn (the whole widow), and for a later one with part of
    it bought."""
    game = Dreyfus()
    state = game.init(np.arange(40))
    rng = np.random.default_rng(2)
    checked = set()
    while len(checked) < 4 and not game.is_over(state):
        # the games at a turn's first decision with a widow not yet checked
        for g in np.flatnonzero((state.todo == state.hands[state.mover, np.arange(40)])
                                & (state.stage < 3)).tolist():
            most = int(state.most[g])
            if most in checked:
                continue
            checked.add(most)
            branch = game.take(state, np.full(1 << HAND, g))
            seqs = np.arange(1 << HAND)
            ok = np.ones(len(seqs), dtype=bool)
            for j in range(HAND):
                wants = (seqs >> j & 1) == 1
                allowed = game.mask(branch)[:, DISCARD]
                ok &= allowed | ~wants
                game.advance(branch, np.where(wants & allowed, DISCARD, KEEP))
            record = game.record(state, g)
            match = engine_match(record)
            for a in record["actions"][:int(state.stage[g])]:
                match.apply(a["action"])
            hand = sorted(match.current.hands[match.to_move])
            allowed_sets = {frozenset(hand[j] for j in range(HAND) if m >> j & 1)
                            for m in np.flatnonzero(ok).tolist()}
            assert allowed_sets == set(exchange_sets(match.legal_actions()))
            assert len(allowed_sets) == sum(comb(HAND, k) for k in range(most + 1))
        game.advance(state, game.random_actions(state, rng))
    assert len(checked) >= 3 and HAND in checked


def test_the_exchange_buys_from_the_widow_and_skips_once_it_is_empty() -> None:
    """§3, §10: k cards out, the widow's next k in; a player whose turn comes with the
    widow empty is skipped (no steps); the points count what each bought."""
    game = Dreyfus()
    state, _, _, _ = play_batch(game, np.arange(3000), 5)
    bought = state.bought
    assert (bought.sum(axis=0) <= HAND).all()
    skipped = ~state.turn
    assert skipped.any()
    order_of_seat = (np.arange(3)[:, None] - state.dealer - 1) % 3
    had_turn = np.take_along_axis(state.turn, order_of_seat, axis=0)
    assert (bought[~had_turn] == 0).all()
    assert ((bought == 0) & had_turn).any()          # some stand
    assert (state.widow_next[skipped.any(axis=0)] == HAND).all()
    lengths = (state.history[:, 0] >= 0).sum(axis=0)
    assert (lengths == HAND * state.turn.sum(axis=0) + 36).all()
    assert (state.points == state.won - 4 - bought).all()
    for g in (0, 1, int(np.flatnonzero(skipped.any(axis=0))[0])):
        out = replay(game.record(state, g))
        assert out.ok, out.error


def test_a_deal_over_waits_with_keep_only() -> None:
    game = Dreyfus(4)
    state, masks, _, _ = play_batch(game, np.arange(300), 3)
    lengths = (state.history[:, 0] >= 0).sum(axis=0)
    assert lengths.min() < lengths.max()
    assert (masks[-1][:, KEEP]).all() and masks[-1].sum() == len(masks[-1])
