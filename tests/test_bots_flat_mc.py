"""The shared flat Monte Carlo search (koloda/bots/search/flat.py): the loop on a toy game whose
means can be worked out by hand, and the Dreyfus, Stukolka and Opendaum bots built on it —
deterministic for a seed and a budget, legal, within their budgets, and each game's own
hook really used (Stukolka's weights, Dreyfus's ``buy``, Opendaum's one template)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import koloda
from koloda.bots import make_bot
from koloda.bots.heuristic.dreyfus import discard_text, exchange_candidates, view
from koloda.bots.search.flat import MIN_DEALS, FlatMonteCarlo
from koloda.bots.search.games import opendaum as opendaum_module
from koloda.bots.search.games import stukolka as stukolka_module
from koloda.bots.search.games.dreyfus import DreyfusSearch
from koloda.bots.search.games.opendaum import OpendaumSearch
from koloda.bots.search.games.stukolka import StukolkaSearch
from koloda.cards import TEXT_CARD
from koloda.games.dreyfus import DreyfusDeal

# ------------------------------------------------------------------ the loop, on a toy

FACTOR = {"a": 1.0, "b": 2.0, "c": -1.0}


class Toy:
    """A 'deal' whose payoff for seat 0 is FACTOR[action] * value + the rollout's draw."""

    def __init__(self, value: int) -> None:
        self.value = value
        self.action = ""
        self.draw = 0.0

    def clone(self) -> Toy:
        return Toy(self.value)

    def apply(self, action: str) -> None:
        self.action = action

    def payoffs(self) -> list[float]:
        return [FACTOR[self.action] * self.value + self.draw, 0.0]


class Fixed:
    name = "fixed"

    def __init__(self, action: str) -> None:
        self.action = action

    def choose(self, observation: dict[str, Any], legal: list[str],
               rng: random.Random) -> str:
        return self.action


class ToySearch(FlatMonteCarlo[Any]):
    def __init__(self, iterations: int = 5, seconds: float | None = None, default: str = "a",
                 weighted: bool = True, fresh: bool = True, flat: bool = False) -> None:
        super().__init__("toy", iterations, seconds, "toy")
        self.heuristic = Fixed(default)
        self.weighted = weighted
        self.fresh_rollout_rng = fresh
        self.flat = flat                    # every action pays the same
        self.prepared = 0
        self.samples: list[Toy] = []
        self.rollouts: list[tuple[int, str, float]] = []   # (deal, action, draw)

    def prepare(self, observation: dict[str, Any]) -> Any:
        self.prepared += 1
        return observation

    def sample(self, prepared: Any, rng: random.Random) -> Any:
        det = Toy(rng.randrange(1, 4))
        self.samples.append(det)
        return det

    def weight(self, det: Any, seat: int) -> float:
        return float(det.value) if self.weighted else 1.0

    def act(self, state: Any, action: str) -> None:
        state.apply("a" if self.flat else action)

    def rollout(self, state: Any, rng: random.Random) -> None:
        state.draw = rng.random()
        self.rollouts.append((len(self.samples) - 1, state.action, state.draw))



def test_the_means_are_the_weighted_means_over_shared_samples() -> None:
    bot = ToySearch(iterations=7)
    means = bot.evaluate({"seat": 0}, ["a", "b", "c"], random.Random(3))
    assert bot.last.iterations == 7 and len(bot.samples) == 7 and bot.prepared == 1
    assert len({d.value for d in bot.samples}) > 1            # the weights differ
    for action in ("a", "b", "c"):
        total = weight = 0.0
        for i, det in enumerate(bot.samples):
            draw = next(d for j, a, d in bot.rollouts if j == i and a == action)
            total += det.value * (FACTOR[action] * det.value + draw)
            weight += det.value
        assert means[action] == pytest.approx(total / weight)


def test_unweighted_means_are_plain_averages() -> None:
    bot = ToySearch(iterations=6, weighted=False)
    means = bot.evaluate({"seat": 0}, ["a", "b"], random.Random(4))
    for action in ("a", "b"):
        draws = [d for _, a, d in bot.rollouts if a == action]
        plain = sum(FACTOR[action] * det.value + d
                    for det, d in zip(bot.samples, draws, strict=True)) / 6
        assert means[action] == pytest.approx(plain)


def test_a_fresh_rollout_generator_per_deal_is_the_same_for_every_action() -> None:
    bot = ToySearch(iterations=5, fresh=True)
    bot.evaluate({"seat": 0}, ["a", "b", "c"], random.Random(5))
    per_deal = [{d for j, _, d in bot.rollouts if j == i} for i in range(5)]
    assert all(len(draws) == 1 for draws in per_deal)          # common random numbers
    assert len(set().union(*per_deal)) == 5                     # but a new seed each deal
    # the seed is the decision generator's draw right after the sample
    rng = random.Random(5)
    for i in range(5):
        rng.randrange(1, 4)
        assert per_deal[i] == {random.Random(rng.random()).random()}


def test_the_decision_generator_runs_on_through_the_rollouts_when_not_fresh() -> None:
    bot = ToySearch(iterations=3, fresh=False)
    bot.evaluate({"seat": 0}, ["a", "b"], random.Random(6))
    rng = random.Random(6)
    for i in range(3):
        rng.randrange(1, 4)
        assert [d for j, _, d in bot.rollouts if j == i] == [rng.random(), rng.random()]


def test_the_clock_is_looked_at_only_after_min_deals() -> None:
    bot = ToySearch(iterations=1000, seconds=0.0)
    bot.evaluate({"seat": 0}, ["a", "b"], random.Random(7))
    assert bot.last.iterations == MIN_DEALS == bot.min_deals


def test_choose_takes_the_best_mean_and_ties_go_to_the_heuristic() -> None:
    obs = {"seat": 0}
    assert ToySearch().choose(obs, ["a", "b", "c"], random.Random(8)) == "b"
    for default in ("a", "b", "c"):
        bot = ToySearch(default=default, flat=True, fresh=True)
        assert bot.choose(obs, ["a", "b", "c"], random.Random(8)) == default
    lone = ToySearch()
    assert lone.choose(obs, ["c"], random.Random(8)) == "c" and lone.samples == []


# ------------------------------------------------------------------ the three bots

GAMES = [("dreyfus", 3), ("stukolka", 4), ("stukolka", 5), ("opendaum", 4),
         ("opendaum-shakhi", 2), ("opendaum-33", 3)]


def positions(game: str, players: int, count: int) -> list[tuple[dict[str, Any], list[str]]]:
    """Decisions with a choice, from deals the heuristic plays, taken at random steps."""
    out: list[tuple[dict[str, Any], list[str]]] = []
    heuristic = make_bot("heuristic", game)
    pick = random.Random(11)
    seed = 0
    while len(out) < count:
        extra = {"start_deal": seed % 12} if game.startswith("opendaum") else {}
        m = koloda.new_deal(game, players=players, seed=seed, **extra)
        seed += 1
        while not m.is_over and len(out) < count:
            seat = m.to_move
            assert seat is not None
            legal = m.legal_actions()
            obs = m.observation(seat)
            if len(legal) > 1 and pick.random() < 0.3:
                out.append((obs, legal))
            m.apply(heuristic.choose(obs, legal, random.Random(0)))
    return out


def search_bot(game: str, budget: int, seconds: float | None = None) -> Any:
    if game.startswith("dreyfus"):
        return DreyfusSearch(game, iterations=budget, seconds=seconds)
    if game.startswith("stukolka"):
        return StukolkaSearch(game, iterations=budget, seconds=seconds)
    return OpendaumSearch(game, iterations=budget * 10, seconds=seconds)


def spy_evaluate(bot: Any) -> list[tuple[list[str], dict[str, float]]]:
    seen: list[tuple[list[str], dict[str, float]]] = []
    evaluate = bot.evaluate

    def spy(observation: dict[str, Any], actions: list[str],
            rng: random.Random, *rest: Any) -> dict[str, float]:
        means: dict[str, float] = evaluate(observation, actions, rng, *rest)
        seen.append((list(actions), means))
        return means
    bot.evaluate = spy
    return seen


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_the_bots_are_deterministic_legal_and_within_the_deal_budget(
        game: str, players: int) -> None:
    family = game.split("-")[0]
    for i, (obs, legal) in enumerate(positions(game, players, 12)):
        runs = []
        for _ in range(2):
            bot = search_bot(game, 24)
            seen = spy_evaluate(bot)
            action = bot.choose(obs, list(legal), random.Random(i))
            assert action in legal
            [(actions, means)] = seen
            assert action in actions and means[action] == max(means.values())
            if family == "opendaum":    # the budget in cards played: 240 over actions × cards
                most = max(MIN_DEALS, 240 // (len(actions) * len(obs["hand"])))
            else:
                most = max(MIN_DEALS, 24 // len(actions))
            assert bot.last.iterations == most
            runs.append((action, means, bot.last.iterations))
        assert runs[0] == runs[1]


@pytest.mark.parametrize("family", ["dreyfus", "stukolka", "opendaum"])
def test_the_bots_stop_at_min_deals_when_out_of_time(family: str) -> None:
    game, players = next(g for g in GAMES if g[0] == family)
    obs, legal = positions(game, players, 1)[0]
    bot = search_bot(game, 100000, seconds=0.0)
    assert bot.choose(obs, legal, random.Random(1)) in legal
    assert bot.last.iterations == MIN_DEALS


def test_stukolka_weights_each_sample_by_its_likelihood(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[float] = []
    likelihood = stukolka_module.likelihood

    def spy(det: Any, seat: int, bar: float) -> float:
        w = likelihood(det, seat, bar)
        calls.append(w)
        return w
    for obs, legal in positions("stukolka", 4, 40):
        if obs["phase"] != "declare" or not any(obs["declared"]):
            continue
        calls.clear()
        monkeypatch.setattr(stukolka_module, "likelihood", spy)
        bot = StukolkaSearch(iterations=40, seconds=1e9)
        weighted = bot.evaluate(obs, legal, random.Random(2))
        assert len(calls) == bot.last.iterations              # one weight per sampled deal
        if len(set(calls)) > 1:
            break
    else:
        pytest.fail("no declaration with samples of unequal weight")
    # the same samples, all weighing alike: other means (the weights really count)
    monkeypatch.setattr(stukolka_module, "likelihood", lambda det, seat, bar: 1.0)
    plain = bot.evaluate(obs, legal, random.Random(2))
    assert weighted != plain
    # and the weighted means are the weighted averages of the per-sample payoffs
    payoffs = per_sample(bot, obs, legal)
    assert weighted == pytest.approx(
        {a: sum(w * p for w, p in zip(calls, payoffs[a], strict=True)) / sum(calls)
         for a in legal})


def per_sample(bot: StukolkaSearch, obs: dict[str, Any],
               legal: list[str]) -> dict[str, list[float]]:
    """Each action's payoff on each deal the search samples with ``Random(2)`` (the same
    generator draws replayed through the bot's hooks)."""
    out: dict[str, list[float]] = {a: [] for a in legal}
    rng = random.Random(2)
    for _ in range(bot.last.iterations):
        det = bot.sample(bot.prepare(obs), rng)
        seed = rng.random()
        for a in legal:
            st = det.clone()
            bot.act(st, a)
            bot.rollout(st, random.Random(seed))
            out[a].append(st.payoffs()[obs["seat"]])
    return out


def test_dreyfus_exchanges_go_through_buy(monkeypatch: pytest.MonkeyPatch) -> None:
    obs, legal = next((o, lg) for o, lg in positions("dreyfus", 3, 40)
                      if o["phase"] == "exchange")
    seat = obs["seat"]
    bought: list[list[int]] = []                  # what the observing seat buys with
    buy = DreyfusDeal.buy

    def spy(self: DreyfusDeal, cards: list[int]) -> None:
        if self.to_move == seat:
            bought.append(sorted(cards))
        buy(self, cards)
    monkeypatch.setattr(DreyfusDeal, "buy", spy)
    bot = DreyfusSearch(iterations=30, seconds=1e9)
    seen = spy_evaluate(bot)
    assert bot.choose(obs, legal, random.Random(3)) in legal
    [(actions, _)] = seen
    rules, hand, _, _ = view(obs)
    candidates = [discard_text(c) for c in
                  exchange_candidates(hand, rules.trump, obs["widow_size"])]
    assert actions[:len(candidates)] == candidates and len(actions) <= len(candidates) + 1
    tried = [sorted(TEXT_CARD[w] for w in a.split()[1:]) for a in actions]
    # every candidate on every sampled deal, each bought through ``buy``
    assert bought == tried * bot.last.iterations


def test_opendaum_prepares_one_template_per_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    obs, legal = positions("opendaum", 4, 1)[0]
    made: list[Any] = []
    prepare = opendaum_module.prepare

    def spy(observation: dict[str, Any]) -> Any:
        template = prepare(observation)
        made.append(template)
        return template
    monkeypatch.setattr(opendaum_module, "prepare", spy)
    bot = OpendaumSearch("opendaum", iterations=9 * len(legal) * len(obs["hand"]))
    assert bot.choose(obs, legal, random.Random(4)) in legal
    assert len(made) == 1 and bot.last.iterations == 9
