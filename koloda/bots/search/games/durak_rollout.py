"""A lean heuristic rollout for two-player simple durak: the search's playouts without the
engine's bookkeeping.

The search plays each iteration out with the heuristic (``koloda.bots.heuristic.durak.
decide``) in both seats. Through the engine every step builds the mover's view, the
round's play list, the public cards and the views' caches — about two thirds of a
rollout's time. ``play_out`` plays the same game on bare lists (two hands, the stock, the
table) with the same ``decide`` on the same ``View`` the engine's state would give, and the
rules of a two-player simple round as ``koloda.games.durak.rounds`` has them (the lead, the
covers or the take, the attacker's throw-ins, the drawing — attacker first — and the
next round's attacker); it returns who lost. ``heuristic_rollout`` through the engine
gives the same game move for move (tests/test_durak_rollout.py compares them on many
positions).
"""

from __future__ import annotations

from koloda.bots.heuristic.durak import View, decide
from koloda.games.durak.rounds import ATTACK, DEFEND, HAND_SIZE, ROUND_LIMIT, THROW, DurakGame

#: a rollout longer than this many moves is called unfinished (as the engine's rollout)
STEPS = 1500


def applies(g: DurakGame) -> bool:
    """The lean rollout plays this game: two players, simple durak, still going."""
    return g.players == 2 and not g.transfer and not g.teams and not g.is_over


def play_out(g: DurakGame) -> tuple[bool, int | None]:
    """Play ``g`` (two players, simple durak; see ``applies``) to the end with the
    heuristic in both seats, without changing ``g``: (finished, the durak's seat or None
    for a draw). Not finished after ``STEPS`` moves: (False, None)."""
    trump = g.trump
    hands = [list(g.hands[0]), list(g.hands[1])]
    stock = list(g.stock)            # the top card last, as the engine's
    in_game = list(g.in_game)
    att, dfn = g.attacker, g.defender
    limit, phase, taken = g.limit, g.phase, g.taken
    attacks = list(g.attacks)
    covers = list(g.covers)
    covered = g.covered
    beaten = g.beaten_rounds
    first_limit = g.first_bout_limit
    for _ in range(STEPS):
        # one move of the seat to move; ``end`` when the round is over after it
        end = False
        mover, other = (dfn, att) if phase == DEFEND else (att, dfn)
        hand = hands[mover]
        verb, cards = decide(View(hand, trump, phase, attacks, covers, taken, len(stock),
                                  limit - len(attacks), False,
                                  None if stock else hands[other]))
        if verb == "take":
            taken = True
            # the attacker is asked to throw in: not when the round is full or its hand empty
            end = len(attacks) >= limit or not hands[att]
            phase = THROW
        elif verb == "beat":
            a, b = cards
            hand.remove(b)
            if not hand and not stock:
                in_game[dfn] = False
            covers[attacks.index(a)] = b
            covered += 1
            if covered == len(attacks):
                end = len(attacks) >= limit or not hands[att]
                phase = THROW
        elif verb == "pass":
            end = True
        else:       # the attacker's lead or throw-in
            for c in cards:
                hand.remove(c)
            if not hand and not stock:
                in_game[att] = False
            attacks += cards
            covers += [None] * len(cards)
            if not taken:
                phase = DEFEND
            elif len(attacks) >= limit or not hand:
                end = True
        if not end:
            continue
        # the round ends: the table is taken or beaten off, both draw (attacker first)
        if taken:
            hands[dfn] += attacks
            hands[dfn] += [c for c in covers if c is not None]
        else:
            beaten += 1
        attacks, covers, covered = [], [], 0
        if stock:
            for s in (att, dfn):
                hand = hands[s]
                while len(hand) < HAND_SIZE and stock:
                    hand.append(stock.pop())
        if not stock:
            for s in (0, 1):
                if not hands[s]:
                    in_game[s] = False
        if not (in_game[0] and in_game[1]):
            still = [s for s in (0, 1) if in_game[s]]
            return True, (still[0] if still else None)
        if not taken:
            att, dfn = dfn, att
        limit = min(first_limit if beaten == 0 else ROUND_LIMIT, len(hands[dfn]))
        phase, taken = ATTACK, False
    return False, None


def utilities_of(finished: bool, durak: int | None) -> list[float]:
    """Win 1, draw 0, loss -1 for each seat of a two-player game played out (an
    unfinished one counts as a draw)."""
    if not finished or durak is None:
        return [0.0, 0.0]
    return [-1.0 if s == durak else 1.0 for s in (0, 1)]

