"""The Mushka search bot: Monte Carlo over determinizations with heuristic playouts.

Why not the generic ISMCTS with random playouts: a Mushka deal is mostly decided by the
exchange (stand, pass, or which cards to throw), and random play values every hand alike —
random opponents stay in with anything and throw their trumps away. Here each candidate
action is tried on the same sampled deals (common random numbers: the differences between
actions are not drowned by the luck of the deal), every seat then plays on with the
heuristic (``koloda.bots.heuristic.mushka.rollout``), and the action with the best mean of
the seat's payoff is chosen — the heuristic's own choice unless another beats it by more
than ``CONFIDENCE`` standard errors of the paired difference. Every ``PRUNE_EVERY`` deals
an action clearly worse than the best so far stops being sampled.

Candidates: in play every legal card; in the exchange stand, pass and the heuristic's
"discard the weakest k" for every k, plus every other way to throw the cards that are not
trumps or aces (there are 33 exchange actions, too many to sample each well).

Determinizations start from the game's own sampler (voids, cards played, the turned card,
hand sizes, exchange counts), which gives every consistent deal the same chance. What the
other players chose in the exchange says more: in the exchange round the earlier choosers'
hands are made forwards from their choices (``ExchangeSampler``), in play the game's deals
are reweighted by them (``BeliefSampler``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from itertools import combinations
from typing import Any, ClassVar

from koloda.bots.heuristic.mushka import (
    MushkaHeuristic,
    card_chance,
    drawn_chance,
    exchange_options,
    exchange_values,
    exchange_view,
    rollout,
    stay_worth,
    weakest,
)
from koloda.bots.search.flat import FlatMonteCarlo
from koloda.cards import ACE, SUITS, TEXT_CARD, rank_of, suit_of
from koloda.engine.actions import cards_action
from koloda.engine.view import Observation
from koloda.games.mushka import ACE_OF_SPADES, HAND, Sampler

#: how many standard errors an action must beat the heuristic's choice by to be taken
CONFIDENCE = 1.0
#: how often, in deals, and by how many standard errors clearly worse actions are dropped
PRUNE_EVERY = 16
PRUNE_Z = 3.0


def candidates(observation: Mapping[str, Any], legal: list[str]) -> list[str]:
    """The actions worth sampling (all of them in play)."""
    obs = observation
    if obs["phase"] != "exchange":
        return legal
    hand = [TEXT_CARD[t] for t in obs["hand"]]
    trump = SUITS.index(obs["trump"])
    opponents, _ = exchange_view(obs["choices"])
    most = min(HAND, obs["stock"], len(hand))
    drawn = drawn_chance(TEXT_CARD[obs["trump_card"]], len(obs["hand_sizes"]), opponents)
    out = [a for _, a in exchange_options(hand, trump, most, "pass" in legal, opponents,
                                          drawn)]
    weak = [c for c in hand if suit_of(c) != trump and rank_of(c) != ACE]
    for k in range(1, min(most, len(weak)) + 1):
        for combo in combinations(weak, k):
            a = cards_action("discard", sorted(combo))
            if a not in out:
                out.append(a)
    if "stand" not in out:
        out.append("stand")
    return [a for a in out if a in legal]


#: how sharply the opponents are assumed to pick the exchange the heuristic rates best
#: (a softmax over its estimates, in tricks)
TEMPERATURE = 0.4
#: deals drawn per determinization, one kept in proportion to how well the others'
#: exchange choices fit their sampled cards
BATCH = 8
#: hands drawn for one earlier chooser before the last is taken as it is
REJECTION_TRIES = 40


class _ExchangeView:
    """What both samplers read of an observation: the seat, the trump, the choosing order
    (dealer's left first), every choice made so far and the stock before the exchange."""

    def __init__(self, observation: Observation) -> None:
        self.base = Sampler(observation)
        view = self.view = self.base.view
        self.seat = self.base.seat
        self.trump = view.trump
        self.trump_card = view.trump_card
        n = self.players = len(view.hand_sizes)
        dealer = observation.dealer
        assert dealer is not None
        self.order = [(dealer + 1 + i) % n for i in range(n)]
        self.choices: list[str | None] = list(view.choices)
        self.stock0 = view.stock + sum(_count(c) for c in self.choices)


class BeliefSampler(_ExchangeView):
    """Deals that fit the other players' exchange choices, not just the cards seen.

    The game's sampler gives every consistent deal the same chance; but a player who
    stood usually holds trumps, and one who threw four kept his best card. Each draw here
    takes ``BATCH`` deals from the game's sampler and keeps one with chance proportional
    to the likelihood of every other player's choice given his cards before the exchange,
    under a softened heuristic (sampling importance resampling). The cards a player drew
    are a random share of what he holds and has played: any share is as likely a priori.
    """

    def __init__(self, observation: Observation) -> None:
        super().__init__(observation)
        stock = self.stock0
        #: (seat, choice, choices seen before it, stock left at its turn)
        self.chosen: list[tuple[int, str, list[str | None], int]] = []
        seen: list[str | None] = [None] * self.players
        for s in self.order:
            c = self.choices[s]
            if c is None:
                break
            if s != self.seat:
                self.chosen.append((s, c, list(seen), stock))
            seen[s] = c
            stock -= _count(c)
        plays: dict[int, list[int]] = {}
        for tr in (*self.view.tricks_played, self.view.trick):
            for who, played in tr:
                plays.setdefault(who, []).append(played)
        self.plays = plays

    def likelihood(self, det: Any, rng: random.Random) -> float:
        w = 1.0
        for s, choice, before, stock in self.chosen:
            holding = det.hands[s] + self.plays.get(s, [])
            k = _count(choice)
            if choice == "pass":
                original = list(det.discards[s])
            elif k:
                drawn = set(rng.sample(holding, k))
                original = [c for c in holding if c not in drawn] + det.discards[s]
            else:
                original = holding
            w *= self.choice_chance(original, choice, det.discards[s], before, stock)
        return w

    def choice_chance(self, original: list[int], choice: str, thrown: list[int],
                      before: list[str | None], stock: int) -> float:
        """The chance of ``choice`` for a player holding ``original``: a softmax over the
        heuristic's estimates of stand, the weakest-k discards, pass and the actual
        discard."""
        opponents, alone = exchange_view(before)
        if alone:
            return 1.0 if choice == "stand" else 0.05
        most = min(HAND, stock, len(original))
        drawn = drawn_chance(self.trump_card, self.players, opponents)
        can_pass = ACE_OF_SPADES not in original
        options = exchange_values(original, self.trump, most, can_pass, opponents, drawn)
        values = [v for v, _ in options]
        if choice.startswith("discard"):
            k = len(thrown)
            kept = [c for c in original if c not in thrown]
            chance = [card_chance(c, self.trump, original, opponents) for c in kept]
            mine = stay_worth(chance + [drawn] * k) - 0.05 * k
            # a throw other than the weakest k is one more option
            if sorted(thrown) != sorted(weakest(original, self.trump, opponents, k)):
                values.append(mine)
        else:
            want = 0 if choice == "stand" else -1
            found = [v for v, k in options if k == want]
            if not found:
                return 0.0
            mine = found[0]
        top = max(values)
        total = sum(math.exp((v - top) / TEMPERATURE) for v in values)
        return math.exp((mine - top) / TEMPERATURE) / total

    def sample(self, rng: random.Random) -> Any:
        if not self.chosen:
            return self.base.sample(rng)
        dets = [self.base.sample(rng) for _ in range(BATCH)]
        weights = [self.likelihood(d, rng) for d in dets]
        if sum(weights) <= 0:
            return dets[0]
        return rng.choices(dets, weights)[0]


class ExchangeSampler(_ExchangeView):
    """Deals for a decision of the exchange round, the earlier choosers' hands drawn from
    what they did.

    Nothing is played yet, so the hands can be made forwards: each player who has chosen
    gets five unseen cards, kept with the chance a softened heuristic makes his choice on
    them (else drawn again: rejection sampling), throws what it would throw and draws as
    many from the unseen rest; the players still to choose get five each, the stock the
    rest. A player who stood so holds a hand worth standing on, and one who threw three
    kept his two best cards — what the uniform deal misses, and what decides whether a
    late player should stay in.
    """

    def __init__(self, observation: Observation) -> None:
        super().__init__(observation)
        self.unknown = list(self.base.unknown)

    def sample(self, rng: random.Random) -> Any:
        pool = list(self.unknown)
        rng.shuffle(pool)
        hands: dict[int, list[int]] = {}
        discards: dict[int, list[int]] = {}
        seen: list[str | None] = [None] * self.players
        stock = self.stock0
        for s in self.order:
            c = self.choices[s]
            if s == self.seat or c is None:
                continue
            original = self._hand(pool, c, seen, stock, rng)
            k = _count(c)
            if c == "pass":
                hands[s], discards[s] = [], original
            elif k:
                thrown = self._thrown(original, k, seen)
                kept = [x for x in original if x not in thrown]
                hands[s], discards[s] = kept + pool[:k], thrown
                del pool[:k]
            else:
                hands[s], discards[s] = original, []
            seen[s] = c
            stock -= k
        for s in self.order:
            if s != self.seat and self.choices[s] is None:
                hands[s] = pool[:HAND]
                del pool[:HAND]
        return self.base.build(hands, discards, pool)

    def _hand(self, pool: list[int], choice: str, before: list[str | None], stock: int,
              rng: random.Random) -> list[int]:
        """Five cards off ``pool`` kept with the chance of ``choice`` on them."""
        best: list[int] = pool[-HAND:]
        for _ in range(REJECTION_TRIES):
            i = rng.randrange(len(pool) - HAND + 1)
            hand = pool[i:i + HAND]
            if rng.random() < self._chance(hand, choice, before, stock):
                best = hand
                break
        taken = set(best)
        pool[:] = [x for x in pool if x not in taken]
        return best

    def _chance(self, hand: list[int], choice: str, before: list[str | None],
                stock: int) -> float:
        opponents, alone = exchange_view(before)
        if alone:
            return 1.0 if choice == "stand" else 0.05
        most = min(HAND, stock)
        drawn = drawn_chance(self.trump_card, self.players, opponents)
        values = exchange_values(hand, self.trump, most, ACE_OF_SPADES not in hand,
                                 opponents, drawn)
        want = -1 if choice == "pass" else _count(choice)
        match = [v for v, k in values if k == want]
        if not match:
            return 0.0
        top = values[0][0]
        total = sum(math.exp((v - top) / TEMPERATURE) for v, _ in values)
        return math.exp((match[0] - top) / TEMPERATURE) / total

    def _thrown(self, hand: list[int], k: int, before: list[str | None]) -> list[int]:
        """The k cards the heuristic throws: the weakest."""
        opponents, _ = exchange_view(before)
        chance = {c: card_chance(c, self.trump, hand, opponents) for c in hand}
        return sorted(hand, key=lambda c: (chance[c], c))[:k]


def _count(choice: str | None) -> int:
    """Cards drawn from the stock by an exchange choice."""
    return int(choice.split()[1]) if choice and choice.startswith("discard") else 0


def belief_sampler(observation: Observation) -> Any:
    """Exchange decisions: hands made forwards from the choices; in play: the game's
    deals reweighted by the choices."""
    if observation["phase"] == "exchange":
        return ExchangeSampler(observation)
    return BeliefSampler(observation)


class MushkaSearch(FlatMonteCarlo[Any]):
    """Flat Monte Carlo (``koloda.bots.search.flat``) over belief-weighted deals
    (``belief_sampler``), the candidates of ``candidates``, clearly worse actions pruned,
    the heuristic left only on evidence."""

    normal_iterations: ClassVar[int] = 350
    fresh_rollout_rng = False
    prune_every = PRUNE_EVERY
    prune_z = PRUNE_Z
    confidence = CONFIDENCE

    def __init__(self, game: str = "mushka", iterations: int | None = None,
                 seconds: float | None = None, name: str = "search",
                 belief: bool = True) -> None:
        super().__init__(game, iterations, seconds, name)
        self.heuristic = MushkaHeuristic()
        self.belief = belief

    def prepare(self, observation: Mapping[str, Any]) -> Any:
        assert isinstance(observation, Observation), "the search reads the typed observation"
        return belief_sampler(observation) if self.belief else Sampler(observation)

    def sample(self, prepared: Any, rng: random.Random) -> Any:
        return prepared.sample(rng)

    def candidates(self, observation: Mapping[str, Any], legal: list[str],
                   default: str) -> list[str]:
        return candidates(observation, legal)

    def rollout(self, state: Any, rng: random.Random) -> None:
        rollout(state)
