"""A plain view class's ``__init__`` (koloda.engine.view: the fields stored straight into
the instance, made on the first construction) takes what the frozen dataclass's own takes
and gives the same instance: positional and keyword arguments, defaults, the errors of a
missing or unknown argument, frozen fields, equality, ``dataclasses.replace``, pickling.
A class it cannot do (a ``__post_init__``, a factory default) keeps the dataclass's."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass

import pytest

from koloda.engine.view import View, item


@dataclass(frozen=True)
class _Pair(View):
    left: int = item("number", "games")
    right: tuple[int, ...] = item("cards", "hand", default=())


@dataclass(frozen=True)
class _Triple(_Pair):
    extra: str | None = item("word", "phase", default=None)


@dataclass(frozen=True)
class _Checked(View):
    n: int = item("number", "games")

    def __post_init__(self) -> None:
        if self.n < 0:
            raise ValueError("negative")


def test_a_plain_views_init_stores_its_fields_as_the_dataclass_would() -> None:
    a = _Pair(1, (2, 3))
    assert (a.left, a.right) == (1, (2, 3))
    assert _Pair(left=1) == _Pair(1, ()) == _Pair(1)
    assert "__setattr__" not in vars(a)
    assert _Pair.__init__.__code__.co_filename == "<view _Pair.__init__>"   # the fast one
    b = _Triple(1, extra="x")
    assert (b.left, b.right, b.extra) == (1, (), "x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.left = 2  # type: ignore[misc]
    with pytest.raises(TypeError, match="left"):
        _Pair()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="nope"):
        _Pair(1, nope=2)  # type: ignore[call-arg]
    assert dataclasses.replace(b, left=5) == _Triple(5, (), "x")
    assert pickle.loads(pickle.dumps(b)) == b
    assert a.to_json() == {"left": 1, "right": ["4S", "5S"]}


def test_a_view_with_a_post_init_keeps_the_dataclass_init() -> None:
    assert _Checked(2).n == 2
    assert not _Checked.__init__.__code__.co_filename.startswith("<view")
    with pytest.raises(ValueError, match="negative"):
        _Checked(-1)
