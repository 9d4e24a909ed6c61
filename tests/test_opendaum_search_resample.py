"""The Opendaum search's importance resampling of its sampled deals (``resample``): the
draws kept agree with every public fact, fit the other seats' bids and plays better than
plain draws, follow the acceptance rule exactly, count in the deal budget, and the same
seed gives the same moves; ``misfits_below`` is ``misfits`` up to its cap."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import koloda
from koloda.bots.heuristic.opendaum import OpendaumHeuristic, misfits
from koloda.bots.search.games.opendaum import SHARE_FLOOR, OpendaumSearch
from koloda.bots.search.games.opendaum_evidence import misfits_below
from koloda.engine.view import Observation
from koloda.games.opendaum.deal import OpendaumDeal
from koloda.games.opendaum.determinize import Template, prepare
from koloda.games.opendaum.views import OpendaumView
from tests.conformance import MATCH_KEYS
from tests.test_bots_opendaum import GAMES


class Resampling(OpendaumSearch):
    resample = 8


class ResamplingInPlayOnly(OpendaumSearch):
    resample = 8
    resample_in_bids = False


@dataclass
class Point:
    """One decision with a choice: the seat to move, its observation and legal actions,
    a copy of the deal state, the deal's cards."""
    seat: int
    obs: Observation
    legal: list[str]
    state: OpendaumDeal
    cards: Counter[int]


def heuristic_states(game: str, players: int, opts: Any, seed: int,
                     randomly: bool = False) -> list[Point]:
    """Each decision with a choice of one deal, played by the heuristic (or at random, so
    that the plays misfit)."""
    m = koloda.new_deal(game, players=players, seed=seed, start_deal=seed % 9 + 2, **opts)
    heuristic = OpendaumHeuristic(game)
    rng = random.Random(seed)
    out = []
    while not m.is_over:
        seat = m.to_move
        assert seat is not None
        legal = m.legal_actions()
        if len(legal) > 1:
            state = m.current.clone()
            assert isinstance(state, OpendaumDeal)
            out.append(Point(seat, m.observation(seat), list(legal), state,
                             Counter(m.deals[-1].all_cards())))
        m.apply(rng.choice(legal) if randomly
                else heuristic.choose(m.observation(seat), legal, rng))
    return out


def test_misfits_below_is_misfits_up_to_its_cap() -> None:
    checked = capped = 0
    for game, players, opts in GAMES:
        for seed in range(3):
            for p in heuristic_states(game, players, opts, seed, randomly=True):
                for s in range(players):
                    full = misfits(p.state, s)
                    for cap in (1, 2, 3, 4.5, math.inf):
                        got = misfits_below(p.state, s, cap)
                        if full < cap:
                            assert got == full
                            checked += 1
                        else:
                            assert cap <= got <= full
                            capped += 1
    assert checked > 100 and capped > 100


def check_public_facts(p: Point, det: OpendaumDeal) -> None:
    """``det`` shows the seat exactly its observation, offers exactly its legal actions
    and holds exactly the deal's cards (as ``tests.conformance.check_determinize``)."""
    mine = det.observation(p.seat)
    theirs = {k: v for k, v in p.obs.items() if k not in MATCH_KEYS}
    assert json.loads(json.dumps(dict(mine))) == json.loads(json.dumps(theirs))
    assert det.to_move == p.seat
    assert det.legal_actions() == p.legal
    assert Counter(c for cards in det.card_zones().values() for c in cards) == p.cards


def resampler(game: str, tries: int = 8) -> Resampling:
    bot = Resampling(game)
    bot._tries = tries          # what ``decide`` sets for a decision that resamples
    return bot


def test_resampled_deals_agree_with_every_public_fact_in_every_variant() -> None:
    rng = random.Random(7)
    for game, players, opts in GAMES:
        bot = resampler(game)
        for seed in range(3):
            for p in heuristic_states(game, players, opts, seed, randomly=seed == 2):
                template = prepare(p.obs)
                for _ in range(3):
                    check_public_facts(p, bot.resampled(template, rng))


def test_a_resampled_deal_is_the_first_accepted_draw_else_the_first_with_the_fewest(
        ) -> None:
    # random play: most draws misfit, so both outcomes (accepted, the fewest kept) occur
    outcomes: Counter[str] = Counter()
    for seed in range(4):
        for p in heuristic_states("opendaum", 4, {}, seed, randomly=True):
            seat = p.seat
            template = prepare(p.obs)
            bot = resampler("opendaum", tries=5)
            got = bot.resampled(template, random.Random(seed))
            # the rule, replayed on the same draws with the full count
            rng = random.Random(seed)
            want, fewest, how = None, math.inf, "fewest"
            for _ in range(5):
                det = template.sample(rng)
                u = rng.random()
                k = misfits(det, seat)
                if 0.3 ** k > u:
                    want, how = det, "accepted"
                    break
                if k < fewest:
                    want, fewest = det, k
            assert want is not None
            assert got.deal.hands == want.deal.hands and got.deal.stock == want.deal.stock
            outcomes[how] += 1
    assert outcomes["accepted"] > 5 and outcomes["fewest"] > 5


def test_resampled_deals_fit_the_other_seats_bids_and_plays_better_than_plain_draws(
        ) -> None:
    # heuristic play: the true deal never misfits; resampled deals misfit less often
    plain_misfits = resampled_misfits = 0
    plain_fit = resampled_fit = 0
    rng = random.Random(11)
    for seed in range(4):
        for p in heuristic_states("opendaum", 4, {}, seed)[::3]:
            seat = p.seat
            template: Template = prepare(p.obs)
            bot = resampler("opendaum", tries=10)
            for _ in range(10):
                a = misfits(template.sample(rng), seat)
                b = misfits(bot.resampled(template, rng), seat)
                plain_misfits += a
                resampled_misfits += b
                plain_fit += a == 0
                resampled_fit += b == 0
    assert resampled_misfits < 0.6 * plain_misfits
    assert resampled_fit > 1.2 * plain_fit


def test_a_resampling_decision_counts_its_draws_in_the_deal_budget() -> None:
    m = koloda.new_deal("opendaum", players=4, seed=3, start_deal=8)    # nine cards each
    assert m.to_move is not None
    obs = m.observation(m.to_move)
    legal = m.legal_actions()
    bot, plain = Resampling("opendaum"), OpendaumSearch("opendaum")
    bot.choose(obs, legal, random.Random(0))
    plain.choose(obs, legal, random.Random(0))
    per_deal = len(legal) * 9
    assert plain.last.iterations == 12000 // per_deal
    assert bot.last.iterations == int(12000 // (per_deal + Resampling.resample_cost * 8))
    # in play only: the bid decision samples as the plain search does
    in_play = ResamplingInPlayOnly("opendaum")
    in_play.choose(obs, legal, random.Random(0))
    assert in_play.last.iterations == plain.last.iterations
    assert in_play.top_moves() == plain.top_moves()


def test_the_same_seed_gives_the_same_moves_with_resampling() -> None:
    for p in heuristic_states("opendaum", 4, {}, 5)[::4]:
        obs, legal = p.obs, p.legal
        runs = []
        for _ in range(2):
            bot = Resampling("opendaum", iterations=3000)
            runs.append((bot.choose(obs, legal, random.Random(42)), bot.top_moves()))
        assert runs[0] == runs[1]


class Uncapped(OpendaumSearch):
    max_deals = 10 ** 6


class MorePlay(Uncapped):
    play_share = 1.5


def test_the_play_share_scales_the_budget_of_play_decisions_only() -> None:
    from tests.test_bots_opendaum import at
    m = at("opendaum", ["9H 6D 7C QC", "6H 7D 8C TC", "TH JD 6C AS", "QH 7S 9C KD"], "QS",
           ["bid 0", "bid 1", "bid 0"])
    bid_obs, bid_legal = m.observation(3), m.legal_actions()
    m.apply("bid 1")
    play_obs, play_legal = m.observation(1), m.legal_actions()
    assert len(play_legal) == 4
    more, plain = MorePlay("opendaum"), Uncapped("opendaum")
    for bot in (more, plain):
        bot.choose(bid_obs, bid_legal, random.Random(0))
    assert more.last.iterations == plain.last.iterations == 12000 // (5 * 4)
    for bot in (more, plain):
        bot.choose(play_obs, play_legal, random.Random(0))
    assert plain.last.iterations == 12000 // (4 * 4)
    assert more.last.iterations == 18000 // (4 * 4)


class Leaning(OpendaumSearch):
    bid_lean = 0.25


def test_a_bid_decision_with_a_lean_values_a_rollout_less_by_the_lean_for_each_trick_bid(
        ) -> None:
    from koloda.bots.heuristic.opendaum import rollout
    from tests.test_bots_opendaum import at
    m = at("opendaum", ["AS", "7H", "TD", "QH"], "9S", [], dealer=3)
    bot = Leaning("opendaum", iterations=40)
    bot.choose(m.observation(0), m.legal_actions(), random.Random(2))     # a bid decision
    det = prepare(m.observation(0)).sample(random.Random(1))
    for a in ("bid 1", "bid 0", "bid 0", "bid 0"):
        det.apply(a)
    rollout(det)
    assert det.payoffs()[0] == 10.0 and det.tricks[0] == 1
    assert bot.value(det, 0) == 1.0 + 0.02 * 10.0 - 0.25       # made bid 1: less the lean
    assert bot.value(det, 1) == 1.0 + 0.02 * det.payoffs()[1]  # seat 1 bid 0: no lean
    assert OpendaumSearch("opendaum").value(det, 0) == 10.0    # no decision yet: points
    plain = OpendaumSearch("opendaum", iterations=40)
    plain.choose(m.observation(0), m.legal_actions(), random.Random(2))
    assert plain.value(det, 0) == 1.0 + 0.02 * 10.0
    # a play decision keeps the points
    m.apply("bid 1")
    for a in ("bid 0", "bid 0", "bid 0"):
        m.apply(a)
    bot.choose(m.observation(0), m.legal_actions(), random.Random(2))
    assert bot.value(det, 0) == 10.0


class HalfShakhi(OpendaumSearch):
    variant_shares: ClassVar[Mapping[str, float]] = {"shakhi": 0.5}


class Unshared(OpendaumSearch):
    variant_shares: ClassVar[Mapping[str, float]] = {}


def test_a_variant_share_scales_that_variants_budget_only() -> None:
    # the shipped search: the shakhi variant at 0.8 of the deals, the others at 1
    for game, half, shipped in (("opendaum-shakhi", 0.5, 0.8), ("opendaum", 1.0, 1.0),
                                ("opendaum-33", 1.0, 1.0)):
        players = 3 if game == "opendaum-33" else 4
        m = koloda.new_deal(game, players=players, seed=1, start_deal=6)    # seven cards
        seat = m.to_move
        assert seat is not None
        obs, legal = m.observation(seat), m.legal_actions()
        bots = HalfShakhi(game), OpendaumSearch(game), Unshared(game)
        for bot in bots:
            bot.choose(obs, legal, random.Random(0))
        full = 12000 // (len(legal) * 7)
        assert full > 100
        assert [b.last.iterations for b in bots] == [
            max(SHARE_FLOOR, round(full * half)), max(SHARE_FLOOR, round(full * shipped)),
            full]
    # a small budget is not cut below the floor by the share
    m = koloda.new_deal("opendaum-shakhi", players=4, seed=1, start_deal=6)
    assert m.to_move is not None
    obs, legal = m.observation(m.to_move), m.legal_actions()
    small = [HalfShakhi("opendaum-shakhi", iterations=i) for i in (3000, 5000)]
    for bot in small:
        bot.choose(obs, legal, random.Random(0))
    assert [b.last.iterations for b in small] == [
        3000 // (len(legal) * 7), max(SHARE_FLOOR, round(5000 // (len(legal) * 7) * 0.5))]


class ResamplingBidsOnly(OpendaumSearch):
    resample = 8
    resample_in_play = False


def test_resampling_in_bids_only_leaves_the_play_decisions_as_they_were() -> None:
    m = koloda.new_deal("opendaum", players=4, seed=3, start_deal=8)    # nine cards each
    heuristic = OpendaumHeuristic("opendaum")
    bids_only, plain = ResamplingBidsOnly("opendaum"), OpendaumSearch("opendaum")
    seen: Counter[str] = Counter()
    while not m.is_over:
        seat = m.to_move
        assert seat is not None
        obs, legal = m.observation(seat), m.legal_actions()
        assert isinstance(obs.deal, OpendaumView)
        if len(legal) > 1 and seen.total() < 8:
            a = bids_only.choose(obs, legal, random.Random(1))
            b = plain.choose(obs, legal, random.Random(1))
            if obs.deal.phase == "bid":
                assert bids_only.last.iterations < plain.last.iterations   # draws counted
            else:
                assert (a, bids_only.top_moves()) == (b, plain.top_moves())
            seen[obs.deal.phase] += 1
        m.apply(heuristic.choose(obs, legal, random.Random(0)))
    assert seen["bid"] and seen["play"]
