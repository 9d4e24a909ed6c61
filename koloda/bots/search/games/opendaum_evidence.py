"""The other seats' bids and plays as evidence, counted only as far as a caller needs.

``misfits_below(state, seat, cap)`` is ``koloda.bots.heuristic.opendaum.misfits`` with
its ``cap`` and the shakhi variant's faster play lister: a search resampling its deals
(``OpendaumSearch.resample``) only needs to know whether a draw misfits fewer times
than its acceptance threshold and than the best draw so far, and most draws misfit
early (a bid, the first trick), so the replay of the rest of the deal is skipped. Below
the cap it returns exactly ``misfits`` (tests/test_opendaum_search_resample.py). The
shakhi variant's plays are worked out on int cards (``opendaum_rollout.shakhi_plays``),
the same plays faster.
"""

from __future__ import annotations

from typing import Any

from koloda.bots.heuristic.opendaum import misfits
from koloda.bots.search.games.opendaum_rollout import is_shakhi, shakhi_plays
from koloda.tricks import OpendaumShakhiPolicy, TrickRules


def shakhi_plays_of(rules: TrickRules, hand: list[int], led: int | None
                    ) -> list[tuple[int, str | None]] | None:
    """The shakhi variant's plays on int cards (``misfits``'s ``plays_of``); None for
    the other variants (their plays are listed by the rules)."""
    policy = rules.policy
    if not isinstance(policy, OpendaumShakhiPolicy) or not is_shakhi(rules):
        return None
    return shakhi_plays(rules, policy.ruff_only_when_only_trumps, hand, led)


def misfits_below(state: Any, seat: int, cap: float) -> int:
    """``misfits(state, seat)`` if it is below ``cap``, else some count ≥ ``cap`` (the
    count when it reached the cap); the shakhi variant's plays listed on int cards."""
    return misfits(state, seat, cap, shakhi_plays_of)
