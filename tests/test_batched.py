"""The batched simulator against the engine: every game of a batch replayed step by step.

The batch plays uniformly random legal actions; each game is then written as a
koloda-record/1 (its deal and its actions) and replayed through the engine, which must
offer exactly the batch's legal set at every step, expect the same seat to move, and
score the deal the same. ``KOLODA_BATCHED_FULL=<games>`` runs that many games per shape
(the notes' run); CI runs a few hundred.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from koloda.batched import (
    IllegalBatchAction,
    Opendaum,
    Opendaum33,
    OpendaumShakhi,
    TrickGame,
    Trinka,
)
from koloda.batched.bits import random_member, shuffled, unpack
from koloda.batched.playphase import PlayPhase
from koloda.cards import CARD_TEXT, TEXT_CARD
from koloda.engine.match import Match
from koloda.engine.records import parse_record, replay
from koloda.engine.registry import get_spec

FULL = int(os.environ.get("KOLODA_BATCHED_FULL", "0"))


def engine_match(record: dict[str, Any]) -> Match:
    """The record's match as ``from_record`` builds it, played as a single deal (so it
    ends, with a result, when the deal does)."""
    rec = parse_record(record)
    spec = get_spec(rec.game)
    return spec.match_class(spec, rec.players, rec.options, seed=rec.seed, deals=rec.deals,
                            first_dealer=rec.first_dealer, single_deal=True)


def index_of(game: TrickGame, text: str) -> int:
    """The batched action index of an engine action text (``game.action_text`` inverted)."""
    words = text.split()
    if words[0] == "bid":
        return game.play_actions + int(words[1])
    c = TEXT_CARD[words[1]]
    if words[2:] == ["wild"]:
        assert game.card_of is not None
        return int(np.flatnonzero(game.card_of[52:game.play_actions] == c)[0]) + 52
    return c


def play_and_compare(game: TrickGame, keys: np.ndarray, seed: int,
                     engine: Callable[[dict[str, Any]], Any] = engine_match,
                     result: Callable[[Any, np.ndarray], None] | None = None
                     ) -> tuple[int, int]:
    """Play the batch at random, then replay every game through the engine comparing
    each step; return (games, steps compared). A ``PlayPhase`` game's record opens with
    its pre-play actions (applied, not compared: the batch has no step for them).
    ``engine``: the record's engine match (or a deal: ``legal_actions``, ``to_move``,
    ``apply``, ``is_over``; a deal is its own ``current``); ``result``: a check of the
    match's result against the game's rewards (default: Opendaum's and Trinka's)."""
    rng = np.random.default_rng(seed)
    state = game.init(keys)
    masks, movers = [game.mask(state)], [game.to_move(state)]
    rewards = None
    while not game.is_over(state):
        state, obs, mask, reward = game.step(state, game.random_actions(state, rng))
        assert obs.shape == (state.games, game.observation_size)
        masks.append(mask)
        movers.append(game.to_move(state))
        rewards = reward
    assert rewards is not None
    assert not masks[-1].any()
    steps = 0
    tricks, bids = game.by_seat_tricks(state), game.by_seat_bids(state)
    assert (tricks.sum(axis=0) == game.hand).all()
    for g in range(state.games):
        record = game.record(state, g)
        if game.bidding:
            said = {a["seat"]: int(a["action"].split()[1]) for a in record["actions"]
                    if a["action"].startswith("bid")}
            assert bids[:, g].tolist() == [said[s] for s in range(game.players)]
        match = engine(record)
        pre = len(game.pre_actions(state, g)) if isinstance(game, PlayPhase) else 0
        for before in record["actions"][:pre]:
            assert match.to_move == before["seat"], (g, record)
            match.apply(before["action"])
        for t, act in enumerate(record["actions"][pre:]):
            want = sorted(index_of(game, a) for a in match.legal_actions())
            got = np.flatnonzero(masks[t][g]).tolist()
            assert got == want, (g, t, record)
            assert match.to_move == movers[t][g] == act["seat"], (g, t)
            match.apply(act["action"])
            steps += 1
        assert match.is_over
        deal = getattr(match, "current", match)
        assert deal.payoffs() == rewards[g].tolist(), (g, record)
        assert deal.tricks == tricks[:, g].tolist()
        if result is not None:
            result(match, rewards[g])
        elif isinstance(game, Opendaum):
            assert list(match.result.scores) == rewards[g].tolist(), (g, record)
        else:   # a single Trinka deal: the pair that wrote off wins, 9–0 at double stake
            stake = 2 if abs(rewards[g][0]) == 24 else 1
            assert list(match.result.scores) == (np.sign(rewards[g]) * stake).tolist()
    return state.games, steps


SHAPES = [(4, 8, None), (4, 9, None), (4, 8, 32), (3, 12, None), (2, 16, None),
          (5, 6, None), (6, 6, None), (4, 1, None), (3, 5, None)]


@pytest.mark.parametrize(("players", "hand", "deck"), SHAPES)
def test_opendaum_batch_replays_through_the_engine(players: int, hand: int,
                                                   deck: int | None) -> None:
    game = Opendaum(players, hand, deck)
    count = FULL or (500 if (players, hand, deck) == (4, 8, None) else 100)
    games, steps = play_and_compare(game, np.arange(count) + 1000 * players + hand, hand)
    assert games == count and steps == count * game.length


def test_trinka_batch_replays_through_the_engine() -> None:
    count = FULL or 500
    games, steps = play_and_compare(Trinka(), np.arange(count) + 77, 9)
    assert games == count and steps == count * 36


def test_trinka_scores_every_outcome() -> None:
    """Rozhok, trinka, draws and 9–0 all occur in a batch of random deals, scored as the
    engine's payoffs (checked game by game above); here: each kind is present."""
    game = Trinka()
    state = game.init(np.arange(3000))
    rng = np.random.default_rng(5)
    while not game.is_over(state):
        game.advance(state, game.random_actions(state, rng))
    low = game.pair_tricks(state).min(axis=0)
    assert {0, 1, 2, 3, 4} <= set(low.tolist())
    assert set(np.abs(state.points[0]).tolist()) == {0.0, 1.0, 3.0, 24.0}
    assert (state.points.sum(axis=0) == 0).all()


def test_a_written_record_replays_cleanly() -> None:
    game = Opendaum()
    state = game.init([7, 8])
    rng = np.random.default_rng(1)
    while not game.is_over(state):
        game.advance(state, game.random_actions(state, rng))
    out = replay(game.record(state, 1))
    assert out.ok, out.error


def test_a_key_always_deals_the_same_deal() -> None:
    game = Opendaum()
    a = game.init([5, 6, 7, 123456789012])
    b = game.init([123456789012, 7])
    assert (a.order[3] == b.order[0]).all() and (a.order[2] == b.order[1]).all()
    assert a.dealer[3] == b.dealer[0]
    assert not (a.order[0] == a.order[1]).all()
    assert sorted(a.order[0].tolist()) == sorted(game.deck.tolist())


def test_illegal_actions_are_refused_with_the_game_named() -> None:
    game = Opendaum()
    state = game.init([1, 2])
    with pytest.raises(IllegalBatchAction, match="game 1"):
        game.step(state, np.array([52, 52 + 9]))       # bid 9 of 8
    with pytest.raises(IllegalBatchAction):
        game.step(state, np.array([0, 0]))             # a card during the bidding
    assert state.t == 0


def test_the_deal_ends_with_points_and_refuses_more_steps() -> None:
    game = Opendaum(4, 2)
    state = game.init(np.arange(10))
    rng = np.random.default_rng(3)
    for _ in range(game.length):
        state, _, mask, reward = game.step(state, game.random_actions(state, rng))
    assert game.terminated(state).all() and not mask.any()
    assert (reward.sum(axis=1) > 0).all()          # points: someone took each trick
    with pytest.raises(IllegalBatchAction, match="over"):
        game.advance(state, np.zeros(10, dtype=np.int64))


def test_random_member_is_uniform_over_the_set_bits() -> None:
    x = np.full(60000, 0b1011_0000_0100_0001, dtype=np.uint64)
    picks = random_member(x, np.random.default_rng(0).bit_generator.random_raw(len(x)))
    values, counts = np.unique(picks, return_counts=True)
    assert values.tolist() == [0, 6, 12, 13, 15]
    assert (abs(counts - 12000) < 600).all()


def test_shuffle_is_a_permutation_of_the_deck() -> None:
    deck = np.arange(4, 40, dtype=np.uint8)
    out = shuffled(np.arange(3000, dtype=np.uint64), deck)
    assert (np.sort(out, axis=1) == deck).all()
    # every card reaches every position about equally often
    first = np.bincount(out[:, 0], minlength=40)[4:]
    assert first.min() > 40 and first.max() < 140


def test_unpack_reads_bits_in_card_order() -> None:
    x = np.array([1 << 51 | 1 << 3 | 1], dtype=np.uint64)
    assert np.flatnonzero(unpack(x, 52)[0]).tolist() == [0, 3, 51]


def reference_views(game: TrickGame, record: dict[str, Any]) -> list[dict[str, Any]]:
    """What the player to move knows before each action, kept by plain bookkeeping over the
    record (whose seats and legal sets the engine has checked): a trick's winner is the
    seat that leads the next."""
    n = game.players
    deal = record["deals"][0]
    hands = [{TEXT_CARD[c] for c in h} for h in deal["hands"]]
    tc = deal["trump_card"]
    trump_card = TEXT_CARD[tc] if tc is not None else None
    played: set[int] = set()
    trick: dict[int, int] = {}         # seat → action index (a shakha wild: its own)
    bids: dict[int, int] = {}
    tricks = [0] * n
    views = []
    for act in record["actions"]:
        seat = act["seat"]
        verb, arg = act["action"].split()[:2]
        if verb == "play" and len(trick) == n:          # the last trick's winner leads
            tricks[seat] += 1
            card_of = game.card_of if game.card_of is not None else range(52)
            played |= {int(card_of[a]) for a in trick.values()}
            trick = {}
        views.append({"seat": seat, "hand": set(hands[seat]), "played": set(played),
                      "trick": dict(trick), "bids": dict(bids), "tricks": list(tricks),
                      "trump_card": trump_card, "bidding": verb == "bid"})
        if verb == "bid":
            bids[seat] = int(arg)
        else:
            hands[seat].discard(TEXT_CARD[arg])
            trick[seat] = index_of(game, act["action"])
    return views


def decode(game: TrickGame, obs: np.ndarray) -> dict[str, list[int]]:
    return {name: np.flatnonzero(obs[off:off + width]).tolist()
            for name, off, width in game.observation_layout()}


@pytest.mark.parametrize("game", [Opendaum(), Opendaum(3, 12), Opendaum(4, 9), Trinka(),
                                  OpendaumShakhi(4, 9), Opendaum33(11)],
                         ids=["opendaum-4-8", "opendaum-3-12", "opendaum-4-9", "trinka",
                              "opendaum-shakhi-4-9", "opendaum-33"])
def test_observations_say_what_the_player_to_move_knows(game: TrickGame) -> None:
    n = game.players
    state = game.init(np.arange(60) + 4242)
    rng = np.random.default_rng(2)
    observations = [game.observe(state)]
    while not game.is_over(state):
        state, obs, _, _ = game.step(state, game.random_actions(state, rng))
        observations.append(obs)
    assert not observations[-1].any()
    covered = {off + i for _, off, width in game.observation_layout() for i in range(width)}
    for g in range(state.games):
        record = game.record(state, g)
        dealer = record["deals"][0]["dealer"]
        for t, view in enumerate(reference_views(game, record)):
            got = decode(game, observations[t][g])
            seat = view["seat"]
            rel = [(seat + k) % n for k in range(n)]
            assert set(got["hand"]) == view["hand"], (g, t)
            assert set(got["played"]) == view["played"], (g, t)
            for k in range(1, n):
                c = view["trick"].get(rel[k])
                assert got[f"trick_card_of_seat_+{k}"] == ([] if c is None else [c]), (g, t)
            tc = view["trump_card"]
            assert got["trump_card"] == ([] if tc is None else [tc])
            assert got["trump_suit"] == ([] if tc is None else [tc // 13])
            for k in range(n):
                assert got[f"tricks_taken_by_seat_+{k}"] == [view["tricks"][rel[k]]], (g, t)
                if game.bidding:
                    b = view["bids"].get(rel[k])
                    assert got[f"bid_of_seat_+{k}"] == [0 if b is None else b + 1], (g, t)
            assert got["dealer_seat_+"] == [(dealer - seat) % n]
            assert got["bidding"] == ([0] if view["bidding"] else [])
            assert set(np.flatnonzero(observations[t][g]).tolist()) <= covered


def test_a_copied_state_branches_and_states_pickle() -> None:
    import pickle
    game = Opendaum()
    state = game.init(np.arange(16))
    rng = np.random.default_rng(4)
    for _ in range(10):
        game.advance(state, game.random_actions(state, rng))
    branch = state.copy()
    again = pickle.loads(pickle.dumps((game, state)))[1]
    actions = game.random_actions(state, rng)
    game.advance(state, actions)
    assert branch.t == 10 and not (branch.hands == state.hands).all()
    game.advance(branch, actions)
    game.advance(again, actions)
    for other in (branch, again):
        assert (other.hands == state.hands).all() and (other.legal == state.legal).all()


def test_classic_opendaum_refuses_no_bid_the_hook_rule_is_33s_alone() -> None:
    """koloda/rules/opendaum.en.md §Precisely 1–9: every bid 0..hand is open to every bidder, the
    dealer too — the hook rule (the dealer may not make the bids add up to the hand) is §1c's
    alone."""
    game = Opendaum()
    state = game.init(np.arange(5))
    for bid in (2, 3, 1):                      # 6 bid before the dealer; 8 cards each
        game.advance(state, np.full(5, 52 + bid))
    assert (game.to_move(state) == state.dealer).all()
    assert game.mask(state)[:, 52:].all()      # 2 (making 8) is open too
    game.advance(state, np.full(5, 52 + 2))
    assert (game.by_seat_bids(state).sum(axis=0) == 8).all()


def test_trump_is_the_stock_top_card_else_the_dealers_last_card() -> None:
    """koloda/rules/opendaum.en.md §Precisely 1–9: the stock's top card is turned for trump; with no
    stock (4 × 9 of 36) the dealer's last card is shown, and the dealer keeps it."""
    with_stock, whole = Opendaum(4, 8), Opendaum(4, 9)
    a, b = with_stock.init(np.arange(50)), whole.init(np.arange(50))
    assert (a.trump_card == a.order[:, 32]).all()
    assert not (a.dealt & (np.uint64(1) << a.trump_card.astype(np.uint64))).any()
    assert (b.trump_card == b.order[:, 35]).all() and (a.trump == a.trump_card // 13).all()
    for g in range(50):
        deal = whole.deal_json(b, g)
        assert deal["hands"][deal["dealer"]][-1] == CARD_TEXT[int(b.trump_card[g])]
