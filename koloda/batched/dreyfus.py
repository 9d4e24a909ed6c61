"""Dreyfus (koloda/rules/dreyfus.en.md §Precisely), one whole deal batched: the exchange with the
widow as the batch's steps, then the twelve tricks.

**The exchange as steps.** At his turn (from the dealer's left, dealer last) a player
decides on each card of his hand in card order, one step a card: ``KEEP`` or ``DISCARD``.
A discard is open while the cards discarded so far this turn are fewer than the widow
holds (§3: k ≤ the cards left in the widow); keeping always is. After his twelfth card he
takes as many cards from the top of the widow as he discarded — no discard is the engine's
``stand``, any other the engine's ``discard C…`` of those cards — so the twelve steps map
one to one onto the engine's exchange actions (every subset of the hand of at most the
widow's size, reached by exactly one sequence of decisions). Once the widow is empty the
players still to come are skipped (§10): they have no steps. The exchange lasts 12, 24 or
36 steps, so (as in ``koloda.batched.kopilka``) every game keeps its own mover and phase,
and a step advances every game still going; a game over waits for its batch with
``KEEP`` (ignored): ``terminated`` per game, ``is_over`` for all.

**The play** (§4): the dealer's left leads; follow suit, else trump (when the deal has a
trump suit), else any card; the highest trump, else the highest of the led suit wins
(``koloda.batched.trick``); the winner leads the next.

``Dreyfus(number=0)``: the deal of that number in the match (0-based): the trump is
``number % 5`` — spades, clubs, diamonds, hearts, no trump. Actions (``num_actions =
54``): ``0..51`` play that card, ``52`` keep the card asked about, ``53`` discard it.
Points by seat (the engine's ``DreyfusDeal.payoffs``): tricks − 4 − cards bought.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from koloda.batched.bits import ONE, U64, as_keys, key_stream, popcount, shuffled
from koloda.batched.core import CARDS, I64, SALT_DEAL, SALT_DEALER
from koloda.batched.pace import PacedBatch
from koloda.batched.paced import SUIT_BITS, ZERO
from koloda.batched.playphase import cards_text
from koloda.batched.trick import TrickRule, follow_else_trump
from koloda.cards import CARD_TEXT, deck

PLAYERS, HAND, PAR = 3, 12, 4
KEEP, DISCARD = CARDS, CARDS + 1
#: the trump of deal d is TRUMPS[d % 5] (-1: no trump)
TRUMPS = (0, 1, 2, 3, -1)
#: where each packet's cards lie in the shuffled deck: dealt by threes into four packets
#: (dealer's left, next, dealer, widow), four rounds
PACKETS = [[12 * r + 3 * p + i for r in range(4) for i in range(3)] for p in range(4)]
#: the exchange's stage once it is over (the stages 0..2 are the turns)
PLAYING = PLAYERS
_KEEP_BIT, _DISCARD_BIT = ONE << np.uint64(KEEP), ONE << np.uint64(DISCARD)


@dataclass
class DreyfusState:
    """A batch of Dreyfus deals; arrays by game (last axis), seats absolute."""

    keys: U64
    dealer: I64
    order: npt.NDArray[np.uint8]     # the shuffled deck as dealt
    #: (games, 13) the widow's top ``i`` cards as bits: a purchase is two look-ups
    widow_prefix: U64
    trump: I64
    trump_bits: U64
    trump_base: I64
    hands: U64                       # (3, games)
    widow_next: I64                  # cards bought from the widow so far
    #: the exchange: the turn (exchanger ``dealer + 1 + stage``; ``PLAYING`` once over),
    #: the exchanger's cards not asked about yet (the lowest is asked now), the cards he
    #: discarded so far this turn and the widow's size when his turn came
    stage: I64
    todo: U64
    chosen: U64
    most: I64
    #: for records and points: by order from the dealer's left, whether the turn came
    #: (False: skipped) and the cards discarded; by seat, the cards bought
    turn: npt.NDArray[np.bool_]      # (3, games)
    discards: U64                    # (3, games)
    bought: I64                      # (3, games)
    mover: I64
    led: I64                         # -1: a lead is due
    base: I64                        # the trick: koloda.batched.trick's base and best
    best: I64
    leader: I64
    cards_in: I64
    trick: U64                       # the cards on the table
    played: U64                      # the cards of the completed tricks
    won: I64                         # (3, games) tricks taken
    over: npt.NDArray[np.bool_]
    legal: U64
    history: npt.NDArray[np.int16]   # (steps, 2, games): (seat, action), -1 none
    points: npt.NDArray[np.float32] = field(
        default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    offset: int = 0
    t: int = 0

    @property
    def games(self) -> int:
        return len(self.keys)

    def copy(self) -> DreyfusState:
        return replace(self, **{f.name: getattr(self, f.name).copy() for f in fields(self)
                                if isinstance(getattr(self, f.name), np.ndarray)})


class Dreyfus(PacedBatch):
    """``Dreyfus(number=0)``: deal ``number`` of a match, the exchange and the tricks."""

    name = "dreyfus"
    players = table = PLAYERS
    hand = HAND
    num_actions = DISCARD + 1

    def __init__(self, number: int = 0) -> None:
        if number < 0:
            raise ValueError(f"dreyfus: a deal number ≥ 0, not {number}")
        self.number = number
        self.deck = np.array(deck(48), dtype=np.uint8)
        cards = np.arange(64, dtype=np.int64)
        self.rule = TrickRule(self.deck.tolist(), cards // 13, cards % 13)

    # ------------------------------------------------------------------ init
    def init(self, keys: npt.ArrayLike) -> DreyfusState:
        k = as_keys(keys)
        games = len(k)
        order = shuffled(k, self.deck, SALT_DEAL)
        dealer = (key_stream(k, SALT_DEALER) % np.uint64(PLAYERS)).astype(np.int64)
        ar = np.arange(games)
        bits = np.left_shift(ONE, order.astype(np.uint64))
        hands = np.empty((PLAYERS, games), dtype=np.uint64)
        for p in range(PLAYERS):
            hands[(dealer + 1 + p) % PLAYERS, ar] = np.bitwise_or.reduce(
                bits[:, PACKETS[p]], axis=1)
        widow_prefix = np.zeros((games, HAND + 1), dtype=np.uint64)
        np.bitwise_or.accumulate(bits[:, PACKETS[PLAYERS]], axis=1, out=widow_prefix[:, 1:])
        trump = np.full(games, TRUMPS[self.number % 5], dtype=np.int64)
        trump_bits = np.where(trump >= 0, SUIT_BITS.take(np.maximum(trump, 0)), ZERO)
        zeros = np.zeros(games, dtype=np.int64)
        first = (dealer + 1) % PLAYERS
        state = DreyfusState(
            keys=k, dealer=dealer, order=order, widow_prefix=widow_prefix, trump=trump,
            trump_bits=trump_bits, trump_base=self.rule.trump_base(trump), hands=hands,
            widow_next=zeros.copy(), stage=zeros.copy(), todo=hands[first, ar],
            chosen=np.zeros(games, dtype=np.uint64), most=np.full(games, HAND, np.int64),
            turn=np.zeros((PLAYERS, games), dtype=np.bool_),
            discards=np.zeros((PLAYERS, games), dtype=np.uint64),
            bought=np.zeros((PLAYERS, games), dtype=np.int64), mover=first.copy(),
            led=np.full(games, -1, dtype=np.int64), base=zeros.copy(), best=zeros.copy(),
            leader=first, cards_in=zeros.copy(), trick=np.zeros(games, dtype=np.uint64),
            played=np.zeros(games, dtype=np.uint64),
            won=np.zeros((PLAYERS, games), dtype=np.int64),
            over=np.zeros(games, dtype=np.bool_), legal=np.zeros(games, dtype=np.uint64),
            history=np.full((2 * PLAYERS * HAND, 2, games), -1, dtype=np.int16),
            points=np.zeros((PLAYERS, games), dtype=np.float32))
        state.turn[0] = True            # the widow is full: the dealer's left always has a turn
        self._set_legal(state)
        return state

    # ------------------------------------------------------------------ steps
    def _set_legal(self, state: DreyfusState) -> None:
        ar = np.arange(state.games)
        h = state.hands[state.mover, ar]
        follow = follow_else_trump(h, SUIT_BITS.take(np.maximum(state.led, 0)),
                                   state.trump_bits)
        legal = np.where(state.led < 0, h, follow)
        # the exchange: keep, or discard while fewer than the widow's cards are out
        room = popcount(state.chosen).astype(np.int64) < state.most
        ask = _KEEP_BIT | np.where(room, _DISCARD_BIT, ZERO)
        legal = np.where(state.stage < PLAYING, ask, legal)
        state.legal = np.where(state.over, _KEEP_BIT, legal)

    def advance(self, state: DreyfusState, actions: npt.ArrayLike) -> DreyfusState:
        """One action per game (a game over: ``KEEP``, ignored)."""
        a, bit = self.checked(state, actions)
        if state.t >= len(state.history):
            state.history = np.concatenate([state.history, np.full_like(state.history, -1)])
        live = ~state.over
        state.history[state.t] = np.where(live, np.stack([state.mover, a]), -1)
        state.t += 1
        exchanging = live & (state.stage < PLAYING)
        if exchanging.any():
            self._exchange(state, a, np.flatnonzero(exchanging))
        playing = live & ~exchanging
        if playing.any():
            self._play(state, a, bit, np.flatnonzero(playing))
        self._set_legal(state)
        return state

    def _exchange(self, state: DreyfusState, a: I64, g: I64) -> None:
        """The games ``g`` in the exchange: the asked card kept or discarded; after the
        twelfth, the discards go and as many cards come from the widow's top, and the
        next player with the widow not empty has his turn (else the play begins)."""
        todo = state.todo[g]
        asked = todo & np.negative(todo)
        todo ^= asked
        state.todo[g] = todo
        chosen = state.chosen[g] | np.where(a[g] == DISCARD, asked, ZERO)
        state.chosen[g] = chosen
        done = todo == 0
        if not done.any():
            return
        g, chosen = g[done], chosen[done]
        stage, seat = state.stage[g], state.mover[g]
        bought = popcount(chosen).astype(np.int64)
        taken = state.widow_next[g]
        after = taken + bought
        new = state.widow_prefix[g, after] ^ state.widow_prefix[g, taken]
        state.hands[seat, g] = (state.hands[seat, g] & ~chosen) | new
        state.discards[stage, g] = chosen
        state.bought[seat, g] = bought
        state.widow_next[g] = after
        # the next turn, unless the widow is empty (the rest are skipped) or all had one
        stage = np.where(after < HAND, stage + 1, PLAYING)
        state.stage[g] = stage
        nxt = (state.dealer[g] + 1 + stage) % PLAYERS          # PLAYING: the dealer's left
        state.mover[g] = nxt
        turning = stage < PLAYING
        state.turn[np.minimum(stage, PLAYERS - 1)[turning], g[turning]] = True
        state.todo[g] = np.where(turning, state.hands[nxt, g], ZERO)
        state.chosen[g] = ZERO
        state.most[g] = HAND - after

    def _play(self, state: DreyfusState, a: I64, bit: U64, g: I64) -> None:
        """The games ``g`` in the play: a card to the trick."""
        ag, seat, cb = a[g], state.mover[g], bit[g]
        state.hands[seat, g] ^= cb
        state.trick[g] |= cb
        cards_in = state.cards_in[g]
        is_lead = cards_in == 0
        led = np.where(is_lead, ag // 13, state.led[g])
        base, best = self.rule.play(is_lead, state.trump_base[g], led, state.base[g],
                                    state.best[g], ag, seat)
        state.base[g], state.best[g] = base, best
        cards_in += 1
        ends = cards_in == PLAYERS
        state.cards_in[g] = np.where(ends, 0, cards_in)
        state.led[g] = np.where(ends, -1, led)
        winner = self.rule.winner(best)
        state.mover[g] = np.where(ends, winner, (seat + 1) % PLAYERS)
        if ends.any():
            ge, w = g[ends], winner[ends]
            state.won[w, ge] += 1
            state.leader[ge] = w
            state.played[ge] |= state.trick[ge]
            state.trick[ge] = ZERO
            finished = state.won[:, ge].sum(axis=0) == HAND
            if finished.any():
                f = ge[finished]
                state.over[f] = True
                state.points[:, f] = self.points_of(state, f)

    def points_of(self, state: DreyfusState, g: I64) -> npt.NDArray[np.float32]:
        """(3, len(g)) each seat's points: tricks − 4 − cards bought."""
        return (state.won[:, g] - PAR - state.bought[:, g]).astype(np.float32)

    def take(self, state: DreyfusState, games: npt.ArrayLike) -> DreyfusState:
        """The games at indices ``games`` (repeats allowed) as a batch of their own."""
        idx = np.asarray(games, dtype=np.int64)
        kw: dict[str, Any] = {}
        for f in fields(state):
            v = getattr(state, f.name)
            if isinstance(v, np.ndarray):
                # the deck and the widow are by game first; the rest by game last
                v = v[idx] if f.name in ("order", "widow_prefix") else v[..., idx]
            kw[f.name] = v
        return DreyfusState(**kw)

    # ---------------------------------------------------------------- views
    def observation_layout(self) -> list[tuple[str, int, int]]:
        """(name, first feature, width). Seats relative: ``+k`` is k seats to the mover's
        left. ``asked``: the card the exchanger decides on; ``chosen``: the cards he
        discarded so far this turn; ``my_discards``: what he discarded at his turn."""
        parts = [("hand", 0, CARDS), ("trick", 64, CARDS), ("played", 128, CARDS),
                 ("my_discards", 192, CARDS), ("asked", 256, CARDS), ("chosen", 320, CARDS),
                 ("trump_suit", 384, 5), ("exchange", 389, 1), ("led_suit", 390, 4),
                 ("widow_size", 394, 13)]
        parts += [(f"leader_seat_+{k}", 407 + k, 1) for k in range(PLAYERS)]
        parts += [(f"bought_by_seat_+{k}", 448 + 13 * k, 13) for k in range(PLAYERS)]
        parts += [(f"tricks_of_seat_+{k}", 512 + 13 * k, 13) for k in range(PLAYERS)]
        return parts

    observation_size = 576

    def observe(self, state: DreyfusState) -> npt.NDArray[np.uint8]:
        games, ar = state.games, np.arange(state.games)
        me = state.mover
        out = np.zeros((games, 9), dtype=np.uint64)
        out[:, 0] = state.hands[me, ar]
        out[:, 1] = state.trick
        out[:, 2] = state.played
        order = (me - state.dealer - 1) % PLAYERS
        out[:, 3] = state.discards[order, ar]
        exchanging = state.stage < PLAYING
        out[:, 4] = state.todo & np.negative(state.todo)
        out[:, 5] = state.chosen
        misc = np.left_shift(ONE, np.where(state.trump >= 0, state.trump, 4).astype(np.uint64))
        misc |= exchanging.astype(np.uint64) << np.uint64(5)
        misc |= np.where(state.led >= 0, np.left_shift(ONE, (6 + np.maximum(state.led, 0))
                                                       .astype(np.uint64)), ZERO)
        misc |= np.left_shift(ONE, (10 + HAND - state.widow_next).astype(np.uint64))
        misc |= np.left_shift(ONE, (23 + (state.leader - me) % PLAYERS).astype(np.uint64))
        out[:, 6] = misc
        for k in range(PLAYERS):
            s = (me + k) % PLAYERS
            out[:, 7] |= np.left_shift(ONE, (13 * k + state.bought[s, ar]).astype(np.uint64))
            out[:, 8] |= np.left_shift(ONE, (13 * k + state.won[s, ar]).astype(np.uint64))
        obs = np.unpackbits(out.view(np.uint8).ravel(), bitorder="little").reshape(games, -1)
        obs[state.over] = 0
        return obs

    # ---------------------------------------------------------------- records
    def exchange_text(self, state: DreyfusState, game: int, i: int) -> str:
        """The engine action of turn ``i``'s twelve decisions (it must have come)."""
        d = int(state.discards[i, game])
        return cards_text("discard", d) if d else "stand"

    def record(self, state: DreyfusState, game: int) -> dict[str, Any]:
        """Game ``game`` as a koloda-record/1: the deal, the exchange (each turn's
        twelve decisions as the one engine action they make), the plays."""
        order = state.order[game].tolist()
        d = int(state.dealer[game])
        hands: list[list[str]] = [[] for _ in range(PLAYERS)]
        for k in range(PLAYERS):
            hands[(d + 1 + k) % PLAYERS] = [CARD_TEXT[order[i]] for i in PACKETS[k]]
        deal = {"dealer": d, "hands": hands,
                "stock": [CARD_TEXT[order[i]] for i in PACKETS[PLAYERS]], "trump_card": None}
        actions = []
        asked = 0
        for t in range(state.t):
            seat, a = (int(x) for x in state.history[t, :, game])
            if seat < 0:
                break
            if a < CARDS:
                actions.append({"seat": seat, "action": f"play {CARD_TEXT[a]}"})
                continue
            asked += 1            # a turn's twelfth decision makes its engine action
            if asked % HAND == 0:
                actions.append({"seat": seat,
                                "action": self.exchange_text(state, game, asked // HAND - 1)})
        return {"format": "koloda-record/1", "game": self.name, "players": PLAYERS,
                "options": {}, "seed": None, "first_dealer": d, "deals": [deal],
                "actions": actions, "result": None}


__all__ = ["DISCARD", "KEEP", "Dreyfus", "DreyfusState"]
