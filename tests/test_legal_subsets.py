"""Legal lists that name their multi-card pools (koloda.engine.legal): the pools and the
plain texts are exactly the list, and the adapters' masks read off the pools are the
masks read off the texts, on random positions of every game with multi-card actions."""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator

import pytest

import koloda
from koloda.engine.legal import CardSubsets, LegalActions, legal_actions
from koloda.envs.actions import ActionSpace, Selection

#: the games whose legal lists name their pools: the discards (Durak's attack, throw and
#: transfer lists are short and stay plain lists, read by their texts)
POOLED = [("mushka", 3), ("mushka", 4), ("dreyfus", 3)]


def positions(name: str, players: int, seeds: int = 4) -> Iterator[list[str]]:
    for seed in range(seeds):
        rng = random.Random(seed)
        m = koloda.new_game(name, players=players, seed=seed, max_deals=2)
        while not m.is_over:
            legal = m.legal_actions()
            yield legal
            m.apply(rng.choice(legal))


def test_card_subsets_are_the_sets_of_one_to_most_cards_in_combination_order() -> None:
    s = CardSubsets("discard", (0, 13, 26), 2)
    assert s.texts() == ["discard 2S", "discard 2C", "discard 2D", "discard 2S 2C",
                         "discard 2S 2D", "discard 2C 2D"]
    assert CardSubsets("throw", (0, 1), 0).texts() == []
    assert CardSubsets("attack", (7,), 3).texts() == ["attack 9S"]


def test_a_legal_list_reads_as_its_texts_and_names_its_plain_texts_and_pools() -> None:
    pool = CardSubsets("transfer", (5, 18), 1)
    legal = legal_actions(["take", *pool.texts(), "pass"], ("take", "pass"), (pool,))
    assert legal == ["take", "transfer 7S", "transfer 7C", "pass"]
    assert isinstance(legal, list)
    assert legal.plain == ("take", "pass") and legal.subsets == (pool,)
    back = pickle.loads(pickle.dumps(legal))
    assert back == legal and back.plain == legal.plain and back.subsets == legal.subsets

@pytest.mark.parametrize(("name", "players"), POOLED)
def test_every_multi_card_action_comes_from_a_named_pool(name: str, players: int) -> None:
    multi = koloda.registry()[name].actions.multi
    pooled = 0
    for legal in positions(name, players):
        if not isinstance(legal, LegalActions):
            if (name, players) in POOLED:
                assert not any(t.split()[0] in multi for t in legal), legal
            continue
        pooled += 1
        made = list(legal.plain) + [t for p in legal.subsets for t in p.texts()]
        assert sorted(made) == sorted(legal) and len(set(legal)) == len(legal)
        assert not any(t.split()[0] in multi for t in legal.plain)
    assert pooled


@pytest.mark.parametrize(("name", "players"), POOLED)
def test_masks_read_off_the_pools_are_the_masks_read_off_the_texts(
        name: str, players: int) -> None:
    pools, texts = ActionSpace(name), ActionSpace(name)
    rng = random.Random(7)
    for legal in positions(name, players, seeds=3):
        plain = list(legal)                    # the same texts, no pools named
        sel = Selection()
        while True:
            allowed = sorted(pools.allowed(legal, sel))
            assert allowed == sorted(texts.allowed(plain, sel))
            assert pools.options(legal, sel) == texts.options(plain, sel)
            index = rng.choice(allowed)
            made, after = pools.step(index, legal, sel)
            assert (made, after) == texts.step(index, plain, sel)
            if made is not None:
                break
            sel = after
