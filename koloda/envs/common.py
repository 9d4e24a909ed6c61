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
from koloda.engine.view import Observation
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


def replayed(match: Any, moves: int) -> Any:
    """A new match of the same game, seed and options with the first ``moves`` actions of
    ``match`` applied (the position ``match`` was in then)."""
    m = match.spec.match_class(match.spec, match.players, match.options, seed=match.seed,
                               single_deal=match.single_deal)
    for _, text in match.history[:moves]:
        m.apply(text)
    return m


class LazyObservation(Observation):
    """``match.observation(seat)`` at the position the match is in when this is made,
    made only when first read: an adapter hands one out at every step (``infos``), and
    most loops never read it. It is that Observation in every way that reads it (its
    fields, its JSON mapping, ``to_json()``, equality, pickling as a plain Observation);
    read after the match has moved on, it is made from a replay of the match up to that
    position (``replayed``), so it never shows a later moment."""

    def __init__(self, match: Any, seat: int) -> None:
        self.__dict__["_lazy"] = (match, seat, len(match.history))

    def __getattr__(self, name: str) -> Any:
        # only called for what is not in the instance yet: the fields before the first read
        if name.startswith("__") or "_lazy" not in self.__dict__:
            raise AttributeError(name)
        return getattr(self.plain(), name)

    def plain(self) -> Observation:
        """The Observation itself (made on the first call)."""
        d = self.__dict__
        made: Observation | None = d.get("_made")
        if made is None:
            match, seat, moves = d["_lazy"]
            if len(match.history) != moves:         # moved on: replay to that position
                match = replayed(match, moves)
            made = match.observation(seat)
            d.update(made.__dict__)
            d["_made"] = made
            del d["_lazy"]
        return made

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyObservation):
            other = other.plain()
        return self.plain() == other

    def __hash__(self) -> int:
        return hash(self.plain())

    def __repr__(self) -> str:
        return repr(self.plain())

    def to_json(self, public: bool = False) -> dict[str, Any]:
        return self.plain().to_json(public)

    def _json(self) -> dict[str, Any]:
        return self.plain()._json()

    def __reduce_ex__(self, protocol: Any) -> Any:
        return _itself, (self.plain(),)          # pickled (and copied) as the plain one


def _itself(x: Any) -> Any:
    return x
