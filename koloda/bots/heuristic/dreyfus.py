"""Dreyfus heuristic: buy only to make a void worth ruffing into, then take every trick.

A deal is worth tricks − 4 − cards bought to a player (``DreyfusDeal.payoffs``), so a
card bought must bring a whole trick back. An average card from the widow brings about a
third of one; what can bring more is a void in a side suit when the hand is long in
trumps — so the bot discards a short low side suit when it holds five trumps or more, and
otherwise stands. In play every trick is one point: cash the cards nothing out can beat
(trumps first, to draw the others' trumps), take a trick as cheaply as is safe, and throw
the lowest card when it cannot.

The same choices, read straight off a sampled deal, are the search bot's rollout policy
(``rollout``, used by koloda/bots/search/games/dreyfus.py with ``exchange_candidates``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from koloda.cards import CARD_TEXT, NINE, SUITS, TEXT_CARD, Card, rank_of, suit_of
from koloda.engine.deal import DealState
from koloda.games.dreyfus import DECK, RULES, DreyfusDeal
from koloda.tricks import PLAY_TEXT, Trick, TrickRules

#: trumps needed before a void is worth buying for
LONG_TRUMPS = 5
#: how often a rollout player plays a random card
NOISE = 0.1
#: the trick rules of each trump (None: no trump)
RULES_BY_TRUMP: dict[int | None, TrickRules] = {t: RULES.with_trump(t) for t in (None, *range(4))}


def exchange_choice(hand: Sequence[Card], trump: int | None, widow: int) -> list[Card]:
    """The cards to discard (none: stand): the shortest low side suit, when long in trumps
    and the widow holds enough."""
    if trump is None:
        return []
    if sum(1 for c in hand if suit_of(c) == trump) < LONG_TRUMPS:
        return []
    best: list[Card] = []
    for s in range(4):
        if s == trump:
            continue
        cards = [c for c in hand if suit_of(c) == s]
        if cards and len(cards) <= 2 and len(cards) <= widow \
                and all(rank_of(c) <= NINE for c in cards) \
                and (not best or len(cards) < len(best)):
            best = cards
    return sorted(best)


def strength(rules: TrickRules, c: Card, led: int | None) -> int:
    s = suit_of(c)
    if rules.trump is not None and s == rules.trump:
        return 100 + rank_of(c)
    if led is None or s == led:
        return rank_of(c)
    return -1


def choose_card(rules: TrickRules, cards: Sequence[Card], hand: Sequence[Card],
                trick: Trick, unseen: set[Card] | None) -> Card:
    """Lead: a trump nothing out can beat while the others may hold trumps, else any card
    nothing out can beat, else low from the longest side suit. Follow: last to play, the
    cheapest winner; second, the cheapest winner nothing out can beat, else low."""
    trump = rules.trump

    def master(c: Card) -> bool:
        if unseen is None:
            return rank_of(c) == 12
        return not any(suit_of(o) == suit_of(c) and rank_of(o) > rank_of(c) for o in unseen)

    if not trick.cards:
        masters = [c for c in cards if master(c)]
        trumps_out = unseen is None or any(suit_of(o) == trump for o in unseen)
        if trump is not None and trumps_out:
            mt = [c for c in masters if suit_of(c) == trump]
            if mt:
                return max(mt, key=rank_of)
        side = [c for c in masters if suit_of(c) != trump]
        if side:
            return max(side, key=rank_of)
        plain = [c for c in cards if suit_of(c) != trump] or list(cards)
        length = {s: sum(1 for c in hand if suit_of(c) == s) for s in range(4)}
        return min(plain, key=lambda c: (-length[suit_of(c)], rank_of(c)))
    led = trick.led
    best = max(strength(rules, c, led) for c in trick.cards)
    winners = sorted((c for c in cards if strength(rules, c, led) > best),
                     key=lambda c: strength(rules, c, led))
    low = min(cards, key=lambda c: (strength(rules, c, led) >= 100, rank_of(c)))
    if not winners:
        return low
    if len(trick.cards) == 2:
        return winners[0]
    safe = [c for c in winners if master(c) or strength(rules, c, led) >= 100]
    return safe[0] if safe else low


def view(obs: Mapping[str, Any]) -> tuple[TrickRules, list[Card], Trick, set[Card]]:
    """The trick rules, hand, trick and the cards still unseen, from an observation."""
    trump = None if obs["trump"] is None else SUITS.index(obs["trump"])
    rules = RULES_BY_TRUMP[trump]
    hand = [TEXT_CARD[t] for t in obs["hand"]]
    trick = Trick(obs["leader"])
    for s, t in obs["trick"]:
        trick.add(rules, s, TEXT_CARD[t])
    seen = {TEXT_CARD[t] for tr in obs["tricks_played"] for _, t in tr["cards"]}
    seen.update(trick.cards)
    seen.update(TEXT_CARD[t] for t in obs["my_discards"])
    return rules, hand, trick, set(DECK) - seen - set(hand)


class DreyfusHeuristic:
    name = "heuristic"

    def choose(self, observation: Mapping[str, Any], legal: list[str],
               rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        rules, hand, trick, unseen = view(observation)
        if observation["phase"] == "exchange":
            out = exchange_choice(hand, rules.trump, observation["widow_size"])
            return discard_text(out)
        cards = [TEXT_CARD[a[5:]] for a in legal]
        return PLAY_TEXT[choose_card(rules, cards, hand, trick, unseen)]


def discard_text(cards: Sequence[Card]) -> str:
    return "discard " + " ".join(CARD_TEXT[c] for c in sorted(cards)) if cards else "stand"


def rollout(state: DealState, rng: random.Random) -> None:
    """Play a sampled deal to its end as the heuristic would (with a little noise)."""
    assert isinstance(state, DreyfusDeal)
    st = state
    while not st.is_over:
        seat = st.to_move
        assert seat is not None
        if st.phase == "exchange":
            st.buy(exchange_choice(st.hands[seat], st.rules.trump, len(st.widow)))
            continue
        legal = st.legal_actions()
        if len(legal) == 1 or rng.random() < NOISE:
            st.apply(legal[rng.randrange(len(legal))])
            continue
        cards = [TEXT_CARD[a[5:]] for a in legal]
        st.apply(PLAY_TEXT[choose_card(st.rules, cards, st.hands[seat], st.trick, None)])


def exchange_candidates(hand: Sequence[Card], trump: int | None, widow: int) -> list[list[Card]]:
    """Stand; the heuristic's choice; each short (≤ 2) low side suit; each single low card."""
    out: list[list[Card]] = [[], exchange_choice(hand, trump, widow)]
    for s in range(4):
        if s == trump:
            continue
        cards = sorted(c for c in hand if suit_of(c) == s)
        if 0 < len(cards) <= min(2, widow):
            out.append(cards)
    out.extend([c] for c in sorted(hand) if rank_of(c) <= NINE and suit_of(c) != trump)
    unique: list[list[Card]] = []
    for cand in out:
        if cand not in unique:
            unique.append(cand)
    return unique


def make(game: str, level: str | None) -> DreyfusHeuristic:
    return DreyfusHeuristic()
