"""A full durak game consistent with one seat's observation (for the search bot).

What a seat knows: its hand, the table, the trump card, every card picked up with ``take``
(or the drawn trump card) until it is played, and the counts. Everything else — the other
hands' unknown cards, the stock above the trump card, the discard pile (only its size is
in the observation) — is dealt at random from the cards nobody can place. Durak gives no
voids to respect: a player may always take instead of beating.
"""

from __future__ import annotations

import random
from typing import Any

from koloda.cards import TEXT_CARD, Card, deck
from koloda.engine.deal import Deal
from koloda.games.durak.rounds import THROW, DurakGame


def determinize(obs: dict[str, Any], rng: random.Random) -> DurakGame:
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
    placed = public | set(hands[seat]) | set(attacks) | {c for c in covers if c is not None}
    stock_size: int = obs["stock_size"]
    discard: list[Card] = []
    if trump_card not in placed:
        # under the stock while it lasts; once drawn it is public until played, so a trump
        # card nobody is known to hold has been beaten away
        if not stock_size:
            discard.append(trump_card)
        placed.add(trump_card)
    pool = [c for c in deck(36) if c not in placed]
    rng.shuffle(pool)
    for s in range(n):
        if s != seat:
            need = obs["hand_sizes"][s] - len(hands[s])
            hands[s] += pool[:need]
            del pool[:need]
    stock_top_first = [*pool[:max(stock_size - 1, 0)], trump_card] if stock_size else []
    del pool[:max(stock_size - 1, 0)]
    discard += pool
    assert len(discard) == obs["discard_count"], "observation counts do not add up to 36"

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
