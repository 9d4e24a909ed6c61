"""One deal of Kopilka (koloda/rules/kopilka.en.md §Precisely): the same-suit exchange, then play.

A responder plays the led suit or AS, passes (a remiz if he holds the led suit) or draws
from the talon while void; drawing does not end the turn. A lead nobody answers is taken
back and the lead passes left; four in a row block the deal. The deal ends at the first
player to shed his cards. Money moves as it happens, through the match's ``Purse``.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from koloda.cards import CARD_TEXT, SUITS, TEXT_CARD, Card, deck, suit_of
from koloda.engine.deal import Deal, DealState
from koloda.engine.messages import Act, Cards, Reason, Suit
from koloda.games.kopilka.table import (
    ACE_OF_SPADES,
    LEAD_RULES,
    PLAY_RULES,
    PLAYERS,
    Offer,
    Purse,
)
from koloda.games.kopilka.views import KopilkaTrick, KopilkaView, SuitValues, WonTrick
from koloda.tricks import Trick, TrickTaken, legal_plays, why_not_play_text

DECK = frozenset(deck(32))


class KopilkaDeal(DealState):
    """One deal: the exchange round, then tricks until a player sheds or four leads fail."""

    def __init__(self, deal: Deal, purse: Purse, values: tuple[int, ...], remiz: int,
                 fee: int, final: bool) -> None:
        self.players = PLAYERS
        self.dealer = deal.dealer
        self.purse = purse
        self.values, self.remiz, self.fee, self.final = values, remiz, fee, final
        self.hands = [sorted(h) for h in deal.hands]
        self.talon = list(deal.stock)   # top first
        self.all_cards = frozenset(c for h in deal.hands for c in h) | frozenset(deal.stock)
        self.discards: list[list[Card]] = [[] for _ in range(PLAYERS)]
        self.offers: list[Offer] = []
        self.offer: Offer | None = None
        self.exchange_turn = 0          # 0..3: whose turn of the exchange round
        self.phase = "exchange"
        self.trick: Trick | None = None
        self.acted = 0                  # responders who have played or passed
        self.passes: list[int] = []
        self.draws = [0] * PLAYERS
        self.banned: int | None = None  # the suit of the last completed trick
        self.failed = 0                 # failed leads in a row
        self.won: list[list[WonTrick]] = [[] for _ in range(PLAYERS)]
        self.done: list[Trick] = []
        self.seen: set[Card] = set()    # every card shown face up
        #: public knowledge: suits each seat is known to lack now, and the cards it is
        #: known to hold (a failed lead taken back), for the search bot's determinizer
        self.voids: list[set[int]] = [set() for _ in range(PLAYERS)]
        self.shown: list[list[Card]] = [[] for _ in range(PLAYERS)]
        self.first_to_shed: int | None = None
        self.blocked = False
        self.start_log = len(purse.log)
        self.start_money = list(purse.balances)
        self._next_exchange()

    # ---------------------------------------------------------------- exchange
    def _next_exchange(self) -> None:
        """Eligibility is checked at each player's own turn; there is no second round."""
        while self.exchange_turn < PLAYERS:
            seat = (self.dealer + 1 + self.exchange_turn) % PLAYERS
            hand = self.hands[seat]
            for s in range(4):
                same = [c for c in hand if suit_of(c) == s]
                if len(same) >= 3:
                    for c in same:
                        hand.remove(c)
                    pickers = [(seat + i) % PLAYERS for i in (1, 2, 3)]
                    self.offer = Offer(seat, same, pickers, [None] * len(same))
                    self.to_move = pickers[0]
                    return
            self.exchange_turn += 1
        self.phase = "play"
        self._new_trick((self.dealer + 1) % PLAYERS)

    def _close_offer(self, offer: Offer) -> None:
        """The offerer takes back what was not taken and draws as many as were taken."""
        hand = self.hands[offer.offerer]
        hand.extend(c for c, t in zip(offer.cards, offer.taken, strict=True) if t is None)
        k = min(sum(t is not None for t in offer.taken), len(self.talon))
        hand.extend(self.talon[:k])
        del self.talon[:k]
        hand.sort()
        self.offers.append(offer)
        self.offer = None
        self.exchange_turn += 1
        self._next_exchange()

    # -------------------------------------------------------------------- play
    def _new_trick(self, leader: int) -> None:
        self.trick = Trick(leader)
        self.acted = 0
        self.passes = []
        self.draws = [0] * PLAYERS
        self.to_move = leader

    def _holds_led(self, seat: int) -> bool:
        assert self.trick is not None and self.trick.led is not None
        return bool(PLAY_RULES.holds_suit(self.hands[seat], self.trick.led))

    def _legal_actions(self) -> list[str]:
        seat = self.to_move
        assert seat is not None
        hand = self.hands[seat]
        offer = self.offer
        if offer is not None:
            if offer.step == "pick":
                return [f"pick {i}" for i, t in enumerate(offer.taken) if t is None]
            return [f"discard {CARD_TEXT[c]}" for c in hand]
        trick = self.trick
        assert trick is not None
        if not trick.cards:
            return legal_plays(LEAD_RULES[self.banned], hand, None)
        out = legal_plays(PLAY_RULES, hand, trick)
        out.append("pass")
        if self.talon and not self._holds_led(seat):
            out.append("draw")
        return out

    def why_illegal(self, action: str) -> str:
        seat = self.to_move
        assert seat is not None
        hand, verb = self.hands[seat], action.split()[0]
        offer = self.offer
        if offer is not None:
            if offer.step == "pick":
                if verb != "pick":
                    return Reason("offer_pick", seat=offer.offerer, n=len(offer.cards))
                k = int(action.split()[1])
                if k >= len(offer.cards):
                    return Reason("positions_only", last=len(offer.cards) - 1)
                return Reason("position_taken", k=k)
            if verb != "discard":
                return Reason("picked_discard")
            if len(action.split()) != 2:
                return Reason("discard_exactly_one")
            return Reason("not_held", cards=Cards((TEXT_CARD[action.split()[1]],)))
        trick = self.trick
        assert trick is not None
        if verb in ("pick", "discard"):
            return Reason("exchange_over_kopilka")
        if not trick.cards:
            if verb != "play":
                return Reason("leader_plays")
            return why_not_play_text(LEAD_RULES[self.banned], hand, None, action)
        led = trick.led
        assert led is not None
        if verb == "draw":
            held = PLAY_RULES.holds_suit(hand, led)
            if held:
                return Reason("draw_only_void", suit=Suit(led), cards=Cards(held))
            return Reason("talon_empty")
        if verb == "play":
            return why_not_play_text(PLAY_RULES, hand, trick, action)
        return Reason("kopilka_not_now", action=Act(action), suit=Suit(led))

    def _do(self, action: str) -> None:
        seat = self.to_move
        assert seat is not None
        words = action.split()
        offer = self.offer
        if offer is not None:
            if words[0] == "pick":
                pos = int(words[1])
                offer.taken[pos] = seat
                self.hands[seat].append(offer.cards[pos])
                self.hands[seat].sort()
                offer.step = "discard"
                return
            c = TEXT_CARD[words[1]]
            self.hands[seat].remove(c)
            self.discards[seat].append(c)
            offer.turn += 1
            offer.step = "pick"
            if offer.turn < len(offer.pickers):
                self.to_move = offer.pickers[offer.turn]
            else:
                self._close_offer(offer)
            return
        trick = self.trick
        assert trick is not None
        if words[0] == "draw":
            self.hands[seat].append(self.talon.pop(0))
            self.hands[seat].sort()
            self.draws[seat] += 1
            self.voids[seat] = set()    # the card drawn may be of any suit
            return          # drawing does not end the turn
        if words[0] == "play":
            c = TEXT_CARD[words[1]]
            self.hands[seat].remove(c)
            self.seen.add(c)
            if c in self.shown[seat]:
                self.shown[seat].remove(c)
            if not trick.cards:
                if self.banned is not None and suit_of(c) == self.banned:
                    # the last trick's suit may be led only from a hand of nothing else
                    self.voids[seat] = {s for s in range(4) if s != self.banned}
            elif suit_of(c) == trick.led and self.draws[seat]:
                # void before the last draw, so that was the card: void again
                self.voids[seat].add(suit_of(c))
            trick.add(PLAY_RULES, seat, c)
            if len(trick) == 1:
                self.to_move = (seat + 1) % PLAYERS
                return
        else:   # pass
            self.passes.append(seat)
            led = trick.led
            assert led is not None
            if self._holds_led(seat):
                self.purse.pay_in(seat, self.remiz, "remiz: passed holding the led suit")
            else:
                self.voids[seat].add(led)
        self.acted += 1
        if self.acted < PLAYERS - 1:
            self.to_move = (seat + 1) % PLAYERS
        else:
            self._end_trick(trick)

    def _end_trick(self, trick: Trick) -> None:
        if len(trick) == 1:   # a failed lead: the leader takes the card back
            self.hands[trick.leader].append(trick.cards[0])
            self.hands[trick.leader].sort()
            self.shown[trick.leader].append(trick.cards[0])
            self.failed += 1
            if self.failed == PLAYERS:
                self.blocked = True
                self._finish()
            else:
                self._new_trick((trick.leader + 1) % PLAYERS)
            return
        led = trick.led
        assert led is not None
        winner = trick.winner(PLAY_RULES)
        mushka = ACE_OF_SPADES in trick.cards
        value = self.values[led] * (2 if mushka else 1)
        paid = self.purse.pay_out(winner, value, f"trick {SUITS[led]}{' mushka' if mushka else ''}")
        self.won[winner].append(WonTrick(led, mushka, value, paid))
        self.done.append(trick)
        self.banned = led
        self.failed = 0
        shed = [s for s in trick.seats if not self.hands[s]]
        if shed:
            self.first_to_shed = shed[0]
            self.trick = None
            self._finish()
        else:
            self._new_trick(winner)

    def _finish(self) -> None:
        """No-trick remizes, then the fees, then (4th deal) the pot to the first to shed."""
        purse = self.purse
        for s in range(PLAYERS):
            if not self.won[s]:
                purse.pay_in(s, self.remiz, "remiz: no trick")
        for s in range(PLAYERS):
            if s != self.first_to_shed:
                purse.pay_in(s, self.fee, "fee")
        if self.final:
            if self.first_to_shed is not None:
                purse.pay_out(self.first_to_shed, purse.pot, "final pot")
            else:   # blocked: the fewest cards share, an indivisible remainder stays
                fewest = min(len(h) for h in self.hands)
                sharers = [s for s in range(PLAYERS) if len(self.hands[s]) == fewest]
                share = purse.pot // len(sharers)
                for s in sharers:
                    purse.pay_out(s, share, "final pot share")
        self.phase = "over"
        self.is_over = True
        self.to_move = None

    # ---------------------------------------------------------- for search bots
    def payoffs(self) -> list[float]:
        """Each seat's money change in the deal: tricks, remizes, fees and, in the 4th
        deal, the final pot."""
        return [float(b - a) for a, b in zip(self.start_money, self.purse.balances,
                                             strict=True)]

    def clone(self) -> KopilkaDeal:
        """A copy to search on, with its own purse (the match's stays untouched)."""
        new = object.__new__(KopilkaDeal)
        new.__dict__.update(self.__dict__)
        p = self.purse
        new.purse = Purse(list(p.balances), p.pot, list(p.log))
        new.hands = [list(h) for h in self.hands]
        new.talon = list(self.talon)
        new.discards = [list(d) for d in self.discards]
        new.offers = list(self.offers)
        o = self.offer
        if o is not None:
            new.offer = Offer(o.offerer, list(o.cards), list(o.pickers), list(o.taken),
                              o.turn, o.step)
        if self.trick is not None:
            new.trick = self.trick.copy()
        new.passes = list(self.passes)
        new.draws = list(self.draws)
        new.won = [list(w) for w in self.won]
        new.done = list(self.done)
        new.seen = set(self.seen)
        new.voids = [set(v) for v in self.voids]
        new.shown = [list(x) for x in self.shown]
        new.start_money = list(self.start_money)
        return new

    @classmethod
    def resume(cls, dealer: int, purse: Purse, values: Sequence[int], remiz: int, fee: int,
               final: bool, *, phase: str, hands: Sequence[Sequence[Card]],
               talon: Sequence[Card], discards: Sequence[Sequence[Card]],
               offers: Sequence[Offer], offer: Offer | None, trick: Trick | None,
               passes: Sequence[int], draws: Sequence[int], banned: int | None,
               failed: int, won: Sequence[Sequence[WonTrick]], done: Sequence[Trick],
               voids: Sequence[Set[int]], shown: Sequence[Sequence[Card]],
               first_to_shed: int | None, blocked: bool, start_money: Sequence[int],
               to_move: int | None) -> KopilkaDeal:
        """A deal as it stands at some moment (a search's sampled deal), from every
        place's cards, the exchange (the finished offers, the one on the table), the
        trick being played and what is public knowledge. ``purse``, ``offer`` and
        ``trick`` become the new deal's own."""
        st = object.__new__(cls)
        st.players = PLAYERS
        st.dealer = dealer
        st.purse = purse
        st.values, st.remiz, st.fee, st.final = tuple(values), remiz, fee, final
        st.hands = [sorted(h) for h in hands]
        st.talon = list(talon)
        st.all_cards = DECK   # the whole pack: a sampled deal places every card
        st.discards = [list(d) for d in discards]
        st.offers = list(offers)
        st.offer = offer
        st.exchange_turn = ((offer.offerer - dealer - 1) % PLAYERS if offer is not None
                            else PLAYERS)
        st.phase = phase
        st.trick = trick
        st.passes = list(passes)
        st.draws = list(draws)
        st.acted = (len(trick.cards) - 1 if trick is not None and trick.cards else 0) \
            + len(passes)
        st.banned = banned
        st.failed = failed
        st.won = [list(w) for w in won]
        st.done = list(done)
        st.seen = {c for t in done for c in t.cards} | {c for x in shown for c in x}
        if trick is not None:
            st.seen.update(trick.cards)
        st.voids = [set(v) for v in voids]
        st.shown = [list(x) for x in shown]
        st.first_to_shed = first_to_shed
        st.blocked = blocked
        st.start_log = len(purse.log)
        st.start_money = list(start_money)
        st.to_move = to_move
        st.is_over = phase == "over"
        return st

    # ------------------------------------------------------------------- views
    def observation(self, seat: int) -> KopilkaView:
        trick = self.trick
        last = self.done[-1] if self.done else None
        return KopilkaView(
            phase=self.phase,
            hand=tuple(self.hands[seat]),
            hand_sizes=tuple(len(h) for h in self.hands),
            talon=len(self.talon),
            pot=self.purse.pot,
            money=tuple(self.purse.balances),
            tricks=tuple(tuple(w) for w in self.won),
            exchange=self.offer.view(seat) if self.offer else None,
            offers=tuple(o.view(seat) for o in self.offers),
            my_discards=tuple(self.discards[seat]),
            discards=tuple(len(d) for d in self.discards),
            trick=None if trick is None else KopilkaTrick(
                trick.leader, trick.led, trick.plays(), tuple(sorted(self.passes)),
                tuple(self.draws)),
            last_trick=None if last is None else TrickTaken.of(last,
                                                               last.winner(PLAY_RULES)),
            banned_lead=self.banned,
            failed_leads=self.failed,
            first_to_shed=self.first_to_shed,
            blocked=self.blocked,
            tricks_played=tuple(t.plays() for t in self.done),
            voids=tuple(tuple(sorted(v)) for v in self.voids),
            shown=tuple(tuple(x) for x in self.shown),
            money_at_start=tuple(self.start_money),
            suit_values=SuitValues(*self.values),
            remiz=self.remiz,
            fee=self.fee,
            final_deal=self.final,
            tricks_taken=tuple(tuple(t.suit for t in w) for w in self.won),
        )

    def card_zones(self) -> dict[str, list[Card]]:
        zones = {f"hand{s}": list(h) for s, h in enumerate(self.hands)}
        zones["talon"] = list(self.talon)
        zones["discards"] = [c for d in self.discards for c in d]
        zones["offer"] = ([c for c, t in zip(self.offer.cards, self.offer.taken, strict=True)
                           if t is None] if self.offer else [])
        zones["tricks"] = [c for t in self.done for c in t.cards] + \
            (list(self.trick.cards) if self.trick else [])
        return zones

    def hidden_from(self, seat: int) -> set[Card]:
        known = set(self.hands[seat]) | set(self.discards[seat]) | self.seen
        for o in [*self.offers, *([self.offer] if self.offer else [])]:
            if o.offerer == seat:
                known.update(o.cards)
        return set(self.all_cards - known)
