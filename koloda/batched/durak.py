"""Batched Durak for two players (koloda/rules/durak.en.md §Precisely; the engine's
``koloda.games.durak`` is the reference): many games advanced together in numpy.

    from koloda.batched.durak import Durak
    game = Durak()                               # 2 players, 36 cards, the default options
    state = game.init(keys)                      # one game per key, dealt from the key
    state, obs, mask, reward = game.step(state, actions)

Unlike the trick games, Durak games have different lengths, so every game of a batch keeps
its own phase (attack, defend, throw, over): a step splits the batch by the kind of
action (select, confirm, beat, take, pass; a round's end) and applies each to its games
with a few array operations, no per-game Python. A finished game stays over: its mask is empty and
its actions are ignored (``reset_done`` deals new games into the finished slots).

The action space is the engine's (``koloda.envs.actions.action_space("durak")``, 2 760
indices), so the masks are the PettingZoo and OpenSpiel adapters' masks: ``0`` take,
``1`` pass, ``2 + 52·A + B`` beat A with B, ``2706 + C`` select C, ``2758`` confirm
attack, ``2759`` confirm throw. A multi-card attack or throw is chosen card by card in
ascending card order (``select``) and then confirmed, as the adapters do.

The benchmark's loop is ``play_random`` (``advance_random``: the random choice and the step
in one; the batch kept full by dealing new games into finished slots while keys are left, as
a vector env's autoreset does, then drained); ``koloda bench`` prints its games/s. The tests
replay every game of random batches through the engine (same mask at every step, same seat,
same durak and epaulettes) and check the observation against the engine's view, part by
part.

Two players, no teams: the only one ever asked to throw in is the attacker, a round ends
at the attacker's ``pass`` (or at the limit, or when the attacker has no cards), and the
game ends after a round once the stock is empty and a hand is empty. The durak is the
player still holding cards; both hands empty at once is a draw.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from koloda.batched.bits import (
    CHUNK,
    ONE,
    U64,
    as_keys,
    key_stream,
    lowest_bit_index,
    popcount,
    shuffled,
    unpack,
)
from koloda.batched.core import SALT_DEAL, SALT_DEALER, IllegalBatchAction
from koloda.cards import CARD_TEXT, SIX, deck
from koloda.engine.layout import UNBOUNDED

I64 = npt.NDArray[np.int64]
F32 = npt.NDArray[np.float32]
CARDS = 52
HAND = 6
DECK = 36
#: the phases of a game
ATTACK, DEFEND, THROW, OVER = 0, 1, 2, 3
#: the engine's action space for durak (koloda.envs.actions): plain, pairs, select, confirm
TAKE, PASS, BEAT = 0, 1, 2
SELECT = BEAT + CARDS * CARDS
CONFIRM_ATTACK = SELECT + CARDS
CONFIRM_THROW = CONFIRM_ATTACK + 1
NUM_ACTIONS = CONFIRM_THROW + 1
_RANKS = np.uint64(0x1FFF)
_S13, _S26, _S39 = np.uint64(13), np.uint64(26), np.uint64(39)
_FOUR_SUITS = np.uint64(1 | 1 << 13 | 1 << 26 | 1 << 39)


def _beats_table() -> U64:
    """(trump suit × 64 + attack card) → the cards that beat it: a higher card of its suit
    or, if it is not a trump, any trump (the 36-card deck only; bit 63, no card, → none)."""
    cards = [int(c) for c in deck(36)]
    table = np.zeros(4 * 64, dtype=np.uint64)
    for trump in range(4):
        for a in cards:
            m = 0
            for b in cards:
                if (b // 13 == a // 13 and b > a) or (a // 13 != trump and b // 13 == trump):
                    m |= 1 << b
            table[trump * 64 + a] = m
    return table


BEATS = _beats_table()
#: cards held → how many a player draws to six (none over six)
_SHORT = np.maximum(HAND - np.arange(64), 0)
#: card → its bit
CARD_BIT = np.left_shift(ONE, np.arange(64, dtype=np.uint64))
#: card → every card of its rank
RANK_CARDS = np.array([sum(1 << (s * 13 + c % 13) for s in range(4)) for c in range(64)],
                      dtype=np.uint64)
#: suit → its cards in the 36-card deck
SUIT_CARDS = np.array([sum(1 << c for c in range(s * 13 + 4, s * 13 + 13))
                       for s in range(4)], dtype=np.uint64)
#: (card + 64 × phase // 2) → the cards a selection may go on with after the card: higher
#: ones, of its rank in an attack, any in a throw
_ABOVE = np.array([(1 << 64) - (1 << (c + 1)) for c in range(64)], dtype=np.uint64)
_NEXT_SELECT = np.concatenate([_ABOVE & RANK_CARDS, _ABOVE])
TWO_SIXES = [(1 << (s * 13 + SIX)) | (1 << (t * 13 + SIX))
             for s in range(4) for t in range(s + 1, 4)]


#: (byte × 8 + r) → the index of the byte's r-th set bit
_NTH8 = np.array([[[b for b in range(8) if w >> b & 1][r] if r < bin(w).count("1") else 0
                   for r in range(8)] for w in range(256)], dtype=np.uint8).ravel()
_M8, _M16, _M32 = np.uint64(0xFF), np.uint64(0xFFFF), np.uint64(0xFFFFFFFF)
_S3, _S4, _S5, _S32 = np.uint64(3), np.uint64(4), np.uint64(5), np.uint64(32)


def nth_set_bit(x: U64, r: I64) -> I64:
    """The index of the ``r``-th set bit (from 0, lowest first) of each word; r must be
    below the word's popcount. A binary search over the halves, quarters and eighths of
    the word (branch-free: each shifts by 0 or the part's width) and one look-up in a
    small table (a byte's set bits)."""
    ru = r.astype(np.uint8)                    # counts in bytes: no widening casts
    shift = np.zeros(len(x), dtype=np.uint64)
    w = x
    for mask, log in ((_M32, _S5), (_M16, _S4), (_M8, _S3)):
        c = popcount(w & mask)
        hi = np.greater_equal(ru, c)
        c &= np.negative(hi.view(np.uint8))    # the lower part's count where r is above it
        ru -= c
        up = hi.astype(np.uint64)
        up <<= log
        shift += up
        w = w >> up
    w &= _M8
    w <<= _S3
    w |= ru
    out = _NTH8.take(w.view(np.int64)).astype(np.int64)
    out += shift.view(np.int64)
    return out


#: (9 rank bits × 16 + r) → the rank (4..12, six to ace) of the r-th set bit of a suit's
#: cards in the 36-card deck (8 KiB: stays in the L1 cache)
_NTH_RANK = np.array([[[4 + b for b in range(9) if w >> b & 1][r] if r < bin(w).count("1")
                       else 0 for r in range(16)] for w in range(512)], dtype=np.uint8).ravel()
_M13, _M26, _M9 = np.uint64((1 << 13) - 1), np.uint64((1 << 26) - 1), np.uint64(0x1FF)
_U13, _U26 = np.uint64(13), np.uint64(26)


def nth_card(x: U64, r: I64) -> I64:
    """``nth_set_bit`` for words of the 36-card deck's cards (bits 4..12 of each suit's
    13): two halvings by suits (two suits, then one) and one look-up of the suit's nine
    rank bits — a level fewer than a 64-bit word needs."""
    ru = r.astype(np.uint8)
    shift = np.zeros(len(x), dtype=np.uint64)
    w = x
    for mask, width in ((_M26, _U26), (_M13, _U13)):
        c = popcount(w & mask)
        hi = np.greater_equal(ru, c)
        c &= np.negative(hi.view(np.uint8))    # the lower part's count where r is above it
        ru -= c
        up = hi.astype(np.uint64)
        up *= width
        shift += up
        w = w >> up
    w >>= _S4
    w &= _M9
    w <<= _S4
    w |= ru
    out = _NTH_RANK.take(w.view(np.int64)).astype(np.int64)
    out += shift.view(np.int64)
    return out


def ranks_on(table: U64) -> U64:
    """Every card of a rank some card of ``table`` has (what may be thrown in): the ranks
    folded onto the first suit, then copied to all four by one multiply (no carries: the
    13-bit copies do not overlap)."""
    r = table >> _S13
    r |= table
    r |= table >> _S26
    r |= table >> _S39
    r &= _RANKS
    r *= _FOUR_SUITS
    return r


class Moves(NamedTuple):
    """One move per game that is not over, by kind: the games (indices) of each kind,
    and the card of each select and the two cards of each beat (in the order of their
    games)."""

    sel: I64
    conf: I64
    beat: I64
    take: I64
    pas: I64
    sel_card: I64
    beat_attack: I64
    beat_cover: I64


@dataclass
class DurakState:
    """A batch of games (``Durak.init``; ``advance`` updates it in place), one entry per
    game. Hands are kept by role: ``ha`` the round's attacker's, ``hd`` the defender's;
    ``attacker`` says whose seat that is (roles swap after a beaten round)."""

    keys: U64
    dealer: I64
    order: npt.NDArray[np.uint8]   # (games, 36) the shuffled deck, top first
    prefix: U64                    # (games, 37) bits of order[:i]: a draw is two lookups
    trump: I64
    trump_card: I64
    beats_base: I64                # trump × 64: where the trump's rows of BEATS start
    ha: U64
    hd: U64
    attacker: I64
    phase: I64
    drawn: I64                     # cards dealt or drawn so far (the stock is order[drawn:])
    uncovered: U64                 # attack cards not covered yet
    table: U64                     # every card on the table
    covers: U64                    # the cards that cover them
    #: attack cards the round may still take: its limit less those played (the lead and
    #: the throw-ins)
    room: I64
    taken: npt.NDArray[np.bool_]
    beaten: I64                    # rounds beaten so far (first_bout_limit until one)
    last_open: U64                 # (games, 2) by seat: the opening of the last round
    #                                the seat defended (epaulettes)
    sel: U64                       # the cards selected toward an attack or a throw
    avail: U64                     # the cards the mover may select next (0: none)
    public: U64                    # cards once taken from the table (known in a hand)
    trump_by: I64                  # the seat that drew the turned trump card (-1: nobody yet)
    durak: I64                     # once over: the durak's seat, -1 a draw
    epaulettes: npt.NDArray[np.bool_]
    steps: I64                     # steps each game has taken
    history: list[npt.NDArray[np.int16]] | None   # every step's actions (-1: was over)
    movers: list[npt.NDArray[np.int8]] | None     # who made each of them
    t: int = 0

    @property
    def games(self) -> int:
        return len(self.keys)

    def copy(self) -> DurakState:
        """An independent copy (``advance`` mutates in place)."""
        out = replace(self, **{f.name: getattr(self, f.name).copy() for f in fields(self)
                               if isinstance(getattr(self, f.name), np.ndarray)})
        if self.history is not None and self.movers is not None:
            out.history, out.movers = list(self.history), list(self.movers)
        return out


class Durak:
    """Two-player simple (throw-in) durak, batched. ``first_bout_limit`` as the engine's
    option (default 6)."""

    name = "durak"
    players = 2
    num_actions = NUM_ACTIONS

    def __init__(self, first_bout_limit: int = 6) -> None:
        if not 1 <= first_bout_limit <= HAND:
            raise ValueError(f"first_bout_limit: a whole number 1..6, not {first_bout_limit}")
        self.first_bout_limit = first_bout_limit
        self.deck = np.array(sorted(int(c) for c in deck(36)), dtype=np.uint8)

    # ------------------------------------------------------------------ API
    def init(self, keys: npt.ArrayLike, history: bool = True) -> DurakState:
        """A batch of fresh games, one per key (the shuffle and the dealer from the key
        alone). ``history=False`` keeps no actions (no records; the benchmark's loop)."""
        k = as_keys(keys)
        games = len(k)
        order = shuffled(k, self.deck, SALT_DEAL)
        dealer = (key_stream(k, SALT_DEALER) % np.uint64(2)).astype(np.int64)
        prefix = np.empty((games, DECK + 1), dtype=np.uint64)
        prefix[:, 0] = 0
        left = np.empty(games, dtype=np.uint64)
        right = np.empty(games, dtype=np.uint64)
        for start in range(0, games, CHUNK):     # chunks: the work arrays stay in cache
            end = start + CHUNK
            bits = CARD_BIT.take(order[start:end])
            np.bitwise_or.accumulate(bits, axis=1, out=prefix[start:end, 1:])
            # dealt one at a time from the dealer's left: that player holds cards 0, 2, 4, …
            np.bitwise_or.reduce(bits[:, 0:2 * HAND:2], axis=1, out=left[start:end])
            np.bitwise_or.reduce(bits[:, 1:2 * HAND:2], axis=1, out=right[start:end])
        trump_card = order[:, DECK - 1].astype(np.int64)
        trump = trump_card // 13
        suit = SUIT_CARDS.take(trump)
        # the lowest trump leads; nobody holds one → the dealer's left
        tl, tr = left & suit, right & suit
        low_l = np.where(tl != 0, lowest_bit_index(np.where(tl != 0, tl, ONE)), 99)
        low_r = np.where(tr != 0, lowest_bit_index(np.where(tr != 0, tr, ONE)), 99)
        first_is_left = low_l <= low_r      # both 99: nobody → the dealer's left
        left_seat = (dealer + 1) % 2
        attacker = np.where(first_is_left, left_seat, dealer)
        ha, hd = right.copy(), left.copy()
        ha[first_is_left] = left[first_is_left]
        hd[first_is_left] = right[first_is_left]
        zero = np.zeros(games, dtype=np.uint64)
        zi = np.zeros(games, dtype=np.int64)
        room = np.minimum(popcount(hd).astype(np.int64), self.first_bout_limit)
        return DurakState(
            keys=k, dealer=dealer, order=order, prefix=prefix, trump=trump,
            trump_card=trump_card, beats_base=trump * 64, ha=ha, hd=hd, attacker=attacker,
            phase=zi.copy(),
            drawn=np.full(games, 2 * HAND, dtype=np.int64), uncovered=zero.copy(),
            table=zero.copy(), covers=zero.copy(), room=room,
            taken=np.zeros(games, dtype=np.bool_), beaten=zi.copy(),
            last_open=np.zeros((games, 2), dtype=np.uint64), sel=zero.copy(),
            avail=ha.copy(), public=zero.copy(), trump_by=np.full(games, -1, np.int64),
            durak=np.full(games, -1, np.int64),
            epaulettes=np.zeros(games, dtype=np.bool_), steps=zi.copy(),
            history=[] if history else None, movers=[] if history else None)

    def step(self, state: DurakState, actions: npt.ArrayLike
             ) -> tuple[DurakState, npt.NDArray[np.uint8], npt.NDArray[np.bool_], F32]:
        """Apply one action per game; return (state, observation, mask, reward).

        ``reward`` (games, 2) by seat: zero except on the step that ends a game, then +1 the
        winner, −1 the durak (0 each in a draw), as the adapters' returns. The observation
        and mask are the next player to move's (zero once the game is over)."""
        before = state.phase != OVER
        self.advance(state, actions)
        reward = np.zeros((state.games, 2), dtype=np.float32)
        ended = before & (state.phase == OVER)
        if ended.any():
            reward[ended] = self.returns(state)[ended]
        return state, self.observe(state), self.mask(state), reward

    def returns(self, state: DurakState) -> F32:
        """(games, 2) +1 winner, −1 durak, 0 in a draw or while not over."""
        out = np.zeros((state.games, 2), dtype=np.float32)
        lost = (state.phase == OVER) & (state.durak >= 0)
        g = np.flatnonzero(lost)
        out[g, state.durak[g]] = -1.0
        out[g, 1 - state.durak[g]] = 1.0
        return out

    def is_over(self, state: DurakState) -> bool:
        return bool((state.phase == OVER).all())

    def terminated(self, state: DurakState) -> npt.NDArray[np.bool_]:
        return state.phase == OVER

    def to_move(self, state: DurakState) -> I64:
        """The seat to move in each game (-1 once over)."""
        seat = np.where(state.phase == DEFEND, 1 - state.attacker, state.attacker)
        return np.where(state.phase == OVER, -1, seat)

    # ------------------------------------------------------------ legal sets

    def mask(self, state: DurakState) -> npt.NDArray[np.bool_]:
        """(games, 2760) the legal actions of the player to move."""
        games = state.games
        out = np.zeros((games, NUM_ACTIONS), dtype=np.bool_)
        ph, open_ = state.phase, state.sel != 0
        out[:, TAKE] = ph == DEFEND
        out[:, PASS] = (ph == THROW) & ~open_
        out[:, CONFIRM_ATTACK] = (ph == ATTACK) & open_
        out[:, CONFIRM_THROW] = (ph == THROW) & open_
        out[:, SELECT:SELECT + CARDS] = unpack(state.avail, CARDS).view(np.bool_)
        beats = out[:, BEAT:SELECT].reshape(games, CARDS, CARDS)
        assert np.shares_memory(beats, out), "the beat block is a view of the mask"
        g = np.flatnonzero(ph == DEFEND)
        left = state.uncovered[g]
        while len(g):
            a = lowest_bit_index(left)
            beats[g, a, :] = unpack(BEATS.take(state.beats_base[g] + a) & state.hd[g],
                                    CARDS).view(np.bool_)
            left &= left - ONE
            more = left != 0
            g, left = g[more], left[more]
        return out

    def legal_actions(self, state: DurakState, game: int) -> list[int]:
        """One game's legal action indices (for tests and people, not loops)."""
        return np.flatnonzero(self.mask(self.take(state, [game]))[0]).tolist()

    def random_actions(self, state: DurakState, rng: np.random.Generator) -> I64:
        """A uniformly random legal action per game (-1 in finished games)."""
        return self._action_ints(state, self._random(state, rng))

    def _random(self, state: DurakState, rng: np.random.Generator) -> Moves:
        """Random legal moves: the games of each kind and the cards of each select and
        beat (no action indices: the benchmark's loop never needs them)."""
        games = state.games
        # two uniform 32-bit draws from each raw 64-bit word
        raw = rng.bit_generator.random_raw((games + 1) // 2).view(np.uint32)[:games] \
            .astype(np.uint64)
        ph = state.phase
        # attack and throw: select one of the selectable cards, or confirm / pass (whole
        # batch: the defending and finished games have nothing selectable and no extra)
        opened = state.sel != 0
        k = popcount(state.avail).astype(np.uint64)
        extra = ph == THROW
        extra |= opened
        r = k + extra
        r *= raw
        r >>= _S32
        select = r < k
        i_sel = np.flatnonzero(select)
        # r = k: the extra action, confirm if something is selected, else pass
        extra &= ~select
        conf = extra & opened
        i_conf = np.flatnonzero(conf)
        extra ^= conf
        i_pass = np.flatnonzero(extra)
        # defend: one (attack card, cover) pair or take, uniformly
        g = np.flatnonzero(ph == DEFEND)
        unc = state.uncovered.take(g)
        one = (unc & (unc - ONE)) == 0
        g1 = g.compress(one)
        # one card to cover (the usual case): its covers or take
        a = lowest_bit_index(unc.compress(one))
        b = BEATS.take(state.beats_base.take(g1) + a) & state.hd.take(g1)
        n = popcount(b).astype(np.uint64)
        r1 = (raw.take(g1) * (n + ONE)) >> _S32
        beat = r1 < n                  # else r1 = n: take
        # one search for the selected cards and the covers of the games that beat
        picked = nth_card(np.concatenate([state.avail.take(i_sel), b.compress(beat)]),
                          np.concatenate([r.take(i_sel), r1.compress(beat)]).view(np.int64))
        ns = len(i_sel)
        moves = Moves(i_sel, i_conf, g1.compress(beat), g1.compress(~beat), i_pass,
                      picked[:ns], a.compress(beat), picked[ns:])
        if not one.all():
            g2 = g.compress(~one)
            hit, att, cover = self._random_defence(state, g2, raw.take(g2))
            moves = moves._replace(
                beat=np.concatenate([moves.beat, g2.compress(hit)]),
                take=np.concatenate([moves.take, g2.compress(~hit)]),
                beat_attack=np.concatenate([moves.beat_attack, att]),
                beat_cover=np.concatenate([moves.beat_cover, cover]))
        return moves

    def _action_ints(self, state: DurakState, m: Moves) -> I64:
        """The action indices of the moves (-1 in finished games)."""
        act = np.full(state.games, -1, dtype=np.int64)
        act[m.sel] = SELECT + m.sel_card
        act[m.conf] = CONFIRM_ATTACK + (state.phase.take(m.conf) >> 1)     # ATTACK 0, THROW 2
        act[m.beat] = BEAT + CARDS * m.beat_attack + m.beat_cover
        act[m.take] = TAKE
        act[m.pas] = PASS
        return act

    def _random_defence(self, state: DurakState, g: I64, raw: U64
                        ) -> tuple[npt.NDArray[np.bool_], I64, I64]:
        """Uniform over every (uncovered card, cover) pair and take, in the games ``g``
        (each with two or more cards to cover): whether each beats, and the attack card
        and cover of those that do. No loop over the cards: every game's uncovered cards
        are laid out in one flat list (game by game), the pairs counted by a running sum
        over it, and the pair drawn found by one search in that sum."""
        unc = state.uncovered.take(g)
        count = popcount(unc).astype(np.int64)
        starts = np.cumsum(count)
        starts -= count
        # the flat list: game index and rank (0, 1, …) of each uncovered card in its game
        game = np.repeat(np.arange(len(g)), count)
        rank = np.arange(len(game))
        rank -= starts.take(game)
        cards = nth_card(unc.take(game), rank)
        covers = BEATS.take(state.beats_base.take(g).take(game) + cards)
        covers &= state.hd.take(g).take(game)
        n = popcount(covers).astype(np.int64)
        cum = np.cumsum(n)                    # pairs up to each card, all games before too
        pairs = np.add.reduceat(n, starts)
        before = cum.take(starts + count - 1) - pairs       # pairs of the games before
        # r in 0..pairs (pairs: take)
        r = ((raw * (pairs + 1).astype(np.uint64)) >> _S32).view(np.int64)
        beat = r < pairs
        ib = np.flatnonzero(beat)
        target = before.take(ib) + r.take(ib)
        j = np.searchsorted(cum, target, side="right")      # the card whose covers hold it
        cover = nth_card(covers.take(j), target - (cum.take(j) - n.take(j)))
        return beat, cards.take(j), cover

    # ------------------------------------------------------------ stepping
    def advance(self, state: DurakState, actions: npt.ArrayLike) -> DurakState:
        """``step`` without the observation and mask (the benchmark's loop). Finished
        games ignore their actions."""
        a = np.asarray(actions)
        if a.shape != (state.games,):
            raise ValueError(f"actions: one per game, shape ({state.games},), not {a.shape}")
        live = state.phase != OVER
        a = np.where(live, a, -1).astype(np.int64, copy=False)
        i_sel = np.flatnonzero((a >= SELECT) & (a < CONFIRM_ATTACK))
        i_beat = np.flatnonzero((a >= BEAT) & (a < SELECT))
        att, cover = np.divmod(a.take(i_beat) - BEAT, CARDS)
        m = Moves(i_sel, np.flatnonzero(a >= CONFIRM_ATTACK), i_beat,
                  np.flatnonzero(a == TAKE), np.flatnonzero(a == PASS),
                  a.take(i_sel) - SELECT, att, cover)
        self._check(state, a, live, m.sel, m.conf, m.beat, m.take, m.pas)
        return self._apply(state, m, live, a)

    def advance_random(self, state: DurakState, rng: np.random.Generator) -> I64:
        """``advance(state, random_actions(state, rng))`` in one: the random choice already
        knows each game's kind of action and that it is legal, so the decoding and the
        check are skipped. Returns the actions."""
        m = self._random(state, rng)
        a = self._action_ints(state, m)
        self._apply(state, m, state.phase != OVER, a)
        return a

    def _apply(self, state: DurakState, m: Moves, live: npt.NDArray[np.bool_],
               a: I64 | None = None) -> DurakState:
        """Apply legal moves ``m`` (``a``: their action indices, for the history)."""
        ph = state.phase
        i_sel, i_conf, i_beat, i_take, i_pass = m.sel, m.conf, m.beat, m.take, m.pas
        if state.history is not None and state.movers is not None:
            state.history.append((self._action_ints(state, m) if a is None else a)
                                 .astype(np.int16))
            state.movers.append(self.to_move(state).astype(np.int8))
        state.steps += live
        state.t += 1
        # select: one more card toward an attack (of one rank) or a throw
        if len(i_sel):
            sel = state.sel.take(i_sel)
            sel |= CARD_BIT.take(m.sel_card)
            state.sel[i_sel] = sel
            avail = state.avail.take(i_sel)
            # higher cards only; an attack goes on in the selected card's rank, a throw in
            # any rank on the table (ph 0 or 2: row 0 or 1 of the table)
            c = ph.take(i_sel) << 5
            c += m.sel_card
            avail &= _NEXT_SELECT.take(c)
            # while the round has room for one more
            more = popcount(sel) < state.room.take(i_sel)
            avail &= np.negative(more.astype(np.uint64))
            state.avail[i_sel] = avail
        asks = []
        # confirm: the selected cards go to the table
        if len(i_conf):
            g = i_conf
            chosen = state.sel[g]
            state.ha[g] ^= chosen          # the chosen cards are the attacker's
            state.room[g] -= popcount(chosen)
            state.uncovered[g] |= chosen
            state.table[g] |= chosen
            state.sel[g] = 0
            state.avail[g] = 0
            opened = ph.take(g) == ATTACK
            # the round's opening, the defender's last (epaulettes: the engine keeps it at
            # the round's end, the same cards: a round opened is a round that ends)
            o = g.compress(opened)
            state.last_open.ravel()[2 * o + 1 - state.attacker.take(o)] = chosen.compress(opened)
            # a lead, or a throw while not taken, is to be covered; after take, a throw
            # lies uncovered beside the taken cards and the attacker is asked again
            after_take = state.taken.take(g)
            state.phase[g.compress(~after_take)] = DEFEND
            asks.append(g.compress(after_take))
        if len(i_beat):
            g = i_beat
            ab = CARD_BIT.take(m.beat_attack)
            bb = CARD_BIT.take(m.beat_cover)
            unc = state.uncovered[g] ^ ab  # ab is uncovered, bb in the defender's hand
            state.uncovered[g] = unc
            state.covers[g] |= bb
            state.table[g] |= bb
            state.hd[g] ^= bb
            asks.append(g.compress(unc == 0))
        if len(i_take):
            state.taken[i_take] = True
            asks.append(i_take)
        ends = [i_pass]
        if asks:
            g = np.concatenate(asks) if len(asks) > 1 else asks[0]
            # after a change the attacker is asked, if the limit allows and it holds cards
            ha = state.ha[g]
            room = (state.room[g] > 0) & (ha != 0)
            ask = g.compress(room)
            state.phase[ask] = THROW
            state.avail[ask] = ha.compress(room) & ranks_on(state.table.take(ask))
            ends.append(g.compress(~room))
        end = np.concatenate(ends) if len(ends) > 1 else ends[0]
        if len(end):
            self._end_round(state, end)
        return state

    def _check(self, state: DurakState, a: I64, live: npt.NDArray[np.bool_], i_sel: I64,
               i_conf: I64, i_beat: I64, i_take: I64, i_pass: I64) -> None:
        """IllegalBatchAction naming the first game whose action is not legal."""
        ph = state.phase
        bad = [np.flatnonzero(live & ((a < 0) | (a >= NUM_ACTIONS)))]
        c = (a[i_sel] - SELECT).astype(np.uint64)
        bad.append(i_sel[((state.avail[i_sel] >> c) & ONE) == 0])
        want = np.where(a[i_conf] == CONFIRM_ATTACK, ATTACK, THROW)
        bad.append(i_conf[(ph[i_conf] != want) | (state.sel[i_conf] == 0)])
        pair = a[i_beat] - BEAT
        att = pair // CARDS
        cover = (pair % CARDS).astype(np.uint64)
        beaters = BEATS.take(state.beats_base[i_beat] + att) & state.hd[i_beat]
        ok = ((ph[i_beat] == DEFEND)
              & (((state.uncovered[i_beat] >> att.astype(np.uint64)) & ONE) == ONE)
              & (((beaters >> cover) & ONE) == ONE))
        bad.append(i_beat[~ok])
        bad.append(i_take[ph[i_take] != DEFEND])
        bad.append(i_pass[(ph[i_pass] != THROW) | (state.sel[i_pass] != 0)])
        first = min((int(b[0]) for b in bad if len(b)), default=-1)
        if first >= 0:
            raise IllegalBatchAction(
                f"{self.name}: game {first}: action {int(a[first])} is not legal now "
                f"(legal: {self.legal_actions(state, first)})")

    def _end_round(self, state: DurakState, g: I64) -> None:
        """The round ends in the games ``g``: the table is taken or beaten, both draw (the
        attacker first), and the game ends or the next round opens."""
        took = state.taken[g]
        table = state.table[g]
        ha, hd = state.ha[g], state.hd[g]
        # the taker (the defender) gets the table: or-ing zero where not taken
        got = table & np.negative(took.astype(np.uint64))
        hd |= got
        state.public[g] |= got
        beaten = state.beaten[g] + ~took
        state.beaten[g] = beaten
        attacker = state.attacker[g]
        for f in (state.uncovered, state.table, state.covers):
            f[g] = 0
        state.taken[g] = False
        # drawing up to six: the attacker, then the defender, while the stock lasts
        qd = state.drawn[g]
        if (qd < DECK).any():
            flat = state.prefix.ravel()
            rows = g * (DECK + 1)
            before = flat.take(rows + qd)
            qa = _SHORT.take(popcount(ha))
            qa += qd
            np.minimum(qa, DECK, out=qa)
            mid = flat.take(rows + qa)
            ha |= mid ^ before
            qd = _SHORT.take(popcount(hd))
            qd += qa
            np.minimum(qd, DECK, out=qd)
            hd |= flat.take(rows + qd) ^ mid
            state.drawn[g] = qd
            # the turned trump card, the stock's last, went to one of them (before the swap)
            tc = CARD_BIT.take(state.trump_card[g])
            by = np.where((ha & tc) != 0, attacker, np.where((hd & tc) != 0, 1 - attacker, -1))
            drew = (by >= 0) & (state.trump_by[g] < 0)
            if drew.any():
                state.trump_by[g.compress(drew)] = by.compress(drew)
        # over: the stock is empty and a hand is empty; the durak still holds cards
        over = np.minimum(ha, hd) == 0
        over &= qd >= DECK
        # the next round: after a beaten round the defender attacks (written for every
        # game of g; the games that are over are then marked so)
        swap = ~(took | over)
        flip = (ha ^ hd) & np.negative(swap.astype(np.uint64))   # branch-free swap
        ha ^= flip
        hd ^= flip
        state.ha[g] = ha
        state.hd[g] = hd
        state.attacker[g] = attacker ^ swap
        room = popcount(hd).astype(np.int64)
        if self.first_bout_limit < HAND:
            np.minimum(room, np.where(beaten == 0, self.first_bout_limit, HAND), out=room)
        else:
            np.minimum(room, HAND, out=room)
        state.room[g] = room
        state.phase[g] = ATTACK
        state.avail[g] = ha
        if over.any():      # not swapped: ha and hd are still the round's hands
            o = g.compress(over)
            a_has, d_has = ha.compress(over) != 0, hd.compress(over) != 0
            att = attacker.compress(over)
            durak = np.where(a_has, att, np.where(d_has, 1 - att, -1))
            state.durak[o] = durak
            opening = state.last_open.ravel()[2 * o + np.maximum(durak, 0)]
            two = np.zeros(len(o), dtype=np.bool_)
            for m in TWO_SIXES:
                two |= opening == np.uint64(m)
            state.epaulettes[o] = two & (durak >= 0)
            state.phase[o] = OVER
            state.avail[o] = 0

    # ------------------------------------------------------------ batches
    def take(self, state: DurakState, games: npt.ArrayLike) -> DurakState:
        """The games at indices ``games`` as a batch of their own (no history)."""
        idx = np.asarray(games, dtype=np.int64)
        kw: dict[str, Any] = {}
        for f in fields(state):
            v = getattr(state, f.name)
            kw[f.name] = v[idx] if isinstance(v, np.ndarray) else v
        kw["history"] = kw["movers"] = None
        return DurakState(**kw)

    def deal_into(self, state: DurakState, slots: I64, keys: npt.ArrayLike) -> None:
        """Deal new games from ``keys`` (one per slot, in order) into the games at
        ``slots`` (finished ones), in place; history is not kept across it."""
        fresh = self.init(keys, history=False)
        for f in fields(state):
            mine = getattr(state, f.name)
            if isinstance(mine, np.ndarray):
                mine[slots] = getattr(fresh, f.name)
        state.history = state.movers = None

    def reset_done(self, state: DurakState, keys: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        """Deal new games (from ``keys``, one per finished game, in order) into the
        finished slots; return where. History is not kept across a reset."""
        done = state.phase == OVER
        if done.any():
            self.deal_into(state, np.flatnonzero(done), np.asarray(keys)[:int(done.sum())])
        return done

    # ------------------------------------------------------------ views
    def observation_layout(self) -> list[tuple[str, int, int]]:
        """(name, first feature, width) of each part of the observation (each part starts
        on a multiple of 64; padding is 0). ``opponent_known``: cards of the opponent's
        hand everyone saw it take (and the trump card once drawn)."""
        return [("hand", 0, CARDS), ("uncovered", 64, CARDS), ("covered", 128, CARDS),
                ("covers", 192, CARDS), ("selected", 256, CARDS),
                ("opponent_known", 320, CARDS), ("discard", 384, CARDS),
                ("trump_card", 448, CARDS), ("trump_suit", 512, 4), ("phase", 516, 3),
                ("attacking", 519, 1), ("taken", 520, 1), ("first_bout", 521, 1),
                ("stock_size", 522, 25), ("opponent_hand_size", 576, 37),
                ("room_left", 613, 7)]

    observation_size = 640

    def observe(self, state: DurakState) -> npt.NDArray[np.uint8]:
        """(games, 640) 0/1 bytes: what the player to move may know (layout in
        ``observation_layout``); all zero once the game is over."""
        games = state.games
        ph = state.phase
        defending = ph == DEFEND
        mine = np.where(defending, state.hd, state.ha)
        theirs = np.where(defending, state.ha, state.hd)
        out = np.zeros((games, 10), dtype=np.uint64)
        out[:, 0] = mine
        out[:, 1] = state.uncovered
        out[:, 2] = state.table & ~state.uncovered & ~state.covers
        out[:, 3] = state.covers
        out[:, 4] = state.sel
        tc = np.left_shift(ONE, state.trump_card.astype(np.uint64))
        out[:, 5] = theirs & (state.public | tc)
        # the discard: every card dealt or drawn that is in no hand and not on the table
        dealt = np.take_along_axis(state.prefix, state.drawn[:, None], axis=1)[:, 0]
        out[:, 6] = dealt & ~state.ha & ~state.hd & ~state.table
        out[:, 7] = tc
        stock = (DECK - state.drawn).astype(np.uint64)
        misc = np.left_shift(ONE, state.trump.astype(np.uint64))
        misc |= np.left_shift(ONE, (4 + np.minimum(ph, 2)).astype(np.uint64))
        misc |= np.where(defending, 0, ONE << np.uint64(7)).astype(np.uint64)
        misc |= np.where(state.taken, ONE << np.uint64(8), 0).astype(np.uint64)
        misc |= np.where(state.beaten == 0, ONE << np.uint64(9), 0).astype(np.uint64)
        misc |= np.left_shift(ONE, stock + np.uint64(10))
        out[:, 8] = misc
        held = popcount(theirs).astype(np.uint64)
        room = np.clip(state.room, 0, HAND).astype(np.uint64)
        out[:, 9] = np.left_shift(ONE, held) | np.left_shift(ONE, room + np.uint64(37))
        out[ph == OVER] = 0
        return np.unpackbits(out.view(np.uint8).ravel(), bitorder="little").reshape(games, -1)

    #: the adapters' observation vector (``koloda.envs.common.features("durak", 2)``:
    #: the tensor of docs/research.md "Layouts", then the cards seen and the cards
    #: selected): its size, and where its blocks begin
    features_size = 559
    #: the card blocks as three runs of 52-card rows: the hand at 12; the known cards (the
    #: mover's row, the other's), the table's three rows, the discard and the trump card
    #: from 66; the cards seen and the cards selected from 455
    _F_RUNS = ((12, 0, 1), (66, 1, 8), (455, 8, 10))

    #: the vector's counts (sizes, stock, limit, the sheet): ≥ 0 and at most the layout's
    #: UNBOUNDED (koloda.engine.layout)
    _F_COUNTS = (7, 64, 65, 436, 444, 450, 451, 452, 453, 454)

    def features_bounds(self) -> tuple[F32, F32]:
        """(low, high) of each entry of ``features``, as the adapters' spaces declare them."""
        low = np.zeros(self.features_size, np.float32)
        high = np.ones(self.features_size, np.float32)
        high[list(self._F_COUNTS)] = UNBOUNDED
        return low, high

    def features(self, state: DurakState) -> F32:
        """(games, 559) float32: the very vector the PettingZoo, OpenSpiel and Gymnasium
        adapters give the player to move (``koloda.envs.common.Features`` of a one-game
        durak match, the cards seen this deal and the cards selected included), so a
        policy trained on the batch plays through any adapter and as a bot; all zero once
        the game is over. tests/test_batched_durak_features.py checks it against the
        adapters' vector at every step of random games."""
        games = state.games
        ph = state.phase
        defending = ph == DEFEND
        seat = np.where(defending, 1 - state.attacker, state.attacker)
        mine = np.where(defending, state.hd, state.ha)
        theirs = np.where(defending, state.ha, state.hd)
        tc = CARD_BIT.take(state.trump_card)
        known = state.public | tc
        dealt = np.take_along_axis(state.prefix, state.drawn[:, None], axis=1)[:, 0]
        discard = dealt & ~state.ha & ~state.hd & ~state.table
        covered = state.table & ~state.uncovered & ~state.covers
        words = np.empty((games, 10), dtype=np.uint64)
        for i, w in enumerate((mine, mine & known, theirs & known, state.uncovered,
                               covered, state.covers, discard, tc,
                               discard | state.table | state.public, state.sel)):
            words[:, i] = w
        bits = np.unpackbits(words.view(np.uint8), axis=1, bitorder="little").reshape(
            games, 10, 64)
        out = np.zeros((games, self.features_size), dtype=np.float32)
        for at, first, end in self._F_RUNS:
            n = end - first
            out[:, at:at + n * CARDS].reshape(games, n, CARDS)[...] = \
                bits[:, first:end, :CARDS]
        rows = np.arange(games)
        # the header: the seat (absolute), the seat to move and the dealer (relative)
        out[rows, seat] = 1.0
        out[:, 2] = 1.0
        out[rows, 4 + (state.dealer - seat) % 2] = 1.0
        out[rows, 8 + np.minimum(ph, 3)] = 1.0
        # cards in each hand, relative: the mover's first
        out[:, 64] = popcount(mine) * (1 / 36)
        out[:, 65] = popcount(theirs) * (1 / 36)
        out[rows, 430 + state.trump] = 1.0
        by = state.trump_by
        drawn = by >= 0
        out[rows[drawn], 434 + (by[drawn] - seat[drawn]) % 2] = 1.0
        out[:, 436] = (DECK - state.drawn) * (1 / 36)
        # the first attacker and the defender: relative 0 is the mover
        out[rows, 437 + defending.astype(np.int64)] = 1.0
        out[rows, 439 + 1 - defending.astype(np.int64)] = 1.0
        out[:, 441] = state.taken
        attacks = popcount(state.table & ~state.covers).astype(np.int64)
        out[:, 444] = (state.room + attacks) * (1 / 6)
        # in the game: holding cards, or the stock not yet empty
        stocked = state.drawn < DECK
        out[:, 445] = (mine != 0) | stocked
        out[:, 446] = (theirs != 0) | stocked
        out[:, 449] = state.beaten == 0
        out[:, 450] = self.first_bout_limit * (1 / 6)
        out[:, 454] = 0.1
        out[ph == OVER] = 0.0
        return out

    # ------------------------------------------------------------ records
    def action_text(self, action: int, sel: list[int]) -> str | None:
        """The engine action an index makes (None for a ``select``), given the cards
        selected before it."""
        if action == TAKE:
            return "take"
        if action == PASS:
            return "pass"
        if action < SELECT:
            a, b = divmod(action - BEAT, CARDS)
            return f"beat {CARD_TEXT[a]} {CARD_TEXT[b]}"
        if action < CONFIRM_ATTACK:
            return None
        verb = "attack" if action == CONFIRM_ATTACK else "throw"
        return verb + " " + " ".join(CARD_TEXT[c] for c in sel)

    def record(self, state: DurakState, game: int) -> dict[str, Any]:
        """Game ``game`` as a koloda-record/1 (its deal and its engine actions):
        ``koloda.engine.records.replay`` replays it through the engine."""
        if state.history is None:
            raise ValueError("record: this batch keeps no history (init(history=True))")
        order = state.order[game].tolist()
        d = int(state.dealer[game])
        hands: list[list[str]] = [[], []]
        for k in range(2):
            hands[(d + 1 + k) % 2] = [CARD_TEXT[c] for c in order[k:2 * HAND:2]]
        deal = {"dealer": d, "hands": hands, "stock": [CARD_TEXT[c] for c in order[2 * HAND:]],
                "trump_card": CARD_TEXT[order[-1]]}
        return {"format": "koloda-record/1", "game": self.name, "players": 2,
                "options": {"first_bout_limit": self.first_bout_limit}, "seed": None,
                "first_dealer": d, "deals": [deal],
                "actions": self.actions_json(state, game), "result": None}

    def actions_json(self, state: DurakState, game: int) -> list[dict[str, Any]]:
        """The engine actions of game ``game`` with the seat of each (the ``select``
        steps folded into the ``confirm`` that makes their action)."""
        assert state.history is not None and state.movers is not None
        out: list[dict[str, Any]] = []
        sel: list[int] = []
        for row, movers in zip(state.history, state.movers, strict=True):
            a = int(row[game])
            if a < 0:
                break
            text = self.action_text(a, sel)
            if text is None:
                sel.append(a - SELECT)
            else:
                sel = []
                out.append({"seat": int(movers[game]), "action": text})
        return out


def play_random(game: Durak, keys: npt.ArrayLike, seed: int = 0, compact: float = 0.7,
                width: int | None = None, refill: float = 0.875) -> tuple[int, int, int]:
    """Play every game of ``keys`` to its end with uniformly random legal indices (the
    benchmark's loop), ``width`` games at a time (default: all): while keys are left, the
    finished games' slots are dealt the next keys' games once fewer than ``refill`` of the
    batch are still playing (the batch stays full, as a vector env's autoreset keeps it);
    then finished games are dropped from the batch once fewer than ``compact`` of it are
    still playing. Returns (games, steps, draws)."""
    rng = np.random.default_rng(seed)
    k = as_keys(keys)
    total = len(k)
    dealt = min(total, width or total)
    state = game.init(k[:dealt], history=False)
    steps = draws = 0
    live = state.phase != OVER
    while state.games:
        game._apply(state, game._random(state, rng), live)
        live = state.phase != OVER
        playing = int(np.count_nonzero(live))
        if playing < (refill if dealt < total else compact) * state.games:
            done = np.flatnonzero(~live)
            steps += int(state.steps.take(done).sum())
            draws += int(np.count_nonzero(state.durak.take(done) < 0))
            new = min(total - dealt, len(done))
            if new:
                game.deal_into(state, done[:new], k[dealt:dealt + new])
                dealt += new
            if new < len(done):          # (counted: the finished games left are dropped)
                state = game.take(state, np.flatnonzero(state.phase != OVER))
            live = state.phase != OVER
    return total, steps, draws


__all__ = ["NUM_ACTIONS", "Durak", "DurakState", "nth_card", "nth_set_bit", "play_random"]
