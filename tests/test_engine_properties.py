"""The engine's properties, over games, player counts, seeds and move choices that
hypothesis draws (and shrinks to the shortest failing match when one breaks):

- cards are conserved: every zone of the deal together is exactly the deal's cards;
- a refused action changes nothing: every seat's observation, the legal list and the
  record are as before;
- replay equals play: the written record rebuilds every state and the result.

tests/conformance.py holds the checks themselves; here hypothesis chooses the matches.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import koloda
from koloda.engine.errors import IllegalAction
from koloda.engine.records import from_record
from tests.conformance import fingerprint, illegal_candidates

GAMES = sorted(koloda.registry())
#: a match is cut after this many actions (short matches keep the search wide)
MOST_STEPS = 120


@st.composite
def matches(draw: st.DrawFn) -> tuple[koloda.Match, list[int]]:
    """A new match of some game and player count, with the choices that will play it
    (each an index into the legal list, taken modulo its length)."""
    name = draw(st.sampled_from(GAMES))
    spec = koloda.get_spec(name)
    players = draw(st.sampled_from(list(spec.players)))
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    choices = draw(st.lists(st.integers(min_value=0, max_value=63), max_size=MOST_STEPS))
    return koloda.new_game(name, players=players, seed=seed, max_deals=1), choices


def _cards_conserved(match: koloda.Match) -> None:
    deal = match.deals[-1]
    where = sorted(c for cards in match.current.card_zones().values() for c in cards)
    assert where == sorted(deal.all_cards()), f"cards not conserved: {match.current.card_zones()}"


PROPERTY = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@PROPERTY
@given(matches())
def test_property_cards_are_conserved_at_every_step(case: tuple[koloda.Match, list[int]]) -> None:
    match, choices = case
    for choice in choices:
        if match.is_over:
            break
        _cards_conserved(match)
        legal = match.legal_actions()
        match.apply(legal[choice % len(legal)])
    if not match.is_over:
        _cards_conserved(match)


@PROPERTY
@given(matches(), st.randoms(use_true_random=False))
def test_property_a_refused_action_changes_nothing(case: tuple[koloda.Match, list[int]],
                                                   rng: random.Random) -> None:
    match, choices = case
    for choice in [*choices, 0]:
        before = fingerprint(match), json.dumps(match.record(), sort_keys=True)
        for bad in illegal_candidates(match, rng, 2):
            try:
                match.apply(bad)
            except IllegalAction as exc:
                assert str(exc), f"{bad!r} refused with no reason"
            else:
                raise AssertionError(f"illegal {bad!r} accepted; legal: {match.legal_actions()}")
            after = fingerprint(match), json.dumps(match.record(), sort_keys=True)
            assert after == before, f"refusing {bad!r} changed the match"
        if match.is_over:
            break
        legal = match.legal_actions()
        match.apply(legal[choice % len(legal)])


@PROPERTY
@given(matches())
def test_property_replay_equals_play(case: tuple[koloda.Match, list[int]]) -> None:
    match, choices = case
    prints = [fingerprint(match)]
    for choice in choices:
        if match.is_over:
            break
        legal = match.legal_actions()
        match.apply(legal[choice % len(legal)])
        prints.append(fingerprint(match))
    record = json.loads(json.dumps(match.record()))
    again = from_record(record)
    assert fingerprint(again) == prints[0]
    for i, step in enumerate(record["actions"]):
        assert again.to_move == step["seat"]
        again.apply(step["action"])
        assert fingerprint(again) == prints[i + 1], f"replay differs after action {i}"
    assert again.is_over == match.is_over
    assert again.result == match.result
