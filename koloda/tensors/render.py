"""A readable, deterministic text of one observation (the OpenSpiel observation string).

It prints the observation dict and nothing else, so it names no card the seat may not
know; equal observations give equal strings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def render(observation: Mapping[str, Any]) -> str:
    """One ``field: value`` line per observation field, in the observation's own order;
    card lists as ``6C 7C AH``, nulls as ``-``."""
    return "\n".join(f"{key}: {_text(value)}" for key, value in observation.items())


def _text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float, str)):
        return str(value)
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(x, str) and " " not in x for x in value):
            return " ".join(value)
        return "[" + ", ".join(_text(x) for x in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}={_text(x)}" for k, x in value.items()) + "}"
    return str(value)
