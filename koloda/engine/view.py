"""Typed observations: what one seat may know, as frozen dataclasses that say what they hold.

A game's observation is a :class:`View` — a frozen dataclass whose every field is declared
with :func:`item`: its **kind** (a card, cards, a suit, a seat, one value per seat, the plays
of a trick …), the vocabulary **term** a person reads it by (``None``: data for programs,
never shown to people), whether it is **private** to the observing seat (dropped from the
spectator's view the engine gives), and its **role** where an interface gives it a place of
its own (the hand, the trick, the last trick, the Durak table, the trump card).

Field values are cards, suits and seats as ints (``koloda.cards``), tuples, nested views —
never text. ``to_json()`` converts at the boundary (records, the web, tests): cards as
``"6C"``, suits as ``"S" "C" "D" "H"``. A view also reads as its JSON mapping
(``view["hand"]`` is ``view.to_json()["hand"]``) for scripts and older code; the typed
attributes are the API.

Interfaces never guess what a field means: they read ``fields_of(view)``.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from koloda.cards import CARD_TEXT, SUITS

#: every kind a field may have, and what its value is
KINDS: dict[str, str] = {
    "card": "a card (int) or None",
    "cards": "a tuple of cards",
    "suit": "a suit (0..3, S C D H) or None",
    "suits": "a tuple of suits",
    "seat": "a seat (int) or None",
    "seats": "a set of seats, as a sorted tuple",
    "number": "an int or float, or None",
    "flag": "a bool",
    "word": "a word of the vocabulary (str) or None: a phase, an outcome, a mode",
    "text": "free text shown as it is (a name)",
    "per_seat": "one number (or None) per seat",
    "per_seat_cards": "one tuple of cards per seat",
    "per_seat_suits": "one tuple of suits per seat",
    "per_seat_words": "one vocabulary word (or None) per seat",
    "plays": "(seat, card) or (seat, card, mode-word) pairs in the order played",
    "table": "Durak's table: (attack card, covering card or None) pairs",
    "view": "a nested View, or None",
    "views": "a tuple of nested Views",
    "data": "JSON-ready data for programs (never shown to people as such)",
}
#: roles an interface gives a place of its own (the rest are laid out by kind)
ROLES = frozenset({"hand", "trick", "last_trick", "table", "trump_card", "trump", "to_move",
                   "dealer", "teams", "history"})


@dataclass(frozen=True, slots=True)
class Show:
    """How one field of a view is encoded and shown."""

    kind: str
    term: str | None = None
    private: bool = False
    role: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown field kind {self.kind!r}; kinds: {', '.join(KINDS)}")
        if self.role is not None and self.role not in ROLES:
            raise ValueError(f"unknown field role {self.role!r}; roles: {', '.join(ROLES)}")
        if self.kind == "data" and self.term is not None:
            raise ValueError("a 'data' field is for programs: it takes no term")


_NO_DEFAULT: Any = dataclasses.MISSING


def item(kind: str, term: str | None = None, *, private: bool = False,
         role: str | None = None, default: Any = _NO_DEFAULT) -> Any:
    """Declare one field of a view (use as ``hand: tuple[Card, ...] = item("cards", ...)``).

    ``term`` is the vocabulary key of the field's label (``koloda.engine.terms``); None
    keeps the field out of every screen (data for programs and bots)."""
    meta = {"show": Show(kind, term, private, role)}
    if default is _NO_DEFAULT:
        return dataclasses.field(metadata=meta)
    if isinstance(default, (list, dict, set)):
        raise TypeError("a view's default must be immutable (a tuple, not a list)")
    return dataclasses.field(default=default, metadata=meta)


@dataclass(frozen=True, slots=True)
class FieldInfo:
    """One declared field: its name and how it is shown."""

    name: str
    kind: str
    term: str | None
    private: bool
    role: str | None


_FIELDS: dict[type, tuple[FieldInfo, ...]] = {}


def _fields(cls: type) -> tuple[FieldInfo, ...]:
    known = _FIELDS.get(cls)
    if known is not None:
        return known
    out = []
    for f in dataclasses.fields(cls):
        show = f.metadata.get("show")
        if show is None:
            raise TypeError(f"{cls.__name__}.{f.name} is not declared with item()")
        out.append(FieldInfo(f.name, show.kind, show.term, show.private, show.role))
    known = _FIELDS[cls] = tuple(out)
    return known


def fields_of(view: View | type[View]) -> tuple[FieldInfo, ...]:
    """Every declared field of a view (or view class), in order."""
    return _fields(view if isinstance(view, type) else type(view))


def _lists(value: Any) -> Any:
    """Tuples as lists, all the way down: a data field's JSON form (typed values are
    tuples, JSON has lists)."""
    if isinstance(value, tuple):
        return [_lists(v) for v in value]
    return value


def _cards(v: Any, public: bool) -> Any:
    return [CARD_TEXT[c] for c in v]


#: how each kind is written as JSON (None: the value is JSON already); None values stay
_ENCODERS: dict[str, Callable[[Any, bool], Any] | None] = {
    "card": lambda v, p: CARD_TEXT[v],
    "cards": _cards,
    "suit": lambda v, p: SUITS[v],
    "suits": lambda v, p: [SUITS[s] for s in v],
    "seat": None, "number": None, "flag": None, "word": None, "text": None,
    "data": lambda v, p: _lists(v),
    "seats": lambda v, p: list(v),
    "per_seat": lambda v, p: list(v),
    "per_seat_words": lambda v, p: list(v),
    "per_seat_cards": lambda v, p: [[CARD_TEXT[c] for c in h] for h in v],
    "per_seat_suits": lambda v, p: [[SUITS[s] for s in ss] for ss in v],
    "plays": lambda v, p: [[x[0], CARD_TEXT[x[1]], *x[2:]] for x in v],
    "table": lambda v, p: [[CARD_TEXT[a], None if d is None else CARD_TEXT[d]] for a, d in v],
    "view": lambda v, p: v.to_json(p),
    "views": lambda v, p: [x.to_json(p) for x in v],
}
assert set(_ENCODERS) == set(KINDS)


def encode(kind: str, value: Any, public: bool = False) -> Any:
    """A field's value as JSON-ready data."""
    fn = _ENCODERS[kind]
    return value if value is None or fn is None else fn(value, public)


#: per view class, how to write it: (name, encoder or None, private) for every field
_PLANS: dict[type, tuple[tuple[str, Callable[[Any, bool], Any] | None, bool], ...]] = {}


def _plan(cls: type) -> tuple[tuple[str, Callable[[Any, bool], Any] | None, bool], ...]:
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = tuple((f.name, _ENCODERS[f.kind], f.private)
                                   for f in _fields(cls))
    return plan


class View(Mapping[str, Any]):
    """Base of every typed observation part (subclasses are frozen dataclasses, without
    ``slots``: the JSON form is cached on the instance).

    ``to_json()`` is the JSON form (private fields left out with ``public=True``), cached;
    ``view[key]`` reads it. ``public()`` is the same view as a spectator may see it."""

    #: JSON keys to add with constant values (e.g. a game's fixed trump description)
    json_extra: ClassVar[Mapping[str, Any]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__init__" not in cls.__dict__ and _plain(cls):
            cls.__init__ = _first_init(cls)  # type: ignore[method-assign]

    def to_json(self, public: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, fn, private in _plan(type(self)):
            if public and private:
                continue
            value = getattr(self, name)
            out[name] = value if value is None or fn is None else fn(value, public)
        if self.json_extra:
            out.update(self.json_extra)
        return out

    def _json(self) -> dict[str, Any]:
        # the JSON form, made once (views are frozen) and kept on the instance
        data: dict[str, Any] | None = self.__dict__.get("_json_form")
        if data is None:
            data = self.to_json(self.is_public)
            object.__setattr__(self, "_json_form", data)
        return data

    @property
    def is_public(self) -> bool:
        return False

    # ------------------------------------------- the view read as its JSON mapping
    def __getitem__(self, key: str) -> Any:
        return self._json()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._json())

    def __len__(self) -> int:
        return len(self._json())


def _plain(cls: type) -> bool:
    """A view class whose dataclass ``__init__`` would only store its arguments: no
    ``__post_init__``, no field made by a factory, keyword-only or left out of ``__init__``
    (read off the class body, before ``@dataclass`` runs)."""
    if any("__post_init__" in c.__dict__ for c in cls.__mro__):
        return False
    for value in cls.__dict__.values():
        if isinstance(value, dataclasses.Field) and (
                value.default_factory is not dataclasses.MISSING or not value.init
                or value.kw_only is True):
            return False
    notes = inspect.get_annotations(cls).values()
    return not any("KW_ONLY" in str(a) or "InitVar" in str(a) for a in notes)


def _first_init(owner: type) -> Callable[..., None]:
    """The ``__init__`` a plain view class starts with (``@dataclass`` keeps an
    ``__init__`` the class has): on the first construction it puts in its place one that
    stores the fields straight into the instance's ``__dict__`` — the frozen dataclass's
    own goes through ``object.__setattr__`` once per field, a third of the cost of an
    observation — with the same parameters and defaults."""

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init = _fast_init(owner)
        if init is None:        # not a dataclass after all: the inherited __init__
            del owner.__init__  # type: ignore[misc]
            type(self).__init__(self, *args, **kwargs)
            return
        owner.__init__ = init  # type: ignore[misc]
        init(self, *args, **kwargs)

    return __init__


def _fast_init(cls: type) -> Callable[..., None] | None:
    if "__dataclass_fields__" not in cls.__dict__:
        return None
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    fields = dataclasses.fields(cls)
    if not params.init or any(
            not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING
            for f in fields):
        raise TypeError(f"{cls.__name__}: a view's fields are plain (see view._plain)")
    env: dict[str, Any] = {}
    args = []
    for f in fields:
        if f.default is dataclasses.MISSING:
            args.append(f.name)
        else:
            env[f"_d_{f.name}"] = f.default
            args.append(f"{f.name}=_d_{f.name}")
    stores = ", ".join(f"{f.name!r}: {f.name}" for f in fields)
    source = (f"def __init__(self, {', '.join(args)}):\n"
              f"    self.__dict__.update({{{stores}}})\n") if fields else \
        "def __init__(self):\n    pass\n"
    exec(compile(source, f"<view {cls.__name__}.__init__>", "exec"), env)
    init: Callable[..., None] = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


@dataclass(frozen=True)
class EmptyView(View):
    """A part with nothing to say (a game without a score sheet; a deal not dealt)."""


@dataclass(frozen=True)
class Observation(View):
    """What one seat may know of a match: who and where, the score sheet, and the deal.

    ``to_json()`` is flat: the header fields, ``sheet``, then the deal's own fields.
    ``seat`` is None in the spectator's view (``Match.public_observation()``)."""

    game: str = item("text")
    players: int = item("number")
    seat: int | None = item("seat")
    deal_number: int = item("number", "deal_number")
    dealer: int | None = item("seat", "dealer", role="dealer")
    to_move: int | None = item("seat", "to_move", role="to_move")
    match_over: bool = item("flag", "match_over")
    sheet: View = item("view", "sheet")
    deal: View = item("view")

    def to_json(self, public: bool = False) -> dict[str, Any]:
        out = {"game": self.game, "players": self.players, "seat": self.seat,
               "deal_number": self.deal_number, "dealer": self.dealer,
               "to_move": self.to_move, "match_over": self.match_over,
               "sheet": self.sheet.to_json(public)}
        out.update(self.deal.to_json(public))
        return out

    def public(self) -> Observation:
        """The same moment as a spectator sees it: no seat, private fields left out of its
        JSON (the deal view keeps them as values for nobody: use ``to_json()``)."""
        return _PublicObservation(self.game, self.players, None, self.deal_number,
                                  self.dealer, self.to_move, self.match_over, self.sheet,
                                  self.deal)


@dataclass(frozen=True)
class _PublicObservation(Observation):
    """An observation whose JSON leaves every private field out."""

    def to_json(self, public: bool = True) -> dict[str, Any]:
        return Observation.to_json(self, True)

    @property
    def is_public(self) -> bool:
        return True
