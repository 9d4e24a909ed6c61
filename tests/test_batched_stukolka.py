"""Stukolka batched from the end of the declarations (koloda/rules/stukolka.en.md §Precisely),
replayed through the engine from the deal: the declarations, then every trick step by step (the same
legal set — follow and beat, trump and over-trump, the trump ace led — the same seat to move, the
same money). ``KOLODA_BATCHED_FULL``: games per shape."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from koloda.batched import Stukolka
from koloda.cards import ACE, TEXT_CARD
from tests.test_batched import FULL, play_and_compare

SHAPES = [(5, 3, 36, 3), (4, 4, 36, 3), (4, 2, 36, 6), (7, 7, 36, 3), (6, 4, 52, 9),
          (7, 2, 52, 3)]


def balances(match: Any, rewards: np.ndarray) -> None:
    """A match of one deal: each balance is the deal's money (the pot keeps the rest)."""
    assert list(match.result.scores) == rewards.tolist()


@pytest.mark.parametrize(("table", "players", "deck", "ante"), SHAPES)
def test_stukolka_batch_replays_through_the_engine(table: int, players: int, deck: int,
                                                   ante: int) -> None:
    game = Stukolka(table, players, deck, ante)
    count = FULL or (400 if (table, players) == (5, 3) else 150)
    games, steps = play_and_compare(game, np.arange(count) + 10 * table + players, players,
                                    result=balances)
    assert games == count and steps == count * game.length


def test_the_golets_taker_leads_and_holds_the_three_under_the_turned_card() -> None:
    game = Stukolka(5, 3)
    state = game.init(np.arange(600))
    taken = 0
    for g in range(state.games):
        record = game.record(state, g)
        deal, acts = record["deals"][0], record["actions"]
        golets = [a["seat"] for a in acts if a["action"] == "golets"]
        if golets:
            taken += 1
            assert int(state.seats[0, g]) == golets[0]
            held = {c for c in range(52) if int(state.hands[0, g]) >> c & 1}
            assert held == {TEXT_CARD[c] for c in deal["stock"][1:4]}
        else:
            first = next(a["seat"] for a in acts if a["action"] == "knock")
            assert int(state.seats[0, g]) == first
        assert TEXT_CARD[deal["trump_card"]] % 13 != ACE
    assert 100 < taken < 500


def test_the_trump_ace_is_led_whenever_its_holder_leads() -> None:
    game = Stukolka(7, 7)
    state = game.init(np.arange(800))
    rng = np.random.default_rng(4)
    forced = 0
    while not game.is_over(state):
        if state.t % 7 == 0:
            ace = np.left_shift(np.uint64(1), (state.trump * 13 + ACE).astype(np.uint64))
            holds = (state.hands[0] & ace) != 0
            assert (state.legal[holds] == ace[holds]).all()
            forced += int(holds.sum())
        game.advance(state, game.random_actions(state, rng))
    assert forced > 50


def test_follow_and_beat_else_trump_and_over_trump() -> None:
    """§6: holding the led suit, beat the trick's best of it if able (any of it once a
    plain lead is trumped); void, a trump — over the highest trump if able."""
    game = Stukolka(7, 7)
    state = game.init(np.arange(400) + 3)
    rng = np.random.default_rng(3)
    beat = over = 0
    while not game.is_over(state):
        j = state.t % 7
        if j:
            cards = state.history[state.t - j:state.t].astype(np.int64)
            h = state.hands[j]
            led = cards[0] // 13
            trump = state.trump
            for g in range(state.games):
                hand = [c for c in range(52) if int(h[g]) >> c & 1]
                legal = [c for c in range(52) if int(state.legal[g]) >> c & 1]
                same = [c for c in hand if c // 13 == led[g]]
                on = [int(c) for c in cards[:, g]]
                trumped = led[g] != trump[g] and any(c // 13 == trump[g] for c in on)
                top = max(c for c in on if c // 13 == led[g])
                if same and not trumped and any(c > top for c in same):
                    assert legal == [c for c in same if c > top]
                    beat += 1
                elif not same:
                    trumps = [c for c in hand if c // 13 == trump[g]]
                    high = max((c for c in on if c // 13 == trump[g]), default=-1)
                    if any(c > high for c in trumps) and high >= 0:
                        assert legal == [c for c in trumps if c > high]
                        over += 1
        game.advance(state, game.random_actions(state, rng))
    assert beat > 50 and over > 10
