"""The other seats' bids and plays as evidence, counted only as far as a caller needs.

``misfits_below(state, seat, cap)`` is ``koloda.bots.heuristic.opendaum.misfits`` that
stops counting at ``cap``: a search resampling its deals (``OpendaumSearch.resample``)
only needs to know whether a draw misfits fewer times than its acceptance threshold and
than the best draw so far, and most draws misfit early (a bid, the first trick), so the
replay of the rest of the deal is skipped. Below the cap it returns exactly ``misfits``
(tests/test_opendaum_search_resample.py). The shakhi variant's plays are worked out on
int cards (``opendaum_rollout.shakhi_plays``), the same plays faster.
"""

from __future__ import annotations

from typing import Any

from koloda.bots.heuristic.opendaum import BIT, _best_key, bid_for, mask, play_card, play_index
from koloda.bots.search.games.opendaum_rollout import is_shakhi, shakhi_plays
from koloda.games.opendaum.deal import BID_TEXT
from koloda.tricks import PLAY_ACTION, Trick


def misfits_below(state: Any, seat: int, cap: float) -> int:
    """``misfits(state, seat)`` if it is below ``cap``, else some count ≥ ``cap`` (the
    count when it reached the cap)."""
    rules, n = state.rules, state.players
    dealt = state.deal.hands
    miss = 0
    bids = state.bids
    order = [(state.dealer + 1 + i) % n for i in range(n)]     # the dealer bids last
    size = len(dealt[0])
    hook = getattr(state, "hook", False)
    total = 0
    for s in order:
        b = bids[s]
        if b is None:
            break
        if s != seat:
            legal = BID_TEXT[:size + 1]
            if hook and s == state.dealer and 0 <= size - total <= size:
                legal = tuple(t for i, t in enumerate(legal) if i != size - total)
            if bid_for(sorted(dealt[s]), rules, n, legal) != BID_TEXT[b]:
                miss += 1
                if miss >= cap:
                    return miss
        total += b
    if not state.played and not state.trick.cards:
        return miss
    shakhi = is_shakhi(rules)
    ruff_only = shakhi and rules.policy.ruff_only_when_only_trumps
    hands = [sorted(h) for h in dealt]
    hm = [mask(h) for h in hands]
    alive = mask(state.deal.stock[1:])
    for m in hm:
        alive |= m
    tricks = [0] * n
    for done in (*state.played, state.trick):
        trick = Trick(done.leader)
        modes = done.modes
        for i, (s, c) in enumerate(zip(done.seats, done.cards, strict=True)):
            mode = modes[i]
            if s != seat:
                need = (bids[s] or 0) - tricks[s]
                if shakhi:      # on (card, mode) pairs, as the shakhi rollout plays
                    k = len(trick.cards)
                    plays = shakhi_plays(rules, ruff_only, hands[s],
                                         trick.led if k else None)
                    missed = len(plays) > 1 and plays[play_index(
                        rules, hands[s], plays, k, trick.led,
                        _best_key(rules, trick) if k else -1, need, alive & ~hm[s], n)
                    ] != (c, mode)
                else:
                    legal = rules.plays(hands[s], trick)
                    missed = len(legal) > 1 and PLAY_ACTION[play_card(
                        rules, hands[s], legal, trick, need, alive & ~hm[s], n)] != (c, mode)
                if missed:
                    miss += 1
                    if miss >= cap:
                        return miss
            hands[s].remove(c)
            hm[s] &= ~BIT[c]
            alive &= ~BIT[c]
            trick.add(rules, s, c, mode)
        if len(trick.cards) == n:
            tricks[trick.winner(rules)] += 1
    return miss
