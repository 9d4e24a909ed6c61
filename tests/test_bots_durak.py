"""Durak bots: the heuristic, the search (ISMCTS and the exact endgame) and the
determinizer they stand on.

Positions are built by hand with ``DurakGame``; the observation a bot gets is the game's
observation plus the match-level keys (players, seat, dealer) that ``Match`` adds.
"""

from __future__ import annotations

import copy
import json
import random
import time
from typing import Any

import pytest

import koloda
from koloda.bots import make_bot
from koloda.bots.heuristic.durak import (
    DurakHeuristic,
    action_text,
    decide,
    view_from_state,
)
from koloda.bots.search.games.durak import DurakSearch, heuristic_rollout, tree_actions
from koloda.bots.search.games.durak_endgame import EndgameSolver, SolverBudget
from koloda.cards import CARD_TEXT, deck, parse_card, parse_cards
from koloda.engine.deal import Deal
from koloda.engine.view import EmptyView, Observation
from koloda.games.durak import DurakGame
from koloda.games.durak.determinize import determinize

DECK = sorted(deck(36))


# ---------------------------------------------------------------- helpers
def position(hands: list[str], trump: str, *, stock: int = 0, attacker: int = 0,
             transfer: bool = False, beaten: int = 3) -> DurakGame:
    """A position with the 36 cards all placed: the hands as given, ``stock`` cards in the
    stock, the trump card last (none: the trump card and every other card are in the
    discard pile)."""
    hs = [parse_cards(h) for h in hands]
    n = len(hs)
    tc = parse_card(trump)
    rest = [c for c in DECK if c != tc and not any(c in h for h in hs)]
    st = (*rest[:stock - 1], tc) if stock else ()
    g = DurakGame(Deal((attacker - 1) % n, tuple(tuple(h) for h in hs), st, tc),
                  teams=False, first_bout_limit=6, transfer=transfer,
                  first_attacker=attacker)
    g.discard = rest[max(stock - 1, 0):] + ([] if stock else [tc])
    g.public = set()
    g.trump_holder = None
    g.beaten_rounds = beaten
    g.limit = min(6, len(g.hands[g.defender]))
    return g


def play(g: DurakGame, *actions: str) -> None:
    for a in actions:
        g.apply(a)


def obs_of(g: DurakGame, seat: int | None = None) -> Observation:
    """What a bot of ``seat`` (default: the seat to move) is given."""
    s = g.to_move if seat is None else seat
    assert s is not None
    return Observation("durak-perevodnoy" if g.transfer else "durak", g.players, s, 0,
                       g.dealer, g.to_move, False, EmptyView(), g.observation(s))


def heuristic(g: DurakGame) -> str:
    return DurakHeuristic().choose(obs_of(g), g.legal_actions(), random.Random(0))


def random_positions(name: str, players: int, count: int, seed: int,
                     **options: Any) -> list[koloda.Match]:
    """Matches stopped at random points of random-and-heuristic play."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        m = koloda.new_game(name, players=players, seed=seed * 1000 + i, **options)
        stop = rng.randrange(60)
        for _ in range(stop):
            if m.is_over:
                break
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])
        if not m.is_over:
            out.append(m)
    return out


# ------------------------------------------------------------ legal only
@pytest.mark.parametrize(("name", "players", "options"), [
    ("durak", 2, {}), ("durak-perevodnoy", 2, {}), ("durak", 3, {}),
    ("durak", 4, {"teams": True}), ("durak-perevodnoy", 4, {"teams": True}),
])
def test_bots_only_ever_return_legal_actions(name: str, players: int,
                                             options: dict[str, Any]) -> None:
    """Every seat a bot — heuristic, search, random, mixed — over whole games."""
    rng = random.Random(3)
    kinds = ["heuristic", "search", "random"]
    for i in range(4):
        m = koloda.new_game(name, players=players, seed=40 + i, **options)
        bots = []
        for s in range(players):
            kind = kinds[(s + i) % len(kinds)]
            bots.append(DurakSearch(name, iterations=20, seconds=5.0, endgame_nodes=3000)
                        if kind == "search" else make_bot(kind, name))
        steps = 0
        while not m.is_over and steps < 2000:
            seat = m.to_move
            assert seat is not None
            legal = m.legal_actions()
            obs = m.observation(seat)
            frozen = json.dumps(obs.to_json(), sort_keys=True)
            action = bots[seat].choose(obs, list(legal), rng)
            assert action in legal, f"{bots[seat].name} chose {action!r}; legal {legal}"
            assert json.dumps(obs.to_json(), sort_keys=True) == frozen, \
                "a bot changed its observation"
            m.apply(action)
            steps += 1
        assert m.is_over


def test_make_bot_builds_the_durak_heuristic_for_both_variants() -> None:
    assert isinstance(make_bot("heuristic", "durak"), DurakHeuristic)
    assert isinstance(make_bot("heuristic", "durak-perevodnoy"), DurakHeuristic)


def test_a_bot_sees_only_its_observation() -> None:
    """The bot works from the observation alone: the same observation of two different
    states (the other hand and the stock differ) gives the same choice."""
    g1 = position(["6H 9C KS", "7H 8D TC"], "AS", stock=10)
    obs = obs_of(g1)
    # swap the other hand with stock cards: nothing seat 0 may know changes
    g2 = copy.deepcopy(g1)
    g2.hands[1], g2.stock[-3:] = g2.stock[-3:], g2.hands[1]
    obs2 = obs_of(g2)
    assert obs == obs2
    for bot in (DurakHeuristic(), DurakSearch("durak", iterations=40, seconds=5.0)):
        assert bot.choose(copy.deepcopy(obs), g1.legal_actions(), random.Random(1)) == \
            bot.choose(copy.deepcopy(obs2), g2.legal_actions(), random.Random(1))


# --------------------------------------------------------- the heuristic
def test_heuristic_beats_with_the_cheapest_card_of_the_suit() -> None:
    g = position(["7H", "KH 8H 6S QC"], "AS", stock=12)
    play(g, "attack 7H")
    assert heuristic(g) == "beat 7H 8H"


def test_heuristic_keeps_trumps_when_a_plain_card_beats() -> None:
    g = position(["9D", "6S JD TC"], "AS", stock=12)
    play(g, "attack 9D")
    assert heuristic(g) == "beat 9D JD"


def test_heuristic_takes_early_when_only_a_high_trump_would_beat() -> None:
    g = position(["7H", "KS 6C 8D"], "AS", stock=20)
    play(g, "attack 7H")
    assert heuristic(g) == "take"


def test_heuristic_beats_with_a_trump_once_the_stock_is_gone() -> None:
    g = position(["7H 9C", "KS 6C 8D"], "AS")
    play(g, "attack 7H")
    assert heuristic(g) == "beat 7H KS"     # taking now only adds to an endgame hand


def test_heuristic_beats_with_a_low_trump_rather_than_take_four_cards() -> None:
    g = position(["7H 7D 9H 9D", "6S 7S JC QC KC AC"], "AS", stock=8)
    play(g, "attack 7H", "beat 7H 6S", "throw 7D")
    assert heuristic(g) == "beat 7D 7S"


def test_heuristic_attacks_with_the_lowest_plain_rank_pairs_together() -> None:
    g = position(["6H 6C 9D 6S AS", "7H 8D TC JC QD"], "KS", stock=12)
    assert heuristic(g) == "attack 6C 6H"
    g = position(["7C 9D 6S", "7H 8D TC"], "KS", stock=12)
    assert heuristic(g) == "attack 7C"


def test_heuristic_throws_in_cheap_ranks_not_trumps_or_high_cards_early() -> None:
    g = position(["7H 7C 7S 9C AD AH", "9H 8D TC 6D JS QD"], "KS", stock=12)
    play(g, "attack 7H", "beat 7H 9H")
    assert heuristic(g) == "throw 7C 9C"        # not the trump 7S
    g = position(["7H AC", "AH 8D TC 6D JS QD"], "KS", stock=12)
    play(g, "attack 7H", "beat 7H AH")
    assert heuristic(g) == "pass"               # not the plain ace early


def test_heuristic_throws_its_last_cards_into_a_take_at_the_end() -> None:
    """Stock empty: the last two cards go in, trump and all — seat 0 is out of the game."""
    g = position(["8H 8S 8D", "9C TC JH AS"], "KS")
    play(g, "attack 8H", "take")
    assert heuristic(g) == "throw 8S 8D"
    g = position(["8H 8S 8D", "9C TC JH AS"], "KS", stock=6)
    play(g, "attack 8H", "take")
    assert heuristic(g) == "throw 8D"       # with a stock the trump eight stays


def test_heuristic_transfers_with_a_plain_card_of_the_rank() -> None:
    g = position(["8H 9D TD JC", "8C 8S QD JH"], "KS", stock=12, transfer=True)
    play(g, "attack 8H")
    assert heuristic(g) == "transfer 8C"       # not the trump eight


def test_heuristic_makes_the_defender_take_when_it_knows_their_hand() -> None:
    """Two players, no stock: the defender's hand is known; a card they cannot beat first."""
    g = position(["6H 9C AD", "7H TH 8D"], "KS")
    assert heuristic(g) == "attack 9C"


# ---------------------------------------------------------- determinizer
def test_determinize_never_deals_a_discarded_card() -> None:
    rng = random.Random(7)
    checked = 0
    for m in random_positions("durak", 2, 40, 1) + random_positions("durak-perevodnoy", 3,
                                                                    20, 2):
        seat = m.to_move
        assert seat is not None
        obs = m.observation(seat)
        if not obs["discard"]:
            continue
        real = m.current
        assert isinstance(real, DurakGame)
        assert sorted(obs["discard"]) == sorted(CARD_TEXT[c] for c in real.discard)
        for _ in range(5):
            det = determinize(obs, rng)
            assert sorted(det.discard) == sorted(real.discard)
            gone = set(det.discard)
            assert not gone & {c for h in det.hands for c in h}
            assert not gone & set(det.stock)
        checked += 1
    assert checked > 10


def test_discard_pile_is_public_and_not_hidden() -> None:
    g = position(["7H 8H", "9H TH QS"], "AS", stock=12)
    play(g, "attack 7H", "beat 7H 9H", "pass")
    assert {parse_card("7H"), parse_card("9H")} <= set(g.discard)
    obs = g.observation(1)
    assert {"7H", "9H"} <= set(obs["discard"])
    assert not set(g.discard) & g.hidden_from(0)
    assert obs["discard_count"] == len(obs["discard"])


def test_determinize_keeps_taken_cards_and_the_drawn_trump_with_their_holder() -> None:
    """Three players: seat 1 picks up 7C 7H, seat 0 draws the stock's last card, the trump
    AS. Every determinization puts them there; the unknown cards vary."""
    rng = random.Random(1)
    g = position(["7H 7C JD 9H TH 6D", "9C QD 6S KD", "8C 8D 8H"], "AS", stock=2)
    play(g, "attack 7C 7H", "take", "pass", "pass")
    assert g.trump_holder == 0 and not g.stock
    for seat, holder, known in ((1, 0, {"AS"}), (2, 0, {"AS"}), (2, 1, {"7C", "7H"}),
                                (0, 1, {"7C", "7H"})):
        obs = obs_of(g, seat)
        seen = set()
        for _ in range(30):
            det = determinize(obs, rng)
            assert {CARD_TEXT[c] for c in det.hands[holder]} >= known
            assert sorted(det.hands[seat]) == sorted(g.hands[seat])
            assert [len(h) for h in det.hands] == [len(h) for h in g.hands]
            seen.add(tuple(sorted(det.hands[holder])))
        assert len(seen) > 1


def test_determinize_keeps_the_trump_card_at_the_bottom_of_the_stock() -> None:
    rng = random.Random(4)
    g = position(["7H 7C JD 9H TH 6D", "9C QD 6S KD"], "AS", stock=4)
    play(g, "attack 7C 7H", "take", "pass")      # seat 0 draws 2: two stock cards left
    assert len(g.stock) == 2
    for seat in (0, 1):
        for _ in range(10):
            det = determinize(obs_of(g, seat), rng)
            assert len(det.stock) == 2 and det.stock[0] == parse_card("AS")
            assert {parse_card("7C"), parse_card("7H")} <= set(det.hands[1])


def test_determinize_is_exact_for_two_players_once_the_stock_is_empty() -> None:
    rng = random.Random(2)
    count = 0
    for i in range(20):
        m = koloda.new_game("durak-perevodnoy" if i % 2 else "durak", players=2, seed=i)
        real = m.current
        assert isinstance(real, DurakGame)
        while not m.is_over:
            if not real.stock and m.to_move is not None:
                det = determinize(m.observation(m.to_move), rng)
                assert [sorted(h) for h in det.hands] == [sorted(h) for h in real.hands]
                count += 1
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])
    assert count > 50


# ------------------------------------------------------------ the endgame
def _brute(g: DurakGame, seat: int, memo: dict[Any, int], path: set[Any]) -> int:
    """Minimax over every legal action of the engine itself (repetition: a draw)."""
    if g.is_over:
        return 0 if g.durak is None else (-1 if g.durak == seat else 1)
    key = (tuple(tuple(sorted(h)) for h in g.hands), tuple(g.attacks), tuple(g.covers),
           g.phase, g.taken, g.attacker, g.limit, g.beaten_rounds == 0, g.to_move)
    if key in memo:
        return memo[key]
    if g.phase == "attack":
        if key in path:
            return 0
        path.add(key)
    vals = []
    for a in g.legal_actions():
        h = g.clone()
        h.apply(a)
        vals.append(_brute(h, seat, memo, path))
    path.discard(key)
    v = max(vals) if g.to_move == seat else min(vals)
    memo[key] = v
    return v


@pytest.mark.parametrize("name", ["durak", "durak-perevodnoy"])
def test_endgame_solver_agrees_with_exhaustive_search(name: str) -> None:
    """Small endgames from real games: the solver's value, and the value of the move it
    picks, equal a minimax over every legal action of the engine (several-card leads and
    throw-ins included, which the solver leaves out)."""
    rng = random.Random(5)
    checked = 0
    for seed in range(120):
        g = koloda.new_game(name, players=2, seed=seed).current
        assert isinstance(g, DurakGame)
        while not g.is_over:
            if not g.stock and sum(map(len, g.hands)) + len(g.attacks) <= 6 \
                    and rng.random() < 0.4:
                seat = g.to_move
                assert seat is not None
                exact = _brute(g, seat, {}, set())
                solver = EndgameSolver(g, SolverBudget(10**7, time.perf_counter() + 60))
                assert solver.value(g, seat) == exact
                found = solver.best_action()
                assert found is not None and found[1] == exact
                after = g.clone()
                after.apply(found[0])
                assert _brute(after, seat, {}, set()) == exact
                checked += 1
            acts = g.legal_actions()
            g.apply(action_text(decide(view_from_state(g))) if rng.random() < 0.7
                    else acts[rng.randrange(len(acts))])
    assert checked > 30


def test_endgame_solver_gives_up_when_the_budget_runs_out() -> None:
    g = position(["6H 9S JC QD KH AC", "7H 8S TC JD AH KC"], "7S")
    assert EndgameSolver(g, SolverBudget(50, time.perf_counter() + 60)).best_action() is None


def test_search_plays_the_winning_endgame_move_the_heuristic_misses() -> None:
    """Diamonds trump, no stock; seat 1 (9D QD AD) leads against KC JD KD. The heuristic
    leads the ace nobody can beat, which loses against the best defence; the search finds
    a winning lead (both checked by exhaustive search)."""
    g = position(["KC JD KD", "9D QD AD"], "6D", attacker=1)
    assert heuristic(g) == "attack AD"
    after = g.clone()
    after.apply("attack AD")
    assert _brute(after, 1, {}, set()) == -1
    bot = DurakSearch("durak", iterations=50, seconds=5.0)
    choice = bot.choose(obs_of(g), g.legal_actions(), random.Random(0))
    after = g.clone()
    after.apply(choice)
    assert _brute(after, 1, {}, set()) == 1
    assert bot.last.solved and bot.top_moves() == [(choice, 1.0)]


def test_search_tree_searches_single_card_leads_in_simple_durak_only() -> None:
    legal = ["attack 6C", "attack 6H", "attack 6C 6H", "attack 9D"]
    assert tree_actions(legal, transfer=False) == ["attack 6C", "attack 6H", "attack 9D"]
    assert tree_actions(legal, transfer=True) == legal
    assert tree_actions(["throw 7C", "throw 7C 7D", "pass"], True) == ["throw 7C", "pass"]


def test_heuristic_rollouts_finish_the_game() -> None:
    rng = random.Random(9)
    for name in ("durak", "durak-perevodnoy"):
        m = koloda.new_game(name, players=2, seed=11)
        spec = koloda.get_spec(name)
        assert spec.determinize is not None
        for _ in range(20):
            det = spec.determinize(m.observation(m.to_move or 0), rng)
            assert isinstance(det, DurakGame)
            heuristic_rollout(det)
            assert det.is_over and sorted(c for z in det.card_zones().values()
                                          for c in z) == DECK


def test_search_stops_early_only_when_the_choice_cannot_change() -> None:
    from koloda.bots.search.ismcts import Node, _settled
    root = Node(None)
    for a, visits in (("attack 6C", 300), ("attack 7D", 20), ("attack AS", 0)):
        root.children[a] = Node(0)
        root.children[a].visits = visits
    # 320 iterations so far; 680 left of a 1000-iteration budget: 280 ahead is not enough
    assert not _settled(root, 680)
    root.children["attack 6C"].visits = 800
    assert _settled(root, 180)     # 780 ahead, 180 left


@pytest.mark.parametrize("name", ["durak", "durak-perevodnoy"])
def test_rollout_moves_are_legal_in_every_state(name: str) -> None:
    """The rollouts skip the legality check (``act``): the heuristic's move read from the
    full state must be legal at every step, 2 to 6 players, alone and in teams."""
    rng = random.Random(8)
    for i in range(25):
        players = 2 + i % 5
        m = koloda.new_game(name, players=players, seed=i,
                            teams=players in (4, 6) and i % 2 == 0)
        g = m.current
        assert isinstance(g, DurakGame)
        while not m.is_over:
            assert action_text(decide(view_from_state(g))) in m.legal_actions()
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))] if rng.random() < 0.5
                    else action_text(decide(view_from_state(g))))
