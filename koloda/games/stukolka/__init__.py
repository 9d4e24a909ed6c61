"""Stukolka (Стуколка) — koloda/rules/stukolka.en.md §Precisely: a pot, three cards, knock or drop,
the golets.

Money is the whole game: the dealer antes into the pot, each of the three tricks takes a
third of the pot as it stood before play, and whoever played and took nothing pays a remiz
of that same pot into the next one. Balances plus the pot always sum to zero. The trick
itself (follow and beat, trump and over-trump) is the shared core's MustBeatPolicy; the one
rule it lacks — the trump ace is led whenever its holder leads — is a small subclass here.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from koloda.cards import (
    ACE,
    RANKS,
    Card,
    card,
    deck,
    rank_of,
    shuffle,
    suit_of,
)
from koloda.engine.actions import Action
from koloda.engine.deal import Deal, DealState, deal_round_robin
from koloda.engine.lots import draw_lowest_card
from koloda.engine.match import Match
from koloda.engine.messages import Act, Reason
from koloda.engine.result import Result, best_seats
from koloda.engine.spec import ActionVocabulary, Bounds, GameSpec, Option, int_range, one_of
from koloda.engine.view import Observation
from koloda.games._hidden import deal_hidden
from koloda.games.stukolka.layout import LAYOUT, STATE_FIELDS
from koloda.games.stukolka.messages import MESSAGES
from koloda.games.stukolka.views import (
    TERMS,
    VERBS,
    VIEWS,
    DealerDraw,
    StukolkaOutcome,
    StukolkaSheet,
    StukolkaView,
    TrickTaken,
)
from koloda.tricks import (
    PLAY_TEXT,
    MustBeatPolicy,
    Trick,
    TrickRules,
    parse_play,
    play_to_trick,
    why_not_play_text,
)

HAND = 3
DECLARATIONS = ("knock", "drop", "golets")


class StukolkaPolicy(MustBeatPolicy):
    """MustBeatPolicy, plus: a player holding the trump ace leads it whenever they lead."""

    def lead(self, rules: TrickRules, hand: Sequence[Card]) -> tuple[list[Card], str]:
        if rules.trump is not None:
            ace = card(ACE, rules.trump)
            if ace in hand:
                return [ace], TRUMP_ACE_LEAD
        return list(hand), ""


TRUMP_ACE_LEAD = Reason("trump_ace_lead")
RULES_BY_TRUMP = tuple(TrickRules(s, StukolkaPolicy()) for s in range(4))


def draw_for_first_dealer(rng: random.Random, players: int, size: int) -> dict[str, Any]:
    """The lowest card drawn deals (koloda/rules/stukolka.en.md §Precisely): the engine's lots with
    the match's deck."""
    return draw_lowest_card(rng, players, size)


class StukolkaDeal(DealState):
    """Declarations from the dealer's left (dealer last), then up to three tricks."""

    #: how the fast tensor path reads this observation's fields off the state
    #: (koloda/games/stukolka/layout.py)
    tensor_fields: ClassVar[Mapping[str, str]] = STATE_FIELDS

    def __init__(self, deal: Deal, pot: int, ante: int = 0) -> None:
        self.players = n = len(deal.hands)
        self.dealer = deal.dealer
        assert deal.trump_card is not None
        self.trump_card: Card = deal.trump_card
        self.rules = RULES_BY_TRUMP[suit_of(self.trump_card)]
        #: a turned-up trump ace: the same dealer deals again, nothing is played or paid
        self.redeal = rank_of(self.trump_card) == ACE
        self.pot = pot                      # the pot as it stands before play
        self.ante = ante                    # what the dealer paid in
        self.hands: list[list[Card]] = [sorted(h) for h in deal.hands]  # card order
        # the turned card lies on the stock; a record may also write it as stock[0]
        self.turned_in_stock = bool(deal.stock) and deal.stock[0] == self.trump_card
        self.stock: list[Card] = list(deal.stock[1:] if self.turned_in_stock else deal.stock)
        self.all_cards = frozenset(c for h in deal.hands for c in h) | set(deal.stock)
        self.discards: list[list[Card]] = [[] for _ in range(n)]
        self.set_aside: list[Card] = []     # the card under the turned one, after a golets
        self.order = [(deal.dealer + 1 + i) % n for i in range(n)]
        self.declared: list[str | None] = [None] * n
        self.golets: int | None = None
        self.phase = "declare"
        self.in_play: list[int] = []
        self.tricks = [0] * n
        self.taken: list[list[Card]] = [[] for _ in range(n)]
        self.trick = Trick(self.order[0])
        self.last_trick: TrickTaken | None = None
        self.played: set[Card] = set()
        self.history: list[TrickTaken] = []     # every finished trick, in order
        #: per seat, suit → the highest rank it may still hold (-1: none of the suit), read
        #: off its plays: public, since everyone saw what it failed to beat or follow
        self.caps: list[dict[int, int]] = [{} for _ in range(n)]
        self.turn = 0
        if self.redeal:
            self.is_over, self.to_move = True, None
        else:
            self.to_move = self.order[0]

    # ----------------------------------------------------------- declaring
    def _legal_actions(self) -> list[str]:
        seat = self.to_move
        assert seat is not None
        if self.phase == "play":
            return self.rules.plays(self.hands[seat], self.trick)
        return ["knock", "drop"] if self.golets is not None else ["knock", "drop", "golets"]

    def why_illegal(self, action: str) -> str:
        seat = self.to_move
        assert seat is not None
        act = Action.parse(action)
        if self.phase == "declare":
            if act.verb == "golets":
                return Reason("golets_taken", seat=self.golets)
            if act.verb == "play":
                return Reason("declare_first")
            return Reason("stukolka_declaration", action=Act(action))
        if act.verb in DECLARATIONS:
            return Reason("declarations_over")
        if act.verb != "play":
            return Reason("stukolka_action", action=Act(action))
        return why_not_play_text(self.rules, self.hands[seat], self.trick, action)

    def _do(self, action: str) -> None:
        seat = self.to_move
        assert seat is not None
        if self.phase == "play":
            self._play(seat, action)
            return
        self.declared[seat] = action
        if action == "drop":
            self.discards[seat].extend(self.hands[seat])
            self.hands[seat] = []
        elif action == "golets":
            # own three cards out, the turned card and the one under it aside, next three in
            self.golets = seat
            self.discards[seat].extend(self.hands[seat])
            self.set_aside.append(self.stock.pop(0))
            self.hands[seat] = sorted(self.stock[:HAND])
            del self.stock[:HAND]
        self.turn += 1
        if self.turn < self.players:
            self.to_move = self.order[self.turn]
            return
        self.in_play = [s for s in self.order if self.declared[s] != "drop"]
        if len(self.in_play) < 2:
            # nobody plays (the pot stays) or one player alone takes all three tricks
            for s in self.in_play:
                self.tricks[s] = 3
            self.is_over, self.to_move = True, None
            return
        self.phase = "play"
        first = self.golets if self.golets is not None else self.in_play[0]
        self.trick = Trick(first)
        self.to_move = first

    # ------------------------------------------------------------- playing
    def _next_in(self, seat: int) -> int:
        i = self.in_play.index(seat)
        return self.in_play[(i + 1) % len(self.in_play)]

    def _play(self, seat: int, action: str) -> None:
        c, _ = parse_play(action)
        self.played.add(c)
        self._learn(seat, c)
        done = play_to_trick(self, self.rules, seat, c, len(self.in_play),
                             self._next_in(seat))
        if done is not None:
            t = done[0]
            self.last_trick = TrickTaken.of(t, done[1])
            self.history.append(self.last_trick)

    def _learn(self, seat: int, c: Card) -> None:
        """What playing ``c`` now shows about the rest of the hand
        (koloda/rules/stukolka.en.md §Precisely): the trump ace would have been led; a led suit not
        followed is a void; a card of the led suit (or a trump) that does not beat the trick's best
        means nothing higher is held, unless the trick was already trumped."""
        trump = suit_of(self.trump_card)
        trick, rules, caps = self.trick, self.rules, self.caps[seat]

        def cap(s: int, rank: int) -> None:
            if rank < caps.get(s, ACE):       # "nothing above the ace" says nothing
                caps[s] = rank

        if not trick.cards:
            if c != card(ACE, trump):
                cap(trump, ACE - 1)
            return
        led = trick.led
        assert led is not None
        s = suit_of(c)
        if s == led:
            if led == trump or not trick.is_trumped(rules):
                top = trick.highest_of(rules, led)
                if top is not None and rank_of(c) < top:
                    cap(led, top)
            return
        cap(led, -1)
        top_trump = trick.highest_of(rules, trump)
        if s != trump:
            cap(trump, -1)
        elif top_trump is not None and rank_of(c) < top_trump:
            cap(trump, top_trump)

    def money(self) -> tuple[list[int], int]:
        """(each seat's gain or loss, the pot left for the next deal) once the deal is over.

        A trick pays a third of the pot as it stood before play; whoever played and took no
        trick pays that whole pot into the next one. A lone player takes the whole pot and
        pays no remiz; a deal nobody plays leaves the pot as it is.
        """
        change = [0] * self.players
        if self.redeal or not self.in_play:
            return change, self.pot
        third = self.pot // 3
        left = self.pot
        for s in self.in_play:
            change[s] += third * self.tricks[s]
            left -= third * self.tricks[s]
            if self.tricks[s] == 0:
                change[s] -= self.pot
                left += self.pot
        return change, left

    def clone(self) -> StukolkaDeal:
        """A copy sharing nothing mutable (much faster than ``deepcopy``)."""
        new = copy.copy(self)
        new.hands = [list(h) for h in self.hands]
        new.stock = list(self.stock)
        new.discards = [list(d) for d in self.discards]
        new.set_aside = list(self.set_aside)
        new.declared = list(self.declared)
        new.in_play = list(self.in_play)
        new.tricks = list(self.tricks)
        new.taken = [list(t) for t in self.taken]
        new.trick = self.trick.copy()
        new.played = set(self.played)
        new.history = list(self.history)
        new.caps = [dict(c) for c in self.caps]
        return new

    def payoffs(self) -> list[float]:
        """The money each seat won or lost in this deal: tricks times a third of the pot,
        less a remiz, less the ante for the dealer."""
        change, _ = self.money()
        pay = [float(x) for x in change]
        pay[self.dealer] -= self.ante
        return pay

    # ---------------------------------------------------------------- views
    def observation(self, seat: int) -> StukolkaView:
        t = self.trick
        return StukolkaView(
            deck_size=len(self.all_cards | {self.trump_card}),
            ante=self.ante,
            phase=self.phase,
            hand=tuple(sorted(self.hands[seat])),
            hand_sizes=tuple(len(h) for h in self.hands),
            trump_card=self.trump_card,
            trump=suit_of(self.trump_card),
            redeal=self.redeal,
            pot=self.pot,
            stock=len(self.stock),
            declared=tuple(self.declared),
            golets=self.golets,
            in_play=tuple(self.in_play),
            my_discards=tuple(self.discards[seat]),
            trick=tuple(zip(t.seats, t.cards, strict=True)),
            leader=t.leader,
            tricks=tuple(self.tricks),
            last_trick=self.last_trick,
            tricks_played=tuple(self.history),
            voids=tuple(tuple(s for s in sorted(cs) if cs[s] < 0) for cs in self.caps),
            caps=tuple(tuple((s, r) for s, r in sorted(cs.items()) if r >= 0)
                       for cs in self.caps),
        )

    def card_zones(self) -> dict[str, list[Card]]:
        zones = {f"hand{s}": list(h) for s, h in enumerate(self.hands)}
        zones.update({f"discards{s}": list(d) for s, d in enumerate(self.discards)})
        zones.update({f"taken{s}": list(t) for s, t in enumerate(self.taken)})
        zones["stock"] = list(self.stock)
        zones["set_aside"] = list(self.set_aside)
        zones["trick"] = list(self.trick.cards)
        if self.trump_card not in self.set_aside:
            zones["turned"] = [self.trump_card]
        return zones

    def hidden_from(self, seat: int) -> set[Card]:
        known = set(self.hands[seat]) | set(self.discards[seat]) | self.played \
            | {self.trump_card}
        return set(self.all_cards - known)


def determinize(obs: Observation, rng: random.Random) -> StukolkaDeal:
    """A full deal consistent with what one seat saw, rebuilt as dealt and replayed.

    Known: the seat's hand and discards, the turned card, every card played, the counts,
    the declarations and what each player's plays showed it lacks (``voids``, ``caps``).
    Unknown, dealt at random from the rest of the deck: the other hands (never a card they
    are known to lack), the discards of those who dropped or took the golets, the card set
    aside under the turned one, and the stock.
    """
    view = obs.deal
    assert isinstance(view, StukolkaView) and obs.seat is not None and obs.dealer is not None
    n, seat, dealer = obs.players, obs.seat, obs.dealer
    turned = view.trump_card
    hands = [list(view.hand) if s == seat else [] for s in range(n)]
    mine_out = list(view.my_discards)
    plays = [p for tr in view.tricks_played for p in tr.cards]
    plays += view.trick
    golets, declared = view.golets, view.declared
    known = {turned, *hands[seat], *mine_out}.union(c for _, c in plays)
    # the places of unknown cards: other hands, other discards, set-aside card, stock
    others = [s for s in range(n) if s != seat]
    out_of = [s for s in others if declared[s] in ("drop", "golets")]
    needs = [view.hand_sizes[s] for s in others] + [HAND] * len(out_of)
    banned: list[frozenset[Card]] = [_banned(view, s) for s in others]
    banned += [frozenset()] * len(out_of)
    aside = 1 if golets is not None else 0
    needs += [aside, view.stock]
    banned += [frozenset(), frozenset()]
    pool = [c for c in deck(view.deck_size) if c not in known]
    dealt = deal_hidden(pool, needs, banned, rng)
    for s, h in zip(others, dealt, strict=False):
        hands[s] = h
    discards = {seat: mine_out} | dict(zip(out_of, dealt[len(others):], strict=False))
    for s, c in plays:                     # the hands as they were when play began
        hands[s].append(c)
    stock = dealt[-1]
    if golets is not None:
        # the golets taker's three came from under the set-aside card; it had discarded
        stock = dealt[-2] + hands[golets] + stock
        hands[golets] = []
    for s in range(n):
        if declared[s] in ("drop", "golets"):
            hands[s] = discards[s] + hands[s]
    st = StukolkaDeal(Deal(dealer, tuple(tuple(h) for h in hands), tuple(stock), turned),
                      view.pot, view.ante)
    for i in range(sum(d is not None for d in declared)):
        st.apply_unchecked(str(declared[st.order[i]]))
    for _, c in plays:
        st.apply_unchecked(PLAY_TEXT[c])
    return st


def _banned(view: StukolkaView, s: int) -> frozenset[Card]:
    """The cards seat ``s`` is known not to hold: its voids and its caps."""
    caps = dict.fromkeys(view.voids[s], -1)
    caps.update(view.caps[s])
    return frozenset(card(r, su) for su, top in caps.items() for r in range(top + 1, ACE + 1))


class StukolkaMatch(Match):
    """Balances and the pot; ``deals`` counted deals, then on until a deal empties the pot."""

    def setup(self) -> None:
        self.balances = [0] * self.players
        self.pot = 0
        self.deal_log: list[dict[str, Any]] = []
        self.dealer_draw: dict[str, Any] | None = None

    def choose_first_dealer(self, rng: random.Random) -> int:
        self.dealer_draw = draw_for_first_dealer(rng, self.players, self.options["deck"])
        return int(self.dealer_draw["dealer"])

    def deal_cards(self, dealer: int, rng: random.Random) -> Deal:
        cards = list(deck(self.options["deck"]))
        shuffle(cards, rng)
        hands, rest = deal_round_robin(cards, self.players, dealer, HAND)
        return Deal(dealer, hands, rest[1:], rest[0])

    def start_deal(self, deal: Deal) -> DealState:
        assert deal.trump_card is not None
        if rank_of(deal.trump_card) == ACE:
            # a redeal is the same deal: no new ante
            return StukolkaDeal(deal, self.pot)
        # the dealer antes every deal
        ante = self.options["ante"]
        self.balances[deal.dealer] -= ante
        self.pot += ante
        return StukolkaDeal(deal, self.pot, ante)

    def end_deal(self, state: DealState) -> None:
        assert isinstance(state, StukolkaDeal)
        change, left = state.money()
        for s, d in enumerate(change):
            self.balances[s] += d
        self.pot = left
        kind = ("redeal" if state.redeal else "nobody" if not state.in_play
                else "alone" if len(state.in_play) == 1 else "played")
        self.deal_log.append({"dealer": state.dealer, "kind": kind, "pot_before": state.pot,
                              "declared": list(state.declared), "tricks": list(state.tricks),
                              "change": change, "pot_after": left,
                              "balances": list(self.balances)})

    def counts_as_deal(self, state: DealState) -> bool:
        return not (isinstance(state, StukolkaDeal) and state.redeal)

    def next_dealer(self) -> int | None:
        st = self.current
        assert isinstance(st, StukolkaDeal)
        if st.redeal:
            return st.dealer
        if self.deals_played >= self.options["deals"] and self.pot == 0:
            return None
        return (st.dealer + 1) % self.players

    def _public_draw(self) -> dict[str, Any] | None:
        draw = self.dealer_draw
        return draw if draw is not None and draw["dealer"] == self.first_dealer else None

    def final_result(self, capped: bool) -> Result:
        details = {"pot": self.pot, "deals_played": self.deals_played,
                   "first_dealer_draw": self._public_draw(), "deals": self.deal_log}
        return Result.of(best_seats(self.balances), self.players, list(self.balances), capped,
                         details)

    def sheet(self) -> StukolkaSheet:
        """Balances and pot; the draw for the first dealer by rank only (it used its own
        pack, and its suits, which decide nothing, would read like cards of the deal)."""
        draw = self._public_draw()
        shown = None if draw is None else DealerDraw(
            draw["dealer"], tuple(tuple((seat, RANKS.index(text[0])) for seat, text in rnd)
                                  for rnd in draw["rounds"]))
        return StukolkaSheet(tuple(self.balances), self.pot, self.deals_played,
                             self.options["deals"], shown)


def _ante_check(value: Any, _players: int) -> str | None:
    if value < 3 or value % 3:
        return Reason("ante_thirds")
    return None


SPECS = [GameSpec(
    name="stukolka", family="stukolka", variant="classic",
    title_en="Stukolka", title_ru="Стуколка",
    players=(4, 5, 6, 7), default_players=5, match_class=StukolkaMatch,
    views=VIEWS, outcome=StukolkaOutcome.from_details, terms=TERMS, verbs=VERBS, messages=MESSAGES,
    options=(
        Option("deck", 36, "36 or 52", "cards in the deck", "колода: 36 или 52 листа",
               one_of(36, 52)),
        Option("ante", 3, "a multiple of 3, at least 3",
               "what the dealer pays into the pot every deal",
               "ставка «за сдачу», которую сдающий вносит в кон", _ante_check),
        Option("deals", lambda n: 2 * n, "a whole number ≥ 1 (default: 2 × players)",
               "deals in the match (each player deals twice); then play on until a deal "
               "leaves the pot empty",
               "сдач в партии (каждый сдаёт дважды); затем играют, пока кон не опустеет",
               int_range(1)),
    ),
    summary_en="Three cards, a turned trump, knock or drop; each trick takes a third of the "
               "pot, a player who takes none pays the pot again.",
    summary_ru="Три карты, открытый козырь; стучат или сбрасывают; взятка — треть кона, "
               "не взявший ни одной ставит ремиз.",
    aliases=("стуколка",),
    determinize=determinize,
    actions=ActionVocabulary(plain=("knock", "drop", "golets"), single=("play",)),
    bounds=Bounds(actions_per_deal=400), layout=LAYOUT,
    bots={"heuristic": "koloda.bots.heuristic.stukolka:make",
          "search": "koloda.bots.search.games.stukolka:StukolkaSearch"},
    order=6,
)]
