"""A full durak game consistent with one seat's observation (for the search bot).

What a seat knows: its hand, the table, the trump card (under the stock, then in the hand
of whoever drew it until it is played), every card picked up with ``take`` until it is
played, the discard pile (every beaten card lay face up on the table), and the counts.
Everything else — the other hands' unknown cards and the stock above the trump card — is
dealt at random from the cards nobody can place. Durak gives no voids and no other negative
evidence to respect: a player may always take instead of beating, and pass instead of
throwing in or transferring, so not doing something shows nothing about a hand.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from koloda.cards import TEXT_CARD, Card, deck, shuffle
from koloda.engine.deal import Deal
from koloda.games.durak.rounds import THROW, DurakGame


def determinize(obs: Mapping[str, Any], rng: random.Random) -> DurakGame:
    n: int = obs["players"]
    seat: int = obs["seat"]
    trump_card = TEXT_CARD[obs["trump_card"]]
    hands: list[list[Card]] = [[] for _ in range(n)]
    hands[seat] = [TEXT_CARD[t] for t in obs["hand"]]
    public: set[Card] = set()
    for s, known in enumerate(obs["known_cards"]):
        cards = [TEXT_CARD[t] for t in known]
        public.update(cards)
        if s != seat:
            hands[s] = cards
    attacks = [TEXT_CARD[a] for a, _ in obs["table"]]
    covers: list[Card | None] = [None if b is None else TEXT_CARD[b] for _, b in obs["table"]]
    discard = [TEXT_CARD[t] for t in obs["discard"]]
    placed = public | set(hands[seat]) | set(attacks) | {c for c in covers if c is not None}
    placed.update(discard)
    # the trump card lies under the stock while it lasts; once drawn it is public until
    # played, and then on the table or in the discard pile: never among the unknown cards
    placed.add(trump_card)
    stock_size: int = obs["stock_size"]
    pool = [c for c in deck(36) if c not in placed]
    shuffle(pool, rng)
    for s in range(n):
        if s != seat:
            need = obs["hand_sizes"][s] - len(hands[s])
            hands[s] += pool[:need]
            del pool[:need]
    stock_top_first = [*pool[:stock_size - 1], trump_card] if stock_size else []
    del pool[:max(stock_size - 1, 0)]
    # a full deck leaves nothing in ``pool``; a hand-built position with fewer cards leaves
    # the cards that are not in its deal
    g = DurakGame(Deal(obs["dealer"], tuple(tuple(h) for h in hands), tuple(stock_top_first),
                       trump_card),
                  teams=obs["teams"] is not None, first_bout_limit=obs["first_bout_limit"],
                  transfer=obs["variant"] == "perevodnoy", first_attacker=obs["attacker"])
    # the round as it stands (the constructor opened a fresh round)
    g.public = public
    g.trump_holder = obs["trump_drawn_by"]
    g.discard = discard
    g.in_game = [s in obs["in_game"] for s in range(n)]
    g.beaten_rounds = 0 if obs["first_bout"] else 1
    g.attacker = obs["attacker"]
    g.defender = obs["defender"]
    g.limit = obs["limit"]
    g.phase = obs["phase"]
    g.taken = obs["taken"]
    g.attacks = attacks
    g.covers = covers
    g.covered = sum(1 for c in covers if c is not None)
    g.opening = tuple(attacks)
    g.passed = list(obs["passed"])
    if g.phase == THROW:
        g.queue = g.ask_queue()
        g.ask_i = len(g.passed)
        g.to_move = g.queue[g.ask_i]
    else:
        g.queue = []
        g.to_move = g.attacker if g.phase == "attack" else g.defender
    g._legal = None
    return g
