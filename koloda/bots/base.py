"""The bot registry: bots by name[:level] (``koloda.bots.interface`` says what a bot is)."""

from __future__ import annotations

from koloda.bots.interface import (
    Bot,
    Factory,
    RandomBot,
    declared,
    resolve,
    search_class,
)
from koloda.engine.errors import ConfigError

__all__ = ["Bot", "Factory", "RandomBot", "available_bots", "bot_levels", "declared",
           "make_bot", "measuring_bots", "person_time_cap", "register_bot", "resolve",
           "search_class"]


def search_bot(level: str | None, game: str, seconds: float | None = None) -> Bot:
    from koloda.bots.search.levels import build_search
    from koloda.engine.registry import get_spec
    bot: Bot = build_search(search_class(game), get_spec(game).name, level, seconds)
    return bot


def heuristic_bot(level: str | None, game: str, seconds: float | None = None) -> Bot:
    from koloda.engine.registry import get_spec
    bot: Bot = declared("heuristic", game)(get_spec(game).name, level)
    return bot


def clairvoyant_bot(level: str | None, game: str, seconds: float | None = None) -> Bot:
    from koloda.bots.search.clairvoyant import Clairvoyant
    if level:
        raise ConfigError("unknown_level", level=repr(level), levels="(none)")
    return Clairvoyant(game, seconds=seconds)


_FACTORIES: dict[str, Factory] = {
    "random": lambda level, game, seconds: RandomBot(),
    "search": search_bot,
    "heuristic": heuristic_bot,
}
#: measuring bots: made by ``make_bot`` for the arena, never offered at a table
_MEASURING: dict[str, Factory] = {
    "clairvoyant": clairvoyant_bot,
}


def register_bot(name: str, factory: Factory, measuring: bool = False) -> None:
    """Add a bot kind; ``factory(level, game_name, seconds)`` builds one. A ``measuring``
    kind (an outside floor such as OpenSpiel's ISMCTS) is made for the arena only and never
    offered at a table."""
    (_MEASURING if measuring else _FACTORIES)[name] = factory


def available_bots() -> list[str]:
    """The bots a table may seat (measuring bots such as ``clairvoyant`` are not)."""
    return sorted(_FACTORIES)


def measuring_bots() -> list[str]:
    """Bots for measurement only: they see what a player may not (``cheating``)."""
    return sorted(_MEASURING)


def bot_levels(name: str) -> list[str]:
    """The levels of a bot kind (``search``: the level table's), none for the others."""
    if name == "search":
        from koloda.bots.search.levels import LEVELS
        return list(LEVELS)
    return []


def make_bot(spec: str, game: str = "", seconds: float | None = None) -> Bot:
    """``random``, ``heuristic``, ``search:normal``, ``clairvoyant`` … → a bot for
    ``game``. Search budgets are iterations; ``seconds`` adds a time cap (for a person
    waiting — a measurement never gives one: the same seed then gives the same moves)."""
    name, _, level = spec.strip().lower().partition(":")
    factory = _FACTORIES.get(name) or _MEASURING.get(name)
    if factory is None:
        raise ConfigError("unknown_bot", bot=repr(spec),
                          bots=", ".join(available_bots() + measuring_bots()))
    return factory(level or None, game, seconds)


#: what each computer player is, in a sentence (English, Russian); ``{s}``: the seconds it
#: may think when a person waits for its move
BOT_NOTES: dict[str, tuple[str, str]] = {
    "random": ("plays any legal move, at random", "ходит любым допустимым ходом наугад"),
    "heuristic": ("plays by the rules of thumb of good players, at once",
                  "играет по правилам опыта хороших игроков, сразу"),
    "search:easy": ("a short search: plays out a few deals the hidden cards may make "
                    "(about {s} s a move)",
                    "короткий перебор: разыгрывает несколько раскладов скрытых карт "
                    "(около {s} с на ход)"),
    "search:normal": ("a search: plays out many deals the hidden cards may make (up to "
                      "{s} s a move)",
                      "перебор: разыгрывает много раскладов скрытых карт (до {s} с на ход)"),
    "search:hard": ("the longest search: {k} times normal's play-outs (up to {s} s a move)",
                    "самый долгий перебор: в {k} раз больше розыгрышей, чем у среднего (до "
                    "{s} с на ход)"),
}


def bot_note(spec: str, lang: str = "en") -> str:
    """What the computer player ``spec`` is, in a sentence (empty: not one a person
    seats)."""
    name, _, level = spec.strip().lower().partition(":")
    key = f"{name}:{level or 'normal'}" if name == "search" else name
    pair = BOT_NOTES.get(key)
    if pair is None:
        return ""
    cap = person_time_cap(key)
    seconds = f"{cap:g}".replace(".", ",") if lang == "ru" and cap is not None \
        else f"{cap:g}" if cap is not None else ""
    from koloda.bots.search.levels import LEVELS
    times = f"{LEVELS['hard'].share / LEVELS['normal'].share:g}"
    return (pair[1] if lang == "ru" else pair[0]).format(s=seconds, k=times)


def person_time_cap(spec: str) -> float | None:
    """The time cap a bot gets when a person waits for its move (the terminal, the
    browser): a search level's ``Level.seconds``; None for a bot that never searches."""
    name, _, level = spec.strip().lower().partition(":")
    if name != "search":
        return None
    from koloda.bots.search.levels import DEFAULT_LEVEL, LEVELS
    found = LEVELS.get(level or DEFAULT_LEVEL)
    return found.seconds if found is not None else None
