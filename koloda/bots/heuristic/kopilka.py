"""Kopilka heuristic: shed fast, take the dear tricks cheaply, never pay a needless remiz.

The first to shed his cards pays no fee (and in the 4th deal takes the pot), so every card
played is progress and every card drawn a step back. The leader always plays a card, so
winning a trick is doubly good: it pays, and it gives the lead. So the bot:

- in the exchange picks the last free position (the highest card of the offered suit) and
  throws the card it needs least (a low card of its longest suit; never AS);
- on lead plays a card nobody can beat in the dearest suit the others can still follow,
  else a low card of a suit they can follow (a lead nobody answers is taken back);
- answering, plays its last card whenever it may (that ends the deal in its favour), puts
  AS on a dear trick (hearts: double value) or when it holds the lead suit no more, takes
  the trick with the cheapest card that surely wins it, else plays its lowest card of the
  suit; never passes holding the suit (a remiz); void in it, draws while the talon lasts.

Drawing looks like a step back (a card more to shed), but measured against the earlier rule
(draw only with no trick yet, for a trick worth 3 or more, when the talon likely gives the
suit) it is far better: +2.15 [+1.84, +2.46] money a deal between heuristic players (300
single deals, each rule in both seat pairs on the same cards; +1.11 [+0.64, +1.58] a deal
over whole matches; docs/strength/kopilka.md). A drawn card of the suit may shed at once
and take the trick, and a talon drawn dry cannot help the others. Holding AS, a player void
in the led suit still plays it (AS may go on any trick): drawing instead measured no better
in single deals (+0.08 [−0.06, +0.22] for playing it) and worse over matches (+0.36 [+0.14,
+0.57] for playing it).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from koloda.cards import ACE, CARD_TEXT, SPADES, SUITS, TEXT_CARD, Card, card, rank_of, suit_of
from koloda.games.kopilka.table import PLAYERS

ACE_OF_SPADES = card(ACE, SPADES)
SUIT = tuple(suit_of(c) for c in range(52))
RANK = tuple(rank_of(c) for c in range(52))
DECK32 = tuple(c for c in range(52) if RANK[c] >= 5)


def pick_position(free: list[int]) -> int:
    """The last free position: the offered cards lie in rank order, highest last."""
    return max(free)


def discard_choice(hand: Sequence[Card]) -> Card:
    """The card needed least: never AS; a low card of the longest suit first."""
    count = [0, 0, 0, 0]
    for c in hand:
        count[SUIT[c]] += 1
    cands = [c for c in hand if c != ACE_OF_SPADES] or list(hand)
    return max(cands, key=lambda c: (count[SUIT[c]], -RANK[c]))


def lead_card(hand: Sequence[Card], cards: Sequence[Card], others: Iterable[Card],
              voids: Sequence[Iterable[int]], seat: int, values: Sequence[int]) -> Card:
    """What to lead from ``cards`` (the legal leads)."""
    top = [-1, -1, -1, -1]          # the highest rank of each suit still unseen
    left = [0, 0, 0, 0]             # unseen cards of each suit
    for o in others:
        s = SUIT[o]
        left[s] += 1
        if RANK[o] > top[s]:
            top[s] = RANK[o]
    mushka_out = ACE_OF_SPADES in others

    def answered(s: int) -> bool:
        """Somebody may follow a lead of ``s``: cards of it are out, not all void."""
        return left[s] > 0 and any(s not in voids[x] for x in range(PLAYERS) if x != seat)

    plain = [c for c in cards if c != ACE_OF_SPADES] or list(cards)
    masters = [c for c in plain if RANK[c] > top[SUIT[c]] and answered(SUIT[c])]
    if masters:
        # the dearest sure trick; AS out may still take a dear one, so prefer it cheaper
        return max(masters, key=lambda c: (values[SUIT[c]] * (0.5 if mushka_out and
                                                              SUIT[c] != SPADES else 1),
                                           -RANK[c]))
    count = [0, 0, 0, 0]
    for c in hand:
        count[SUIT[c]] += 1
    followed = [c for c in plain if answered(SUIT[c])] or plain
    # a low card of the suit we hold most of: it sheds, and we keep the others' suits
    return min(followed, key=lambda c: (-count[SUIT[c]], RANK[c]))


def answer(hand: Sequence[Card], legal: Sequence[str], trick_cards: Sequence[Card],
           led: int, after: int, unseen: Callable[[], list[Card]], won_any: bool,
           value: int) -> str:
    """What to answer a trick led in ``led`` with: a ``play``, ``pass`` or ``draw``.

    ``after``: responders still to act after us; ``value``: what the trick pays;
    ``unseen()``: the cards not seen go (asked for only when needed: it costs).
    """
    plays = [a for a in legal if a.startswith("play")]
    cards = [TEXT_CARD[a[5:]] for a in plays]
    if not cards:       # void in the led suit: draw while the talon lasts
        return "draw" if "draw" in legal else "pass"
    if len(hand) == 1:
        return "play " + CARD_TEXT[cards[0]]     # the last card: shed and end the deal
    mushka_down = ACE_OF_SPADES in trick_cards
    suited = [c for c in cards if SUIT[c] == led and c != ACE_OF_SPADES]
    if ACE_OF_SPADES in cards and not mushka_down and (
            value >= 4 or not suited or (not won_any and value >= 2)):
        return "play " + CARD_TEXT[ACE_OF_SPADES]
    if not suited:
        return "play " + CARD_TEXT[cards[0]]
    if mushka_down:
        return "play " + CARD_TEXT[min(suited, key=lambda c: RANK[c])]
    best = max(RANK[c] for c in trick_cards if SUIT[c] == led)
    winners = [c for c in suited if RANK[c] > best]
    if winners:
        if after == 0:
            return "play " + CARD_TEXT[min(winners, key=lambda c: RANK[c])]
        top = max((RANK[o] for o in unseen() if SUIT[o] == led), default=-1)
        sure = [c for c in winners if RANK[c] > top]
        if sure:
            return "play " + CARD_TEXT[min(sure, key=lambda c: RANK[c])]
    return "play " + CARD_TEXT[min(suited, key=lambda c: RANK[c])]


def unseen_of(seat_cards: Iterable[Card], gone: Iterable[Card]) -> list[Card]:
    """The 32-card deck less what a seat holds or has seen go."""
    known = set(seat_cards) | set(gone)
    return [c for c in DECK32 if c not in known]


class KopilkaHeuristic:
    name = "heuristic"

    def choose(self, observation: Mapping[str, Any], legal: list[str],
               rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        obs = observation
        seat = obs["seat"]
        hand = [TEXT_CARD[t] for t in obs["hand"]]
        if legal[0].startswith("pick"):
            return f"pick {pick_position([int(a.split()[1]) for a in legal])}"
        if legal[0].startswith("discard"):
            return "discard " + CARD_TEXT[discard_choice(hand)]
        gone = [TEXT_CARD[p[1]] for t in obs["tricks_played"] for p in t]
        gone += [TEXT_CARD[t] for t in obs["my_discards"]]
        trick = obs["trick"]
        gone += [TEXT_CARD[p[1]] for p in trick["cards"]]
        others = unseen_of(hand, gone)      # the shown cards are among them
        values = [obs["values"][s] for s in SUITS]
        voids = [[SUITS.index(v) for v in vs] for vs in obs["voids"]]
        if not trick["cards"]:
            cards = [TEXT_CARD[a[5:]] for a in legal]
            return "play " + CARD_TEXT[lead_card(hand, cards, others, voids, seat, values)]
        led = SUITS.index(trick["led"])
        acted = len(trick["cards"]) - 1 + len(trick["passes"])
        after = PLAYERS - 2 - acted
        trick_cards = [TEXT_CARD[p[1]] for p in trick["cards"]]
        value = values[led] * (2 if ACE_OF_SPADES in trick_cards else 1)
        return answer(hand, legal, trick_cards, led, after, lambda: others,
                      bool(obs["tricks"][seat]), value)


def make(game: str, level: str | None) -> KopilkaHeuristic:
    return KopilkaHeuristic()


# ------------------------------------------------------------ inside a full deal (search)
def policy(state: Any) -> str:
    """The heuristic's action for the seat to move of a full ``KopilkaDeal`` (the
    search's playouts), what that seat has not seen read off the state."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return str(legal[0])
    seat = state.to_move
    hand = state.hands[seat]
    if state.offer is not None:
        if state.offer.step == "pick":
            return f"pick {pick_position([int(a.split()[1]) for a in legal])}"
        return "discard " + CARD_TEXT[discard_choice(hand)]
    trick = state.trick

    def others() -> list[Card]:
        """The cards this seat has not seen go (the shown ones lie in other hands)."""
        out = set(state.seen)
        for s in range(PLAYERS):
            if s != seat:
                out.difference_update(state.shown[s])
        out.update(hand)
        out.update(state.discards[seat])
        return [c for c in DECK32 if c not in out]

    if not trick.cards:
        cards = [TEXT_CARD[a[5:]] for a in legal]
        return "play " + CARD_TEXT[lead_card(hand, cards, others(), state.voids, seat,
                                             state.values)]
    led = trick.led
    after = PLAYERS - 2 - state.acted
    value = state.values[led] * (2 if ACE_OF_SPADES in trick.cards else 1)
    return answer(hand, legal, trick.cards, led, after, others, bool(state.won[seat]),
                  value)


def rollout(state: Any, rng: random.Random | None = None) -> None:
    """Play the deal out with the heuristic in every seat."""
    while not state.is_over:
        state.apply_unchecked(policy(state))   # every action comes from the rules: no re-check
