"""Kopilka, the no-lose mushka (koloda/rules/kopilka.en.md §Precisely): a match's first deal,
batched whole, the same-suit exchange included.

**What is batched: the whole deal.** The exchange is played as steps: at each player's
own turn from the dealer's left, the first suit (S C D H) of which he holds three or more
is offered face down (by the batch itself: it is no choice), and each other player in
turn from his left picks one of the offer's free positions (``pick k``: the k-th offered
card in card order) and discards a card; then the offerer takes back what is left and
draws as many as were picked while the talon lasts. Then the play — draws, passes, failed
leads, blocked deals and the first to shed all included. A deal has its own length and
its own order of play, so here (unlike ``koloda.batched.core``) every game keeps its own
mover, trick and phase in arrays, and a step advances every game still going. A game that
is over waits for the rest of its batch: its only action is ``PASS`` (ignored),
``terminated`` says which are over, ``is_over`` that all are.

Who wins a trick is the shared trick's (``koloda.batched.trick``) with Kopilka's data: no
trumps; AS, the mushka, may be played on any trick and wins it (at double value), and is
a spade otherwise (a spade lead, holding spades). The rest is Kopilka's own: a lead may
not be of the last completed trick's suit unless the hand is all that suit; a responder
plays the led suit or AS, passes (a remiz while holding the led suit) or, void in it,
draws from the talon (the turn goes on).

Actions: ``0..51`` play that card (in the exchange: discard it), ``52`` pass, ``53``
draw, ``54 + k`` pick position ``k`` (``PICK``). Money (``points``, by seat):
as the engine's ``KopilkaDeal.payoffs`` — tricks paid out of the pot as they complete
(capped by it; the pot holds the stakes), remizes, then the fees; the first deal of four,
so no final pot.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from koloda.batched.bits import ONE, U64, as_keys, key_stream, popcount, shuffled
from koloda.batched.core import CARDS, I64, SALT_DEAL, SALT_DEALER, dealt_hands
from koloda.batched.pace import PacedBatch
from koloda.batched.playphase import deal_round_robin
from koloda.batched.trick import TRUMPLESS, TrickRule
from koloda.cards import ACE, CARD_TEXT, SPADES, SUITS, card, deck

PLAYERS, HAND = 4, 5
ACE_OF_SPADES = card(ACE, SPADES)
AS_BIT = np.uint64(1 << ACE_OF_SPADES)
PASS, DRAW = CARDS, CARDS + 1
#: ``pick k``: the k-th of the offered cards (in card order; at most 8: one suit)
PICK = CARDS + 2
#: a discard in the history (the action itself is the card, as a play is)
DISCARDED = 100
DEFAULT_VALUES = {"H": 4, "C": 3, "D": 2, "S": 1}
_SUIT_BITS = np.array([sum(1 << (s * 13 + r) for r in range(13)) for s in range(4)],
                      dtype=np.uint64)
_ZERO = np.uint64(0)
#: the mushka's strength: it wins whatever is led
MUSHKA = 100


def _kth_card(offer: U64, k: I64) -> U64:
    """The bit of each offer's ``k``-th card (in card order)."""
    out = np.zeros(len(offer), dtype=np.uint64)
    left = offer.copy()
    for q in range(8):
        low = left & np.negative(left)
        out |= np.where(k == q, low, _ZERO)
        left ^= low
    return out


def _positions(offer: U64, free: U64) -> U64:
    """Bit ``k`` set where the offer's ``k``-th card is still free."""
    out = np.zeros(len(offer), dtype=np.uint64)
    left = offer.copy()
    for q in range(8):
        low = left & np.negative(left)
        out |= ((free & low) != 0).astype(np.uint64) << np.uint64(q)
        left ^= low
    return out


@dataclass
class KopilkaState:
    """A batch of Kopilka deals in play; arrays by game (last axis), seats absolute."""

    keys: U64
    dealer: I64
    order: npt.NDArray[np.uint8]     # the shuffled deck (hands, then the talon)
    hands: U64                       # (4, games)
    talon: npt.NDArray[np.uint8]     # (games, 12): the talon after the exchange, top first
    talon_left: I64                  # cards of ``talon`` still there (from ``talon_next``)
    talon_next: I64
    mover: I64
    leader: I64
    led: I64                         # -1: the leader is to lead
    trick: U64                       # the cards on the table
    cards_in: I64                    # cards played to the trick (the lead included)
    acted: I64                       # responders who played or passed
    base: I64                        # the trick: koloda.batched.trick's base and best
    best: I64                        # 8 × strength + the seat of the trick's best card
    banned: I64                      # the last completed trick's suit, -1 none
    failed: I64                      # failed leads in a row
    won: I64                         # (4, games) tricks taken
    pot: I64
    money: I64                       # (4, games) balances (the stakes paid in)
    over: npt.NDArray[np.bool_]
    first_to_shed: I64
    legal: U64
    #: the exchange for records: per turn i (offerer = dealer + 1 + i) the cards offered,
    #: and per picker (1..3 to the offerer's left) the position picked and card discarded
    offered: U64                     # (4, games)
    picks: I64                       # (4, 3, games), -1: no offer
    discards: I64                    # (4, 3, games)
    #: every action, per game: (seat, action) in order, -1 padding (grows as needed)
    history: npt.NDArray[np.int16]   # (steps, 2, games)
    #: (4, games) each seat's money change in the deal so far (final once over)
    points: npt.NDArray[np.float32] = field(
        default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    t: int = 0
    offset: int = 0                  # the action of legal bit 0 (every action is a bit)
    #: the exchange: the turn (offerer ``dealer + 1 + stage``; 4: the play), the picker
    #: of the offer (0..2 to the offerer's left), whether a pick or a discard is due, and
    #: the offered cards not picked yet
    stage: I64 = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    picker: I64 = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    picking: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=np.bool_))
    free: U64 = field(default_factory=lambda: np.zeros(0, dtype=np.uint64))

    @property
    def games(self) -> int:
        return len(self.keys)

    def copy(self) -> KopilkaState:
        return replace(self, **{f.name: getattr(self, f.name).copy() for f in fields(self)
                                if isinstance(getattr(self, f.name), np.ndarray)})


class Kopilka(PacedBatch):
    """``Kopilka(stake=10, fee=5, remiz=5, values=None)``: a match's first deal."""

    name = "kopilka"
    players = table = PLAYERS
    num_actions = PICK + 8

    def __init__(self, stake: int = 10, fee: int = 5, remiz: int = 5,
                 values: dict[str, int] | None = None) -> None:
        for what, v in (("stake", stake), ("fee", fee), ("remiz", remiz)):
            if v < 0:
                raise ValueError(f"kopilka: {what} is a whole number ≥ 0, not {v}")
        self.stake, self.fee, self.remiz = stake, fee, remiz
        self.values_by_name = dict(DEFAULT_VALUES if values is None else values)
        self.values = np.array([self.values_by_name[s] for s in SUITS], dtype=np.int64)
        self.deck = np.array(deck(32), dtype=np.uint8)
        cards = np.arange(64, dtype=np.int64)
        self.rule = TrickRule(self.deck.tolist(), cards // 13, cards % 13,
                              always={ACE_OF_SPADES: MUSHKA})

    # ------------------------------------------------------------------ init
    def init(self, keys: npt.ArrayLike) -> KopilkaState:
        k = as_keys(keys)
        games = len(k)
        order = shuffled(k, self.deck, SALT_DEAL)
        dealer = (key_stream(k, SALT_DEALER) % np.uint64(PLAYERS)).astype(np.int64)
        ar = np.arange(games)
        by_order = deal_round_robin(order, PLAYERS, HAND)
        hands = np.empty_like(by_order)
        for i in range(PLAYERS):
            hands[(dealer + 1 + i) % PLAYERS, ar] = by_order[i]
        talon = order[:, PLAYERS * HAND:].copy()
        talon_next = np.zeros(games, dtype=np.int64)
        offered = np.zeros((PLAYERS, games), dtype=np.uint64)
        picks = np.full((PLAYERS, 3, games), -1, dtype=np.int64)
        discards = np.full((PLAYERS, 3, games), -1, dtype=np.int64)
        zeros = np.zeros(games, dtype=np.int64)
        money = np.full((PLAYERS, games), -self.stake, dtype=np.int64)
        first = (dealer + 1) % PLAYERS
        state = KopilkaState(
            keys=k, dealer=dealer, order=order, hands=hands, talon=talon,
            talon_left=12 - talon_next, talon_next=talon_next, mover=first.copy(),
            leader=first, led=np.full(games, -1, dtype=np.int64),
            trick=np.zeros(games, dtype=np.uint64), cards_in=zeros.copy(), acted=zeros.copy(),
            base=zeros.copy(), best=zeros.copy(), banned=np.full(games, -1, dtype=np.int64),
            failed=zeros.copy(), won=np.zeros((PLAYERS, games), dtype=np.int64),
            pot=np.full(games, PLAYERS * self.stake, dtype=np.int64), money=money,
            over=np.zeros(games, dtype=np.bool_), first_to_shed=np.full(games, -1, np.int64),
            legal=np.zeros(games, dtype=np.uint64), offered=offered, picks=picks,
            discards=discards, history=np.full((64, 2, games), -1, dtype=np.int16),
            stage=zeros.copy(), picker=zeros.copy(), picking=np.zeros(games, dtype=np.bool_),
            free=np.zeros(games, dtype=np.uint64))
        self._open_offers(state, ar)
        self._set_legal(state)
        state.points = self.points(state)
        return state

    # ------------------------------------------------------------------ play
    # ------------------------------------------------------------- exchange
    def _open_offers(self, state: KopilkaState, g: I64) -> None:
        """From each game's exchange turn on, the first player holding three or more of a
        suit offers them (the first such suit, S C D H), checked at his own turn; after
        the fourth turn the play begins, the dealer's left leading."""
        while len(g):
            playing = state.stage[g] >= PLAYERS
            start = g[playing]
            first = (state.dealer[start] + 1) % PLAYERS
            state.mover[start] = first
            state.leader[start] = first
            state.talon_left[start] = 12 - state.talon_next[start]
            g = g[~playing]
            i = state.stage[g]
            offerer = (state.dealer[g] + 1 + i) % PLAYERS
            hand = state.hands[offerer, g]
            offer = np.zeros(len(g), dtype=np.uint64)
            for s in range(4):
                same = hand & _SUIT_BITS[s]
                offer = np.where((offer == 0) & (popcount(same) >= 3), same, offer)
            has = offer != 0
            o = g[has]
            state.offered[i[has], o] = offer[has]
            state.hands[offerer[has], o] = hand[has] & ~offer[has]
            state.free[o] = offer[has]
            state.picker[o] = 0
            state.picking[o] = True
            state.mover[o] = (offerer[has] + 1) % PLAYERS
            g = g[~has]
            state.stage[g] += 1

    def _exchange(self, state: KopilkaState, a: I64, g: I64) -> None:
        """The games ``g`` in the exchange: a pick (the picked card to the picker's
        hand), or the picker's discard; after the third, the offerer takes back what was
        not picked, draws as many as were (while the talon lasts) and the next turn
        comes."""
        seat, i, p = state.mover[g], state.stage[g], state.picker[g]
        picking = state.picking[g]
        gk, k = g[picking], a[picking] - PICK
        card = _kth_card(state.offered[i[picking], gk], k)
        state.hands[seat[picking], gk] |= card
        state.free[gk] &= ~card
        state.picks[i[picking], p[picking], gk] = k
        state.picking[gk] = False
        d = ~picking
        gd, c = g[d], a[d]
        state.hands[seat[d], gd] &= ~np.left_shift(ONE, c.astype(np.uint64))
        state.discards[i[d], p[d], gd] = c
        nxt = p[d] + 1
        state.picker[gd] = nxt
        state.picking[gd] = True
        offerer = (state.dealer[gd] + 1 + i[d]) % PLAYERS
        state.mover[gd] = (offerer + 1 + nxt) % PLAYERS
        closed = nxt == 3
        if closed.any():
            gc, offerer = gd[closed], offerer[closed]
            taken = state.talon_next[gc]
            drawn = np.minimum(3, 12 - taken)
            new = np.zeros(len(gc), dtype=np.uint64)
            for q in range(3):
                top = state.talon[gc, np.minimum(taken + q, 11)].astype(np.uint64)
                new |= np.where(q < drawn, np.left_shift(ONE, top), _ZERO)
            state.hands[offerer, gc] |= state.free[gc] | new
            state.talon_next[gc] = taken + drawn
            state.free[gc] = _ZERO
            state.stage[gc] += 1
            self._open_offers(state, gc)

    # ------------------------------------------------------------------ play
    def _set_legal(self, state: KopilkaState, g: I64 | None = None) -> None:
        """The legal set of the games ``g`` (all when None): a game over, ``PASS``."""
        if g is None:
            g = np.arange(state.games)
        h = state.hands[state.mover[g], g]
        banned, led = state.banned[g], state.led[g]
        other = h & ~_SUIT_BITS.take(np.maximum(banned, 0))
        lead = np.where((banned >= 0) & (other != 0), other, h)
        same = h & _SUIT_BITS.take(np.maximum(led, 0))
        respond = same | (h & AS_BIT) | np.uint64(1 << PASS)
        respond |= np.where((same == 0) & (state.talon_left[g] > 0), np.uint64(1 << DRAW),
                            _ZERO)
        legal = np.where(led < 0, lead, respond)
        stage = state.stage[g]
        trading = stage < PLAYERS
        if trading.any():
            # the exchange: the free positions of the offer, else any card to discard
            offer = state.offered[np.minimum(stage, PLAYERS - 1), g]
            picks = _positions(offer, state.free[g]) << np.uint64(PICK)
            legal = np.where(trading, np.where(state.picking[g], picks, h), legal)
        state.legal[g] = np.where(state.over[g], np.uint64(1 << PASS), legal)

    def advance(self, state: KopilkaState, actions: npt.ArrayLike) -> KopilkaState:
        """One action per game (a game over: ``PASS``, ignored). The games still going are
        gathered, advanced and written back: late in a batch, few of them are left."""
        a, bit = self.checked(state, actions)
        live = g = np.flatnonzero(~state.over)
        if state.t >= len(state.history):
            state.history = np.concatenate([state.history, np.full_like(state.history, -1)])
        trading = state.stage[g] < PLAYERS
        discarding = trading & ~state.picking[g]
        state.history[state.t, 0, g] = state.mover[g]
        state.history[state.t, 1, g] = a[g] + DISCARDED * discarding
        state.t += 1
        if trading.any():
            self._exchange(state, a[g[trading]], g[trading])
            g = g[~trading]
        self._play(state, a, bit, g)
        self._set_legal(state, live)
        state.points = self.points(state)
        return state

    def _play(self, state: KopilkaState, a: I64, bit: U64, g: I64) -> None:
        """The games ``g`` in the play: a card, a pass or a draw."""
        ag, seat = a[g], state.mover[g]
        is_card, is_pass, is_draw = ag < CARDS, ag == PASS, ag == DRAW
        led = state.led[g]
        is_lead = is_card & (led < 0)
        # a draw: the talon's top card in hand; the turn goes on
        nxt = state.talon_next[g]
        top = state.talon[g, np.minimum(nxt, 11)].astype(np.uint64)
        hand = state.hands[seat, g] | np.where(is_draw, np.left_shift(ONE, top), _ZERO)
        state.talon_next[g] = nxt + is_draw
        state.talon_left[g] -= is_draw
        # a card: out of the hand onto the table
        cbit = np.where(is_card, bit[g], _ZERO)
        hand &= ~cbit
        state.hands[seat, g] = hand
        state.trick[g] |= cbit
        state.cards_in[g] += is_card
        suit = ag // 13
        led = np.where(is_lead, suit, led)
        state.led[g] = led
        # (a pass or a draw is no card: it cannot win)
        base, best = self.rule.play(is_lead, TRUMPLESS, led, state.base[g], state.best[g],
                                    ag, seat)
        state.base[g], state.best[g] = base, best
        # a pass holding the led suit (AS a spade): a remiz into the pot
        holds = (hand & _SUIT_BITS.take(np.maximum(led, 0))) != 0
        fine = np.where(is_pass & holds, self.remiz, 0)
        state.money[seat, g] -= fine
        state.pot[g] += fine
        acted_now = (is_card & ~is_lead) | is_pass
        acted = state.acted[g] + acted_now
        state.acted[g] = acted
        ends = acted_now & (acted == PLAYERS - 1)
        state.mover[g] = np.where((is_card | is_pass) & ~ends, (seat + 1) % PLAYERS, seat)
        if ends.any():
            self._end_trick(state, g[ends])

    def _end_trick(self, state: KopilkaState, g: I64) -> None:
        """The games ``g`` whose trick is over (a fraction of the batch at any step)."""
        leader, trick, led = state.leader[g], state.trick[g], state.led[g]
        failed = state.cards_in[g] == 1
        done = ~failed
        # a failed lead: the leader takes the card back, the lead passes left
        state.hands[leader[failed], g[failed]] |= trick[failed]
        fails = np.where(failed, state.failed[g] + 1, 0)
        state.failed[g] = fails
        blocked = fails == PLAYERS
        # a trick: its value (double with the mushka) out of the pot to the winner
        mushka = (trick & AS_BIT) != 0
        value = self.values.take(np.maximum(led, 0)) * np.where(mushka, 2, 1)
        paid = np.where(done, np.minimum(value, state.pot[g]), 0)
        winner = self.rule.winner(state.best[g])
        state.money[winner, g] += paid
        state.pot[g] -= paid
        state.won[winner, g] += done
        state.banned[g] = np.where(done, led, state.banned[g])
        # the first (in play order from the leader) to have shed his cards
        shed = np.full(len(g), -1, dtype=np.int64)
        for k in range(PLAYERS - 1, -1, -1):
            s = (leader + k) % PLAYERS
            shed = np.where(done & (state.hands[s, g] == 0), s, shed)
        state.first_to_shed[g] = np.where(shed >= 0, shed, state.first_to_shed[g])
        finish = blocked | (shed >= 0)
        nxt = np.where(failed, (leader + 1) % PLAYERS, winner)
        state.leader[g] = np.where(finish, leader, nxt)
        state.mover[g] = np.where(finish, state.mover[g], nxt)
        state.led[g] = -1
        state.trick[g] = _ZERO
        state.cards_in[g] = 0
        state.acted[g] = 0
        if finish.any():
            # the no-trick remizes, then every fee but the first to shed's
            f = g[finish]
            for who in range(PLAYERS):
                pay = np.where(state.won[who, f] == 0, self.remiz, 0)
                pay += np.where(state.first_to_shed[f] != who, self.fee, 0)
                state.money[who, f] -= pay
                state.pot[f] += pay
            state.over[f] = True

    def points(self, state: KopilkaState) -> npt.NDArray[np.float32]:
        """(4, games) each seat's money change in the deal so far."""
        return (state.money + self.stake).astype(np.float32)

    # ---------------------------------------------------------------- views
    def observation_layout(self) -> list[tuple[str, int, int]]:
        """(name, first feature, width): the mover's hand, the cards on the table, the
        cards of completed tricks, then one-hots: led suit, banned suit, failed leads,
        talon size, and the mover's seat relative to the leader; in the exchange, a flag,
        whether a pick is due, and the offer's positions still free."""
        return [("hand", 0, CARDS), ("trick", 64, CARDS), ("gone", 128, CARDS),
                ("led_suit", 192, 4), ("banned_suit", 196, 4), ("failed_leads", 200, 4),
                ("talon", 204, 13), ("whoafter_leader", 217, 4), ("exchange", 221, 1),
                ("pick_due", 222, 1), ("free_positions", 223, 8)]

    @property
    def observation_size(self) -> int:
        return 256

    def observe(self, state: KopilkaState) -> npt.NDArray[np.uint8]:
        games, ar = state.games, np.arange(state.games)
        out = np.zeros((games, 4), dtype=np.uint64)
        out[:, 0] = state.hands[state.mover, ar]
        out[:, 1] = state.trick
        held = np.bitwise_or.reduce(state.hands, axis=0)
        in_talon = np.zeros(games, dtype=np.uint64)
        for q in range(12):
            c = state.talon[:, q].astype(np.uint64)
            in_talon |= np.where(q >= state.talon_next, np.left_shift(ONE, c), _ZERO)
        dealt = np.uint64(sum(1 << int(c) for c in self.deck))
        # every card neither held, nor in the talon, nor on the table, nor discarded
        gone = dealt & ~held & ~in_talon & ~state.trick & ~state.free
        for i in range(3):
            d = state.discards[:, i]
            for row in d:
                gone &= ~np.where(row >= 0, np.left_shift(ONE, np.maximum(row, 0)
                                                          .astype(np.uint64)), _ZERO)
        out[:, 2] = gone
        misc = np.where(state.led >= 0, np.left_shift(ONE, np.maximum(state.led, 0)
                                                      .astype(np.uint64)), _ZERO)
        misc |= np.where(state.banned >= 0, np.left_shift(ONE, (np.maximum(state.banned, 0)
                                                                + 4).astype(np.uint64)), _ZERO)
        misc |= np.left_shift(ONE, (8 + np.minimum(state.failed, 3)).astype(np.uint64))
        misc |= np.left_shift(ONE, (24 - state.talon_next).astype(np.uint64))
        misc |= np.left_shift(ONE, (25 + (state.mover - state.leader) % 4).astype(np.uint64))
        trading = state.stage < PLAYERS
        misc |= trading.astype(np.uint64) << np.uint64(29)
        misc |= (trading & state.picking).astype(np.uint64) << np.uint64(30)
        offer = state.offered[np.minimum(state.stage, PLAYERS - 1), ar]
        misc |= _positions(offer, state.free) << np.uint64(31)
        out[:, 3] = misc
        obs = np.unpackbits(out.view(np.uint8).ravel(), bitorder="little").reshape(games, -1)
        obs[state.over] = 0
        return obs

    # ---------------------------------------------------------------- records
    def action_text(self, action: int) -> str:
        """The engine's text of an action (a discard as the history keeps it: + 100)."""
        if action >= DISCARDED:
            return f"discard {CARD_TEXT[action - DISCARDED]}"
        if action >= PICK:
            return f"pick {action - PICK}"
        return ("pass", "draw")[action - CARDS] if action >= CARDS else \
            f"play {CARD_TEXT[action]}"

    def record(self, state: KopilkaState, game: int) -> dict[str, Any]:
        """Game ``game`` as a koloda-record/1: the deal, the exchange, the play."""
        order = state.order[game].tolist()
        d = int(state.dealer[game])
        deal = {"dealer": d, "hands": dealt_hands(order, d, PLAYERS, HAND),
                "stock": [CARD_TEXT[c] for c in order[PLAYERS * HAND:]],
                "trump_card": None}
        actions = []
        for t in range(state.t):
            seat, a = (int(x) for x in state.history[t, :, game])
            if seat >= 0:
                actions.append({"seat": seat, "action": self.action_text(a)})
        options: dict[str, Any] = {}
        for name, v, default in (("stake", self.stake, 10), ("fee", self.fee, 5),
                                 ("remiz", self.remiz, 5),
                                 ("values", self.values_by_name, DEFAULT_VALUES)):
            if v != default:
                options[name] = v
        return {"format": "koloda-record/1", "game": self.name, "players": PLAYERS,
                "options": options, "seed": None, "first_dealer": d, "deals": [deal],
                "actions": actions, "result": None}


__all__ = ["DRAW", "PASS", "PICK", "Kopilka", "KopilkaState"]
