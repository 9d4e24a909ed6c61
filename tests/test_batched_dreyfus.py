"""Dreyfus's play batched from the end of the exchange (koloda/rules/dreyfus.en.md §Precisely),
replayed through the engine from the deal: the exchange's choices, then every trick step by step
(the same legal set, the same seat to move, the same payoffs). Deal 0 (spades) replays as a record
through the match; every trump of the cycle (deal numbers 0–4) replays through the engine's
``DreyfusDeal`` of that number. ``KOLODA_BATCHED_FULL``: games per deal number."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from koloda.batched import Dreyfus
from koloda.batched.bits import popcount
from koloda.cards import TEXT_CARD
from koloda.engine.deal import Deal
from koloda.games.dreyfus import DreyfusDeal
from tests.test_batched import FULL, play_and_compare


def deal_of(number: int) -> Any:
    def engine(record: dict[str, Any]) -> DreyfusDeal:
        d = record["deals"][0]
        hands = tuple(tuple(TEXT_CARD[c] for c in h) for h in d["hands"])
        return DreyfusDeal(Deal(d["dealer"], hands, tuple(TEXT_CARD[c] for c in d["stock"]),
                                None), number)
    return engine


def test_dreyfus_deal_0_replays_through_the_match() -> None:
    game = Dreyfus(0)
    count = FULL or 300
    games, steps = play_and_compare(game, np.arange(count) + 4800, 12,
                                    result=lambda match, _r: None)
    assert games == count and steps == count * 36


@pytest.mark.parametrize("number", [0, 1, 2, 3, 4, 9])
def test_dreyfus_every_trump_replays_through_the_engine_deal(number: int) -> None:
    game = Dreyfus(number)
    count = FULL or 100
    games, steps = play_and_compare(game, np.arange(count) + 480 * number, number,
                                    engine=deal_of(number), result=lambda _d, _r: None)
    assert games == count and steps == count * 36


def test_the_exchange_buys_from_the_widow_and_skips_once_it_is_empty() -> None:
    """§4: k cards out, the widow's next k in; a player whose turn comes with the widow
    empty is skipped; the points count what each bought."""
    game = Dreyfus()
    state = game.init(np.arange(3000))
    bought = state.pre["bought"]
    assert (bought.sum(axis=0) <= 12).all()
    skipped = ~state.pre["turn"]
    assert skipped.any() and (bought[skipped] == 0).all()
    assert ((bought == 0) & state.pre["turn"]).any()          # some stand
    assert (popcount(state.hands) == 12).all()
    rng = np.random.default_rng(0)
    while not game.is_over(state):
        game.advance(state, game.random_actions(state, rng))
    tricks = game.by_seat_tricks(state)
    bought_by_seat = game.by_seat(state, bought)
    assert (state.points == tricks - 4 - bought_by_seat).all()
