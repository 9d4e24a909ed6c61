"""Trinka heuristic: steer the pair's tricks towards three (or one), away from six and nine.

What a deal is worth to a pair by its final tricks ``t``: one trick (rozhok) +1, three
(trinka) +3, six (the others' trinka) −3, eight −1, all nine a match lost double, none a
match won double, the rest a draw. Before each card the bot asks whether one more trick for
its pair raises the worth expected over the tricks still to come (each side taking a
remaining trick with an even chance), then plays as a person would: when it wants the
trick, the cheapest card that takes it (or a low one under a partner already winning);
when it does not, the highest card that still loses, so its strength is gone by the time
tricks turn dangerous.
"""

from __future__ import annotations

import random
from math import comb
from typing import Any

from koloda.cards import CARD_TEXT, TEXT_CARD, Card
from koloda.games.trinka import ALL_NINE, DECK, RULES, TRICKS
from koloda.tricks import Trick

TRUMP = RULES.trump
#: the deal's worth to a pair by the tricks it took (index 0..9), as in ``payoffs``
WORTH = (ALL_NINE, 1.0, 0.0, 3.0, 0.0, 0.0, -3.0, 0.0, -1.0, -ALL_NINE)


def expected_worth(ours: int, left: int, p: float = 0.5) -> float:
    """The pair's expected worth with ``ours`` tricks and ``left`` more to share, each won
    with chance ``p``."""
    return sum(comb(left, x) * p ** x * (1 - p) ** (left - x) * WORTH[ours + x]
               for x in range(left + 1))


def wants_trick(ours: int, done: int) -> bool:
    """Does one more trick (the current one) raise the pair's expected worth?"""
    left = TRICKS - done - 1
    return expected_worth(ours + 1, left) > expected_worth(ours, left)


def strength(c: Card, led: int | None) -> int:
    """How strongly ``c`` plays to a trick led in ``led``: trumps above the led suit,
    other suits nowhere (-1)."""
    s = RULES.suit[c]
    if s == TRUMP:
        return 100 + RULES.power[c]
    if led is None or s == led:
        return RULES.power[c]
    return -1


def current(obs: dict[str, Any]) -> Trick:
    trick = Trick(obs["leader"])
    for seat, text in obs["trick"]:
        trick.add(RULES, seat, TEXT_CARD[text])
    return trick


def unseen(obs: dict[str, Any], hand: list[Card]) -> set[Card]:
    """The cards still in the other hands."""
    gone = {TEXT_CARD[t] for tr in obs["tricks_played"] for _, t in tr["cards"]}
    gone.update(TEXT_CARD[t] for _, t in obs["trick"])
    return set(DECK) - gone - set(hand)


def is_master(c: Card, others: set[Card]) -> bool:
    """No card still out can beat ``c`` in its own suit (a trump may still ruff)."""
    s = RULES.suit[c]
    return not any(RULES.suit[o] == s and RULES.power[o] > RULES.power[c] for o in others)


class TrinkaHeuristic:
    name = "heuristic"

    def choose(self, observation: dict[str, Any], legal: list[str],
               rng: random.Random) -> str:
        obs = observation
        seat = obs["seat"]
        cards = [TEXT_CARD[a.split()[1]] for a in legal]
        ours = obs["pair_tricks"][seat % 2]
        want = wants_trick(ours, sum(obs["pair_tricks"]))
        trick = current(obs)
        if not trick.cards:
            c = self.lead(obs, cards, want)
        else:
            c = self.follow(obs, trick, cards, want)
        return "play " + CARD_TEXT[c]

    @staticmethod
    def lead(obs: dict[str, Any], cards: list[Card], want: bool) -> Card:
        if not want:
            plain = [c for c in cards if RULES.suit[c] != TRUMP] or cards
            return min(plain, key=lambda c: RULES.power[c])
        hand = [TEXT_CARD[t] for t in obs["hand"]]
        others = unseen(obs, hand)
        masters = [c for c in cards if is_master(c, others)]
        if masters:
            return max(masters, key=lambda c: strength(c, None))
        # nothing sure: lead low and keep the high cards for later
        return min(cards, key=lambda c: strength(c, None))

    @staticmethod
    def follow(obs: dict[str, Any], trick: Trick, cards: list[Card], want: bool) -> Card:
        seat = obs["seat"]
        led = trick.led
        best = max(strength(c, led) for c in trick.cards)
        winning = trick.winner(RULES)
        partner_wins = winning % 2 == seat % 2
        last = len(trick) == 3
        winners = [c for c in cards if strength(c, led) > best]
        losers = [c for c in cards if strength(c, led) <= best]

        def low(cs: list[Card]) -> Card:
            return min(cs, key=lambda c: (strength(c, led), c))

        def high(cs: list[Card]) -> Card:
            return max(cs, key=lambda c: (strength(c, led), c))

        if want:
            if partner_wins and (last or best >= 100 + RULES.power[TEXT_CARD["JH"]]):
                return low(losers or cards)
            if winners:
                return low(winners) if last else high(winners)
            return low(cards)
        if partner_wins:
            # the trick is the pair's anyway unless someone after us takes it: shed strength
            # only when last; otherwise keep under the partner so an opponent may overtake
            return high(cards) if last else low(cards)
        if losers:
            return high(losers)
        return high(winners) if last else low(winners)


def make(game: str, level: str | None) -> TrinkaHeuristic:
    return TrinkaHeuristic()
