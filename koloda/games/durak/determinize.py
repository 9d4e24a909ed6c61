"""A full durak game consistent with one seat's observation (for the search bot).

What a seat knows: its hand, the table, the trump card (under the stock, then in the hand
of whoever drew it until it is played), every card picked up with ``take`` until it is
played, the discard pile (every beaten card lay face up on the table), and the counts.
Everything else — the other hands' unknown cards and the stock above the trump card — is
dealt at random from the cards nobody can place (``koloda.games._hidden.deal_hidden``).
Durak gives no voids and no other negative evidence to respect: a player may always take
instead of beating, and pass instead of throwing in or transferring, so not doing something
shows nothing about a hand.
"""

from __future__ import annotations

import random

from koloda.cards import Card, deck
from koloda.engine.deal import Deal
from koloda.engine.view import Observation
from koloda.games._hidden import deal_hidden
from koloda.games.durak.rounds import DurakGame
from koloda.games.durak.views import DurakView

_NO_BANS: frozenset[Card] = frozenset()


def determinize(obs: Observation, rng: random.Random) -> DurakGame:
    """A game as ``obs`` (a seat's typed observation) shows it, the unseen cards dealt."""
    view = obs.deal if isinstance(obs, Observation) else None
    seat = obs.seat if isinstance(obs, Observation) else None
    if not isinstance(view, DurakView) or seat is None:
        raise TypeError("durak's determinizer needs a seat's durak Observation "
                        "(Match.observation(seat)), not its JSON")
    n = obs.players
    trump_card = view.trump_card
    hands: list[list[Card]] = [list(known) for known in view.known_cards]
    hands[seat] = list(view.hand)
    placed: set[Card] = {c for known in view.known_cards for c in known}
    placed.update(view.hand)
    placed.update(c for pair in view.table for c in pair if c is not None)
    placed.update(view.discard)
    # the trump card lies under the stock while it lasts; once drawn it is public until
    # played, and then on the table or in the discard pile: never among the unknown cards
    placed.add(trump_card)
    pool = [c for c in deck(36) if c not in placed]
    others = [s for s in range(n) if s != seat]
    stock_size = view.stock_size
    needs = [view.hand_sizes[s] - len(hands[s]) for s in others]
    needs.append(max(stock_size - 1, 0))
    # a full deck leaves nothing over; a hand-built position with fewer cards leaves the
    # cards that are not in its deal
    needs.append(len(pool) - sum(needs))
    shares = deal_hidden(pool, needs, [_NO_BANS] * len(needs), rng)
    for s, share in zip(others, shares, strict=False):
        hands[s] += share
    stock_top_first = [*shares[len(others)], trump_card] if stock_size else []
    return DurakGame(Deal(obs.dealer if obs.dealer is not None else 0,
                          tuple(tuple(h) for h in hands), tuple(stock_top_first), trump_card),
                     teams=view.teams is not None, first_bout_limit=view.first_bout_limit,
                     transfer=view.variant == "perevodnoy", first_attacker=view.attacker,
                     at=view)
