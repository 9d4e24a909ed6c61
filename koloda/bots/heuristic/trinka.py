"""Trinka heuristic: steer the pair's tricks towards three (or one), away from six and nine.

What a deal is worth to a pair by its final tricks ``t``: one trick (rozhok) +1, three
(trinka) +3, six (the others' trinka) −3, eight −1, all nine a match lost double, none a
match won double, the rest a draw. Before each card the bot asks whether one more trick for
its pair raises the worth expected over the tricks still to come (each side taking a
remaining trick with an even chance), then plays as a person would: when it wants the
trick, the cheapest card that takes it (or a low one under a partner already winning);
when it does not, the highest card that still loses, so its strength is gone by the time
tricks turn dangerous.

The same choices, read straight off a sampled deal, are the search bot's rollout policy
(``rollout``, used by koloda/bots/search/games/trinka.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from math import comb
from typing import Any

from koloda.cards import TEXT_CARD, Card
from koloda.engine.deal import DealState
from koloda.games.trinka import ALL_NINE, DECK, RULES, TRICKS, TrinkaDeal
from koloda.tricks import PLAY_TEXT, Trick

TRUMP = RULES.trump
#: how often a rollout player plays a random card
NOISE = 0.1
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


def current(obs: Mapping[str, Any]) -> Trick:
    trick = Trick(obs["leader"])
    for seat, text in obs["trick"]:
        trick.add(RULES, seat, TEXT_CARD[text])
    return trick


def unseen(obs: Mapping[str, Any], hand: list[Card]) -> set[Card]:
    """The cards still in the other hands."""
    gone = {TEXT_CARD[t] for tr in obs["tricks_played"] for _, t in tr["cards"]}
    gone.update(TEXT_CARD[t] for _, t in obs["trick"])
    return set(DECK) - gone - set(hand)


def is_master(c: Card, others: set[Card]) -> bool:
    """No card still out can beat ``c`` in its own suit (a trump may still ruff)."""
    s = RULES.suit[c]
    return not any(RULES.suit[o] == s and RULES.power[o] > RULES.power[c] for o in others)


def choose_card(seat: int, cards: list[Card], hand: list[Card], trick: Trick,
                pair_tricks: tuple[int, int], others: set[Card]) -> Card:
    """The card to play from ``cards`` (the legal ones); ``others`` are the cards still in
    the other hands as far as the player can tell."""
    ours = pair_tricks[seat % 2]
    want = wants_trick(ours, sum(pair_tricks))
    if not trick.cards:
        return lead(cards, want, others)
    return follow(seat, trick, cards, want)


def lead(cards: list[Card], want: bool, others: set[Card]) -> Card:
    if not want:
        plain = [c for c in cards if RULES.suit[c] != TRUMP] or cards
        return min(plain, key=lambda c: RULES.power[c])
    masters = [c for c in cards if is_master(c, others)]
    if masters:
        return max(masters, key=lambda c: strength(c, None))
    # nothing sure: lead low and keep the high cards for later
    return min(cards, key=lambda c: strength(c, None))


def follow(seat: int, trick: Trick, cards: list[Card], want: bool) -> Card:
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
        if partner_wins and (last or best >= STRONG):
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


#: a partner's card this strong (a jack of hearts or better) is left to win alone
STRONG = 100 + RULES.power[TEXT_CARD["JH"]]


class TrinkaHeuristic:
    name = "heuristic"

    def choose(self, observation: Mapping[str, Any], legal: list[str],
               rng: random.Random) -> str:
        obs = observation
        if len(legal) == 1:
            return legal[0]
        cards = [TEXT_CARD[a[5:]] for a in legal]
        hand = [TEXT_CARD[t] for t in obs["hand"]]
        a, b = obs["pair_tricks"]
        c = choose_card(obs["seat"], cards, hand, current(obs), (a, b), unseen(obs, hand))
        return PLAY_TEXT[c]


def rollout(state: DealState, rng: random.Random) -> None:
    """Play a sampled deal to its end as the heuristic would (with a little noise); the
    players see the sampled hands, which is close enough for a playout."""
    assert isinstance(state, TrinkaDeal)
    st = state
    while not st.is_over:
        seat = st.to_move
        assert seat is not None
        legal = st.legal_actions()
        if len(legal) == 1 or rng.random() < NOISE:
            st.apply(legal[rng.randrange(len(legal))])
            continue
        others = {c for s in range(4) if s != seat for c in st.hands[s]}
        cards = [TEXT_CARD[a[5:]] for a in legal]
        st.apply(PLAY_TEXT[choose_card(seat, cards, st.hands[seat], st.trick,
                                       st.pair_tricks(), others)])


def make(game: str, level: str | None) -> TrinkaHeuristic:
    return TrinkaHeuristic()
