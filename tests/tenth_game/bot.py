"""Dyuzhina's heuristic: win the trick as cheaply as possible, else throw the lowest card."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from koloda.cards import CARD_TEXT, TEXT_CARD, rank_of, suit_of


class DozenHeuristic:
    name = "heuristic"

    def choose(self, observation: Mapping[str, Any], legal: list[str],
               rng: random.Random) -> str:
        cards = sorted((TEXT_CARD[a.split()[1]] for a in legal), key=rank_of)
        trick = observation["trick"]
        if not trick:                                   # lead the highest card
            return f"play {CARD_TEXT[cards[-1]]}"
        led = TEXT_CARD[trick[0][1]]
        winning = [c for c in cards if suit_of(c) == suit_of(led) and rank_of(c) > rank_of(led)]
        return f"play {CARD_TEXT[(winning or cards)[0]]}"


def make(game: str, level: str | None = None) -> DozenHeuristic:
    return DozenHeuristic()
