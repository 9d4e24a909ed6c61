"""The durak heuristic: how a careful player plays from what the seat knows.

* attack with the cheapest rank — low non-trumps, pairs together; keep trumps;
* beat with the cheapest card that works (a higher card of the suit before any trump);
* take when beating costs too much: when only trumps or high cards would do while the
  stock is still large and the table holds little;
* transfer (perevodnoy) with a plain card of the attack's rank;
* throw in cheap ranks, never trumps or high cards while the stock is large;
* once the stock is empty every card counts: shed freely, and with the defender's hand
  known (two players), attack with what the defender cannot beat.

The same ``decide`` plays the search bot's rollouts. It reads a small ``View`` made by one
function, ``position``, from the game's typed view of the seat to move: the bot's
observation, or in the rollouts the deal state's view of its mover — the same reading in
both. It returns the move (verb and cards); the bot checks its text against its legal
actions.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from koloda.cards import CARD_TEXT, SIX, Card, deck
from koloda.engine.view import Observation
from koloda.games.durak.rounds import ATTACK, DEFEND, DurakGame
from koloda.games.durak.views import DurakView

#: cards of the 36-card deck (6..A)
DECK36 = tuple(deck(36))


def cost(c: Card, trump: int) -> int:
    """How much a card is worth keeping: 0 (a plain six) … 8 (a plain ace), trumps 9 … 17."""
    r = c % 13 - SIX
    return r + 9 if c // 13 == trump else r


#: ``cost`` of every card (by its number, 0..51) for each trump suit: the sort key the
#: heuristic's hot loops use (``COSTS[trump].__getitem__``)
COSTS: tuple[tuple[int, ...], ...] = tuple(tuple(cost(c, t) for c in range(52))
                                           for t in range(4))


def beats(b: Card, a: Card, trump: int) -> bool:
    """``b`` covers ``a``: a higher card of its suit, or a trump on a plain card."""
    if b // 13 == a // 13:
        return b > a
    return b // 13 == trump


class View:
    """What ``decide`` needs of a position, seen by the seat to move."""

    __slots__ = ("attacks", "covers", "hand", "opp_hand", "phase", "room", "stock",
                 "taken", "transfer_ok", "trump")

    def __init__(self, hand: Sequence[Card], trump: int, phase: str, attacks: list[Card],
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
    key = COSTS[trump].__getitem__
    free = sorted(v.hand, key=key)
    plan = []
    open_cards = [a for a, b in zip(v.attacks, v.covers, strict=True) if b is None]
    # the dearest first (``reverse`` keeps equal costs in table order, as ``-cost`` would)
    for a in sorted(open_cards, key=key, reverse=True):
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
                  key=COSTS[trump].__getitem__)
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
class Seen(Protocol):
    """The fields of the game's typed view (``DurakView``) the heuristic reads."""

    @property
    def hand(self) -> Sequence[Card]: ...
    @property
    def hand_sizes(self) -> Sequence[int]: ...
    @property
    def table(self) -> Sequence[tuple[Card, Card | None]]: ...
    @property
    def trump_suit(self) -> int: ...
    @property
    def stock_size(self) -> int: ...
    @property
    def discard(self) -> Sequence[Card]: ...
    @property
    def phase(self) -> str: ...
    @property
    def attacker(self) -> int: ...
    @property
    def defender(self) -> int: ...
    @property
    def taken(self) -> bool: ...
    @property
    def limit(self) -> int: ...


class StateSeen:
    """The same fields read straight off a deal state, for the seat to move: what its
    ``observation`` would say (the fields a rollout seldom reads made only when read)."""

    __slots__ = ("attacker", "defender", "g", "hand", "limit", "phase", "stock_size",
                 "taken", "trump_suit")

    def __init__(self, g: DurakGame, seat: int) -> None:
        self.g = g
        self.hand: Sequence[Card] = g.hands[seat]
        self.trump_suit: int = g.trump
        self.stock_size = len(g.stock)
        self.phase: str = g.phase
        self.attacker: int = g.attacker
        self.defender: int = g.defender
        self.taken: bool = g.taken
        self.limit: int = g.limit

    @property
    def table(self) -> Sequence[tuple[Card, Card | None]]:
        return list(zip(self.g.attacks, self.g.covers))  # noqa: B905 - one length by rule

    @property
    def hand_sizes(self) -> Sequence[int]:
        return [len(h) for h in self.g.hands]

    @property
    def discard(self) -> Sequence[Card]:
        return self.g.discard


def placed_elsewhere(deal: Seen) -> set[Card]:
    """Cards seen outside the other hands: one's own hand, the discard, the table."""
    seen = set(deal.hand)
    seen.update(deal.discard)
    for a, b in deal.table:
        seen.add(a)
        if b is not None:
            seen.add(b)
    return seen


def position(deal: Seen, seat: int, transfer_ok: bool) -> View:
    """The heuristic's one reading of a position: the game's typed view of the seat to move
    (the bot's observation, or ``StateSeen`` of the deal state's mover in the rollouts)
    and whether a transfer is open."""
    table = deal.table
    attacks = [a for a, _ in table]
    stock = deal.stock_size
    opp_hand = None
    if stock == 0 and len(deal.hand_sizes) == 2:
        other = deal.defender if seat != deal.defender else deal.attacker
        if other != seat:
            # two players, stock gone: the other hand is every card not seen elsewhere
            seen = placed_elsewhere(deal)
            opp_hand = [c for c in DECK36 if c not in seen]
    return View(deal.hand, deal.trump_suit, deal.phase, attacks, [b for _, b in table],
                deal.taken, stock,
                deal.limit - len(attacks), transfer_ok, opp_hand)


def view_from_observation(obs: Observation, legal: list[str]) -> View:
    """The bot's view: its observation, a transfer open when one is legal."""
    assert isinstance(obs.deal, DurakView), "the heuristic reads the typed observation"
    assert obs.seat is not None
    return position(obs.deal, obs.seat, any(a.startswith("transfer") for a in legal))


def view_from_state(g: DurakGame) -> View:
    """The rollouts' view: the state's fields for the seat to move (``StateSeen``, what
    its observation would say), a transfer open when the rules leave room for one."""
    seat = g.to_move
    assert seat is not None
    return position(StateSeen(g, seat), seat, g.phase == DEFEND and g._transfer_room() > 0)


class DurakHeuristic:
    """The heuristic as a bot: ``decide`` on the observation, checked against ``legal``."""

    name = "heuristic"

    def choose(self, observation: Mapping[str, Any], legal: list[str],
               rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        assert isinstance(observation, Observation), "the heuristic reads the typed observation"
        action = action_text(decide(view_from_observation(observation, legal)))
        if action in legal:
            return action
        return legal[0] if "take" not in legal else "take"  # pragma: no cover - safety net


def make(game: str, level: str | None) -> DurakHeuristic:
    return DurakHeuristic()
