"""One game of durak (koloda/rules/durak.en.md §Precisely): rounds of attack, defence and throw-in.

A game is one ``DealState``. Each round has three phases:

* ``attack`` — the round's attacker leads one or more cards of one rank;
* ``defend`` — the defender beats uncovered cards one by one, takes, or (transfer durak)
  passes the attack on while nothing is beaten yet;
* ``throw`` — everything is covered, or the defender has taken: the eligible attackers are
  asked in order (first attacker, then clockwise) to throw in or pass. Every change (a
  throw, the covering of the last card, ``take``) starts the asking again at the first
  attacker; the round ends when everyone asked has passed, or the limit is reached.

Cards are ints (``koloda.cards``); hands are small lists; the stock is a list with its top
at the end so drawing is ``pop()``. A seat's view is a typed ``DurakView``
(``koloda.games.durak.views``); the same view rebuilds a game in progress (``at=``, the
search bot's determinizer).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from itertools import combinations, compress
from typing import ClassVar

from koloda.cards import CARD_TEXT, SIX, TEXT_CARD, Card
from koloda.engine.actions import Action
from koloda.engine.deal import Deal, DealState
from koloda.engine.errors import IllegalAction
from koloda.engine.messages import Act, Acts, Cards, Ranks, Reason, Suit, Verb
from koloda.games.durak import messages as _messages  # noqa: F401  (its sentences)
from koloda.games.durak.layout import STATE_FIELDS
from koloda.games.durak.views import DurakRound, DurakView

ATTACK, DEFEND, THROW = "attack", "defend", "throw"
#: the most cards a hand is refilled to, and the most attack cards of a round
HAND_SIZE = 6
ROUND_LIMIT = 6


def lowest_trump_holder(deal: Deal) -> int:
    """The seat holding the lowest trump, or left of the dealer when nobody holds one.

    With six players the dealer's shown card is a trump in the dealer's hand and counts.
    """
    assert deal.trump_card is not None
    trump = deal.trump_card // 13
    best: tuple[int, int] | None = None
    for seat, hand in enumerate(deal.hands):
        for c in hand:
            if c // 13 == trump and (best is None or c % 13 < best[0]):
                best = (c % 13, seat)
    return (deal.dealer + 1) % len(deal.hands) if best is None else best[1]


def _subsets(prefix: str, cards: list[Card], most: int) -> list[str]:
    """Every non-empty subset of ``cards`` (sorted) with at most ``most`` cards, as text."""
    if most < 1 or not cards:
        return []
    texts = [CARD_TEXT[c] for c in cards]
    out = [prefix + t for t in texts]
    for k in range(2, min(most, len(texts)) + 1):
        out.extend(prefix + " ".join(combo) for combo in combinations(texts, k))
    return out


def _plays(plays: list[tuple[int, Card | tuple[Card, ...]]]) -> tuple[tuple[int, Card], ...]:
    """Every card of a round with its seat, in the order played."""
    out: list[tuple[int, Card]] = []
    for seat, played in plays:
        if isinstance(played, tuple):
            out += [(seat, c) for c in played]
        else:
            out.append((seat, played))
    return tuple(out)


class DurakGame(DealState):
    """One game of durak from the deal to the durak (or the draw)."""

    #: how the fast tensor path reads this observation's fields off the state
    #: (koloda/games/durak/layout.py)
    tensor_fields: ClassVar[Mapping[str, str]] = STATE_FIELDS

    def __init__(self, deal: Deal, *, teams: bool, first_bout_limit: int, transfer: bool,
                 first_attacker: int, at: DurakView | None = None,
                 lowest_trump_opening: bool = False) -> None:
        """A game from its deal; with ``at``, the game as that view shows it, ``deal``
        holding the hands and the stock (top first) as they are now (a determinization).
        ``lowest_trump_opening``: the first attacker was chosen by the lowest trump."""
        if deal.trump_card is None:
            raise ValueError("a durak deal needs its trump card")
        n = len(deal.hands)
        self.players = n
        self.teams = teams
        #: the side of each seat: partners alternate seats in team play
        self.side = [s % 2 if teams else s for s in range(n)]
        self.transfer = transfer
        self.first_bout_limit = first_bout_limit
        self.dealer = deal.dealer
        self.hands: list[list[Card]] = [list(h) for h in deal.hands]
        self.stock: list[Card] = list(reversed(deal.stock))   # the top card is stock[-1]
        self.trump_card: Card = deal.trump_card
        self.trump = deal.trump_card // 13
        #: who drew the trump card (six players: the dealer shows it and holds it)
        self.trump_holder: int | None = None if self.stock else deal.dealer
        #: cards in hands every player knows: taken from the table, the drawn trump card
        self.public: set[Card] = set() if self.stock else {deal.trump_card}
        #: each hand's public cards (``public`` ∩ the hand, kept as the cards move: the
        #: observation and the adapters' tensors read them at every step)
        self.known: list[set[Card]] = [self.public & set(h) if self.public else set()
                                       for h in self.hands]
        self.discard: list[Card] = []
        self.attacks: list[Card] = []
        self.covers: list[Card | None] = []
        self.covered = 0          # how many attack cards are covered
        #: who played what this round, in order: (seat, cover) or (seat, attack cards) —
        #: one entry per action, spelt out only for the view (``_plays``)
        self.plays: list[tuple[int, Card | tuple[Card, ...]]] = []
        #: the last finished round: attacker, defender, attacks, covers, plays, taken
        self.last: tuple[int, int, list[Card], list[Card | None],
                         list[tuple[int, Card | tuple[Card, ...]]], bool] | None = None
        #: still in the game (a hand-built endgame may start with empty hands)
        self.in_game = [bool(h) or bool(deal.stock) for h in deal.hands]
        self.beaten_rounds = 0
        self.rounds = 0
        #: the attack cards on the table when each seat last became a round's defender
        self.last_opening: list[tuple[Card, ...] | None] = [None] * n
        self.opening: tuple[Card, ...] = ()
        self.first_attacker = first_attacker
        #: the first attacker when the lowest trump chose it (public: it says where the
        #: lowest trump was dealt), None when the previous durak's left attacked first
        self.opener = first_attacker if lowest_trump_opening else None
        #: every card each seat has played this game (each was seen face up)
        self.played_by: list[list[Card]] = [[] for _ in range(n)]
        #: the lowest trump dealt to each seat (None: none), each seat seeing its own; a
        #: rebuilt game (``at``) knows none: the determinizer gives back its own seat's
        self.dealt_low: list[Card | None] = [None] * n if at is not None else [
            min((c for c in h if c // 13 == self.trump), key=lambda c: c % 13, default=None)
            for h in deal.hands]
        # round state, set by _start_round
        self.attacker = first_attacker
        self.defender = first_attacker
        self.limit = 0
        self.phase = ATTACK
        self.taken = False
        self.queue: list[int] = []
        self.ask_i = 0
        self.passed: list[int] = []
        # the end
        self.still_in: list[int] = []
        self.durak: int | None = None
        self.epaulettes = False
        if at is None:
            self._start_round(first_attacker)
        else:
            self._resume(at)

    def _resume(self, view: DurakView) -> None:
        """Set the round and the public facts as ``view`` shows them."""
        n = self.players
        self.public = {c for known in view.known_cards for c in known}
        self.known = [set(known) for known in view.known_cards]
        self.trump_holder = view.trump_drawn_by
        self.discard = list(view.discard)
        self.in_game = [s in view.in_game for s in range(n)]
        self.beaten_rounds = 0 if view.first_bout else 1
        self.attacker = view.attacker
        self.defender = view.defender
        self.limit = view.limit
        self.phase = view.phase
        self.taken = view.taken
        self.attacks = [a for a, _ in view.table]
        self.covers = [b for _, b in view.table]
        self.covered = sum(1 for b in self.covers if b is not None)
        self.opening = tuple(self.attacks)
        self.plays = list(view.plays)
        self.opener = view.opener
        self.played_by = [list(p) for p in view.played] or [[] for _ in range(n)]
        self._played_view = None
        self._known_view = (None, None, ())
        self._hands_shown = ()
        last = view.last_round
        if last is not None:
            self.last = (last.attacker, last.defender, [a for a, _ in last.table],
                         [b for _, b in last.table], list(last.cards),
                         last.outcome == "taken")
        self.passed = list(view.passed)
        if self.phase == THROW:
            self.queue = self.ask_queue()
            self.ask_i = len(self.passed)
            self.to_move = self.queue[self.ask_i]
        else:
            self.queue = []
            self.ask_i = 0
            self.to_move = (None if self.phase == "over" else
                            self.attacker if self.phase == ATTACK else self.defender)
            self.is_over = self.phase == "over"

    # ------------------------------------------------------------ seats
    def _next_in(self, seat: int) -> int:
        """The next player clockwise after ``seat`` who is still in the game."""
        n = self.players
        for i in range(1, n + 1):
            s = (seat + i) % n
            if self.in_game[s]:
                return s
        raise AssertionError("nobody is still in")

    def _next_opponent(self, seat: int) -> int | None:
        """The next player clockwise after ``seat``, still in and an opponent of ``seat``."""
        n, side = self.players, self.side[seat]
        for i in range(1, n):
            s = (seat + i) % n
            if self.in_game[s] and self.side[s] != side:
                return s
        return None

    def _bout_cap(self) -> int:
        """``first_bout_limit`` up to and including the first beaten round, then 6."""
        return self.first_bout_limit if self.beaten_rounds == 0 else ROUND_LIMIT

    def _leave_if_empty(self, seat: int) -> None:
        """A player leaves the moment their hand is empty while the stock is empty."""
        if not self.hands[seat] and not self.stock:
            self.in_game[seat] = False

    # ----------------------------------------------------------- rounds
    def _start_round(self, attacker: int) -> None:
        defender = self._next_opponent(attacker)
        assert defender is not None
        self.attacker = attacker
        self.defender = defender
        self.limit = min(self._bout_cap(), len(self.hands[defender]))
        self.phase = ATTACK
        self.taken = False
        self.passed = []
        self.queue = []
        self.to_move = attacker

    def _ask_from_start(self) -> None:
        """After a change: ask the eligible attackers from the first attacker on."""
        self.passed = []
        if len(self.attacks) >= self.limit:
            self._end_round()
            return
        queue = self.ask_queue()
        if not queue:
            self._end_round()
            return
        self.queue = queue
        self.ask_i = 0
        self.phase = THROW
        self.to_move = queue[0]

    def ask_queue(self) -> list[int]:
        """Who is asked to throw in, in order: the first attacker, then clockwise; never
        the defender (nor, in team play, a partner), nobody without cards."""
        n, d, side = self.players, self.defender, self.side
        queue = []
        for i in range(n):
            s = (self.attacker + i) % n
            if s != d and self.hands[s] and (not self.teams or side[s] != side[d]):
                queue.append(s)
        return queue

    def _end_round(self) -> None:
        d, a, n = self.defender, self.attacker, self.players
        table = self.attacks + [c for c in self.covers if c is not None]
        if self.taken:
            self.hands[d].extend(table)
            self.public.update(table)
            self.known[d].update(table)
        else:
            self.discard.extend(table)
            self.beaten_rounds += 1
        self.last_opening[d] = self.opening
        # the lists are replaced, never changed afterwards: the last round keeps them
        self.last = (a, d, self.attacks, self.covers, self.plays, self.taken)
        self.attacks = []
        self.covers = []
        self.plays = []
        self.covered = 0
        self.rounds += 1
        # cards taken and drawn: every hand read again
        self._known_view = (None, None, ())
        self._hands_shown = ()
        # drawing: the first attacker, every other player clockwise, the defender last
        stock = self.stock
        if stock:
            order = [(a + i) % n for i in range(n) if (a + i) % n != d] + [d]
            for s in order:
                hand = self.hands[s]
                while len(hand) < HAND_SIZE and stock:
                    c = stock.pop()
                    hand.append(c)
                    if c == self.trump_card:
                        self.trump_holder = s
                        self.public.add(c)
                        self.known[s].add(c)
        if not stock:
            for s in range(n):
                if not self.hands[s]:
                    self.in_game[s] = False
        still = [s for s in range(n) if self.in_game[s]]
        if len({self.side[s] for s in still}) < 2:
            self._game_over(still)
            return
        if self.taken or not self.in_game[d]:
            self._start_round(self._next_in(d))
        else:
            self._start_round(d)

    def _game_over(self, still: list[int]) -> None:
        """No two players still in are opponents: whoever still holds cards lost."""
        self.is_over = True
        self.to_move = None
        self.phase = "over"
        self.still_in = still
        if still:
            d, n = self.defender, self.players
            # several partners may be left holding cards: the durak is the one with most
            # cards, ties going to the first clockwise from the last round's defender
            self.durak = max(still, key=lambda s: (len(self.hands[s]), -((s - d) % n)))
            opening = self.last_opening[self.durak]
            self.epaulettes = (opening is not None and len(opening) == 2
                               and all(c % 13 == SIX for c in opening))

    # ----------------------------------------------------------- actions
    def _legal_actions(self) -> list[str]:
        seat = self.to_move
        assert seat is not None
        # the sorted hand the view made, if it is still the hand (else sorted here: a
        # loop that never looks at the view pays nothing for keeping it)
        held = self.hands[seat]
        shown = self._hands_shown
        entry = shown[seat] if shown else None
        hand = entry[2] if entry is not None and entry[0] is held and \
            entry[1] == len(held) else sorted(held)
        if self.phase == ATTACK:
            # rank by rank, low to high; in a rank card by card (the hand is sorted)
            by_rank: dict[int, list[Card]] = {}
            for c in hand:
                same = by_rank.get(c % 13)
                if same is None:
                    by_rank[c % 13] = [c]
                else:
                    same.append(c)
            out: list[str] = []
            most = self.limit
            for r in sorted(by_rank):
                cards = by_rank[r]
                if len(cards) == 1:
                    out.append("attack " + CARD_TEXT[cards[0]])
                else:
                    out += _subsets("attack ", cards, most)
            return out
        if self.phase == DEFEND:
            return self._defence_actions(hand)
        ranks = {c % 13 for c in self.attacks}
        ranks.update(c % 13 for c in self.covers if c is not None)
        out = _subsets("throw ", [c for c in hand if c % 13 in ranks],
                       self.limit - len(self.attacks))
        out.append("pass")
        return out

    def _defence_actions(self, hand: Sequence[Card]) -> list[str]:
        """Every ``beat A B``, ``take``, and (transfer durak) every allowed transfer."""
        out = []
        trump = self.trump
        trumps = [c for c in hand if c // 13 == trump]
        for a, b in zip(self.attacks, self.covers, strict=True):
            if b is not None:
                continue
            prefix = "beat " + CARD_TEXT[a] + " "
            suit = a // 13
            # a higher card of the attack's suit, or (on a non-trump) any trump
            out += [prefix + CARD_TEXT[c] for c in hand if c // 13 == suit and c > a]
            if suit != trump:
                out += [prefix + CARD_TEXT[c] for c in trumps]
        out.append("take")
        if self.transfer:
            room = self._transfer_room()
            if room > 0:
                rank = self.attacks[0] % 13
                out += _subsets("transfer ", [c for c in hand if c % 13 == rank], room)
        return out

    def _transfer_room(self) -> int:
        """How many cards the defender may transfer now (0: no transfer allowed)."""
        if not self.transfer or self.taken or self.covered:
            return 0
        new = self._next_opponent(self.defender)
        if new is None:
            return 0
        return min(self._bout_cap(), len(self.hands[new])) - len(self.attacks)

    def _do(self, action: str) -> None:
        words = action.split()
        self.act(words[0], [TEXT_CARD[w] for w in words[1:]])

    def act(self, verb: str, cards: list[Card]) -> None:
        """Apply a legal action given as its verb and cards (``beat``: the attack card,
        then the cover), unchecked — ``apply_unchecked`` without the text: ``apply``
        checks and comes here; the search bot's rollouts, whose actions are legal by
        construction, call it directly and skip the texts."""
        self._legal = None
        seat = self.to_move
        assert seat is not None
        if verb == "pass":
            self.passed.append(seat)
            self.ask_i += 1
            if self.ask_i >= len(self.queue):
                self._end_round()
            else:
                self.to_move = self.queue[self.ask_i]
            return
        if verb == "take":
            self.taken = True
            self._ask_from_start()
            return
        if verb == "beat":
            a, b = cards
            self._play(seat, [b])
            self.plays.append((seat, b))
            self.covers[self.attacks.index(a)] = b
            self.covered += 1
            if self.covered == len(self.attacks):
                self._ask_from_start()
            return
        self._play(seat, cards)
        self.plays.append((seat, tuple(cards)))
        self.attacks += cards
        self.covers += [None] * len(cards)
        if verb == "attack":
            self.opening = tuple(cards)
            self.phase = DEFEND
            self.to_move = self.defender
        elif verb == "transfer":
            new = self._next_opponent(seat)
            assert new is not None
            self.attacker = seat
            self.defender = new
            self.limit = min(self._bout_cap(), len(self.hands[new]))
            self.opening = tuple(self.attacks)
            self.to_move = new
        elif self.taken:   # throw after take: nothing to cover, ask again
            self._ask_from_start()
        else:              # throw: the defender covers first
            self.phase = DEFEND
            self.to_move = self.defender

    def _play(self, seat: int, cards: list[Card]) -> None:
        hand = self.hands[seat]
        self.played_by[seat] += cards
        self._played_view = None
        known = self.known[seat]
        for c in cards:
            hand.remove(c)
            self.public.discard(c)
            known.discard(c)
        self._leave_if_empty(seat)

    # ------------------------------------------------------------ reasons
    def why_illegal(self, action: str) -> str:
        try:
            act = Action.parse(action)
        except IllegalAction as exc:
            return exc.reason
        seat = self.to_move
        verb, cards = act.verb, list(act.cards)
        if verb not in ("attack", "beat", "take", "throw", "pass", "transfer"):
            return Reason("durak_verb", verb=verb, verbs="attack, beat, take, throw, pass"
                          + (", transfer" if self.transfer else ""))
        if verb == "transfer" and not self.transfer:
            return Reason("transfer_only_perevodnoy")
        phase_reason = self._wrong_phase(verb)
        if phase_reason:
            return phase_reason
        assert seat is not None
        hand = self.hands[seat]
        missing = [c for c in cards if c not in hand]
        if verb == "beat":
            return self._why_not_beat(cards[0], cards[1], hand)
        if missing:
            return Reason("not_held", cards=Cards(missing))
        if verb == "attack":
            if len({c % 13 for c in cards}) > 1:
                return Reason("attack_one_rank")
            return self._limit_reason(len(cards))
        if verb == "throw":
            ranks = sorted({c % 13 for c in self.attacks}
                           | {c % 13 for c in self.covers if c is not None})
            bad = [c for c in cards if c % 13 not in ranks]
            if bad:
                return Reason("throw_ranks", ranks=Ranks(ranks), cards=Cards(bad))
            return self._limit_reason(len(self.attacks) + len(cards))
        if verb == "transfer":
            return self._why_not_transfer(cards)
        return Reason("not_legal_now", action=Act(action), legal=Acts(self.legal_actions()))

    def _wrong_phase(self, verb: str) -> str | None:
        """The reason ``verb`` does not fit the phase of the round, or None."""
        a, d = self.attacker, self.defender
        if self.phase == ATTACK:
            if verb != "attack":
                return Reason("open_round", seat=a, verb=Verb(verb))
            return None
        if self.phase == DEFEND:
            if verb in ("throw", "pass"):
                return Reason("card_uncovered", seat=d)
            if verb == "attack":
                return Reason("round_opened_defend")
            return None
        # THROW
        if verb == "attack":
            return Reason("round_opened_throw")
        if verb == "transfer":
            if self.taken:
                return Reason("transfer_after_take")
            return Reason("transfer_before_beat")
        if verb in ("beat", "take"):
            if self.taken:
                return Reason("already_taken", seat=d)
            return Reason("all_covered", verb=Verb(verb))
        return None

    def _why_not_beat(self, a: Card, b: Card, hand: list[Card]) -> str:
        uncovered = [x for x, y in zip(self.attacks, self.covers, strict=True) if y is None]
        if a not in uncovered:
            return Reason("not_uncovered", card=Cards((a,)), cards=Cards(uncovered))
        if b not in hand:
            return Reason("not_held", cards=Cards((b,)))
        suit = Suit(a // 13)
        if a // 13 == self.trump:
            return Reason("trump_beaten_by_trump", a=Cards((a,)), b=Cards((b,)), suit=suit)
        return Reason("cover_higher", a=Cards((a,)), b=Cards((b,)), suit=suit,
                      trump=Suit(self.trump))

    def _limit_reason(self, total: int) -> str:
        d = self.defender
        return Reason("round_limit", limit=self.limit, cap=self._bout_cap(),
                      start=self._defender_start(), seat=d, total=total)

    def _defender_start(self) -> int:
        """Cards the defender held when the round (or the transfer to them) began."""
        return len(self.hands[self.defender]) + self.covered

    def _why_not_transfer(self, cards: list[Card]) -> str:
        if self.covered:
            return Reason("transfer_before_beat")
        rank = self.attacks[0] % 13
        if any(c % 13 != rank for c in cards):
            return Reason("transfer_rank", rank=Ranks((rank,)))
        new = self._next_opponent(self.defender)
        total = len(self.attacks) + len(cards)
        if new is not None and len(self.hands[new]) < total:
            return Reason("transfer_too_many", seat=new, held=len(self.hands[new]),
                          total=total)
        return Reason("transfer_limit", cap=self._bout_cap(), total=total)

    # ------------------------------------------------------------- views
    #: the view's parts made once and kept while what they show stands (the view is asked
    #: at every step): each is keyed by the very list it shows (and its length, for the
    #: lists that only grow), so a replaced list is read afresh
    _last_view: tuple[object, DurakRound | None] = (None, None)
    #: each hand sorted, with the list and the length it was made from (None: not yet)
    _hands_shown: tuple[tuple[list[Card], int, tuple[Card, ...]] | None, ...] = ()
    #: each hand's public cards: the public set, each hand with its length, the view
    _known_view: tuple[object, tuple[tuple[list[Card], int, tuple[Card, ...]], ...] | None,
                       tuple[tuple[Card, ...], ...]] = (None, None, ())
    _discard_view: tuple[object, int, tuple[Card, ...]] = (None, 0, ())
    _plays_view: tuple[object, int, tuple[tuple[int, Card], ...]] = (None, 0, ())
    #: the cards each seat has played, as the view shows them (None: made on asking;
    #: ``_play`` and ``_resume`` clear it)
    _played_view: tuple[tuple[Card, ...], ...] | None = None

    def observation(self, seat: int) -> DurakView:
        n = self.players
        # the fields in DurakView's order, positionally (the view is made at every step)
        return DurakView(
            "perevodnoy" if self.transfer else "simple",            # variant
            self._sorted_hand(seat),                                 # hand
            tuple(map(len, self.hands)),                             # hand_sizes
            self._known_cards(),                                     # known_cards
            tuple(zip(self.attacks, self.covers, strict=True)),      # table
            self.trump_card,                                         # trump_card
            self.trump,                                              # trump_suit
            self.trump_holder,                                       # trump_drawn_by
            len(self.stock),                                         # stock_size
            len(self.discard),                                       # discard_count
            self._discard_sorted(),                                  # discard
            self.phase,                                              # phase
            self.attacker,                                           # attacker
            self.defender,                                           # defender
            self.taken,                                              # taken
            tuple(sorted(self.passed)),                              # passed
            self.limit,                                              # limit
            tuple(compress(range(n), self.in_game)),                 # in_game
            tuple(tuple(range(t, n, 2)) for t in (0, 1)) if self.teams else None,  # teams
            self.beaten_rounds == 0,                                 # first_bout
            self.first_bout_limit,                                   # first_bout_limit
            self._round_plays(),                                     # plays
            self.opener,                                             # opener
            self._played(),                                          # played
            self.dealt_low[seat],                                    # lowest_trump_dealt
            self._last_round(),                                      # last_round
        )

    def _sorted_hand(self, seat: int) -> tuple[Card, ...]:
        """The seat's hand, sorted (the view's hand; its actions reuse it), made again
        when the hand has changed: a play shortens it, and after a round (cards taken
        and drawn) every hand is made again."""
        hand = self.hands[seat]
        shown = self._hands_shown
        entry = shown[seat] if shown else None
        if entry is None or entry[0] is not hand or entry[1] != len(hand):
            entry = (hand, len(hand), tuple(sorted(hand)))
            made: list[tuple[list[Card], int, tuple[Card, ...]] | None] = \
                list(shown) if shown else [None] * self.players
            made[seat] = entry
            self._hands_shown = tuple(made)
        return entry[2]

    def _known_cards(self) -> tuple[tuple[Card, ...], ...]:
        """Each hand's public cards, sorted, made again as the hand is (a play changes
        the public cards of the hand it is played from only)."""
        public = self.public
        if not public:
            return ((),) * self.players
        key, made, shown = self._known_view
        hands = self.hands
        if key is public and made is not None:
            for e, h in zip(made, hands, strict=True):
                if e[0] is not h or e[1] != len(h):
                    break
            else:
                return shown
        made = tuple((h, len(h), tuple(sorted(k))) for h, k in zip(hands, self.known,
                                                                   strict=True))
        shown = tuple(e[2] for e in made)
        self._known_view = (public, made, shown)
        return shown

    def _discard_sorted(self) -> tuple[Card, ...]:
        """The beaten-off cards, sorted (the pile only grows: sorted again when it has)."""
        pile, size, shown = self._discard_view
        discard = self.discard
        if pile is not discard or size != len(discard):
            shown = tuple(sorted(discard))
            self._discard_view = (discard, len(discard), shown)
        return shown

    def _round_plays(self) -> tuple[tuple[int, Card], ...]:
        """This round's cards with their seats (the round's list only grows: the new
        entries are spelt out and added)."""
        plays = self.plays
        key, size, shown = self._plays_view
        if key is not plays or size > len(plays):
            key, size, shown = plays, 0, ()
        if size < len(plays):
            shown += _plays(plays[size:])
            self._plays_view = (plays, len(plays), shown)
        return shown

    def _played(self) -> tuple[tuple[Card, ...], ...]:
        shown = self._played_view
        if shown is None:
            shown = self._played_view = tuple(map(tuple, self.played_by))
        return shown

    def _last_round(self) -> DurakRound | None:
        """The last round's view, made once when first shown after the round ended."""
        last = self.last
        key, shown = self._last_view
        if key is not last:
            shown = None if last is None else DurakRound(
                defender=last[1], attacker=last[0],
                table=tuple(zip(last[2], last[3], strict=True)), cards=_plays(last[4]),
                outcome="taken" if last[5] else "beaten")
            self._last_view = (last, shown)
        return shown

    # --------------------------------------------------------- for search
    def clone(self) -> DurakGame:
        """A copy sharing nothing mutable (much faster than ``deepcopy``)."""
        new = copy.copy(self)
        new.hands = [list(h) for h in self.hands]
        new.stock = list(self.stock)
        new.public = set(self.public)
        new.known = [set(k) for k in self.known]
        new.discard = list(self.discard)
        new.attacks = list(self.attacks)
        new.covers = list(self.covers)
        new.plays = list(self.plays)
        new.in_game = list(self.in_game)
        new.last_opening = list(self.last_opening)
        new.played_by = [list(p) for p in self.played_by]
        new.queue = list(self.queue)
        new.passed = list(self.passed)
        new.still_in = list(self.still_in)
        return new

    def payoffs(self) -> list[float]:
        """-1 for every seat of the losing side (a game lost), 0 otherwise and in a draw."""
        d = self.durak
        if d is None:
            return [0.0] * self.players
        return [-1.0 if self.side[s] == self.side[d] else 0.0 for s in range(self.players)]

    def card_zones(self) -> dict[str, list[Card]]:
        zones = {f"hand{s}": list(h) for s, h in enumerate(self.hands)}
        zones["stock"] = list(self.stock)
        zones["table"] = self.attacks + [c for c in self.covers if c is not None]
        zones["discard"] = list(self.discard)
        return zones

    def hidden_from(self, seat: int) -> set[Card]:
        """Other hands except their public cards, and the stock except the trump card.

        The discard pile is not hidden: every card in it lay face up on the table.
        """
        hidden = {c for s, h in enumerate(self.hands) if s != seat for c in h}
        hidden -= self.public
        if self.stock:
            hidden.update(self.stock)
            hidden.discard(self.trump_card)   # it lies face up under the stock
        return hidden
