"""A finished match's result reaches every connection as the engine wrote it."""

from __future__ import annotations

import json
import random

from koloda import new_game
from koloda.engine.match import Match
from koloda.web.views import HIDDEN, hidden_texts
from tests.browser.leaks import strings
from tests.test_web_views import table_of


def _finished_mushka_whose_draw_names_a_hidden_card() -> Match:
    for seed in range(40):
        match = new_game("mushka", players=3, seed=seed)
        rng = random.Random(seed)
        while not match.is_over:
            match.apply(rng.choice(match.legal_actions()))
        assert match.result is not None
        draw = match.result.to_json()["details"]["first_dealer_draw"]
        drawn = {card for rnd in draw["rounds"] for _seat, card in rnd}
        if drawn & hidden_texts(match, 0):
            return match
    raise AssertionError("no seed whose draw names a card hidden at the end")


def test_mushka_final_result_shows_the_public_dealer_draw_cards() -> None:
    """The draw for the first dealer (its own pack, public) came as "??" in the
    final state because the same card texts were hidden in the last deal."""
    match = _finished_mushka_whose_draw_names_a_hidden_card()
    table = table_of(match)
    assert match.result is not None
    expected = json.loads(json.dumps(match.result.to_json()))
    for viewer in (0, 1, None):
        state = json.loads(table.state_text(viewer))
        assert state["result"] == expected
        rounds = state["result"]["details"]["first_dealer_draw"]["rounds"]
        assert all(card != HIDDEN for rnd in rounds for _seat, card in rnd)


def test_what_is_still_hidden_at_the_end_stays_face_down_outside_the_result() -> None:
    """The result is exempt from the last check; the rest of the final state is not."""
    match = _finished_mushka_whose_draw_names_a_hidden_card()
    table = table_of(match)
    hidden = hidden_texts(match, 0)
    state = json.loads(table.state_text(0))
    state.pop("result")
    words = {w for s in strings(state) for w in s.split()}
    assert not words & hidden



def test_the_final_state_carries_the_result_as_the_terminal_lays_it_out() -> None:
    """The browser draws the end of a match from the display's ``result`` — the same
    ``present_result`` the terminal renders — in both languages, for seats and spectators."""
    from koloda.present import present_result
    match = new_game("durak", players=2, seed=5)
    rng = random.Random(5)
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    assert match.result is not None
    table = table_of(match)
    for viewer in (0, None):
        state = json.loads(table.state_text(viewer))
        for lang in ("en", "ru"):
            shown = state["display"][lang]["result"]
            names = [r["name"] for r in shown["rows"]]
            assert shown == present_result(match.result.to_json(), "durak", lang, names)
            if match.result.details.get("durak") is not None:
                assert any(r["marks"] for r in shown["rows"])
