"""The fixed action spaces (koloda.envs.actions): the masks reach exactly the engine's legal
actions — every one by one path, nothing else — on random positions of every game."""

from __future__ import annotations

import random

import pytest

import koloda
from koloda.cards import TEXT_CARD
from koloda.envs.actions import Selection, action_space

OPTIONS = {"pyanitsy": {"round_cap": 40}}


def configs() -> list[tuple[str, int]]:
    return [(name, p) for name, spec in koloda.registry().items()
            for p in sorted({spec.players[0], spec.players[-1]})]


@pytest.mark.parametrize(("name", "players"), configs())
def test_the_masks_reach_exactly_the_legal_actions(name: str, players: int) -> None:
    space = action_space(name)
    for seed in range(3):
        rng = random.Random(seed)
        m = koloda.new_game(name, players=players, seed=seed, max_deals=2,
                            **OPTIONS.get(name, {}))
        while not m.is_over:
            legal = m.legal_actions()
            assert space.reachable(legal) == set(legal)
            action = rng.choice(legal)
            # walking the mask step by step makes the action, each step allowed
            sel, made = Selection(), None
            for index in space.path(action):
                assert space.mask(legal, sel)[index] == 1
                made, sel = space.step(index, legal, sel)
            assert made == action and not sel
            m.apply(action)


def test_indices_are_the_documented_ones() -> None:
    durak = action_space("durak")
    assert durak.index["take"] == 0 and durak.index["pass"] == 1
    assert durak.index["beat 6C 7C"] == 2 + 52 * TEXT_CARD["6C"] + TEXT_CARD["7C"]
    assert durak.path("attack 6D 6C") == [durak.select_base + TEXT_CARD["6C"],
                                          durak.select_base + TEXT_CARD["6D"],
                                          durak.index["confirm attack"]]
    assert "confirm transfer" not in durak.index
    assert "confirm transfer" in action_space("durak-perevodnoy").index
    opendaum = action_space("opendaum-shakhi")
    assert opendaum.index["bid 0"] == 0 and opendaum.index["play 2S"] == 19
    assert opendaum.labels[-4:] == ["play 6S wild", "play 6S plain", "play 6C wild",
                                    "play 6C plain"]
    assert action_space("kopilka").index["pick 0"] == 2
    assert action_space("pyanitsy").labels == ["flip"]
    assert [action_space(n).size for n in koloda.registry()] == \
        [106, 2760, 2761, 114, 107, 71, 73, 75, 1, 55, 52]


def test_an_open_selection_allows_only_cards_that_lead_somewhere_and_its_confirms() -> None:
    space = action_space("durak")
    legal = ["attack 6C", "attack 6D", "attack 6C 6D", "attack 9H", "pass"]
    first = space.options(legal)
    assert set(first) == {space.select_base + TEXT_CARD[t] for t in ("6C", "6D", "9H")} | \
        {space.index["pass"]}
    after_6c = space.options(legal, Selection((TEXT_CARD["6C"],)))
    assert after_6c == {space.index["confirm attack"]: "attack 6C",
                        space.select_base + TEXT_CARD["6D"]: None}
    # cards go in ascending order: 6D first would never reach {6C, 6D}
    after_6d = space.options(legal, Selection((TEXT_CARD["6D"],)))
    assert after_6d == {space.index["confirm attack"]: "attack 6D"}
    with pytest.raises(ValueError, match="not allowed now"):
        space.step(space.index["pass"], legal, Selection((TEXT_CARD["6C"],)))


def test_an_action_the_space_cannot_name_is_refused_loudly() -> None:
    with pytest.raises(ValueError, match="no index for the legal action 'bid 40'"):
        action_space("opendaum").options(["bid 40"])


@pytest.mark.parametrize(("name", "players"), [("durak", 2), ("mushka", 4), ("dreyfus", 3),
                                              ("opendaum", 4)])
def test_a_root_knows_whether_a_selection_may_begin_there(name: str, players: int) -> None:
    """``selects`` (the PettingZoo env keeps a position's vector only then) is true
    exactly when some index allowed before any selection is a ``select`` or a
    ``confirm``, on random positions of every game with or without multi-card actions."""
    space = action_space(name)
    rng = random.Random(11)
    seen = set()
    for seed in range(12):
        m = koloda.new_game(name, players=players, seed=seed, max_deals=1)
        while not m.is_over:
            legal = m.legal_actions()
            root = space._root(list(legal) if rng.random() < 0.5 else legal)
            labels = [space.labels[i] for i in root.options]
            want = any(x.startswith(("select ", "confirm ")) for x in labels)
            assert root.selects is want, labels
            seen.add(want)
            m.apply(legal[rng.randrange(len(legal))])
    assert seen == ({True, False} if space.multi else {False})


def test_a_space_that_forgets_its_trees_masks_and_steps_as_before() -> None:
    """``forget`` drops the trees and caches, not the numbering: the masks and steps of
    the same positions are the same after it (the benchmark forgets between shapes)."""
    from koloda.envs.actions import ActionSpace
    space = ActionSpace("mushka")
    m = koloda.new_game("mushka", players=4, seed=7, max_deals=1)
    rng = random.Random(7)
    while not m.is_over:
        legal = m.legal_actions()
        action = rng.choice(legal)
        before = [space.mask(legal)] + [space.mask(legal, Selection(tuple(
            sorted(TEXT_CARD[w] for w in action.split()[1:][:k])))) for k in (1, 2)
            if action.startswith("discard") and len(action.split()) > k]
        labels = list(space.labels)
        space.forget()
        assert not space._roots and not space._shared and not space._pooled
        again = [space.mask(legal)] + [space.mask(legal, Selection(tuple(
            sorted(TEXT_CARD[w] for w in action.split()[1:][:k])))) for k in (1, 2)
            if action.startswith("discard") and len(action.split()) > k]
        assert again == before and space.labels == labels
        m.apply(action)


@pytest.mark.parametrize(("name", "players"), configs())
def test_a_flat_list_is_read_without_a_tree_and_agrees_with_it(name: str,
                                                                players: int) -> None:
    """``flat``: a legal list whose every action is one index gives those indices (the
    masks and steps then build no selection tree); it agrees with the tree's root at
    every position, and a list with a multi-card set (or a pool) is not flat."""
    space = action_space(name)
    flat_seen = pooled_seen = 0
    for seed in range(2):
        rng = random.Random(seed)
        m = koloda.new_game(name, players=players, seed=seed, max_deals=2,
                            **OPTIONS.get(name, {}))
        while not m.is_over:
            legal = m.legal_actions()
            keys = space.flat(legal)
            root = space._root(legal)
            assert keys is not None or space.multi      # a game of one-index actions
            if keys is None:
                assert root.selects or any(len(space.path(t)) > 1 for t in legal)
                first = space.pool_start(legal)      # one named pool: no tree either
                if first is not None:
                    pooled_seen += 1
                    assert first == list(root.options) and root.selects
                    for i in first:
                        assert space.step(i, legal) == (
                            None if root.select(i) else root.options[i],
                            Selection((i - space.select_base,)) if root.select(i)
                            else Selection())
            else:
                flat_seen += 1
                assert keys == list(root.options) and not root.selects
                assert list(space.choices(legal)) == keys
                for i in keys:
                    assert space.step(i, legal) == (root.options[i], Selection())
                refused = next((i for i in range(space.size) if i not in keys), None)
                if refused is not None:         # (Pyanitsy's one action is always legal)
                    with pytest.raises(ValueError, match="not allowed now"):
                        space.step(refused, legal)
            m.apply(rng.choice(legal))
    assert flat_seen
    assert pooled_seen or name not in ("mushka", "dreyfus")
