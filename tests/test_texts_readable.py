"""Every text a person reads, in both languages, reads as text for people.

Over the terminal's sentences (koloda.i18n) and the browser's (koloda.web.texts), each
formatted with sample values; the one vocabulary (koloda.engine.terms); every game's
rules page; and what koloda.present shows of whole matches of every game and variant
played at random (the table at every few moves, the score sheet, the result): no
placeholder left (``{n}``), no name meant for programs (``first_bout_limit``; an option's
name only in a rules page's table marked as the options for programs, with its meaning),
no Python value (``None``, ``True``, ``Value(``, ``[``, ``{'``, ``{name!r}``), no JSON,
no facts of a part strung together as data (``1: lays out: …; count: 3``), no word said
twice in a row ("the the"). And what the texts say agrees with the game: a Durak round
beaten off is not said taken, the deal numbers the sheet writes are the header's, a
variant reads as the game's title names it.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Iterator, Mapping
from importlib import resources
from typing import Any

import pytest

from koloda import i18n, new_game, registry
from koloda.cli.play import table_lines
from koloda.engine import terms
from koloda.engine.spec import GameSpec
from koloda.present import present, present_result
from koloda.web.texts import TEXTS

pytestmark = pytest.mark.slow

LANGS = ("en", "ru")
SAMPLE = "Sample"

PLACEHOLDER = re.compile(r"\{[^{}]*\}")
#: a name for programs: words joined by underscores (``first_bout_limit``, ``ATTACK_CARD``)
SNAKE = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+")
#: a Python value or JSON
REPR = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|\b[A-Z]\w+\(|\[|\{'|\{\"|\"\w+\":")
#: the same word twice ("the the"); a number may repeat (a score «3 3» is not a word)
DOUBLED = re.compile(r"\b([^\W\d_]+)\s+\1\b", re.I)
#: the facts of a part strung together as data: "count: 3; cards laid out: —"
STRUNG = re.compile(r":\s[^:;|]+;\s[^:;|]+:\s")


def problems(text: str, *, strung: bool = True) -> list[str]:
    found = []
    for name, pattern in (("placeholder", PLACEHOLDER), ("name for programs", SNAKE),
                          ("Python value or JSON", REPR), ("doubled word", DOUBLED)):
        m = pattern.search(text)
        if m:
            found.append(f"{name} {m[0]!r}")
    if strung and STRUNG.search(text):
        found.append(f"facts strung as data {STRUNG.search(text)[0]!r}")  # type: ignore[index]
    return found


def check(where: str, texts: Iterator[str] | list[str], **kw: Any) -> list[str]:
    return [f"{where}: {p} in {t!r}" for t in texts for p in problems(t, **kw)]


# ------------------------------------------------------------- the catalogs
def _filled(template: str) -> str:
    kw = {f: (3 if f in ("n", "first", "last", "total", "of", "id") else SAMPLE)
          for _, f, _, _ in string.Formatter().parse(template) if f}
    return template.format(**kw)


def test_every_sentence_of_the_terminal_and_the_browser_reads_for_people() -> None:
    bad = []
    for key, pair in i18n._TEXTS.items():
        for lang, text in zip(LANGS, pair, strict=True):
            bad += check(f"koloda.i18n {key} ({lang})", [_filled(text)], strung=False)
            if "!r}" in text:
                bad.append(f"koloda.i18n {key} ({lang}): a Python repr of a value in {text!r}")
            assert i18n.t(key, lang, **{f: SAMPLE for _, f, _, _ in
                                        string.Formatter().parse(text) if f})
    for lang in LANGS:
        for key, text in TEXTS[lang].items():
            bad += check(f"koloda.web.texts {key} ({lang})", [_filled(text)], strung=False)
    assert not bad, "\n".join(bad)


def test_every_term_reads_for_people() -> None:
    registry()                                     # every game adds its own terms
    bad = []
    for table in (terms.TERMS, terms.VERBS, terms.DONE, terms.BOTS):
        for key, pair in table.items():
            bad += check(f"term {key}", list(pair), strung=False)
    assert not bad, "\n".join(bad)


# ------------------------------------------------------------- the rules pages
#: the line that marks the table of options for programs (option names, their meaning)
PROGRAM_TABLE = re.compile(r"options for programs|параметры для программ", re.I)
#: what a page for players does not say: the project's files and its internals
INTERNAL = re.compile(r"koloda/|\.md\b|\.py\b|\bengine\b|движ[оке]к?\b|\btests?\b|"
                      r"\bTODO\b|\bFIXME\b|\bXXX\b|<!--", re.I)


def families() -> list[str]:
    return sorted({s.family for s in registry().values()})


def page_for_players(text: str) -> tuple[str, list[list[str]]]:
    """The page without its tables of options for programs, and those tables' rows."""
    lines = text.splitlines()
    out: list[str] = []
    rows: list[list[str]] = []
    i = 0
    while i < len(lines):
        out.append(lines[i])
        if PROGRAM_TABLE.search(lines[i]):
            i += 1
            while i < len(lines) and not lines[i].lstrip().startswith("|") and \
                    not lines[i].strip():
                i += 1
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                rows.append([c.strip() for c in lines[i].strip().strip("|").split("|")])
                i += 1
            continue
        i += 1
    return "\n".join(out), rows


@pytest.mark.parametrize("family", families())
@pytest.mark.parametrize("lang", LANGS)
def test_every_rules_page_reads_for_players(family: str, lang: str) -> None:
    text = resources.files("koloda.rules").joinpath(f"{family}.{lang}.md") \
        .read_text(encoding="utf-8")
    body, rows = page_for_players(text)
    bad = []
    for n, line in enumerate(body.splitlines(), 1):
        bad += check(f"{family}.{lang}.md line {n}", [line], strung=False)
        m = INTERNAL.search(line)
        if m:
            bad.append(f"{family}.{lang}.md line {n}: internal {m[0]!r} in {line!r}")
    for row in rows[2:]:                       # after the heading and its rule
        meaning = row[-1] if row else ""
        if len(row) < 3 or not re.search(r"[^\W\d_]{3}", meaning):
            bad.append(f"{family}.{lang}.md: option without its meaning: {row}")
    assert not bad, "\n".join(bad)


# ------------------------------------------------------------- the table shown
SKIP = frozenset({"name", "kind", "card", "cards", "lang", "trump", "seat"})


def _labels(lang: str) -> frozenset[str]:
    return frozenset(pair[1 if lang == "ru" else 0] for pair in terms.TERMS.values())


def nested_labels(x: Any, lang: str) -> Iterator[str]:
    """Items whose value starts with another label ("first dealer draw: dealer: Anna"):
    a part's facts as data, not said."""
    if isinstance(x, Mapping):
        text = x.get("text")
        if isinstance(text, str) and "label" in x and ": " in text and \
                text.split(": ", 1)[0] in _labels(lang):
            yield f"a label inside a value {x['label']!r}: {text!r}"
        for v in x.values():
            yield from nested_labels(v, lang)
    elif isinstance(x, list):
        for v in x:
            yield from nested_labels(v, lang)


def shown(x: Any) -> Iterator[str]:
    """Every text of a display a person reads (not the names for programs it carries)."""
    if isinstance(x, Mapping):
        for k, v in x.items():
            if k not in SKIP:
                yield from shown(v)
    elif isinstance(x, list):
        for v in x:
            yield from shown(v)
    elif isinstance(x, str):
        yield x


def _games() -> list[tuple[str, int, int]]:
    out = []
    for name, spec in registry().items():
        if not spec.match_class.__module__.startswith("koloda."):
            continue
        for n in spec.players:
            out.append((name, n, 1))
        out.append((name, spec.default_players, 2))
    return out


NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dina", "Egor", "Zoya", "Ilya"]


def _disagreements(spec: GameSpec, disp: Mapping[str, Any], obs: Any, lang: str,
                   first_deal: int) -> list[str]:
    """What a display says that is not what happened (the round, the deal numbers, the
    variant)."""
    bad = []
    last = disp.get("last")
    rnd = getattr(obs.deal, "last_round", None)
    if last and getattr(rnd, "outcome", None) == "beaten":
        said = " ".join(x for x in table_lines(disp, lang) if x.startswith(
            ("Last round", "Последний кон")))
        if terms.term("taken_by", lang) in said or last.get("winner") is not None:
            bad.append(f"a round beaten off said taken: {said!r}")
    for table in disp["sheet"]["tables"]:
        if table["columns"][:1] == [terms.term("deal", lang)]:
            numbers = [r[0]["text"] for r in table["rows"]]
            want = [str(first_deal + k) for k in range(len(numbers))]
            if numbers != want:
                bad.append(f"sheet deals {numbers}, the header counted {want}")
    title = spec.title_ru if lang == "ru" else spec.title_en
    for it in disp["info"]:
        if it["name"] == "variant":
            words = re.findall(r"[^\W\d_]+", it["text"].lower())
            if not all(w in title.lower() for w in words):
                bad.append(f"variant {it['text']!r} is not how {title!r} names it")
    return bad


@pytest.mark.parametrize(("game", "players", "seed"), _games())
def test_every_table_sheet_and_result_reads_for_people(game: str, players: int,
                                                       seed: int) -> None:
    spec = registry()[game]
    m = new_game(game, players, seed=seed, max_deals=3)
    rng = random.Random(seed)
    names = NAMES[:players]
    first = {lang: present(m.public_observation(), lang, names)["deal"]["n"] for lang in LANGS}
    bad: list[str] = []
    steps = 0
    deals = len(m.deals)
    while True:
        if steps % 3 == 0 or m.is_over or len(m.deals) != deals:
            deals = len(m.deals)
            seats = [m.public_observation()]
            if m.to_move is not None:
                seats.append(m.observation(m.to_move))
            for obs in seats:
                for lang in LANGS:
                    disp = present(obs, lang, names)
                    bad += check(f"{game} {players}p seed {seed} move {steps} ({lang})",
                                 list(shown(disp)))
                    bad += [f"{game} {players}p seed {seed} move {steps} ({lang}): {b}"
                            for b in [*_disagreements(spec, disp, obs, lang, first[lang]),
                                      *nested_labels(disp, lang)]]
        if m.is_over or steps > 5000:
            break
        m.apply(rng.choice(m.legal_actions()))
        steps += 1
    assert m.is_over
    assert m.result is not None
    for lang in LANGS:
        res = present_result(m.result.to_json(), game, lang, names)
        bad += check(f"{game} result ({lang})", list(shown(res)))
    assert not bad, "\n".join(sorted(set(bad))[:40])
