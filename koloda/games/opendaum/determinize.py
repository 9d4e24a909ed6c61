"""Rebuilding an Opendaum deal from one seat's observation, for the search bot.

What a seat knows: its own hand, the trump card (turned on the stock, or shown in the
dealer's hand when the whole deck is dealt), every card played this deal (the current trick
and ``tricks_played``), the voids those plays showed (``voids``, see
``OpendaumDeal.known_voids``), every hand size and the deck. The cards it cannot place are
shared among the other hands and the stock under the turned card, never giving a seat a
card of a suit it is known to lack, and the deal is set to the present from the public
history.

``prepare(obs)`` reads the observation once; ``Template.sample(rng)`` then draws as many
deals as a search wants (the parsing is not repeated per draw).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from koloda.cards import SUITS, TEXT_CARD, Card, deck
from koloda.engine.deal import Deal
from koloda.engine.registry import get_spec
from koloda.games.opendaum.deal import BID, OVER, PLAY, OpendaumDeal
from koloda.games.opendaum.match import OpendaumMatch, trick_rules
from koloda.tricks import Trick, TrickRules

#: sequential dealing attempts before the exhaustive search (a dead end is rare)
TRIES = 20
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


class Template:
    """Everything one observation fixes; ``sample`` deals the rest."""

    def __init__(self, obs: Mapping[str, Any]) -> None:
        match_class = get_spec(obs["game"]).match_class
        assert issubclass(match_class, OpendaumMatch)
        variant = match_class.variant
        self.variant = variant
        self.obs = obs
        n = self.players = int(obs["players"])
        self.seat = seat = int(obs["seat"])
        self.dealer = dealer = int(obs["dealer"])
        options = obs["options"]
        self.trump_card = tc = TEXT_CARD[obs["trump_card"]]
        self.rules: TrickRules = trick_rules(variant, options)[SUITS.index(obs["trump"])]
        self.mine = [TEXT_CARD[t] for t in obs["hand"]]
        # the public history: completed tricks, then the trick on the table
        self.history = [(int(t["leader"]), [(int(p[0]), TEXT_CARD[p[1]],
                                             p[2] if len(p) > 2 else None) for p in t["cards"]])
                        for t in obs["tricks_played"]]
        current = obs["trick"]
        self.current = (int(obs["leader"]), [(int(p[0]), TEXT_CARD[p[1]],
                                              p[2] if len(p) > 2 else None) for p in current])
        self.winners = [int(t["winner"]) for t in obs["tricks_played"]]
        played_by: list[list[Card]] = [[] for _ in range(n)]
        for _, plays in (*self.history, self.current):
            for s, c, _m in plays:
                played_by[s].append(c)
        self.played_by = played_by
        seen = set(self.mine)
        for p in played_by:
            seen.update(p)
        sizes = [int(x) for x in obs["hand_sizes"]]
        size = int(obs["deal_size"])
        stock_size = int(obs["deck_size"]) - n * size
        # fixed cards: the turned card tops the stock; a shown trump card in the dealer's hand
        # stays there until the dealer plays it
        self.fixed: list[list[Card]] = [[] for _ in range(n + 1)]   # place n = the stock
        if stock_size:
            self.fixed[n].append(tc)
        elif tc not in seen and dealer != seat:
            self.fixed[dealer].append(tc)
        seen.add(tc)
        self.places = [s for s in range(n) if s != seat] + [n]
        self.needs = [sizes[s] - len(self.fixed[s]) for s in range(n) if s != seat]
        self.needs.append(stock_size - len(self.fixed[n]))
        self.pool = [c for c in deck(int(obs["deck_size"])) if c not in seen]
        assert sum(self.needs) == len(self.pool), "the counts do not add up"
        # the places each unknown card may go to (voids never count a shakha)
        suit, shakhi = self.rules.suit, self.rules.shakhi
        void_sets = [{SUIT_INDEX[v] for v in vs} for vs in obs["voids"]]
        self.voids = void_sets
        allowed: dict[Card, list[int]] = {}
        for c in self.pool:
            allowed[c] = [i for i, p in enumerate(self.places)
                          if self.needs[i] and (p == n or c in shakhi
                                                or suit[c] not in void_sets[p])]
        self.allowed = allowed
        self.free = all(len(a) == sum(1 for x in self.needs if x) for a in allowed.values())

    # --------------------------------------------------------------- sampling
    def split(self, rng: random.Random) -> list[list[Card]]:
        """The unknown cards, one list per place (other seats in order, then the stock)."""
        pool = list(self.pool)
        rng.shuffle(pool)
        needs = self.needs
        if self.free:
            out, pos = [], 0
            for k in needs:
                out.append(pool[pos:pos + k])
                pos += k
            return out
        allowed = self.allowed
        pool.sort(key=lambda c: len(allowed[c]))        # the most constrained first
        for _ in range(TRIES):
            room = list(needs)
            out = [[] for _ in needs]
            for c in pool:
                opts = [i for i in allowed[c] if room[i]]
                if not opts:
                    break
                if len(opts) == 1:
                    i = opts[0]
                else:   # a place drawn in proportion to its room left
                    r = rng.randrange(sum(room[i] for i in opts))
                    for i in opts:
                        r -= room[i]
                        if r < 0:
                            break
                out[i].append(c)
                room[i] -= 1
            else:
                return out
        found = _backtrack(pool, allowed, list(needs), [[] for _ in needs], 0, rng)
        if found is None:
            raise ValueError("no arrangement of the unknown cards fits what is known")
        return found

    def sample(self, rng: random.Random) -> OpendaumDeal:
        """A full deal consistent with the observation, set to the present."""
        n, seat, obs = self.players, self.seat, self.obs
        parts = self.split(rng)
        hands: list[list[Card]] = [[] for _ in range(n)]
        hands[seat] = list(self.mine)
        for i, p in enumerate(self.places[:-1]):
            hands[p] = parts[i] + self.fixed[p]
        stock = self.fixed[n] + parts[-1]
        rules = self.rules
        dealt = tuple(tuple(h + self.played_by[s]) for s, h in enumerate(hands))
        variant = self.variant
        st = OpendaumDeal(Deal(self.dealer, dealt, tuple(stock), self.trump_card), rules,
                          variant.hook, int(obs["schedule_position"]),
                          int(obs["schedule_length"]),
                          variant.final_deal_multiplier, obs["options"])
        st.hands = [sorted(h) for h in hands]
        st.bids = list(obs["bids"])
        st.tricks = [int(t) for t in obs["tricks_taken"]]
        taken: list[list[Card]] = [[] for _ in range(n)]
        played = []
        for (leader, plays), w in zip(self.history, self.winners, strict=True):
            t = _trick(rules, leader, plays)
            played.append(t)
            taken[w].extend(t.cards)
        st.taken, st.played = taken, played
        if played:
            st.last_trick, st.last_winner = played[-1], self.winners[-1]
        st.trick = _trick(rules, *self.current)
        phase = obs["phase"]
        st.phase = BID if phase == BID else PLAY if phase == PLAY else OVER
        st.to_move = obs["to_move"]
        st.is_over = st.phase is OVER
        return st


def _trick(rules: TrickRules, leader: int,
           plays: list[tuple[int, Card, str | None]]) -> Trick:
    t = Trick(leader)
    for s, c, m in plays:
        t.add(rules, s, c, m)
    return t


def _backtrack(cards: list[Card], allowed: dict[Card, list[int]], room: list[int],
               out: list[list[Card]], j: int, rng: random.Random) -> list[list[Card]] | None:
    if j == len(cards):
        return out
    c = cards[j]
    opts = [i for i in allowed[c] if room[i]]
    rng.shuffle(opts)
    for i in opts:
        room[i] -= 1
        out[i].append(c)
        if _backtrack(cards, allowed, room, out, j + 1, rng) is not None:
            return out
        out[i].pop()
        room[i] += 1
    return None


def prepare(obs: Mapping[str, Any]) -> Template:
    return Template(obs)


def determinize(obs: Mapping[str, Any], rng: random.Random) -> OpendaumDeal:
    """``GameSpec.determinize``: one deal consistent with what ``obs``'s seat knows."""
    return Template(obs).sample(rng)
