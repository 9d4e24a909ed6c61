"""``Match.check`` says whether an action is legal and why not, changing nothing; and
``check_turn``, the one check the front ends make before a person's move is stored."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import koloda
from koloda.engine.errors import IllegalAction
from koloda.engine.turns import TurnRefused, check_turn
from tests.conformance import fingerprint, illegal_candidates


def _state(match: koloda.Match) -> tuple[str, str]:
    return fingerprint(match), json.dumps(match.record(), sort_keys=True)


@pytest.mark.parametrize("name", sorted(koloda.registry()))
def test_match_check_gives_the_legal_text_and_the_refusal_apply_gives_changing_nothing(
        name: str) -> None:
    rng = random.Random(5)
    match = koloda.new_game(name, seed=11, max_deals=1)
    for _ in range(40):
        if match.is_over:
            break
        before = _state(match)
        legal = match.legal_actions()
        for text in legal:
            assert match.check(text) == text
        for bad in illegal_candidates(match, rng, 3):
            with pytest.raises(IllegalAction) as checked:
                match.check(bad)
            assert _state(match) == before, f"check({bad!r}) changed the match"
            with pytest.raises(IllegalAction) as applied:
                match.apply(bad)
            assert str(checked.value) == str(applied.value)
        assert _state(match) == before
        match.apply(rng.choice(legal))


def test_match_check_takes_a_spelling_the_legal_list_writes_otherwise() -> None:
    match = koloda.new_game("durak", players=2, seed=5)
    legal = match.legal_actions()
    attack = next(a for a in legal if a.startswith("attack "))
    assert match.check(attack.lower()) == attack and attack.lower() != attack
    assert match.check(f"  {attack.upper()} ") == attack
    assert match.check(koloda.Action.parse(attack)) == attack


def test_match_check_refuses_every_action_once_the_match_is_over() -> None:
    match = koloda.new_game("pyanitsy", players=2, seed=1, max_deals=1)
    while not match.is_over:
        match.apply(match.legal_actions()[0])
    with pytest.raises(IllegalAction, match="over"):
        match.check("flip")


def test_check_turn_asks_seat_match_version_turn_then_the_rules_in_that_order() -> None:
    match = koloda.new_game("durak", players=2, seed=5)
    seat = match.to_move
    assert seat is not None
    other = 1 - seat
    legal = match.legal_actions()[0]

    def code(*args: object, **kwargs: object) -> str:
        with pytest.raises(TurnRefused) as exc:
            check_turn(match, *args, **kwargs)  # type: ignore[arg-type]
        return exc.value.code

    assert code(None, legal) == "spectator"
    assert code(seat, legal, seen=3, version=4) == "stale"
    assert code(other, legal) == "not_your_turn"
    assert code(seat, "beat 6C 7C") == "illegal"
    assert check_turn(match, seat, legal, seen=4, version=4) == legal
    assert check_turn(match, seat, legal) == legal
    match.apply(legal)                   # the check changed nothing: the move is still there
    with pytest.raises(TurnRefused) as exc:
        check_turn(match, match.to_move, "foo")
    assert exc.value.code == "illegal" and exc.value.render("ru") != str(exc.value)


def test_check_turn_refuses_a_finished_match_as_over() -> None:
    match = koloda.new_game("pyanitsy", players=2, seed=1, max_deals=1)
    while not match.is_over:
        match.apply(match.legal_actions()[0])
    with pytest.raises(TurnRefused) as exc:
        check_turn(match, 0, "flip")
    assert exc.value.code == "over"


def test_the_terminal_refuses_a_move_by_the_same_check_as_the_server(tmp_path: Path) -> None:
    """The terminal's session asks ``check_turn`` like the web: a computer's turn is
    refused as not the person's, an illegal card by the rule, and nothing changes."""
    from koloda.tui.session import Session, make_seats
    match = koloda.new_game("durak", players=2, seed=5)
    computer = 1 - (match.to_move or 0)
    seats = make_seats(2, 1 - computer, ["random"], "Anna")
    session = Session(match, seats, tmp_path / "d.json", use_store=False)
    before = _state(match)
    with pytest.raises(TurnRefused) as exc:
        session.play("beat 6C 7C")
    assert exc.value.code == "illegal" and _state(match) == before
    session.play(match.legal_actions()[0])      # an attack: the computer defends next
    assert match.to_move == computer
    with pytest.raises(TurnRefused) as exc:
        session.play(match.legal_actions()[0])
    assert exc.value.code == "not_your_turn"
