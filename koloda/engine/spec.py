"""Games, variants and options as data: what ``koloda games`` lists and ``new_game`` checks."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from koloda.engine.errors import ConfigError
from koloda.engine.messages import Allowed, Named, Names, Quotes, Reason, Value

if TYPE_CHECKING:
    import random

    from koloda.engine.deal import DealState
    from koloda.engine.match import Match

#: builds a full deal state consistent with what one seat's observation says
Determinizer = Callable[[Any, "random.Random"], "DealState"]
#: builds a bot for a game: ``factory(game_name, level)``
BotFactory = Callable[[str, "str | None"], Any]


@dataclass(frozen=True)
class ActionVocabulary:
    """The words a game's actions are made of (docs/records.md notation), so that a fixed
    numbered action space (the research adapters) and a person's keyboard can be built
    for any game without knowing it."""

    #: verbs without arguments (``take``, ``pass``, ``flip``)
    plain: tuple[str, ...] = ()
    #: verbs with a number and the largest number (``("bid", 18)``: bid 0..18)
    numbers: tuple[tuple[str, int], ...] = ()
    #: verbs with one card (``play C``)
    single: tuple[str, ...] = ()
    #: verbs with a set of cards (``attack C…``, ``discard C…``)
    multi: tuple[str, ...] = ()
    #: verbs with two cards (``beat A B``)
    pairs: tuple[str, ...] = ()
    #: cards played ``wild`` or ``plain`` (the shakhi: ``play 6C wild``)
    wild_cards: tuple[str, ...] = ()

    def verbs(self) -> tuple[str, ...]:
        """Every verb the game's actions begin with, sorted (empty: not declared)."""
        words = {*self.plain, *(v for v, _ in self.numbers), *self.single, *self.multi,
                 *self.pairs}
        return tuple(sorted(words))


@dataclass(frozen=True)
class Bounds:
    """What a research framework must be told before a game starts."""

    #: decisions one deal can take at most (multi-card selections counted card by card);
    #: a number, or a function of the resolved options
    actions_per_deal: int | Callable[[Mapping[str, Any]], int] = 1000
    #: the least and the most a seat's result can be worth in the adapters (win +1, loss -1)
    utility: tuple[float, float] = (-1.0, 1.0)

    def per_deal(self, options: Mapping[str, Any]) -> int:
        n = self.actions_per_deal
        return n(options) if callable(n) else n


@dataclass(frozen=True)
class Column:
    """One figure of the arena's table: ``key`` names it in the JSON summary (``key`` and
    ``key_95``), ``rate`` says it is a share in [0, 1] (a Wilson interval); with
    ``several_deals`` it is shown only when some match of the table had more than one deal."""
    key: str
    en: str
    ru: str
    rate: bool
    several_deals: bool = False


#: each seat's own measure of a finished match (None: that seat has none)
SeatMeasure = Callable[["Match"], "list[float | None]"]


@dataclass(frozen=True)
class Measure:
    """What the arena measures a game's seats by beside wins and draws (the row's
    ``measure``): by default the points (the result's score) per deal."""

    #: each seat's measure of the finished match; None: the score per deal played
    per_seat: SeatMeasure | None = None
    #: its name in the arena's JSON summary
    name: str = "points per deal"
    #: its column in the arena's table (key ``measure``)
    en: str = "points/deal"
    ru: str = "очки за сдачу"
    #: a share in [0, 1] (a bid made, a loss): Wilson's interval, a paired difference in
    #: [−1, 1]
    rate: bool = False
    #: a win is every seat-game neither drawn nor lost by this measure (Durak's loss rate):
    #: no win column of its own, the draw column always
    win_implied: bool = False
    #: the columns after the measure (Opendaum's points per deal)
    extra: tuple[Column, ...] = ()
    #: what the measure means, under the arena's table: (English, Russian); none for points
    note: tuple[str, str] | None = None

    @property
    def column(self) -> Column:
        return Column("measure", self.en, self.ru, self.rate)

    def of(self, match: Match) -> list[float | None]:
        """Each seat's measure of the finished ``match``."""
        if self.per_seat is not None:
            return self.per_seat(match)
        result = match.result
        assert result is not None
        played = max(1, match.deals_played)
        return [float(x) / played for x in result.scores]


#: whether a stored match moves the seats' ranks: ``moves_ranks(options, capped)``
RankRule = Callable[[Mapping[str, Any], bool], bool]


@dataclass(frozen=True)
class Option:
    """One option: its default (maybe by player count), its allowed values and meaning."""

    name: str
    default: Any
    allowed: str
    help_en: str
    help_ru: str
    #: returns what is wrong with a bad value (a catalog :class:`Reason`, or text), or
    #: None; gets (value, players)
    check: Callable[[Any, int], str | None] | None = None
    kind: type = int

    def default_for(self, players: int) -> Any:
        return self.default(players) if callable(self.default) else self.default

    def validate(self, value: Any, players: int) -> Any:
        kind_ok = (isinstance(value, bool) if self.kind is bool
                   else isinstance(value, self.kind) and not isinstance(value, bool))
        if not kind_ok:
            raise ConfigError("option_kind", name=self.name, value=Value(value),
                              allowed=Allowed(self.allowed))
        if self.check is not None:
            problem = self.check(value, players)
            if problem:
                raise ConfigError("option_value", name=self.name, value=Value(value),
                                  problem=problem, allowed=Allowed(self.allowed))
        return value


def int_range(lo: int, hi: int | None = None) -> Callable[[Any, int], str | None]:
    def check(v: Any, _players: int) -> str | None:
        if v < lo or (hi is not None and v > hi):
            return Reason("must_be_range", lo=lo, hi=hi) if hi is not None \
                else Reason("must_be_at_least", lo=lo)
        return None
    return check


def one_of(*values: Any) -> Callable[[Any, int], str | None]:
    def check(v: Any, _players: int) -> str | None:
        return None if v in values else Reason("must_be_one_of", values=Quotes(values))
    return check


MAX_DEALS = Option("max_deals", 200, "a whole number ≥ 1",
                   "safety cap: the match ends after this many deals, standings as they are",
                   "предохранитель: партия кончается после стольких сдач, по текущему счёту",
                   int_range(1))


@dataclass(frozen=True)
class GameSpec:
    """A playable game or variant, found by name in the registry."""

    name: str
    family: str
    variant: str
    title_en: str
    title_ru: str
    players: tuple[int, ...]
    default_players: int
    match_class: type[Match]
    options: tuple[Option, ...] = ()
    max_deals_default: int = 200
    summary_en: str = ""
    summary_ru: str = ""
    aliases: tuple[str, ...] = ()
    #: ``determinize(observation, rng)``: a deal state consistent with one seat's knowledge
    #: (every known void, public card and count respected); used by the search bot
    determinize: Determinizer | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    # ------------------------------------------------ what the game declares about itself
    #: the words of its actions
    actions: ActionVocabulary = field(default_factory=ActionVocabulary)
    #: bounds for research frameworks
    bounds: Bounds = field(default_factory=Bounds)
    #: its observation tensor: blocks after the common header (koloda.engine.layout)
    layout: tuple[Any, ...] = ()
    #: its own terms (labels, value words: key → (English, Russian)) and verbs (English,
    #: Russian as pressed, then optionally as a log says a seat did it: "plays", «ходит»)
    terms: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    verbs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: its own refusal sentences (message key → (English, Russian) templates)
    messages: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    #: its bots by kind (``heuristic``, ``search``): a factory or "module:function"
    bots: Mapping[str, BotFactory | str] = field(default_factory=dict)
    #: its typed views (the deal's observation, the score sheet), for docs and tests
    views: tuple[type, ...] = ()
    #: what its result says to a person beyond winners and scores (the durak, Opendaum-33's
    #: ranks, the pot left): a typed view made from the result's JSON ``details``, which
    #: ``koloda.present.present_result`` lays out the same way in every interface
    outcome: Callable[[Mapping[str, Any]], Any] | None = None
    #: its place in lists of games (the book's order); equal places go by name
    order: int = 1000
    #: what the arena measures its seats by (``koloda.arena``)
    measure: Measure = field(default_factory=Measure)
    #: its scores are better lower (the durak's count, Mushka's count left): the rating
    #: list ranks the seats of a game by them the other way round
    scores_lower_is_better: bool = False
    #: the term that heads the scores column of its result (Durak: the games each lost)
    score_term: str = "scores"
    #: its matches move ranks (``koloda.ranks``), when this says so of a stored match's
    #: options and whether it was stopped by the cap; None: no game of it moves ranks
    moves_ranks: RankRule | None = None

    @functools.cached_property
    def all_options(self) -> tuple[Option, ...]:
        cap = Option(MAX_DEALS.name, self.max_deals_default, MAX_DEALS.allowed, MAX_DEALS.help_en,
                     MAX_DEALS.help_ru, MAX_DEALS.check)
        return (*self.options, cap)

    @property
    def named(self) -> Named:
        """The game as a message names it: ``durak`` / «Дурак простой, или подкидной»."""
        return Named(self.name, self.title_ru)

    def defaults(self, players: int) -> dict[str, Any]:
        return {o.name: o.default_for(players) for o in self.all_options}

    def player_count(self, players: Any = None) -> int:
        """The number of players asked for (None: the game's default), checked."""
        return self.check_players(self.default_players if players is None else players)

    def check_players(self, players: Any) -> int:
        if not isinstance(players, int) or isinstance(players, bool) \
                or players not in self.players:
            raise ConfigError("players_count", game=self.named, counts=_counts(self.players),
                              value=Value(players))
        return players

    def resolve_options(self, players: int, given: Mapping[str, Any]) -> dict[str, Any]:
        """All options with defaults filled in; an unknown or bad option is a ConfigError."""
        try:
            key = (players, frozenset(given.items()))
            cached = self._resolved.get(key)
        except TypeError:  # an unhashable value (a dict option): no caching
            key, cached = None, None
        if cached is not None:
            return dict(cached)
        opts = self._resolve(players, given)
        if key is not None and len(self._resolved) < 256:
            self._resolved[key] = dict(opts)
        return opts

    @functools.cached_property
    def _resolved(self) -> dict[Any, dict[str, Any]]:
        return {}

    def _resolve(self, players: int, given: Mapping[str, Any]) -> dict[str, Any]:
        known = {o.name: o for o in self.all_options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise ConfigError("unknown_option", game=self.named, names=Quotes(unknown),
                              options=Names(known))
        opts = self.defaults(players)
        for name, value in given.items():
            opts[name] = known[name].validate(value, players)
        return opts

    def changed_options(self, players: int, opts: Mapping[str, Any]) -> dict[str, Any]:
        defaults = self.defaults(players)
        return {k: v for k, v in opts.items() if defaults.get(k) != v}


def _counts(counts: tuple[int, ...]) -> str:
    if len(counts) > 1 and counts == tuple(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]}"
    return ", ".join(map(str, counts))
