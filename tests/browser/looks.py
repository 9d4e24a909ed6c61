"""What a page must look like wherever a person opens it, checked in Chromium: nothing wider
than its box, table headers over their columns, what a player must act on within the first
screen, and no program's words (``null``, ``Value('X')``, snake_case, JSON) in its text.

Each check returns the problems it found (an empty list: none), each a line naming the
element, so a failing test says what is wrong where."""

from __future__ import annotations

import re
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


_OVERFLOW = r"""
() => {
  const out = [];
  const name = (el) => el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}${
    el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : ""}`;
  const path = (el) => { const p = []; for (let e = el; e && e !== document.body && p.length < 4; e = e.parentElement) p.unshift(name(e)); return p.join(" > "); };
  const doc = document.documentElement;
  if (doc.scrollWidth > innerWidth + 1) out.push(`the page is ${doc.scrollWidth} px wide in a ${innerWidth} px window`);
  for (const el of document.body.querySelectorAll("*")) {
    if (!el.getClientRects().length) continue;                   // not shown
    const cs = getComputedStyle(el);
    if (cs.display === "inline" || el.tagName === "svg" || el.closest("svg")) continue;
    if (el.closest(".scroll") || el.matches(".log, select, input, textarea, option")) continue;
    if (cs.textOverflow === "ellipsis") continue;                // cut on purpose, with …
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      out.push(`${path(el)}: ${el.scrollWidth} px of content in a ${el.clientWidth} px box`);
    }
  }
  for (const el of document.body.querySelectorAll(".scroll")) {
    if (!el.getClientRects().length) continue;
    const r = el.getBoundingClientRect(), p = el.parentElement.getBoundingClientRect();
    if (r.right > p.right + 1 || r.left < p.left - 1) out.push(`${path(el)} sticks out of its box`);
  }
  return out;
}
"""

_COLUMNS = r"""
() => {
  const out = [];
  for (const table of document.querySelectorAll("table")) {
    if (!table.getClientRects().length) continue;
    const head = table.tHead && table.tHead.rows[table.tHead.rows.length - 1];
    const body = table.tBodies[0] && table.tBodies[0].rows[0];
    if (!head || !body || head.cells.length !== body.cells.length) continue;
    const label = table.id ? `#${table.id}` : `table.${table.className}`;
    const hr = head.getBoundingClientRect(), br = body.getBoundingClientRect();
    if (br.top < hr.bottom - 1) out.push(`${label}: its rows are beside its header, not under it`);
    for (let i = 0; i < head.cells.length; i++) {
      const a = head.cells[i].getBoundingClientRect(), b = body.cells[i].getBoundingClientRect();
      if (Math.abs(a.left - b.left) > 1.5 || Math.abs(a.right - b.right) > 1.5) {
        out.push(`${label}: column ${i + 1} "${head.cells[i].innerText}" is at x ${Math.round(a.left)}-${Math.round(a.right)}, its cells at ${Math.round(b.left)}-${Math.round(b.right)}`);
      }
    }
  }
  return out;
}
"""

_FIRST_SCREEN = r"""
() => {
  const out = [];
  const y = scrollY;
  const act = [...document.querySelectorAll("#hand img.card, #moves > .move-row button.move, #moves .pickable, #center .pickable, #center .attack.beatable")];
  for (const el of act) {
    const r = el.getBoundingClientRect();
    if (!r.height) continue;
    if (r.bottom + y > innerHeight + 1) {
      out.push(`${el.tagName.toLowerCase()} "${el.innerText || el.getAttribute("alt") || ""}" ends at ${Math.round(r.bottom + y)} px, below the first screen (${innerHeight} px)`);
    }
  }
  if (!act.length) out.push("nothing to act on is shown");
  return out;
}
"""


def overflow_problems(page: Any) -> list[str]:
    """Every shown element whose content is wider than its box (the page's own width
    included); a ``.scroll`` box may scroll, but must stay inside its own box."""
    found: list[str] = page.evaluate(_OVERFLOW)
    return found


def column_problems(page: Any) -> list[str]:
    """Every shown table whose header cells are not over its first row's cells."""
    found: list[str] = page.evaluate(_COLUMNS)
    return found


def first_screen_problems(page: Any) -> list[str]:
    """When it is the page's move: the hand and the move buttons within the first screen
    (measured from the top of the page, whatever it is scrolled to)."""
    found: list[str] = page.evaluate(_FIRST_SCREEN)
    return found


def page_problems(page: Any, lang: str, where: str) -> list[str]:
    """All of the checks but the first screen's, each problem prefixed by ``where``."""
    text = page.evaluate("document.body.innerText")
    found = text_problems(text, lang) + overflow_problems(page) + column_problems(page)
    return [f"{where}: {p}" for p in found]
