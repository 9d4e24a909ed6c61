"""Dyuzhina with folding: the seat to lead a deal's first trick may ``fold`` instead, giving
the other seat every trick of that deal. It declares, on its spec alone, a verb the engine
does not know (``fold``), the arena's measure of it (the share of deals a seat folded) and
that its matches move ranks; the parser, the arena and the store read them from there."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from koloda.engine.deal import Deal, DealState
from koloda.engine.match import Match
from koloda.engine.spec import ActionVocabulary, Column, Measure
from tests.tenth_game.game import SPEC, DozenDeal, DozenMatch


class FoldDeal(DozenDeal):
    def __init__(self, deal: Deal) -> None:
        super().__init__(deal)
        self.folded: int | None = None

    def _legal_actions(self) -> list[str]:
        plays = super()._legal_actions()
        first = not self.trick.cards and sum(self.tricks) == 0
        return [*plays, "fold"] if first else plays

    def _do(self, action: str) -> None:
        if action != "fold":
            super()._do(action)
            return
        seat = self.to_move
        assert seat is not None
        self.folded = seat
        self.tricks[1 - seat] = len(self.hands[seat])
        self.hands = [[], []]
        self.to_move, self.is_over = None, True


class FoldMatch(DozenMatch):
    def setup(self) -> None:
        super().setup()
        self.folds = [0, 0]

    def start_deal(self, deal: Deal) -> DealState:
        return FoldDeal(deal)

    def end_deal(self, state: DealState) -> None:
        assert isinstance(state, FoldDeal)
        if state.folded is not None:
            self.folds[state.folded] += 1
        super().end_deal(state)


def folded(match: Match) -> list[float | None]:
    """Each seat's share of the deals it folded."""
    assert isinstance(match, FoldMatch)
    played = max(1, match.deals_played)
    return [f / played for f in match.folds]


def _moves_ranks(options: Mapping[str, Any], capped: bool) -> bool:
    return not capped


FOLD_SPEC = dataclasses.replace(
    SPEC, name="dyuzhina-fold", variant="fold", family="dyuzhina-fold",
    title_en="Dyuzhina with folding", title_ru="Дюжина, можно сдаться",
    match_class=FoldMatch,
    actions=ActionVocabulary(plain=("fold",), single=("play",)),
    verbs={"fold": ("fold", "сдаться", "folds", "сдаётся")},
    measure=Measure(folded, "deals folded (share of deals)", "folded", "сдался", rate=True,
                    extra=(Column("per_deal", "deals won/deal", "выиграно за сдачу", False),)),
    moves_ranks=_moves_ranks, bots={})
