"""What both adapters give an agent: the feature vector and the rewards.

The feature vector is the game's observation tensor (koloda.tensors) followed by two
52-wide blocks only an adapter can know: ``seen``, the cards played face up during the
deal (a TableMemory told every action), and ``selected``, the cards selected so far
toward a multi-card action (koloda.envs.actions). Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from koloda.engine.result import Result
from koloda.envs.actions import Selection
from koloda.tensors import CARDS, BlockInfo, TableMemory, encoder


class Features:
    """The adapters' observation vector of one (game, player count)."""

    def __init__(self, game: str, players: int) -> None:
        self.encoder = encoder(game, players)
        base = self.encoder.size
        self.extra = [
            BlockInfo("seen", "(adapter memory)", base, CARDS,
                      "cards played face up during this deal (koloda.tensors.TableMemory)",
                      0.0, 1.0, 1),
            BlockInfo("selected", "(adapter selection)", base + CARDS, CARDS,
                      "cards selected so far toward a multi-card action (acting seat only)",
                      0.0, 1.0, 1),
        ]
        self.size = base + 2 * CARDS

    def vector(self, observation: Mapping[str, Any] | None, memory: TableMemory,
               selection: Selection) -> list[float]:
        """The features of one seat; ``observation`` None (cards still being dealt) gives
        zeros for the tensor part."""
        base = self.encoder.encode(observation) if observation is not None \
            else [0.0] * self.encoder.size
        chosen = [0.0] * CARDS
        for c in selection.cards:
            chosen[c] = 1.0
        return base + memory.encode() + chosen

    def infos(self) -> list[BlockInfo]:
        return [*self.encoder.infos, *self.extra]

    def bounds(self) -> tuple[list[float], list[float]]:
        lows, highs = self.encoder.bounds()
        return lows + [0.0] * 2 * CARDS, highs + [1.0] * 2 * CARDS

    def card_positions(self) -> dict[int, int]:
        out = self.encoder.card_positions()
        for info in self.extra:
            for c in range(CARDS):
                out[info.offset + c] = c
        return out


def result_rewards(result: Result | None, players: int) -> list[float]:
    """+1 for each winner, −1 for each loser, 0 for everyone in a draw (RECORDS.md: a
    draw has no winners and no losers); zeros while the match is not over."""
    out = [0.0] * players
    if result is None:
        return out
    for s in result.winners:
        out[s] = 1.0
    for s in result.losers:
        out[s] = -1.0
    return out
