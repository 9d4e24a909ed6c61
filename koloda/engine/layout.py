"""The building blocks of an observation tensor: each block encodes one observation field.

A game declares its tensor as a tuple of blocks on its spec (``GameSpec.layout``, after the
common :data:`HEADER`); ``koloda.tensors`` reads the declaration and knows no game. Blocks
that only one game needs (Durak's table, Kopilka's offer) live in that game's folder, as
subclasses of :class:`Block`. Standard library only.

A block reads its field by name (a dotted path into the observation's JSON) and writes a
fixed number of floats. It never sees a game state, only what ``observation(seat)``
returned, so a tensor can hold nothing the seat may not know. A field the observation
lacks encodes as zeros (the layout stays fixed while games grow new fields); the tests
check that every field a layout documents is really present.

Seats are relative: row ``r`` of a per-seat block is the seat ``r`` places to the left of
the observer (row 0 is the observer itself), so one policy serves every seat.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from koloda.cards import SUITS, TEXT_CARD

#: one-hot width of a card block: koloda's card int (suit * 13 + rank)
CARDS = 52
#: every spelling of a suit an observation uses
SUIT_INDEX: dict[str, int] = {
    **{s: i for i, s in enumerate(SUITS)},
    **{n: i for i, n in enumerate(("spades", "clubs", "diamonds", "hearts"))},
}
#: bounds for numbers with no natural limit (scores, money), after scaling
UNBOUNDED = 1e6

_MISSING = object()


def lookup(obs: Mapping[str, Any], path: str) -> Any:
    """The value at a dotted path (``last_trick.winner``), or None where any part is
    missing."""
    value: Any = obs
    for part in path.split("."):
        if not isinstance(value, Mapping):
            return None
        value = value.get(part, _MISSING)
        if value is _MISSING:
            return None
    return value


def present(obs: Mapping[str, Any], path: str) -> bool:
    """True when every part of the path exists (a null leaf counts as present)."""
    value: Any = obs
    for part in path.split("."):
        if value is None:
            return True     # a null parent (no trick yet): the field is there, empty
        if not isinstance(value, Mapping) or part not in value:
            return False
        value = value[part]
    return True


def card_of(text: Any) -> int | None:
    return TEXT_CARD.get(text) if isinstance(text, str) else None


@dataclass(frozen=True)
class Block:
    """One field's slice of the tensor. Subclasses say how wide it is and what it holds."""

    name: str
    path: str
    meaning: str

    def size(self, players: int) -> int:
        raise NotImplementedError

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        """Write the encoding of ``value`` into ``out[at:at + size]`` (already zeros)."""
        raise NotImplementedError

    def bounds(self) -> tuple[float, float]:
        """The least and greatest value any entry may take."""
        return 0.0, 1.0

    def card_rows(self, players: int) -> int:
        """How many consecutive 52-wide card rows the block is (0: not a card block)."""
        return 0

    def typed_kinds(self) -> frozenset[str]:
        """The view kinds (koloda.engine.view.KINDS) whose typed values ``put`` reads;
        the fast encoder (koloda.tensors.typed) reads any other field as JSON."""
        return frozenset()

    def put(self, value: Any, seat: int, players: int, at: int, ones: list[int],
            ni: list[int], nv: list[float]) -> None:
        """The typed twin of ``encode``: ``value`` is the field's typed value (card ints,
        tuples, nested views; never None), the entries go into ``ones`` (indices set to
        1.0) and ``ni``/``nv`` (other indices and their values). Same entries as
        ``encode`` of the field's JSON form (tests/test_tensors_typed.py compares)."""
        raise NotImplementedError

    def none_is_zeros(self) -> bool:
        """True when a null (or missing) field encodes as all zeros, so an encoder may skip
        the call. False unless the block's class says so and its ``encode`` is that
        class's own (a subclass with its own ``encode`` is asked again)."""
        return False

    def puts_ones(self) -> bool:
        """True when ``put`` gives only entries of 1.0 and ``put_ones`` writes them: a
        writer into a buffer then calls ``put_ones`` (no index lists in between)."""
        return False

    def put_ones(self, value: Any, seat: int, players: int, at: int, mv: Any) -> None:
        """``put``'s entries, every one 1.0, set straight in ``mv`` (a zeroed buffer: a
        numpy array's memoryview, a list); only for a block whose ``puts_ones``."""
        raise NotImplementedError


class Appended:
    """A buffer for ``put_ones`` that appends every index set to ``ones``: the ``put`` of a
    block whose entries are all 1.0 is its ``put_ones`` into one (the entries written
    once, for both)."""

    __slots__ = ("ones",)

    def __init__(self, ones: list[int]) -> None:
        self.ones = ones

    def __setitem__(self, index: int, value: float) -> None:
        self.ones.append(index)


def _own_encode(block: Block, cls: type) -> bool:
    return type(block).encode is cls.encode  # type: ignore[attr-defined]


_CARD_KINDS = frozenset({"card", "cards"})
_PLAYS = frozenset({"plays"})
_VIEWS = frozenset({"views"})
_PER_SEAT_CARDS = frozenset({"per_seat_cards"})
_SEAT = frozenset({"seat"})
_SEATS = frozenset({"seats"})
_PER_SEAT = frozenset({"per_seat"})
_NUMBER = frozenset({"number"})
_FLAG = frozenset({"flag"})
_WORD = frozenset({"word"})
_SUIT = frozenset({"suit"})
_PER_SEAT_WORDS = frozenset({"per_seat_words"})
_PER_SEAT_SUITS = frozenset({"per_seat_suits"})
_VOCAB_SLOTS: dict[tuple[Any, ...], dict[Any, int]] = {}


def vocab_slots(vocab: tuple[Any, ...]) -> dict[Any, int]:
    """value → its first place in ``vocab`` (what ``vocab.index`` gives), made once."""
    slots = _VOCAB_SLOTS.get(vocab)
    if slots is None:
        slots = _VOCAB_SLOTS[vocab] = {}
        for i, v in enumerate(vocab):
            slots.setdefault(v, i)
    return slots


# ------------------------------------------------------------------ card blocks
@dataclass(frozen=True)
class Cards(Block):
    """A set of cards (a list of card texts, or one card text): 52-wide multi-hot."""

    def size(self, players: int) -> int:
        return CARDS

    def card_rows(self, players: int) -> int:
        return 1

    def none_is_zeros(self) -> bool:
        return _own_encode(self, Cards)

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        get = TEXT_CARD.get
        if value.__class__ is str:
            c = get(value)
            if c is not None:
                out[at + c] = 1.0
            return
        for text in value or ():
            if text.__class__ is str or isinstance(text, str):
                c = get(text)
                if c is not None:
                    out[at + c] = 1.0

    def typed_kinds(self) -> frozenset[str]:
        return _CARD_KINDS

    def put(self, value: Any, seat: int, players: int, at: int, ones: list[int],
            ni: list[int], nv: list[float]) -> None:
        if value.__class__ is int:
            ones.append(at + value)
        else:
            ones += [at + c for c in value]


@dataclass(frozen=True)
class SeatCards(Block):
    """Cards by the seat that played them: ``[[seat, "9H"], ...]`` (a trick, a table) —
    one 52-wide row per relative seat."""

    def size(self, players: int) -> int:
        return players * CARDS

    def card_rows(self, players: int) -> int:
        return players

    def none_is_zeros(self) -> bool:
        return _own_encode(self, SeatCards)

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        for entry in value or ():
            _put_seat_card(entry, seat, players, out, at)

    def typed_kinds(self) -> frozenset[str]:
        return _PLAYS

    def put(self, value: Any, seat: int, players: int, at: int, ones: list[int],
            ni: list[int], nv: list[float]) -> None:
        ones += [at + ((e[0] - seat) % players) * CARDS + e[1] for e in value]


@dataclass(frozen=True)
class TrickCards(Block):
    """Completed tricks ``[{"cards": [[seat, "9H"], ...], ...}, ...]``: every card played
    in them, one row per relative seat."""

    def size(self, players: int) -> int:
        return players * CARDS

    def card_rows(self, players: int) -> int:
        return players

    def none_is_zeros(self) -> bool:
        return _own_encode(self, TrickCards)

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        for trick in value or ():
            if isinstance(trick, dict):
                for entry in trick.get("cards") or ():
                    _put_seat_card(entry, seat, players, out, at)

    def typed_kinds(self) -> frozenset[str]:
        return _VIEWS

    def put(self, value: Any, seat: int, players: int, at: int, ones: list[int],
            ni: list[int], nv: list[float]) -> None:
        for trick in value:
            cards = getattr(trick, "cards", None)
            if cards:
                ones += [at + ((e[0] - seat) % players) * CARDS + e[1] for e in cards]


@dataclass(frozen=True)
class PerSeatCards(Block):
    """A list of card lists indexed by seat (Durak's ``known_cards``): one row per
    relative seat."""

    def size(self, players: int) -> int:
        return players * CARDS

    def card_rows(self, players: int) -> int:
        return players

    def none_is_zeros(self) -> bool:
        return _own_encode(self, PerSeatCards)

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        get = TEXT_CARD.get
        for s, cards in enumerate(value or ()):
            if not cards:
                continue
            row = at + ((s - seat) % players) * CARDS
            for text in cards:
                if isinstance(text, str):
                    c = get(text)
                    if c is not None:
                        out[row + c] = 1.0

    def typed_kinds(self) -> frozenset[str]:
        return _PER_SEAT_CARDS

    def put(self, value: Any, seat: int, players: int, at: int, ones: list[int],
            ni: list[int], nv: list[float]) -> None:
        for s, cards in enumerate(value):
            if cards:
                row = at + ((s - seat) % players) * CARDS
                ones += [row + c for c in cards]


def _put_seat_card(entry: Any, seat: int, players: int, out: list[float], at: int) -> None:
    cls = entry.__class__
    if not (cls is list or cls is tuple or isinstance(entry, (list, tuple))) or len(entry) < 2:
        return
    s, c = entry[0], card_of(entry[1])
    if isinstance(s, int) and c is not None:
        out[at + ((s - seat) % players) * CARDS + c] = 1.0


# ------------------------------------------------------------------ seat blocks
@dataclass(frozen=True)
class Seat(Block):
    """One seat (or null): one-hot over relative seats; ``absolute`` keeps seat numbers."""

    absolute: bool = False

    def size(self, players: int) -> int:
        return players

    def none_is_zeros(self) -> bool:
        return _own_encode(self, Seat)

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        if (value.__class__ is int or (isinstance(value, int) and not isinstance(value, bool))) \
                and 0 <= value < players:
            out[at + (value if self.absolute else (value - seat) % players)] = 1.0

    def typed_kinds(self) -> frozenset[str]:
        return _SEAT

    def put(self, value: Any, seat: int, players: int, at: int, ones: list[int],
            ni: list[int], nv: list[float]) -> None:
        if value.__class__ is int and 0 <= value < players:
            ones.append(at + (value if self.absolute else (value - seat) % players))


@dataclass(frozen=True)
class Seats(Block):
    """A set of seats: multi-hot over relative seats."""

    def size(self, players: int) -> int:
        return players

    def none_is_zeros(self) -> bool:
        return _own_encode(self, Seats)

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        for s in value or ():
            if isinstance(s, int) and 0 <= s < players:
                out[at + (s - seat) % players] = 1.0

    def typed_kinds(self) -> frozenset[str]:
        return _SEATS

    def put(self, value: Any, seat: int, players: int, at: int, ones: list[int],
            ni: list[int], nv: list[float]) -> None:
        ones += [at + (s - seat) % players for s in value if 0 <= s < players]


# ---------------------------------------------------------------- number blocks
@dataclass(frozen=True)
class PerSeat(Block):
    """A number per seat, times ``scale``, by relative seat. ``optional``: the list may
    hold nulls (bids not made yet) — then a row of presence flags comes first."""

    scale: float = 1.0
    optional: bool = False
    signed: bool = False

    def size(self, players: int) -> int:
        return 2 * players if self.optional else players

    def bounds(self) -> tuple[float, float]:
        return (-UNBOUNDED, UNBOUNDED) if self.signed else (0.0, UNBOUNDED)

    def none_is_zeros(self) -> bool:
        return _own_encode(self, PerSeat)

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        optional = self.optional
        base = at + players if optional else at
        scale = self.scale
        for s, x in enumerate(value or ()):
            cls = x.__class__
            if s >= players or (not (cls is int or cls is float) and (
                    not isinstance(x, (int, float)) or isinstance(x, bool))):
                continue
            r = (s - seat) % players
            if optional:
                out[at + r] = 1.0
            out[base + r] = x * scale

    def typed_kinds(self) -> frozenset[str]:
        return _PER_SEAT

    def put(self, value: Any, seat: int, players: int, at: int, ones: list[int],
            ni: list[int], nv: list[float]) -> None:
        optional = self.optional
        base = at + players if optional else at
        scale = self.scale
        for s, x in enumerate(value):
            if x is None or s >= players or x.__class__ is bool:
                continue
            r = (s - seat) % players
            if optional:
                ones.append(at + r)
            if x:
                ni.append(base + r)
                nv.append(x * scale)


@dataclass(frozen=True)
class Number(Block):
    """One number times ``scale``. ``optional``: a presence flag first (null → 0, 0)."""

    scale: float = 1.0
    optional: bool = False
    signed: bool = False

    def size(self, players: int) -> int:
        return 2 if self.optional else 1

    def bounds(self) -> tuple[float, float]:
        return (-UNBOUNDED, UNBOUNDED) if self.signed else (0.0, UNBOUNDED)

    def none_is_zeros(self) -> bool:
        return _own_encode(self, Number)

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return
        if self.optional:
            out[at] = 1.0
            at += 1
        out[at] = value * self.scale

    def typed_kinds(self) -> frozenset[str]:
        return _NUMBER

    def put(self, value: Any, seat: int, players: int, at: int, ones: list[int],
            ni: list[int], nv: list[float]) -> None:
        if value.__class__ is bool:
            return
        if self.optional:
            ones.append(at)
            at += 1
        if value:
            ni.append(at)
            nv.append(value * self.scale)


@dataclass(frozen=True)
class Flag(Block):
    """A yes/no field: 1.0 for true."""

    def size(self, players: int) -> int:
        return 1

    def none_is_zeros(self) -> bool:
        return _own_encode(self, Flag)

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        if value is True:
            out[at] = 1.0

    def typed_kinds(self) -> frozenset[str]:
        return _FLAG

    def put(self, value: Any, seat: int, players: int, at: int, ones: list[int],
            ni: list[int], nv: list[float]) -> None:
        if value is True:
            ones.append(at)


# ------------------------------------------------------------ vocabulary blocks
@dataclass(frozen=True)
class OneOf(Block):
    """A value from ``vocab`` (a phase, a declaration): one-hot; anything else → zeros."""

    vocab: tuple[Any, ...] = ()
    normalize: Callable[[Any], Any] | None = field(default=None, compare=False)

    def size(self, players: int) -> int:
        return len(self.vocab)

    def none_is_zeros(self) -> bool:
        if not _own_encode(self, OneOf):
            return False
        try:
            v = self.normalize(None) if self.normalize else None
        except Exception:
            return False
        return v not in self.vocab

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        v = self.normalize(value) if self.normalize else value
        if v in self.vocab:
            out[at + self.vocab.index(v)] = 1.0

    def typed_kinds(self) -> frozenset[str]:
        # a word as it is; a suit as its int when the JSON letter is read by suit_index
        # (the int is what suit_index gives back)
        if self.normalize is None:
            return _WORD
        return _SUIT if self.normalize is suit_index else frozenset()

    def slots(self) -> dict[Any, int]:
        """value → its slot (the first place in ``vocab``)."""
        return vocab_slots(self.vocab)

    def put(self, value: Any, seat: int, players: int, at: int, ones: list[int],
            ni: list[int], nv: list[float]) -> None:
        i = vocab_slots(self.vocab).get(value)
        if i is not None:
            ones.append(at + i)


@dataclass(frozen=True)
class PerSeatOneOf(Block):
    """A value from ``vocab`` per seat (Mushka's choices, Stukolka's declarations): one
    ``len(vocab)``-wide one-hot row per relative seat."""

    vocab: tuple[Any, ...] = ()

    def size(self, players: int) -> int:
        return players * len(self.vocab)

    def none_is_zeros(self) -> bool:
        return _own_encode(self, PerSeatOneOf)

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        width = len(self.vocab)
        for s, v in enumerate(value or ()):
            if s < players and v in self.vocab:
                out[at + ((s - seat) % players) * width + self.vocab.index(v)] = 1.0

    def typed_kinds(self) -> frozenset[str]:
        return _PER_SEAT_WORDS

    def put(self, value: Any, seat: int, players: int, at: int, ones: list[int],
            ni: list[int], nv: list[float]) -> None:
        width = len(self.vocab)
        slots = vocab_slots(self.vocab)
        for s, v in enumerate(value):
            i = slots.get(v)
            if i is not None and s < players:
                ones.append(at + ((s - seat) % players) * width + i)


@dataclass(frozen=True)
class PerSeatSet(Block):
    """A set of values from ``vocab`` per seat (known voids): multi-hot rows by relative
    seat; ``normalize`` maps each value first (a suit's spellings to one index)."""

    vocab: tuple[Any, ...] = ()
    normalize: Callable[[Any], Any] | None = field(default=None, compare=False)

    def size(self, players: int) -> int:
        return players * len(self.vocab)

    def none_is_zeros(self) -> bool:
        return _own_encode(self, PerSeatSet)

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        width = len(self.vocab)
        norm = self.normalize
        for s, values in enumerate(value or ()):
            for v in values or ():
                if norm is not None:
                    v = norm(v)
                if s < players and v in self.vocab:
                    out[at + ((s - seat) % players) * width + self.vocab.index(v)] = 1.0

    def typed_kinds(self) -> frozenset[str]:
        return _PER_SEAT_SUITS if self.normalize is suit_index else frozenset()

    def put(self, value: Any, seat: int, players: int, at: int, ones: list[int],
            ni: list[int], nv: list[float]) -> None:
        width = len(self.vocab)
        slots = vocab_slots(self.vocab)
        for s, values in enumerate(value):
            if s >= players or not values:
                continue
            row = at + ((s - seat) % players) * width
            for v in values:
                i = slots.get(v)
                if i is not None:
                    ones.append(row + i)


def suit_index(value: Any) -> Any:
    return SUIT_INDEX.get(value) if isinstance(value, str) else None


def Suit(name: str, path: str, meaning: str, no_suit: bool = False) -> OneOf:
    """A suit however the observation spells it (``"H"``, ``"hearts"``): one-hot over
    S C D H, plus a fifth slot for null ("no trump") when ``no_suit``."""
    vocab: tuple[Any, ...] = (0, 1, 2, 3, None) if no_suit else (0, 1, 2, 3)
    return OneOf(name, path, meaning, vocab=vocab, normalize=suit_index)


def Suits(name: str, path: str, meaning: str) -> PerSeatSet:
    """A set of suits per seat (known voids) however the observation spells them: one
    S C D H row per relative seat."""
    return PerSeatSet(name, path, meaning, vocab=(0, 1, 2, 3), normalize=suit_index)


# ------------------------------------------------------ what every layout shares
#: every game's tensor starts with these (the fields Match.observation always has); a
#: game's ``GameSpec.layout`` lists the blocks that follow
HEADER: tuple[Block, ...] = (
    Seat("seat", "seat", "the observer's own seat number (absolute, one-hot)", absolute=True),
    Seat("to_move", "to_move", "the seat to act (relative; zeros when nobody acts)"),
    Seat("dealer", "dealer", "the dealer of this deal (relative)"),
    Flag("match_over", "match_over", "the match is over"),
    Number("deal_number", "deal_number", "deals dealt before this one, / 100", scale=0.01),
)


def last_trick() -> tuple[Block, ...]:
    """The last completed trick (``last_trick.cards`` by seat, ``last_trick.winner``), as
    the trick games show it."""
    return (
        SeatCards("last_trick", "last_trick.cards", "the last completed trick, by seat"),
        Seat("last_trick_winner", "last_trick.winner", "who took the last trick"),
    )
