"""One deal (сдача): the cards as dealt, and the state every game's deal speaks through."""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from koloda.cards import CARD_TEXT, Card
from koloda.engine.actions import Action, canonical
from koloda.engine.errors import IllegalAction
from koloda.engine.messages import Act, Acts, Reason
from koloda.engine.view import View, item


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one deal as dealt (docs/records.md ``deals[i]``): chance lives here."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...] = ()
    trump_card: Card | None = None

    def all_cards(self) -> list[Card]:
        """Every card of the deal: the hands, the stock, and the turned card when it lies
        outside both (Mushka, Stukolka: turned up and out of play)."""
        cards = [c for h in self.hands for c in h]
        cards.extend(self.stock)
        t = self.trump_card
        if t is not None and t not in self.stock and not any(t in h for h in self.hands):
            cards.append(t)
        return cards

    def to_json(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "hands": [[CARD_TEXT[c] for c in h] for h in self.hands],
            "stock": [CARD_TEXT[c] for c in self.stock],
            "trump_card": None if self.trump_card is None else CARD_TEXT[self.trump_card],
        }


def deal_round_robin(cards: list[Card] | tuple[Card, ...], players: int, dealer: int,
                     per_hand: int) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Deal one card at a time from the top, left of the dealer first, dealer last.

    Returns the hands by seat and the undealt rest (top first).
    """
    hands: list[tuple[Card, ...]] = [()] * players
    end = players * per_hand
    for i in range(players):
        # the i-th player from the dealer's left gets every players-th card from the top
        hands[(dealer + 1 + i) % players] = tuple(cards[i:end:players])
    return tuple(hands), tuple(cards[end:])


class DealState(ABC):
    """A deal in progress. Subclasses give the rules; this class gives the one API.

    A subclass implements ``_legal_actions`` (canonical texts), ``_do`` (apply one legal
    canonical action), ``why_illegal`` (the rule an illegal action breaks), ``observation``,
    ``card_zones`` (where every card is, for conservation checks) and ``hidden_from``.
    """

    players: int
    to_move: int | None = None
    is_over: bool = False
    _legal: list[str] | None = None

    def legal_actions(self) -> list[str]:
        legal = self._legal
        if legal is None:
            legal = self._legal = [] if self.is_over else self._legal_actions()
        return legal

    def apply(self, action: str | Action) -> str:
        """Apply an action given as text or object; return its canonical text."""
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        text = action if isinstance(action, str) else str(action)
        if text not in legal:
            if self.is_over:
                raise IllegalAction("deal_over")
            text = canonical(action)
            if text not in legal:
                raise IllegalAction(self.why_illegal(text))
        self._legal = None
        self._do(text)
        return text

    def apply_unchecked(self, action: str) -> None:
        """Apply a canonical action the caller knows is legal (a search's playouts take
        their actions from ``legal_actions()`` or from the rules): no check at all."""
        self._legal = None
        self._do(action)

    def why_illegal(self, action: str) -> str:
        """The reason ``action`` (canonical, not legal) is refused. Override with rules;
        return a :class:`~koloda.engine.messages.Reason` (a ``str`` that a person's
        interface can also say in Russian)."""
        return Reason("not_legal_now", action=Act(action), legal=Acts(self.legal_actions()))

    @abstractmethod
    def _legal_actions(self) -> list[str]: ...

    @abstractmethod
    def _do(self, action: str) -> None: ...

    @abstractmethod
    def observation(self, seat: int) -> View:
        """What ``seat`` may know of this deal: the game's typed view."""

    @abstractmethod
    def card_zones(self) -> dict[str, list[Card]]:
        """Every card of the deal by where it lies; together they are the whole deck."""

    @abstractmethod
    def hidden_from(self, seat: int) -> set[Card]:
        """Cards whose identity ``seat`` could not know at the table now."""

    # ------------------------------------------------------------- for search bots
    def clone(self) -> DealState:
        """An independent copy to search on (games may override with a faster copy)."""
        return copy.deepcopy(self)

    def payoffs(self) -> list[float]:
        """Once the deal is over: what it is worth to each seat, higher is better, on the
        scale of the game's own scoring (a search bot maximises its seat's payoff)."""
        raise NotImplementedError(f"{type(self).__name__} has no payoffs yet")


def not_your_turn(seat: int | None, to_move: int | None) -> str:
    return Reason("not_your_turn", seat=seat, to_move=to_move)


@dataclass(frozen=True)
class AwaitingView(View):
    """A deal whose cards are not given yet."""

    phase: str = item("word", "phase", default="awaiting_deal")


class AwaitingDeal(DealState):
    """No cards yet: the match waits for its next deal to be given (``Match.provide_deal``),
    as a record without a seed does where its deals end, or a caller that deals itself."""

    def __init__(self, players: int, dealer: int) -> None:
        self.players = players
        self.dealer = dealer

    def _legal_actions(self) -> list[str]:
        return []

    def _do(self, action: str) -> None:  # pragma: no cover - nothing is ever legal
        raise IllegalAction("deal_not_dealt")

    def why_illegal(self, action: str) -> str:
        return Reason("deal_not_dealt_by", dealer=self.dealer)

    def observation(self, seat: int) -> View:
        return AwaitingView()

    def card_zones(self) -> dict[str, list[Card]]:
        return {}

    def hidden_from(self, seat: int) -> set[Card]:
        return set()
