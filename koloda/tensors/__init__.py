"""Observation tensors: a fixed-size list of floats per (game, player count), built from
``match.observation(seat)`` alone — standard library only, no numpy.

    >>> import koloda, koloda.tensors as kt
    >>> m = koloda.new_game("durak", players=3, seed=1)
    >>> v = kt.encode(m.observation(0))
    >>> len(v) == kt.size("durak", 3)
    True

Each game declares its blocks on its spec (``GameSpec.layout``; the blocks are in
koloda.engine.layout, a game's own ones in its folder); this package knows no game.
The adapters' fast path (koloda.tensors.direct) reads a deal state itself where its class
declares how each field is read (``tensor_fields``: its observation's own expressions),
and is checked to write the same tensor.
Because the encoder reads nothing but the observation, a tensor can hold no card the seat
may not know. ``describe`` gives each block's offset, size and meaning (the layout
tables of docs/research.md are made from it); ``render`` gives a readable text of the
observation; ``TableMemory`` remembers the cards played face up during a deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from koloda.engine.layout import CARDS, HEADER, Block, Flag, Seat, lookup, present
from koloda.engine.registry import get_spec
from koloda.engine.view import View
from koloda.tensors.memory import TableMemory, face_up_cards
from koloda.tensors.render import render
from koloda.tensors.typed import TypedEncoder

__all__ = ["CARDS", "BlockInfo", "Encoder", "TableMemory", "describe", "encode", "encoder",
           "face_up_cards", "layout", "markdown", "render", "size"]


@dataclass(frozen=True)
class BlockInfo:
    """One block of a layout as documented: where it lies and what it holds."""

    name: str
    field: str
    offset: int
    size: int
    meaning: str
    low: float
    high: float
    card_rows: int


def layout(game: str) -> tuple[Block, ...]:
    """The blocks of ``game``'s tensor: the common header, then the blocks the game
    declares (``GameSpec.layout``, koloda.engine.layout)."""
    spec = get_spec(game)
    if not spec.layout:
        raise ValueError(f"{spec.name} declares no tensor layout (GameSpec.layout)")
    return (*HEADER, *spec.layout)


class Encoder:
    """The tensor of one (game, player count): ``encode(observation)`` → list of floats."""

    def __init__(self, game: str, players: int) -> None:
        self.game = get_spec(game).name
        self.players = players
        self.blocks = layout(self.game)
        self.infos: list[BlockInfo] = []
        at = 0
        for b in self.blocks:
            n = b.size(players)
            lo, hi = b.bounds()
            self.infos.append(BlockInfo(b.name, b.path, at, n, b.meaning, lo, hi,
                                        b.card_rows(players)))
            at += n
        self.size = at
        self._sparse = _compile(self.blocks, [i.offset for i in self.infos], players)
        #: the fast twin: the same tensor read off the typed views (koloda.tensors.typed)
        self.typed = TypedEncoder(self.blocks, [i.offset for i in self.infos], players,
                                  self.size)

    def sparse(self, observation: Mapping[str, Any], out: dict[int, float] | None = None,
               at: int = 0) -> dict[int, float]:
        """The tensor's nonzero entries, ``{index + at: value}`` — what the adapters copy
        into a preallocated numpy array in one assignment (no list of every float). The
        blocks write into a dict exactly as into a list (``out[i] = x``), so the entries
        are the same as ``encode``'s (the tests compare)."""
        if isinstance(observation, View):
            observation = observation.to_json()
        if observation.get("players", self.players) != self.players:
            raise ValueError(f"an observation of {observation.get('players')} players given "
                             f"to the {self.players}-player encoder of {self.game}")
        d: dict[int, float] = {} if out is None else out
        self._sparse(observation, observation.get("seat", 0), d, at)
        return d

    def encode(self, observation: Mapping[str, Any]) -> list[float]:
        if isinstance(observation, View):
            observation = observation.to_json()
        if observation.get("players", self.players) != self.players:
            raise ValueError(f"an observation of {observation.get('players')} players given "
                             f"to the {self.players}-player encoder of {self.game}")
        seat = observation.get("seat", 0)
        out = [0.0] * self.size
        for b, info in zip(self.blocks, self.infos, strict=True):
            b.encode(lookup(observation, b.path), seat, self.players, out, info.offset)
        return out

    def missing_fields(self, observation: Mapping[str, Any]) -> list[str]:
        """The documented fields this observation lacks (the tests want none)."""
        if isinstance(observation, View):
            observation = observation.to_json()
        return [b.path for b in self.blocks if not present(observation, b.path)]

    def bounds(self) -> tuple[list[float], list[float]]:
        lows: list[float] = []
        highs: list[float] = []
        for info in self.infos:
            lows += [info.low] * info.size
            highs += [info.high] * info.size
        return lows, highs

    def card_positions(self) -> dict[int, int]:
        """Tensor index → card, for every entry of a card block (the leak tests use it)."""
        out: dict[int, int] = {}
        for info in self.infos:
            for row in range(info.card_rows):
                for c in range(CARDS):
                    out[info.offset + row * CARDS + c] = c
        return out


def _compile(blocks: tuple[Block, ...], offsets: list[int], players: int) -> Any:
    """The encoder's blocks as one generated function ``(obs, seat, out, at)``: each
    field looked up once, the header's seat and flag blocks written inline (their own
    ``encode`` in a line), every other block called; a null field is skipped where the
    block says it encodes as zeros. Same entries as calling every ``encode`` in turn."""
    env: dict[str, Any] = {"Mapping": Mapping, "players": players}
    lines = ["def sparse(obs, seat, d, at):", "    get = obs.get"]
    for k, (b, offset) in enumerate(zip(blocks, offsets, strict=True)):
        parts = b.path.split(".")
        lines.append(f"    v = get({parts[0]!r})")
        for part in parts[1:]:
            lines.append(f"    v = v.get({part!r}) if isinstance(v, Mapping) else None")
        env[f"e{k}"] = b.encode
        call = f"e{k}(v, seat, players, d, at + {offset})"
        if type(b) is Seat:
            where = "v" if b.absolute else "(v - seat) % players"
            lines += ["    if v.__class__ is int:",
                      "        if 0 <= v < players:",
                      f"            d[at + {offset} + {where}] = 1.0",
                      "    elif v is not None:",
                      f"        {call}"]
        elif type(b) is Flag:
            lines += ["    if v is True:", f"        d[at + {offset}] = 1.0"]
        elif b.none_is_zeros():
            lines += ["    if v is not None:", f"        {call}"]
        else:
            lines.append(f"    {call}")
    exec(compile("\n".join(lines), f"<koloda.tensors encoder {players}p>", "exec"), env)
    return env["sparse"]


@cache
def encoder(game: str, players: int) -> Encoder:
    return Encoder(game, players)


def encode(observation: Mapping[str, Any]) -> list[float]:
    """The tensor of one observation (its game, player count and seat are read from it)."""
    return encoder(observation["game"], observation["players"]).encode(observation)


def size(game: str, players: int) -> int:
    return encoder(game, players).size


def describe(game: str, players: int) -> list[BlockInfo]:
    return list(encoder(game, players).infos)


def markdown(game: str, players: int, extra: list[BlockInfo] | None = None) -> str:
    """The layout as a Markdown table (offset, size, block, observation field, meaning)."""
    rows = ["| offset | size | block | field | meaning |", "|---:|---:|---|---|---|"]
    for i in [*describe(game, players), *(extra or [])]:
        rows.append(f"| {i.offset} | {i.size} | `{i.name}` | `{i.field}` | {i.meaning} |")
    return "\n".join(rows)
