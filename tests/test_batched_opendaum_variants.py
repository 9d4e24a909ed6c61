"""Opendaum's two shakhi variants batched (koloda/rules/opendaum.en.md §Precisely), replayed through
the engine.

Every game of a batch is replayed step by step (``play_and_compare``: the same legal set
at every step, the same seat to move, the same score); ``KOLODA_BATCHED_FULL=<games>`` runs
that many games per shape.
"""

from __future__ import annotations

import numpy as np
import pytest

from koloda.batched import Opendaum33, OpendaumShakhi
from koloda.cards import TEXT_CARD
from tests.test_batched import FULL, play_and_compare

SIX_S, SIX_C = TEXT_CARD["6S"], TEXT_CARD["6C"]

SHAKHI_SHAPES = [(4, 8, True), (4, 9, True), (4, 9, False), (2, 17, True), (3, 12, True),
                 (5, 6, True), (6, 6, False), (4, 1, True)]


@pytest.mark.parametrize(("players", "hand", "ruff_only"), SHAKHI_SHAPES)
def test_opendaum_shakhi_batch_replays_through_the_engine(players: int, hand: int,
                                                          ruff_only: bool) -> None:
    game = OpendaumShakhi(players, hand, ruff_only)
    count = FULL or (300 if (players, hand) == (4, 9) else 100)
    games, steps = play_and_compare(game, np.arange(count) + 500 * players + hand, hand)
    assert games == count and steps == count * game.length


@pytest.mark.parametrize(("hand", "final", "penalty"),
                         [(11, False, False), (7, False, False), (1, False, False),
                          (1, True, False), (1, True, True)])
def test_opendaum_33_batch_replays_through_the_engine(hand: int, final: bool,
                                                      penalty: bool) -> None:
    game = Opendaum33(hand, final, penalty)
    count = FULL or (300 if hand == 11 else 150)
    games, steps = play_and_compare(game, np.arange(count) + 33 * hand + final, hand)
    assert games == count and steps == count * game.length


def play_out(game: OpendaumShakhi | Opendaum33, games: int, seed: int) -> list[np.ndarray]:
    """Random play; the legal set before each step (a list of (games, actions) masks)."""
    state = game.init(np.arange(games) + seed)
    rng = np.random.default_rng(seed)
    masks = [game.mask(state)]
    while not game.is_over(state):
        state, _, mask, _ = game.step(state, game.random_actions(state, rng))
        masks.append(mask)
    return masks


def test_a_shakha_is_always_playable_wild_or_plain() -> None:
    """§1b: a shakha held is offered at every play, plain and wild, whatever was led."""
    game = OpendaumShakhi(4, 9)
    state = game.init(np.arange(400))
    rng = np.random.default_rng(8)
    seen = 0
    while not game.is_over(state):
        mask = game.mask(state)
        if state.t >= game.bid_steps:
            j = (state.t - game.bid_steps) % 4
            for c, wild in ((SIX_S, 52), (SIX_C, 53)):
                held = (state.hands[j] >> np.uint64(c)) & np.uint64(1) == 1
                assert (mask[held, c] & mask[held, wild]).all()
                assert not mask[~held, wild].any()
                seen += int(held.sum())
        game.advance(state, game.random_actions(state, rng))
    assert seen > 1000


def test_wild_shakha_wins_and_the_later_wild_one_wins() -> None:
    """§1b: a wild shakha beats everything; of two wild in one trick the later wins. Checked
    on every trick of random deals against the trick's plays."""
    game = OpendaumShakhi(4, 9)
    state = game.init(np.arange(600) + 9)
    rng = np.random.default_rng(9)
    while not game.is_over(state):
        game.advance(state, game.random_actions(state, rng))
    plays = state.history[4:].reshape(9, 4, -1)          # (trick, position, game)
    wild = plays >= 52
    checked = both = 0
    for trick in range(9):
        leader = game._leader_of(state, trick)
        last_wild = np.where(wild[trick][::-1].any(axis=0),
                             3 - np.argmax(wild[trick][::-1], axis=0), -1)
        has = last_wild >= 0
        assert (state.winners[trick][has] == ((leader + last_wild) % 4)[has]).all()
        checked += int(has.sum())
        both += int((wild[trick].sum(axis=0) == 2).sum())
    assert checked > 100 and both > 5


def test_the_33_hook_rule_refuses_the_dealers_bid_that_adds_up() -> None:
    """§1c: the dealer, bidding last, may not bid hand − the others' bids (when 0..hand)."""
    game = Opendaum33(11)
    state = game.init(np.arange(6))
    for bid in (3, 4):
        game.advance(state, np.full(6, game.play_actions + bid))
    mask = game.mask(state)
    assert not mask[:, game.play_actions + 4].any()
    assert mask[:, game.play_actions:].sum(axis=1).tolist() == [11] * 6
    over = game.init(np.arange(6))
    for bid in (9, 8):                           # 17 > 11: nothing to refuse
        game.advance(over, np.full(6, over.offset + bid))
    assert game.mask(over)[:, game.play_actions:].all()


def test_the_33_final_deal_scores_ten_times() -> None:
    """§1c: the final deal's made bid scores 10 × bid + 10 (the first 1-card deal: 5×)."""
    rng = np.random.default_rng(1)
    points = {}
    for final in (False, True):
        game = Opendaum33(1, final)
        state = game.init(np.arange(300))
        while not game.is_over(state):
            game.advance(state, game.random_actions(state, rng))
        points[final] = set(state.points.ravel().tolist())
    assert {5.0, 10.0} <= points[False] and 20.0 not in points[False]
    assert {10.0, 20.0} <= points[True] and 5.0 not in points[True]


def test_no_trump_lead_while_holding_a_plain_card() -> None:
    """§1b lead restriction: a leader holding a non-trump non-shakha card leads no trump."""
    game = OpendaumShakhi(4, 9)
    state = game.init(np.arange(500) + 3)
    rng = np.random.default_rng(3)
    refused = 0
    while not game.is_over(state):
        if state.t >= game.bid_steps and (state.t - game.bid_steps) % 4 == 0:
            h = state.hands[0] & ~game.shakhi_bits
            plain = (h & ~state.trump_bits) != 0
            trumps = h & state.trump_bits
            legal = state.legal
            assert not (legal & trumps)[plain].any()
            refused += int((plain & (trumps != 0)).sum())
        game.advance(state, game.random_actions(state, rng))
    assert refused > 100


@pytest.mark.parametrize("ruff_only", [True, False])
def test_the_ruff_restriction_void_trumps_only_from_a_hand_of_trumps(ruff_only: bool) -> None:
    """§1b ``ruff_only_when_only_trumps``: void in a plain lead and holding a plain card,
    no trump may be played (option false: a trump must be)."""
    game = OpendaumShakhi(4, 9, ruff_only)
    state = game.init(np.arange(500) + 21)
    rng = np.random.default_rng(21)
    seen = 0
    while not game.is_over(state):
        j = (state.t - game.bid_steps) % 4
        if state.t >= game.bid_steps and j > 0:
            h = state.hands[j] & ~game.shakhi_bits
            trumps, plain = h & state.trump_bits, h & ~state.trump_bits
            case = ((h & state.led_bits) == 0) & (trumps != 0) & (plain != 0) \
                & ((state.led_bits & state.trump_bits) == 0)
            cards = state.legal & ~game.shakhi_bits & np.uint64((1 << 52) - 1)
            if ruff_only:
                assert (cards[case] == plain[case]).all()
            else:
                assert (cards[case] == trumps[case]).all()
            seen += int(case.sum())
        game.advance(state, game.random_actions(state, rng))
    assert seen > 100
