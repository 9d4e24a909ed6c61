"""Rebuilding an Opendaum deal from one seat's observation, for the search bot.

What a seat knows (its typed view, ``OpendaumView``): its own hand, the trump card (turned
on the stock, or shown in the dealer's hand when the whole deck is dealt), every card played
this deal (the current trick and ``tricks_played``), the voids those plays showed
(``voids``, see ``OpendaumDeal.known_voids``), every hand size and the deck. The cards it
cannot place are shared among the other hands and the stock under the turned card by the
one constrained dealer (``koloda.games._hidden``), never giving a seat a card of a suit it
is known to lack, and the deal is rebuilt at the present by ``OpendaumDeal.resume``.

``Template(obs, variant)`` reads the observation once; ``sample(rng)`` then draws as many
deals as a search wants (the reading is not repeated per draw). Each spec's
``determinize`` is ``determinizer(variant)``: the variant is known from the spec, never
looked up from the observation's game name.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from koloda.cards import Card, deck
from koloda.engine.deal import Deal
from koloda.engine.view import Observation
from koloda.games._hidden import HiddenDealer
from koloda.games.opendaum.deal import OpendaumDeal
from koloda.games.opendaum.match import OpendaumMatch, Variant, trick_rules
from koloda.games.opendaum.views import OpendaumView, Plays
from koloda.tricks import Trick, TrickRules


class Template:
    """Everything one observation fixes; ``sample`` deals the rest."""

    def __init__(self, obs: Observation, variant: Variant) -> None:
        view = obs.deal
        if not isinstance(view, OpendaumView) or obs.seat is None or obs.dealer is None:
            raise ValueError("an Opendaum determinization needs one seat's Opendaum view")
        self.variant = variant
        self.view = view
        n = self.players = obs.players
        self.seat = seat = obs.seat
        self.dealer = dealer = obs.dealer
        self.to_move = obs.to_move
        self.trump_card = tc = view.trump_card
        assert view.trump is not None
        rules = self.rules = trick_rules(variant, view.options)[view.trump]
        self.mine = list(view.hand)
        # the public history: completed tricks (built once, shared by every sample: they
        # never change), then the trick on the table (copied per sample)
        self.played = [_trick(rules, t.leader, t.cards) for t in view.tricks_played]
        self.winners = [t.winner for t in view.tricks_played]
        self.current = _trick(rules, view.leader, view.trick)
        played_by: list[list[Card]] = [[] for _ in range(n)]
        for plays in (*(t.cards for t in view.tricks_played), view.trick):
            for play in plays:
                played_by[play[0]].append(play[1])
        self.played_by = played_by
        taken: list[list[Card]] = [[] for _ in range(n)]
        for t, w in zip(self.played, self.winners, strict=True):
            taken[w].extend(t.cards)
        self.taken = taken
        seen = set(self.mine)
        for cards in played_by:
            seen.update(cards)
        stock_size = view.deck_size - n * view.deal_size
        # fixed cards: the turned card tops the stock; a shown trump card in the dealer's
        # hand stays there until the dealer plays it
        self.fixed: list[list[Card]] = [[] for _ in range(n + 1)]   # place n = the stock
        if stock_size:
            self.fixed[n].append(tc)
        elif tc not in seen and dealer != seat:
            self.fixed[dealer].append(tc)
        seen.add(tc)
        self.places = [s for s in range(n) if s != seat] + [n]
        needs = [view.hand_sizes[s] - len(self.fixed[s]) for s in range(n) if s != seat]
        needs.append(stock_size - len(self.fixed[n]))
        pool = [c for c in deck(view.deck_size) if c not in seen]
        # a seat never gets a card of a suit it showed it lacks (a shakha shows nothing:
        # it is always playable); the stock takes anything
        suit, shakhi = rules.suit, rules.shakhi
        banned: list[frozenset[Card]] = []
        for place in self.places:
            lacks = view.voids[place] if place < n else ()
            banned.append(frozenset(c for c in pool if c not in shakhi and suit[c] in lacks))
        self.dealer_of_unknown = HiddenDealer(pool, needs, banned)

    def sample(self, rng: random.Random, parts: list[list[Card]] | None = None
               ) -> OpendaumDeal:
        """A full deal consistent with the observation, set to the present (``parts``: the
        unseen cards as ``dealer_of_unknown.deal`` shares them, if drawn already)."""
        n, seat, view = self.players, self.seat, self.view
        if parts is None:
            parts = self.dealer_of_unknown.deal(rng)
        hands: list[list[Card]] = [[] for _ in range(n)]
        hands[seat] = list(self.mine)
        for i, p in enumerate(self.places[:-1]):
            hands[p] = parts[i] + self.fixed[p]
        stock = self.fixed[n] + parts[-1]
        dealt = tuple(tuple(h + self.played_by[s]) for s, h in enumerate(hands))
        variant = self.variant
        return OpendaumDeal.resume(
            Deal(self.dealer, dealt, tuple(stock), self.trump_card), self.rules, variant.hook,
            view.schedule_position, view.schedule_length, variant.final_deal_multiplier,
            view.options, hands=hands, bids=view.bids, tricks=view.tricks_taken,
            taken=[list(t) for t in self.taken], played=self.played,
            winners=self.winners, history=view.tricks_played, trick=self.current.copy(),
            phase=view.phase, to_move=self.to_move)


def _trick(rules: TrickRules, leader: int, plays: Plays) -> Trick:
    t = Trick(leader)
    for p in plays:
        t.add(rules, p[0], p[1], p[2] if len(p) > 2 else None)
    return t


def prepare(obs: Observation, variant: Variant | None = None) -> Template:
    """The template of ``obs`` (``variant``: the spec's, by default its game's)."""
    if variant is None:
        from koloda.engine.registry import get_spec
        match_class = get_spec(obs.game).match_class
        assert issubclass(match_class, OpendaumMatch)
        variant = match_class.variant
    return Template(obs, variant)


def determinizer(variant: Variant) -> Callable[[Observation, random.Random], OpendaumDeal]:
    """``GameSpec.determinize`` of ``variant``: one deal consistent with what the
    observation's seat knows. The template of the last observation is kept, so a search
    that determinizes one observation again and again reads it once."""
    last: list[tuple[Observation, Template] | None] = [None]

    def determinize(obs: Observation, rng: random.Random) -> OpendaumDeal:
        known = last[0]                 # read once: another thread may replace it
        if known is not None and known[0] is obs:
            template = known[1]
        else:
            template = Template(obs, variant)
            last[0] = (obs, template)
        return template.sample(rng)

    determinize.__doc__ = f"One {variant.name} Opendaum deal consistent with ``obs``."
    return determinize
