"""The fast encoder: an observation tensor read straight off the typed views
(``koloda.engine.view``), no JSON in between — standard library only.

``TypedEncoder.indices(observation)`` gives the tensor as three lists: the indices set to
1.0, and the (index, value) pairs of every other nonzero entry — what the adapters write
into a zeroed numpy array in two fancy assignments. It is the same tensor as
``Encoder.encode(observation.to_json())`` (the reference encoder, kept for the guide and the
tests; tests/test_tensors_typed.py compares the two on random positions of every game).

How: for each (deal view class, sheet view class) met, every block's field path is
resolved once through the views' declared fields (``fields_of``) to a chain of attribute
reads, and the block's typed writer (``Block.put``, koloda.engine.layout) is chosen when the
field's kind is one it reads; the chains and writers are compiled into one generated
function. A block whose field cannot be read typed (a field only the JSON form has, a
kind the block does not read, a view whose JSON form reshapes the field) falls back to the
reference path: its JSON value, encoded by the block's own ``encode``.
"""

from __future__ import annotations

import re
import typing
from array import array
from collections.abc import Callable, Mapping
from typing import Any

from koloda.engine import layout as lay
from koloda.engine.layout import CARDS, Block, lookup, vocab_slots
from koloda.engine.view import Observation, View, fields_of

#: the Observation header fields (read off the observation itself)
_HEADER = frozenset(f.name for f in fields_of(Observation)) - {"sheet", "deal"}

Indices = tuple[list[int], list[int], list[float]]


def field_kind(cls: type, name: str) -> str | None:
    """The declared kind of field ``name`` of view class ``cls``, or None when the JSON
    form does not carry it as declared (no such field, or a view that reshapes it)."""
    if not (isinstance(cls, type) and issubclass(cls, View)):
        return None
    for f in fields_of(cls):
        if f.name == name:
            shapes = getattr(cls, "json_shapes", {})
            names = getattr(cls, "json_names", {})
            if name in shapes or name in names:
                return None
            return f.kind
    return None


def shaped_kind(cls: type, name: str) -> str | None:
    """``"shaped_<kind>"`` for a field ``name`` of view class ``cls`` whose JSON form is
    reshaped (``json_shapes``), else None: a block that reads the typed value itself
    (its ``typed_kinds`` naming that) is written typed; any other reads the JSON."""
    if not (isinstance(cls, type) and issubclass(cls, View)) \
            or name not in getattr(cls, "json_shapes", {}):
        return None
    for f in fields_of(cls):
        if f.name == name:
            return f"shaped_{f.kind}"
    return None


def _nested_class(cls: type, name: str) -> type | None:
    """The View class a ``view``-kind field holds (read off its annotation)."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception:
        return None
    hint = hints.get(name)
    for arg in (*typing.get_args(hint), hint):
        if isinstance(arg, type) and issubclass(arg, View):
            return arg
    return None


class _Plan:
    """One block's read: ``chain`` the attribute names from its root (``obs``, ``deal``
    or ``sheet``), ``kind`` the last field's kind; None when it falls back to the JSON."""

    def __init__(self, root: str, chain: list[str], kind: str) -> None:
        self.root, self.chain, self.kind = root, chain, kind


def _resolve(path: str, deal_cls: type, sheet_cls: type) -> _Plan | None:
    parts = path.split(".")
    head = parts[0]
    if head == "sheet":
        root, cls, parts = "sheet", sheet_cls, parts[1:]
    elif field_kind(deal_cls, head) is not None or shaped_kind(deal_cls, head) is not None:
        root, cls = "deal", deal_cls     # the deal's keys follow the header's in the JSON
    elif head in _HEADER and len(parts) == 1:
        return _Plan("obs", [head], field_kind(Observation, head) or "")
    else:
        return None
    if not parts:
        return None
    for i, part in enumerate(parts):
        kind = field_kind(cls, part)
        if kind is None and i == len(parts) - 1:
            kind = shaped_kind(cls, part)
        if kind is None:
            return None
        if i == len(parts) - 1:
            return _Plan(root, parts, kind)
        if kind != "view":
            return None
        nested = _nested_class(cls, part)
        if nested is None:
            return None
        cls = nested
    return None


def _direct(lines: list[str], round32: bool = False) -> list[str]:
    """The inline writes of ``fill`` made writes into the buffer ``mv``: ``ones.append(i)``
    → ``mv[i] = 1.0``, ``ones += [i for x in y]`` → a loop of them, ``ni.append(i)`` with
    the ``nv.append(x)`` after it → ``mv[i] = x`` (no list in between)."""
    out: list[str] = []
    k = 0
    while k < len(lines):
        line = lines[k]
        body = line.lstrip()
        pad = line[:len(line) - len(body)]
        k += 1
        one = re.fullmatch(r"ones\.append\((.*)\)", body)
        many = re.fullmatch(r"ones \+= \[(.*) for (\w+) in (\w+)(?: if (.*))?\]", body)
        num = re.fullmatch(r"ni\.append\((.*)\)", body)
        if one:
            out.append(f"{pad}mv[{one[1]}] = 1.0")
        elif many:
            out.append(f"{pad}for {many[2]} in {many[3]}:")
            if many[4]:
                out += [f"{pad}    if {many[4]}:", f"{pad}        mv[{many[1]}] = 1.0"]
            else:
                out.append(f"{pad}    mv[{many[1]}] = 1.0")
        elif num:
            value = re.fullmatch(r"nv\.append\((.*)\)", lines[k].strip())
            assert value is not None, lines[k]
            if round32:         # a value met before is rounded by a look-up
                out += [f"{pad}x = {value[1]}", f"{pad}mv[{num[1]}] = F(x) or R(x)"]
            else:
                out.append(f"{pad}mv[{num[1]}] = {value[1]}")
            k += 1
        else:
            out.append(line)
    return out


class NotDirect(Exception):
    """A block the match-state source cannot write (``_compile`` with ``sources``)."""


#: the Observation header's fields as read off the match (``Match.observation``'s own
#: expressions: ``m`` the match, ``st`` its deal state, ``over`` whether it is over)
HEADER_SOURCES = {
    "seat": "seat",
    "players": "P",
    "to_move": "(None if over else st.to_move)",
    "dealer": "(m.deals[-1].dealer if m.awaiting_dealer is None else m.awaiting_dealer)",
    "match_over": "over",
    "deal_number": "(len(m.deals) - 1)",
}


def _per_seat(alone: str | None, players: int, loop: list[str], each: list[list[str]]
              ) -> list[str]:
    """The body of a per-seat block (under its ``if v:``): ``loop`` over ``v``'s
    (seat, value) pairs; or, in a seat's own writer reading ``alone`` (the block's
    expression), the values unpacked into ``x0`` … and each seat's lines (``each``, its
    position a constant) one after the other — no loop, no pair, no seat arithmetic. A
    value of another length than the players' is read again and looped over as before
    (the unpacking may have used up an iterator)."""
    if alone is None:
        return ["        " + line for line in loop]
    names = ", ".join(f"x{i}" for i in range(players)) + ("," if players == 1 else "")
    out = ["        try:", f"            {names} = v", "        except ValueError:",
           f"            v = {alone}", *("            " + line for line in loop),
           "        else:"]
    for lines in each:
        out += ["            " + line for line in lines]
    return out


def _compile(blocks: tuple[Block, ...], offsets: list[int], players: int, deal_cls: type,
             sheet_cls: type, fallback: list[str], direct: bool = False,
             round32: bool = False, sources: Mapping[str, Any] | None = None,
             source_env: dict[str, Any] | None = None, seat: int | None = None
             ) -> Callable[..., None]:
    """``fill(obs, seat, ones, ni, nv)`` for one pair of view classes: the simplest
    blocks written inline (the same arithmetic as their ``put``), the others called; or
    (``direct``) ``write(obs, seat, mv)``, the same entries written into ``mv``.

    With ``sources`` (deal field name → a Python expression over ``st``, the match's
    deal state, and ``seat``, or from ``sheet.`` a score sheet field over ``m``;
    koloda.tensors.direct) the function is ``write(m, seat, mv)`` of a match ``m``: each
    field is read by its expression instead of off a view (the header's by
    ``HEADER_SOURCES``, a sheet field without one off ``m.sheet()``), so no observation
    is made; a block whose field has no expression raises NotDirect.

    With ``seat`` (an observer's seat) the function is that seat's own: every
    seat-relative position ``(x - seat) % P``, times a row's width, is read from a tuple
    made for the seat (``_for_seat``) instead of worked out at every entry."""
    env: dict[str, Any] = {"lookup": lookup, "P": players, "R": _float32,
                           "F": _ROUNDED.get,
                           **(source_env or {})}
    if sources is None:
        lines = ["def fill(obs, seat, ones, ni, nv):", "    deal = obs.deal",
                 "    sheet = obs.sheet", "    fb = None"]
    else:
        lines = ["def fill(m, seat, ones, ni, nv):", "    st = m.current",
                 "    over = m.is_over", "    fb = None"]
        if any(b.path.startswith("sheet.") and b.path not in sources for b in blocks):
            lines.insert(3, "    sheet = m.sheet()")
    #: each seat's position relative to the writer's own seat (``seat`` given)
    here = [] if seat is None else [(i - seat) % players for i in range(players)]
    plans = [_resolve(b.path, deal_cls, sheet_cls) for b in blocks]
    roots = [None if sources is None or plan is None else _root_expr(b, plan, sources)
             for b, plan in zip(blocks, plans, strict=True)]
    for k, (b, off) in enumerate(zip(blocks, offsets, strict=True)):
        plan = plans[k]
        if sources is not None and (plan is None or plan.kind not in b.typed_kinds()):
            raise NotDirect(b.name)
        if plan is None or plan.kind not in b.typed_kinds():
            fallback.append(b.name)
            env[f"e{k}"] = b.encode
            lines += ["    if fb is None:", "        fb = {}",
                      f"    e{k}(lookup(obs, {b.path!r}), seat, P, fb, {off})"]
            continue
        first, *rest = plan.chain
        #: the expression the block reads alone (not kept from or for a neighbour, no
        #: chain after it): a seat's own writer may read its per-seat values unpacked
        alone: str | None = None
        if sources is None:
            lines.append(f"    v = {plan.root}.{first}")
        elif plan.root == "sheet" and b.path not in sources:
            lines.append(f"    v = sheet.{first}")
        else:
            expr = roots[k]
            if expr is None:
                raise NotDirect(b.name)
            if k and roots[k - 1] == expr:          # read by the block before: kept
                lines.append("    v = kept")
            elif k + 1 < len(blocks) and roots[k + 1] == expr:
                lines.append(f"    v = kept = {expr}")
            else:
                lines.append(f"    v = {expr}")
                alone = None if rest or seat is None else expr
        for part in rest:
            lines.append(f"    v = None if v is None else v.{part}")
        t = type(b)
        if t is lay.Seat and isinstance(b, lay.Seat) and plan.kind == "seat":
            where = "v" if b.absolute else "(v - seat) % P"
            lines += ["    if v.__class__ is int and 0 <= v < P:",
                      f"        ones.append({off} + {where})"]
        elif t is lay.Flag:
            lines += ["    if v is True:", f"        ones.append({off})"]
        elif t is lay.Cards and plan.kind == "cards":
            lines += ["    if v:", f"        ones += [{off} + c for c in v]"]
        elif t is lay.Cards and plan.kind == "card":
            lines += ["    if v is not None:", f"        ones.append({off} + v)"]
        elif t is lay.PerSeat and isinstance(b, lay.PerSeat) and plan.kind == "per_seat" \
                and not b.optional:
            env[f"s{k}"] = b.scale
            loop = ["for s, x in enumerate(v):",
                    "    if x and s < P and x.__class__ is not bool:",
                    f"        ni.append({off} + (s - seat) % P)",
                    f"        nv.append(x * s{k})"]
            each = [[f"if x{i} and x{i}.__class__ is not bool:",
                     f"    ni.append({off + here[i]})",
                     f"    nv.append(x{i} * s{k})"]
                    for i in (range(players) if alone is not None else ())]
            lines += ["    if v:", *_per_seat(alone, players, loop, each)]
        elif t is lay.SeatCards and plan.kind == "plays":
            lines += ["    if v:",
                      f"        ones += [{off} + ((e[0] - seat) % P) * {CARDS} + e[1] for e in v]"]
        elif t is lay.Seats and plan.kind == "seats":
            lines += ["    if v:",
                      f"        ones += [{off} + (s - seat) % P for s in v if 0 <= s < P]"]
        elif t is lay.OneOf and isinstance(b, lay.OneOf) and plan.kind in b.typed_kinds():
            env[f"m{k}"] = b.slots()        # null included: Suit(no_suit=True) has a slot
            lines += [f"    i = m{k}.get(v)", "    if i is not None:",
                      f"        ones.append({off} + i)"]
        elif t is lay.PerSeat and isinstance(b, lay.PerSeat) and plan.kind == "per_seat":
            env[f"s{k}"] = b.scale                # optional: presence flags first
            loop = ["for s, x in enumerate(v):",
                    "    if x is not None and s < P and x.__class__ is not bool:",
                    "        r = (s - seat) % P",
                    f"        ones.append({off} + r)",
                    "        if x:",
                    f"            ni.append({off + players} + r)",
                    f"            nv.append(x * s{k})"]
            each = [[f"if x{i} is not None and x{i}.__class__ is not bool:",
                     f"    ones.append({off + here[i]})",
                     f"    if x{i}:",
                     f"        ni.append({off + players + here[i]})",
                     f"        nv.append(x{i} * s{k})"]
                    for i in (range(players) if alone is not None else ())]
            lines += ["    if v:", *_per_seat(alone, players, loop, each)]
        elif isinstance(b, lay.PerSeatSet) and t.put is lay.PerSeatSet.put \
                and plan.kind in b.typed_kinds():
            env[f"m{k}"] = vocab_slots(b.vocab)
            width = len(b.vocab)
            loop = ["for s, w in enumerate(v):",
                    "    if w and s < P:",
                    f"        row = {off} + ((s - seat) % P) * {width}",
                    "        for x in w:",
                    f"            i = m{k}.get(x)",
                    "            if i is not None:",
                    "                ones.append(row + i)"]
            each = [[f"if x{i}:",
                     f"    for x in x{i}:",
                     f"        i = m{k}.get(x)",
                     "        if i is not None:",
                     f"            ones.append({off + here[i] * width} + i)"]
                    for i in (range(players) if alone is not None else ())]
            lines += ["    if v:", *_per_seat(alone, players, loop, each)]
        elif t is lay.PerSeatOneOf and isinstance(b, lay.PerSeatOneOf) \
                and plan.kind in b.typed_kinds():
            env[f"m{k}"] = vocab_slots(b.vocab)
            width = len(b.vocab)
            loop = ["for s, w in enumerate(v):",
                    f"    i = m{k}.get(w)",
                    "    if i is not None and s < P:",
                    f"        ones.append({off} + ((s - seat) % P) * {width} + i)"]
            each = [[f"i = m{k}.get(x{i})",
                     "if i is not None:",
                     f"    ones.append({off + here[i] * width} + i)"]
                    for i in (range(players) if alone is not None else ())]
            lines += ["    if v:", *_per_seat(alone, players, loop, each)]
        elif t is lay.Number and isinstance(b, lay.Number) and plan.kind == "number" \
                and not b.optional:
            env[f"s{k}"] = b.scale
            lines += ["    if v and v.__class__ is not bool:",
                      f"        ni.append({off})", f"        nv.append(v * s{k})"]
        elif t is lay.Number and isinstance(b, lay.Number) and plan.kind == "number":
            env[f"s{k}"] = b.scale                # optional: a presence flag first
            lines += ["    if v is not None and v.__class__ is not bool:",
                      f"        ones.append({off})",
                      "        if v:",
                      f"            ni.append({off + 1})", f"            nv.append(v * s{k})"]
        elif t is lay.PerSeatCards and plan.kind == "per_seat_cards":
            lines += ["    if v:", "        for s, w in enumerate(v):",
                      "            if w:",
                      f"                row = {off} + ((s - seat) % P) * {CARDS}",
                      "                ones += [row + c for c in w]"]
        elif t is lay.TrickCards and plan.kind == "views":
            lines += ["    if v:", "        for w in v:",
                      "            w = getattr(w, 'cards', None)",
                      "            if w:",
                      f"                ones += [{off} + ((e[0] - seat) % P) * {CARDS} + e[1] "
                      "for e in w]"]
        else:
            if direct and b.puts_ones():        # its 1.0s set in the buffer itself
                env[f"p{k}"] = b.put_ones
                lines += ["    if v is not None:", f"        p{k}(v, seat, P, {off}, mv)"]
            else:
                env[f"p{k}"] = b.put
                lines += ["    if v is not None:",
                          f"        p{k}(v, seat, P, {off}, ones, ni, nv)"]
            if not b.none_is_zeros():       # a null that writes something (no trump)
                env[f"e{k}"] = b.encode
                lines += ["    else:", "        if fb is None:", "            fb = {}",
                          f"        e{k}(None, seat, P, fb, {off})"]
    if any(line.strip() == "fb = {}" for line in lines):
        lines += ["    if fb:", "        ni += fb", "        nv += fb.values()"]
    if direct:      # the called blocks' and the fallback's entries written at the end
        body = _direct(lines[1:], round32)
        if any(re.search(r"\b(ones|ni|nv)\b", line) for line in body):
            body = ["    ones = []", "    ni = []", "    nv = []", *body,
                    "    for i in ones:", "        mv[i] = 1.0",
                    "    for i, x in zip(ni, nv):",
                    "        mv[i] = F(x) or R(x)" if round32 else "        mv[i] = x"]
        lines = [f"def fill({'obs' if sources is None else 'm'}, seat, mv):", *body]
    if seat is not None:
        lines = _for_seat(lines, seat, players, env)
    source = "\n".join(lines)
    exec(compile(source, f"<koloda.tensors typed {deal_cls.__name__} {players}p>", "exec"),
         env)
    fill: Callable[..., None] = env["fill"]
    fill.__doc__ = source           # the generated code, for reading
    return fill


#: ``((x - seat) % P) * width`` and ``(x - seat) % P`` in a generated line (x a name or
#: a name's first item)
_ROW = re.compile(r"\(\((\w+(?:\[0\])?) - seat\) % P\) \* (\d+)")
_REL = re.compile(r"\((\w+(?:\[0\])?) - seat\) % P")


def _for_seat(lines: list[str], seat: int, players: int, env: dict[str, Any]) -> list[str]:
    """The generated lines of one seat's writer: each seat-relative position read from
    a tuple over the seats (``REL`` the relative seats, ``REL<width>`` them times a
    row's width), put into ``env``; ``seat`` stays the function's argument for what else
    reads it (the hand, the blocks called)."""
    rel = tuple((x - seat) % players for x in range(players))

    def row(m: re.Match[str]) -> str:
        width = int(m[2])
        env[f"REL{width}"] = tuple(r * width for r in rel)
        return f"REL{width}[{m[1]}]"

    env["REL"] = rel
    return [_REL.sub(r"REL[\1]", _ROW.sub(row, line)) for line in lines]


def _root_expr(b: Block, plan: _Plan, sources: Mapping[str, Any]) -> str | None:
    """The expression a block's field chain starts from when written from the match's
    state (``_compile`` with ``sources``), or None when it has none (read off the
    score sheet, or not direct)."""
    first = plan.chain[0]
    if plan.root == "sheet" and b.path not in sources:
        return None
    if plan.root == "obs":
        return HEADER_SOURCES.get(first)
    found = sources.get(b.path if plan.root == "sheet" else first)
    return found if isinstance(found, str) else None


_F32 = array("f", [0.0])
_UNSET: Any = object()


#: values rounded by ``_float32`` so far → their rounding (a tensor's values recur:
#: counts times a block's scale); the generated writers look here first
_ROUNDED: dict[float, float] = {}


def _float32(x: float) -> float:
    """``x`` rounded to the nearest float32, as a Python float (what a float32 array
    holds, and pyspiel's tensors are)."""
    _F32[0] = x
    y = _F32[0]
    if len(_ROUNDED) < 65536:
        _ROUNDED[x] = y
    return y


class TypedEncoder:
    """The tensor of one (game, player count) from typed observations (see the module)."""

    def __init__(self, blocks: tuple[Block, ...], offsets: list[int], players: int,
                 size: int) -> None:
        self.blocks, self.offsets, self.players, self.size = blocks, offsets, players, size
        self._plans: dict[tuple[type, type], Callable[..., None]] = {}
        self._writes: dict[tuple[type, type], Callable[..., None]] = {}
        self._writes32: dict[tuple[type, type], Callable[..., None]] = {}
        #: (match class, deal state class, round32) → each seat's writer straight from
        #: the state, or None (koloda.tensors.direct)
        self._direct: dict[tuple[type, type, bool], list[Callable[..., None]] | None] = {}
        #: (deal view class, sheet view class) → the blocks read as JSON there
        self.fallback: dict[tuple[type, type], list[str]] = {}

    def indices(self, obs: Observation, ones: list[int] | None = None) -> Indices:
        """(indices set to 1.0, other indices, their values) of ``obs``'s tensor; the
        ones are appended to ``ones`` when given."""
        if obs.players != self.players:
            raise ValueError(f"an observation of {obs.players} players given to the "
                             f"{self.players}-player encoder")
        key = (obs.deal.__class__, obs.sheet.__class__)
        fill = self._plans.get(key)
        if fill is None:
            slow = self.fallback[key] = []
            fill = self._plans[key] = _compile(self.blocks, self.offsets, self.players,
                                               *key, slow)
        out = [] if ones is None else ones
        ni: list[int] = []
        nv: list[float] = []
        seat = obs.seat
        fill(obs, 0 if seat is None else seat, out, ni, nv)
        return out, ni, nv

    def write(self, obs: Observation, mv: Any) -> None:
        """Write ``obs``'s tensor into ``mv``, a zeroed buffer of ``size`` floats (a numpy
        array's memoryview, a list): the entries ``indices`` gives, without the lists."""
        self._write(obs, mv, self._writes, False)

    def write32(self, obs: Observation, out: list[float]) -> None:
        """``write`` into a list of zeros, every value other than 1.0 rounded to float32
        as a float32 array would hold it (OpenSpiel's tensors are lists of these)."""
        self._write(obs, out, self._writes32, True)

    def _write(self, obs: Observation, out: Any,
               made: dict[tuple[type, type], Callable[..., None]], round32: bool) -> None:
        if obs.players != self.players:
            raise ValueError(f"an observation of {obs.players} players given to the "
                             f"{self.players}-player encoder")
        key = (obs.deal.__class__, obs.sheet.__class__)
        write = made.get(key)
        if write is None:
            write = made[key] = _compile(self.blocks, self.offsets, self.players, *key, [],
                                         True, round32)
        seat = obs.seat
        write(obs, 0 if seat is None else seat, out)

    def write_match(self, m: Any, seat: int, mv: Any, round32: bool = False) -> None:
        """``write(m.observation(seat), mv)`` (``write32`` with ``round32``), written
        straight from the match's state when its deal state declares how
        (``tensor_fields``, koloda.tensors.direct; no observation made), else from the
        observation."""
        writers = self.writers(m, round32)
        if writers is not None:
            writers[seat](m, seat, mv)
        else:
            self._write(m.observation(seat), mv, self._writes32 if round32 else self._writes,
                        round32)

    def writers(self, m: Any, round32: bool = False) -> list[Callable[..., None]] | None:
        """Each seat's writer straight from ``m``'s state (``writer(m, seat, mv)``, what
        ``write_match`` calls), or None when its deal state declares no ``tensor_fields``
        (koloda.tensors.direct). Valid for matches of ``m``'s class whose current deal
        state has the class of ``m``'s (a caller may keep them for the pair)."""
        if m.players != self.players:
            raise ValueError(f"a match of {m.players} players given to the "
                             f"{self.players}-player encoder")
        key = (m.__class__, m.current.__class__, round32)
        found = self._direct.get(key, _UNSET)
        if found is _UNSET:
            found = self._direct[key] = self._direct_writers(m, round32)
        return found

    def _direct_writers(self, m: Any, round32: bool) -> list[Callable[..., None]] | None:
        """Each seat's own writer straight from the match's state (``_compile`` with
        ``seat``), or None when the state declares no ``tensor_fields``."""
        from koloda.tensors.direct import ENV, source_of
        found = source_of(m.current.__class__)
        if found is None:
            return None
        view_cls, sources = found
        try:
            return [_compile(self.blocks, self.offsets, self.players, view_cls,
                             m.sheet().__class__, [], True, round32, sources, ENV, seat)
                    for seat in range(self.players)]
        except NotDirect:
            return None

    def dense(self, obs: Observation) -> list[float]:
        """The tensor as a list of floats (for the tests: equal to ``Encoder.encode``)."""
        ones, ni, nv = self.indices(obs)
        out = [0.0] * self.size
        for i in ones:
            out[i] = 1.0
        for i, x in zip(ni, nv, strict=True):
            out[i] = x
        return out


__all__ = ["CARDS", "Indices", "TypedEncoder", "field_kind", "shaped_kind"]
