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
What a player's not offering says of his hand is not used.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from math import comb
from typing import Any

from koloda.cards import SUITS, TEXT_CARD, Card, deck, rank_of, suit_of
from koloda.games.kopilka.deal import KopilkaDeal
from koloda.games.kopilka.table import PLAY_RULES, PLAYERS, Offer, Purse
from koloda.games.mushka import SUIT_CARDS, deal_unknown
from koloda.tricks import Trick

DECK = deck(32)
#: the chance a picker kept the card he took (he then threw one of his own)
KEEPS_PICKED = 0.67
#: tries at placing the picked cards before giving up
PIN_TRIES = 4


def determinize(obs: Mapping[str, Any], rng: random.Random) -> KopilkaDeal:
    """``GameSpec.determinize``: a full deal consistent with what ``obs``'s seat knows."""
    return Sampler(obs).sample(rng)


def _cards(texts: list[str]) -> list[Card]:
    return [TEXT_CARD[t] for t in texts]


def _trick(plays: list[list[Any]], leader: int | None = None) -> Trick:
    trick = Trick(plays[0][0] if leader is None else leader)
    for s, t in plays:
        trick.add(PLAY_RULES, s, TEXT_CARD[t])
    return trick


class Sampler:
    """Prepared once from an observation, then sampled many times (``sample``)."""

    def __init__(self, obs: Mapping[str, Any]) -> None:
        self.obs = obs
        self.seat = seat = obs["seat"]
        self.mine = _cards(obs["hand"])
        self.my_discards = _cards(obs["my_discards"])
        self.done = [_trick(t) for t in obs["tricks_played"]]
        cur = obs["trick"]
        self.played = {c for t in self.done for c in t.cards}
        if cur is not None:
            self.played.update(_cards([p[1] for p in cur["cards"]]))
        self.shown = [_cards(x) for x in obs["shown"]]
        public = self.played | {c for x in self.shown for c in x}
        known = set(self.mine) | set(self.my_discards) | public
        #: cards of the seat's own offers taken by a picker: (card, picker)
        self.pins: list[tuple[Card, int]] = []
        views = obs["offers"] + ([obs["exchange"]] if obs["exchange"] else [])
        for i, view in enumerate(views):
            if view["offerer"] != seat:
                continue
            cards = _cards(view["cards"])
            if view is obs["exchange"]:     # still on the table: the untaken lie there
                known.update(c for c, t in zip(cards, view["taken"], strict=True)
                             if t is None)
            for c, taker in zip(cards, view["taken"], strict=True):
                # a finished later offer of the taker's may have passed the card on
                passed_on = any(v["offerer"] == taker for v in obs["offers"][i + 1:])
                if taker is not None and c not in known and not passed_on:
                    self.pins.append((c, taker))
        known.update(c for c, _ in self.pins)
        self.unknown = [c for c in DECK if c not in known]
        self.voids = [{SUITS.index(v) for v in vs} for vs in obs["voids"]]
        self.others = [s for s in range(PLAYERS) if s != seat]
        no_cards: frozenset[Card] = frozenset()
        self.banned = [no_cards.union(*(SUIT_CARDS[v] for v in self.voids[s]))
                       for s in self.others] + [no_cards] * PLAYERS
        view = obs["exchange"]
        #: the offer on the table when this seat is not its owner: it must be dealt
        self.table_offer = view if view is not None and view["offerer"] != seat else None

    # ------------------------------------------------------------------ sampling
    def sample(self, rng: random.Random) -> KopilkaDeal:
        obs = self.obs
        pool = list(self.unknown)
        hand_room = [obs["hand_sizes"][s] - len(self.shown[s]) for s in range(PLAYERS)]
        disc_room = list(obs["discards"])
        hands: list[list[Card]] = []
        discards: list[list[Card]] = []
        dealt: list[list[Card]] = []
        offer_cards: list[Card] = []
        pins = list(self.pins)
        if self.table_offer is not None:
            # the offerer may be offering a card he took from this seat's own offer
            offerer = self.table_offer["offerer"]
            his = [c for c, p in pins if p == offerer]
            offer_cards = self._offer_cards(self.table_offer, pool + his, rng)
            taken = set(offer_cards)
            pool = [c for c in pool if c not in taken]
            pins = [(c, p) for c, p in pins if c not in taken]
            for c, taker in zip(offer_cards, self.table_offer["taken"], strict=True):
                if taker is not None and taker != self.seat:
                    pins.append((c, taker))
        others, banned = self.others, self.banned
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
                [obs["talon"]]
            if min(needs) < 0:
                continue
            try:
                dealt = deal_unknown(pool, needs, banned, rng)
            except ValueError:
                continue
            break
        else:
            raise ValueError("no deal fits what this seat knows")
        k = len(others)
        for i, s in enumerate(others):
            hands[s].extend(dealt[i])
            discards[s].extend(dealt[k + i])
        hands[self.seat] = list(self.mine)
        discards[self.seat] = list(self.my_discards)
        return self._build(hands, discards, dealt[-1], offer_cards)

    def _offer_cards(self, view: dict[str, Any], pool: list[Card],
                     rng: random.Random) -> list[Card]:
        """The cards of an offer this seat does not own, in position order: one suit;
        the card it picked (if any) at its position, the others ranked around it."""
        n = view["count"]
        picked = view.get("picked")
        if picked is not None:
            pos, mine = picked[0], TEXT_CARD[picked[1]]
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
        obs = self.obs
        seat, dealer, to_move = self.seat, obs["dealer"], obs["to_move"]
        st = object.__new__(KopilkaDeal)
        st.players = PLAYERS
        st.dealer = dealer
        st.purse = Purse(list(obs["money"]), obs["pot"])
        st.values = tuple(obs["values"][s] for s in SUITS)
        st.remiz, st.fee, st.final = obs["remiz"], obs["fee"], obs["final_deal"]
        st.hands = [sorted(h) for h in hands]
        st.talon = list(talon)
        st.all_cards = frozenset(DECK)
        st.discards = discards
        st.offers = [self._offer(v, []) for v in obs["offers"]]
        view = obs["exchange"]
        st.offer = None
        if view is not None:
            cards = _cards(view["cards"]) if view["offerer"] == seat else offer_cards
            st.offer = self._offer(view, cards)
            pickers = st.offer.pickers
            if to_move in pickers:
                st.offer.turn = pickers.index(to_move)
                st.offer.step = "discard" if to_move in view["taken"] else "pick"
        st.phase = obs["phase"]
        st.exchange_turn = ((view["offerer"] - dealer - 1) % PLAYERS if view is not None
                            else PLAYERS)
        cur = obs["trick"]
        st.trick = None
        st.acted, st.passes, st.draws = 0, [], [0] * PLAYERS
        if cur is not None:
            st.trick = _trick(cur["cards"], cur["leader"]) if cur["cards"] else \
                Trick(cur["leader"])
            st.passes = list(cur["passes"])
            st.draws = list(cur["draws"])
            st.acted = (len(cur["cards"]) - 1 if cur["cards"] else 0) + len(st.passes)
        banned = obs["banned_lead"]
        st.banned = None if banned is None else SUITS.index(banned)
        st.failed = obs["failed_leads"]
        st.won = [[dict(t) for t in w] for w in obs["tricks"]]
        st.done = list(self.done)
        st.seen = set(self.played) | {c for x in self.shown for c in x}
        st.voids = [set(v) for v in self.voids]
        st.shown = [list(x) for x in self.shown]
        st.first_to_shed = obs["first_to_shed"]
        st.blocked = obs["blocked"]
        st.start_log = 0
        st.start_money = list(obs["money_at_start"])
        st.to_move = to_move
        st.is_over = st.phase == "over"
        st._legal = None
        return st

    def _offer(self, view: dict[str, Any], cards: list[Card]) -> Offer:
        """An offer as this seat saw it; the cards of another's finished offer are never
        shown to it and stand in as its own picked card (or nothing at all)."""
        n, off = view["count"], view["offerer"]
        if not cards:
            if "cards" in view:
                cards = _cards(view["cards"])
            else:
                fill = TEXT_CARD[view["picked"][1]] if "picked" in view else DECK[0]
                cards = [fill] * n
        pickers = [(off + i) % PLAYERS for i in (1, 2, 3)]
        return Offer(off, list(cards), pickers, list(view["taken"]), len(pickers), "pick")
