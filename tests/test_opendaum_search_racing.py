"""The Opendaum search's bid race: a rollout budget in the flat search (the deals an
action dropped would have had go to the rest), the race on bids, the bids as weights."""

from __future__ import annotations

import math
import random

from koloda.bots.heuristic.opendaum import expected_tricks
from koloda.bots.search.games.opendaum import OpendaumSearch
from koloda.games.opendaum.determinize import prepare
from tests.test_bots_flat_mc import ToySearch
from tests.test_bots_opendaum import at
from tests.test_opendaum_search import bids_0_and_3


def test_a_rollout_budget_gives_a_pruned_actions_deals_to_the_others() -> None:
    # c pays -value, b 2 × value: c is dropped at the first look, a (the default) and b
    # share what c's rollouts would have been
    bot = ToySearch(iterations=30)
    bot.prune_every = 2
    bot.budget_in_rollouts = True
    bot.evaluate({"seat": 0}, ["a", "b", "c"], random.Random(3), default="a")
    tried = {x for _, x, _ in bot.rollouts}
    assert tried == {"a", "b", "c"}
    assert sum(1 for _, x, _ in bot.rollouts if x == "c") == 2
    assert len(bot.rollouts) == 30 and bot.last.iterations == 2 + (30 - 6) // 2
    plain = ToySearch(iterations=30)
    plain.prune_every = 2
    plain.evaluate({"seat": 0}, ["a", "b", "c"], random.Random(3), default="a")
    assert plain.last.iterations == 30            # a budget in deals: 30 deals, fewer rollouts


class Racing(OpendaumSearch):
    bid_prune_every = 8
    bid_points_weight = 0.02


def test_a_racing_bid_decision_spends_the_dropped_bids_rollouts_on_more_deals() -> None:
    m = at("opendaum", ["AS KS QS AH KH", "7S 8S 9S 6H 7H", "TH JH QH 6D 7D",
                        "QD KD 6C TC JC"], "6S", [], dealer=3)
    obs, legal = m.observation(0), m.legal_actions()
    plain, racing = OpendaumSearch("opendaum", iterations=3000), Racing("opendaum",
                                                                        iterations=3000)
    plain.choose(obs, legal, random.Random(4))
    racing.choose(obs, legal, random.Random(4))
    assert plain.last.iterations == 3000 // (6 * 5)            # deals: the budget ÷ (bids × cards)
    assert racing.last.iterations > plain.last.iterations
    assert racing.budget_in_rollouts and racing.prune_every == 8
    # a play decision of the racing bot is not raced
    for a in ("bid 4", "bid 0", "bid 0", "bid 1"):
        m.apply(a)
    racing.choose(m.observation(0), m.legal_actions(), random.Random(4))
    assert racing.prune_every == 0 and not racing.budget_in_rollouts


class Weighted(OpendaumSearch):
    weight_sigma = 0.5


def test_a_sampled_deal_is_weighted_by_how_well_the_earlier_bids_fit_its_hands() -> None:
    template = prepare(bids_0_and_3().observation(2))
    bot = Weighted("opendaum")
    rng = random.Random(5)
    for _ in range(20):
        det = bot.sample(template, rng)
        miss = sum((b - expected_tricks(det.deal.hands[s], template.rules, 4)) ** 2
                   for s, b in ((0, 0), (1, 3)))
        assert bot.weight(det, 2) == math.exp(-0.5 * miss / 0.25)
        assert OpendaumSearch("opendaum").weight(det, 2) == 1.0
    # the seat's own bid is no evidence about the others
    det = bot.sample(template, rng)
    det.bids[2] = 4
    before = bot.weight(det, 2)
    det.bids[2] = 0
    assert bot.weight(det, 2) == before
