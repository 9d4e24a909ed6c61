"""The Stukolka search bot: Monte Carlo over determinizations with heuristic playouts.

Why not the generic ISMCTS: a Stukolka deal is decided at the declaration, and in the tree
the players declaring after the bot choose with the sampled deal in full view — they drop
whenever knocking would cost them a remiz in that sample and so hand the bot the pot. It
then takes the golets on three unseen cards far too often (measured: the ISMCTS bot lost
to the heuristic, see docs/strength/stukolka.md). Here every legal action is tried on the
same sampled deals (common random numbers), every seat then plays on as the heuristic
does, from its own hand (``koloda.bots.heuristic.stukolka.rollout``), and the action with
the best mean of the seat's money wins; ties go to the heuristic's own choice.

The determinizer deals the other hands uniformly, but a player who knocked is likely to
hold something: each sample is weighted by how well its hands agree with the declarations
already made (``likelihood``, the heuristic as the model of the others). Without that the
bot met knockers as if they held average cards and knocked into remizes.

The golets is weighed only by the dealer, the last to declare. Earlier, its worth hangs on
how the players still to declare answer a golets (three unseen cards, obliged to play):
the playouts have them declare by their own hands as the heuristic does, while a searching
player knocks against the golets far more readily — taking it on those playouts lost money
at the table (docs/strength/stukolka.md).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from koloda.bots.heuristic.stukolka import KNOCK_BAR, StukolkaHeuristic, declare, rollout
from koloda.bots.search.flat import MIN_DEALS, FlatMonteCarlo
from koloda.cards import suit_of
from koloda.games.stukolka import StukolkaDeal, determinize

#: the knock bar of the players in the playouts (see ``StukolkaSearch``)
ROLLOUT_BAR = KNOCK_BAR
#: the weight of a sample in which a player declared against what its hand suggests
SURPRISE = 0.1


def likelihood(det: StukolkaDeal, seat: int, bar: float) -> float:
    """How likely the declarations already made are with the hands this sample gave: each
    other player who knocked or dropped as the heuristic would with that hand counts 1,
    against it ``SURPRISE`` — so a sample where the knockers hold rags weighs little."""
    w = 1.0
    trump = suit_of(det.trump_card)
    played = [p for tr in det.history for p in tr.cards]
    played += list(zip(det.trick.seats, det.trick.cards, strict=True))
    for i, s in enumerate(det.order):
        said = det.declared[s]
        if said is None:
            break
        if s == seat or said == "golets":
            continue
        if said == "drop":
            hand = det.discards[s]
        else:
            hand = det.hands[s] + [c for p, c in played if p == s]
        prior = set(det.order[:i])          # the declarations it had heard
        heard = [det.declared[x] if x in prior else None for x in range(det.players)]
        if declare(hand, trump, heard, s, det.dealer, bar) != said:
            w *= SURPRISE
    return w


class StukolkaSearch(FlatMonteCarlo[StukolkaDeal]):
    """Flat Monte Carlo (``koloda.bots.search.flat``): each sample weighted by
    ``likelihood``, the golets left to the dealer, ``iterations`` rollouts shared among
    the candidates, a fresh rollout generator per deal."""

    normal_iterations: ClassVar[int] = 2000

    def __init__(self, game: str = "stukolka", iterations: int | None = None,
                 seconds: float | None = None, name: str = "search",
                 bar: float = ROLLOUT_BAR) -> None:
        super().__init__(game, iterations, seconds, name)
        self.bar = bar
        self.heuristic = StukolkaHeuristic()

    def candidates(self, observation: Mapping[str, Any], legal: list[str],
                   default: str) -> list[str]:
        obs = observation
        if obs["phase"] == "declare" and obs["seat"] != obs["dealer"]:
            return [a for a in legal if a != "golets"] or legal
        return legal

    def deal_budget(self, observation: Mapping[str, Any], actions: list[str]) -> int:
        return max(MIN_DEALS, self.iterations // len(actions))

    def sample(self, prepared: Any, rng: random.Random) -> StukolkaDeal:
        return determinize(prepared, rng)

    def weight(self, det: StukolkaDeal, seat: int) -> float:
        return likelihood(det, seat, self.bar)

    def rollout(self, state: StukolkaDeal, rng: random.Random) -> None:
        rollout(state, rng, self.bar)
