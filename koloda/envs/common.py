"""What both adapters give an agent: the feature vector and the rewards.

The feature vector is the game's observation tensor (koloda.tensors) followed by two
52-wide blocks only an adapter can know: ``seen``, the cards played face up during the
deal (a TableMemory told every action), and ``selected``, the cards selected so far
toward a multi-card action (koloda.envs.actions). Standard library only.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from functools import cache
from typing import Any

from koloda.engine.result import Result
from koloda.envs.actions import Selection
from koloda.tensors import CARDS, BlockInfo, TableMemory, encoder


class Features:
    """The adapters' observation vector of one (game, player count)."""

    def __init__(self, game: str, players: int) -> None:
        self.encoder = encoder(game, players)
        self.typed = self.encoder.typed
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


def put(out: Any, ones: list[int], ni: list[int], nv: list[float]) -> None:
    """Write the entries of a typed encoding (koloda.tensors.typed) into ``out``, a zeroed
    1-d numpy array: one by one through a memoryview, which for the few dozen entries of
    an observation costs less than numpy's fancy assignment (a list made an index array)."""
    mv: Any = out.data
    for i in ones:
        mv[i] = 1.0
    for i, x in zip(ni, nv, strict=True):
        mv[i] = x


@cache
def features(game: str, players: int) -> Features:
    """The (immutable once made) Features of a (game, players), made once."""
    return Features(game, players)


def result_rewards(result: Result | None, players: int) -> list[float]:
    """+1 for each winner, −1 for each loser, 0 for everyone in a draw (docs/records.md: a
    draw has no winners and no losers) and in a tie of every seat (or of both sides: all
    are "winners" and nobody lost — still worth nothing, so a 2-player game stays
    zero-sum); zeros while the match is not over."""
    out = [0.0] * players
    if result is None or not result.losers:
        return out
    for s in result.winners:
        out[s] = 1.0
    for s in result.losers:
        out[s] = -1.0
    return out


def seed_of(seed: Any) -> int | None:
    """A reset seed as a Python int: numpy integers (``np.int64(3)``) are accepted."""
    if seed is None:
        return None
    if isinstance(seed, bool):
        raise TypeError(f"a seed is an integer, not {seed!r}")
    try:
        return operator.index(seed)
    except TypeError:
        raise TypeError(f"a seed is an integer (int or numpy integer), not "
                        f"{type(seed).__name__} {seed!r}") from None


class DealScores:
    """Per-deal rewards: after each deal, every seat's change of score, oriented so that
    more is better (Mushka's count and Durak's losses count down). The scores are the
    match's provisional result (``final_result(capped=True)``, what the result would be
    if the match stopped now); the orientation is read from that result's own winners
    (their scores against the losers'), so no game is named here."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.last = [0.0] * players
        self.sign = 1.0

    def deltas(self, match: Any) -> list[float]:
        result = match.result if match.is_over else match.final_result(True)
        scores = [float(x) for x in result.scores]
        if len(scores) != self.players:
            return [0.0] * self.players
        if result.winners and result.losers:
            best = min(scores[s] for s in result.winners)
            worst = max(scores[s] for s in result.losers)
            if best > worst:
                self.sign = 1.0
            elif max(scores[s] for s in result.winners) < \
                    min(scores[s] for s in result.losers):
                self.sign = -1.0
        out = [self.sign * (a - b) for a, b in zip(scores, self.last, strict=True)]
        self.last = scores
        return out
