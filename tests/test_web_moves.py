"""The browser chooses moves by cards with what the terminal's chooser computes: each seat's
state message carries ``koloda.moves.MoveChooser``'s data for its legal actions and hand."""

from __future__ import annotations

import json
import random
import time
from itertools import combinations
from typing import Any

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


def check_moves(msg: dict[str, Any], legal: list[str]) -> None:
    """``msg``'s ``moves`` is the chooser's for the hand its display shows, and means what
    the terminal's chooser (the same legal actions, the hand in the terminal's order)
    means."""
    disp = msg["display"]["en"]
    hand = disp["hand"]["cards"] if disp["hand"] else []
    moves = msg["moves"]
    targets = open_targets(disp)
    chooser = MoveChooser(legal, hand)
    assert moves == json.loads(json.dumps(chooser.to_json(targets)))
    terminal = MoveChooser(legal, sort_hand(hand, disp["trump"]))
    assert set(moves["playable"]) == terminal.legal_cards
    exact = {frozenset(k.split()): [legal[i] for i in v]
             for k, v in moves["exact"].items()}
    assert exact == terminal.by_cards
    assert moves["plain"] == terminal.plain
    more = {frozenset(k.split()) for k in moves["more"]}
    for n in (1, 2, 3) if len(hand) <= 12 else (1, 2):
        for cards in combinations(hand, n):
            chosen = frozenset(cards)
            assert (chosen in more) == bool(terminal.extending(chosen))
            assert exact.get(chosen, []) == terminal.exact(chosen)
    for card in hand:
        if card not in terminal.legal_cards and terminal.by_cards:
            assert moves["attempts"][card] == terminal.attempt(
                frozenset({card}), targets[0] if targets else None)
    for target in targets:
        for card in hand:
            aimed = moves["aims"][target][card]
            assert aimed in terminal.exact(frozenset({card})) or aimed not in legal
    assert set(moves["beatable"]) == {
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


def page_chooses(moves: dict[str, Any], legal: list[str],
                 cards: set[str]) -> tuple[list[str], bool]:
    """What the page reads from ``moves`` for these chosen cards: the moves they mean, and
    whether a longer set of them makes one (render.js ``chosen``)."""
    key = " ".join(c for c in moves["hand"] if c in cards)
    return ([legal[i] for i in moves["exact"].get(key, [])],
            key in moves["more"])


def test_a_durak_attack_of_several_cards_is_made_by_choosing_them() -> None:
    legal = ["attack 7S", "attack 7C", "attack 7S 7C", "attack 9H"]
    moves = MoveChooser(legal, ["7S", "9H", "7C", "KD"]).to_json()
    assert page_chooses(moves, legal, {"7S"}) == (["attack 7S"], True)
    assert page_chooses(moves, legal, {"7C", "7S"}) == (["attack 7S 7C"], False)
    assert page_chooses(moves, legal, {"9H"}) == (["attack 9H"], False)
    assert moves["playable"] == ["7S", "9H", "7C"]
    assert moves["attempts"] == {"KD": "attack KD"}


def test_a_card_that_beats_one_of_two_attacks_offers_both_and_aims_at_either() -> None:
    legal = ["beat 7S 9S", "beat 8S 9S", "beat 8S 6H", "take"]
    moves = MoveChooser(legal, ["9S", "6H", "6D"]).to_json(["7S", "8S"])
    assert page_chooses(moves, legal, {"9S"}) == (["beat 7S 9S", "beat 8S 9S"], False)
    assert moves["aims"]["8S"] == {"9S": "beat 8S 9S", "6H": "beat 8S 6H",
                                   "6D": "beat 8S 6D"}   # not legal: the engine says why
    assert moves["aims"]["7S"]["6H"] == "beat 7S 6H"
    assert moves["beatable"] == ["7S", "8S"]
    assert moves["plain"] == ["take"]
    assert moves["attempts"] == {"6D": "beat 7S 6D"}    # a lone card beats the first


def test_a_shakha_is_played_wild_or_plain() -> None:
    legal = ["play 6C wild", "play 6C plain", "play AS"]
    moves = MoveChooser(legal, ["AS", "6C", "7H"]).to_json()
    assert page_chooses(moves, legal, {"6C"}) == (["play 6C wild", "play 6C plain"], False)
    assert moves["attempts"] == {"7H": "play 7H"}


def test_a_discard_of_several_cards_and_a_throw_are_made_by_choosing_them() -> None:
    hand = ["8S", "9S", "QD", "QH", "AC"]
    legal = [f"discard {' '.join(c)}" for n in (1, 2, 3) for c in combinations(hand[:4], n)]
    legal += ["stand"]
    moves = MoveChooser(legal, hand).to_json()
    assert page_chooses(moves, legal, {"QH", "8S"}) == (["discard 8S QH"], True)
    assert page_chooses(moves, legal, {"8S", "9S", "QD"}) == (["discard 8S 9S QD"], False)
    assert page_chooses(moves, legal, {"AC"}) == ([], False)
    throw = ["throw 9D", "throw KH", "throw 9D KH", "pass"]
    moves = MoveChooser(throw, ["KH", "9D", "6S"]).to_json()
    assert page_chooses(moves, throw, {"KH", "9D"}) == (["throw 9D KH"], False)
    assert page_chooses(moves, throw, {"KH"}) == (["throw KH"], True)


def test_no_move_to_choose_has_nothing_to_choose_with() -> None:
    moves = MoveChooser(["take", "pass"], ["7S"]).to_json(["9H"])
    assert moves["playable"] == [] and moves["exact"] == {} and moves["attempts"] == {}
    assert moves["plain"] == ["take", "pass"] and moves["beatable"] == []
