"""Trick games that open with one choice per seat, then play tricks among whoever stayed
in, each game at its own pace: the whole deal batched.

The opening phase (Mushka's exchange, Stukolka's declarations) is every seat's one choice
from the dealer's left, so it is the batch's first ``table`` steps, in lockstep, and the
opening choices are the batch's own actions (an agent learns them). How many stay in
then differs from game to game, and with it the deal's length, so the play is not in
lockstep: as in ``koloda.batched.kopilka`` every game keeps its own mover and trick (a
step advances the games still going, gathered and written back), and a game over (nobody
in, one alone, or every trick played) waits for its batch with one action, ``OPEN``
(ignored): ``terminated`` per game, ``is_over`` for all.

Actions: ``0..51`` play that card; from ``OPEN = 52`` the game's opening choices. A game
(``koloda.batched.mushka_full``, ``.stukolka_full``) gives the opening's legal set and
effect, the first leader, the lead and follow rules and the points; the trick (who wins:
the highest trump, else the highest of the led suit) is ``koloda.batched.trick``'s, as
for every batched trick game.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from koloda.batched.bits import ONE, U64, as_keys, key_stream, shuffled
from koloda.batched.core import CARDS, I64, SALT_DEAL, SALT_DEALER, dealt_hands
from koloda.batched.pace import PacedBatch
from koloda.batched.playphase import deal_round_robin
from koloda.batched.trick import TrickRule, follow_else_trump
from koloda.cards import CARD_TEXT, TEXT_CARD

#: the first opening action: the opening phase's legal set is kept from it up
OPEN = CARDS
ZERO = np.uint64(0)
SUIT_BITS = np.array([((1 << 13) - 1) << (13 * s) for s in range(4)], dtype=np.uint64)


@dataclass
class PacedState:
    """A batch of whole deals; arrays by game (last axis), seats absolute."""

    keys: U64
    dealer: I64
    order: npt.NDArray[np.uint8]
    trump: I64
    trump_bits: U64
    hands: U64                       # (table, games)
    stock_next: I64                  # the stock's next card, an index into ``order``
    #: (table, games) by order from the dealer's left: each opening choice, -1 not yet
    #: (Mushka: 0 stand, 1 pass, 2 discard; Stukolka: 0 knock, 1 drop, 2 golets)
    choice: npt.NDArray[np.int8]
    discards: U64                    # Mushka: the cards discarded
    taker: I64                       # Stukolka: the golets taker, -1 none
    active: npt.NDArray[np.bool_]    # (table, games) in play after the opening
    mover: I64
    led: I64                         # -1: a lead is due
    trump_base: I64                  # the trick: koloda.batched.trick's base and best
    base: I64
    best: I64                        # 8 × strength + the seat of the trick's best card
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

    def copy(self) -> PacedState:
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


class PacedTricks(PacedBatch):
    """The shared machinery; a game sets ``name``, ``table``, ``hand``, ``deck``,
    ``num_actions`` and the hooks."""

    name: str
    table: int
    hand: int
    deck: npt.NDArray[np.uint8]
    num_actions: int

    @cached_property
    def rule(self) -> TrickRule:
        """Who wins a trick: the highest trump, else the highest of the led suit."""
        cards = np.arange(64, dtype=np.int64)
        return TrickRule(self.deck.tolist(), cards // 13, cards % 13)

    # ---------------------------------------------------------------- hooks
    def arrange(self, order: npt.NDArray[np.uint8]) -> None:
        """Change the shuffled decks in place before the deal (Stukolka: no turned ace)."""

    def open_legal(self, state: PacedState, h: U64) -> U64:
        """The opening choices open to each game's mover, as bits from ``OPEN``."""
        raise NotImplementedError

    def open_apply(self, state: PacedState, a: I64) -> None:
        """The mover's opening choice ``a`` in every game: hands, ``active``, ``choice``."""
        raise NotImplementedError

    def first_leader(self, state: PacedState) -> I64:
        """Who leads the first trick (the first in from the dealer's left, by default)."""
        n, ar = self.table, np.arange(state.games)
        first = np.full(state.games, -1, dtype=np.int64)
        for i in range(n - 1, -1, -1):
            s = (state.dealer + 1 + i) % n
            first = np.where(state.active[s, ar], s, first)
        return np.maximum(first, 0)

    def lead_legal(self, state: PacedState, h: U64) -> U64:
        return h

    def follow_legal(self, state: PacedState, h: U64) -> U64:
        """Follow suit, else trump, else any card (Mushka)."""
        return follow_else_trump(h, SUIT_BITS.take(np.maximum(state.led, 0)), state.trump_bits)

    def deal_points(self, state: PacedState) -> npt.NDArray[np.float32]:
        """(table, games) each seat's points once its game is over."""
        raise NotImplementedError

    def open_text(self, state: PacedState, game: int, seat: int, action: int,
                  hand: int) -> str:
        """The engine's text of an opening choice (``hand``: the mover's dealt cards)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ init
    def init(self, keys: npt.ArrayLike) -> PacedState:
        k = as_keys(keys)
        games, n = len(k), self.table
        order = shuffled(k, self.deck, SALT_DEAL)
        self.arrange(order)
        dealer = (key_stream(k, SALT_DEALER) % np.uint64(n)).astype(np.int64)
        ar = np.arange(games)
        hand = self.hand
        by_order = deal_round_robin(order, n, hand)
        hands = np.empty_like(by_order)
        for i in range(n):
            hands[(dealer + 1 + i) % n, ar] = by_order[i]
        trump = order[:, n * hand].astype(np.int64) // 13
        zeros = np.zeros(games, dtype=np.int64)
        none = np.full(games, -1, dtype=np.int64)
        state = PacedState(
            keys=k, dealer=dealer, order=order, trump=trump, trump_bits=SUIT_BITS[trump],
            hands=hands, stock_next=np.full(games, n * hand + 1, dtype=np.int64),
            choice=np.full((n, games), -1, dtype=np.int8),
            discards=np.zeros((n, games), dtype=np.uint64), taker=none.copy(),
            active=np.ones((n, games), dtype=np.bool_), mover=(dealer + 1) % n,
            led=none.copy(), trump_base=self.rule.trump_base(trump), base=zeros.copy(),
            best=zeros.copy(),
            cards_in=zeros.copy(), players_in=zeros.copy(), tricks_done=zeros.copy(),
            won=np.zeros((n, games), dtype=np.int64), over=np.zeros(games, dtype=np.bool_),
            legal=np.zeros(games, dtype=np.uint64), offset=OPEN,
            history=np.full((n + n * hand, 2, games), -1, dtype=np.int16),
            points=np.zeros((n, games), dtype=np.float32))
        self._set_legal(state)
        return state

    # ------------------------------------------------------------------ steps
    def _set_legal(self, state: PacedState) -> None:
        ar = np.arange(state.games)
        h = state.hands[state.mover, ar]
        if state.t < self.table:
            state.offset = OPEN
            state.legal = self.open_legal(state, h)
            return
        state.offset = 0
        legal = np.where(state.led < 0, self.lead_legal(state, h), self.follow_legal(state, h))
        state.legal = np.where(state.over, ONE << np.uint64(OPEN), legal)

    def advance(self, state: PacedState, actions: npt.ArrayLike) -> PacedState:
        a, _ = self.checked(state, actions)
        if state.t >= len(state.history):
            state.history = np.concatenate([state.history, np.full_like(state.history, -1)])
        live = ~state.over
        state.history[state.t] = np.where(live, np.stack([state.mover, a]), -1)
        if state.t < self.table:
            self.open_apply(state, a)
            state.mover = (state.mover + 1) % self.table
            if state.t == self.table - 1:
                self._end_opening(state)
        else:
            self._play(state, a, np.flatnonzero(live))
        state.t += 1
        self._set_legal(state)
        return state

    def _end_opening(self, state: PacedState) -> None:
        """Judged after the whole round: nobody in ends the deal, one in takes every trick."""
        ar = np.arange(state.games)
        state.players_in = state.active.sum(axis=0)
        state.mover = self.first_leader(state)
        alone = state.players_in == 1
        state.won[state.mover[alone], ar[alone]] = self.hand
        state.over = state.players_in <= 1
        self._score(state)

    def _play(self, state: PacedState, a: I64, g: I64) -> None:
        """The games ``g`` still in play (gathered, then written back)."""
        n = self.table
        ag, seat = a[g], state.mover[g]
        state.hands[seat, g] ^= np.left_shift(ONE, ag.astype(np.uint64))
        is_lead = state.cards_in[g] == 0
        led = np.where(is_lead, ag // 13, state.led[g])
        state.led[g] = led
        base, best = self.rule.play(is_lead, state.trump_base[g], led, state.base[g],
                                    state.best[g], ag, seat)
        state.base[g], state.best[g] = base, best
        winner = self.rule.winner(best)
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
        finished = done == self.hand
        if finished.any():
            state.over[g[finished]] = True
            self._score(state)

    def _score(self, state: PacedState) -> None:
        state.points = np.where(state.over[None, :], self.deal_points(state), 0
                                ).astype(np.float32)

    # ---------------------------------------------------------------- views
    def observation_layout(self) -> list[tuple[str, int, int]]:
        """(name, first feature, width). Seats relative: ``+k`` is k seats to the mover's
        left. ``choice_of_seat_+k``: one-hot of the opening choice (Mushka: stand, pass,
        discard; Stukolka: knock, drop, golets; none: not yet)."""
        n = self.table
        parts = [("hand", 0, CARDS), ("trick", 64, CARDS), ("gone", 128, CARDS),
                 ("trump_suit", 192, 4), ("opening", 196, 1), ("led_suit", 197, 4)]
        parts += [(f"in_play_seat_+{k}", 201 + k, 1) for k in range(n)]
        parts += [(f"choice_of_seat_+{k}", 207 + 3 * k, 3) for k in range(n)]
        parts += [(f"tricks_of_seat_+{k}", 256 + 6 * k, 6) for k in range(n)]
        return parts

    @property
    def observation_size(self) -> int:
        return 320

    def observe(self, state: PacedState) -> npt.NDArray[np.uint8]:
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
            trick |= np.where(take, np.left_shift(ONE, c), ZERO)
        out[:, 1] = trick
        played = np.zeros(games, dtype=np.uint64)
        for row in range(self.table, state.t):
            c = state.history[row, 1]
            played |= np.where(c >= 0, np.left_shift(ONE, np.maximum(c, 0).astype(np.uint64)),
                               ZERO)
        out[:, 2] = played & ~trick
        misc = np.left_shift(ONE, state.trump.astype(np.uint64))
        if state.t < self.table:
            misc |= np.uint64(1 << 4)
        misc |= np.where(state.led >= 0, np.left_shift(ONE, (5 + np.maximum(state.led, 0))
                                                       .astype(np.uint64)), ZERO)
        tricks = np.zeros(games, dtype=np.uint64)
        for k in range(n):
            s = (state.mover + k) % n
            i = (s - state.dealer - 1) % n            # its order in the opening round
            chosen = state.choice[i, ar]
            misc |= np.where(state.active[s, ar] & (state.t >= self.table),
                             np.uint64(1 << (9 + k)), ZERO)
            misc |= np.where(chosen >= 0, np.left_shift(ONE, (15 + 3 * k + np.maximum(
                chosen, 0)).astype(np.uint64)), ZERO)
            tricks |= np.left_shift(ONE, (6 * k + state.won[s, ar]).astype(np.uint64))
        out[:, 3] = misc
        out[:, 4] = tricks
        obs = np.unpackbits(out.view(np.uint8).ravel(), bitorder="little").reshape(games, -1)
        obs[state.over] = 0
        return obs

    # ---------------------------------------------------------------- records
    def record(self, state: PacedState, game: int) -> dict[str, Any]:
        """Game ``game`` as a koloda-record/1: the deal, the opening round, the tricks."""
        n, order = self.table, state.order[game].tolist()
        d = int(state.dealer[game])
        h = self.hand
        deal = {"dealer": d, "hands": dealt_hands(order, d, n, h),
                "stock": [CARD_TEXT[c] for c in order[n * h + 1:]],
                "trump_card": CARD_TEXT[order[n * h]]}
        # an opening choice reads the hand as dealt: nobody's hand changes before his own
        # turn of the opening round
        dealt = [sum(1 << TEXT_CARD[c] for c in cards) for cards in deal["hands"]]
        actions = []
        for t in range(state.t):
            seat, a = (int(x) for x in state.history[t, :, game])
            if seat >= 0:
                text = f"play {CARD_TEXT[a]}" if a < CARDS else \
                    self.open_text(state, game, seat, a, dealt[seat])
                actions.append({"seat": seat, "action": text})
        return {"format": "koloda-record/1", "game": self.name, "players": n,
                "options": self.record_options(),
                "seed": None, "first_dealer": d, "deals": [deal], "actions": actions,
                "result": None}

    def record_options(self) -> dict[str, Any]:
        return {}


__all__ = ["OPEN", "SUIT_BITS", "ZERO", "PacedState", "PacedTricks", "nth_cards"]
