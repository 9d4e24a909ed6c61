"""A full durak game consistent with one seat's observation (for the search bot).

What a seat knows: its hand, the table and who played each card of the round, the trump
card (under the stock, then in the hand of whoever drew it until it is played), every card
picked up with ``take`` until it is played, the discard pile (every beaten card lay face up
on the table), and the counts. Everything else — the other hands' unknown cards and the
stock above the trump card — is dealt at random from the cards nobody can place
(``koloda.games._hidden``).

One more public fact, the opening (koloda/rules/durak.en.md: the first attack of the
first game, and of a game after a draw, goes to the holder of the lowest trump; nobody
holds one: left of the dealer — ``DurakView.opener``). The lowest trump is not shown, but
who attacks first says where it was dealt:

* while nothing has been drawn yet (the first round) each hand is its dealt cards less
  what it played, so the opener's lowest trump — held or played — is lower than every
  trump anyone else held, and every hidden trump below it lies in the stock. The sampler
  draws which trump that was in proportion to the number of deals each choice leaves,
  then deals the rest under those bans: exactly the deals consistent with the opening,
  each as likely as the others;
* later, which cards a player drew rather than was dealt is not seen, but the opener was
  dealt a trump below the lowest one this seat was dealt (``lowest_trump_dealt``), and
  cards leave a hand only by being played: unless the opener has played such a trump, it
  still holds one. The sampler draws which is the lowest it holds, again in proportion to
  the deals each choice leaves.

Durak gives no voids and no other negative evidence: a player may always take instead of
beating, and pass instead of throwing in or transferring, so not doing something shows
nothing about a hand.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import factorial

from koloda.cards import Card, deck
from koloda.engine.deal import Deal
from koloda.engine.view import Observation
from koloda.games._hidden import HiddenDealer
from koloda.games.durak.rounds import DurakGame
from koloda.games.durak.views import DurakView

_NO_BANS: frozenset[Card] = frozenset()


@dataclass(frozen=True)
class Opening:
    """One way the lowest trump may lie: ``pin`` (a hidden trump in the opener's hand, or
    None when that trump is visible or nobody held one) and ``low``, hidden trumps kept
    from the hands (``everywhere``) or from the opener's hand only; ``weight`` counts its
    deals."""

    pin: Card | None
    low: frozenset[Card]
    weight: int
    everywhere: bool = True


class Template:
    """Everything one observation fixes; ``sample`` deals the rest."""

    def __init__(self, obs: Observation) -> None:
        view = obs.deal if isinstance(obs, Observation) else None
        seat = obs.seat if isinstance(obs, Observation) else None
        if not isinstance(view, DurakView) or seat is None:
            raise TypeError("durak's determinizer needs a seat's durak Observation "
                            "(Match.observation(seat)), not its JSON")
        self.obs, self.view, self.seat = obs, view, seat
        n = obs.players
        hands: list[list[Card]] = [list(known) for known in view.known_cards]
        hands[seat] = list(view.hand)
        self.hands = hands
        placed: set[Card] = {c for known in view.known_cards for c in known}
        placed.update(view.hand)
        placed.update(c for pair in view.table for c in pair if c is not None)
        placed.update(view.discard)
        # the trump card lies under the stock while it lasts; once drawn it is public
        # until played, and then on the table or in the discard pile: never unknown
        placed.add(view.trump_card)
        self.pool = [c for c in deck(36) if c not in placed]
        self.others = others = [s for s in range(n) if s != seat]
        needs = [view.hand_sizes[s] - len(hands[s]) for s in others]
        needs.append(max(view.stock_size - 1, 0))
        # a full deck leaves nothing over; a hand-built position with fewer cards leaves
        # the cards that are not in its deal
        needs.append(len(self.pool) - sum(needs))
        self.needs = needs
        self.openings = _openings(obs, view, seat, self.pool, others, needs)
        #: one dealer per way the opening may lie, each read when first drawn
        self.dealers: list[HiddenDealer | None]
        if self.openings is None:
            self.dealers = [HiddenDealer(self.pool, needs, [_NO_BANS] * len(needs))]
            self.weights = [1]
        else:
            self.dealers = [None] * len(self.openings)
            self.weights = [o.weight for o in self.openings]

    def _dealer(self, opening: Opening) -> HiddenDealer:
        """The dealer of the cards left once ``opening`` has placed its pin, never giving
        a hand a trump below the lowest one."""
        k = len(self.others)
        if opening.everywhere:
            bans = [opening.low] * k + [_NO_BANS, _NO_BANS]
        else:
            bans = [opening.low if s == self.first else _NO_BANS for s in self.others]
            bans += [_NO_BANS, _NO_BANS]
        if opening.pin is None:
            return HiddenDealer(self.pool, self.needs, bans)
        needs = list(self.needs)
        needs[self.others.index(self.first)] -= 1
        return HiddenDealer([c for c in self.pool if c != opening.pin], needs, bans)

    @property
    def first(self) -> int:
        opener = self.view.opener
        assert opener is not None
        return opener

    def sample(self, rng: random.Random) -> DurakGame:
        """A game as the observation shows it, the unseen cards dealt."""
        i = 0 if len(self.dealers) == 1 else \
            rng.choices(range(len(self.dealers)), self.weights)[0]
        dealer = self.dealers[i]
        if dealer is None:
            assert self.openings is not None
            dealer = self.dealers[i] = self._dealer(self.openings[i])
        shares = dealer.deal(rng)
        pin = self.openings[i].pin if self.openings is not None else None
        if pin is not None:
            shares[self.others.index(self.first)].append(pin)
        view, obs = self.view, self.obs
        hands = [list(h) for h in self.hands]
        for s, share in zip(self.others, shares, strict=False):
            hands[s] += share
        trump_card = view.trump_card
        stock = [*shares[len(self.others)], trump_card] if view.stock_size else []
        game = DurakGame(Deal(obs.dealer if obs.dealer is not None else 0,
                              tuple(tuple(h) for h in hands), tuple(stock), trump_card),
                         teams=view.teams is not None,
                         first_bout_limit=view.first_bout_limit,
                         transfer=view.variant == "perevodnoy", first_attacker=view.attacker,
                         at=view)
        game.dealt_low[self.seat] = view.lowest_trump_dealt
        return game


def _openings(obs: Observation, view: DurakView, seat: int, pool: list[Card],
              others: list[int], needs: list[int]) -> list[Opening] | None:
    """Every way the lowest dealt trump may lie, while the opening says where it is, or
    None."""
    first = view.opener
    if first is None:
        return None
    if view.last_round is not None:
        return _kept_low(view, seat, first, pool, others, needs)
    n = obs.players
    trump = view.trump_suit
    # the trumps each seat is seen to have been dealt: what it played this round, a shown
    # trump card (six players: the dealer's), and the seat's own hand
    seen: list[list[int]] = [[] for _ in range(n)]
    for s, c in view.plays:
        seen[s].append(c)
    for s, known in enumerate(view.known_cards):
        seen[s].extend(known)
    seen[seat].extend(view.hand)
    ranks = [[c % 13 for c in cs if c // 13 == trump] for cs in seen]
    own = min(ranks[first], default=None)
    # the first attacker's lowest trump is below every trump another seat is seen to hold
    above = min((r for s in range(n) if s != first for r in ranks[s]), default=13)
    hidden = sorted((c for c in pool if c // 13 == trump), key=lambda c: c % 13)
    k = len(others)
    room = needs[k] + needs[k + 1]          # the stock and the cards outside the deal
    left = len(pool)
    first_room = needs[others.index(first)] if first != seat else 0
    out: list[Opening] = []

    def add(pin: Card | None, below: int) -> None:
        low = frozenset(c for c in hidden if c % 13 < below)
        j = len(low)
        if j > room or (pin is not None and not first_room):
            return
        w = factorial(room) // factorial(room - j) * factorial(left - j - (pin is not None))
        out.append(Opening(pin, low, w * (first_room if pin is not None else 1)))

    if first != seat:
        for c in hidden:
            r = c % 13
            if r < above and (own is None or r < own):
                add(c, r)
    if own is not None and own < above:
        add(None, own)
    dealer = obs.dealer if obs.dealer is not None else 0
    if own is None and above == 13 and first == (dealer + 1) % n:
        add(None, 13)                       # nobody was dealt a trump
    return out or None


def _kept_low(view: DurakView, seat: int, first: int, pool: list[Card], others: list[int],
              needs: list[int]) -> list[Opening] | None:
    """After the first round: the opener still holds a trump below this seat's lowest
    dealt one, unless it has played one (or one it holds is public); the ways the lowest
    such trump in its hand may be, or None when nothing is known."""
    mine = view.lowest_trump_dealt
    if first == seat or mine is None:
        return None
    trump, below = view.trump_suit, mine % 13
    shown = [*view.played[first], *view.known_cards[first]] if view.played else []
    if any(c // 13 == trump and c % 13 < below for c in shown):
        return None
    low = sorted((c for c in pool if c // 13 == trump and c % 13 < below),
                 key=lambda c: c % 13)
    room = needs[others.index(first)]
    if not room:
        return None
    rest = len(pool) - room
    out = []
    for j, c in enumerate(low):
        # the j lower ones lie outside the opener's hand, this one in it
        if j > rest:
            break
        w = factorial(rest) // factorial(rest - j) * room * factorial(len(pool) - 1 - j)
        out.append(Opening(c, frozenset(low[:j]), w, everywhere=False))
    return out or None


#: the template of the last observation determinized (a search asks again and again)
_last: list[tuple[Observation, Template] | None] = [None]


def determinize(obs: Observation, rng: random.Random) -> DurakGame:
    """A game as ``obs`` (a seat's typed observation) shows it, the unseen cards dealt."""
    known = _last[0]                    # read once: another thread may replace it
    if known is not None and known[0] is obs:
        template = known[1]
    else:
        template = Template(obs)
        _last[0] = (obs, template)
    return template.sample(rng)
