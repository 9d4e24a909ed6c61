"""Observation tensors and strings (koloda.tensors): fixed sizes, the documented fields,
bounds, relative seats — and no hidden card in any tensor entry or string."""

from __future__ import annotations

import copy
import json
import math
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import koloda
import koloda.tensors as kt
from koloda.cards import CARD_TEXT, TEXT_CARD
from koloda.engine.layout import present

OPTIONS: dict[str, dict[str, Any]] = {"pyanitsy": {"round_cap": 40}}
CARD_WORD = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][SCDH](?![0-9A-Za-z])")


def configs() -> list[tuple[str, int]]:
    out = []
    for name, spec in koloda.registry().items():
        for p in sorted({spec.players[0], spec.default_players, spec.players[-1]}):
            out.append((name, p))
    return out


GAMES = list(koloda.registry())
CONFIGS = configs()


def positions(name: str, players: int, seed: int, max_deals: int = 1,
              every: int = 1) -> Iterator[koloda.Match]:
    """The match at every ``every``-th position of one random playout (the end included)."""
    rng = random.Random(seed)
    m = koloda.new_game(name, players=players, seed=seed, max_deals=max_deals,
                        **OPTIONS.get(name, {}))
    step = 0
    while not m.is_over:
        if step % every == 0:
            yield m
        m.apply(rng.choice(m.legal_actions()))
        step += 1
    yield m


def hidden_words(text: str, hidden: set[int]) -> set[str]:
    return {w for w in CARD_WORD.findall(text) if TEXT_CARD[w] in hidden}


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_tensor_size_is_fixed_and_every_value_lies_in_its_bounds(name: str,
                                                                  players: int) -> None:
    enc = kt.encoder(name, players)
    lows, highs = enc.bounds()
    assert len(lows) == len(highs) == enc.size == kt.size(name, players)
    for m in positions(name, players, seed=players):
        for seat in range(players):
            v = kt.encode(m.observation(seat))
            assert len(v) == enc.size
            for i, x in enumerate(v):
                assert math.isfinite(x) and lows[i] <= x <= highs[i], (i, x)


@pytest.mark.parametrize("name", GAMES)
def test_every_documented_field_appears_in_the_observations(name: str) -> None:
    """A renamed or dropped observation field would silently encode as zeros: the layout
    must name only fields the game really gives."""
    spec = koloda.get_spec(name)
    enc = kt.encoder(name, spec.default_players)
    seen: set[str] = set()
    for seed in range(4):
        for m in positions(name, spec.default_players, seed, max_deals=4):
            for seat in range(spec.default_players):
                obs = m.observation(seat)
                seen |= {b.path for b in enc.blocks if present(obs, b.path)}
    assert {b.path for b in enc.blocks} - seen == set()


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_no_tensor_entry_and_no_string_names_a_hidden_card(name: str, players: int) -> None:
    enc = kt.encoder(name, players)
    card_at = enc.card_positions()
    checked = 0
    for m in positions(name, players, seed=10 + players):
        for seat in range(players):
            hidden = m.hidden_from(seat)
            obs = m.observation(seat)
            v = kt.encode(obs)
            lit = {CARD_TEXT[c] for i, c in card_at.items() if v[i] and c in hidden}
            assert not lit, f"seat {seat}'s tensor shows hidden {lit}"
            assert not hidden_words(kt.render(obs), hidden)
            checked += bool(hidden)
    assert checked, "no position with hidden cards was checked"


def swapped_record(record: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    rec = copy.deepcopy(record)
    deal = rec["deals"][-1]
    swap = {a: b, b: a}
    deal["hands"] = [[swap.get(c, c) for c in h] for h in deal["hands"]]
    deal["stock"] = [swap.get(c, c) for c in deal["stock"]]
    rec["result"] = None
    return rec


def hidden_swaps(m: koloda.Match, seat: int) -> Iterator[tuple[str, str]]:
    """Pairs of cards hidden from ``seat`` that lay in two different places of the deal
    (two other hands, or a hand and the stock), the turned trump card left alone: two
    pairs of one suit and two of different suits. Kopilka gets only the first kind: its
    exchange is made by the rules, not by a choice, whenever a hand holds three cards of a
    suit, so every seat sees the suit counts it follows from."""
    deal = m.deals[-1]
    where: dict[int, str] = {}
    for s, h in enumerate(deal.hands):
        for c in h:
            where[c] = f"hand{s}"
    for c in deal.stock:
        where[c] = "stock"
    hidden = sorted(c for c in m.hidden_from(seat) if c in where and c != deal.trump_card)
    pairs = [(a, b) for i, a in enumerate(hidden) for b in hidden[i + 1:]
             if where[a] != where[b]]
    same = [p for p in pairs if p[0] // 13 == p[1] // 13][:2]
    other = [] if m.spec.family == "kopilka" else \
        [p for p in pairs if p[0] // 13 != p[1] // 13][:2]
    for a, b in same + other:
        yield CARD_TEXT[a], CARD_TEXT[b]


def swapped_matches(name: str) -> Iterator[tuple[koloda.Match, koloda.Match, int, str, str]]:
    """(a random position, the same actions replayed on its deal with two cards hidden
    from ``seat`` traded between places, seat, the two cards), for several positions
    of ``name`` (the most players for Durak)."""
    spec = koloda.get_spec(name)
    players = spec.players[-1] if name == "durak" else spec.default_players
    for seed in range(6):
        rng = random.Random(seed)
        m = koloda.new_game(name, players=players, seed=seed, max_deals=1,
                            **OPTIONS.get(name, {}))
        for _ in range(rng.randrange(4, 30)):
            if m.is_over:
                break
            m.apply(rng.choice(m.legal_actions()))
        for seat in range(players):
            for a, b in hidden_swaps(m, seat):
                other = koloda.replay(swapped_record(m.record(), a, b))
                if other.error is not None or other.match is None:
                    continue            # the swap made an earlier action illegal
                if other.match.hidden_from(seat) != m.hidden_from(seat):
                    continue            # a blind pick (Kopilka) brought the seat another card
                yield m, other.match, seat, a, b


@pytest.mark.parametrize("name", GAMES)
def test_swapping_two_hidden_cards_between_places_changes_no_tensor_and_no_string(
        name: str) -> None:
    """The same actions on a deal where two cards the seat cannot see trade places: the
    seat's observation, tensor and string must not change."""
    compared = 0
    for m, other, seat, a, b in swapped_matches(name):
        mine, theirs = m.observation(seat), other.observation(seat)
        assert theirs == mine, f"{name}: swapping {a} and {b} shows in seat {seat}"
        assert kt.encode(theirs) == kt.encode(mine)
        assert kt.render(theirs) == kt.render(mine)
        compared += 1
    assert compared >= 3, f"{name}: only {compared} swaps could be replayed"


def test_unknown_fields_are_ignored_and_missing_fields_encode_as_zeros() -> None:
    m = koloda.new_game("durak", players=3, seed=4)
    obs = m.observation(1)
    base = kt.encode(obs)
    assert kt.encode({**obs, "brand_new_field": ["AS", "KH"], "sheet": {**obs["sheet"],
                                                                         "extra": 7}}) == base
    info = {i.name: i for i in kt.describe("durak", 3)}["hand"]
    without = {k: v for k, v in obs.items() if k != "hand"}
    v = kt.encode(without)
    assert len(v) == len(base)
    assert v[info.offset:info.offset + info.size] == [0.0] * 52
    assert kt.encoder("durak", 3).missing_fields(without) == ["hand"]


def test_the_tensor_is_a_function_of_the_observation_alone() -> None:
    m = koloda.new_game("mushka", players=4, seed=2)
    obs = m.observation(2)
    assert kt.encode(json.loads(json.dumps(obs.to_json()))) == kt.encode(obs)
    assert kt.render(json.loads(json.dumps(obs.to_json()))) == kt.render(obs)


def test_hand_is_a_one_hot_over_card_ints_and_seats_are_relative() -> None:
    m = koloda.new_game("durak", players=3, seed=5)
    info = {i.name: i for i in kt.describe("durak", 3)}
    for seat in range(3):
        obs = m.observation(seat)
        v = kt.encode(obs)
        hand = info["hand"]
        assert {c for c in range(52) if v[hand.offset + c]} == \
            {TEXT_CARD[t] for t in obs["hand"]}
        sizes = info["hand_sizes"]
        for r in range(3):       # row r = the seat r places to the left
            assert v[sizes.offset + r] == pytest.approx(obs["hand_sizes"][(seat + r) % 3] / 36)
        to_move = info["to_move"]
        assert v[to_move.offset + (m.to_move - seat) % 3] == 1.0
        assert v[info["seat"].offset + seat] == 1.0


def test_a_shakha_played_wild_is_flagged_in_the_shakhi_variants() -> None:
    obs = koloda.new_game("opendaum-shakhi", players=4, seed=1).observation(0)
    obs = {**obs, "trick": [[1, "6C", "wild"], [2, "9H"]]}
    info = {i.name: i for i in kt.describe("opendaum-shakhi", 4)}
    v = kt.encode(obs)
    assert v[info["trick_wild"].offset:info["trick_wild"].offset + 2] == [0.0, 1.0]
    trick = info["trick"]
    assert v[trick.offset + 1 * 52 + TEXT_CARD["6C"]] == 1.0   # seat 1 = one to the left
    assert v[trick.offset + 2 * 52 + TEXT_CARD["9H"]] == 1.0


def test_render_prints_every_field_in_order_with_cards_as_words() -> None:
    obs = koloda.new_game("trinka", seed=3).observation(0)
    text = kt.render(obs)
    lines = text.splitlines()
    assert [line.split(":")[0] for line in lines] == list(obs)
    assert f"hand: {' '.join(obs['hand'])}" in lines
    assert "last_trick: -" in lines


def test_table_memory_keeps_face_up_cards_never_discards_and_forgets_at_a_new_deal() -> None:
    mem = kt.TableMemory()
    for action in ("attack 6C 6D", "beat 6C 7C", "discard 9S TD", "play AH wild", "bid 2",
                   "pick 1", "throw 8S", "transfer 6H"):
        mem.record(action)
    assert mem.cards == {TEXT_CARD[t] for t in ("6C", "6D", "7C", "AH", "8S", "6H")}
    v = mem.encode()
    assert sum(v) == 6 and v[TEXT_CARD["9S"]] == 0.0
    mem.new_deal()
    assert mem.cards == set()


@pytest.mark.parametrize("name", GAMES)
def test_block_names_are_unique_and_blocks_tile_the_vector(name: str) -> None:
    from koloda.envs.common import Features
    players = koloda.get_spec(name).default_players
    infos = Features(name, players).infos()
    assert len({i.name for i in infos}) == len(infos)
    at = 0
    for i in infos:
        assert i.offset == at and i.size > 0
        at += i.size
    assert at == Features(name, players).size
