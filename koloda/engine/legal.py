"""A legal list that also says how its multi-card actions are made (standard library).

A multi-card action (Durak ``attack``/``throw``/``transfer``, Mushka's and Dreyfus's
``discard``) is always some set of 1..``most`` cards out of a pool the rules name — the
cards of one rank, the cards whose ranks lie on the table, the hand. A game whose legal
list holds such actions returns a :class:`LegalActions`: the same list of canonical texts
(in the game's own order, what every caller reads), and beside it the texts that are
*not* multi-card sets (``plain``) and the pools (``subsets``) the others are made of. The
research adapters read the pools to mask a select/confirm choice in a few steps per card
instead of parsing thousands of texts (koloda.envs.actions); nothing else needs them.

``CardSubsets.texts()`` writes a pool's sets in the order the games list them (by size,
each size in ``itertools.combinations`` order); tests/test_legal_subsets.py checks, on
random positions of every game, that a legal list's plain texts and its pools' sets are
exactly its texts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

from koloda.cards import CARD_TEXT, Card


@dataclass(frozen=True, slots=True)
class CardSubsets:
    """Every set of 1..``most`` cards of ``pool`` (ascending card ints), each the legal
    action ``verb C…`` (the cards in ascending order)."""

    verb: str
    pool: tuple[Card, ...]
    most: int

    def texts(self) -> list[str]:
        """The canonical texts: the single cards first, then the pairs, … (each size in
        ``combinations`` order)."""
        if self.most < 1 or not self.pool:
            return []
        prefix = self.verb + " "
        texts = [CARD_TEXT[c] for c in self.pool]
        out = [prefix + t for t in texts]
        for k in range(2, min(self.most, len(texts)) + 1):
            out.extend(prefix + " ".join(combo) for combo in combinations(texts, k))
        return out

    def holds(self, cards: tuple[Card, ...]) -> bool:
        """Whether ``cards`` (ascending, at least one) is one of the sets."""
        return len(cards) <= self.most and all(c in self.pool for c in cards)


class LegalActions(list[str]):
    """A legal list (canonical texts, the game's order) with its multi-card actions
    described as pools: ``plain`` the other texts, ``subsets`` the pools. Reads and
    compares as the plain list it is."""

    __slots__ = ("plain", "subsets")

    def __init__(self, texts: Iterable[str], plain: tuple[str, ...],
                 subsets: tuple[CardSubsets, ...]) -> None:
        super().__init__(texts)
        self.plain = plain
        self.subsets = subsets

    def __reduce__(self) -> tuple[object, ...]:
        return (LegalActions, (list(self), self.plain, self.subsets))


def legal_list(first: Iterable[str], subsets: Iterable[CardSubsets],
               last: Iterable[str] = ()) -> LegalActions:
    """The texts ``first``, then every pool's sets in turn, then ``last`` — a
    :class:`LegalActions` whose plain texts are ``first`` and ``last``."""
    head, pools, tail = list(first), tuple(s for s in subsets if s.most >= 1 and s.pool), \
        list(last)
    texts = list(head)
    for s in pools:
        texts += s.texts()
    texts += tail
    return LegalActions(texts, (*head, *tail), pools)
