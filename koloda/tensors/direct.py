"""The observation tensor written straight from a match's state, no observation made —
what the adapters use at every step for the games listed here (standard library only).

``Match.observation(seat)`` builds a typed view of some twenty fields, most of them
tuples made from the deal state's lists, and the typed encoder (koloda.tensors.typed)
then reads them back; for the games the adapters are benchmarked on, that is most of an
adapter's step. Here each game's deal-state class maps every field its tensor blocks read
to the expression its own ``observation(seat)`` uses for that field (``st`` the deal
state, ``seat`` the observer; a card set may be read unsorted, since a block writes it as
flags): the typed encoder's generated writer reads those expressions instead of a view's
attributes, so the same block writers write the same entries.

Hidden information: an expression reads only what the game's ``observation(seat)``
reads for that field — the observer's own hand, discards and the public state.
tests/test_tensors_direct.py checks that the tensor written here equals the one written
from ``observation(seat)`` for every seat at every step of many random matches of every
game listed, and the leak tests (swapping hidden cards) run through this path too.

A deal state not listed here (or a block whose field has no expression) is written from
the observation as before (``TypedEncoder.write_match``).
"""

from __future__ import annotations

from functools import cache
from itertools import compress
from typing import Any

from koloda.cards import suit_of

#: Each table maps a deal field, or ``sheet.`` and a field of the match's score sheet
#: (over ``m``, the match), to an expression.

#: the last voids ``opendaum_voids`` worked out: (deal state, its trick, completed tricks,
#: cards on the trick, the voids)
_VOIDS: list[tuple[Any, Any, int, int, Any]] = [(None, None, -1, -1, ())]


def opendaum_voids(st: Any) -> Any:
    """``OpendaumDeal._voids_view()``'s sets, unsorted and not copied into tuples (the
    voids block writes them as flags): the completed tricks' voids (kept by the deal
    state), with what the trick on the table shows — the view's own reading
    (``_read_voids``). The last answer is kept for its position (the seats' tensors are
    written in turn at the same position), and read on from when the same trick has
    grown (only the cards played since are read)."""
    t = st.trick
    n = len(t.cards)
    played = len(st.played)
    last_st, last_t, last_played, last_n, voids = _VOIDS[0]
    if last_st is st and last_t is t and last_played == played and last_n <= n:
        if last_n == n:
            return voids
        start = last_n                  # the same trick, grown: read its new cards
    else:
        voids, start = st._completed_voids(), 0
    reveals, seats, cards = st.rules.reveals, t.seats, t.cards
    out = None              # (copied only when the trick shows a void: seldom)
    for i in range(start, n):
        shown = reveals(t.led if i else None, cards[i])
        if shown:
            if out is None:
                out = list(voids)
            s = seats[i]
            out[s] = out[s] | shown
    if out is not None:
        voids = out
    _VOIDS[0] = (st, t, played, n, voids)
    return voids


#: what the expressions may call besides the state's own attributes and methods
ENV: dict[str, Any] = {"compress": compress, "suit_of": suit_of,
                       "opendaum_voids": opendaum_voids}

#: Durak (every variant): DurakGame.observation
DURAK: dict[str, Any] = {
    "phase": "st.phase",
    "hand": "st.hands[seat]",
    "hand_sizes": "map(len, st.hands)",
    "known_cards": "st.known",
    "table": "zip(st.attacks, st.covers)",
    "trump_card": "st.trump_card",
    "trump_suit": "st.trump",
    "trump_drawn_by": "st.trump_holder",
    "stock_size": "len(st.stock)",
    "discard": "st.discard",
    "attacker": "st.attacker",
    "defender": "st.defender",
    "taken": "st.taken",
    "passed": "st.passed",
    "limit": "st.limit",
    "in_game": "compress(range(P), st.in_game)",
    "teams": "(tuple(tuple(range(t, P, 2)) for t in (0, 1)) if st.teams else None)",
    "first_bout": "st.beaten_rounds == 0",
    "first_bout_limit": "st.first_bout_limit",
    # DurakMatch.sheet
    "sheet.losses": "m.losses",
    "sheet.games_played": "len(m.games)",
    "sheet.games": "m.options['games']",
}

#: Opendaum (every variant): OpendaumDeal.observation
OPENDAUM: dict[str, Any] = {
    "phase": "st.phase",
    "hand": "st.hands[seat]",
    "hand_sizes": "map(len, st.hands)",
    "deal_size": "st.size",
    "schedule_position": "st.position",
    "schedule_length": "st.schedule_length",
    "final_deal": "st.position == st.schedule_length - 1",
    "trump": "st.rules.trump",
    "trump_card": "st.trump_card",
    "trump_card_in_dealer_hand": "st.trump_in_hand",
    "bids": "st.bids",
    "forbidden_bid": "st.forbidden_bid()",
    "tricks_taken": "st.tricks",
    "leader": "st.trick.leader",
    "trick": "st.trick.play_pairs()",
    "last_trick": "st._last_view()",
    "tricks_played": "st.history()",
    "voids": "opendaum_voids(st)",
    # OpendaumMatch.sheet
    "sheet.totals": "m.totals",
}

#: Mushka: MushkaDeal.observation
MUSHKA: dict[str, Any] = {
    "phase": "st.phase",
    "hand": "st.hands[seat]",
    "hand_sizes": "map(len, st.hands)",
    "trump_card": "st.trump_card",
    "trump": "suit_of(st.trump_card)",
    "stock": "len(st.stock)",
    "choices": "st.choices",
    "in_play": "st.in_play",
    "my_discards": "st.discards[seat]",
    "trick": "(st.trick.play_pairs() if st.trick is not None else ())",
    "last_trick": "st._last_trick()",
    "tricks": "st.tricks",
    "tricks_played": "st._tricks_played()",
    "voids": "st.voids",              # the sets _voids_view() sorts
    # MushkaMatch.sheet
    "sheet.scores": "m.scores",
}


@cache
def sources() -> dict[type, tuple[type, dict[str, Any]]]:
    """Deal-state class → (the deal view class its ``observation`` returns, field →
    expression)."""
    from koloda.games.durak.rounds import DurakGame
    from koloda.games.durak.views import DurakView
    from koloda.games.mushka import MushkaDeal
    from koloda.games.mushka.views import MushkaView
    from koloda.games.opendaum.deal import OpendaumDeal
    from koloda.games.opendaum.views import OpendaumView
    return {DurakGame: (DurakView, DURAK), OpendaumDeal: (OpendaumView, OPENDAUM),
            MushkaDeal: (MushkaView, MUSHKA)}


def source_of(state_cls: type) -> tuple[type, dict[str, Any]] | None:
    """The view class and expressions of a deal-state class: its own, or a base's when
    it makes its observation with the base's own method."""
    table = sources()
    for cls in state_cls.__mro__:
        hit = table.get(cls)
        if hit is not None:
            same = getattr(state_cls, "observation", None) is cls.__dict__.get("observation")
            return hit if same else None
    return None
