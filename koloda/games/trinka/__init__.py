"""Trinka (Тринька) — koloda/rules/trinka.en.md §Precisely: two pairs, clubs and every jack are
trumps.

The whole game is trick data: each jack *counts as* a club and Trinka's own trump order is a
power table, so the shared trick core needs no special case (a jack led is a trump lead, J♠
does not follow spades). The match writes the pairs' records down until one is written off.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from koloda.cards import (
    CLUBS,
    JACK,
    Card,
    deck,
    parse_cards,
    rank_of,
    shuffle,
    suit_of,
)
from koloda.engine.actions import Action
from koloda.engine.deal import Deal, DealState, deal_round_robin
from koloda.engine.match import Match
from koloda.engine.messages import Act, Reason
from koloda.engine.result import Result
from koloda.engine.spec import ActionVocabulary, Bounds, GameSpec, Option, int_range
from koloda.engine.view import Observation
from koloda.games._hidden import deal_hidden
from koloda.games.trinka.layout import LAYOUT, STATE_FIELDS
from koloda.games.trinka.messages import MESSAGES
from koloda.games.trinka.views import (
    PAIRS,
    TERMS,
    VIEWS,
    DealScore,
    TrickTaken,
    TrinkaOutcome,
    TrinkaSheet,
    TrinkaView,
)
from koloda.tricks import (
    PLAY_TEXT,
    FollowElseAny,
    Trick,
    TrickRules,
    parse_play,
    play_to_trick,
    why_not_play_text,
)

#: the twelve trumps, highest first (koloda/rules/trinka.en.md §Precisely)
TRUMP_ORDER: tuple[Card, ...] = tuple(parse_cards("6C JC JS JH JD AC KC QC TC 9C 8C 7C"))


def _suit_table() -> tuple[int, ...]:
    """Every jack counts as a club (= a trump); other cards keep their suit."""
    return tuple(CLUBS if rank_of(c) == JACK else suit_of(c) for c in range(52))


def _power_table() -> tuple[int, ...]:
    """Plain suits keep the rank order; trumps follow TRUMP_ORDER (only compared inside a
    suit, so the two scales never meet)."""
    power = [rank_of(c) for c in range(52)]
    for i, c in enumerate(TRUMP_ORDER):
        power[c] = len(TRUMP_ORDER) - i
    return tuple(power)


RULES = TrickRules(CLUBS, FollowElseAny(), suit=_suit_table(), power=_power_table())
TRICKS = 9
DECK: tuple[Card, ...] = tuple(deck(36))
#: every card that counts as suit s (0..3; clubs = the trumps, every jack included), for a
#: known void
CARDS_OF: tuple[frozenset[Card], ...] = tuple(
    frozenset(c for c in DECK if RULES.suit[c] == s) for s in range(4))
#: the trumps in words (the observation's ``trumps``)
TRUMPS_WORD = "all clubs and all jacks"


def pair_of(seat: int) -> int:
    """Pair 0 = seats 0 and 2, pair 1 = seats 1 and 3."""
    return seat % 2


class TrinkaDeal(DealState):
    """Nine tricks, left of the dealer leads, the winner leads next."""

    #: how the fast tensor path reads this observation's fields off the state
    #: (koloda/games/trinka/layout.py)
    tensor_fields: ClassVar[Mapping[str, str]] = STATE_FIELDS

    def __init__(self, deal: Deal) -> None:
        self.players = 4
        self.dealer = deal.dealer
        self.hands: list[list[Card]] = [sorted(h) for h in deal.hands]  # card order
        self.taken: list[list[Card]] = [[] for _ in range(4)]
        self.tricks = [0, 0, 0, 0]
        self.trick = Trick((deal.dealer + 1) % 4)
        self.last_trick: TrickTaken | None = None
        #: every finished trick in order, as the table saw it
        self.history: list[TrickTaken] = []
        #: per seat, the suits it has shown it lacks (it did not follow them): public
        self.voids: list[set[int]] = [set() for _ in range(4)]
        self.to_move = self.trick.leader

    def pair_tricks(self) -> tuple[int, int]:
        return self.tricks[0] + self.tricks[2], self.tricks[1] + self.tricks[3]

    def _legal_actions(self) -> list[str]:
        return RULES.plays(self.hands[self.to_move], self.trick)  # type: ignore[index]

    def why_illegal(self, action: str) -> str:
        if Action.parse(action).verb != "play":
            return Reason("trinka_action", action=Act(action))
        return why_not_play_text(RULES, self.hands[self.to_move],  # type: ignore[index]
                                 self.trick, action)

    def _do(self, action: str) -> None:
        seat = self.to_move
        assert seat is not None
        c, _ = parse_play(action)
        self.voids[seat] |= RULES.reveals(self.trick.led, c)
        done = play_to_trick(self, RULES, seat, c, 4, (seat + 1) % 4)
        if done is not None:
            t = done[0]
            self.last_trick = TrickTaken.of(t, done[1])
            self.history.append(self.last_trick)

    def observation(self, seat: int) -> TrinkaView:
        t = self.trick
        pairs = self.pair_tricks()
        return TrinkaView(
            hand=tuple(sorted(self.hands[seat])),
            hand_sizes=tuple(len(h) for h in self.hands),
            trumps=TRUMPS_WORD,
            trick=tuple(zip(t.seats, t.cards, strict=True)),
            leader=t.leader,
            tricks=tuple(self.tricks),
            pair_tricks=pairs,
            last_trick=self.last_trick,
            tricks_played=tuple(self.history),
            voids=tuple(tuple(sorted(vs)) for vs in self.voids),
            pair_tricks_by_seat=tuple(pairs[pair_of(s)] for s in range(4)),
        )

    def card_zones(self) -> dict[str, list[Card]]:
        zones = {f"hand{s}": list(h) for s, h in enumerate(self.hands)}
        zones.update({f"taken{s}": list(t) for s, t in enumerate(self.taken)})
        zones["trick"] = list(self.trick.cards)
        return zones

    def hidden_from(self, seat: int) -> set[Card]:
        return {c for s, h in enumerate(self.hands) if s != seat for c in h}

    def payoffs(self) -> list[float]:
        """Points the seat's pair writes off minus what the other pair writes off (writing
        off is the gain: the first pair to write off its record wins); taking all nine
        costs the taking pair ``ALL_NINE`` — the match at double stake."""
        a, b = self.pair_tricks()
        kind, pair, points = deal_outcome(a, b)
        if pair is None:
            return [0.0] * 4
        gain = [0.0, 0.0]
        if kind == "all_nine":
            gain[pair], gain[1 - pair] = -ALL_NINE, ALL_NINE
        else:
            gain[pair], gain[1 - pair] = points, -points
        return [gain[pair_of(s)] for s in range(4)]


#: the payoff of a 9–0 deal: twice the default record, the match lost at double stake
ALL_NINE = 24.0


def determinize(obs: Observation, rng: random.Random) -> TrinkaDeal:
    """A full deal consistent with what one seat saw: its own hand, every card played
    (``tricks_played`` and the current trick) and the voids shown; the other three hands
    are dealt from the unseen cards, then the deal is replayed to the present."""
    view = obs.deal
    assert isinstance(view, TrinkaView) and obs.seat is not None and obs.dealer is not None
    seat, dealer = obs.seat, obs.dealer
    mine = list(view.hand)
    plays = [p for tr in view.tricks_played for p in tr.cards]
    plays += view.trick
    seen = set(mine).union(c for _, c in plays)
    others = [s for s in range(4) if s != seat]
    banned = [frozenset().union(*(CARDS_OF[v] for v in view.voids[s])) for s in others]
    dealt = deal_hidden([c for c in DECK if c not in seen],
                        [view.hand_sizes[s] for s in others], banned, rng)
    hands: list[list[Card]] = [mine if s == seat else [] for s in range(4)]
    for s, h in zip(others, dealt, strict=True):
        hands[s] = h
    for s, c in plays:                  # the hands as dealt
        hands[s].append(c)
    st = TrinkaDeal(Deal(dealer, tuple(tuple(h) for h in hands)))
    for _, c in plays:
        st.apply_unchecked(PLAY_TEXT[c])
    return st


def deal_outcome(a: int, b: int) -> tuple[str, int | None, int]:
    """The deal's result by pair tricks (a for pair 0, b for pair 1): (kind, pair, points).

    kind is ``rozhok`` (8–1: the pair with one trick writes off 1), ``trinka`` (6–3: the
    pair with three writes off 3), ``draw`` (7–2, 5–4) or ``all_nine`` (9–0: the pair that
    took all nine loses the match at double stake); ``pair`` is the pair concerned.
    """
    low = min(a, b)
    low_pair = 0 if a == low else 1
    if low == 0:
        return "all_nine", 1 - low_pair, 0
    if low == 1:
        return "rozhok", low_pair, 1
    if low == 3:
        return "trinka", low_pair, 3
    return "draw", None, 0


class TrinkaMatch(Match):
    def setup(self) -> None:
        self.records = [self.options["record"], self.options["record"]]
        self.history_sheet: list[dict[str, Any]] = []
        self.winner_pair: int | None = None
        self.stake = 1
        self.how = ""

    def deal_cards(self, dealer: int, rng: random.Random) -> Deal:
        cards = list(deck(36))
        shuffle(cards, rng)
        hands, rest = deal_round_robin(cards, 4, dealer, TRICKS)
        return Deal(dealer, hands, rest, None)

    def start_deal(self, deal: Deal) -> DealState:
        return TrinkaDeal(deal)

    def end_deal(self, state: DealState) -> None:
        assert isinstance(state, TrinkaDeal)
        a, b = state.pair_tricks()
        kind, pair, points = deal_outcome(a, b)
        if kind == "all_nine":
            assert pair is not None
            self.winner_pair, self.stake, self.how = 1 - pair, 2, "all_nine"
        elif pair is not None:
            self.records[pair] -= points
            if self.records[pair] <= 0:
                self.winner_pair, self.stake, self.how = pair, 1, "record_written_off"
        self.history_sheet.append({"dealer": state.dealer, "pair_tricks": [a, b],
                                   "outcome": kind, "pair": pair, "points": points,
                                   "records": list(self.records)})

    def next_dealer(self) -> int | None:
        if self.winner_pair is not None:
            return None
        return (self.deals[-1].dealer + 1) % 4

    def final_result(self, capped: bool) -> Result:
        details: dict[str, Any] = {"records": list(self.records), "deals": self.history_sheet}
        win = self.winner_pair
        if capped or (win is None and self.single_deal):
            # standings as they are (capped, or a single deal played on its own): the pair
            # with less left to write off wins single stake
            r0, r1 = self.records
            win = None if r0 == r1 else (0 if r0 < r1 else 1)
            self.stake, self.how = ((0, "draw") if win is None
                                    else (1, "capped" if capped else "single_deal"))
        details |= {"stake": self.stake, "how": self.how}
        if win is None:
            # capped with the records level: the standings are a tie, and ties share —
            # every seat of both pairs wins (koloda/rules/conventions.en.md §Precisely 11);
            # a single deal that writes nothing off is a draw
            return Result.of(range(4) if capped else [], 4, [0, 0, 0, 0], capped, details)
        scores = [self.stake if pair_of(s) == win else -self.stake for s in range(4)]
        return Result.of([win, win + 2], 4, scores, capped, details)

    def sheet(self) -> TrinkaSheet:
        last = None
        if self.history_sheet:
            d = self.history_sheet[-1]
            pair = d["pair"]
            last = DealScore(d["dealer"], tuple(d["pair_tricks"]), d["outcome"], pair,
                             d["points"], tuple(d["records"]),
                             PAIRS[pair] if pair is not None else (),
                             tuple(d["records"][pair_of(s)] for s in range(4)))
        return TrinkaSheet(tuple(self.records), PAIRS, last,
                           tuple(self.records[pair_of(s)] for s in range(4)))


SPECS = [GameSpec(
    name="trinka", family="trinka", variant="classic",
    title_en="Trinka", title_ru="Тринька",
    players=(4,), default_players=4, match_class=TrinkaMatch,
    views=VIEWS, outcome=TrinkaOutcome.from_details, terms=TERMS, messages=MESSAGES,
    options=(
        Option("record", 12, "a whole number ≥ 1",
               "the points each pair must write off to win",
               "запись: сколько очков каждая пара должна списать, чтобы выиграть",
               int_range(1)),
    ),
    summary_en="Two pairs; clubs and all jacks are trumps, 6♣ highest. One trick (rozhok) "
               "costs 1, three (trinka) cost 3; taking all nine loses double.",
    summary_ru="Двое на двое; козыри — трефы и все валеты, старшая 6♣. «Рожок» — 1 очко, "
               "«тринька» — 3; взявшие все девять проигрывают вдвойне.",
    aliases=("тринька",),
    determinize=determinize,
    actions=ActionVocabulary(single=("play",)),
    bounds=Bounds(actions_per_deal=50), layout=LAYOUT,
    bots={"heuristic": "koloda.bots.heuristic.trinka:make",
          "search": "koloda.bots.search.games.trinka:TrinkaSearch"},
    order=5,
)]

