"""The durak heuristic: how a careful player plays from what the seat knows.

* attack with the cheapest rank — low non-trumps, pairs together; keep trumps;
* beat with the cheapest card that works (a higher card of the suit before any trump);
* take when beating costs too much: when only trumps or high cards would do while the
  stock is still large and the table holds little;
* transfer (perevodnoy) with a plain card of the attack's rank;
* throw in cheap ranks, never trumps or high cards while the stock is large;
* once the stock is empty every card counts: shed freely, and with the defender's hand
  known (two players), attack with what the defender cannot beat.

The same ``decide`` plays the search bot's rollouts, so it reads a small ``View`` built
either from an observation (the bot) or straight from a game state (the rollouts) and
returns the move (verb and cards); the bot checks its text against its legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from koloda.cards import CARD_TEXT, SIX, TEXT_CARD, Card, deck
from koloda.games.durak.rounds import ATTACK, DEFEND, DurakGame

#: cards of the 36-card deck (6..A)
DECK36 = tuple(deck(36))


def cost(c: Card, trump: int) -> int:
    """How much a card is worth keeping: 0 (a plain six) … 8 (a plain ace), trumps 9 … 17."""
    r = c % 13 - SIX
    return r + 9 if c // 13 == trump else r


def beats(b: Card, a: Card, trump: int) -> bool:
    """``b`` covers ``a``: a higher card of its suit, or a trump on a plain card."""
    if b // 13 == a // 13:
        return b > a
    return b // 13 == trump


class View:
    """What ``decide`` needs of a position, seen by the seat to move."""

    __slots__ = ("attacks", "covers", "hand", "opp_hand", "phase", "room", "stock",
                 "taken", "transfer_ok", "trump")

    def __init__(self, hand: list[Card], trump: int, phase: str, attacks: list[Card],
                 covers: list[Card | None], taken: bool, stock: int, room: int,
                 transfer_ok: bool, opp_hand: list[Card] | None) -> None:
        self.hand = hand
        self.trump = trump
        self.phase = phase
        self.attacks = attacks
        self.covers = covers
        self.taken = taken
        self.stock = stock            # cards left in the stock
        self.room = room              # attack cards that may still join the round
        self.transfer_ok = transfer_ok
        self.opp_hand = opp_hand      # the defender's (or attacker's) hand when known


#: an action as its verb and cards (``beat``: the attack card, then the cover)
Move = tuple[str, list[Card]]
TAKE: Move = ("take", [])
PASS: Move = ("pass", [])


def action_text(move: Move) -> str:
    """The canonical text of a move (several cards in card order, as the engine lists)."""
    verb, cards = move
    if not cards:
        return verb
    if verb != "beat":
        cards = sorted(cards)
    return verb + " " + " ".join(CARD_TEXT[c] for c in cards)


# ------------------------------------------------------------------ attack
def choose_attack(v: View) -> list[Card]:
    """The lead: the cheapest rank, all plain cards of it at once (a pair is shed in one
    go); a trump only when nothing else is left."""
    trump = v.trump
    late = v.stock == 0
    room = v.room if v.room > 1 else 1
    groups: dict[int, list[Card]] = {}
    for c in v.hand:
        groups.setdefault(c % 13, []).append(c)
    top = None
    if late and v.opp_hand is not None:
        # the defender's highest rank in each suit: what they cannot beat makes them take
        top = [-1, -1, -1, -1]
        for b in v.opp_hand:
            if b % 13 > top[b // 13]:
                top[b // 13] = b % 13
    best: list[Card] = []
    best_score = 1e9
    n = len(v.hand)
    for r, cards in groups.items():
        plain = [c for c in cards if c // 13 != trump]
        if not plain:
            pick = cards
            score = r - SIX + 9.0
        elif late and len(plain) < len(cards) and len(cards) == n:
            pick = (plain + [c for c in cards if c // 13 == trump])[:room]   # the last cards
            score = sum(cost(c, trump) for c in pick) / len(pick) - 3.5 * (len(pick) - 1)
        else:
            pick = plain[:room]
            score = r - SIX - (3.5 if late else 2.0) * (len(pick) - 1)
        if top is not None and any(top[c // 13] < r and (c // 13 == trump or top[trump] < 0)
                                   for c in pick):
            score -= 8
        if score < best_score:
            best, best_score = pick, score
    return best


# ----------------------------------------------------------------- defence
def cover_plan(v: View) -> list[tuple[Card, Card]] | None:
    """Cheapest covers for every uncovered card (the highest attack first), or None."""
    trump = v.trump
    free = sorted(v.hand, key=lambda c: cost(c, trump))
    plan = []
    open_cards = [a for a, b in zip(v.attacks, v.covers, strict=True) if b is None]
    for a in sorted(open_cards, key=lambda c: -cost(c, trump)):
        for b in free:
            if beats(b, a, trump):
                plan.append((a, b))
                free.remove(b)
                break
        else:
            return None
    return plan


def _spend(b: Card, trump: int, stock: int) -> float:
    """What covering with ``b`` gives away: trumps dear (dearer while the stock is large),
    plain kings and aces a little."""
    r = b % 13 - SIX
    if b // 13 == trump:
        return 3.0 + r + (2.0 if stock > 10 else 0.0)
    return max(0, r - 5) * 0.7


def choose_defence(v: View) -> Move:
    trump = v.trump
    rank = v.attacks[0] % 13
    if v.transfer_ok:
        plain = [c for c in v.hand if c % 13 == rank and c // 13 != trump]
        if plain:
            return ("transfer", [min(plain)])
    plan = cover_plan(v)
    if plan is None:
        if v.transfer_ok:
            same = [c for c in v.hand if c % 13 == rank]
            if same:
                return ("transfer", [min(same)])
        return TAKE
    spend = sum(_spend(b, trump, v.stock) for _, b in plan)
    table = len(v.attacks) + sum(1 for b in v.covers if b is not None)
    if v.stock == 0:
        take_cost = 5.0 * table + 8.0     # more cards at the end: nearly always worse
    else:
        # taking low cards early is cheap; taking high ones or many is not
        low = sum(1 for c in v.attacks if c // 13 != trump and c % 13 - SIX <= 4)
        take_cost = 1.6 * table + 1.5 * (len(v.attacks) - low) + (6.0 if v.stock <= 6 else 0.0)
    if spend > take_cost:
        return TAKE
    a, b = plan[0]
    return ("beat", [a, b])


# ----------------------------------------------------------------- throw-in
def choose_throw(v: View) -> list[Card]:
    """Cheap cards of ranks on the table: plain cards up to ten early, up to a queen
    later, any plain card once the stock is empty; all the cards when they are the last."""
    trump = v.trump
    if v.room <= 0:
        return []
    ranks = {c % 13 for c in v.attacks}
    ranks.update(c % 13 for c in v.covers if c is not None)
    can = [c for c in v.hand if c % 13 in ranks]
    if not can:
        return []
    if v.stock == 0 and len(can) == len(v.hand) and len(can) <= v.room:
        return can               # out of cards: out of the game
    top = 4 if v.stock >= 12 else 6 if v.stock > 0 else 8
    pick = sorted((c for c in can if c // 13 != trump and c % 13 - SIX <= top),
                  key=lambda c: cost(c, trump))
    return pick[:v.room]


def decide(v: View) -> Move:
    """The heuristic's move in this position."""
    if v.phase == ATTACK:
        return ("attack", choose_attack(v))
    if v.phase == DEFEND:
        return choose_defence(v)
    cards = choose_throw(v)
    return ("throw", cards) if cards else PASS


# ------------------------------------------------------------------- views
def unseen_cards(obs: Mapping[str, Any]) -> set[Card]:
    """Cards this seat cannot place: other hands' unknown cards and the stock."""
    seen = {TEXT_CARD[t] for t in obs["hand"]}
    seen.update(TEXT_CARD[t] for t in obs["discard"])
    for a, b in obs["table"]:
        seen.add(TEXT_CARD[a])
        if b is not None:
            seen.add(TEXT_CARD[b])
    for known in obs["known_cards"]:
        seen.update(TEXT_CARD[t] for t in known)
    seen.add(TEXT_CARD[obs["trump_card"]])
    return {c for c in DECK36 if c not in seen}


def view_from_observation(obs: Mapping[str, Any], legal: list[str]) -> View:
    seat = obs["seat"]
    hand = [TEXT_CARD[t] for t in obs["hand"]]
    attacks = [TEXT_CARD[a] for a, _ in obs["table"]]
    covers: list[Card | None] = [None if b is None else TEXT_CARD[b] for _, b in obs["table"]]
    opp_hand = None
    other = obs["defender"] if seat != obs["defender"] else obs["attacker"]
    if obs["players"] == 2 and obs["stock_size"] == 0 and other != seat:
        # two players, stock gone: the other hand is every card not seen elsewhere
        opp_hand = sorted(unseen_cards(obs) | {TEXT_CARD[t] for t in obs["known_cards"][other]})
    return View(hand, "SCDH".index(obs["trump_suit"]), obs["phase"], attacks, covers,
                obs["taken"], obs["stock_size"], obs["limit"] - len(attacks),
                any(a.startswith("transfer") for a in legal), opp_hand)


def view_from_state(g: DurakGame) -> View:
    """The rollouts' view: straight from the (determinized) state, the other hand known."""
    seat = g.to_move
    assert seat is not None
    other = g.defender if seat != g.defender else g.attacker
    return View(g.hands[seat], g.trump, g.phase, g.attacks, g.covers, g.taken,
                len(g.stock), g.limit - len(g.attacks),
                g.phase == DEFEND and g._transfer_room() > 0,
                g.hands[other] if g.players == 2 and not g.stock else None)


class DurakHeuristic:
    """The heuristic as a bot: ``decide`` on the observation, checked against ``legal``."""

    name = "heuristic"

    def choose(self, observation: Mapping[str, Any], legal: list[str],
               rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        action = action_text(decide(view_from_observation(observation, legal)))
        if action in legal:
            return action
        return legal[0] if "take" not in legal else "take"  # pragma: no cover - safety net


def make(game: str, level: str | None) -> DurakHeuristic:
    return DurakHeuristic()
