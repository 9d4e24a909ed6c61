"""Kopilka's table: the trick rules handed to the core, the pot, and the face-down offer.

No trumps; AS is the mushka (playable on any trick, wins it at double value) and otherwise
a spade. Who may play which card and who wins a trick go through the shared core
(koloda/tricks.py) with two sets of rules: one for leading (the previous-suit restriction,
AS only as a spade) and one for responding and winning (AS as the mushka).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from koloda.cards import ACE, SPADES, Card, card
from koloda.engine.messages import Reason, Suit
from koloda.games.kopilka.messages import MESSAGES  # noqa: F401 - the sentences used below
from koloda.games.kopilka.views import OfferView
from koloda.tricks import FollowPolicy, Trick, TrickRules

PLAYERS = 4
HAND = 5
DEALS = 4
ACE_OF_SPADES = card(ACE, SPADES)
DEFAULT_VALUES = {"H": 4, "C": 3, "D": 2, "S": 1}


#: the duties by suit, as message-catalog reasons (made once: follow is a hot path)
NO_BANNED_LEAD = tuple(Reason("no_banned_lead", suit=Suit(s)) for s in range(4))
MUST_PLAY_SUIT = tuple(Reason("kopilka_follow", suit=Suit(s)) for s in range(4))


@dataclass(frozen=True)
class KopilkaPolicy(FollowPolicy):
    """Lead: any card but the suit of the previous completed trick (``banned``), unless the
    whole hand is of that suit. Respond: only the led suit (AS is added by the core as the
    mushka); passing and drawing are not plays and are offered by the deal."""

    banned: int | None = None

    def lead(self, rules: TrickRules, hand: Sequence[Card]) -> tuple[list[Card], str]:
        b = self.banned
        if b is None:
            return list(hand), ""
        other = [c for c in hand if rules.suit[c] != b]
        if other and len(other) < len(hand):
            return other, NO_BANNED_LEAD[b]
        return list(hand), ""

    def follow(self, rules: TrickRules, hand: Sequence[Card],
               trick: Trick) -> tuple[list[Card], str]:
        led = trick.led
        assert led is not None
        return rules.holds_suit(hand, led), MUST_PLAY_SUIT[led]


#: responding and winning: AS is the mushka (and a spade by its suit)
PLAY_RULES = TrickRules(None, KopilkaPolicy(), mushka=frozenset({ACE_OF_SPADES}))
#: leading, by the banned suit (None, S, C, D, H): AS is led only as a spade
LEAD_RULES = {b: TrickRules(None, KopilkaPolicy(b)) for b in (None, 0, 1, 2, 3)}


@dataclass
class Purse:
    """The match's money: balances (stakes included) and the pot; every move is logged."""

    balances: list[int]
    pot: int = 0
    log: list[list[Any]] = field(default_factory=list)

    def pay_in(self, seat: int, amount: int, why: str) -> None:
        self.balances[seat] -= amount
        self.pot += amount
        self.log.append([why, seat, -amount])

    def pay_out(self, seat: int, amount: int, why: str) -> int:
        """Pay ``seat`` from the pot, at most what the pot holds; returns what was paid."""
        paid = min(amount, self.pot)
        self.balances[seat] += paid
        self.pot -= paid
        self.log.append([why, seat, paid])
        return paid


@dataclass
class Offer:
    """One player's same-suit cards lying face down, positions in sorted order."""

    offerer: int
    cards: list[Card]
    pickers: list[int]
    taken: list[int | None]
    turn: int = 0
    step: str = "pick"

    def view(self, seat: int) -> OfferView:
        cards = picked = None
        if seat == self.offerer:   # only the owner knows what lies face down
            cards = tuple(self.cards)
        elif seat in self.taken:   # a picker saw the card he took
            pos = self.taken.index(seat)
            picked = (pos, self.cards[pos])
        return OfferView(self.offerer, len(self.cards), tuple(self.taken), cards, picked)
