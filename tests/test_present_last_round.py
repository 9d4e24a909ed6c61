"""What the presented last round or trick says became of its cards: a Durak round beaten off
is said beaten off, one taken is said taken by its defender; a trick is taken by its winner
(koloda.present, and the terminal's and the command line's lines that show it)."""

from __future__ import annotations

import random
from typing import Any

from koloda import new_game
from koloda.cli.play import table_lines
from koloda.present import present
from koloda.tui.view import last_trick_view

NAMES = ["Anna", "Boris"]


def _rounds(outcome: str) -> list[tuple[Any, dict[str, Any], Any]]:
    """(match, display, last round view) after rounds of random Durak that ended ``outcome``."""
    found = []
    for seed in range(1, 6):
        m = new_game("durak", 2, seed=seed)
        rng = random.Random(seed)
        while not m.is_over and len(found) < 3:
            m.apply(rng.choice(m.legal_actions()))
            obs = m.public_observation()
            rnd = obs.deal.last_round
            if rnd is not None and rnd.outcome == outcome:
                found.append((m, present(obs, "en", NAMES), rnd))
        if len(found) >= 3:
            break
    assert found, f"no {outcome} round in random play"
    return found


def test_durak_round_beaten_off_not_said_taken() -> None:
    for m, disp, _rnd in _rounds("beaten"):
        last = disp["last"]
        assert last["winner"] is None
        assert last["result"] == "beaten off"
        assert present(m.public_observation(), "ru", NAMES)["last"]["result"] == "бито"
        said = last_trick_view(disp, "en").plain
        assert "beaten off" in said and "taken by" not in said
        line = next(x for x in table_lines(disp, "en") if x.startswith("Last round"))
        assert line.endswith("— beaten off"), line


def test_durak_round_taken_said_taken_by_the_defender() -> None:
    for m, disp, rnd in _rounds("taken"):
        who = NAMES[rnd.defender]
        assert disp["last"]["winner"] == who
        assert disp["last"]["result"] == f"taken by {who}"
        assert present(m.public_observation(), "ru", NAMES)["last"]["result"] == f"взял(а) {who}"
        assert last_trick_view(disp, "en").plain.endswith(f"— taken by {who}")


def test_trick_still_said_taken_by_its_winner() -> None:
    m = new_game("trinka", 4, seed=3)
    rng = random.Random(3)
    names = ["Anna", "Boris", "Vera", "Gleb"]
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()))
        last = m.public_observation().deal.last_trick
        if last is not None:
            disp = present(m.public_observation(), "en", names)
            assert disp["last"]["winner"] == names[last.winner]
            assert disp["last"]["result"] == f"taken by {names[last.winner]}"
            assert last_trick_view(disp, "en").plain.endswith(
                f"— taken by {names[last.winner]}")
            return
    raise AssertionError("no trick was completed")
