"""The OpenSpiel games (koloda.envs.openspiel, koloda.envs.chance): OpenSpiel's own
random_sim_test for every game and variant, the deal as chance nodes (later deals too),
parameters, strings and tensors that show no hidden card, and resampling for ISMCTS."""

from __future__ import annotations

import pickle
import random
import re
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import koloda  # noqa: E402
import koloda.envs.openspiel as kos  # noqa: E402
from koloda.cards import CARD_TEXT, TEXT_CARD, deck  # noqa: E402
from koloda.envs import NoDeterminizer  # noqa: E402
from koloda.envs.chance import Table  # noqa: E402

CARD_WORD = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][SCDH](?![0-9A-Za-z])")
EXTRA = {"pyanitsy": ",round_cap=30"}


def load(name: str, params: str = "") -> Any:
    return pyspiel.load_game(f"{kos.game_name(name)}(max_deals=1{EXTRA.get(name, '')}"
                             f"{params})")


def configs() -> list[tuple[str, str]]:
    out = [(name, "") for name in koloda.registry()]
    out += [("durak", ",players=4,teams=1"), ("durak-perevodnoy", ",players=3"),
            ("mushka", ",players=6"), ("stukolka", ",players=7,deck=52")]
    return out


def test_every_koloda_game_is_registered() -> None:
    names = {t.short_name for t in pyspiel.registered_games()}
    assert {kos.game_name(n) for n in koloda.registry()} <= names
    assert kos.game_name("durak-perevodnoy") == "koloda_durak_perevodnoy"


@pytest.mark.parametrize(("name", "params"), configs())
def test_openspiel_random_sim_test_passes(name: str, params: str) -> None:
    pyspiel.random_sim_test(load(name, params), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["mushka", "opendaum-33", "dreyfus", "stukolka"])
def test_later_deals_are_dealt_by_chance_nodes_too(name: str) -> None:
    game = pyspiel.load_game(f"{kos.game_name(name)}(max_deals=3)")
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    rng = random.Random(4)
    state = game.new_initial_state()
    deals_seen = set()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            if state.koloda_match() is not None:
                deals_seen.add(len(state.koloda_match().deals))
            state.apply_action(rng.choice(outcomes)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    m = state.koloda_match()
    assert m.is_over and m.deals_played == 3 and deals_seen >= {1, 2}
    spec = koloda.get_spec(name)
    replayed = koloda.replay({**m.record(), "game": spec.name})
    assert replayed.error is None and replayed.match.result == m.result


def test_the_chance_nodes_fill_the_hands_in_seat_order_then_the_stock() -> None:
    t = Table("durak", 2, {"max_deals": 1})
    assert t.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    t.apply(1)                                   # seat 1 deals
    cards = list(deck(36))
    assert [c for c, _ in t.chance_outcomes()] == cards
    for k, c in enumerate(cards):
        assert t.current_player() == -1
        assert t.action_text(-1, c).startswith(CARD_TEXT[c])
        t.apply(c)
        if k < 35:
            assert t.chance_outcomes()[0][1] == pytest.approx(1 / (35 - k))
    deal = t.match.deals[0]
    assert deal.dealer == 1 and deal.hands == (tuple(cards[:6]), tuple(cards[6:12]))
    assert deal.stock == tuple(cards[12:]) and deal.trump_card == cards[-1]
    assert t.current_player() in (0, 1)


def test_a_card_turned_up_outside_the_stock_is_the_last_chance_node() -> None:
    t = Table("mushka", 3, {"max_deals": 1})
    t.apply(0)
    cards = list(deck(32))
    for c in cards:
        t.apply(c)
    deal = t.match.deals[0]
    assert deal.hands == (tuple(cards[:5]), tuple(cards[5:10]), tuple(cards[10:15]))
    assert deal.stock == tuple(cards[15:31]) and deal.trump_card == cards[31]


def test_opendaum_chance_deals_the_hands_and_the_turned_card_only() -> None:
    """koloda/rules/opendaum.en.md §Precisely 3: the stock's top card is turned for trump
    and the rest is never seen nor drawn, so only the hands and that card are chance
    nodes (Match.stock_in_play); the rest lies under it in ascending order, and the deal
    replays as a record."""
    t = Table("opendaum", 4, {"max_deals": 1})
    t.apply(2)                                   # seat 2 deals: one card each, then the turn
    picks = [TEXT_CARD[w] for w in ("AS", "6H", "KD", "9C", "QH")]
    for k, c in enumerate(picks):
        assert t.current_player() == -1
        assert len(t.chance_outcomes()) == 36 - k       # uniform over the cards left
        t.apply(c)
    assert t.current_player() >= 0               # the bidding begins: nothing more dealt
    deal = t.match.deals[0]
    assert deal.dealer == 2 and deal.hands == tuple((c,) for c in picks[:4])
    assert deal.trump_card == picks[4] == deal.stock[0]
    rest = [c for c in deck(36) if c not in picks]
    assert deal.stock[1:] == tuple(rest) and len(deal.stock) == 32
    m = t.match
    rng = random.Random(3)
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()))
    replayed = koloda.replay({**m.record(), "game": "opendaum"})
    assert replayed.error is None and replayed.match.result == m.result


def test_parameters_map_to_the_games_options() -> None:
    teams = pyspiel.load_game("koloda_durak(players=4,teams=0,first_bout_limit=5)")
    assert teams.options["teams"] is False and teams.options["first_bout_limit"] == 5
    default = pyspiel.load_game("koloda_durak(players=4)")
    assert default.options["teams"] is True and default.num_players() == 4
    assert pyspiel.load_game("koloda_opendaum(players=4,deck=32)").options["deck"] == 32
    assert pyspiel.load_game("koloda_opendaum(players=5)").options["deck"] == 30
    kop = pyspiel.load_game("koloda_kopilka(values=H1C2D3S4)")
    assert kop.options["values"] == {"H": 1, "C": 2, "D": 3, "S": 4}
    assert pyspiel.load_game("koloda_dreyfus(finish=deal)").options["finish"] == "deal"
    with pytest.raises(Exception, match="played by"):
        pyspiel.load_game("koloda_trinka(players=3)")


def decision_states(name: str, seed: int, params: str = "") -> Any:
    """Every decision node of one random playthrough."""
    rng = random.Random(seed)
    state = load(name, params).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        yield state
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", list(koloda.registry()))
def test_no_string_or_tensor_shows_a_hidden_card(name: str) -> None:
    game = load(name)
    card_at = game.new_initial_state().table.features.card_positions()
    checked = 0
    for k, state in enumerate(decision_states(name, seed=2)):
        if k % 3:
            continue
        m = state.koloda_match()
        for p in range(game.num_players()):
            hidden = m.hidden_from(p)
            for text in (state.information_state_string(p), state.observation_string(p)):
                shown = {w for w in CARD_WORD.findall(text) if TEXT_CARD[w] in hidden}
                assert not shown, f"seat {p} sees {shown} in:\n{text}"
            for tensor in (state.observation_tensor(p), state.information_state_tensor(p)):
                lit = {CARD_TEXT[c] for i, c in card_at.items() if tensor[i] and c in hidden}
                assert not lit, f"seat {p}'s tensor shows {lit}"
            checked += bool(hidden)
    assert checked


def test_face_down_discards_of_others_are_counts_in_the_information_state() -> None:
    for state in decision_states("mushka", seed=1, params=",players=3"):
        m = state.koloda_match()
        discards = [(s, a) for s, a in m.history if a.startswith("discard")]
        if discards and m.current.phase == "play":
            break
    else:
        pytest.fail("nobody discarded")
    seat, action = discards[0]
    other = (seat + 1) % 3
    n = len(action.split()) - 1
    assert f"{seat}:{action}" in state.information_state_string(seat)
    assert f"{seat}:discard ×{n}" in state.information_state_string(other)
    assert action not in state.information_state_string(other)


def test_information_state_string_begins_with_the_dealt_hand_and_keeps_the_deals_actions(
        ) -> None:
    states = decision_states("opendaum", seed=3, params=",players=3")
    first = next(states)
    m = first.koloda_match()
    seat = first.current_player()
    dealt = m.observation(seat)["hand"]
    first.apply_action(first.legal_actions()[0])
    made = m.history[-1][1]
    text = first.information_state_string(seat)
    assert text.startswith(f"dealt to seat {seat}: {' '.join(dealt)}")
    assert f"{seat}:{made}" in text
    assert first.observation_string(seat) in text
    size = first.get_game().observation_tensor_size()
    assert len(first.information_state_tensor(seat)) == size + 52


def test_a_state_pickles_by_replaying_its_history() -> None:
    state = next(s for k, s in enumerate(decision_states("durak", seed=5)) if k == 7)
    copy = pickle.loads(pickle.dumps(state.table))
    assert str(copy) == str(state.table) and copy.history == state.table.history


def test_apply_koloda_action_makes_a_multi_card_action_in_its_steps() -> None:
    for state in decision_states("durak", seed=0, params=",players=3"):
        legal = state.koloda_match().legal_actions()
        pairs = [a for a in legal if a.startswith("attack") and len(a.split()) == 3]
        if pairs:
            break
    else:
        pytest.fail("no two-card attack")
    before = len(state.history())
    seat = state.current_player()
    state.apply_koloda_action(pairs[0])
    assert len(state.history()) == before + 3
    assert state.koloda_match().history[-1] == (seat, pairs[0])
    with pytest.raises(ValueError, match="not legal now"):
        state.apply_koloda_action("attack AS")


@pytest.mark.parametrize("name", list(koloda.registry()))
def test_resampling_keeps_the_seats_information_state_and_deals_the_rest_afresh(
        name: str) -> None:
    states = [s.clone() for k, s in enumerate(decision_states(name, seed=6)) if k in (3, 9)]
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for state in states:
        p = state.current_player()
        if koloda.get_spec(name).determinize is None:
            with pytest.raises(NoDeterminizer):
                state.resample_from_infostate(p, sampler)
            continue
        worlds = set()
        for _ in range(6):
            world = state.resample_from_infostate(p, sampler)
            assert world.information_state_string(p) == state.information_state_string(p)
            assert world.legal_actions() == state.legal_actions()
            mine = world.koloda_match()
            assert mine is not state.koloda_match()
            worlds.add(str(world))
            # the world plays on to its end without trouble
            rng = random.Random(1)
            while not world.is_terminal():
                if world.is_chance_node():
                    world.apply_action(rng.choice(world.chance_outcomes())[0])
                else:
                    world.apply_action(rng.choice(world.legal_actions()))
        hidden_somewhere = state.koloda_match().hidden_from(p)
        assert len(worlds) > 1 or not hidden_somewhere


def test_a_resampled_world_keeps_no_hidden_fact_of_the_true_one() -> None:
    for state in decision_states("durak", seed=8, params=",players=3"):
        if len(state.koloda_match().history) > 6:
            break
    p = state.current_player()
    world = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    m = world.koloda_match()
    assert all(not h for d in m.deals + m._explicit for h in d.hands)   # no true deal kept
    assert world.table.dealt_hands[p] == state.table.dealt_hands[p]
    assert all(h is None for s, h in enumerate(world.table.dealt_hands) if s != p)
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(world.table)
    dealing = load("durak").new_initial_state()
    with pytest.raises(ValueError, match="decision node"):
        dealing.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))


def test_the_python_shortcuts_answer_as_pyspiels_own_calls() -> None:
    """KolodaState's legal_actions, is_chance_node and is_player_node (called from Python
    without the round trip through C++) give pyspiel's own answers, for every player
    argument, at chance, decision and terminal nodes."""
    def call(f: Any, *args: Any) -> Any:
        try:
            return list(f(*args))
        except pyspiel.SpielError as exc:
            return str(exc)
    for name in ("durak", "mushka", "dreyfus"):
        game = pyspiel.load_game(f"{kos.game_name(name)}(max_deals=1)")
        rng = random.Random(0)
        state = game.new_initial_state()
        while True:
            for args in ((), *[(p,) for p in range(-4, game.num_players() + 1)]):
                assert call(state.legal_actions, *args) == \
                    call(pyspiel.State.legal_actions, state, *args), (name, args)
            assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
            assert state.is_player_node() == pyspiel.State.is_player_node(state)
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))


def test_the_tensor_lists_are_the_float32_vectors() -> None:
    """observation_tensor / information_state_tensor (lists written directly) hold exactly
    the float32 values of the numpy vector Table.fill writes and of the reference
    vector, at every decision of random Durak and Opendaum games."""
    import numpy as np
    for name, players in (("durak", 3), ("opendaum", 4)):
        game = pyspiel.load_game(f"{kos.game_name(name)}(players={players},max_deals=2)")
        rng = random.Random(1)
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                for p in range(players):
                    for recall in (False, True):
                        got = state._tensor(p, recall)
                        out = np.zeros(len(got), np.float32)
                        state.table.fill(p, out, recall)
                        assert got == out.tolist()
                        assert got == np.asarray(state.table.vector(p, recall),
                                                 np.float32).tolist()
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", list(koloda.registry()))
def test_every_games_tensor_lists_are_fresh_float32_vectors(name: str) -> None:
    """Every game, whether its tensor is written straight from the match's state or read
    off an observation (and then kept per position): at every decision, selection steps
    included, each seat's observation and information-state lists are the float32 values
    of the reference vector, asked again they are the same, and each is the caller's own
    list (changing one changes no later answer)."""
    import numpy as np
    game = load(name)
    players = game.num_players()
    for k, state in enumerate(decision_states(name, seed=4)):
        if k > 60:
            break
        for p in range(players):
            for recall in (False, True):
                want = np.asarray(state.table.vector(p, recall), np.float32).tolist()
                first = state._tensor(p, recall)
                assert first == want, (name, k, p, recall)
                first[:] = [9.0] * len(first)
                assert state._tensor(p, recall) == want, (name, k, p, recall)


def test_current_player_is_chance_until_the_last_card_of_a_deal() -> None:
    """A card dealt before a deal's last leaves chance to act; the last begins the
    match and its first seat acts."""
    t = Table("mushka", 4, {"max_deals": 1})
    rng = random.Random(2)
    while t.match is None:
        assert t.current_player() == pyspiel.PlayerId.CHANCE
        outcomes = t.chance_outcomes()
        t.apply(outcomes[rng.randrange(len(outcomes))][0])
    assert t.current_player() == t.match.to_move >= 0


def test_table_current_player_is_worked_out_again_after_every_change() -> None:
    """The table keeps its current player per node: every outcome or action applied, and
    a match begun with ``start_from``, make it ask again."""
    t = Table("durak", 2, {"max_deals": 1})
    assert t.current_player() == pyspiel.PlayerId.CHANCE
    m = koloda.new_game("durak", players=2, seed=11, max_deals=1)
    t.start_from(m)
    assert t.current_player() == m.to_move
    rng = random.Random(4)
    while t.current_player() >= 0:
        before = t.current_player()
        legal = t.legal_indices()
        t.apply(legal[rng.randrange(len(legal))])
        live = t.match
        assert live is not None
        expected = pyspiel.PlayerId.TERMINAL if live.is_over else live.to_move
        assert t.current_player() == expected, before
    assert t.current_player() == pyspiel.PlayerId.TERMINAL


def test_table_legal_indices_are_worked_out_again_after_every_change() -> None:
    """The table keeps its legal indices per node: each is the space's own mask of the
    match's legal actions at every step (selection steps included), a list the caller
    may change, and a match begun with ``start_from`` or a resampled copy asks again."""
    t = Table("mushka", 4, {"max_deals": 1})
    rng = random.Random(5)
    while t.current_player() == pyspiel.PlayerId.CHANCE:
        outcomes = t.chance_outcomes()
        t.apply(outcomes[rng.randrange(len(outcomes))][0])
    while t.current_player() >= 0:
        m = t.match
        assert m is not None
        want = sorted(t.space.allowed(m.legal_actions(), t.selection))
        got = t.legal_indices()
        assert got == want
        got.append(-1)                       # the caller's own list
        assert t.legal_indices() == want
        if rng.random() < 0.2:
            other = t.resample(t.current_player(), random.Random(rng.random()))
            assert other.legal_indices() == sorted(other.space.allowed(
                other.match.legal_actions(), other.selection))
        t.apply(want[rng.randrange(len(want))])
    fresh = koloda.new_game("mushka", players=4, seed=4, max_deals=1)
    t.start_from(fresh)
    assert t.legal_indices() == sorted(t.space.allowed(fresh.legal_actions()))


def test_each_adapter_keeps_its_own_action_space() -> None:
    """The same numbering, but PettingZoo's and OpenSpiel's selection trees and caches
    are their own: positions one adapter looked at never make the other faster (the
    adapters' benchmark plays the same games on both)."""
    from koloda.envs.actions import action_space
    from koloda.envs.pettingzoo import raw_env
    pz = raw_env("durak", players=2).space
    os_ = Table("durak", 2, {}).space
    assert pz is not os_
    assert pz is action_space("durak", "pettingzoo") and os_ is action_space("durak",
                                                                            "openspiel")
    assert pz.labels == os_.labels


def test_a_table_begun_from_a_match_resamples_after_moves_of_its_own() -> None:
    """A table begun with ``start_from`` holds no deal in its history: the hands it
    began with count as dealt, so a resample after some of its own moves works (it used
    to replay the moves as chance outcomes: "chance outcome 92: no seat 92")."""
    t = Table("mushka", 4, {"max_deals": 1})
    m = koloda.new_game("mushka", players=4, seed=3, max_deals=1)
    began = [[CARD_TEXT[c] for c in sorted(h)] for h in m.current.hands]
    t.start_from(m)
    rng = random.Random(5)
    for _ in range(6):
        legal = t.legal_indices()
        t.apply(legal[rng.randrange(len(legal))])
    seat = t.current_player()
    assert seat >= 0
    other = t.resample(seat, random.Random(1))
    assert sorted(other.dealt_hands[seat] or []) == sorted(began[seat])
    assert other.legal_indices() == sorted(other.space.allowed(
        other.match.legal_actions(), other.selection))
