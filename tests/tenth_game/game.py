"""Dyuzhina (a dozen): Q K A of each suit, six cards each; the non-dealer leads, follow suit if you
can, the highest card of the suit led takes the trick, its taker leads next. More tricks
wins the deal (3–3: nobody); the first to win ``target`` deals wins the match."""

from __future__ import annotations

import random
from dataclasses import dataclass

from koloda.cards import ACE, KING, QUEEN, Card, card, shuffle
from koloda.engine.deal import Deal, DealState, deal_round_robin
from koloda.engine.layout import Cards, PerSeat, Seat, SeatCards, last_trick
from koloda.engine.match import Match
from koloda.engine.result import Result
from koloda.engine.spec import ActionVocabulary, Bounds, GameSpec, Option, int_range
from koloda.engine.view import View, item
from koloda.tricks import FollowElseAny, Trick, TrickRules, parse_play, play_to_trick

DECK: tuple[Card, ...] = tuple(card(r, s) for s in range(4) for r in (QUEEN, KING, ACE))
RULES = TrickRules(None, FollowElseAny())
Plays = tuple[tuple[int, Card], ...]


@dataclass(frozen=True)
class LastTrick(View):
    cards: Plays = item("plays", "trick")
    winner: int = item("seat", "taker")


@dataclass(frozen=True)
class DozenView(View):
    hand: tuple[Card, ...] = item("cards", "hand", private=True, role="hand")
    hand_sizes: tuple[int, ...] = item("per_seat", "hand_sizes")
    leader: int = item("seat", "leader")
    trick: Plays = item("plays", "trick", role="trick")
    tricks: tuple[int, ...] = item("per_seat", "tricks")
    last_trick: LastTrick | None = item("view", "last_trick", role="last_trick")
    gone: tuple[Card, ...] = item("cards", "gone")


@dataclass(frozen=True)
class DozenSheet(View):
    wins: tuple[int, ...] = item("per_seat", "deals_won")
    target: int = item("number", "target")


class DozenDeal(DealState):
    def __init__(self, deal: Deal) -> None:
        self.players, self.dealer = 2, deal.dealer
        self.hands = [sorted(h) for h in deal.hands]
        self.taken: list[list[Card]] = [[], []]
        self.tricks = [0, 0]
        self.trick = Trick(1 - deal.dealer)
        self.to_move = self.trick.leader
        self.last: LastTrick | None = None

    def _legal_actions(self) -> list[str]:
        return RULES.plays(self.hands[self.to_move], self.trick)  # type: ignore[index]

    def _do(self, action: str) -> None:
        seat = self.to_move
        assert seat is not None
        done = play_to_trick(self, RULES, seat, parse_play(action)[0], 2, 1 - seat)
        if done is not None:
            self.last = LastTrick(tuple(zip(done[0].seats, done[0].cards, strict=True)),
                                  done[1])

    def observation(self, seat: int) -> DozenView:
        return DozenView(tuple(self.hands[seat]), tuple(len(h) for h in self.hands),
                          self.trick.leader,
                          tuple(zip(self.trick.seats, self.trick.cards, strict=True)),
                          tuple(self.tricks), self.last,
                          tuple(sorted(c for t in self.taken for c in t)))

    def card_zones(self) -> dict[str, list[Card]]:
        return {"hand0": self.hands[0], "hand1": self.hands[1], "trick": self.trick.cards,
                "taken0": self.taken[0], "taken1": self.taken[1]}

    def hidden_from(self, seat: int) -> set[Card]:
        return set(self.hands[1 - seat])

    def payoffs(self) -> list[float]:
        return [float(self.tricks[0] - self.tricks[1]), float(self.tricks[1] - self.tricks[0])]


class DozenMatch(Match):
    def setup(self) -> None:
        self.wins = [0, 0]

    def deal_cards(self, dealer: int, rng: random.Random) -> Deal:
        cards = list(DECK)
        shuffle(cards, rng)
        return Deal(dealer, deal_round_robin(cards, 2, dealer, 6)[0])

    def start_deal(self, deal: Deal) -> DealState:
        return DozenDeal(deal)

    def end_deal(self, state: DealState) -> None:
        assert isinstance(state, DozenDeal)
        a, b = state.tricks
        if a != b:
            self.wins[0 if a > b else 1] += 1

    def next_dealer(self) -> int | None:
        if max(self.wins) >= self.options["target"]:
            return None
        return 1 - self.deals[-1].dealer

    def final_result(self, capped: bool) -> Result:
        a, b = self.wins
        return Result.of([] if a == b else [0 if a > b else 1], 2, self.wins, capped)

    def sheet(self) -> DozenSheet:
        return DozenSheet(tuple(self.wins), self.options["target"])


SPEC = GameSpec(
    name="dyuzhina", family="dyuzhina", variant="classic",
    title_en="Dyuzhina (a dozen)", title_ru="Дюжина", players=(2,), default_players=2,
    match_class=DozenMatch, max_deals_default=9,
    options=(Option("target", 2, "a whole number ≥ 1", "deals to win the match",
                    "сколько сдач выиграть, чтобы выиграть партию", int_range(1)),),
    summary_en="Twelve cards, six tricks: follow suit, the highest card of the suit led wins.",
    summary_ru="Двенадцать карт, шесть взяток: ходят в масть, старшая карта масти берёт.",
    terms={"taker": ("took it", "взял"), "gone": ("gone", "вышли"),
           "deals_won": ("deals won", "выиграно сдач"), "target": ("deals to win",
                                                                    "сдач до победы")},
    views=(DozenView, DozenSheet, LastTrick),
    actions=ActionVocabulary(single=("play",)),
    bounds=Bounds(actions_per_deal=12),
    layout=(Cards("hand", "hand", "the observer's hand"),
            PerSeat("hand_sizes", "hand_sizes", "cards in each hand / 6", scale=1 / 6),
            Seat("leader", "leader", "who leads (led) the current trick"),
            SeatCards("trick", "trick", "the current trick, by seat"),
            PerSeat("tricks", "tricks", "tricks taken / 6", scale=1 / 6),
            *last_trick(),
            Cards("gone", "gone", "cards of finished tricks"),
            PerSeat("wins", "sheet.wins", "deals won / 9", scale=1 / 9)),
    bots={"heuristic": "tests.tenth_game.bot:make"},
)
