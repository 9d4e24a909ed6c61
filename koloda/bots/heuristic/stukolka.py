"""Stukolka heuristic: knock on a hand likely to take a trick, then take every trick it can.

Knocking risks a remiz (the whole pot) to win thirds of it, so the bot rates each card by
its chance to take a trick (the trump ace always does; high trumps and plain aces often),
and knocks when a third of the expected tricks about outweighs the chance of taking none —
with a stricter bar for every player expected in, and always when it is the last to declare and
nobody is in (a lone player takes the pot without play). It never takes the golets: three
unseen cards and the duty to play are a remiz more often than not. In play every trick is
worth the same third, so it wins whenever it can, as cheaply as is safe.

The same choices, read straight off a sampled deal, are the search bot's rollout policy
(``rollout``, used by koloda/bots/search/games/stukolka.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from koloda.cards import ACE, CARD_TEXT, JACK, KING, QUEEN, TEXT_CARD, Card, deck, rank_of, suit_of
from koloda.engine.deal import DealState
from koloda.games.stukolka import RULES_BY_TRUMP, StukolkaDeal
from koloda.tricks import PLAY_TEXT, Trick, TrickRules

#: a trump's chance to take a trick by rank (ace, king, queen, jack, lower)
TRUMP_VALUE = {ACE: 1.0, KING: 0.8, QUEEN: 0.6, JACK: 0.45}
LOW_TRUMP = 0.3
PLAIN_VALUE = {ACE: 0.6, KING: 0.3}
#: each further player in makes every card but the trump ace a little less likely to hold
CROWD = 0.85
#: how often a rollout player does something unexpected (a random legal action)
NOISE = 0.1
#: knock when the expected gain (in pots) is above this: the chances above are cautious, and
#: in play a bar a little below zero kept the bot's own money level and took more from
#: tighter players (measured against the bar at 0 on 600 duplicate deal-sets)
KNOCK_BAR = -0.15
#: the heuristic's own bar on a fresh pot (no more than the ante in it): the remiz is then
#: only the ante, the others' loose knocks (a random player's) leave tricks to take, and a
#: bar lower still kept more money than KNOCK_BAR against random on 200 duplicate deal-sets
#: (seeds 10001..10200, 4 to 7 players, single deals and matches); on a pot swollen by
#: remizes the cautious bar holds, for there a loose knock risks the whole swollen pot
FRESH_BAR = -0.4


def trick_chances(hand: Sequence[Card], trump: int, players_in: int) -> list[float]:
    """Each card's rough chance to take a trick against ``players_in`` others."""
    out = []
    for c in hand:
        if suit_of(c) == trump:
            v = TRUMP_VALUE.get(rank_of(c), LOW_TRUMP)
        else:
            v = PLAIN_VALUE.get(rank_of(c), 0.0)
        if v < 1.0:
            v *= CROWD ** max(0, players_in - 1)
        out.append(v)
    return out


def knock_worth(hand: Sequence[Card], trump: int, players_in: int) -> float:
    """Expected gain of knocking in pots: a third per expected trick, less the chance of a
    remiz (no trick at all) times the whole pot."""
    chances = trick_chances(hand, trump, players_in)
    none = 1.0
    for v in chances:
        none *= 1.0 - v
    return sum(chances) / 3 - none


def declare(hand: Sequence[Card], trump: int, declared: Sequence[str | None], seat: int,
            dealer: int, bar: float = KNOCK_BAR) -> str:
    n = len(declared)
    playing = sum(d in ("knock", "golets") for d in declared)
    if seat == dealer and playing == 0:
        return "knock"            # alone: the whole pot, no play, no remiz
    still = (dealer - seat) % n   # those still to declare may come in too: count half
    expected_in = max(1, round(playing + still / 2))
    return "knock" if knock_worth(hand, trump, expected_in) > bar else "drop"


def strength(rules: TrickRules, c: Card, led: int | None) -> int:
    s = suit_of(c)
    if s == rules.trump:
        return 100 + rank_of(c)
    if led is None or s == led:
        return rank_of(c)
    return -1


def choose_card(rules: TrickRules, cards: Sequence[Card], trick: Trick, in_play: int,
                unseen: set[Card] | None) -> Card:
    """Lead: a card nothing out can beat (trump first), else the lowest plain card. Follow:
    the cheapest card that takes the trick — when others are still to play, the cheapest
    one nothing out can beat, if any — else the lowest card, keeping trumps."""

    def master(c: Card) -> bool:
        if unseen is None:
            return rank_of(c) == ACE
        return not any(suit_of(o) == suit_of(c) and rank_of(o) > rank_of(c) for o in unseen)

    trump = rules.trump
    if not trick.cards:
        trumps = [c for c in cards if suit_of(c) == trump]
        plain = [c for c in cards if suit_of(c) != trump]
        masters = [c for c in trumps if master(c)] or [c for c in plain if master(c)]
        if masters:
            return max(masters, key=rank_of)
        return min(plain or trumps, key=rank_of)
    led = trick.led
    best = max(strength(rules, c, led) for c in trick.cards)
    winners = sorted((c for c in cards if strength(rules, c, led) > best),
                     key=lambda c: strength(rules, c, led))
    if not winners:
        return min(cards, key=lambda c: (suit_of(c) == trump, rank_of(c)))
    if len(trick.cards) == in_play - 1:
        return winners[0]
    return next((c for c in winners if master(c)), winners[0])


class StukolkaHeuristic:
    name = "heuristic"

    def choose(self, observation: Mapping[str, Any], legal: list[str],
               rng: random.Random) -> str:
        obs = observation
        if len(legal) == 1:
            return legal[0]
        trump_card = TEXT_CARD[obs["trump_card"]]
        hand = [TEXT_CARD[t] for t in obs["hand"]]
        if obs["phase"] == "declare":
            bar = FRESH_BAR if obs["pot"] <= obs["ante"] else KNOCK_BAR
            return declare(hand, suit_of(trump_card), obs["declared"], obs["seat"],
                           obs["dealer"], bar)
        rules = RULES_BY_TRUMP[suit_of(trump_card)]
        played = {TEXT_CARD[t] for tr in obs["tricks_played"] for _, t in tr["cards"]}
        played.update(TEXT_CARD[t] for _, t in obs["trick"])
        unseen = set(deck(obs["deck_size"])) - played - set(hand) - {trump_card}
        trick = Trick(obs["leader"])
        for s, t in obs["trick"]:
            trick.add(rules, s, TEXT_CARD[t])
        cards = [TEXT_CARD[a.split()[1]] for a in legal]
        return "play " + CARD_TEXT[choose_card(rules, cards, trick, len(obs["in_play"]),
                                               unseen)]


def rollout(state: DealState, rng: random.Random, bar: float = KNOCK_BAR) -> None:
    """Play a sampled deal to its end as the heuristic would (with a little noise),
    knocking above ``bar``."""
    assert isinstance(state, StukolkaDeal)
    st = state
    trump = suit_of(st.trump_card)
    while not st.is_over:
        seat = st.to_move
        assert seat is not None
        legal = st.legal_actions()
        if len(legal) == 1 or rng.random() < NOISE:
            st.apply(legal[rng.randrange(len(legal))])
            continue
        if st.phase == "declare":
            st.apply(declare(st.hands[seat], trump, st.declared, seat, st.dealer, bar))
            continue
        cards = [TEXT_CARD[a[5:]] for a in legal]
        st.apply(PLAY_TEXT[choose_card(st.rules, cards, st.trick, len(st.in_play), None)])


def make(game: str, level: str | None) -> StukolkaHeuristic:
    return StukolkaHeuristic()
