"""The fast paths of the adapters give the same numbers as the plain
ones: the sparse encoder against ``encode``, the numpy vectors against
``Features.vector``, the OpenSpiel tensor against ``Table.vector``; and the side-by-side
benchmark runs."""

from __future__ import annotations

import random
from typing import Any

import pytest

import koloda
from koloda.envs.actions import Selection, action_space
from koloda.envs.speed import SHAPES, Shape
from koloda.tensors import encoder

OPTIONS: dict[str, dict[str, Any]] = {"pyanitsy": {"round_cap": 40}}


def positions(name: str, players: int, seed: int, steps: int = 40) -> Any:
    m = koloda.new_game(name, players=players, seed=seed, max_deals=2, **OPTIONS.get(name, {}))
    rng = random.Random(seed)
    for _ in range(steps):
        yield m
        if m.is_over:
            return
        legal = m.legal_actions()
        m.apply(legal[rng.randrange(len(legal))])


def shapes() -> list[tuple[str, int]]:
    return [(name, p) for name, spec in koloda.registry().items()
            for p in sorted({spec.players[0], spec.players[-1]})]


@pytest.mark.parametrize(("name", "players"), shapes())
def test_the_sparse_encoder_writes_exactly_what_encode_writes(name: str, players: int) -> None:
    enc = encoder(name, players)
    for m in positions(name, players, seed=players):
        for s in range(players):
            obs = m.observation(s).to_json()
            dense = enc.encode(obs)
            sparse = [0.0] * enc.size
            for i, x in enc.sparse(obs).items():
                sparse[i] = x
            assert sparse == dense


@pytest.mark.parametrize("name", ["durak", "dreyfus", "mushka"])
def test_the_lazy_selection_tree_allows_what_the_legal_list_allows(name: str) -> None:
    space = action_space(name)
    for m in positions(name, koloda.get_spec(name).default_players, seed=3, steps=30):
        if m.is_over:
            break
        legal = m.legal_actions()
        assert space.reachable(legal) == set(legal)
        # walking one path step by step reaches its action
        action = legal[-1]
        sel = Selection()
        for index in space.path(action):
            assert index in space.allowed(legal, sel)
            text, sel = space.step(index, legal, sel)
        assert text == action


def test_the_pettingzoo_and_openspiel_vectors_are_the_plain_vectors() -> None:
    pytest.importorskip("pettingzoo")
    pyspiel = pytest.importorskip("pyspiel")
    import numpy as np

    import koloda.envs.openspiel as kos
    from koloda.envs.pettingzoo import raw_env
    e = raw_env("durak", players=3, max_deals=1)
    e.reset(seed=2)
    rng = random.Random(2)
    for _ in range(40):
        m = e.match
        if m.is_over:
            break
        for s, agent in enumerate(e.possible_agents):
            sel = e.selection if s == m.to_move else Selection()
            want = np.asarray(e.features.vector(m.observation(s), e.memory, sel), np.float32)
            assert (e.observe(agent)["observation"] == want).all()
        allowed = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        e.step(int(allowed[rng.randrange(len(allowed))]))
    game = pyspiel.load_game("koloda_mushka(players=3,max_deals=1)")
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        for p in range(3):
            want = np.asarray(state.table.vector(p), np.float32)
            assert np.array_equal(np.asarray(state.observation_tensor(p), np.float32), want)
            info = np.asarray(state.table.vector(p, True), np.float32)
            assert np.array_equal(np.asarray(state.information_state_tensor(p), np.float32),
                                  info)
        state.apply_action(rng.choice(state.legal_actions()))
    assert isinstance(kos.GAMES, list)


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: s.label.replace(" ", "-"))
def test_the_benchmark_plays_the_same_games_on_every_side(shape: Shape) -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
    from koloda.envs import speed
    kept: dict[str, list[Any]] = {}
    for side, run in speed.sides().items():
        kept[side] = []
        run(shape, 2 if shape.what == "whole match" else 3, 5, keep=kept[side])
    raw, zoo, spiel = kept["raw"], kept["pettingzoo"], kept["openspiel"]
    assert [m.history for m in zoo] == [m.history for m in raw]
    for mine, theirs in zip(spiel, raw, strict=True):
        if len(theirs.deals) == 1:
            assert mine.history == theirs.history
            continue
        # a later deal (a whole match; a Stukolka episode carried into a second deal) is drawn
        # by OpenSpiel's chance nodes: the first is the raw side's
        assert (mine.deals[0].dealer, mine.deals[0].hands) == \
            (theirs.deals[0].dealer, theirs.deals[0].hands)
        if shape.game == "opendaum":       # its deals' lengths are fixed by their sizes
            assert len(mine.history) == len(theirs.history)


def test_the_adapter_benchmark_prints_raw_and_adapters_side_by_side() -> None:
    from koloda.envs import speed
    rows = speed.measure(episodes=2, rounds=1, shapes=[("durak", 2)], chunk=1)
    text = "\n".join(speed.lines(rows))
    assert "durak 2p" in text and "raw" in text
    assert rows[0].median("raw") > 0


def test_adapter_bench_measures_opendaum_on_its_8_card_deal_and_whole_match_and_names_shapes(
        ) -> None:
    """The adapters were measured on Opendaum's one-card first deal only: every shape a
    researcher trains on is measured now, and each row says its players, cards and
    deals."""
    from koloda.envs import speed
    labels = {s.label for s in speed.SHAPES}
    assert {"opendaum 4p 8-card deal", "opendaum 4p whole match", "durak 2p game",
            "mushka 4p deal"} <= labels
    shapes = [s for s in speed.SHAPES if s.game == "opendaum"]
    rows = speed.measure(episodes=1, rounds=1, shapes=shapes)
    deal, match = (r.to_json() for r in rows)
    assert (deal["players"], deal["cards"], deal["deals"]) == (4, [8], [1, 1])
    assert (match["cards"], match["deals"]) == (list(range(1, 10)), [20, 20])
    text = "\n".join(speed.lines(rows))
    assert "4 players, 8 cards each, 1 deal" in text
    assert "4 players, 1–9 cards each, 20 deals" in text


def test_adapter_bench_openspiel_side_deals_inside_the_clock(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The OpenSpiel side's deal was made before its clock started (the raw side's inside
    it): it is made between the clock's two readings now."""
    pytest.importorskip("pyspiel")
    from koloda.envs import speed
    events: list[str] = []
    real_clock, real_deal = speed.time.process_time, speed.deal_outcomes

    def clock() -> float:
        events.append("clock")
        return real_clock()

    def deal(shape: Any, seed: int) -> list[int]:
        events.append("deal")
        return real_deal(shape, seed)

    shape = speed.SHAPES[1]
    speed.made("openspiel", shape)
    monkeypatch.setattr(speed.time, "process_time", clock)
    monkeypatch.setattr(speed, "deal_outcomes", deal)
    speed.openspiel(shape, 2, 1)
    assert events == ["clock", "deal", "deal", "clock"]


def test_koloda_bench_adapters_prints_the_ratios_in_the_same_run() -> None:
    import json

    from typer.testing import CliRunner

    from koloda.cli.main import app
    from koloda.envs import speed
    out = CliRunner().invoke(app, ["bench", "--quick", "--no-openspiel", "--no-batched",
                                   "--game", "pyanitsy",
                                   "--deals", "1", "--matches", "0", "--adapters", "1",
                                   "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert [(r["game"], r["episode"]) for r in data["adapters"]] == [
        (s.game, s.what) for s in speed.SHAPES]
    assert all(r["raw_per_s"] > 0 for r in data["adapters"])
    assert all(r["cards"] and r["deals"] and r["shape"] for r in data["adapters"])
    assert data["figures"][0]["name"] == "pyanitsy"


def test_dreyfus_discard_tree_is_built_once_per_position_and_only_along_the_path(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Dreyfus's exchange offers thousands of discard sets: the selection tree is made
    once per position (not at every select step) and only the nodes along the chosen
    path are expanded — far fewer nodes than the sets."""
    from koloda.envs import actions
    space = action_space("dreyfus")
    made = [0]
    real_init = actions._Node.__init__

    def counting(self: Any, card: int = -1) -> None:
        made[0] += 1
        real_init(self, card)

    monkeypatch.setattr(actions._Node, "__init__", counting)
    m = koloda.new_game("dreyfus", seed=4)
    legal = m.legal_actions()
    sets = [a for a in legal if a.startswith("discard ") and len(a.split()) > 2]
    assert len(sets) > 1000
    action = max(sets, key=lambda a: len(a.split()))
    sel = Selection()
    root = space._root(legal)
    for index in space.path(action):
        assert space._root(legal) is root          # the same tree at every step
        text, sel = space.step(index, legal, sel)
        space.allowed(legal, sel)
    assert text == action
    assert made[0] < len(sets) // 10, (made[0], len(sets))


@pytest.mark.parametrize(("name", "players"), [("durak", 2), ("mushka", 4), ("opendaum", 3)])
def test_dealt_hands_asked_mid_deal_are_the_hands_read_as_the_deal_began(
        name: str, players: int) -> None:
    """The chance table reads each deal's dealt hands as it begins only once something
    has asked for them (koloda.envs.chance.Recall); asked first mid-deal, it replays the
    deal's start and gets the very hands an eager table read."""
    from koloda.envs.chance import Recall, Table
    rng = random.Random(players)
    lazy = Table(name, players, {"max_deals": 2})
    eager = Table(name, players, {"max_deals": 2}, Recall(True))
    asked = False
    for _ in range(400):
        if lazy.current_player() == -4:
            break
        if lazy.current_player() == -1:
            index = rng.choice(lazy.chance_outcomes())[0]
        else:
            index = rng.choice(lazy.legal_indices())
            if not asked and lazy.log:            # the first question, mid-deal
                assert lazy._dealt is None
                assert lazy.dealt_hands == eager.dealt_hands
                assert lazy.recall.on
                asked = True
        lazy.apply(index)
        eager.apply(index)
        if asked and lazy.match is not None and lazy.dealing is None:
            assert lazy._dealt is not None             # read as each deal begins now
            assert lazy.dealt_hands == eager.dealt_hands
    assert asked


@pytest.mark.parametrize(("name", "players"), shapes())
def test_write32_is_the_dense_tensor_rounded_to_float32(name: str, players: int) -> None:
    """The OpenSpiel tensors' writer (``TypedEncoder.write32``) gives the reference tensor
    with every value exactly as a float32 array holds it."""
    from array import array
    enc = encoder(name, players)
    for m in positions(name, players, seed=players + 7, steps=25):
        for s in range(players):
            obs = m.observation(s)
            out = [0.0] * enc.size
            enc.typed.write32(obs, out)
            assert out == array("f", enc.encode(obs.to_json())).tolist()


@pytest.mark.parametrize(("name", "players"), [("opendaum", 4), ("mushka", 3), ("durak", 2)])
def test_a_chance_dealt_deal_is_checked_against_its_shape_without_dealing_it_again(
        name: str, players: int) -> None:
    """The chance table gives the match the shape it dealt each deal into
    (``Match(shapes=...)``, ``provide_deal(deal, shape)``): the match checks the deal
    against it and deals no shape of its own; a deal that does not fit the shape given
    is still refused."""
    from koloda.engine.deal import Deal
    from koloda.engine.errors import RecordError
    from koloda.envs.chance import Table
    spec = koloda.get_spec(name)
    dealt: list[int] = []
    original = spec.match_class.deal_cards

    def counting(self: Any, dealer: int, rng: Any) -> Any:
        dealt.append(dealer)
        return original(self, dealer, rng)

    table = Table(name, players, {"max_deals": 3, **({"games": 3} if name == "durak" else {})})
    for dealer in range(players):               # the first deal's shapes, made once
        table._first_shape(dealer)
    rng = random.Random(4)
    deals_shaped = 0
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(spec.match_class, "deal_cards", counting)
        while table.current_player() != -4:
            if table.current_player() == -1:
                if table.dealing is not None and len(table.dealing.dealt) == 0:
                    deals_shaped += 1
                table.apply(rng.choice(table.chance_outcomes())[0])
            else:
                table.apply(rng.choice(table.legal_indices()))
    m = table.match
    assert m is not None and len(m.deals) >= 2
    # only the shapes of the later deals, made by the table to deal them into (the
    # first deal's is kept): none made again to check a deal
    assert len(dealt) == len(m.deals) - 1 == deals_shaped - 1
    first = m.deals[0]
    swapped = Deal(first.dealer, (first.hands[0][:-1], *first.hands[1:]),
                   (first.hands[0][-1], *first.stock), first.trump_card)
    with pytest.raises(RecordError):
        spec.match_class(spec, players, m.options, deals=[swapped],
                         first_dealer=first.dealer, shapes={0: first})


@pytest.mark.parametrize(("name", "players"), [("durak", 2), ("opendaum", 4), ("mushka", 4)])
def test_observations_handed_out_are_never_changed_later_nor_shared(
        name: str, players: int) -> None:
    """An observation's arrays belong to the caller: kept, they stay as they were handed
    out while the environment goes on; changed by the caller, no later observation
    shows it (each is the reference vector and mask of its own position)."""
    pytest.importorskip("pettingzoo")
    import numpy as np

    from koloda.envs.pettingzoo import raw_env
    e = raw_env(name, players=players, max_deals=1)
    kept: list[tuple[Any, Any]] = []
    for seed in range(3):
        e.reset(seed=seed)
        rng = random.Random(seed)
        space = e.space
        while e.agents:
            agent = e.agent_selection
            seat = e.agent_name_mapping[agent]
            m = e.match
            for _ in range(2):                  # asked twice: the kept ones copied out
                obs = e.observe(agent)
                acting = seat == m.to_move
                sel = e.selection if acting else Selection()
                want = np.asarray(e.features.vector(m.observation(seat), e.memory, sel),
                                  np.float32)
                mask = space.mask(m.legal_actions(), sel) if acting else [0] * space.size
                assert np.array_equal(obs["observation"], want)
                assert list(obs["action_mask"]) == mask
                kept.append((obs["observation"], obs["action_mask"]))
                obs["observation"][:] = 9.0       # the caller's to change
                obs["action_mask"][:] = 7
            if e.terminations[agent] or e.truncations[agent]:
                e.step(None)
                continue
            allowed = list(np.flatnonzero(np.asarray(mask)))
            e.step(int(allowed[rng.randrange(len(allowed))]))
    arrays = [id(a) for pair in kept for a in pair]
    assert len(set(arrays)) == len(arrays)          # no array handed out twice
    for vector, mask_array in kept:
        assert (vector == 9.0).all() and (mask_array == 7).all()   # changed only by us


@pytest.mark.parametrize(("name", "players"), [("mushka", 4), ("mushka", 3), ("dreyfus", 3)])
def test_one_verb_key_reading_gives_the_keys_of_the_general_reading(
        name: str, players: int) -> None:
    """A game with one multi-card verb reads its sets' select keys in a loop of its own
    (``ActionSpace._learn_keys``): the same keys and groups as the general loop."""
    from koloda.envs.actions import ActionSpace
    fast, general = ActionSpace(name), ActionSpace(name)
    general.multi = (*general.multi, "no-such-verb")     # not one verb: the general loop
    compared = 0
    for seed in range(6):
        m = koloda.new_game(name, players=players, seed=seed, max_deals=1)
        rng = random.Random(seed)
        for _ in range(30):
            if m.is_over:
                break
            legal = m.legal_actions()
            if any(" " in t[8:] for t in legal if t.startswith("discard ")):
                assert fast._learn_keys(legal) == general._learn_keys(legal)
                compared += 1
            m.apply(rng.choice(legal))
    assert compared


def test_the_shapes_are_picked_by_name_and_an_unknown_name_is_refused() -> None:
    """``koloda bench --adapters --shapes`` names shapes as ``speed.named`` reads them: in
    ``SHAPES``' order whatever the order asked, the game's name unless the shape has its
    own (Opendaum's two)."""
    from koloda.envs import speed
    picked = speed.named(["trinka", "opendaum-8", "durak"])
    assert [(s.game, s.what) for s in picked] == [
        ("durak", "game"), ("opendaum", "8-card deal"), ("trinka", "deal")]
    assert [s.name for s in speed.named(["opendaum-match"])] == ["opendaum-match"]
    with pytest.raises(ValueError, match="no adapter shape opendaum: one of durak, "):
        speed.named(["opendaum"])
