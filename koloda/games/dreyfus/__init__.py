"""Dreyfus (Дрейфус) — koloda/rules/dreyfus.en.md §Precisely: three players, a widow to buy from, a
rotating trump.

Every card bought is written "above the line" (a minus) together with the tricks short of
four; tricks over four go "below the line" (a plus). The first to write 10 below wins, the
cycle of five trumps is played out, and everyone else pays the winner what stands above
their line plus what they lack of 10 below.
"""

from __future__ import annotations

import copy
import random
from itertools import combinations
from typing import Any

from koloda.cards import (
    CARD_TEXT,
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    Card,
    deck,
    shuffle,
    suit_of,
)
from koloda.cards import suit_name as _suit_name
from koloda.engine.actions import Action
from koloda.engine.deal import Deal, DealState
from koloda.engine.errors import IllegalAction
from koloda.engine.legal import CardSubsets, legal_actions
from koloda.engine.match import Match
from koloda.engine.messages import Act, Cards, Reason
from koloda.engine.result import Result
from koloda.engine.spec import ActionVocabulary, Bounds, GameSpec, Option, one_of
from koloda.engine.view import Observation
from koloda.games._hidden import deal_hidden
from koloda.games.dreyfus.layout import LAYOUT
from koloda.games.dreyfus.messages import MESSAGES
from koloda.games.dreyfus.views import (
    TERMS,
    VIEWS,
    DreyfusOutcome,
    DreyfusSheet,
    DreyfusView,
    TrickTaken,
)
from koloda.tricks import (
    FollowElseTrump,
    Trick,
    TrickRules,
    parse_play,
    play_to_trick,
    why_not_play_text,
)

PLAYERS = 3
HAND = 12
#: the trump of deal ``d`` (0-based) is ``TRUMP_CYCLE[d % 5]``; None = no trump
TRUMP_CYCLE: tuple[int | None, ...] = (SPADES, CLUBS, DIAMONDS, HEARTS, None)
TARGET = 10      # points below the line that win
PAR = 4          # tricks a player is expected to take
RULES = TrickRules(None, FollowElseTrump())
#: the rules of each deal's trump (None: the no-trump deal), made once: their tables and
#: the voids a play reveals are worked out once, not every deal
RULES_BY_TRUMP = {t: RULES.with_trump(t) for t in (None, 0, 1, 2, 3)}
DECK: tuple[Card, ...] = tuple(deck(48))
#: the cards of each suit (0..3)
SUIT_CARDS: tuple[frozenset[Card], ...] = tuple(
    frozenset(c for c in DECK if suit_of(c) == s) for s in range(4))


def trump_of_deal(number: int) -> int | None:
    return TRUMP_CYCLE[number % len(TRUMP_CYCLE)]


def deal_by_threes(cards: list[Card] | tuple[Card, ...],
                   dealer: int) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Three at a time into four packets — left of dealer, next, dealer, widow — four rounds."""
    packets: list[list[Card]] = [[] for _ in range(PLAYERS + 1)]
    pos = 0
    for _ in range(HAND // 3):
        for packet in packets:
            packet.extend(cards[pos:pos + 3])
            pos += 3
    hands: list[tuple[Card, ...]] = [()] * PLAYERS
    for i in range(PLAYERS):
        hands[(dealer + 1 + i) % PLAYERS] = tuple(packets[i])
    return tuple(hands), tuple(packets[PLAYERS])


def exchange_actions(hand: list[Card], most: int) -> list[str]:
    """``stand`` and every ``discard`` of 1..``most`` cards of the sorted ``hand``, in
    canonical texts: up to 4096 actions, the deal's hot spot.

    The hand is split into a low and a high half (six cards each). Every discard is a set
    of low cards (the text "discard …", 64 of them) followed by a set of high cards (the
    text " …") of at most ``most`` cards in all, so each action costs one concatenation in
    one list comprehension. The list is grouped by the low cards, each group by how many
    high cards follow; the empty discard comes first and is the place of ``stand``.
    """
    texts = [CARD_TEXT[c] for c in hand]
    half = len(texts) // 2
    low, high = texts[:half], texts[half:]
    # the high parts of at most j cards, fewest first
    upto: list[list[str]] = [[""]]
    for j in range(1, len(high) + 1):
        upto.append(upto[-1] + [" " + " ".join(c) for c in combinations(high, j)])
    pairs = [("discard " + " ".join(c) if c else "discard", upto[min(len(high), most - i)])
             for i in range(min(half, most) + 1) for c in combinations(low, i)]
    out = [a + b for a, bs in pairs for b in bs]
    out[0] = "stand"              # the empty discard ("discard" + "")
    return out


class DreyfusDeal(DealState):
    """Exchange with the widow from the dealer's left (dealer last), then twelve tricks."""

    def __init__(self, deal: Deal, number: int) -> None:
        self.players = PLAYERS
        self.dealer = deal.dealer
        self.number = number
        self.rules = RULES_BY_TRUMP[trump_of_deal(number)]
        self.hands: list[list[Card]] = [sorted(h) for h in deal.hands]  # card order
        self.widow: list[Card] = list(deal.stock)          # top first
        self.discards: list[list[Card]] = [[] for _ in range(PLAYERS)]
        self.bought = [0] * PLAYERS
        self.skipped: list[int] = []
        self.exchange_order = [(deal.dealer + 1 + i) % PLAYERS for i in range(PLAYERS)]
        self.exchanged = 0                                  # players whose turn has passed
        self.phase = "exchange"
        self.taken: list[list[Card]] = [[] for _ in range(PLAYERS)]
        self.tricks = [0] * PLAYERS
        self.trick = Trick(self.exchange_order[0])
        self.last_trick: TrickTaken | None = None
        self.history: list[TrickTaken] = []     # every finished trick, in order
        #: per seat, the suits it has shown it lacks (not followed; not trumped when void)
        self.voids: list[set[int]] = [set() for _ in range(PLAYERS)]
        self._next_exchanger()

    # ------------------------------------------------------------ exchange
    def _next_exchanger(self) -> None:
        """Give the turn to the next player who may buy; skip everyone once the widow is
        empty (koloda/rules/dreyfus.en.md §Precisely 10–13); then play begins left of the dealer."""
        while self.exchanged < PLAYERS:
            seat = self.exchange_order[self.exchanged]
            if self.widow:
                self.to_move = seat
                return
            self.skipped.append(seat)
            self.exchanged += 1
        self.phase = "play"
        self.to_move = self.trick.leader

    def _legal_actions(self) -> list[str]:
        seat = self.to_move
        assert seat is not None
        hand = self.hands[seat]
        if self.phase == "play":
            return self.rules.plays(hand, self.trick)
        held, most = sorted(hand), min(len(self.widow), len(hand))
        discards = (CardSubsets("discard", tuple(held), most),) if most else ()
        return legal_actions(exchange_actions(held, most), ("stand",), discards)

    def why_illegal(self, action: str) -> str:
        seat = self.to_move
        assert seat is not None
        act = Action.parse(action)
        hand = self.hands[seat]
        if self.phase == "exchange":
            if act.verb == "play":
                return Reason("dreyfus_exchange_first")
            if act.verb != "discard":
                return Reason("dreyfus_exchange_action", action=Act(action))
            missing = [c for c in act.cards if c not in hand]
            if missing:
                return Reason("not_held", cards=Cards(missing))
            return Reason("widow_only_discard", n=len(self.widow))
        if act.verb in ("discard", "stand"):
            return Reason("exchange_over")
        if act.verb != "play":
            return Reason("dreyfus_action", action=Act(action))
        return why_not_play_text(self.rules, hand, self.trick, action)

    def _do(self, action: str) -> None:
        seat = self.to_move
        assert seat is not None
        if self.phase == "exchange":
            self.exchange(seat, [] if action == "stand" else list(Action.parse(action).cards))
        else:
            self.play(seat, parse_play(action)[0])

    def buy(self, cards: list[Card]) -> None:
        """The player to move discards ``cards`` and buys as many (none: stands), checked
        by the rule but without listing every discard set — for bots and search, which
        would otherwise build up to 4096 texts to pick one."""
        seat = self.to_move
        if self.phase != "exchange" or seat is None:
            raise IllegalAction("exchange_over")
        hand = self.hands[seat]
        if any(c not in hand for c in cards) or len(set(cards)) != len(cards):
            raise IllegalAction("not_held", cards=Cards(cards))
        if len(cards) > len(self.widow):
            raise IllegalAction("widow_only", n=len(self.widow))
        self._legal = None
        self.exchange(seat, list(cards))

    def exchange(self, seat: int, cards: list[Card]) -> None:
        """``seat`` discards ``cards`` (none: stands) and takes as many from the widow."""
        if cards:
            hand = self.hands[seat]
            for c in cards:
                hand.remove(c)
            self.discards[seat].extend(cards)
            k = len(cards)
            hand.extend(self.widow[:k])
            hand.sort()             # hands stay in card order (the trick core's legal_plays)
            del self.widow[:k]
            self.bought[seat] += k
        self.exchanged += 1
        self._next_exchanger()

    def play(self, seat: int, c: Card) -> None:
        """``seat`` plays ``c`` to the trick (already checked legal)."""
        self.voids[seat] |= self.rules.reveals(self.trick.led, c)
        done = play_to_trick(self, self.rules, seat, c, PLAYERS, (seat + 1) % PLAYERS)
        if done is not None:
            t = done[0]
            self.last_trick = TrickTaken.of(t, done[1])
            self.history.append(self.last_trick)

    # ------------------------------------------------------------ views
    def observation(self, seat: int) -> DreyfusView:
        t = self.trick
        return DreyfusView(
            hand=tuple(sorted(self.hands[seat])),
            hand_sizes=tuple(len(h) for h in self.hands),
            trump=self.rules.trump,
            phase=self.phase,
            widow_size=len(self.widow),
            bought=tuple(self.bought),
            skipped=tuple(self.skipped),
            my_discards=tuple(self.discards[seat]),
            trick=tuple(zip(t.seats, t.cards, strict=True)),
            leader=t.leader,
            tricks=tuple(self.tricks),
            last_trick=self.last_trick,
            tricks_played=tuple(self.history),
            voids=tuple(tuple(sorted(vs)) for vs in self.voids),
        )

    def clone(self) -> DreyfusDeal:
        """A copy sharing nothing mutable (much faster than ``deepcopy``)."""
        new = copy.copy(self)
        new.hands = [list(h) for h in self.hands]
        new.widow = list(self.widow)
        new.discards = [list(d) for d in self.discards]
        new.bought = list(self.bought)
        new.skipped = list(self.skipped)
        new.taken = [list(t) for t in self.taken]
        new.tricks = list(self.tricks)
        new.trick = self.trick.copy()
        new.history = list(self.history)
        new.voids = [set(v) for v in self.voids]
        return new

    def payoffs(self) -> list[float]:
        """Each player's change in (below − above) the line this deal: tricks − 4 − bought
        (``payoffs_of``)."""
        return [payoffs_of(self.bought[s], self.tricks[s]) for s in range(PLAYERS)]

    def card_zones(self) -> dict[str, list[Card]]:
        zones = {f"hand{s}": list(h) for s, h in enumerate(self.hands)}
        zones.update({f"discards{s}": list(d) for s, d in enumerate(self.discards)})
        zones.update({f"taken{s}": list(t) for s, t in enumerate(self.taken)})
        zones["widow"] = list(self.widow)
        zones["trick"] = list(self.trick.cards)
        return zones

    def hidden_from(self, seat: int) -> set[Card]:
        hidden = set(self.widow)
        for s in range(PLAYERS):
            if s != seat:
                hidden.update(self.hands[s])
                hidden.update(self.discards[s])
        return hidden


def determinize(obs: Observation, rng: random.Random) -> DreyfusDeal:
    """A full deal consistent with what one seat saw, rebuilt as dealt and replayed.

    Known: the seat's hand and discards, every card played, how many cards each player
    bought, the widow's size and the voids shown in play. Unknown, dealt at random from the
    rest of the deck: the other hands (never a suit they showed they lack), their discards
    and the widow. Which of a player's cards came from the widow is never seen, so any of
    them may be named the purchase when the deal is rebuilt.
    """
    view = obs.deal
    assert isinstance(view, DreyfusView) and obs.seat is not None and obs.dealer is not None
    seat, dealer, bought = obs.seat, obs.dealer, view.bought
    mine, my_out = list(view.hand), list(view.my_discards)
    plays = [p for tr in view.tricks_played for p in tr.cards]
    plays += view.trick
    known = {*mine, *my_out}.union(c for _, c in plays)
    others = [s for s in range(PLAYERS) if s != seat]
    void_cards = [frozenset().union(*(SUIT_CARDS[v] for v in view.voids[s])) for s in others]
    dealt = deal_hidden([c for c in DECK if c not in known],
                        [view.hand_sizes[s] for s in others] + [bought[s] for s in others]
                        + [view.widow_size],
                        [*void_cards, frozenset(), frozenset(), frozenset()], rng)
    now = {seat: mine} | dict(zip(others, dealt[:2], strict=True))
    out = {seat: my_out} | dict(zip(others, dealt[2:4], strict=True))
    for s, c in plays:                        # the hands as they were after the exchange
        now[s].append(c)
    # undo the exchange: the first buyer's purchase lay on top of the widow, and so on
    hands: list[list[Card]] = [[] for _ in range(PLAYERS)]
    widow: list[Card] = []
    order = [(dealer + 1 + i) % PLAYERS for i in range(PLAYERS)]
    for s in order:
        k = bought[s]
        if k:
            shuffle(now[s], rng)
        widow.extend(now[s][:k])
        hands[s] = now[s][k:] + out[s]
    widow.extend(dealt[4])
    st = DreyfusDeal(Deal(dealer, tuple(tuple(h) for h in hands), tuple(widow)),
                     obs.deal_number)
    for s in order:
        if st.phase != "exchange" or (view.phase == "exchange" and s == obs.to_move):
            break
        assert st.to_move == s
        st.exchange(s, sorted(out[s]))
    for s, c in plays:
        st.play(s, c)
    return st


def payoffs_of(bought: int, tricks: int) -> float:
    """A deal's worth to one player: its change in (below − above) the line, which is
    tricks − 4 − cards bought (every point either side of the line is a point of the
    settlement for a player who does not win)."""
    up, down = deal_score(bought, tricks)
    return float(down - up)


def deal_score(bought: int, tricks: int) -> tuple[int, int]:
    """(above the line, below the line) written for one player's deal."""
    return bought + max(0, PAR - tricks), max(0, tricks - PAR)


def leaders(above: list[int], below: list[int], seats: list[int]) -> list[int]:
    """Of ``seats``: the higher below-line total, then the lower above-line total; ties
    share."""
    best = max((below[s], -above[s]) for s in seats)
    return [s for s in seats if (below[s], -above[s]) == best]


def settlement(above: list[int], below: list[int], winners: list[int]) -> list[float]:
    """Each other player pays ``above + max(0, 10 − below)``; co-winners split it equally
    and do not pay each other. Returns every seat's money (it sums to zero)."""
    money = [0.0] * len(above)
    for s in range(len(above)):
        if s in winners:
            continue
        owed = above[s] + max(0, TARGET - below[s])
        money[s] -= owed
        for w in winners:
            money[w] += owed / len(winners)
    return [int(m) if m.is_integer() else m for m in money]


class DreyfusMatch(Match):
    def setup(self) -> None:
        self.above = [0] * PLAYERS
        self.below = [0] * PLAYERS
        self.winners: list[int] | None = None
        self.won_at: int | None = None
        self.history_sheet: list[dict[str, Any]] = []

    def deal_cards(self, dealer: int, rng: random.Random) -> Deal:
        cards = list(deck(48))
        shuffle(cards, rng)
        hands, widow = deal_by_threes(cards, dealer)
        return Deal(dealer, hands, widow, None)

    def start_deal(self, deal: Deal) -> DealState:
        return DreyfusDeal(deal, len(self.deals) - 1)

    def end_deal(self, state: DealState) -> None:
        assert isinstance(state, DreyfusDeal)
        for s in range(PLAYERS):
            up, down = deal_score(state.bought[s], state.tricks[s])
            self.above[s] += up
            self.below[s] += down
        if self.winners is None:
            reached = [s for s in range(PLAYERS) if self.below[s] >= TARGET]
            if reached:
                self.winners = leaders(self.above, self.below, reached)
                self.won_at = state.number
        self.history_sheet.append({
            "deal": state.number, "dealer": state.dealer,
            "trump": None if state.rules.trump is None else _suit_name(state.rules.trump),
            "bought": list(state.bought), "tricks": list(state.tricks),
            "above": list(self.above), "below": list(self.below)})

    def next_dealer(self) -> int | None:
        cycle_done = len(self.deals) % len(TRUMP_CYCLE) == 0
        if self.winners is not None and (self.options["finish"] == "deal" or cycle_done):
            return None
        return (self.deals[-1].dealer + 1) % PLAYERS

    def final_result(self, capped: bool) -> Result:
        winners = self.winners
        if winners is None:
            # capped before anyone reached 10: the standings as they are decide
            winners = leaders(self.above, self.below, list(range(PLAYERS)))
        money = settlement(self.above, self.below, winners)
        details = {"above": list(self.above), "below": list(self.below),
                   "won_at_deal": self.won_at, "deals": self.history_sheet}
        return Result.of(winners, PLAYERS, money, capped, details)

    def sheet(self) -> DreyfusSheet:
        return DreyfusSheet(tuple(self.above), tuple(self.below),
                            None if self.winners is None else tuple(self.winners),
                            trump_of_deal(len(self.deals)))


SPECS = [GameSpec(
    name="dreyfus", family="dreyfus", variant="classic",
    title_en="Dreyfus", title_ru="Дрейфус",
    players=(3,), default_players=3, match_class=DreyfusMatch,
    views=VIEWS, outcome=DreyfusOutcome.from_details, messages=MESSAGES, terms=TERMS,
    options=(
        Option("finish", "cycle", "\"cycle\" or \"deal\"",
               "once someone has 10 below the line: cycle = play out the current cycle of five "
               "trumps; deal = stop at once",
               "когда кто-то записал 10 под чертой: cycle — доиграть круг из пяти сдач; "
               "deal — закончить сразу", one_of("cycle", "deal"), kind=str),
    ),
    summary_en="Three players, 48 cards, buy from the widow; trumps rotate spades, clubs, "
               "diamonds, hearts, none. Tricks over four go below the line; the first to "
               "10 wins.",
    summary_ru="Трое, 48 карт, прикупка; козыри по кругу: пики, трефы, бубны, черви, без "
               "козырей. Взятки сверх четырёх — под черту; первый набравший 10 выигрывает.",
    aliases=("дрейфус",),
    determinize=determinize,
    actions=ActionVocabulary(plain=("stand",), single=("play",), multi=("discard",)),
    bounds=Bounds(actions_per_deal=150), layout=LAYOUT,
    bots={"heuristic": "koloda.bots.heuristic.dreyfus:make",
          "search": "koloda.bots.search.games.dreyfus:DreyfusSearch"},
    order=4,
)]
