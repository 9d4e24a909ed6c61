"""Dealing out the cards one seat cannot see, for the search bot's determinizers.

Trinka, Stukolka, Dreyfus and Opendaum each rebuild a deal from one seat's observation: the cards
that seat cannot place are shared among the places that hold unknown cards (other hands,
the widow, other players' discards), each place getting exactly as many as it holds and
never a card it is known to lack (a void, or Stukolka's "could not beat"). Not part of the
registry (the leading underscore): a helper of those game modules. ``HiddenDealer`` is the
same dealer read once for many draws (Opendaum's search samples hundreds per decision).
``deal_by_suit`` is the dealer for games whose voids are plain suits (Mushka, Kopilka).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence, Set

from koloda.cards import Card, shuffle, suit_of

#: sequential tries before the exhaustive search; a dead end is rare
TRIES = 12


def deal_hidden(cards: Sequence[Card], needs: Sequence[int], banned: Sequence[Set[Card]],
                rng: random.Random) -> list[list[Card]]:
    """Split ``cards`` into ``len(needs)`` places of ``needs[i]`` cards, place ``i`` never
    getting a card of ``banned[i]``.

    Without bans this is a shuffle (uniform). With bans the most constrained cards go
    first, each to a place drawn in proportion to the room left there (uniform again when
    nothing is constrained); a dead end starts over, and after a few a backtracking search
    finds an arrangement — one exists whenever the bans were read off a real deal.
    """
    return HiddenDealer(cards, needs, banned).deal(rng)


class HiddenDealer:
    """:func:`deal_hidden` for one set of unknown cards, places and bans, read once and
    dealt as often as a search wants (each ``deal(rng)`` draws exactly as
    ``deal_hidden(cards, needs, banned, rng)`` would)."""

    __slots__ = ("allowed", "any_ban", "banned", "cards", "needs", "open_places", "places")

    def __init__(self, cards: Sequence[Card], needs: Sequence[int],
                 banned: Sequence[Set[Card]]) -> None:
        if sum(needs) != len(cards):
            raise ValueError(f"{len(cards)} unknown cards for places of {list(needs)}")
        self.cards = list(cards)
        self.needs = list(needs)
        self.banned = banned
        self.places = range(len(needs))
        self.open_places = [i for i in self.places if needs[i]]
        #: None: nothing is banned anywhere (a plain shuffle)
        self.any_ban: frozenset[Card] | None = None
        #: per constrained card, the open places it may go to
        self.allowed: dict[Card, list[int]] = {}
        if any(banned):
            # a card no open place bans is free: the free cards fill whatever room the
            # constrained ones leave, in a shuffle (the same law as placing them one by
            # one by room)
            any_ban = self.any_ban = frozenset().union(
                *(banned[i] for i in self.open_places))
            self.allowed = {c: [i for i in self.open_places if c not in banned[i]]
                            for c in self.cards if c in any_ban}

    def deal(self, rng: random.Random) -> list[list[Card]]:
        """One arrangement of the unknown cards, one list per place."""
        pool = list(self.cards)
        shuffle(pool, rng)
        needs, places = self.needs, self.places
        any_ban = self.any_ban
        if any_ban is None:
            pos = 0
            shares = []
            for n in needs:
                shares.append(pool[pos:pos + n])
                pos += n
            return shares
        open_places = self.open_places
        constrained = [c for c in pool if c in any_ban]
        free = [c for c in pool if c not in any_ban]
        by_card = self.allowed
        allowed = [by_card[c] for c in constrained]
        order = sorted(range(len(constrained)), key=lambda j: len(allowed[j]))
        for _ in range(TRIES):
            room = list(needs)
            out: list[list[Card]] = [[] for _ in places]
            for j in order:
                opts = [i for i in allowed[j] if room[i]]
                if not opts:
                    break
                i = opts[0] if len(opts) == 1 else _by_room(opts, room, rng)
                out[i].append(constrained[j])
                room[i] -= 1
            else:
                pos = 0
                for i in open_places:
                    out[i].extend(free[pos:pos + room[i]])
                    pos += room[i]
                return out
        banned = self.banned
        every = [[i for i in open_places if c not in banned[i]] for c in pool]
        return _deal_placeable(pool, every, needs, rng)


def _by_room(opts: list[int], room: list[int], rng: random.Random) -> int:
    r = rng.randrange(sum(room[i] for i in opts))
    for i in opts:
        r -= room[i]
        if r < 0:
            return i
    return opts[-1]


def _deal_placeable(pool: list[Card], allowed: list[list[int]], needs: Sequence[int],
                    rng: random.Random) -> list[list[Card]]:
    """The dealer after the sequential tries failed: the most constrained cards first,
    each to a place drawn by room among those after which the cards left can still all be
    placed — so it never meets a dead end, where a search over the placements could run
    for a minute (seen in an Opendaum decision: one seat's hand could hold only hearts,
    and most draws left it short of them).

    Whether the rest can be placed is Hall's condition for this transport problem: for
    every set T of places, the cards that may go only into T are no more than T's room
    (the total of cards is the total of room, so then every place fills exactly). A card
    is told by the set of places it may go to, so the check counts cards per set."""
    k = len(needs)
    masks = [sum(1 << i for i in places) for places in allowed]
    left: dict[int, int] = {}
    for m in masks:
        left[m] = left.get(m, 0) + 1
    room = list(needs)
    every_set = range(1 << k)

    def placeable() -> bool:
        for t in every_set:
            cap = sum(room[i] for i in range(k) if t >> i & 1)
            if sum(n for m, n in left.items() if m & ~t == 0) > cap:
                return False
        return True

    if not placeable():
        raise ValueError("no arrangement of the unknown cards fits what is known")
    out: list[list[Card]] = [[] for _ in range(k)]
    for j in sorted(range(len(pool)), key=lambda j: len(allowed[j])):
        left[masks[j]] -= 1
        opts = [i for i in allowed[j] if room[i]]
        while True:
            i = opts[0] if len(opts) == 1 else _by_room(opts, room, rng)
            room[i] -= 1
            if len(opts) == 1 or placeable():
                break
            room[i] += 1
            opts.remove(i)
        out[i].append(pool[j])
    return out

def deal_by_suit(cards: Sequence[Card], needs: Sequence[int],
                 voids: Sequence[Iterable[int]], rng: random.Random,
                 extra: Sequence[frozenset[Card]] | None = None) -> list[list[Card]]:
    """Split ``cards`` into places of ``needs[i]`` cards, place ``i`` never getting a card
    of a suit in ``voids[i]`` (a shown void) nor one of ``extra[i]`` (a card it is known
    not to hold) — ``koloda.games._hidden.deal_hidden``, once the places left one suit
    only are filled (Mushka and Kopilka, whose voids are plain suits).

    A place void in all suits but one gets a random choice of that suit's cards first:
    every card of a suit is alike to a void, so that is the law of every consistent deal;
    and it spares the dealer a search when such a place needs nearly all of the suit.
    """
    bans = [VOID_BANS[frozenset(v)] for v in voids]
    if extra is not None:
        bans = [(only, ban | x) for (only, ban), x in zip(bans, extra, strict=True)]
    if all(only is None for only, _ in bans):
        return HiddenDealer(cards, needs, [ban for _, ban in bans]).deal(rng)
    pool = list(cards)
    needs = list(needs)
    first: list[list[Card]] = [[] for _ in needs]
    for i, (only, ban) in enumerate(bans):
        if only is not None and needs[i]:
            may = [c for c in pool if c in SUIT_CARDS[only] and c not in ban]
            if len(may) < needs[i]:
                raise ValueError("no arrangement of the unknown cards fits the voids shown")
            first[i] = rng.sample(may, needs[i])
            taken = set(first[i])
            pool = [c for c in pool if c not in taken]
            needs[i] = 0
    rest = HiddenDealer(pool, needs, [ban for _, ban in bans]).deal(rng)
    return [f + r if f else r for f, r in zip(first, rest, strict=True)]


#: the cards of each suit, by its number
SUIT_CARDS = tuple(frozenset(c for c in range(52) if suit_of(c) == s) for s in range(4))
#: for each set of suits lacked: the one suit left (or None), and the cards banned
VOID_BANS: dict[frozenset[int], tuple[int | None, frozenset[Card]]] = {}
for _mask in range(16):
    _void = frozenset(s for s in range(4) if _mask >> s & 1)
    _left = [s for s in range(4) if s not in _void]
    VOID_BANS[_void] = (_left[0] if len(_left) == 1 else None,
                    frozenset().union(*(SUIT_CARDS[s] for s in _void)))
