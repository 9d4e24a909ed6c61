"""A faster heuristic rollout for the shakhi variant, the same cards played.

``koloda.bots.heuristic.opendaum.rollout`` plays classic Opendaum on int cards and masks
(``_play_out_plain``) but every other variant through the deal state (``rollout_by_state``:
its ``legal_actions`` and ``apply_unchecked`` at every card), which made a shakhi decision
of ``search:normal`` cost about 2.5× a classic one. ``rollout`` here plays the shakhi
variant's cards without the deal state: the legal plays of its rule
(``OpendaumShakhiPolicy``: no trump lead while holding a plain card; void in a plain lead,
a trump only when holding nothing else, if so ruled; a shakha always, plain or wild) worked
out on int cards in the order ``TrickRules.plays`` gives them, the heuristic's choice by
``play_index`` on (card, mode) pairs, the trick kept as it fills. The heuristic is
deterministic, so the deal plays out exactly as through the state
(tests/test_opendaum_search_rollout.py compares hands, tricks, taken cards and payoffs);
every other variant is left to the heuristic module's ``rollout``.
"""

from __future__ import annotations

import random
from typing import Any

from koloda.bots.heuristic.opendaum import (
    BIT,
    _best_key,
    bid_for,
    mask,
    play_index,
)
from koloda.bots.heuristic.opendaum import (
    rollout as heuristic_rollout,
)
from koloda.games.opendaum.deal import BID, OVER
from koloda.tricks import PLAIN, WILD, OpendaumShakhiPolicy, Trick, TrickRules

Play = tuple[int, str | None]
#: a plain play of each card, and a shakha's two plays (plain first, as the rules order them)
_PLAIN: tuple[Play, ...] = tuple((c, None) for c in range(52))
_SHAKHA: tuple[tuple[Play, Play], ...] = tuple(((c, PLAIN), (c, WILD)) for c in range(52))


def is_shakhi(rules: TrickRules) -> bool:
    """The rules this rollout plays: the shakhi variant's (its policy, its shakhi, no
    mushka)."""
    return isinstance(rules.policy, OpendaumShakhiPolicy) and not rules.mushka


def rollout(state: Any, rng: random.Random | None = None) -> None:
    """``koloda.bots.heuristic.opendaum.rollout``, the shakhi variant's card play without
    the deal state (``play_out_shakhi``); the same deal played out."""
    rules = state.rules
    if not is_shakhi(rules):
        heuristic_rollout(state, rng)
        return
    players = state.players
    while state.phase == BID:
        legal = state.legal_actions()
        seat = state.to_move
        state.apply_unchecked(bid_for(state.hands[seat], rules, players, legal)
                              if len(legal) > 1 else legal[0])
    if not state.is_over:
        play_out_shakhi(state)


def shakhi_plays(rules: TrickRules, ruff_only: bool, hand: list[int],
                 led: int | None) -> list[Play]:
    """``TrickRules.plays`` of the shakhi variant as (card, mode) pairs, in card order:
    ``led`` None for a lead."""
    suit, shakhi, trump = rules.suit, rules.shakhi, rules.trump
    cards = sorted(hand)
    ok: list[int] = []
    if led is not None:
        ok = [c for c in cards if suit[c] == led and c not in shakhi]
    if not ok:
        duty = [c for c in cards if c not in shakhi]
        plain = [c for c in duty if suit[c] != trump]
        if led is None:
            ok = plain if plain and len(plain) < len(duty) else duty
        elif len(plain) == len(duty):         # no trump: any card
            ok = duty
        else:
            ok = plain if ruff_only and plain else [c for c in duty if suit[c] == trump]
    if shakhi.isdisjoint(cards):
        return [_PLAIN[c] for c in ok]
    allowed = set(ok)
    out: list[Play] = []
    for c in cards:
        if c in shakhi:
            out.extend(_SHAKHA[c])
        elif c in allowed:
            out.append(_PLAIN[c])
    return out


def play_out_shakhi(state: Any) -> None:
    """The card play of ``rollout_by_state`` for the shakhi variant, on int cards and
    masks: at the end the state is over with its hands empty, each seat's tricks and
    taken cards counted and the trick on the table empty; its completed tricks
    (``played``, ``last_trick``) are not recorded — nothing reads them after a playout."""
    rules, n = state.rules, state.players
    policy = rules.policy
    assert isinstance(policy, OpendaumShakhiPolicy)
    ruff_only = policy.ruff_only_when_only_trumps
    nxt = state.next_seat
    bids, tricks, taken = state.bids, state.tricks, state.taken
    hands = state.hands                         # the state's own lists: emptied here
    hm = [mask(h) for h in hands]
    alive = mask(state.stock[1:])
    for m in hm:
        alive |= m
    trick: Trick = state.trick.copy()
    seat = state.to_move
    while True:
        hand = hands[seat]
        plays = shakhi_plays(rules, ruff_only, hand, trick.led if trick.cards else None)
        if len(plays) == 1:
            c, mode = plays[0]
        else:
            k = len(trick.cards)
            need = (bids[seat] or 0) - tricks[seat]
            c, mode = plays[play_index(rules, hand, plays, k, trick.led,
                                       _best_key(rules, trick) if k else -1, need,
                                       alive & ~hm[seat], n)]
        hand.remove(c)
        b = ~BIT[c]
        hm[seat] &= b
        alive &= b
        trick.add(rules, seat, c, mode)
        if len(trick.cards) < n:
            seat = nxt[seat]
            continue
        win = trick.winner(rules)
        tricks[win] += 1
        taken[win].extend(trick.cards)
        trick = Trick(win)
        if not hands[win]:
            break
        seat = win
    state.trick = trick
    state.to_move, state.is_over, state.phase, state._legal = None, True, OVER, None
