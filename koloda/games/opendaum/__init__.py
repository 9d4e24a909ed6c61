"""Opendaum (Опендаум), koloda/rules/opendaum.en.md §Precisely: the classic game, two shakhi, three
with 33 cards."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from koloda.engine import messages
from koloda.engine.match import Match
from koloda.engine.messages import Either, Reason
from koloda.engine.spec import ActionVocabulary, Bounds, Column, GameSpec, Measure, Option
from koloda.games.opendaum.deal import OpendaumDeal
from koloda.games.opendaum.determinize import determinizer
from koloda.games.opendaum.layout import LAYOUT, SHAKHI_LAYOUT
from koloda.games.opendaum.match import (
    CLASSIC,
    SHAKHI,
    THIRTY_THREE,
    ClassicMatch,
    OpendaumMatch,
    ShakhiMatch,
    ThirtyThreeMatch,
    Variant,
    deal_points,
    schedule,
)
from koloda.games.opendaum.views import VIEWS, OpendaumOutcome, OpendaumSheet, OpendaumView
from koloda.games.opendaum.words import MESSAGES, TERMS, VERBS

# the registry adds every spec's sentences to the catalog when it loads; a deal built
# directly (a test's position, a script) refuses in these words before it has
messages.register(MESSAGES, "opendaum")


def _deck_check(value: Any, players: int) -> str | None:
    allowed = (32, 36) if players == 4 else (CLASSIC.decks[players],)
    if value not in allowed:
        return Reason("deck_for_players", players=players, decks=Either(allowed))
    return None


def _start_option(variant: Variant) -> Option:
    def check(value: Any, players: int) -> str | None:
        size = max(variant.decks[players], 36 if variant is CLASSIC and players == 4 else 0)
        last = len(schedule(size // players, players)) - 1
        return None if 0 <= value <= last else Reason("must_be_range", lo=0, hi=last)
    return Option("start_deal", 0, "0 .. the number of deals in the schedule − 1",
                  "begin the match at this position of the deal schedule (0 = the first "
                  "deal, one card each); for practice and benchmarks",
                  "начать партию с этой сдачи расписания (0 — первая, по одной карте); для "
                  "тренировки и замеров скорости", check)


_deck: Callable[[int], int] = CLASSIC.decks.__getitem__

#: bid 0..18: the largest hand is 34 / 2 = 17 cards
_BIDS = (("bid", 18),)
_BOUNDS = Bounds(actions_per_deal=100)
_BOTS = {"heuristic": "koloda.bots.heuristic.opendaum:make",
         "search": "koloda.bots.search.games.opendaum:OpendaumSearch"}

def _bids_made(match: Match) -> list[float | None]:
    """Each seat's share of deals whose bid it made exactly."""
    result = match.result
    assert result is not None
    deals = result.details.get("deals", [])
    made = [0] * match.players
    for d in deals:
        for s in range(match.players):
            if d["bids"][s] == d["tricks"][s]:
                made[s] += 1
    return [m / len(deals) if deals else None for m in made]


#: the arena measures a seat by the bids it made, beside its points per deal
_MEASURE = Measure(_bids_made, "bid made (share of deals)", "bids made", "заказ сыгран",
                   rate=True, extra=(Column("per_deal", "points/deal", "очки за сдачу", False),),
                   note=("bids made: the share of deals whose bid was made",
                         "заказ сыгран: доля сдач, в которых взято ровно заказанное"))


def _moves_ranks(options: Any, capped: bool) -> bool:
    """A whole match moves ranks (koloda/rules/opendaum.en.md §Precisely 27): not stopped by
    the max_deals cap, not begun part-way through the schedule (start_deal, for practice)."""
    return not capped and not options.get("start_deal", 0)


SPECS = [
    GameSpec(
        name="opendaum", family="opendaum", variant="classic",
        title_en="Opendaum", title_ru="Опендаум",
        players=(2, 3, 4, 5, 6), default_players=4, match_class=ClassicMatch,
        options=(
            Option("deck", _deck, "32 (2 players), 36 (3), 32 or 36 (4), 30 (5), 36 (6)",
                   "cards in the deck; only four players may choose 32 instead of 36",
                   "колода; выбор есть только вчетвером: 32 или 36 листов", _deck_check),
            _start_option(CLASSIC),
        ),
        summary_en="Bid your tricks exactly: 5 × bid + 5 for the truth, else 1 a trick; "
                   "hands grow from one card to the whole deck and back.",
        summary_ru="Закажи точное число взяток: 5 × заказ + 5 «за правду», иначе очко за "
                   "взятку; сдачи растут от одной карты до всей колоды и обратно.",
        aliases=("опендаум", "opendaum-classic"),
        determinize=determinizer(CLASSIC),
        actions=ActionVocabulary(numbers=_BIDS, single=("play",)),
        bounds=_BOUNDS, layout=LAYOUT, bots=_BOTS, order=1,
        views=VIEWS, terms=TERMS, verbs=VERBS, messages=MESSAGES,
        outcome=OpendaumOutcome.from_details,
        measure=_MEASURE,
    ),
    GameSpec(
        name="opendaum-shakhi", family="opendaum", variant="shakhi",
        title_en="Opendaum with two shakhi", title_ru="Опендаум с двумя шахами",
        players=(2, 3, 4, 5, 6), default_players=4, match_class=ShakhiMatch,
        options=(
            Option("ruff_only_when_only_trumps", True, "true or false",
                   "void in the led suit, you may trump only when you hold nothing but "
                   "trumps (false: void, you must trump as in the classic game)",
                   "при отсутствии масти козырем бить можно, только когда нет некозырных "
                   "карт (нет: как в классике — обязательно козырем)", kind=bool),
            _start_option(SHAKHI),
        ),
        summary_en="Opendaum where 6S and 6C are shakhi: always playable, wild (beats "
                   "everything) or plain; no trump lead while holding other cards.",
        summary_ru="Опендаум, где 6♠ и 6♣ — шахи: ходят всегда, бьют всё или «за простую»; "
                   "с козыря не ходят, пока есть некозырные.",
        aliases=("опендаум-шахи",),
        determinize=determinizer(SHAKHI),
        actions=ActionVocabulary(numbers=_BIDS, single=("play",), wild_cards=("6S", "6C")),
        bounds=_BOUNDS, layout=SHAKHI_LAYOUT, bots=_BOTS, order=1,
        views=VIEWS, terms=TERMS, verbs=VERBS, messages=MESSAGES,
        outcome=OpendaumOutcome.from_details,
        measure=_MEASURE,
    ),
    GameSpec(
        name="opendaum-33", family="opendaum", variant="33",
        title_en="Opendaum for three, 33 cards", title_ru="Опендаум втроём, 33 листа",
        players=(3,), default_players=3, match_class=ThirtyThreeMatch,
        options=(
            Option("last_deal_penalty", False, "true or false",
                   "in the final deal a missed bid costs 10 for each trick bid but not taken "
                   "(false: 1 point a trick as usual)",
                   "в последней сдаче за каждую заказанную и не взятую взятку −10 "
                   "(нет: как обычно, очко за взятку)", kind=bool),
            _start_option(THIRTY_THREE),
        ),
        summary_en="Three players, 33 cards, 6C the only shakha; the dealer may not make the "
                   "bids add up to the cards dealt; ranks from эмбрион to чемпион.",
        summary_ru="Трое, 33 листа, шаха — 6♣; сдающий не может заказать так, чтобы сумма "
                   "заказов равнялась числу карт; разряды от эмбриона до чемпиона.",
        aliases=("опендаум-33",),
        determinize=determinizer(THIRTY_THREE),
        actions=ActionVocabulary(numbers=_BIDS, single=("play",), wild_cards=("6C",)),
        bounds=_BOUNDS, layout=SHAKHI_LAYOUT, bots=_BOTS, order=1,
        views=VIEWS, terms=TERMS, verbs=VERBS, messages=MESSAGES,
        outcome=OpendaumOutcome.from_details,
        measure=_MEASURE, moves_ranks=_moves_ranks,
    ),
]

__all__ = ["CLASSIC", "MESSAGES", "SHAKHI", "SPECS", "TERMS", "THIRTY_THREE", "VIEWS",
           "OpendaumDeal", "OpendaumMatch", "OpendaumSheet", "OpendaumView", "Variant",
           "deal_points", "schedule"]
