"""Where a game's code may live. A game is its folder, ``koloda/games/<game>/`` (rules,
views, layout, words, determinizer); three kinds of code that need what the engine core may
not import (numpy) or that sit above the games' layer have one documented second home each,
a module named after the game's family (docs/architecture.md, CONTRIBUTING.md):

- its heuristic bot: ``koloda/bots/heuristic/<family>.py``;
- its search hooks: ``koloda/bots/search/games/<family>.py`` (and ``<family>_<part>.py``);
- its batched kernel: ``koloda/batched/<family>.py`` (and ``<family>_<part>.py``);
- its player's rules: ``koloda/rules/<family>.<lang>.md``.

Nothing else under ``koloda/`` is named after a game, and every module in a second home
belongs to a registered game (or is that home's shared machinery, listed here)."""

from __future__ import annotations

from pathlib import Path

import koloda

ROOT = Path(koloda.__file__).parent
FAMILIES = sorted({spec.family for spec in koloda.registry().values()})
#: each second home and the modules in it that serve every game
HOMES = {
    "bots/heuristic": {"__init__"},
    "bots/search/games": {"__init__"},
    "batched": {"__init__", "bits", "core", "pace", "paced", "playphase", "trick",
                "vector_env"},
}


def _game_of(stem: str) -> str | None:
    return next((f for f in FAMILIES if stem == f or stem.startswith(f + "_")), None)


def test_every_module_of_a_second_home_belongs_to_a_registered_game() -> None:
    strays = []
    for home, shared in HOMES.items():
        for path in sorted((ROOT / home).glob("*.py")):
            if path.stem not in shared and _game_of(path.stem) is None:
                strays.append(str(path.relative_to(ROOT)))
    assert not strays, f"modules in a game's second home that name no game: {strays}"


def test_no_module_outside_the_games_and_their_homes_is_named_after_a_game() -> None:
    allowed = [ROOT / "games", *(ROOT / h for h in HOMES)]
    found = []
    for path in ROOT.rglob("*.py"):
        if any(path.parent == home or home in path.parents for home in allowed):
            continue
        if any(f in path.stem for f in FAMILIES):
            found.append(str(path.relative_to(ROOT)))
    assert not found, f"a game's code outside its folder and its second homes: {found}"


def test_every_game_has_its_rules_pages_in_both_languages() -> None:
    for family in FAMILIES:
        for lang in ("en", "ru"):
            assert (ROOT / "rules" / f"{family}.{lang}.md").is_file(), (family, lang)


def test_every_game_folder_is_a_registered_game() -> None:
    folders = {p.name for p in (ROOT / "games").iterdir()
               if p.is_dir() and not p.name.startswith("_")}
    assert folders == set(FAMILIES)


# ------------------------------------------------------------------- the words
def _shared_vocabulary() -> object:
    """``koloda.engine.terms`` as its own file declares it, before any game adds words."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("_shared_terms", ROOT / "engine/terms.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_verb_of_one_game_is_declared_by_that_game_not_by_the_shared_vocabulary() -> None:
    shared = _shared_vocabulary()
    users: dict[str, set[str]] = {}
    for spec in koloda.registry().values():
        for word in (*spec.actions.verbs(), *spec.actions.wild_cards):
            users.setdefault(word, set()).add(spec.family)
    alone = {word: sorted(users.get(word, ()))
             for word in shared.VERBS if len(users.get(word, ())) < 2}   # type: ignore[attr-defined]
    assert not alone, f"verbs of one game (or none) in engine/terms.py: {alone}"


def test_every_verb_a_game_uses_has_words_in_both_languages() -> None:
    from koloda.engine import terms
    for spec in koloda.registry().values():
        for word in spec.actions.verbs():
            assert word in terms.VERBS, f"{spec.name}: the verb {word!r} has no words"


def test_a_term_of_one_game_is_declared_by_that_game_not_by_the_shared_vocabulary() -> None:
    """A shared term is one the interfaces name themselves, or one several games use (a
    field of their views, a word in their code); a field of one game's views that no
    interface and no other game names belongs to that game."""
    import dataclasses
    import re
    shared = _shared_vocabulary()
    fields: dict[str, set[str]] = {}
    for spec in koloda.registry().values():
        for view in spec.views:
            if dataclasses.is_dataclass(view):
                for f in dataclasses.fields(view):
                    fields.setdefault(f.name, set()).add(spec.family)
    interfaces = [p.read_text() for p in ROOT.rglob("*") if p.suffix in {".py", ".js", ".html"}
                  and not str(p.relative_to(ROOT)).startswith(("games", "bots", "batched"))
                  and p != ROOT / "engine/terms.py"]
    for family in FAMILIES:
        code = "".join(p.read_text() for p in (ROOT / "games").glob(f"{family}*/**/*.py"))
        for word in re.findall(r"[\"']([a-z_]+)[\"']", code):
            if word in fields:
                fields[word].add(family)
    strays = []
    for key in shared.TERMS:                                # type: ignore[attr-defined]
        if len(fields.get(key, ())) != 1:
            continue
        said = re.compile(r"[\"'`]" + re.escape(key) + r"[\"'`]")
        if not any(said.search(text) for text in interfaces):
            strays.append((key, sorted(fields[key])))
    # "below the line" stays beside "above the line", which the interfaces name
    assert [s for s in strays if s[0] != "below"] == [], strays
