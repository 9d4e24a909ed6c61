"""Pyanitsy — War (koloda/rules/pyanitsy.en.md §Precisely). No decisions: every turn is ``flip``.

Nothing is private: every seat (and a spectator) sees the same view — the piles' sizes,
the cards on the table (взятка), the tie (спор) being played out, the last round.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from koloda.cards import ACE, Card, deck, rank_of, shuffle
from koloda.engine import messages, outcome
from koloda.engine.deal import Deal, DealState, deal_round_robin
from koloda.engine.match import Match
from koloda.engine.messages import Act, Either, Reason
from koloda.engine.result import Result, best_seats
from koloda.engine.spec import ActionVocabulary, Bounds, GameSpec, Option, int_range, one_of
from koloda.engine.view import View, item
from koloda.games.pyanitsy.layout import LAYOUT

#: the refusal of Pyanitsy (message key → English, Russian)
MESSAGES: dict[str, tuple[str, str]] = {
    "pyanitsy_action": ("{action} is not an action of Pyanitsy: the only action is 'flip'",
                        "{action} — не ход в пьяницы: в ней только открывают карту (flip)"),
}
# said from the catalog even by a deal built without the registry (the registry adds the
# same sentence again)
messages.register(MESSAGES, "pyanitsy")

#: the Pyanitsy terms the shared vocabulary does not have (the piles, the tie: спор)
TERMS: dict[str, tuple[str, str]] = {
    "pile_sizes": ("pile", "колода"),
    "tie_step": ("tie step", "спор"),
    "tie_steps": ("tie steps", "споры"),
    "starter": ("starts", "начинает"),
    "round_cap": ("round cap", "не больше ходов"),
}
#: the one verb (as pressed, then as a log says it)
VERBS: dict[str, tuple[str, ...]] = {
    "flip": ("turn a card", "открыть карту", "turns a card", "открывает карту"),
}


@dataclass(frozen=True)
class PyanitsyRound(View):
    """A finished round: who took the table, the cards in the order played, the ties."""

    winner: int = item("seat", "winner")
    cards: tuple[tuple[int, Card], ...] = item("plays", "trick")
    #: how many times a tie made the tied players flip again
    tie_steps: int = item("number", "tie_steps")


@dataclass(frozen=True)
class PyanitsyView(View):
    """What every seat sees of a game of Pyanitsy."""

    pile_sizes: tuple[int, ...] = item("per_seat", "pile_sizes")
    #: cards set aside face down (the deck did not divide equally)
    set_aside: int = item("number", "set_aside")
    #: rounds completed
    round: int = item("number", "round")
    starter: int = item("seat", "starter")
    #: the cards of this round (ties included) with who flipped them, in the order played
    table: tuple[tuple[int, Card], ...] = item("plays", "table", role="trick")
    #: 0 for the round's first flips, then one more for each tie (спор) played out
    tie_step: int = item("number", "tie_step")
    last_round: PyanitsyRound | None = item("view", "last_round", role="last_trick")
    #: the seats out of cards (the result's details keep the order they went out in)
    out: tuple[int, ...] = item("seats", "out")


@dataclass(frozen=True)
class PyanitsySheet(View):
    """The score sheet: each pile's cards, and the rounds played."""

    cards: tuple[int, ...] = item("per_seat", "cards")
    round: int = item("number", "round")


@dataclass(frozen=True)
class PyanitsyOutcome(View):
    """How a Pyanitsy match ended, for people: the rounds it took."""

    rounds: int | float | None = item("number", "rounds")

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> PyanitsyOutcome:
        return cls(outcome.number(details.get("rounds")))


class PyanitsyDeal(DealState):
    """The whole game is one deal: piles (top first), rounds, ties."""

    def __init__(self, deal: Deal, end: str, round_cap: int) -> None:
        self.players = len(deal.hands)
        self.piles = [deque(h) for h in deal.hands]
        self.aside = list(deal.stock)
        self.end = end
        self.round_cap = round_cap
        self.total = sum(len(p) for p in self.piles)
        self.rounds = 0
        self.capped = False
        self.starter = deal.dealer
        self.table: list[tuple[int, Card]] = []   # (seat, card) in the order played
        self.step: list[tuple[int, Card]] = []    # cards of the current step (round or tie)
        self.queue: list[int] = []                # who flips next in this step
        self.tie_step = 0                         # 0 = the round's first pass
        self.seen: set[Card] = set()
        #: the last finished round: winner, its (seat, card) plays, tie steps
        self.last_round: tuple[int, list[tuple[int, Card]], int] | None = None
        self.out: list[int] = []
        self._start_round()

    # ------------------------------------------------------------ rounds
    def _in_game(self) -> list[int]:
        return [s for s in range(self.players) if self.piles[s]]

    def _start_round(self) -> None:
        while not self.piles[self.starter]:
            self.starter = (self.starter + 1) % self.players
        n = self.players
        order = [(self.starter + i) % n for i in range(n)]
        self.queue = [s for s in order if self.piles[s]]
        self.step = []
        self.table = []
        self.tie_step = 0
        self.to_move = self.queue[0]

    def _legal_actions(self) -> list[str]:
        return ["flip"]

    def why_illegal(self, action: str) -> str:
        return Reason("pyanitsy_action", action=Act(action))

    def _do(self, action: str) -> None:
        seat = self.queue.pop(0)
        c = self.piles[seat].popleft()
        self.seen.add(c)
        self.table.append((seat, c))
        self.step.append((seat, c))
        if self.queue:
            self.to_move = self.queue[0]
            return
        self._resolve_step()

    def _resolve_step(self) -> None:
        high = max(rank_of(c) for _, c in self.step)
        tied = [s for s, c in self.step if rank_of(c) == high]
        if len(tied) == 1 or high == ACE:
            self._take(tied[0])   # tied aces: the ace played first wins outright
            return
        still = [s for s in tied if self.piles[s]]
        if not still:
            self._take(tied[0])   # nobody tied can go on: the first tied card takes
            return
        self.step = []
        self.tie_step += 1
        self.queue = still
        self.to_move = still[0]

    def _take(self, winner: int) -> None:
        self.piles[winner].extend(c for _, c in self.table)
        # the table list is replaced below, never changed again: the last round keeps it
        self.last_round = (winner, self.table, self.tie_step)
        self.table = []
        self.step = []
        self.rounds += 1
        for s in range(self.players):
            if not self.piles[s] and s not in self.out:
                self.out.append(s)
        alive = self._in_game()
        if len(alive) == 1 or (self.end == "first_elimination" and self.out):
            self._game_over()
            return
        if self.rounds >= self.round_cap:
            self.capped = True
            self._game_over()
            return
        self.starter = (self.starter + 1) % self.players
        self._start_round()

    def _game_over(self) -> None:
        self.is_over = True
        self.to_move = None

    # ---------------------------------------------------------- views
    def observation(self, seat: int) -> PyanitsyView:
        last = self.last_round
        return PyanitsyView(
            pile_sizes=tuple(len(p) for p in self.piles),
            set_aside=len(self.aside),
            round=self.rounds,
            starter=self.starter,
            table=tuple(self.table),
            tie_step=self.tie_step,
            last_round=None if last is None else PyanitsyRound(last[0], tuple(last[1]),
                                                               last[2]),
            out=tuple(sorted(self.out)),
        )

    def card_zones(self) -> dict[str, list[Card]]:
        zones = {f"pile{s}": list(p) for s, p in enumerate(self.piles)}
        zones["table"] = [c for _, c in self.table]
        zones["set_aside"] = list(self.aside)
        return zones

    def hidden_from(self, seat: int) -> set[Card]:
        face_down = {c for p in self.piles for c in p if c not in self.seen}
        return face_down | set(self.aside)


class PyanitsyMatch(Match):
    def deal_cards(self, dealer: int, rng: random.Random) -> Deal:
        cards = list(deck(self.options["deck"]))
        shuffle(cards, rng)
        per = len(cards) // self.players
        hands, rest = deal_round_robin(cards, self.players, dealer, per)
        return Deal(dealer, hands, rest, None)

    def choose_first_dealer(self, rng: random.Random) -> int:
        return rng.randrange(self.players)

    def start_deal(self, deal: Deal) -> DealState:
        return PyanitsyDeal(deal, self.options["end"], self.options["round_cap"])

    def end_deal(self, state: DealState) -> None:
        assert isinstance(state, PyanitsyDeal)
        self.final = state

    def next_dealer(self) -> int | None:
        return None

    def final_result(self, capped: bool) -> Result:
        st = self.final
        counts = [len(p) for p in st.piles]
        details = {"rounds": st.rounds, "out": st.out}
        if st.capped:
            return Result.of([], self.players, counts, True, details | {"draw": "round cap"})
        return Result.of(best_seats(counts), self.players, counts, capped, details)

    def sheet(self) -> PyanitsySheet:
        st = self.current
        assert isinstance(st, PyanitsyDeal)
        return PyanitsySheet(cards=tuple(len(p) for p in st.piles), round=st.rounds)


def _deck_check(value: Any, players: int) -> str | None:
    if value not in (36, 52):
        return Reason("must_be_either", values=Either((36, 52)))
    return None


SPECS = [GameSpec(
    name="pyanitsy", family="pyanitsy", variant="classic",
    title_en="Pyanitsy (War)", title_ru="Пьяницы",
    players=(2, 3, 4, 5, 6), default_players=2, match_class=PyanitsyMatch,
    options=(
        Option("deck", lambda n: 36 if n == 2 else 52, "36 or 52",
               "cards in the deck (36 for two players, else 52)",
               "колода (36 карт для двоих, иначе 52)", _deck_check),
        Option("end", "all", "\"all\" or \"first_elimination\"",
               "all: play until one player holds every card; first_elimination: stop at the "
               "first player out, most cards wins",
               "all: пока у одного не окажутся все карты; first_elimination: до первого "
               "выбывшего, побеждает тот, у кого больше карт", one_of("all", "first_elimination"),
               kind=str),
        Option("round_cap", 10000, "a whole number ≥ 1",
               "a game longer than this many rounds is a draw",
               "игра длиннее стольких ходов — ничья", int_range(1)),
    ),
    summary_en="Flip the top card; the highest takes the table; a tie flips again.",
    summary_ru="Открывают верхнюю карту; старшая забирает взятку; при равенстве — ещё карта.",
    aliases=("war", "пьяницы"),
    actions=ActionVocabulary(plain=("flip",)),
    # a round takes at most 52 flips (ties flip again)
    bounds=Bounds(actions_per_deal=lambda options: options["round_cap"] * 52),
    layout=LAYOUT, order=7,
    messages=MESSAGES, terms=TERMS, verbs=VERBS,
    views=(PyanitsyView, PyanitsyRound, PyanitsySheet, PyanitsyOutcome),
    outcome=PyanitsyOutcome.from_details,
)]
