"""The Durak search's opponent model (off by default, ``inference``): its pool of weighted
deals grows with the decision's budget (koloda/bots/search/games/durak.py, ``pool_caps``)
— the normal level of two-player simple durak draws 256 deals of at most
3 000 tries, the others as many times fewer or more as their budget is; the model applies
only at two players of simple durak (``durak_inference.usable``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from koloda.bots import make_bot
from koloda.bots.search.games.durak_inference import POOL, POOL_TRIES, TRIES
from koloda.games.durak.rounds import DurakGame
from tests.test_durak_search_budget import Unsettled, decision


def _after_moves(obs: Any) -> bool:
    """A decision of seat 0 after the other player moved in this round, cards still to
    place."""
    deal = obs.deal
    return (obs.seat == 0 and deal.stock_size > 1
            and any(s != 0 for s, _ in deal.plays))


def _inferring(level: str, game: str) -> Any:
    bot: Any = make_bot(f"search:{level}", game)
    assert bot.inference is False           # off by default
    bot.inference = True
    return bot


def test_the_opponent_model_applies_at_two_players_of_simple_durak() -> None:
    bot = _inferring("normal", "durak")
    obs, _ = decision("durak", 2, seed=5, where=_after_moves)
    assert bot.model(obs) is not None


@pytest.mark.parametrize(("game", "players"), [
    ("durak", 3), ("durak", 4), ("durak-perevodnoy", 2)])
def test_the_opponent_model_stays_off_at_every_other_table(game: str, players: int) -> None:
    bot = _inferring("normal", game)
    obs, _ = decision(game, players, seed=5,
                      where=lambda o: any(s != o.seat for s, _ in o.deal.plays))
    assert bot.model(obs) is None


@pytest.mark.parametrize(("level", "caps"), [
    ("easy", (38, 450)), ("normal", (POOL, POOL_TRIES)), ("hard", (1536, 18000))])
def test_the_pool_scales_with_the_level_budget(level: str, caps: tuple[int, int]) -> None:
    bot = _inferring(level, "durak")
    obs, _ = decision("durak", 2, seed=5, where=_after_moves)
    assert bot.pool_caps(obs) == caps
    assert (POOL, POOL_TRIES) == (256, 3000)


def test_a_set_pool_size_and_tries_override_the_scaled_ones() -> None:
    bot = _inferring("easy", "durak")
    bot.pool_size, bot.pool_tries = 64, 1500
    obs, _ = decision("durak", 2, seed=5, where=_after_moves)
    assert bot.pool_caps(obs) == (64, 1500)


def test_a_decision_fills_its_pool_within_its_draws_then_copies_it() -> None:
    bot = Unsettled("durak", iterations=300)       # caps: 51 deals of at most 600 draws
    bot.inference = True
    obs, legal = decision("durak", 2, seed=5, where=_after_moves)
    assert bot.model(obs) is not None
    size, most = bot.pool_caps(obs)
    assert (size, most) == (51, 600)
    drawn: list[tuple[tuple[int, ...], ...]] = []      # the hands as drawn (then played on)
    real = bot.determinize

    def recording(observation: Any, rng: random.Random) -> Any:
        g = real(observation, rng)
        assert isinstance(g, DurakGame)
        drawn.append(tuple(map(tuple, g.hands)))
        return g

    bot.determinize = recording          # type: ignore[method-assign]
    bot.choose(obs, legal, random.Random(1))
    assert len(bot._pool) == size
    # every pool entry took at most TRIES draws, and after ``most`` draws one each
    assert bot._tries <= most + TRIES + size
    # the determinizations after the pool filled are copies of its deals
    pooled = {tuple(map(tuple, g.hands)) for g in bot._pool}
    assert set(drawn[:size]) == pooled
    later = drawn[size:]
    assert len(later) > 100 and set(later) <= pooled
