"""The observation tensor written straight from a match's state, no observation made —
what the adapters use at every step for the games whose deal states declare how
(standard library only; this module knows no game).

``Match.observation(seat)`` builds a typed view of some twenty fields, most of them
tuples made from the deal state's lists, and the typed encoder (koloda.tensors.typed)
then reads them back; for the games the adapters are benchmarked on, that is most of an
adapter's step. A deal-state class may declare ``tensor_fields``: each field its tensor
blocks read mapped to the expression its own ``observation(seat)`` makes that field by
(``st`` the deal state, ``seat`` the observer, ``P`` the players; from ``sheet.`` a
score sheet field over ``m``, the match; a card set may be read unsorted, since a block
writes it as flags) — the games keep it beside their layouts (``STATE_FIELDS`` in
koloda/games/<game>/layout.py). The typed encoder's generated writer reads those
expressions instead of a view's attributes, so the same block writers write the same
entries. The view class the fields belong to is the one the state's ``observation`` is
declared to return.

Hidden information: an expression reads only what the game's ``observation(seat)``
reads for that field — the observer's own hand, discards and the public state.
tests/test_tensors_direct.py checks that the tensor written here equals the one written
from ``observation(seat)`` for every seat at every step of many random matches of every
game that declares it, and the leak tests (swapping hidden cards) run through this path
too.

A deal state that declares none (or a block whose field has no expression) is written
from the observation as before (``TypedEncoder.write_match``).
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from itertools import compress
from typing import Any

from koloda.cards import suit_of
from koloda.engine.view import View

#: what the expressions may call besides builtins and the state's own attributes and
#: methods
ENV: dict[str, Any] = {"compress": compress, "suit_of": suit_of}


def source_of(state_cls: type) -> tuple[type, Mapping[str, str]] | None:
    """The view class and field expressions of a deal-state class: those the class
    declares (``tensor_fields``) beside its own ``observation``, or a base's when it
    makes its observation with that base's own method; None when there are none (or a
    class declares None), or when the class makes its observation another way than the
    declaring class does."""
    for cls in state_cls.__mro__:
        if "tensor_fields" not in cls.__dict__:
            continue
        fields = cls.__dict__["tensor_fields"]
        if fields is None:
            return None
        own = cls.__dict__.get("observation")
        if own is None or getattr(state_cls, "observation", None) is not own:
            return None
        view = _returned_view(own)
        return None if view is None else (view, fields)
    return None


def _returned_view(observation: Any) -> type | None:
    """The View class ``observation`` is declared to return, or None."""
    try:
        returned = typing.get_type_hints(observation).get("return")
    except Exception:
        return None
    return returned if isinstance(returned, type) and issubclass(returned, View) else None
