"""A legal list that also says how its multi-card actions are made (standard library).

A multi-card action (Mushka's and Dreyfus's ``discard``; Durak's ``attack``, ``throw``,
``transfer``) is always some set of 1..``most`` cards out of a pool the rules name — the
hand, the cards of one rank, the cards whose ranks lie on the table. A game whose legal
list can hold many such sets (the discards: up to 31 in Mushka, 4 095 in Dreyfus)
returns a :class:`LegalActions`: the same list of canonical texts, in the game's own
order (what every caller reads), and beside it the texts that are *not* multi-card sets
(``plain``) and the pools (``subsets``) the others are made of. The research adapters
read the pools to mask a select/confirm choice in a few steps per card instead of
parsing every set's text (koloda.envs.actions); nothing else needs them. Durak's lists
are short and stay plain lists (naming pools there would cost the engine more than it
saves the adapters).

``CardSubsets.texts()`` writes a pool's sets in the order the games list them (by size,
each size in ``itertools.combinations`` order); tests/test_legal_subsets.py checks, on
random positions, that a legal list's plain texts and its pools' sets are exactly its
texts.
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from koloda.cards import CARD_TEXT, Card


class CardSubsets(NamedTuple):
    """Every set of 1..``most`` cards of ``pool`` (ascending card ints), each the legal
    action ``verb C…`` (the cards in ascending order). A tuple: made, hashed and compared
    at C speed (legal lists are the engine's hottest path)."""

    verb: str
    pool: tuple[Card, ...]
    most: int

    def texts(self) -> list[str]:
        """The canonical texts: the single cards first, then the pairs, … (each size in
        ``combinations`` order)."""
        verb, pool, most = self
        if most < 1 or not pool:
            return []
        prefix = verb + " "
        if most == 1 or len(pool) == 1:
            return [prefix + CARD_TEXT[c] for c in pool]
        texts = [CARD_TEXT[c] for c in pool]
        return [prefix + " ".join(combo) for k in range(1, min(most, len(texts)) + 1)
                for combo in combinations(texts, k)]


class LegalActions(list[str]):
    """A legal list (canonical texts, the game's order) with its multi-card actions
    described as pools: ``plain`` the other texts, ``subsets`` the pools. Reads and
    compares as the plain list it is. Made by :func:`legal_actions`."""

    __slots__ = ("plain", "subsets")
    plain: tuple[str, ...]
    subsets: tuple[CardSubsets, ...]

    def __reduce__(self) -> tuple[object, ...]:
        return (legal_actions, (list(self), self.plain, self.subsets))


def legal_actions(texts: list[str], plain: tuple[str, ...],
                  subsets: tuple[CardSubsets, ...]) -> LegalActions:
    """``texts`` as a :class:`LegalActions` naming its plain texts and pools (the
    caller vouches that they make exactly the texts)."""
    out = LegalActions(texts)
    out.plain = plain
    out.subsets = subsets
    return out

