"""Mushka (RULES.md §2), one whole deal batched: the exchange round as steps, then the
tricks among whoever stayed in.

``koloda.batched.mushka`` batches the tricks alone (the exchange played at init); here the
exchange is the batch's own first ``table`` steps (every seat acts once, from the dealer's
left, so those steps stay in lockstep), and an agent learns it too. How many stay in then
differs from game to game, and with it the deal's length, so the play is not in lockstep:
as in ``koloda.batched.kopilka`` every game keeps its own mover and trick, and a game over
(everyone passed, one stayed in and took the five tricks, or the five were played) waits
for its batch with one action, ``STAND`` (ignored): ``terminated`` per game,
``is_over`` for all.

Actions (``num_actions = 85``): ``0..51`` play that card; ``52`` stand; ``53`` pass;
``53 + m`` (``m = 1..31``) discard the cards of the mover's hand (in card order) at the set
bits of ``m`` (bit 0: the lowest card) and draw as many. Discards never exceed the stock;
the holder of AS may not pass. Play: follow suit, else trump (the turned card's suit,
out of play), else any card; the first in from the dealer's left leads, then each trick's
winner. Points by seat (the engine's ``MushkaDeal.payoffs``): in play, +1 a trick, −5 for
none; a passer, or a void deal, 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from koloda.batched.bits import (
    ONE,
    U64,
    as_keys,
    key_stream,
    popcount,
    random_member,
    shuffled,
    unpack,
)
from koloda.batched.core import (
    CARDS,
    I64,
    SALT_DEAL,
    SALT_DEALER,
    IllegalBatchAction,
    dealt_hands,
)
from koloda.batched.playphase import cards_text, deal_round_robin
from koloda.cards import ACE, CARD_TEXT, SPADES, TEXT_CARD, card, deck

HAND = 5
STAND, PASS = CARDS, CARDS + 1
#: the exchange's legal set is kept from action STAND up: bit 0 stand, 1 pass, 1 + m
EXCHANGE = STAND
NO_TRICK = -5.0
AS_BIT = np.uint64(1 << card(ACE, SPADES))
_ZERO = np.uint64(0)
_SUIT_BITS = np.array([((1 << 13) - 1) << (13 * s) for s in range(4)], dtype=np.uint64)
#: by the most cards one may discard (0..5): the discard sets open, as exchange-word bits
_SUBSETS = np.array([sum(1 << (1 + m) for m in range(1, 32) if bin(m).count("1") <= most)
                     for most in range(HAND + 1)], dtype=np.uint64)


@dataclass
class MushkaFullState:
    """A batch of whole Mushka deals; arrays by game (last axis), seats absolute."""

    keys: U64
    dealer: I64
    order: npt.NDArray[np.uint8]
    trump: I64
    trump_bits: U64
    hands: U64                       # (table, games)
    stock_next: I64                  # the stock's next card, an index into ``order``
    choice: npt.NDArray[np.int8]     # (table, games) by order from the dealer's left:
    discards: U64                    # -1 not yet, 0 stand, 1 pass, 2 discard (which cards)
    active: npt.NDArray[np.bool_]    # (table, games) in play after the exchange
    mover: I64
    led: I64                         # -1: a lead is due
    best: I64                        # the trick's best strength (a trump 32 + rank)
    best_seat: I64
    cards_in: I64
    players_in: I64
    tricks_done: I64
    won: I64                         # (table, games)
    over: npt.NDArray[np.bool_]
    legal: U64
    offset: int
    history: npt.NDArray[np.int16]   # (steps, 2, games): (seat, action), -1 none
    points: npt.NDArray[np.float32] = field(
        default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    t: int = 0

    @property
    def games(self) -> int:
        return len(self.keys)

    def copy(self) -> MushkaFullState:
        return replace(self, **{f.name: getattr(self, f.name).copy() for f in fields(self)
                                if isinstance(getattr(self, f.name), np.ndarray)})


def nth_cards(hand: U64, count: int) -> list[U64]:
    """The bits of the lowest ``count`` cards of each hand, lowest first."""
    out, h = [], hand.copy()
    for _ in range(count):
        low = h & np.negative(h)
        out.append(low)
        h ^= low
    return out


class MushkaFull:
    """``MushkaFull(table=4)``: whole deals for ``table`` seats (2–6)."""

    name = "mushka"
    num_actions = CARDS + 2 + 31

    def __init__(self, table: int = 4) -> None:
        if not 2 <= table <= 6:
            raise ValueError(f"mushka: 2 to 6 seats, not {table}")
        self.players = self.table = table
        self.deck = np.array(deck(32 if table <= 4 else 52), dtype=np.uint8)

    # ------------------------------------------------------------------ init
    def init(self, keys: npt.ArrayLike) -> MushkaFullState:
        k = as_keys(keys)
        games, n = len(k), self.table
        order = shuffled(k, self.deck, SALT_DEAL)
        dealer = (key_stream(k, SALT_DEALER) % np.uint64(n)).astype(np.int64)
        ar = np.arange(games)
        by_order = deal_round_robin(order, n, HAND)
        hands = np.empty_like(by_order)
        for i in range(n):
            hands[(dealer + 1 + i) % n, ar] = by_order[i]
        trump = order[:, n * HAND].astype(np.int64) // 13
        zeros = np.zeros(games, dtype=np.int64)
        state = MushkaFullState(
            keys=k, dealer=dealer, order=order, trump=trump, trump_bits=_SUIT_BITS[trump],
            hands=hands, stock_next=np.full(games, n * HAND + 1, dtype=np.int64),
            choice=np.full((n, games), -1, dtype=np.int8),
            discards=np.zeros((n, games), dtype=np.uint64),
            active=np.ones((n, games), dtype=np.bool_), mover=(dealer + 1) % n,
            led=np.full(games, -1, dtype=np.int64), best=zeros.copy(), best_seat=zeros.copy(),
            cards_in=zeros.copy(), players_in=zeros.copy(), tricks_done=zeros.copy(),
            won=np.zeros((n, games), dtype=np.int64), over=np.zeros(games, dtype=np.bool_),
            legal=np.zeros(games, dtype=np.uint64), offset=EXCHANGE,
            history=np.full((n + 6 * HAND, 2, games), -1, dtype=np.int16),
            points=np.zeros((n, games), dtype=np.float32))
        self._set_legal(state)
        return state

    # ------------------------------------------------------------------ steps
    def _set_legal(self, state: MushkaFullState) -> None:
        ar = np.arange(state.games)
        h = state.hands[state.mover, ar]
        if state.t < self.table:
            state.offset = EXCHANGE
            most = np.minimum(HAND, len(self.deck) - state.stock_next)
            legal = _SUBSETS.take(most) | ONE
            state.legal = legal | np.where((h & AS_BIT) != 0, _ZERO, np.uint64(2))
            return
        state.offset = 0
        same = h & _SUIT_BITS.take(np.maximum(state.led, 0))
        trumps = h & state.trump_bits
        follow = np.where(same != 0, same, np.where(trumps != 0, trumps, h))
        legal = np.where(state.led < 0, h, follow)
        state.legal = np.where(state.over, np.uint64(1 << STAND), legal)

    def advance(self, state: MushkaFullState, actions: npt.ArrayLike) -> MushkaFullState:
        if self.is_over(state):
            raise IllegalBatchAction("mushka: every deal of the batch is over; init a new one")
        a = np.asarray(actions).astype(np.int64)
        if a.shape != (state.games,):
            raise ValueError(f"actions: one per game, shape ({state.games},), not {a.shape}")
        bit = np.left_shift(ONE, (a - state.offset).astype(np.uint64))
        if not np.bitwise_and(state.legal, bit).all():
            g = int(np.argmax((state.legal & bit) == 0))
            raise IllegalBatchAction(f"mushka: game {g}: action {int(a[g])} is not legal now "
                                     f"(legal: {self.legal_actions(state, g)})")
        if state.t >= len(state.history):
            state.history = np.concatenate([state.history, np.full_like(state.history, -1)])
        live = ~state.over
        state.history[state.t] = np.where(live, np.stack([state.mover, a]), -1)
        if state.t < self.table:
            self._exchange(state, a)
        else:
            self._play(state, a, np.flatnonzero(live))
        state.t += 1
        self._set_legal(state)
        return state

    def _exchange(self, state: MushkaFullState, a: I64) -> None:
        n, i, ar = self.table, state.t, np.arange(state.games)
        seat = state.mover
        h = state.hands[seat, ar]
        m = np.maximum(a - PASS, 0)
        d = np.zeros(state.games, dtype=np.uint64)
        for q, low in enumerate(nth_cards(h, HAND)):
            d |= np.where((m >> q) & 1 == 1, low, _ZERO)
        count = popcount(d).astype(np.int64)
        new = np.zeros(state.games, dtype=np.uint64)
        for q in range(HAND):
            c = state.order[ar, np.minimum(state.stock_next + q, len(self.deck) - 1)]
            new |= np.where(q < count, np.left_shift(ONE, c.astype(np.uint64)), _ZERO)
        passed = a == PASS
        state.hands[seat, ar] = np.where(passed, _ZERO, (h & ~d) | new)
        state.stock_next += count
        state.choice[i] = np.where(passed, 1, np.where(a == STAND, 0, 2))
        state.discards[i] = d
        state.active[seat, ar] = ~passed
        state.mover = (seat + 1) % n
        if i == n - 1:
            self._end_exchange(state)

    def _end_exchange(self, state: MushkaFullState) -> None:
        """Judged after the whole round: nobody in is a void deal, one in takes all five."""
        n, ar = self.table, np.arange(state.games)
        state.players_in = state.active.sum(axis=0)
        first = np.full(state.games, -1, dtype=np.int64)
        for i in range(n - 1, -1, -1):
            s = (state.dealer + 1 + i) % n
            first = np.where(state.active[s, ar], s, first)
        state.mover = np.maximum(first, 0)
        alone = state.players_in == 1
        state.won[state.mover[alone], ar[alone]] = HAND
        state.over = state.players_in <= 1
        self._score(state)

    def _play(self, state: MushkaFullState, a: I64, g: I64) -> None:
        """The games ``g`` still in play (gathered, then written back)."""
        n = self.table
        ag, seat = a[g], state.mover[g]
        state.hands[seat, g] ^= np.left_shift(ONE, ag.astype(np.uint64))
        suit, rank = ag // 13, ag % 13
        is_lead = state.cards_in[g] == 0
        led = np.where(is_lead, suit, state.led[g])
        state.led[g] = led
        strength = np.where(suit == state.trump[g], 32 + rank, np.where(suit == led, rank, -1))
        best = np.where(is_lead, -1, state.best[g])
        beats = strength > best
        state.best[g] = np.where(beats, strength, best)
        winner = np.where(beats, seat, state.best_seat[g])
        state.best_seat[g] = winner
        cards_in = state.cards_in[g] + 1
        ends = cards_in == state.players_in[g]
        state.cards_in[g] = np.where(ends, 0, cards_in)
        state.led[g] = np.where(ends, -1, led)
        state.won[winner[ends], g[ends]] += 1
        done = state.tricks_done[g] + ends
        state.tricks_done[g] = done
        # the next active seat clockwise, or the winner after a trick
        nxt = np.full(len(g), -1, dtype=np.int64)
        for off in range(n - 1, 0, -1):
            s = (seat + off) % n
            nxt = np.where(state.active[s, g], s, nxt)
        state.mover[g] = np.where(ends, winner, nxt)
        finished = done == HAND
        if finished.any():
            state.over[g[finished]] = True
            self._score(state)

    def _score(self, state: MushkaFullState) -> None:
        tricks = state.won
        pts = np.where(tricks > 0, tricks, NO_TRICK)
        state.points = np.where(state.active & state.over[None, :], pts, 0).astype(np.float32)

    # -------------------------------------------------------------- the API
    def step(self, state: MushkaFullState, actions: npt.ArrayLike) -> tuple[
            MushkaFullState, npt.NDArray[np.uint8], npt.NDArray[np.bool_],
            npt.NDArray[np.float32]]:
        """``advance``, then (observation, mask, reward): ``reward`` (games, table) is each
        seat's points in the step a game ends, else 0."""
        was = state.over.copy()
        self.advance(state, actions)
        ended = state.over & ~was
        reward = np.where(ended[:, None], state.points.T, 0).astype(np.float32)
        return state, self.observe(state), self.mask(state), reward

    def is_over(self, state: MushkaFullState) -> bool:
        return bool(state.over.all())

    def terminated(self, state: MushkaFullState) -> npt.NDArray[np.bool_]:
        return state.over.copy()

    def to_move(self, state: MushkaFullState) -> I64:
        return np.where(state.over, -1, state.mover)

    def mask(self, state: MushkaFullState) -> npt.NDArray[np.bool_]:
        out = np.zeros((state.games, self.num_actions), dtype=np.bool_)
        width = min(64, self.num_actions - state.offset)
        out[:, state.offset:state.offset + width] = unpack(state.legal, width)
        return out

    def legal_actions(self, state: MushkaFullState, game: int) -> list[int]:
        bits = int(state.legal[game])
        return [state.offset + i for i in range(64) if bits >> i & 1]

    def random_actions(self, state: MushkaFullState, rng: np.random.Generator) -> I64:
        return random_member(state.legal, rng.bit_generator.random_raw(state.games),
                             state.offset)

    # ---------------------------------------------------------------- views
    def observation_layout(self) -> list[tuple[str, int, int]]:
        """(name, first feature, width). Seats relative: ``+k`` is k seats to the mover's
        left. ``choice_of_seat_+k``: one-hot stand, pass, discard (none: not yet)."""
        n = self.table
        parts = [("hand", 0, CARDS), ("trick", 64, CARDS), ("gone", 128, CARDS),
                 ("trump_suit", 192, 4), ("exchange", 196, 1), ("led_suit", 197, 4)]
        parts += [(f"in_play_seat_+{k}", 201 + k, 1) for k in range(n)]
        parts += [(f"choice_of_seat_+{k}", 207 + 3 * k, 3) for k in range(n)]
        parts += [(f"tricks_of_seat_+{k}", 256 + 6 * k, 6) for k in range(n)]
        return parts

    @property
    def observation_size(self) -> int:
        return 320

    def observe(self, state: MushkaFullState) -> npt.NDArray[np.uint8]:
        n, games, ar = self.table, state.games, np.arange(state.games)
        out = np.zeros((games, 5), dtype=np.uint64)
        out[:, 0] = state.hands[state.mover, ar]
        # the cards of the current trick: the last ``cards_in`` plays
        trick = np.zeros(games, dtype=np.uint64)
        for back in range(1, n):
            row = state.t - back
            if row < self.table:
                break
            take = (back <= state.cards_in) & (state.history[row, 1] >= 0)
            c = np.maximum(state.history[row, 1], 0).astype(np.uint64)
            trick |= np.where(take, np.left_shift(ONE, c), _ZERO)
        out[:, 1] = trick
        played = np.zeros(games, dtype=np.uint64)
        for row in range(self.table, state.t):
            c = state.history[row, 1]
            played |= np.where(c >= 0, np.left_shift(ONE, np.maximum(c, 0).astype(np.uint64)),
                               _ZERO)
        out[:, 2] = played & ~trick
        misc = np.left_shift(ONE, state.trump.astype(np.uint64))
        if state.t < self.table:
            misc |= np.uint64(1 << 4)
        misc |= np.where(state.led >= 0, np.left_shift(ONE, (5 + np.maximum(state.led, 0))
                                                       .astype(np.uint64)), _ZERO)
        tricks = np.zeros(games, dtype=np.uint64)
        for k in range(n):
            s = (state.mover + k) % n
            i = (s - state.dealer - 1) % n            # its order in the exchange
            chosen = state.choice[i, ar]
            misc |= np.where(state.active[s, ar] & (state.t >= self.table),
                             np.uint64(1 << (9 + k)), _ZERO)
            misc |= np.where(chosen >= 0, np.left_shift(ONE, (15 + 3 * k + np.maximum(
                chosen, 0)).astype(np.uint64)), _ZERO)
            tricks |= np.left_shift(ONE, (6 * k + state.won[s, ar]).astype(np.uint64))
        out[:, 3] = misc
        out[:, 4] = tricks
        obs = np.unpackbits(out.view(np.uint8).ravel(), bitorder="little").reshape(games, -1)
        obs[state.over] = 0
        return obs

    # ---------------------------------------------------------------- records
    def action_text(self, action: int, hand: int) -> str:
        """The engine's text of ``action`` by a mover holding ``hand`` (its card bits)."""
        if action < CARDS:
            return f"play {CARD_TEXT[action]}"
        if action in (STAND, PASS):
            return ("stand", "pass")[action - STAND]
        cards = [c for c in range(64) if hand >> c & 1]
        m = action - PASS
        return cards_text("discard", sum(1 << cards[q] for q in range(HAND) if m >> q & 1))

    def record(self, state: MushkaFullState, game: int) -> dict[str, Any]:
        """Game ``game`` as a koloda-record/1: the deal, the exchange, the tricks."""
        n, order = self.table, state.order[game].tolist()
        d = int(state.dealer[game])
        deal = {"dealer": d, "hands": dealt_hands(order, d, n, HAND),
                "stock": [CARD_TEXT[c] for c in order[n * HAND + 1:]],
                "trump_card": CARD_TEXT[order[n * HAND]]}
        # a discard's cards are read off the hand as dealt: nobody's hand changes before
        # his own turn of the exchange
        dealt = [sum(1 << TEXT_CARD[c] for c in h) for h in deal["hands"]]
        actions = [{"seat": seat, "action": self.action_text(a, dealt[seat])}
                   for seat, a in (tuple(int(x) for x in state.history[t, :, game])
                                   for t in range(state.t)) if seat >= 0]
        return {"format": "koloda-record/1", "game": self.name, "players": n, "options": {},
                "seed": None, "first_dealer": d, "deals": [deal], "actions": actions,
                "result": None}


__all__ = ["PASS", "STAND", "MushkaFull", "MushkaFullState"]
