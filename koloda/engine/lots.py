"""Drawing lots for the first dealer: each player draws a card and the lowest deals."""

from __future__ import annotations

import random
from typing import Any

from koloda.cards import CARD_TEXT, Card, deck, rank_of


def draw_lowest_card(rng: random.Random, players: int, deck_size: int) -> dict[str, Any]:
    """Each player draws a card; the lowest rank deals; the tied lowest draw again (from the
    same pack, reshuffled when it runs short). Suits decide nothing.

    Returns ``{"dealer": seat, "rounds": [[[seat, "7C"], ...], ...]}``: the whole draw, which
    is public (Mushka and Stukolka show it on their score sheets).
    """
    pack: list[Card] = []
    contenders = list(range(players))
    rounds: list[list[list[Any]]] = []
    while True:
        if len(pack) < len(contenders):
            pack = list(deck(deck_size))
            rng.shuffle(pack)
        drawn = [(seat, pack.pop()) for seat in contenders]
        rounds.append([[seat, CARD_TEXT[c]] for seat, c in drawn])
        low = min(rank_of(c) for _, c in drawn)
        contenders = [seat for seat, c in drawn if rank_of(c) == low]
        if len(contenders) == 1:
            return {"dealer": contenders[0], "rounds": rounds}
