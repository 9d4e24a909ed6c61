"""Kopilka deals consistent with one seat's observation, for the search bot.

What the seat knows: its own hand and discards; every card played (``tricks_played`` and
the current trick); the cards others are known to hold (a failed lead taken back,
``shown``); the suits others are known to lack (``voids``: a pass without a remiz, a lead
of the last trick's suit, a card of the led suit played after drawing); every hand size,
discard count and the talon's size; and the exchange as it saw it — the offers it made
(which card each picker took), the card it picked from another's offer, and the counts.

The cards it cannot place are dealt among the other hands (never a suit known lacking),
the other players' discards, the talon and the face-down offer still on the table. A card
of the seat's own offer taken by a picker lies in his hand or his discards. An offer on the
table is of one suit with its cards in rank order: the suit is drawn by how many unseen
cards could make it up, and a card the seat picked fixes the suit and splits the ranks.
A player who passed on the trick on the table without being void in its suit paid a remiz
for it (the pot shows it): he holds a card of the led suit, and a deal that says otherwise
is drawn again (rejection: the law of the deals that keep him one). Likewise in the
exchange: a player whose turn passed without an offer held at most two cards of each suit
then, so he holds at most two plus the cards he picked since (the play that follows is not
read this way: its draws blur it). A remiz paid on an earlier trick is not used.
"""

from __future__ import annotations

import random
from collections.abc import Sequence, Set
from math import comb

from koloda.cards import Card, deck, rank_of, suit_of
from koloda.engine.view import Observation
from koloda.games._hidden import VOID_BANS, HiddenDealer, deal_by_suit
from koloda.games.kopilka.deal import KopilkaDeal
from koloda.games.kopilka.table import PLAY_RULES, PLAYERS, Offer, Purse
from koloda.games.kopilka.views import KopilkaView, OfferView
from koloda.tricks import Trick

DECK = deck(32)
#: the chance a picker kept the card he took (he then threw one of his own)
KEEPS_PICKED = 0.67
#: tries at placing the picked cards before giving up
PIN_TRIES = 4
#: draws before a deal that leaves a remiz passer without the led suit is kept anyway
HOLD_TRIES = 40


def determinize(obs: Observation, rng: random.Random) -> KopilkaDeal:
    """``GameSpec.determinize``: a full deal consistent with what ``obs``'s seat knows."""
    return Sampler(obs).sample(rng)


def _trick(plays: Sequence[tuple[int, Card]], leader: int | None = None) -> Trick:
    trick = Trick(plays[0][0] if leader is None else leader)
    for s, c in plays:
        trick.add(PLAY_RULES, s, c)
    return trick


def _fits(pool: Sequence[Card], needs: Sequence[int], voids: Sequence[Set[int]]) -> bool:
    """Whether ``pool`` can be split into places of ``needs`` cards, none getting a suit
    it lacks — decided at once, so that a choice of the picked cards that leaves no deal is
    given up without a search: Gale's condition on the four suits (for each set of suits,
    its cards fit in the places that take one of them)."""
    takes = [(n, 15 & ~sum(1 << s for s in v)) for n, v in zip(needs, voids, strict=True)
             if n]
    if all(mask == 15 for _, mask in takes):
        return True
    supply = [0, 0, 0, 0]
    for c in pool:
        supply[suit_of(c)] += 1
    for subset in range(1, 16):
        held = sum(supply[s] for s in range(4) if subset >> s & 1)
        if held > sum(n for n, mask in takes if mask & subset):
            return False
    return True


def _decliners(view: KopilkaView, seat: int, dealer: int | None) -> list[tuple[int, int]]:
    """During the exchange: (seat, the most cards of one suit it may hold) for every other
    player whose turn passed without an offer — two then, plus one per card picked since."""
    if view.phase != "exchange" or dealer is None:
        return []
    order = [(dealer + 1 + i) % PLAYERS for i in range(PLAYERS)]
    offers = [*view.offers, *([view.exchange] if view.exchange else [])]
    offerers = [o.offerer for o in offers]
    # the seats whose turn has come: up to the offer on the table (all, once it is done)
    now = order.index(view.exchange.offerer) if view.exchange else PLAYERS
    out = []
    for i, s in enumerate(order[:now]):
        if s == seat or s in offerers:
            continue
        later = sum(o.taken.count(s) for o in offers if order.index(o.offerer) > i)
        out.append((s, 2 + later))
    return out


class Sampler:
    """Prepared once from an observation, then sampled many times (``sample``)."""

    def __init__(self, obs: Observation) -> None:
        view = obs.deal
        if not isinstance(view, KopilkaView) or obs.seat is None:
            raise TypeError("a Kopilka seat's observation is needed")
        self.view = view
        self.seat = seat = obs.seat
        self.dealer = obs.dealer
        self.to_move = obs.to_move
        self.mine = list(view.hand)
        self.my_discards = list(view.my_discards)
        self.done = [_trick(t) for t in view.tricks_played]
        cur = view.trick
        self.played = {c for t in self.done for c in t.cards}
        if cur is not None:
            self.played.update(c for _, c in cur.cards)
        self.shown = [list(x) for x in view.shown]
        public = self.played | {c for x in self.shown for c in x}
        known = set(self.mine) | set(self.my_discards) | public
        #: cards of the seat's own offers taken by a picker: (card, picker)
        self.pins: list[tuple[Card, int]] = []
        offers = [*view.offers, *([view.exchange] if view.exchange else [])]
        for i, ov in enumerate(offers):
            if ov.offerer != seat or ov.cards is None:
                continue
            if ov is view.exchange:     # still on the table: the untaken lie there
                known.update(c for c, t in zip(ov.cards, ov.taken, strict=True)
                             if t is None)
            for c, taker in zip(ov.cards, ov.taken, strict=True):
                # a finished later offer of the taker's may have passed the card on
                passed_on = any(v.offerer == taker for v in view.offers[i + 1:])
                if taker is not None and c not in known and not passed_on:
                    self.pins.append((c, taker))
        known.update(c for c, _ in self.pins)
        self.unknown = [c for c in DECK if c not in known]
        self.voids = [set(v) for v in view.voids]
        self.others = [s for s in range(PLAYERS) if s != seat]
        #: (seat, suit): a pass on the table that paid a remiz shows the suit is held
        self.holds: list[tuple[int, int]] = []
        if cur is not None and cur.led is not None:
            self.holds = [(s, cur.led) for s in cur.passes
                          if s != seat and cur.led not in self.voids[s]]
        self.caps = _decliners(view, seat, obs.dealer)
        #: the suits each place of the deal lacks: other hands, their discards, the talon
        self.place_voids = [self.voids[s] for s in self.others] + [set()] * PLAYERS
        ex = view.exchange
        #: the offer on the table when this seat is not its owner: it must be dealt
        self.table_offer = ex if ex is not None and ex.offerer != seat else None
        #: with no picked card to place and no offer to deal, every draw deals the same
        #: cards to the same places: the one dealer is read once (unless a hand is left
        #: one suit: then it is filled first, draw by draw)
        self.dealer_once: HiddenDealer | None = None
        if not self.pins and self.table_offer is None:
            needs = [view.hand_sizes[s] - len(self.shown[s]) for s in self.others] + \
                [view.discards[s] for s in self.others] + [view.talon]
            bans = [VOID_BANS[frozenset(v)] for v in self.place_voids]
            if all(only is None or not n for (only, _), n in zip(bans, needs, strict=True)):
                self.dealer_once = HiddenDealer(self.unknown, needs, [b for _, b in bans])

    # ------------------------------------------------------------------ sampling
    def sample(self, rng: random.Random) -> KopilkaDeal:
        """A deal consistent with the observation, set to the present."""
        st = self._sample(rng)
        if self.holds or self.caps:
            for _ in range(HOLD_TRIES):
                if self._keeps(st.hands):
                    break
                st = self._sample(rng)
        return st

    def _keeps(self, hands: Sequence[Sequence[Card]]) -> bool:
        """The hands keep what the passes and the exchange showed."""
        if not all(PLAY_RULES.holds_suit(hands[s], suit) for s, suit in self.holds):
            return False
        for s, most in self.caps:
            count = [0, 0, 0, 0]
            for c in hands[s]:
                count[suit_of(c)] += 1
            if max(count) > most:
                return False
        return True

    def _sample(self, rng: random.Random) -> KopilkaDeal:
        once = self.dealer_once
        if once is not None:
            return self._deal([list(x) for x in self.shown], [[] for _ in range(PLAYERS)],
                              once.deal(rng), [])
        view = self.view
        pool = list(self.unknown)
        hand_room = [view.hand_sizes[s] - len(self.shown[s]) for s in range(PLAYERS)]
        disc_room = list(view.discards)
        hands: list[list[Card]] = []
        discards: list[list[Card]] = []
        dealt: list[list[Card]] = []
        offer_cards: list[Card] = []
        pins = list(self.pins)
        if self.table_offer is not None:
            # the offerer may be offering a card he took from this seat's own offer
            offerer = self.table_offer.offerer
            his = [c for c, p in pins if p == offerer]
            offer_cards = self._offer_cards(self.table_offer, pool + his, rng)
            taken = set(offer_cards)
            pool = [c for c in pool if c not in taken]
            pins = [(c, p) for c, p in pins if c not in taken]
            for c, taker in zip(offer_cards, self.table_offer.taken, strict=True):
                if taker is not None and taker != self.seat:
                    pins.append((c, taker))
        others, voids = self.others, self.place_voids
        for attempt in range(PIN_TRIES):
            # a pin chosen at random can leave a void hand too few cards: choose again,
            # and at the last keep every picked card in hand where it may lie
            keep = KEEPS_PICKED if attempt < PIN_TRIES - 1 else 1.0
            h_room, d_room = list(hand_room), list(disc_room)
            hands = [list(x) for x in self.shown]
            discards = [[] for _ in range(PLAYERS)]
            for c, p in pins:
                if h_room[p] > 0 and suit_of(c) not in self.voids[p] and (
                        d_room[p] == 0 or rng.random() < keep):
                    hands[p].append(c)
                    h_room[p] -= 1
                else:
                    discards[p].append(c)
                    d_room[p] -= 1
            needs = [h_room[s] for s in others] + [d_room[s] for s in others] + \
                [view.talon]
            if min(needs) < 0 or not _fits(pool, needs, voids):
                continue
            try:
                dealt = deal_by_suit(pool, needs, voids, rng)
            except ValueError:
                continue
            break
        else:
            raise ValueError("no deal fits what this seat knows")
        return self._deal(hands, discards, dealt, offer_cards)

    def _deal(self, hands: list[list[Card]], discards: list[list[Card]],
              dealt: list[list[Card]], offer_cards: list[Card]) -> KopilkaDeal:
        """The state with the dealt cards added to the hands and discards known so far."""
        k = len(self.others)
        for i, s in enumerate(self.others):
            hands[s].extend(dealt[i])
            discards[s].extend(dealt[k + i])
        hands[self.seat] = list(self.mine)
        discards[self.seat] = list(self.my_discards)
        return self._build(hands, discards, dealt[-1], offer_cards)

    def _offer_cards(self, offer: OfferView, pool: list[Card],
                     rng: random.Random) -> list[Card]:
        """The cards of an offer this seat does not own, in position order: one suit;
        the card it picked (if any) at its position, the others ranked around it."""
        n = offer.count
        if offer.picked is not None:
            pos, mine = offer.picked
            suit = suit_of(mine)
            low = [c for c in pool if suit_of(c) == suit and rank_of(c) < rank_of(mine)]
            high = [c for c in pool if suit_of(c) == suit and rank_of(c) > rank_of(mine)]
            if len(low) >= pos and len(high) >= n - 1 - pos:
                cards = [*rng.sample(low, pos), mine, *rng.sample(high, n - 1 - pos)]
                return sorted(cards)
            same = [c for c in pool if suit_of(c) == suit]
            return sorted([*rng.sample(same, n - 1), mine])
        count = [0, 0, 0, 0]
        for c in pool:
            count[suit_of(c)] += 1
        suit = rng.choices(range(4), [comb(k, n) for k in count])[0]
        return sorted(rng.sample([c for c in pool if suit_of(c) == suit], n))

    # ------------------------------------------------------------------ the state
    def _build(self, hands: list[list[Card]], discards: list[list[Card]], talon: list[Card],
               offer_cards: list[Card]) -> KopilkaDeal:
        view, to_move = self.view, self.to_move
        ex = view.exchange
        offer = None
        if ex is not None:
            offer = self._offer(ex, list(ex.cards) if ex.cards is not None else offer_cards,
                                to_move)
        cur = view.trick
        trick = None
        if cur is not None:
            trick = _trick(cur.cards, cur.leader) if cur.cards else Trick(cur.leader)
        v = view.suit_values
        return KopilkaDeal.resume(
            self.dealer, Purse(list(view.money), view.pot),  # type: ignore[arg-type]
            (v.S, v.C, v.D, v.H), view.remiz, view.fee, view.final_deal,
            phase=view.phase, hands=hands, talon=talon, discards=discards,
            offers=[self._offer(o, [], None) for o in view.offers], offer=offer,
            trick=trick, passes=cur.passes if cur is not None else (),
            draws=cur.draws if cur is not None else (0,) * PLAYERS,
            banned=view.banned_lead, failed=view.failed_leads, won=view.tricks,
            done=self.done, voids=self.voids, shown=self.shown,
            first_to_shed=view.first_to_shed, blocked=view.blocked,
            start_money=view.money_at_start, to_move=to_move)

    @staticmethod
    def _offer(view: OfferView, cards: list[Card], to_move: int | None) -> Offer:
        """An offer as this seat saw it; the cards of another's finished offer are never
        shown to it and stand in as its own picked card (or nothing at all). On the table,
        its turn is that of the picker to move."""
        n, off = view.count, view.offerer
        if not cards:
            if view.cards is not None:
                cards = list(view.cards)
            else:
                fill = view.picked[1] if view.picked is not None else DECK[0]
                cards = [fill] * n
        pickers = [(off + i) % PLAYERS for i in (1, 2, 3)]
        turn, step = len(pickers), "pick"
        if to_move in pickers:
            turn = pickers.index(to_move)
            step = "discard" if to_move in view.taken else "pick"
        return Offer(off, list(cards), pickers, list(view.taken), turn, step)
