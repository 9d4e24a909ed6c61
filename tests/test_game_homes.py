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
