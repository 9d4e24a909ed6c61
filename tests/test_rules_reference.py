"""The project's own rules reference.

Every game's player text ``koloda/rules/<family>.en.md`` ends with a section "Precisely"
(numbered items: the exact rules), and its ``.ru.md`` twin with «Точно», item for item; what
all games share is in ``koloda/rules/conventions.en.md`` / ``.ru.md``, and the record format
in ``docs/records.md``. The code cites them as ``koloda/rules/trinka.en.md §Precisely 3``;
every such reference must name a page and an item that exist.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from koloda.engine.registry import registry

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "koloda" / "rules"
RECORDS_PAGE = ROOT / "docs" / "records.md"
HEADINGS = {"en": "## Precisely", "ru": "## Точно"}

#: the old, outside documents, spelled so that this file does not mention them itself
OLD_NAMES = ("RULES" + ".md", "RECORDS" + ".md")

_ITEMS = r"(?:\s+\d+(?:\s*[–-]\s*\d+)?(?:\s*,\s*\d+(?:\s*[–-]\s*\d+)?)*)?"
#: ``koloda/rules/<page>.en.md §Precisely 3, 5–7`` (also ``.ru.md §Точно``, a backtick allowed)
REF = re.compile(r"koloda/rules/(?P<page>[\w-]+)\.(?P<lang>en|ru)\.md`?\s+§(?P<sec>Precisely|Точно)"
                 r"(?P<items>" + _ITEMS + ")")
#: any mention of a page of koloda/rules
PAGE = re.compile(r"koloda/rules/(?P<name>[\w-]+\.(?:en|ru)\.md)")


def families() -> list[str]:
    """The game families koloda ships (a game registered from elsewhere brings its own)."""
    return sorted({s.family for s in registry().values()
                   if s.match_class.__module__.startswith("koloda.")})


def section(page: str, lang: str) -> str:
    """The text of the page's final section, "Precisely" (en) or «Точно» (ru)."""
    text = (RULES_DIR / f"{page}.{lang}.md").read_text(encoding="utf-8")
    head = "\n" + HEADINGS[lang] + "\n"
    assert head in text, f"{page}.{lang}.md has no section {HEADINGS[lang]!r}"
    body = text.split(head, 1)[1]
    later = [line for line in body.splitlines() if line.startswith("## ")]
    assert not later, f"{page}.{lang}.md: {HEADINGS[lang]!r} is not the final section ({later})"
    return body


def items(page: str, lang: str) -> list[int]:
    return [int(n) for n in re.findall(r"^(\d+)\. \S", section(page, lang), re.M)]


def cited(text: str) -> set[int]:
    """The items ``3, 5–7`` names: {3, 5, 6, 7}."""
    out: set[int] = set()
    for part in re.findall(r"\d+(?:\s*[–-]\s*\d+)?", text):
        numbers = [int(n) for n in re.findall(r"\d+", part)]
        lo, hi = numbers[0], numbers[-1]
        assert lo <= hi, f"a backwards range {part!r}"
        out.update(range(lo, hi + 1))
    return out


def sources() -> list[Path]:
    """Every file that may cite the rules reference."""
    found = sorted((ROOT / "koloda").rglob("*.py")) + sorted((ROOT / "tests").rglob("*.py"))
    found += sorted(RULES_DIR.glob("*.md")) + sorted((ROOT / "docs").rglob("*.md"))
    found.append(ROOT / "README.md")
    return [p for p in found if p.is_file()]


# ------------------------------------------------------------------ (a) the pages themselves
def test_koloda_ships_its_games() -> None:
    assert {"opendaum", "mushka", "kopilka", "dreyfus", "trinka", "stukolka", "pyanitsy",
            "durak"} <= set(families())


@pytest.mark.parametrize("page", [*families(), "conventions"])
def test_every_page_ends_with_numbered_precise_rules_in_both_languages(page: str) -> None:
    en, ru = items(page, "en"), items(page, "ru")
    assert en, f"{page}.en.md: 'Precisely' has no numbered items"
    assert en == list(range(1, len(en) + 1)), f"{page}.en.md: items not numbered 1..n: {en}"
    assert ru == en, f"{page}.ru.md: «Точно» has items {ru}, the English page {en}"


def test_the_record_format_is_in_the_repository() -> None:
    text = RECORDS_PAGE.read_text(encoding="utf-8")
    for key in ("koloda-record/1", "## The result", "## Actions", "## Replaying", "`legal`",
                "`capped`", "trump_card", "exit status is 2"):
        assert key in text, key


def test_the_reference_itself_cites_no_outside_document() -> None:
    for path in [*RULES_DIR.glob("*.md"), RECORDS_PAGE]:
        text = path.read_text(encoding="utf-8")
        for old in OLD_NAMES:
            assert old not in text, f"{path.relative_to(ROOT)} still cites {old}"


# ------------------------------------------------------------------ (b) the references to them
def test_every_reference_names_an_existing_page_and_item() -> None:
    bad: list[str] = []
    for path in sources():
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT).as_posix()
        for m in PAGE.finditer(text):
            if not (RULES_DIR / m["name"]).is_file():
                bad.append(f"{where}: no page koloda/rules/{m['name']}")
        for m in REF.finditer(text):
            page, lang = m["page"], m["lang"]
            if not (RULES_DIR / f"{page}.{lang}.md").is_file():
                continue                                  # reported above
            if (lang, m["sec"]) not in (("en", "Precisely"), ("ru", "Точно")):
                bad.append(f"{where}: {m[0]!r}: the {lang} page's section is "
                           f"{HEADINGS[lang][3:]!r}")
                continue
            have = set(items(page, lang))
            missing = sorted(cited(m["items"]) - have)
            if missing:
                bad.append(f"{where}: {' '.join(m[0].split())!r}: no item {missing} "
                           f"(the page has 1..{max(have)})")
        if "docs/records.md" in text and not RECORDS_PAGE.is_file():
            bad.append(f"{where}: cites docs/records.md, which is missing")
    assert not bad, "\n".join(bad)


def test_no_reference_to_the_outside_documents_remains() -> None:
    """Passes once ``rules_repoint.py`` has rewritten the old references (the lead runs it
    after merging; until then this fails and lists what it would rewrite)."""
    left: list[str] = []
    for path in sorted((ROOT / "koloda").rglob("*")) + sorted((ROOT / "tests").rglob("*.py")):
        if not path.is_file() or path.suffix not in (".py", ".md"):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if any(old in line for old in OLD_NAMES):
                left.append(f"{path.relative_to(ROOT).as_posix()}:{n}: {line.strip()}")
    assert not left, (f"{len(left)} line(s) still cite {' / '.join(OLD_NAMES)} (run "
                      "rules_repoint.py REPO_ROOT):\n" + "\n".join(left))
