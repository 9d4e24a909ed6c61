"""Exact two-player durak once every card is known — the stock empty, or (as the search
uses it) only the trump card left in it, or any stock whose order is given: a game of
perfect information, small enough to solve by alpha-beta with a memo most of the time.

A position is the attacker's and the defender's hands and the table as bit masks (bit =
card int), the room left for attack cards, whether the defender has taken, whether the
first beaten round is still to come (``first_bout_limit``), and the stock still to draw
(``stock_code``: a round ends with the attacker drawing up to six, then the defender, as
the engine draws). Values are for the round's attacker: 1 the defender ends as the durak,
-1 the attacker does, 0 a draw; the memo keeps a lower and an upper bound per position.

The rules are those of ``koloda.games.durak.rounds`` for two players
(koloda/rules/durak.en.md §Precisely): the attacker leads, the defender beats each card, takes, or
(transfer durak, nothing beaten yet) transfers back; after each change the attacker may throw in a
card of a rank on the table while the room allows; a player whose hand is empty with the
stock empty is out;
the round ends when the attacker passes (or cannot throw), and the game when a player is
out. Leads and throw-ins of several cards are searched one card at a time — never worse
for the attacker, who may still add the next card after the defender's answer (transfer
durak keeps multi-card leads: they change what the defender may transfer). Transfer
durak can go round in circles (cards taken after a transfer flow back); a position that
repeats on the line being searched counts as a draw.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import combinations

from koloda.cards import CARD_TEXT, Card
from koloda.games.durak.rounds import ATTACK, DEFEND, HAND_SIZE, ROUND_LIMIT, DurakGame

Key = tuple[int, ...]
#: the check of the clock every this many nodes
_CLOCK_EVERY = 512


class OutOfBudget(Exception):
    """The search used up its nodes or its time."""


@dataclass
class SolverBudget:
    nodes: int
    deadline: float          # a time.perf_counter() value


def _bits(m: int) -> list[int]:
    out = []
    while m:
        b = m & -m
        out.append(b.bit_length() - 1)
        m ^= b
    return out


def mask(cards: list[Card] | tuple[Card, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def stock_code(stock: list[Card]) -> int:
    """The stock as one int, the next card to draw in its lowest six bits (card + 1), 0
    when empty (``DurakGame.stock`` has its top at the end)."""
    code = 0
    for c in stock:             # the bottom first: the top ends in the lowest bits
        code = code * 64 + c + 1
    return code


def describe(cards: int) -> str:
    """A mask as card texts (for debugging and tests)."""
    return " ".join(CARD_TEXT[c] for c in _bits(cards))


class EndgameSolver:
    """Alpha-beta over one two-player endgame. ``memo`` may be shared by the positions of
    one game (the trump, the variant and the first-bout limit fix the game tree)."""

    def __init__(self, g: DurakGame, budget: SolverBudget,
                 memo: dict[Key, tuple[int, int]] | None = None) -> None:
        assert g.players == 2
        self.g = g
        self.trump = trump = g.trump
        self.transfer = g.transfer
        self.first_cap = g.first_bout_limit
        self.budget = budget
        self.memo: dict[Key, tuple[int, int]] = {} if memo is None else memo
        self.nodes = 0
        self._clock = _CLOCK_EVERY
        self.on_path: set[Key] = set()
        beaters = [0] * 52
        same_rank = [0] * 52
        order = [0] * 52
        for c in range(52):
            s, r = divmod(c, 13)
            m = 0
            for b in range(52):
                bs, br = divmod(b, 13)
                if (bs == s and br > r) or (bs == trump and s != trump):
                    m |= 1 << b
            beaters[c] = m
            same_rank[c] = sum(1 << (x * 13 + r) for x in range(4))
            order[c] = r + (13 if s == trump else 0)       # cheap plain cards first
        self.beaters = beaters
        self.same_rank = same_rank
        self.order = order

    # ----------------------------------------------------------------- root
    def best_action(self, preferred: str | None = None) -> tuple[str, int] | None:
        """A move of the best value for the seat to move and that value, keeping to
        ``preferred`` when it is one of the best; None when the budget runs out. The
        several-card leads and throw-ins of simple durak are left out."""
        g = self.g
        seat = g.to_move
        assert seat is not None
        acts = [a for a in g.legal_actions() if not self._dominated(a)]
        if preferred in acts:
            acts.remove(preferred)
            acts.insert(0, preferred)
        best: tuple[str, int] | None = None
        try:
            for a in acts:
                h = g.clone()
                h.apply(a)
                if best is None:
                    best = (a, self.value(h, seat))
                elif best[1] < 1:
                    v = self.value(h, seat, best[1], 1)
                    if v > best[1]:
                        best = (a, v)
        except OutOfBudget:
            return None
        return best

    def _dominated(self, a: str) -> bool:
        return a.count(" ") > 1 and (a.startswith("throw")
                                     or (a.startswith("attack") and not self.transfer))

    def value(self, g: DurakGame, seat: int, alpha: int = -1, beta: int = 1) -> int:
        """The value of position ``g`` for ``seat`` (exact inside ``(alpha, beta)``)."""
        if g.is_over:
            if g.durak is None:
                return 0
            return -1 if g.durak == seat else 1
        a, d = g.attacker, g.defender
        if seat != a:
            alpha, beta = -beta, -alpha
        att, dfn = mask(g.hands[a]), mask(g.hands[d])
        first = 1 if g.beaten_rounds == 0 else 0
        table = mask(g.attacks) | mask([c for c in g.covers if c is not None])
        room = g.limit - len(g.attacks)
        st = stock_code(g.stock)
        if g.phase == ATTACK:
            v = self.attack(att, dfn, first, st, alpha, beta)
        elif g.phase == DEFEND:
            unc = mask([x for x, y in zip(g.attacks, g.covers, strict=True) if y is None])
            v = self.defend(att, dfn, unc, table, room, first, st, alpha, beta)
        else:
            v = self.throw(att, dfn, table, room, int(g.taken), first, st, alpha, beta)
        return v if seat == a else -v

    # ---------------------------------------------------------------- nodes
    def _tick(self) -> None:
        self.nodes += 1
        self._clock -= 1
        if self._clock <= 0:
            self._clock = _CLOCK_EVERY
            if time.perf_counter() > self.budget.deadline:
                raise OutOfBudget
        if self.nodes >= self.budget.nodes:
            raise OutOfBudget

    def _store(self, key: Key, lo: int, hi: int, alpha: int, beta: int, v: int) -> None:
        """Record what a search of window (alpha, beta) that returned ``v`` proved."""
        if v <= alpha:
            hi = min(hi, v)
        elif v >= beta:
            lo = max(lo, v)
        else:
            lo = hi = v
        self.memo[key] = (lo, hi)

    def attack(self, att: int, dfn: int, first: int, st: int, alpha: int, beta: int) -> int:
        """The attacker leads a new round (maximises)."""
        key = (0, att, dfn, first, st)
        lo, hi = self.memo.get(key, (-1, 1))
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        alpha, beta = max(alpha, lo), min(beta, hi)
        self._tick()
        if self.transfer:
            if key in self.on_path:
                return 0
            self.on_path.add(key)
            try:
                v = self._attack(att, dfn, first, st, alpha, beta)
            finally:
                self.on_path.discard(key)
        else:
            v = self._attack(att, dfn, first, st, alpha, beta)
        self._store(key, lo, hi, alpha, beta, v)
        return v

    def _attack(self, att: int, dfn: int, first: int, st: int, alpha: int, beta: int) -> int:
        cap = self.first_cap if first else ROUND_LIMIT
        limit = min(cap, dfn.bit_count())
        beaters, order = self.beaters, self.order
        cards = _bits(att)
        # cards the defender cannot beat first, then the cheap ones
        cards.sort(key=lambda c: (dfn & beaters[c] != 0, order[c]))
        best = -2
        for c in cards:
            leads = [1 << c]
            if self.transfer:
                same = [x for x in _bits(att & self.same_rank[c]) if x > c]
                for k in range(1, min(limit, len(same) + 1)):
                    leads += [(1 << c) | mask(extra) for extra in combinations(same, k)]
            for lead in leads:
                v = self.defend(att & ~lead, dfn, lead, lead, limit - lead.bit_count(), first,
                                st, alpha, beta)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            return best
        return best

    def defend(self, att: int, dfn: int, unc: int, table: int, room: int, first: int,
               st: int, alpha: int, beta: int) -> int:
        """The defender to move; the value is the attacker's (the defender minimises)."""
        key = (1, att, dfn, unc, table, room, first, st)
        lo, hi = self.memo.get(key, (-1, 1))
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        alpha, beta = max(alpha, lo), min(beta, hi)
        self._tick()
        a0, b0 = alpha, beta
        best = 2
        beaters, order = self.beaters, self.order
        for a in _bits(unc):
            rest = unc & ~(1 << a)
            covers = _bits(dfn & beaters[a])
            covers.sort(key=order.__getitem__)
            for b in covers:
                d2 = dfn & ~(1 << b)
                t2 = table | (1 << b)
                if rest:
                    v = self.defend(att, d2, rest, t2, room, first, st, alpha, beta)
                else:
                    v = self.after_change(att, d2, t2, room, 0, first, st, alpha, beta)
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            self._store(key, lo, hi, a0, b0, best)
                            return best
        if self.transfer and unc == table:
            v = self._transfers(att, dfn, unc, first, st, alpha, beta)
            if v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        self._store(key, lo, hi, a0, b0, best)
                        return best
        v = self.after_change(att, dfn, table, room, 1, first, st, alpha, beta)   # take
        if v < best:
            best = v
        self._store(key, lo, hi, a0, b0, best)
        return best

    def _transfers(self, att: int, dfn: int, unc: int, first: int, st: int, alpha: int,
                   beta: int) -> int:
        """The best transfer for the defender (the attacker's value; 2 when none)."""
        cap = self.first_cap if first else ROUND_LIMIT
        n_att = unc.bit_count()
        limit = min(cap, att.bit_count())
        troom = limit - n_att
        best = 2
        if troom <= 0:
            return best
        same = _bits(dfn & self.same_rank[(unc & -unc).bit_length() - 1])
        for k in range(1, min(troom, len(same)) + 1):
            for extra in combinations(same, k):
                t = mask(extra)
                # the defender becomes the attacker: negate the new attacker's value
                v = -self.defend(dfn & ~t, att, unc | t, unc | t, limit - n_att - k, first,
                                 st, -beta, -alpha)
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            return best
        return best

    def after_change(self, att: int, dfn: int, table: int, room: int, taken: int,
                     first: int, st: int, alpha: int, beta: int) -> int:
        """Everything covered or taken: the attacker is asked while room and cards last."""
        if room <= 0 or not att:
            return self.end_round(att, dfn, table, taken, first, st, alpha, beta)
        return self.throw(att, dfn, table, room, taken, first, st, alpha, beta)

    def throw(self, att: int, dfn: int, table: int, room: int, taken: int, first: int,
              st: int, alpha: int, beta: int) -> int:
        """The attacker throws in one card of a rank on the table, or passes."""
        key = (2, att, dfn, table, room, taken, first, st)
        lo, hi = self.memo.get(key, (-1, 1))
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        alpha, beta = max(alpha, lo), min(beta, hi)
        self._tick()
        a0, b0 = alpha, beta
        ranks = 0
        for c in _bits(table):
            ranks |= self.same_rank[c]
        beaters = self.beaters
        cards = _bits(att & ranks)
        cards.sort(key=lambda c: (dfn & beaters[c] != 0, self.order[c]))
        best = -2
        for c in cards:
            bit = 1 << c
            if taken:
                v = self.after_change(att & ~bit, dfn, table | bit, room - 1, 1, first, st,
                                      alpha, beta)
            else:
                v = self.defend(att & ~bit, dfn, bit, table | bit, room - 1, first, st,
                                alpha, beta)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        self._store(key, lo, hi, a0, b0, best)
                        return best
        v = self.end_round(att, dfn, table, taken, first, st, alpha, beta)   # pass
        if v > best:
            best = v
        self._store(key, lo, hi, a0, b0, best)
        return best

    def end_round(self, att: int, dfn: int, table: int, taken: int, first: int, st: int,
                  alpha: int, beta: int) -> int:
        if taken:
            dfn |= table
        else:
            first = 0
        if st:
            # the round's attacker draws up to six first, then the defender
            while st and att.bit_count() < HAND_SIZE:
                att |= 1 << (st % 64 - 1)
                st //= 64
            while st and dfn.bit_count() < HAND_SIZE:
                dfn |= 1 << (st % 64 - 1)
                st //= 64
            if st:
                if taken:
                    return self.attack(att, dfn, first, st, alpha, beta)
                return -self.attack(dfn, att, first, st, -beta, -alpha)
        if not att:
            return 1 if dfn else 0
        if not dfn:
            return -1
        if taken:
            return self.attack(att, dfn, first, 0, alpha, beta)
        return -self.attack(dfn, att, first, 0, -beta, -alpha)
