"""The durak search's strength features: the endgame solver with cards still in the stock,
and the opponent model that weights the determinizations."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from koloda.bots.search.games.durak_endgame import EndgameSolver, SolverBudget
from koloda.cards import deck
from koloda.engine.deal import Deal
from koloda.games.durak import DurakGame
from koloda.games.durak.views import DurakView
from tests.test_bots_durak import _brute

DECK = deck(36)


def small_position(rng: random.Random, transfer: bool) -> DurakGame:
    """Two small hands and a stock of one to three cards, the rest beaten off; in simple
    durak now and then one hand of five (the drawing up to six shows)."""
    k = rng.randint(1, 3)
    full = not transfer and rng.random() < 0.25
    cards = rng.sample(DECK, k + (6 if full else rng.randint(2, 4)))
    stock, rest = cards[:k], cards[k:]
    cut = 5 if full else rng.randint(1, len(rest) - 1)
    hands = (tuple(rest[:cut]), tuple(rest[cut:]))
    trump_card = stock[-1]
    g = DurakGame(Deal(1, hands, tuple(stock), trump_card), teams=False,
                  first_bout_limit=rng.choice((5, 6)), transfer=transfer,
                  first_attacker=rng.randrange(2))
    g.discard = [c for c in DECK if c not in cards]
    g.beaten_rounds = rng.randrange(2)
    g.limit = min(g._bout_cap(), len(g.hands[g.defender]))
    return g


@pytest.mark.parametrize("transfer", [False, True])
def test_endgame_solver_with_cards_in_the_stock_agrees_with_exhaustive_search(
        transfer: bool) -> None:
    """Positions with one to three cards still to draw (every card known): the solver's
    value and the value of the move it picks equal a minimax over the engine's own legal
    actions, whose rounds end with the engine's drawing (attacker first, up to six). (The
    minimax's key leaves out the stock: within one game the hands imply it — a card drawn
    never goes back, and a card beaten off never comes back.)"""
    rng = random.Random(11)
    checked = 0
    for _ in range(50):
        g = small_position(rng, transfer)
        for _ in range(rng.randrange(3)):          # somewhere into the first round
            if g.is_over:
                break
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])
        if g.is_over or not g.stock:
            continue
        seat = g.to_move
        assert seat is not None
        memo: dict[Any, int] = {}
        exact = _brute(g, seat, memo, set())
        solver = EndgameSolver(g, SolverBudget(10**7, time.perf_counter() + 60))
        assert solver.value(g, seat) == exact
        found = solver.best_action()
        assert found is not None and found[1] == exact
        for a in g.legal_actions():             # every move's value, not only the best
            after = g.clone()
            after.apply(a)
            assert solver.value(after, seat) == _brute(after, seat, memo, set()), a
        checked += 1
    assert checked > 20


# ------------------------------------------------------------ the opponent model
def _heuristic_positions(seeds: range) -> Any:
    """Every decision of seat 0 in heuristic-against-heuristic games, with the opponent
    model seat 0's search would build there (its round memory kept as it plays)."""
    import koloda
    from koloda.bots.heuristic.durak import DurakHeuristic
    from koloda.bots.search.games.durak_inference import OpponentModel, RoundMemory, usable
    h = DurakHeuristic()
    for seed in seeds:
        m = koloda.new_game("durak", players=2, seed=seed)
        memory = RoundMemory()
        rng = random.Random(seed)
        while not m.is_over:
            seat = m.to_move
            assert seat is not None
            legal = m.legal_actions()
            obs = m.observation(seat)
            if seat == 0 and len(legal) > 1:
                assert isinstance(obs.deal, DurakView)
                memory.remember(obs.deal)
                if usable(obs):
                    yield m, obs, OpponentModel(obs, memory)
            m.apply(legal[0] if len(legal) == 1 else h.choose(obs, legal, rng))


def test_opponent_model_sees_no_mismatch_on_the_true_deal_against_the_heuristic() -> None:
    """Against the heuristic itself, the true deal agrees with every move the model reads
    (this round's, and the last round's when the other player drew nothing after it)."""
    rng = random.Random(3)
    checked = last_read = 0
    for m, _, model in _heuristic_positions(range(12)):
        if model.drawn:
            continue
        truth = m.current.clone()
        assert isinstance(truth, DurakGame)
        assert model.mismatches(truth, rng) == 0
        checked += 1
        last_read += len(model.before) > 1
    assert checked > 100 and last_read > 30


def test_weighted_determinizations_agree_with_the_other_players_moves() -> None:
    """The search's determinizations contradict what the other player did far less often
    than the plain determinizer's, and the plain ones often do (the moves say something)."""
    from koloda.bots.search.games.durak import DurakSearch
    search = DurakSearch("durak")
    rng = random.Random(4)
    plain = weighted = total = 0
    for _, obs, model in _heuristic_positions(range(4)):
        if not model.moves or model.drawn:
            continue                    # (with cards drawn the count is itself random)
        search._model, search._pool, search._tries = (obs, model), [], 0
        for _ in range(10):
            d = search.spec.determinize(obs, rng)
            plain += model.mismatches(d, rng) > 0
            w = search.determinize(obs, rng)
            assert isinstance(w, DurakGame)
            weighted += model.mismatches(w, rng) > 0
            total += 1
    assert total > 200
    assert plain > 0.25 * total
    assert weighted < 0.3 * plain


def test_search_solves_exactly_with_the_trump_card_the_last_in_the_stock() -> None:
    """With one card in the stock (the trump card: every card is known) the search
    answers with the solver, and its move is of the best exact value."""
    import koloda
    from koloda.bots.heuristic.durak import DurakHeuristic
    from koloda.bots.search.games.durak import DurakSearch
    h = DurakHeuristic()
    solved = 0
    for seed in range(80):
        m = koloda.new_game("durak", players=2, seed=seed)
        rng = random.Random(seed)
        while not m.is_over:
            legal = m.legal_actions()
            seat = m.to_move
            assert seat is not None
            obs = m.observation(seat)
            truth = m.current
            assert isinstance(truth, DurakGame)
            if len(truth.stock) == 1 and len(legal) > 1:
                search = DurakSearch("durak", iterations=8, endgame_nodes=200_000)
                move = search.choose(obs, legal, rng)
                if search.last.solved:
                    exact = EndgameSolver(truth, SolverBudget(10**7, time.perf_counter() + 60))
                    found = exact.best_action()
                    assert found is not None
                    after = truth.clone()
                    after.apply(move)
                    assert exact.value(after, seat) == found[1]
                    solved += 1
            m.apply(legal[0] if len(legal) == 1 else h.choose(obs, legal, rng))
    assert solved > 5
