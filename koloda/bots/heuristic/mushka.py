"""Mushka heuristic: take tricks, and never stay in a deal you cannot take one in.

A trick lowers the count by 1 (good); staying in without one raises it by 5; passing
leaves it alone. So the exchange is a bet: the bot rates each card by its chance of taking
a trick (trumps by rank, side aces, guarded side kings; fewer opponents, better chances),
rates a card drawn blind by the unseen cards' mean, and picks whichever of stand, discard
the weakest k, or pass promises the most (tricks expected, minus 5 × the chance of none).
Last to choose with everybody else out, it stays: alone it takes all five tricks.

In play every trick is worth the same, so it wins tricks as cheaply as it can: a sure
winner (the top trump, or the top card of the led suit nobody after it can ruff), the
cheapest card that takes the trick when it plays last, else its cheapest card; on lead a
card that cannot lose, else a low card of a short side suit.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from koloda.cards import ACE, CARD_TEXT, KING, QUEEN, SUITS, TEXT_CARD, Card, deck, rank_of, suit_of
from koloda.engine.actions import cards_action
from koloda.games.mushka import (
    ACE_OF_SPADES,
    HAND,
    NO_TRICK_PENALTY,
    RULES_BY_TRUMP,
    deck_size,
)
from koloda.tricks import PLAY_ACTION, Trick

JACK = QUEEN - 1
#: the chance a card takes a trick against three opponents, before the play
TRUMP_P = {ACE: 0.97, KING: 0.85, QUEEN: 0.7, JACK: 0.6}
LOW_TRUMP_P = 0.45
SIDE_ACE_P = 0.7
SIDE_KING_P = 0.15
SIDE_P = 0.04
#: what passing is worth against the estimate of staying in (a hedge against optimism)
PASS_MARGIN = 1.0
#: the share of the players still to choose who are expected to stay in
UNDECIDED_SHARE = 0.75

SUIT = tuple(suit_of(c) for c in range(52))
RANK = tuple(rank_of(c) for c in range(52))


def card_chance(c: Card, trump: int, hand: Sequence[Card], opponents: int) -> float:
    """The chance ``c`` takes a trick, roughly; each opponent fewer makes it likelier."""
    s = SUIT[c]
    guarded = (s != trump and RANK[c] == KING
               and sum(SUIT[x] == s for x in hand) >= 2)
    return _chance(c, trump, opponents, guarded)


@cache
def _chance(c: Card, trump: int, opponents: int, guarded: bool) -> float:
    """``card_chance`` once the hand has told whether a side king is guarded (the search
    asks it millions of times: it is remembered)."""
    r = rank_of(c)
    if suit_of(c) == trump:
        p = TRUMP_P.get(r, LOW_TRUMP_P)
    elif r == ACE:
        p = SIDE_ACE_P
    elif r == KING:
        p = SIDE_KING_P if guarded else SIDE_KING_P / 2
    else:
        p = SIDE_P
    # against fewer opponents every card holds more often
    return 1 - (1 - p) ** (3 / max(1, opponents)) if opponents < 3 else p


def stay_worth(chances: Iterable[float]) -> float:
    """Tricks expected minus 5 × the chance of none, as if the chances were independent."""
    expected, none = 0.0, 1.0
    for p in chances:
        expected += p
        none *= 1 - p
    return min(expected, float(HAND)) - NO_TRICK_PENALTY * none


def unseen(obs: Mapping[str, Any]) -> list[Card]:
    """Cards this seat has not seen: other hands, other discards, the stock."""
    n = len(obs["hand_sizes"])
    seen = {TEXT_CARD[t] for t in obs["hand"]} | {TEXT_CARD[t] for t in obs["my_discards"]}
    seen.add(TEXT_CARD[obs["trump_card"]])
    for tr in obs["tricks_played"]:
        seen.update(TEXT_CARD[p[1]] for p in tr)
    seen.update(TEXT_CARD[p[1]] for p in obs["trick"])
    return [c for c in deck(deck_size(n)) if c not in seen]


def exchange_values(hand: list[Card], trump: int, most: int, can_pass: bool,
                    opponents: int, drawn: float) -> list[tuple[float, int]]:
    """What stand (0), discarding the weakest k (k ≤ ``most``) and pass (-1) promise, best
    first (``drawn``: the chance of a card drawn blind)."""
    chance = [card_chance(c, trump, hand, opponents) for c in hand]
    order = sorted(chance)
    out = [(stay_worth(order), 0)]
    for k in range(1, min(most, len(hand)) + 1):
        # a slight preference for what is known
        out.append((stay_worth(order[k:] + [drawn] * k) - 0.05 * k, k))
    if can_pass:
        out.append((PASS_MARGIN, -1))
    out.sort(key=lambda x: -x[0])
    return out


def weakest(hand: list[Card], trump: int, opponents: int, k: int) -> list[Card]:
    """The k cards least likely to take a trick."""
    return sorted(hand, key=lambda c: (card_chance(c, trump, hand, opponents), c))[:k]


def option_text(hand: list[Card], trump: int, opponents: int, k: int) -> str:
    if k == 0:
        return "stand"
    if k < 0:
        return "pass"
    return cards_action("discard", sorted(weakest(hand, trump, opponents, k)))


def exchange_options(hand: list[Card], trump: int, most: int, can_pass: bool,
                     opponents: int, drawn: float) -> list[tuple[float, str]]:
    """Stand, discard the weakest k, pass: each with what it promises, best first."""
    return [(v, option_text(hand, trump, opponents, k))
            for v, k in exchange_values(hand, trump, most, can_pass, opponents, drawn)]


def choose_exchange(hand: list[Card], trump: int, most: int, can_pass: bool,
                    opponents: int, drawn: float, alone_if_in: bool) -> str:
    """Whichever of stand, discard the weakest k or pass promises the most."""
    if alone_if_in:     # everybody else is out: alone the hand takes all five tricks
        return "stand"
    k = exchange_values(hand, trump, most, can_pass, opponents, drawn)[0][1]
    return option_text(hand, trump, opponents, k)


@cache
def drawn_chance(trump_card: Card, players: int, opponents: int) -> float:
    """The mean chance of a card drawn blind (every card but the turned one)."""
    trump = suit_of(trump_card)
    pool = [c for c in deck(deck_size(players)) if c != trump_card]
    return sum(card_chance(c, trump, (), opponents) for c in pool) / len(pool)


def exchange_view(choices: Sequence[str | None]) -> tuple[int, bool]:
    """(opponents to expect, alone if in) from the choices made so far by a chooser."""
    undecided = sum(c is None for c in choices) - 1
    staying = sum(c is not None and c != "pass" for c in choices)
    # those still to choose may stay in: count a share of them as opponents
    opponents = max(1, min(3, staying + round(undecided * UNDECIDED_SHARE + 0.01)))
    return opponents, staying == 0 and undecided == 0 and len(choices) > 1



def power(c: Card, trump: int, led: int | None) -> int:
    """How strongly ``c`` plays to a trick led in ``led``: trumps above all, off-suit -1."""
    s = SUIT[c]
    if s == trump:
        return 100 + RANK[c]
    if led is None or s == led:
        return RANK[c]
    return -1


def keep_value(c: Card, trump: int) -> int:
    """How much a card is worth keeping: trumps, then aces, then rank."""
    return (200 if SUIT[c] == trump else 0) + (50 if RANK[c] == ACE else 0) + RANK[c]


def play_card(hand: Sequence[Card], cards: list[Card], trick: Trick | None, trump: int,
              others: Iterable[Card], voids: Sequence[Iterable[int]],
              after: Sequence[int]) -> Card:
    """The card to play from ``cards`` (the legal ones).

    ``others``: the cards still unseen (in other hands, discards or the stock);
    ``after``: the seats still to play to this trick; ``voids``: suits shown lacking.
    """
    top = [-1, -1, -1, -1]      # the highest unseen rank of each suit
    for o in others:
        s = SUIT[o]
        if RANK[o] > top[s]:
            top[s] = RANK[o]
    trumps_out = top[trump] >= 0

    def sure(c: Card) -> bool:
        """Nobody can beat ``c`` now: no higher card of its suit unseen, and for a side
        card no player after us who may ruff it."""
        s = SUIT[c]
        if top[s] > RANK[c]:
            return False
        return s == trump or not trumps_out or not any(s in voids[x] for x in after)

    if trick is None or not trick.cards:
        masters = [c for c in cards if sure(c)]
        if masters:
            return max(masters, key=lambda c: power(c, trump, None))
        side = [c for c in cards if SUIT[c] != trump]
        if side:
            # a low card of the shortest side suit: it loses cheaply and makes a void
            count = [0, 0, 0, 0]
            for x in hand:
                count[SUIT[x]] += 1
            return min(side, key=lambda c: (count[SUIT[c]], RANK[c]))
        return min(cards, key=lambda c: RANK[c])
    led = trick.led
    best = max(power(c, trump, led) for c in trick.cards)
    winners = [c for c in cards if power(c, trump, led) > best]
    if winners:
        if not after:
            return min(winners, key=lambda c: power(c, trump, led))
        safe = [c for c in winners if sure(c)]
        if safe:
            return min(safe, key=lambda c: power(c, trump, led))
        if SUIT[winners[0]] == led:
            return max(winners, key=lambda c: RANK[c])
        return min(winners, key=lambda c: power(c, trump, led))
    return min(cards, key=lambda c: keep_value(c, trump))


class MushkaHeuristic:
    name = "heuristic"

    def choose(self, observation: Mapping[str, Any], legal: list[str],
               rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        obs = observation
        seat = obs["seat"]
        trump = SUITS.index(obs["trump"])
        hand = [TEXT_CARD[t] for t in obs["hand"]]
        if obs["phase"] == "exchange":
            opponents, alone = exchange_view(obs["choices"])
            most = min(HAND, obs["stock"], len(hand))
            drawn = drawn_chance(TEXT_CARD[obs["trump_card"]], len(obs["hand_sizes"]),
                                 opponents)
            return choose_exchange(hand, trump, most, "pass" in legal, opponents, drawn,
                                   alone)
        cards = [PLAY_ACTION[a][0] for a in legal]
        trick = None
        if obs["trick"]:
            rules = RULES_BY_TRUMP[trump]
            trick = Trick(obs["trick"][0][0])
            for s, t in obs["trick"]:
                trick.add(rules, s, TEXT_CARD[t])
        in_play = obs["in_play"]
        i = in_play.index(seat)
        played = len(trick) if trick else 0
        after = [in_play[(i + k) % len(in_play)] for k in range(1, len(in_play) - played)]
        voids = [[SUITS.index(v) for v in vs] for vs in obs["voids"]]
        c = play_card(hand, cards, trick, trump, unseen(obs), voids, after)
        return "play " + CARD_TEXT[c]


def make(game: str, level: str | None) -> MushkaHeuristic:
    return MushkaHeuristic()


# ------------------------------------------------------------ inside a full deal (search)
def policy(state: Any) -> str:
    """The heuristic's action for the seat to move of a full ``MushkaDeal`` (the search's
    playouts): the same choices, with what that seat has not seen read off the state."""
    seat = state.to_move
    hand = state.hands[seat]
    trump = state.rules.trump
    if state.phase == "exchange":
        opponents, alone = exchange_view(state.choices)
        most = min(HAND, len(state.stock), len(hand))
        drawn = drawn_chance(state.trump_card, state.players, opponents)
        return choose_exchange(hand, trump, most, ACE_OF_SPADES not in hand, opponents,
                               drawn, alone)
    legal = state.legal_actions()
    if len(legal) == 1:
        return str(legal[0])
    trick = state.trick
    cards = [PLAY_ACTION[a][0] for a in legal]
    others = state.all_cards.difference(hand, state.discards[seat], state.played,
                                        (state.trump_card,))
    in_play = state.in_play
    i = in_play.index(seat)
    after = [in_play[(i + k) % len(in_play)] for k in range(1, len(in_play) - len(trick))]
    return "play " + CARD_TEXT[play_card(hand, cards, trick, trump, others, state.voids,
                                         after)]


def rollout(state: Any, rng: random.Random | None = None) -> None:
    """Play the deal out with the heuristic in every seat."""
    while not state.is_over:
        state.apply_unchecked(policy(state))   # every action comes from the rules: no re-check
