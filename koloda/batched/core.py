"""The batched trick: one deal of a trick game, for a whole batch of games at once.

Why the batch moves in lockstep: every deal these games play has a fixed length (the
bids, then ``players × hand`` plays), so after ``t`` steps every game of a batch is at the
same step — bidding or playing, and at the same place in the same trick. The phase and
the trick position are then plain Python ints shared by the batch, and a step is a short
straight line of whole-batch numpy operations with no per-game branch. What differs
between games (the cards, the dealer, the trump, who leads) lives in arrays.

Frames. Seats are numbered as everywhere in koloda (``0..n-1`` clockwise). Inside, two
frames save work: bids and tricks are kept by *order from the dealer's left*
(``k`` ↔ seat ``(dealer + 1 + k) % n``: the order of the bidding and of the first
trick), and hands by *position in the current trick* (row ``j`` = the player ``j`` seats
after the trick's leader), so the hand to play is always row ``j`` — a contiguous row, no
gather. At the end of a trick the hands rotate once to the winner (one gather of
``n × games`` words per trick instead of one per step).

A game is data for this core: its deck, the suit each card counts as, each card's
strength, the follow rule (follow-else-trump or follow-else-any), whether it bids, and
its scoring (``TrickGame`` subclasses: ``koloda.batched.opendaum``, ``.trinka``). Who
wins the trick is ``koloda.batched.trick``'s, shared with the games played at their own
pace.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from koloda.batched.bits import (
    ONE,
    U64,
    as_keys,
    key_stream,
    random_member,
    shuffled,
    unpack,
)
from koloda.batched.trick import TrickRule, follow_else_any, follow_else_trump
from koloda.cards import CARD_TEXT

assert sys.byteorder == "little", "unpack() reads a uint64's bits through its bytes"

I64 = npt.NDArray[np.int64]
F32 = npt.NDArray[np.float32]
CARDS = 52
#: salts of the counter-based randomness: the shuffle and the dealer never share bits
SALT_DEAL, SALT_DEALER = 0x5EED_DEA1, 0xDEA1_E125


def dealt_hands(order: list[int], dealer: int, seats: int, hand: int) -> list[list[str]]:
    """Each seat's cards dealt one at a time from the dealer's left, as a record writes
    them: the ``k``-th player from the dealer's left holds every ``seats``-th card from
    the ``k``-th of the shuffled ``order``."""
    hands: list[list[str]] = [[] for _ in range(seats)]
    for k in range(seats):
        hands[(dealer + 1 + k) % seats] = [CARD_TEXT[c] for c in order[k:seats * hand:seats]]
    return hands


def legal_mask(legal: U64, offset: int, actions: int) -> npt.NDArray[np.bool_]:
    """(games, actions) the legal sets, ``legal`` bit ``k`` being action ``offset + k``."""
    out = np.zeros((len(legal), actions), dtype=np.bool_)
    width = min(64, actions - offset)
    out[:, offset:offset + width] = unpack(legal, width)
    return out


def legal_list(legal: U64, offset: int, game: int) -> list[int]:
    """One game's legal action indices (for tests and people, not loops)."""
    bits = int(legal[game])
    return [offset + i for i in range(64) if bits >> i & 1]


def random_legal(legal: U64, offset: int, rng: np.random.Generator) -> I64:
    """A uniformly random legal action per game (the random player of benchmarks)."""
    return random_member(legal, rng.bit_generator.random_raw(len(legal)), offset)


class IllegalBatchAction(ValueError):
    """An action outside the legal set of its game (the first such game is named)."""


@dataclass
class TrickState:
    """A batch of deals in progress (``TrickGame.init``; ``step`` updates it in place).

    Arrays are by game (last axis ``games``); rows of ``(players, games)`` arrays are in
    the frames of the module docstring. ``t`` (steps taken) is one int for the batch.
    Only what a step needs is kept up to date; the rest (cards played, tricks taken, the
    current trick) is read off ``history`` and ``winners`` when asked for.
    """

    keys: U64
    dealer: I64
    #: each game's deck as shuffled (top first): what was dealt, for records
    order: npt.NDArray[np.uint8]
    trump: I64                 # trump suit per game, -1 for none
    trump_card: I64            # the card turned for trump, -1 for none
    trump_bits: U64
    dealt: U64                 # every card dealt to a hand
    hands: U64                 # (players, games), row j = j seats after the leader
    leader: I64                # the leader, by order from the dealer's left
    bids: I64                  # (players, games) by order from the dealer's left; -1 none
    led_bits: U64              # the led suit's cards (valid once the trick is led)
    trump_base: I64            # strength-table offset of the trump (the led suit added)
    base: I64                  # strength-table offset of (trump, led) per game
    best: I64                  # 8 × strength + position of the trick's best card so far
    winners: I64               # (tricks, games) each trick's winner, by order from the left
    #: tricks taken as the observation writes them, one-hot in a field of hand + 1 bits
    #: per order from the dealer's left: one add per trick moves the winner's bit up one
    #: (counting ``winners`` at every observation would cost a pass per seat)
    tricks_word: U64
    #: 1 + each bid (0: not bid yet), one-hot in a field of hand + 2 bits per order
    bids_word: U64
    legal: U64                 # the legal set of the player to move: bit k = action offset+k
    offset: int                # the action index of legal bit 0 (bids follow the 52 cards)
    history: npt.NDArray[np.int16]  # (steps, games): every action taken
    points: F32                # (players, games) the deal's points once over, by seat
    t: int = 0

    @property
    def games(self) -> int:
        return len(self.keys)

    def copy(self) -> TrickState:
        """An independent copy (a search branches from it; ``step`` mutates in place)."""
        return replace(self, **{f.name: getattr(self, f.name).copy()
                                for f in fields(self) if isinstance(getattr(self, f.name),
                                                                    np.ndarray)})


class TrickGame:
    """One deal of a trick game for a batch: ``init(keys)``, then ``step`` until over.

    Subclasses set the data (``deck``, ``hand``, ``players``, ``suit_of``, ``power``,
    ``follow_trump``, ``bidding``) and implement ``trumps`` and ``score``.
    """

    name = "trick"
    players: int
    hand: int
    deck: npt.NDArray[np.uint8]
    #: the suit each card counts as (Trinka: every jack is a club)
    suit_of: npt.NDArray[np.int64]
    #: each card's strength inside its counted suit
    power: npt.NDArray[np.int64]
    #: void in the led suit: must trump (Opendaum) or may play anything (Trinka)
    follow_trump: bool = True
    bidding: bool = False
    #: play actions ``0..play_actions-1``: the 52 cards, then any extra ways to play a card
    #: (Opendaum's shakhi played wild); bids follow them
    play_actions: int = CARDS
    #: the card int each play action plays (None: action = card)
    card_of: npt.NDArray[np.int64] | None = None
    #: play actions that win whatever is led, by strength (shakhi played wild)
    always: dict[int, int] | None = None
    #: cards in no suit's follow or trump duty (shakhi)
    exempt: int = 0

    def __init__(self) -> None:
        n = self.players
        if n > 8:
            raise ValueError("at most 8 players: a trick's best card keeps its position in "
                             "3 bits")
        self.bid_steps = n if self.bidding else 0
        self.length = self.bid_steps + n * self.hand
        self.num_actions = self.play_actions + (self.hand + 1 if self.bidding else 0)
        #: who wins a trick (the trick's best card: one maximum per play)
        self.rule = TrickRule(self.deck.tolist(), self.suit_of, self.power, self.always,
                              self.exempt)
        self.suit_bits = self.rule.suit_bits
        self._rows = np.arange(n, dtype=np.int64)[:, None]
        #: the all-bids legal set
        self._bids = np.uint64((1 << (self.hand + 1)) - 1)
        self._rotations: dict[int, list[I64]] = {}
        # the observation's one-hot fields: tricks (hand + 1 bits a seat), bids (hand + 2)
        h = self.hand
        if n * (h + 2) > 64:
            raise ValueError("the bids of every seat must fit one 64-bit word")
        self._field_starts = (sum(1 << (k * (h + 1)) for k in range(n)),
                              sum(1 << (k * (h + 2)) for k in range(n)))
        self._trick_fields = np.array([((1 << (h + 1)) - 1) << (k * (h + 1))
                                       for k in range(n)], dtype=np.uint64)

    # ----------------------------------------------------------------- hooks
    def trumps(self, order: npt.NDArray[np.uint8], dealer: I64) -> tuple[I64, I64]:
        """(trump suit, trump card) per game, -1 where none."""
        raise NotImplementedError

    def score(self, state: TrickState) -> F32:
        """(players, games) each seat's points once the deal is over (``by_seat`` turns
        the internal order-from-the-dealer's-left into seats)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ API
    def init(self, keys: npt.ArrayLike) -> TrickState:
        """A batch of fresh deals, one per key: the shuffle and the dealer come from the key
        alone, so a key always deals the same game."""
        k = as_keys(keys)
        games, n, h = len(k), self.players, self.hand
        order = shuffled(k, self.deck, SALT_DEAL)
        dealer = (key_stream(k, SALT_DEALER) % np.uint64(n)).astype(np.int64)
        # dealt one at a time from the dealer's left: the k-th player from the dealer's
        # left holds every n-th card from the k-th; order k is also trick position k
        # (cards, games): reductions run along contiguous rows, several times faster
        bits = np.left_shift(ONE, np.ascontiguousarray(order[:, :n * h].T), dtype=np.uint64)
        hands = np.empty((n, games), dtype=np.uint64)
        for j in range(n):
            np.bitwise_or.reduce(bits[j::n], axis=0, out=hands[j])
        trump, trump_card = self.trumps(order, dealer)
        state = self._state(k, order, dealer, hands, trump, trump_card)
        self._set_legal(state)
        return state

    def _state(self, k: U64, order: npt.NDArray[np.uint8], dealer: I64, hands: U64,
               trump: I64, trump_card: I64) -> TrickState:
        """A fresh state from the deal: ``hands`` (players, games) by order from the
        dealer's left (order 0 leads the first trick)."""
        games, n, h = len(k), self.players, self.hand
        zero = np.zeros(games, dtype=np.uint64)
        trump_bits = np.where(trump >= 0, self.suit_bits[trump], zero)
        state = TrickState(
            keys=k, dealer=dealer, order=order, trump=trump, trump_card=trump_card,
            trump_bits=trump_bits, dealt=np.bitwise_or.reduce(hands, axis=0), hands=hands,
            leader=np.zeros(games, dtype=np.int64),
            bids=np.full((n, games), -1, dtype=np.int64), led_bits=zero,
            trump_base=self.rule.trump_base(trump),
            base=np.zeros(games, dtype=np.int64), best=np.zeros(games, dtype=np.int64),
            winners=np.zeros((h, games), dtype=np.int64),
            tricks_word=np.full(games, self._field_starts[0], dtype=np.uint64),
            bids_word=np.full(games, self._field_starts[1], dtype=np.uint64),
            legal=zero, offset=0,
            history=np.zeros((self.length, games), dtype=np.int16),
            points=np.zeros((n, games), dtype=np.float32))
        return state

    def step(self, state: TrickState, actions: npt.ArrayLike
             ) -> tuple[TrickState, npt.NDArray[np.uint8], npt.NDArray[np.bool_], F32]:
        """Apply one action per game; return (state, observation, mask, reward).

        ``reward`` (games, players) by seat: zero until the deal's last step, then each
        seat's points. The observation and mask are the next player to move's (all zero
        once the deal is over)."""
        self.advance(state, actions)
        done = self.is_over(state)
        # (the points' rows are the table's seats: more than ``players`` when some sit out)
        reward = state.points.T.copy() if done else np.zeros((state.games, len(state.points)),
                                                              dtype=np.float32)
        return state, self.observe(state), self.mask(state), reward

    def advance(self, state: TrickState, actions: npt.ArrayLike) -> TrickState:
        """``step`` without building the observation and mask (the hot path: ``state.legal``
        holds the legal set as bits, ``state.offset`` the action index of bit 0)."""
        t = state.t
        if t >= self.length:
            raise IllegalBatchAction(f"{self.name}: the deals are over after "
                                     f"{self.length} steps; init a new batch")
        a = np.asarray(actions)
        if a.shape != (state.games,) or a.dtype != np.int64:
            if a.shape != (state.games,):
                raise ValueError(f"actions: one per game, shape ({state.games},), "
                                 f"not {a.shape}")
            a = a.astype(np.int64)
        k = a - state.offset if state.offset else a
        # a shift of 64 or more (or a negative one, as uint64) gives 0: never legal
        bit = np.left_shift(ONE, k.astype(np.uint64))
        if not np.bitwise_and(state.legal, bit).all():
            bad = (state.legal & bit) == 0
            g = int(np.argmax(bad))
            raise IllegalBatchAction(f"{self.name}: game {g}: action {int(a[g])} is not legal "
                                     f"now (legal: {self.legal_actions(state, g)})")
        state.history[t] = a
        if t < self.bid_steps:
            state.bids[t] = k
            f = t * (self.hand + 2)
            state.bids_word ^= np.left_shift(ONE, (k + (f + 1)).astype(np.uint64))
            state.bids_word ^= np.uint64(1 << f)
        else:
            if self.card_of is not None:      # the card an extra play action plays
                bit = np.left_shift(ONE, self.card_of.take(a).astype(np.uint64))
            self._play(state, a, bit)
        state.t = t + 1
        if state.t >= self.length:
            state.points = self.score(state)
            state.legal = np.zeros(state.games, dtype=np.uint64)
        else:
            self._set_legal(state)
        return state

    def is_over(self, state: TrickState) -> bool:
        """Every game of a batch ends on the same step (a deal has a fixed length)."""
        return state.t >= self.length

    def terminated(self, state: TrickState) -> npt.NDArray[np.bool_]:
        return np.full(state.games, self.is_over(state))

    def to_move(self, state: TrickState) -> I64:
        """The seat to move in each game (-1 once over)."""
        if self.is_over(state):
            return np.full(state.games, -1, dtype=np.int64)
        return (state.dealer + 1 + self._mover(state)) % self.players

    def tricks(self, state: TrickState) -> I64:
        """(players, games) tricks taken so far, by order from the dealer's left."""
        done = max(0, state.t - self.bid_steps) // self.players
        won = state.winners[:done]
        return np.stack([(won == k).sum(axis=0) for k in range(self.players)])

    def by_seat_tricks(self, state: TrickState) -> I64:
        """(players, games) tricks taken so far, by seat."""
        return self.by_seat(state, self.tricks(state))

    def by_seat_bids(self, state: TrickState) -> I64:
        """(players, games) bids by seat (-1: not bid yet)."""
        return self.by_seat(state, state.bids)

    def mask(self, state: TrickState) -> npt.NDArray[np.bool_]:
        """(games, num_actions) the legal actions of the player to move."""
        a = self.num_actions
        if a <= 64:
            # the legal set as one word of action bits, unpacked flat
            word = state.legal << np.uint64(state.offset)
            bits = np.unpackbits(word.view(np.uint8), bitorder="little").reshape(-1, 64)
            return bits[:, :a].view(np.bool_)
        return legal_mask(state.legal, state.offset, a)

    def legal_actions(self, state: TrickState, game: int) -> list[int]:
        """One game's legal action indices (for tests and people, not loops)."""
        return legal_list(state.legal, state.offset, game)

    def random_actions(self, state: TrickState, rng: np.random.Generator) -> I64:
        """A uniformly random legal action per game (the random player of benchmarks)."""
        return random_legal(state.legal, state.offset, rng)

    # ------------------------------------------------------------ internals
    def _mover(self, state: TrickState) -> I64 | int:
        t = state.t
        if t < self.bid_steps:
            return t
        return (state.leader + (t - self.bid_steps) % self.players) % self.players

    def _leader_of(self, state: TrickState, trick: int) -> I64:
        return state.winners[trick - 1] if trick else np.zeros(state.games, dtype=np.int64)

    def by_seat(self, state: TrickState, by_order: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """(players, games) from order-from-the-dealer's-left to seats."""
        n = self.players
        idx = (self._rows - state.dealer[None, :] - 1) % n
        return np.take_along_axis(by_order, idx, axis=0)

    def _rotation(self, games: int) -> list[I64]:
        """Per row k, the flat index offset of row (k + w) % n for w = 0..n-1."""
        rot = self._rotations.get(games)
        if rot is None:
            n = self.players
            rot = self._rotations[games] = [
                np.array([((k + w) % n) * games for w in range(n)], dtype=np.int64)
                for k in range(n)]
        return rot

    def _play(self, state: TrickState, a: I64, bit: U64) -> None:
        n = self.players
        p = state.t - self.bid_steps
        j = p % n
        state.hands[j] ^= bit
        if j == 0:
            led = self._led_suit(state, a)
            state.led_bits = self.suit_bits.take(led)
            state.base, state.best = self.rule.lead(state.trump_base, led, a)
            return
        self.rule.follow(state.base, state.best, a, j)
        if j < n - 1:
            return
        # the trick is complete: the winner takes it and leads the next
        w = self.rule.winner(state.best)
        winner = state.leader + w
        np.subtract(winner, n, out=winner, where=winner >= n)
        state.winners[p // n] = winner
        state.tricks_word += state.tricks_word & self._trick_fields.take(winner)
        state.leader = winner
        flat, games = state.hands.reshape(-1), state.games
        ar = np.arange(games)
        rotated = np.empty_like(state.hands)
        for k, rot in enumerate(self._rotation(games)):
            flat.take(rot.take(w) + ar, out=rotated[k])
        state.hands = rotated

    def _led_suit(self, state: TrickState, a: I64) -> I64:
        """The suit a lead of action ``a`` leads (a hook: a shakha led wild leads trump)."""
        return self.suit_of.take(a)

    def _bid_legal(self, state: TrickState) -> U64:
        """The legal bids of bidder ``state.t`` as bits (a hook: §1c's hook rule)."""
        return np.full(state.games, self._bids, dtype=np.uint64)

    def _play_legal(self, state: TrickState, j: int, h: U64) -> U64 | None:
        """The legal plays of trick position ``j`` holding ``h`` (a hook; None: the
        follow rule of ``follow_trump``)."""
        return None

    def _set_legal(self, state: TrickState) -> None:
        t = state.t
        if t < self.bid_steps:
            state.offset = self.play_actions
            state.legal = self._bid_legal(state)
            return
        state.offset = 0
        j = (t - self.bid_steps) % self.players
        h = state.hands[j]
        legal = self._play_legal(state, j, h)
        if legal is not None:
            state.legal = legal
            return
        if j == 0:
            state.legal = h.copy()
            return
        # follow the led suit; if void, trump (Opendaum) — else anything
        if self.follow_trump:
            state.legal = follow_else_trump(h, state.led_bits, state.trump_bits)
        else:
            state.legal = follow_else_any(h, state.led_bits)

    # ------------------------------------------------------------ views
    def observation_layout(self) -> list[tuple[str, int, int]]:
        """(name, first feature, width) of each part of the observation.

        Every part starts on a multiple of 64 (parts that share a 64-bit word say so by
        their offsets): the observation is built as one uint64 word per part and unpacked
        once, which is what makes it cheap. The padding features are always 0. Seats are
        relative, ``+k`` = k seats to the left of the player to move."""
        n, h = self.players, self.hand
        parts = [("hand", 0, CARDS), ("played", 64, CARDS)]
        parts += [(f"trick_card_of_seat_+{k}", 64 * (k + 1), self.play_actions)
                  for k in range(1, n)]
        w = n + 1
        parts += [("trump_card", 64 * w, CARDS)]
        w += 1
        parts += [(f"tricks_taken_by_seat_+{k}", 64 * w + k * (h + 1), h + 1) for k in range(n)]
        if self.bidding:
            w += 1
            # one-hot of 1 + the bid (feature 0: not bid yet)
            parts += [(f"bid_of_seat_+{k}", 64 * w + k * (h + 2), h + 2) for k in range(n)]
        w += 1
        parts += [("trump_suit", 64 * w, 4), ("dealer_seat_+", 64 * w + 4, n),
                  ("bidding", 64 * w + 4 + n, 1)]
        assert n * (h + 2) <= 64, "the small parts fit one word each"
        return parts

    @property
    def observation_size(self) -> int:
        return 64 * (self.players + 4 + (1 if self.bidding else 0))

    def observe(self, state: TrickState) -> npt.NDArray[np.uint8]:
        """(games, observation_size) 0/1 bytes: what the player to move may know (layout in
        ``observation_layout``); all zero once the deal is over.

        Built only on request (``advance`` never builds one): one word per part, then one
        ``unpackbits`` — a few times the cost of a step."""
        n, h, games = self.players, self.hand, state.games
        words = self.observation_size // 64
        if self.is_over(state):
            return np.zeros((games, 64 * words), dtype=np.uint8)
        out = np.zeros((games, words), dtype=np.uint64)
        t = state.t
        bidding = t < self.bid_steps
        j = 0 if bidding else (t - self.bid_steps) % n
        me = np.full(games, t, dtype=np.int64) if bidding else (state.leader + j) % n
        start = t - j            # the current trick's first step
        out[:, 0] = state.hands[t if bidding else j]
        in_trick = np.zeros(games, dtype=np.uint64)
        for k in range(1, n):
            p = (j + k) % n      # the position in the trick of the seat k to my left
            if not bidding and p < j:
                a = state.history[start + p].astype(np.int64)
                out[:, k + 1] = np.left_shift(ONE, a.astype(np.uint64))
                if self.card_of is not None:
                    a = self.card_of.take(a)
                in_trick |= np.left_shift(ONE, a.astype(np.uint64))
        held = np.bitwise_or.reduce(state.hands, axis=0)
        out[:, 1] = state.dealt & ~held & ~in_trick
        w = n + 1
        has = state.trump_card >= 0
        out[:, w] = np.where(has, np.left_shift(ONE, np.maximum(state.trump_card, 0)
                                                .astype(np.uint64)), np.uint64(0))
        w += 1
        # the one-hot fields rotated so that field k is the seat k to the mover's left
        for word, width in ((state.tricks_word, h + 1), (state.bids_word, h + 2)):
            if width == h + 2 and not self.bidding:
                break
            span = n * width
            shift = (me * width).astype(np.uint64)
            rel = (word >> shift) | (word << (np.uint64(span) - shift))
            rel &= np.uint64((1 << span) - 1)
            out[:, w] = rel
            w += 1
        misc = np.where(has, np.left_shift(ONE, np.maximum(state.trump, 0).astype(np.uint64)),
                        np.uint64(0))
        misc |= np.left_shift(ONE, ((n - 1 - me) % n + 4).astype(np.uint64))
        if bidding:
            misc |= np.uint64(1 << (4 + n))
        out[:, w] = misc
        # one flat unpack (twice as fast as unpacking along an axis)
        return np.unpackbits(out.view(np.uint8).ravel(), bitorder="little").reshape(games, -1)

    # ------------------------------------------------------------ records
    def action_text(self, action: int) -> str:
        return f"play {CARD_TEXT[action]}" if action < CARDS else \
            f"bid {action - self.play_actions}"

    def deal_json(self, state: TrickState, game: int) -> dict[str, Any]:
        """Game ``game``'s deal as koloda-record/1 writes it (``deals[0]``)."""
        n, h = self.players, self.hand
        order = state.order[game].tolist()
        tc = int(state.trump_card[game])
        return {"dealer": int(state.dealer[game]),
                "hands": dealt_hands(order, int(state.dealer[game]), n, h),
                "stock": [CARD_TEXT[c] for c in order[n * h:]],
                "trump_card": CARD_TEXT[tc] if tc >= 0 else None}

    def actions_json(self, state: TrickState, game: int) -> list[dict[str, Any]]:
        """Game ``game``'s actions so far with the seat of each."""
        n, d = self.players, int(state.dealer[game])
        out = []
        for t in range(state.t):
            if t < self.bid_steps:
                k = t
            else:
                p = t - self.bid_steps
                k = int(self._leader_of(state, p // n)[game]) + p % n
            out.append({"seat": (d + 1 + k) % n,
                        "action": self.action_text(int(state.history[t, game]))})
        return out

    def record(self, state: TrickState, game: int) -> dict[str, Any]:
        """Game ``game`` as a koloda-record/1 (a single deal, dealt as the batch dealt it):
        ``koloda.engine.records.replay`` replays it through the engine."""
        return {"format": "koloda-record/1", "game": self.name, "players": self.players,
                "options": self.record_options(), "seed": None,
                "first_dealer": int(state.dealer[game]),
                "deals": [self.deal_json(state, game)],
                "actions": self.actions_json(state, game), "result": None}

    def record_options(self) -> dict[str, Any]:
        return {}


__all__ = ["CARDS", "IllegalBatchAction", "TrickGame", "TrickState"]
