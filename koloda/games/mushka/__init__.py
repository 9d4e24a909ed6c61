"""Mushka (koloda/rules/mushka.en.md §Precisely): five cards, one exchange round, five tricks, count
down from 25.

A deal has two phases. In the exchange round each player, from the dealer's left with the
dealer last, discards 1–5 cards and draws as many (``discard C…``), keeps the hand
(``stand``) or drops out (``pass``; barred while holding AS). The players still in then
play five tricks under follow-suit, else trump, else any card; the trick itself (who may
play what, who wins) is the shared core's (koloda/tricks.py, FollowElseTrump).

The card turned up for trump is out of play. Records keep it outside the stock, as the
example record does (``trump_card`` beside a stock of the cards still to draw); a record
that writes it as ``stock[0]`` is read as well.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from koloda.cards import (
    ACE,
    SPADES,
    TEXT_CARD,
    Card,
    card,
    deck,
    rank_of,
    shuffle,
    suit_of,
)
from koloda.engine.deal import Deal, DealState, deal_round_robin
from koloda.engine.legal import CardSubsets, legal_actions
from koloda.engine.lots import draw_lowest_card
from koloda.engine.match import Match
from koloda.engine.messages import Act, Cards, Reason
from koloda.engine.result import Result, best_seats
from koloda.engine.spec import ActionVocabulary, Bounds, GameSpec, Measure
from koloda.engine.view import Observation
from koloda.games._hidden import VOID_BANS, HiddenDealer, deal_by_suit
from koloda.games.mushka.layout import LAYOUT, STATE_FIELDS
from koloda.games.mushka.messages import MESSAGES
from koloda.games.mushka.views import (
    TERMS,
    VIEWS,
    DealerDraw,
    LastTrick,
    MushkaSheet,
    MushkaView,
    Plays,
)
from koloda.tricks import FollowElseTrump, Trick, TrickRules, parse_play, why_not_play_text

ACE_OF_SPADES = card(ACE, SPADES)
HAND = 5
#: the plain texts of an exchange turn (koloda.engine.legal.LegalActions.plain)
STAND: tuple[str, ...] = ("stand",)
STAND_PASS: tuple[str, ...] = ("stand", "pass")
START = 25
NO_TRICK_PENALTY = 5
#: the trick rules for each trump suit (Mushka has always a trump; AS has no power here)
RULES_BY_TRUMP = tuple(TrickRules(s, FollowElseTrump()) for s in range(4))
#: the cards of each suit, for the voids
SUIT_CARDS = tuple(frozenset(card(r, s) for r in range(13)) for s in range(4))
#: the whole pack of each size, as a sampled deal's cards
_DECKS = {n: frozenset(deck(n)) for n in (32, 52)}


def deck_size(players: int) -> int:
    """32 cards for 2–4 players, 52 for 5–6."""
    return 32 if players <= 4 else 52


def draw_for_first_dealer(rng: random.Random, players: int) -> dict[str, Any]:
    """The lowest card drawn deals (koloda/rules/mushka.en.md §Precisely): the engine's lots with
    Mushka's deck."""
    return draw_lowest_card(rng, players, deck_size(players))


class MushkaDeal(DealState):
    """One deal: the exchange round, then the tricks among the players still in."""

    #: how the fast tensor path reads this observation's fields off the state
    #: (koloda/games/mushka/layout.py)
    tensor_fields: ClassVar[Mapping[str, str]] = STATE_FIELDS

    def __init__(self, deal: Deal) -> None:
        self.players = n = len(deal.hands)
        self.dealer = deal.dealer
        assert deal.trump_card is not None
        self.trump_card: Card = deal.trump_card
        self.rules = RULES_BY_TRUMP[suit_of(self.trump_card)]
        self.hands = [sorted(h) for h in deal.hands]
        # the turned card is out of play; a record may also write it as stock[0]
        self.trump_in_stock = bool(deal.stock) and deal.stock[0] == self.trump_card
        self.stock = list(deal.stock[1:] if self.trump_in_stock else deal.stock)
        self.all_cards = frozenset(c for h in deal.hands for c in h) | {self.trump_card} \
            | frozenset(deal.stock)
        self.discards: list[list[Card]] = [[] for _ in range(n)]
        self.order = [(self.dealer + 1 + i) % n for i in range(n)]  # dealer last
        self.choices: list[str | None] = [None] * n  # "discard N", "stand" or "pass"
        self.phase = "exchange"
        self.turn = 0  # index into self.order during the exchange
        self.in_play: list[int] = []
        self.tricks = [0] * n
        self.trick: Trick | None = None
        self.done: list[Trick] = []
        self.played: set[Card] = set()
        #: suits each seat has shown it lacks (did not follow; did not trump either)
        self.voids: list[set[int]] = [set() for _ in range(n)]
        self.to_move = self.order[0]

    # ------------------------------------------------------------ actions
    def _legal_actions(self) -> list[str]:
        seat = self.to_move
        assert seat is not None
        hand = self.hands[seat]
        if self.phase == "play":
            return self.rules.plays(hand, self.trick)
        most = min(HAND, len(self.stock), len(hand))
        # every discard of 1..most cards of the sorted hand (the adapters read the pool),
        # then stand, and pass unless the ace of spades is held
        discards = CardSubsets("discard", tuple(sorted(hand)), most)
        out = discards.texts()
        out.append("stand")
        plain = STAND
        if ACE_OF_SPADES not in hand:
            out.append("pass")
            plain = STAND_PASS
        return legal_actions(out, plain, (discards,) if most else ())

    def why_illegal(self, action: str) -> str:
        seat = self.to_move
        assert seat is not None
        hand = self.hands[seat]
        verb = action.split()[0]
        if self.phase == "play":
            if verb != "play":
                return Reason("exchange_round_over", action=Act(action))
            return why_not_play_text(self.rules, hand, self.trick, action)
        if verb == "play":
            return Reason("exchange_round_first")
        if verb == "pass" and ACE_OF_SPADES in hand:
            return Reason("ace_of_spades_no_pass")
        if verb == "discard":
            cards = [TEXT_CARD[w] for w in action.split()[1:]]
            missing = [c for c in cards if c not in hand]
            if missing:
                return Reason("not_held", cards=Cards(missing))
            if not self.stock:
                return Reason("stock_empty")
            if len(cards) > len(self.stock):
                return Reason("stock_holds_only", n=len(self.stock))
        return Reason("exchange_round_action", action=Act(action))

    def _do(self, action: str) -> None:
        seat = self.to_move
        assert seat is not None
        if self.phase == "play":
            self._play(seat, parse_play(action)[0])
            return
        hand = self.hands[seat]
        words = action.split()
        if words[0] == "discard":
            for w in words[1:]:
                c = TEXT_CARD[w]
                hand.remove(c)
                self.discards[seat].append(c)
            k = len(words) - 1
            hand.extend(self.stock[:k])
            del self.stock[:k]
            hand.sort()
            self.choices[seat] = f"discard {k}"
        elif words[0] == "stand":
            self.choices[seat] = "stand"
        else:
            self.discards[seat].extend(hand)
            hand.clear()
            self.choices[seat] = "pass"
        self.turn += 1
        if self.turn < self.players:
            self.to_move = self.order[self.turn]
        else:
            self._end_exchange()

    def _end_exchange(self) -> None:
        """Judged after the whole round: nobody in is void, one in takes all five tricks."""
        self.in_play = [s for s in self.order if self.choices[s] != "pass"]
        if not self.in_play:
            self._over()
        elif len(self.in_play) == 1:
            self.tricks[self.in_play[0]] = HAND
            self._over()
        else:
            self.phase = "play"
            self.trick = Trick(self.in_play[0])
            self.to_move = self.in_play[0]

    def _play(self, seat: int, c: Card) -> None:
        trick = self.trick
        assert trick is not None
        self.hands[seat].remove(c)
        self.played.add(c)
        self.voids[seat] |= self.rules.reveals(trick.led if trick.cards else None, c)
        self._voids_shown = None
        trick.add(self.rules, seat, c)
        if len(trick) < len(self.in_play):
            i = self.in_play.index(seat)
            self.to_move = self.in_play[(i + 1) % len(self.in_play)]
            return
        winner = trick.winner(self.rules)
        self.tricks[winner] += 1
        self.done.append(trick)
        if not self.hands[winner]:
            self.trick = None
            self._over()
        else:
            self.trick = Trick(winner)
            self.to_move = winner

    def _over(self) -> None:
        self.phase = "over"
        self.is_over = True
        self.to_move = None

    # -------------------------------------------------------------- scoring
    def score_changes(self) -> list[int]:
        """−1 a trick; +5 for a player who stayed in and took none; passers unchanged."""
        out = [0] * self.players
        for s in self.in_play:
            out[s] = -self.tricks[s] if self.tricks[s] else NO_TRICK_PENALTY
        return out

    def payoffs(self) -> list[float]:
        """The deal's change in each count, negated: the count runs down, so a trick is
        +1, staying in without one −5, passing 0."""
        return [-float(d) for d in self.score_changes()]

    def clone(self) -> MushkaDeal:
        """A copy to search on: the lists and tricks copied, the rest shared."""
        new = object.__new__(MushkaDeal)
        new.__dict__.update(self.__dict__)
        new.hands = [list(h) for h in self.hands]
        new.stock = list(self.stock)
        new.discards = [list(d) for d in self.discards]
        new.choices = list(self.choices)
        new.in_play = list(self.in_play)
        new.tricks = list(self.tricks)
        new.done = list(self.done)
        new.played = set(self.played)
        new.voids = [set(v) for v in self.voids]
        if self.trick is not None:
            new.trick = self.trick.copy()
        return new

    @classmethod
    def resume(cls, dealer: int, trump_card: Card, hands: Sequence[Sequence[Card]],
               discards: Sequence[Sequence[Card]], stock: Sequence[Card], phase: str,
               choices: Sequence[str | None], in_play: Sequence[int],
               tricks: Sequence[int], done: Sequence[Trick], trick: Trick | None,
               voids: Sequence[Iterable[int]], to_move: int | None) -> MushkaDeal:
        """A deal as it stands at some moment (a search's sampled deal): every place's
        cards, every exchange choice, the tricks done and the one on the table (copied),
        the voids shown and who is to move. ``in_play`` in any order: they play from the
        dealer's left."""
        n = len(hands)
        st = object.__new__(cls)
        st.players = n
        st.dealer = dealer
        st.trump_card = trump_card
        st.rules = RULES_BY_TRUMP[suit_of(trump_card)]
        st.hands = [sorted(h) for h in hands]
        st.trump_in_stock = False
        st.stock = list(stock)
        st.all_cards = _DECKS[deck_size(n)]
        st.discards = [list(d) for d in discards]
        st.order = [(dealer + 1 + i) % n for i in range(n)]
        st.choices = list(choices)
        st.turn = sum(c is not None for c in choices)
        st.in_play = sorted(in_play, key=lambda s: (s - dealer - 1) % n)
        st.tricks = list(tricks)
        st.done = list(done)
        st.played = {c for t in done for c in t.cards}
        st.phase = phase
        st.trick = None
        if phase == "play":
            st.trick = trick.copy() if trick is not None else Trick(to_move)  # type: ignore[arg-type]
            st.played.update(st.trick.cards)
        st.voids = [set(v) for v in voids]
        st.to_move = to_move
        st.is_over = phase == "over"
        return st

    # ---------------------------------------------------------------- views
    def observation(self, seat: int) -> MushkaView:
        trick = self.trick
        # the fields in MushkaView's order, positionally (the view is made at every step)
        return MushkaView(
            self.phase,                                         # phase
            tuple(self.hands[seat]),                            # hand
            tuple(map(len, self.hands)),                        # hand_sizes
            self.trump_card,                                    # trump_card
            suit_of(self.trump_card),                           # trump
            len(self.stock),                                    # stock
            tuple(self.choices),                                # choices
            tuple(sorted(self.in_play)),                        # in_play
            tuple(self.discards[seat]),                         # my_discards
            trick.plays() if trick is not None else (),         # trick
            self.last_trick_view(),                             # last_trick
            tuple(self.tricks),                                 # tricks
            self.tricks_played(),                               # tricks_played
            self._voids_view(),                                 # voids
        )

    #: the voids as the view shows them (None: made on asking; ``_play`` clears it)
    _voids_shown: tuple[tuple[int, ...], ...] | None = None

    def _voids_view(self) -> tuple[tuple[int, ...], ...]:
        shown = self._voids_shown
        if shown is None:
            shown = self._voids_shown = tuple(tuple(sorted(v)) for v in self.voids)
        return shown

    #: the completed tricks as the view shows them (the list only grows: each trick is
    #: spelt out once), keyed by the list and its last trick; the last trick's view
    _done_shown: tuple[object, object, tuple[Plays, ...]] = (None, None, ())
    _last_shown: tuple[object, LastTrick | None] = (None, None)

    def tricks_played(self) -> tuple[Plays, ...]:
        """The completed tricks as the view shows them (each spelt out once)."""
        done = self.done
        key, last, shown = self._done_shown
        if key is not done or len(shown) > len(done) or (
                shown and done[len(shown) - 1] is not last):
            shown = ()
        if len(shown) < len(done):
            shown += tuple(t.plays() for t in done[len(shown):])
            self._done_shown = (done, done[-1], shown)
        return shown

    def last_trick_view(self) -> LastTrick | None:
        """The last completed trick as the view shows it (made once after each trick)."""
        last = self.done[-1] if self.done else None
        key, shown = self._last_shown
        if key is not last:
            shown = None if last is None else LastTrick(last.plays(),
                                                        last.winner(self.rules))
            self._last_shown = (last, shown)
        return shown

    def card_zones(self) -> dict[str, list[Card]]:
        zones = {f"hand{s}": list(h) for s, h in enumerate(self.hands)}
        zones["stock"] = list(self.stock)
        zones["discards"] = [c for d in self.discards for c in d]
        zones["tricks"] = [c for t in self.done for c in t.cards] + \
            (list(self.trick.cards) if self.trick else [])
        zones["trump_card"] = [self.trump_card]   # turned up, out of play
        return zones

    def hidden_from(self, seat: int) -> set[Card]:
        known = set(self.hands[seat]) | set(self.discards[seat]) | self.played \
            | {self.trump_card}
        return set(self.all_cards - known)


def determinize(obs: Observation, rng: random.Random) -> MushkaDeal:
    """``GameSpec.determinize``: a full deal consistent with what ``obs``'s seat knows."""
    return Sampler(obs).sample(rng)


class Sampler:
    """Deals consistent with one seat's observation, prepared once and drawn many times.

    Known: its own hand and discards, the turned card, every card played (``tricks_played``
    and the current trick), the voids shown, each player's exchange choice (how many he
    discarded and drew) and the stock's size. The cards the seat cannot place are dealt
    among the other hands (never a suit the player has shown he lacks), the other players'
    discards (never the ace of spades in a passed hand: its holder may not pass) and the
    stock (:func:`deal_by_suit`, through the one constrained dealer); the
    state is built as it stands. Which of another player's cards he drew rather than kept
    cannot be told apart, so it is not modelled.
    """

    def __init__(self, obs: Observation) -> None:
        view = obs.deal
        if not isinstance(view, MushkaView) or obs.seat is None:
            raise TypeError("a Mushka seat's observation is needed")
        self.seat = seat = obs.seat
        self.dealer = obs.dealer
        self.to_move = obs.to_move
        self.view = view
        n = len(view.hand_sizes)
        rules = RULES_BY_TRUMP[view.trump]
        self.done = [_trick_of(rules, t) for t in view.tricks_played]
        self.current = _trick_of(rules, view.trick) if view.trick else None
        played = {c for t in view.tricks_played for _, c in t} | {c for _, c in view.trick}
        known = {*view.hand, *view.my_discards, *played, view.trump_card}
        self.unknown = [c for c in deck(deck_size(n)) if c not in known]
        self.others = others = [s for s in range(n) if s != seat]
        self.needs = ([view.hand_sizes[s] for s in others]
                      + [_thrown(view.choices[s]) for s in others] + [view.stock])
        self.voids = [view.voids[s] for s in others] + [()] * (len(others) + 1)
        #: beyond the voids: the holder of the ace of spades may not pass, so a passed
        #: hand (its discards) never held it
        no_ace = frozenset({ACE_OF_SPADES})
        self.extra = [_NOTHING] * len(others) + [
            no_ace if view.choices[s] == "pass" else _NOTHING for s in others] + [_NOTHING]
        #: the one dealer read once, unless a hand is left one suit (then per draw)
        self.dealer_once = None if any(
            VOID_BANS[frozenset(v)][0] is not None and k for v, k in zip(
                self.voids, self.needs, strict=True)) else HiddenDealer(
            self.unknown, self.needs, [VOID_BANS[frozenset(v)][1] | x
                                       for v, x in zip(self.voids, self.extra, strict=True)])

    def sample(self, rng: random.Random) -> MushkaDeal:
        once = self.dealer_once
        dealt = once.deal(rng) if once is not None else \
            deal_by_suit(self.unknown, self.needs, self.voids, rng, self.extra)
        k = len(self.others)
        return self.build({s: dealt[i] for i, s in enumerate(self.others)},
                          {s: dealt[k + i] for i, s in enumerate(self.others)}, dealt[-1])

    def build(self, hands: dict[int, list[Card]], discards: dict[int, list[Card]],
              stock: list[Card]) -> MushkaDeal:
        """The deal with the others' hands and discards and the stock as given."""
        view, seat = self.view, self.seat
        n = len(view.hand_sizes)
        return MushkaDeal.resume(
            self.dealer, view.trump_card,  # type: ignore[arg-type]
            [list(view.hand) if s == seat else hands.get(s, []) for s in range(n)],
            [list(view.my_discards) if s == seat else discards.get(s, []) for s in range(n)],
            stock, view.phase, view.choices, view.in_play, view.tricks, self.done,
            self.current, view.voids, self.to_move)


_NOTHING: frozenset[Card] = frozenset()


def _trick_of(rules: TrickRules, plays: Sequence[tuple[int, Card]]) -> Trick:
    trick = Trick(plays[0][0])
    for s, c in plays:
        trick.add(rules, s, c)
    return trick


def _thrown(choice: str | None) -> int:
    """Cards a player put face down in the exchange: those he discarded, or his hand."""
    if choice is None or choice == "stand":
        return 0
    return HAND if choice == "pass" else int(choice.split()[1])


class MushkaMatch(Match):
    """Scores count down from 25; the match ends after a deal that takes someone to 0."""

    def setup(self) -> None:
        self.scores = [START] * self.players
        self.deal_log: list[dict[str, Any]] = []
        # the draw for the first dealer is made here, so that a replay of a seeded record
        # (which states first_dealer) shows the same draw on the sheet
        self.dealer_draw = (draw_for_first_dealer(self.rng, self.players)
                            if self.rng is not None else None)

    def choose_first_dealer(self, rng: random.Random) -> int:
        if self.dealer_draw is None:
            self.dealer_draw = draw_for_first_dealer(rng, self.players)
        return int(self.dealer_draw["dealer"])

    def deal_cards(self, dealer: int, rng: random.Random) -> Deal:
        cards = list(deck(deck_size(self.players)))
        shuffle(cards, rng)
        hands, rest = deal_round_robin(cards, self.players, dealer, HAND)
        return Deal(dealer, hands, rest[1:], rest[0])

    def start_deal(self, deal: Deal) -> DealState:
        return MushkaDeal(deal)

    def end_deal(self, state: DealState) -> None:
        assert isinstance(state, MushkaDeal)
        changes = state.score_changes()
        for s, d in enumerate(changes):
            self.scores[s] += d
        kind = ("void" if not state.in_play else "alone" if len(state.in_play) == 1
                else "played")
        self.deal_log.append({"dealer": state.dealer, "kind": kind,
                              "choices": list(state.choices), "tricks": list(state.tricks),
                              "changes": changes, "scores": list(self.scores)})

    def next_dealer(self) -> int | None:
        if min(self.scores) <= 0:
            return None
        return (self.deals[-1].dealer + 1) % self.players

    def _public_draw(self) -> dict[str, Any] | None:
        draw = self.dealer_draw
        return draw if draw is not None and draw["dealer"] == self.first_dealer else None

    def final_result(self, capped: bool) -> Result:
        details = {"first_dealer_draw": self._public_draw(), "deals": self.deal_log}
        return Result.of(best_seats(self.scores, higher_is_better=False), self.players,
                         list(self.scores), capped, details)

    def sheet(self) -> MushkaSheet:
        """Scores, and the draw for the first dealer by rank only: the draw used its own
        pack, and its suits (which decide nothing) would read like cards of the deal."""
        shown = self.__dict__.get("_draw_view", False)
        if shown is False:      # the draw never changes: its view is made once
            draw = self._public_draw()
            shown = self._draw_view = None if draw is None else DealerDraw(
                draw["dealer"], tuple(tuple((seat, rank_of(TEXT_CARD[text]))
                                            for seat, text in rnd) for rnd in draw["rounds"]))
        scores = tuple(self.scores)
        sheet: MushkaSheet | None = self.__dict__.get("_sheet")
        if sheet is None or sheet.scores != scores or sheet.deals_played != self.deals_played:
            # the same view until a deal is scored
            sheet = self._sheet = MushkaSheet(scores, shown, self.deals_played)
        return sheet


def _shed_per_deal(match: Match) -> list[float | None]:
    """The count runs down from 25 and lower is better: each seat's count shed per deal."""
    result = match.result
    assert result is not None
    played = max(1, match.deals_played)
    return [(float(START) - float(x)) / played for x in result.scores]


SPECS = [GameSpec(
    name="mushka", family="mushka", variant="classic",
    title_en="Mushka", title_ru="Мушка",
    players=(2, 3, 4, 5, 6), default_players=4, match_class=MushkaMatch,
    summary_en="Five cards, one exchange, five tricks; count down from 25, first to 0 wins.",
    summary_ru="Пять карт, один прикуп, пять взяток; списывают с 25, первый до нуля выигрывает.",
    aliases=("мушка",),
    determinize=determinize,
    terms=TERMS,
    messages=MESSAGES,
    views=VIEWS,
    actions=ActionVocabulary(plain=("stand", "pass"), single=("play",), multi=("discard",)),
    bounds=Bounds(actions_per_deal=100), layout=LAYOUT,
    bots={"heuristic": "koloda.bots.heuristic.mushka:make",
          "search": "koloda.bots.search.games.mushka:MushkaSearch"},
    order=2,
    measure=Measure(_shed_per_deal, "count shed per deal (higher is better)",
                    "count shed/deal", "сброшено за сдачу",
                    note=("count shed/deal: the count of 25 run down per deal (higher is "
                          "better)", "сброшено за сдачу: на сколько за сдачу убавился счёт "
                          "от 25 (больше — лучше)")),
    scores_lower_is_better=True,
)]
