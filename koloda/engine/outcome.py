"""Reading a result's JSON ``details`` into a game's outcome view (``GameSpec.outcome``).

A game declares how its match ended for people as a typed view (its fields say what they
are, as every view's do); the view is made from the details a result or a record carries,
which a person's file may have written, so every value is read defensively: what is not
of the declared kind reads as None (or as nothing), never as an error on a result screen.
"""

from __future__ import annotations

from typing import Any


def seat(value: Any) -> int | None:
    """A seat number, or None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 \
        else None


def number(value: Any) -> int | float | None:
    """A number, or None."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def numbers(value: Any) -> tuple[int | float | None, ...]:
    """One number (or None) per seat."""
    return tuple(number(v) for v in value) if isinstance(value, (list, tuple)) else ()


def word(value: Any) -> str | None:
    """A vocabulary word, or None (an empty word is none)."""
    return value if isinstance(value, str) and value else None
