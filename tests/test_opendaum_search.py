"""The Opendaum search's own parts: touching cards tried once, the bids tried, the bids as
evidence in the sampled deals, the made-bid bonus."""

from __future__ import annotations

import random

from koloda.bots.heuristic.opendaum import expected_tricks
from koloda.bots.search.games.opendaum import OpendaumSearch, equivalent_plays
from koloda.engine.match import Match
from koloda.engine.view import Observation
from koloda.games.opendaum.determinize import prepare
from koloda.games.opendaum.views import OpendaumView
from tests.test_bots_opendaum import at


def view_of(obs: Observation) -> OpendaumView:
    assert isinstance(obs.deal, OpendaumView)
    return obs.deal


def test_touching_cards_are_tried_once_and_a_card_between_unseen_keeps_them_apart() -> None:
    # seat 0 holds QH JH 9H 7D: QH and JH touch; 9H is apart (TH is unseen); 7D alone
    m = at("opendaum", ["QH JH 9H 7D", "KH 9D 8C 6S", "TH JD 6C 7C", "AH 7S 9C 8S"], "QS",
           ["bid 1", "bid 1", "bid 0", "bid 0"], dealer=3)
    obs = m.observation(0)
    legal = m.legal_actions()
    got = equivalent_plays(OpendaumSearch("opendaum").rules_of(view_of(obs)), view_of(obs),
                           legal, "play JH")
    assert sorted(got) == ["play 7D", "play 9H", "play JH"]
    # the default stands for its run; with QH as the default QH is tried instead of JH
    got = equivalent_plays(OpendaumSearch("opendaum").rules_of(view_of(obs)), view_of(obs),
                           legal, "play QH")
    assert sorted(got) == ["play 7D", "play 9H", "play QH"]


def test_a_card_on_the_table_between_two_cards_keeps_them_apart() -> None:
    # seat 1 (left of dealer 0) leads TH; seat 2 holds JH 9H: TH lies between them, so
    # 9H loses and JH wins — both tried; once TH is in a completed trick they touch
    m = at("opendaum", ["AD 7C 8C", "TH 8D KC", "JH 9H 6D", "QD 9C AC"], "6S",
           ["bid 0", "bid 1", "bid 1", "bid 0", "play TH"], dealer=0)
    obs = m.observation(2)
    view = view_of(obs)
    rules = OpendaumSearch("opendaum").rules_of(view)
    assert sorted(equivalent_plays(rules, view, m.legal_actions(), "play 9H")) == [
        "play 9H", "play JH"]


def test_a_card_played_in_a_completed_trick_lets_the_cards_around_it_touch() -> None:
    # TH wins the first trick; seat 2, void in diamonds and trumps, then holds JH 9H with
    # nothing unseen between them: one of them is tried
    m = at("opendaum", ["AD 8C 7C", "TH 8D KC", "7H JH 9H", "QD 9C AC"], "6S",
           ["bid 0", "bid 1", "bid 1", "bid 0", "play TH", "play 7H", "play QD",
            "play AD", "play 8D"], dealer=0)
    assert m.to_move == 2
    obs = m.observation(2)
    view = view_of(obs)
    legal = m.legal_actions()
    assert sorted(legal) == ["play 9H", "play JH"]
    rules = OpendaumSearch("opendaum").rules_of(view)
    assert equivalent_plays(rules, view, legal, "play 9H") == ["play 9H"]


def test_with_one_candidate_left_the_search_samples_nothing() -> None:
    m = at("opendaum", ["AD 8C 7C", "TH 8D KC", "7H JH 9H", "QD 9C AC"], "6S",
           ["bid 0", "bid 1", "bid 1", "bid 0", "play TH", "play 7H", "play QD",
            "play AD", "play 8D"], dealer=0)
    bot = Merging("opendaum", iterations=400)
    obs = m.observation(2)
    assert bot.choose(obs, m.legal_actions(), random.Random(1)) in ("play 9H", "play JH")
    assert bot.last.iterations == 0


class Merging(OpendaumSearch):
    merge_equivalent = True


class Windowed(OpendaumSearch):
    bid_window = 1.0


def test_the_bid_window_tries_only_bids_near_the_hands_expected_tricks() -> None:
    m = at("opendaum", ["AS KS QS AH KH", "7S 8S 9S 6H 7H", "TH JH QH 6D 7D",
                        "QD KD 6C TC JC"], "6S", [], dealer=3)
    obs = m.observation(0)
    view = view_of(obs)
    bot = Windowed("opendaum")
    est = expected_tricks(view.hand, bot.rules_of(view), 4)
    got = bot.candidates(obs, m.legal_actions(), "bid 5")
    assert got and all(abs(int(a[4:]) - est) <= 1.0 for a in got)
    assert len(got) < len(m.legal_actions())


def bids_0_and_3() -> Match:
    """Four cards each; seat 0 (weak) has bid 0, seat 1 (three aces and a king) 3."""
    return at("opendaum", ["7D 8D 7C 8C", "AS KS AH AD", "QH JH 9H TD", "QD 9C AC TH"], "6S",
              ["bid 0", "bid 3"], dealer=3)


class Evidence(OpendaumSearch):
    bid_sigma = 0.3
    bid_tries = 200


def test_sampled_deals_fit_the_bids_made_when_the_bids_are_evidence() -> None:
    # seat 0 bids 0 and seat 1 bids 3 on 4 cards; seat 2's samples should give seat 1
    # hands that take about 3 tricks and seat 0 hands that take about none
    obs = bids_0_and_3().observation(2)
    template = prepare(obs)
    plain, weighted = OpendaumSearch("opendaum"), Evidence("opendaum")
    rng = random.Random(3)
    def gap(bot: OpendaumSearch) -> float:
        total = 0.0
        for _ in range(200):
            det = bot.sample(template, rng)
            assert det.hands[2] == sorted(obs.deal.hand)   # type: ignore[union-attr]
            total += abs(3 - expected_tricks(det.deal.hands[1], template.rules, 4))
        return total / 200
    assert gap(weighted) < gap(plain) - 0.3


class Bonus(OpendaumSearch):
    made_bonus = 7.0


def test_the_made_bonus_is_added_to_the_points_only_when_the_bid_is_made() -> None:
    m = at("opendaum", ["AS", "7H", "TD", "QH"], "9S", [], dealer=3)
    det = prepare(m.observation(0)).sample(random.Random(1))
    det.apply("bid 1")
    for a in ("bid 0", "bid 0", "bid 0"):
        det.apply(a)
    from koloda.bots.heuristic.opendaum import rollout
    rollout(det)
    plain = OpendaumSearch("opendaum").value(det, 0)
    assert plain == det.payoffs()[0] == 10.0
    assert Bonus("opendaum").value(det, 0) == 17.0
    assert Bonus("opendaum").value(det, 1) == det.payoffs()[1] + 7.0   # bid 0, took 0


class MadeObjective(OpendaumSearch):
    bid_points_weight = 0.01


def test_a_bid_decision_with_the_made_objective_values_a_made_bid_at_one_plus_its_points() -> None:
    from koloda.bots.heuristic.opendaum import rollout
    m = at("opendaum", ["AS", "7H", "TD", "QH"], "9S", [], dealer=3)
    bot = MadeObjective("opendaum", iterations=40)
    bot.choose(m.observation(0), m.legal_actions(), random.Random(2))
    det = prepare(m.observation(0)).sample(random.Random(1))
    for a in ("bid 1", "bid 0", "bid 0", "bid 0"):
        det.apply(a)
    rollout(det)
    assert det.payoffs()[0] == 10.0 and det.tricks[0] == 1
    assert bot.value(det, 0) == 1.0 + 0.01 * 10.0          # made: 1 and a little of 10
    missed = prepare(m.observation(0)).sample(random.Random(1))
    for a in ("bid 0", "bid 0", "bid 0", "bid 0"):
        missed.apply(a)
    rollout(missed)
    assert missed.tricks[0] == 1 and bot.value(missed, 0) == 0.01 * 1.0  # missed: 1 point
    # a play decision of the same bot keeps the points (play_points_weight is None)
    m.apply("bid 1")
    for a in ("bid 0", "bid 0", "bid 0"):
        m.apply(a)
    bot.choose(m.observation(0), m.legal_actions(), random.Random(2))
    assert bot.value(det, 0) == 10.0


class FewDeals(OpendaumSearch):
    max_deals = 50


def test_max_deals_caps_a_late_decisions_deals() -> None:
    m = at("opendaum", ["AD 8C", "TH 8D", "7H JH", "QD 9C"], "6S",
           ["bid 0", "bid 1", "bid 1", "bid 0", "play TH", "play 7H"], dealer=0)
    obs, legal = m.observation(3), m.legal_actions()
    assert len(legal) == 2                      # 12000 cards ÷ (2 × 2): 3000 deals, capped
    assert OpendaumSearch("opendaum").deal_budget(obs, legal) == 500
    bot = FewDeals("opendaum")
    bot.choose(obs, legal, random.Random(1))
    assert bot.last.iterations == 50


class PlaysAsEvidence(OpendaumSearch):
    evidence = 0.5


class NoEvidence(OpendaumSearch):
    evidence = None


def test_with_evidence_a_play_decisions_deal_weighs_evidence_to_the_power_of_its_misfits(
        ) -> None:
    from koloda.bots.heuristic.opendaum import misfits
    m = at("opendaum", ["9H 6D 7C", "6H 7D 8C", "TH JD 6C", "QH 7S 9C"], "QS",
           ["bid 3", "bid 0", "bid 0", "bid 0", "play 8C"])
    template = prepare(m.observation(2))
    bot, plain = PlaysAsEvidence("opendaum", iterations=30), NoEvidence("opendaum")
    plain.choose(m.observation(2), m.legal_actions(), random.Random(0))
    bot.choose(m.observation(2), m.legal_actions(), random.Random(0))     # a play decision
    rng = random.Random(3)
    seen = set()
    for _ in range(30):
        det = template.sample(rng)
        k = misfits(det, 2)
        seen.add(k)
        assert bot.weight(det, 2) == 0.5 ** k and plain.weight(det, 2) == 1.0
    assert len(seen) > 1 and max(seen) >= 2     # some samples fit seat 1, most do not
    # a bid decision does not weigh its deals (evidence_in_bids is off)
    b = at("opendaum", ["9H 6D 7C", "6H 7D 8C", "TH JD 6C", "QH 7S 9C"], "QS", ["bid 3"])
    bot.choose(b.observation(2), b.legal_actions(), random.Random(0))
    bid_template = prepare(b.observation(2))
    misfitting = next(d for d in (bid_template.sample(rng) for _ in range(100))
                      if misfits(d, 2) > 0)
    assert bot.weight(misfitting, 2) == 1.0
