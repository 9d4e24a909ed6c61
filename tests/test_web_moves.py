"""The browser chooses moves by cards with what the terminal's chooser computes: each seat's
state message carries ``koloda.moves.MoveChooser``'s data for its legal actions and hand."""

from __future__ import annotations

import json
import random
import time
from itertools import combinations

import pytest

from koloda import new_game, registry
from koloda.engine.match import Match
from koloda.moves import MoveChooser
from koloda.tui.view import sort_hand
from koloda.web.tables import Seat, Table
from koloda.web.views import open_targets


def table_of(match: Match) -> Table:
    seats = [Seat("person", f"P{i}") for i in range(match.players)]
    return Table("t", match.spec, match, match.seed or 0, dict(match.options), seats,
                 {"away_timeout": 60, "away_policy": "wait", "away_bot": "random"},
                 time.time())


def check_moves(msg: dict[str, object], legal: list[str]) -> None:
    """``msg``'s ``moves`` is the chooser's for the hand its display shows, and means what
    the terminal's chooser (the same legal actions, the hand in the terminal's order)
    means."""
    disp = msg["display"]["en"]                       # type: ignore[index]
    hand = disp["hand"]["cards"] if disp["hand"] else []
    moves = msg["moves"]
    targets = open_targets(disp)
    chooser = MoveChooser(legal, hand)
    assert moves == json.loads(json.dumps(chooser.to_json(targets)))
    terminal = MoveChooser(legal, sort_hand(hand, disp["trump"]))
    assert set(moves["playable"]) == terminal.legal_cards                 # type: ignore[index]
    exact = {frozenset(k.split()): [legal[i] for i in v]
             for k, v in moves["exact"].items()}                          # type: ignore[index]
    assert exact == terminal.by_cards
    assert moves["plain"] == terminal.plain                               # type: ignore[index]
    more = {frozenset(k.split()) for k in moves["more"]}                  # type: ignore[index]
    for n in (1, 2, 3):
        for cards in combinations(hand, n):
            chosen = frozenset(cards)
            assert (chosen in more) == bool(terminal.extending(chosen))
            assert exact.get(chosen, []) == terminal.exact(chosen)
    for card in hand:
        if card not in terminal.legal_cards and terminal.by_cards:
            assert moves["attempts"][card] == terminal.attempt(       # type: ignore[index]
                frozenset({card}), targets[0] if targets else None)
    for target in targets:
        for card in hand:
            aimed = moves["aims"][target][card]                       # type: ignore[index]
            assert aimed in terminal.exact(frozenset({card})) or aimed not in legal
    assert set(moves["beatable"]) == {                                # type: ignore[index]
        a.split()[1] for a in legal if a.startswith("beat ")}


@pytest.mark.parametrize("game", sorted(registry()))
def test_the_state_carries_the_move_choosers_data(game: str) -> None:
    for seed in (1, 2, 3):
        match = new_game(game, seed=seed)
        table = table_of(match)
        rng = random.Random(seed)
        for _ in range(120):
            if match.is_over:
                break
            seat = match.to_move
            assert seat is not None
            legal = match.legal_actions()
            check_moves(json.loads(table.state_text(seat)), legal)
            other = json.loads(table.state_text((seat + 1) % match.players))
            assert other["moves"] == json.loads(json.dumps(MoveChooser([], []).to_json()))
            table.apply_logged(seat, rng.choice(legal))
