"""Durak, simple (throw-in) and transfer (koloda/rules/durak.en.md §Precisely): the specs and their
options.

``rounds`` holds one game (attack, defence, throw-in, drawing, leaving, the durak);
``match`` holds the games of a match (dealer, first attacker, losses).
"""

from __future__ import annotations

from typing import Any

from koloda.engine.match import Match
from koloda.engine.messages import Reason
from koloda.engine.spec import (
    ActionVocabulary,
    Bounds,
    Column,
    GameSpec,
    Measure,
    Option,
    int_range,
)
from koloda.games.durak.determinize import determinize
from koloda.games.durak.layout import LAYOUT
from koloda.games.durak.match import DurakMatch, PerevodnoyMatch
from koloda.games.durak.messages import MESSAGES
from koloda.games.durak.rounds import DurakGame
from koloda.games.durak.views import TERMS, VERBS, VIEWS, DurakOutcome

__all__ = ["SPECS", "DurakGame", "DurakMatch", "PerevodnoyMatch"]


def _teams_check(value: Any, players: int) -> str | None:
    if value and players not in (4, 6):
        return Reason("teams_players")
    return None


_OPTIONS = (
    Option("teams", lambda n: n in (4, 6), "true or false (true only with 4 or 6 players)",
           "play in teams, partners seated alternately (4 players: 2 vs 2, 6: 3 vs 3)",
           "играть командами, партнёры сидят через одного (4 игрока: 2 на 2, 6: 3 на 3)",
           _teams_check, kind=bool),
    Option("first_bout_limit", 6, "a whole number 1..6",
           "most attack cards in every round up to and including the first beaten one "
           "(5 is the common modern rule)",
           "сколько карт можно подкинуть в раундах до первого отбоя включительно "
           "(обычно сейчас 5)", int_range(1, 6)),
    Option("games", 1, "a whole number ≥ 1",
           "games in the match; the durak deals the next, the player on the durak's left "
           "attacks first",
           "сколько игр в партии; дурак сдаёт следующую, первым ходит игрок слева от дурака",
           int_range(1)),
)

#: decisions one deal can take at most (multi-card selections counted card by card)
_BOUNDS = Bounds(actions_per_deal=5000)
_BOTS = {"heuristic": "koloda.bots.heuristic.durak:make",
         "search": "koloda.bots.search.games.durak:DurakSearch"}

def _lost(match: Match) -> list[float | None]:
    """1 for a seat that lost (the durak, or on the durak's team), else 0."""
    result = match.result
    assert result is not None
    return [1.0 if s in result.losers else 0.0 for s in range(match.players)]


#: the arena measures a seat by being the durak; a win is every seat-game neither drawn nor
#: lost, so no column of its own; with matches of several games also the games lost per game
_MEASURE = Measure(_lost, "loss rate (lower is better)", "loss rate", "доля проигрышей",
                   rate=True, win_implied=True,
                   extra=(Column("per_deal", "lost/game", "проигр./игру", False,
                                 several_deals=True),),
                   note=("loss rate: left the durak (lower is better); a win is the rest, "
                         "1 − draw − loss",
                         "доля проигрышей: остался дураком (меньше — лучше); победа — "
                         "остальное, 1 − ничьи − проигрыши"))

SPECS = [
    GameSpec(
        name="durak", family="durak", variant="simple",
        title_en="Durak (simple, throw-in)", title_ru="Дурак простой, или подкидной",
        players=(2, 3, 4, 5, 6), default_players=2, match_class=DurakMatch,
        options=_OPTIONS,
        summary_en="Beat the attack or take it; throw in cards of ranks on the table; the "
                   "last player holding cards is the durak.",
        summary_ru="Отбивайся или бери; подкидывают карты тех же достоинств; кто остался с "
                   "картами — дурак.",
        determinize=determinize,
        terms=TERMS, verbs=VERBS, messages=MESSAGES, views=VIEWS, outcome=DurakOutcome.from_details,
        aliases=("durak-podkidnoy", "podkidnoy", "durak-simple", "дурак", "подкидной"),
        actions=ActionVocabulary(plain=("take", "pass"), multi=("attack", "throw"),
                                 pairs=("beat",)),
        bounds=_BOUNDS, layout=LAYOUT, bots=_BOTS, order=8,
        measure=_MEASURE, scores_lower_is_better=True, score_term="losses",
    ),
    GameSpec(
        name="durak-perevodnoy", family="durak", variant="perevodnoy",
        title_en="Transfer durak", title_ru="Дурак переводной",
        players=(2, 3, 4, 5, 6), default_players=2, match_class=PerevodnoyMatch,
        options=_OPTIONS,
        summary_en="Durak where the defender may pass the attack on with cards of the same "
                   "rank while nothing is beaten yet.",
        summary_ru="Дурак, в котором отбивающийся может перевести ход картой того же "
                   "достоинства, пока ничего не побито.",
        determinize=determinize,
        terms=TERMS, verbs=VERBS, messages=MESSAGES, views=VIEWS, outcome=DurakOutcome.from_details,
        aliases=("perevodnoy", "durak-transfer", "переводной", "дурак переводной"),
        actions=ActionVocabulary(plain=("take", "pass"), multi=("attack", "throw", "transfer"),
                                 pairs=("beat",)),
        bounds=_BOUNDS, layout=LAYOUT, bots=_BOTS, order=8,
        measure=_MEASURE, scores_lower_is_better=True, score_term="losses",
    ),
]
