"""Opendaum speaks for itself: its typed views (koloda/games/opendaum/views.py), the words it
declares on its specs, the spectator's view the engine gives, and the determinizer reading
the typed observation."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import koloda
from koloda.cards import CARD_TEXT, SUITS
from koloda.engine import messages, terms
from koloda.engine.match import Match
from koloda.engine.view import KINDS, ROLES, Observation, View, fields_of
from koloda.games.opendaum import MESSAGES, TERMS, VIEWS, OpendaumDeal
from koloda.games.opendaum.match import OpendaumMatch
from koloda.games.opendaum.views import LastTrick, OpendaumSheet, OpendaumView, PlayedTrick

NAMES = ("opendaum", "opendaum-shakhi", "opendaum-33")
GAMES = [("opendaum", 4, {}), ("opendaum", 3, {}), ("opendaum", 4, {"deck": 32}),
         ("opendaum-shakhi", 4, {}), ("opendaum-shakhi", 2, {}),
         ("opendaum-shakhi", 5, {"ruff_only_when_only_trumps": False}),
         ("opendaum-33", 3, {}), ("opendaum-33", 3, {"last_deal_penalty": True})]


def positions(seeds: int = 4, every: int = 1) -> Iterator[Match]:
    """Random play through a few deals of every variant, yielding the match at every
    ``every``-th decision (and at the end)."""
    for game, players, opts in GAMES:
        for seed in range(seeds):
            m = koloda.new_game(game, players=players, seed=seed, start_deal=2 * seed,
                                max_deals=3, **opts)
            rng = random.Random(seed)
            i = 0
            while not m.is_over:
                if i % every == 0:
                    yield m
                m.apply(rng.choice(m.legal_actions()))
                i += 1
            yield m


# ------------------------------------------------------------------ the views

def old_observation(st: OpendaumDeal, seat: int) -> dict[str, Any]:
    """The deal's observation as the dict it was before the typed views (the JSON the
    views must keep: keys, order and values)."""
    last = None
    if st.last_trick is not None:
        last = {"cards": st.last_trick.to_json(), "winner": st.last_winner}
    return {
        "phase": st.phase, "hand": [CARD_TEXT[c] for c in st.hands[seat]],
        "hand_sizes": [len(h) for h in st.hands], "deal_size": st.size,
        "schedule_position": st.position, "schedule_length": st.schedule_length,
        "final_deal": st.position == st.schedule_length - 1,
        "trump": SUITS[st.rules.trump] if st.rules.trump is not None else None,
        "trump_card": CARD_TEXT[st.trump_card],
        "trump_card_in_dealer_hand": st.trump_in_hand, "bids": list(st.bids),
        "forbidden_bid": st.forbidden_bid(), "tricks_taken": list(st.tricks),
        "leader": st.trick.leader, "trick": st.trick.to_json(), "last_trick": last,
        "tricks_played": [{"leader": t.leader, "cards": t.to_json(),
                           "winner": t.winner(st.rules)} for t in st.played],
        "voids": [[SUITS[v] for v in sorted(vs)] for vs in st.known_voids()],
        "deck_size": st.size * st.players + len(st.stock), "options": dict(st.options),
    }


def test_every_spec_declares_its_views_words_and_sentences() -> None:
    for name in NAMES:
        spec = koloda.get_spec(name)
        assert spec.views == VIEWS and spec.views[:2] == (OpendaumView, OpendaumSheet)
        assert spec.terms == TERMS and spec.messages == MESSAGES
        assert spec.determinize is not None


def test_every_field_of_every_view_is_declared_with_a_known_kind_term_and_role() -> None:
    koloda.registry()                      # the specs' own terms join the vocabulary
    for cls in VIEWS:
        infos = fields_of(cls)
        assert infos, cls
        for f in infos:
            assert f.kind in KINDS, (cls.__name__, f.name)
            assert f.role is None or f.role in ROLES, (cls.__name__, f.name)
            if f.term is not None:
                assert terms.has_term(f.term), (cls.__name__, f.name, f.term)
    # what only programs read has no term (people never see raw history or options)
    by_name = {f.name: f for f in fields_of(OpendaumView)}
    assert by_name["tricks_played"].term is None and by_name["tricks_played"].role == "history"
    assert by_name["options"].term is None
    assert [f.name for f in fields_of(OpendaumView) if f.private] == ["hand"]
    assert by_name["trick"].kind == "plays" and by_name["trick"].role == "trick"
    assert by_name["last_trick"].role == "last_trick"
    assert {f.kind for f in fields_of(LastTrick)} == {"plays", "seat"}
    assert by_name["voids"].kind == "per_seat_suits" and by_name["trump"].kind == "suit"


def test_the_games_own_words_and_sentences_are_registered() -> None:
    koloda.registry()
    for key, pair in TERMS.items():
        assert terms.TERMS[key] == pair
    assert terms.term("trump_card_in_dealer_hand", "ru") == "козырь — последняя по сдаче карта"
    for key, pair in MESSAGES.items():
        assert messages.CATALOG[key] == pair


def test_the_json_is_the_observation_as_it_always_was() -> None:
    checked = 0
    for m in positions(seeds=3):
        st = m.current
        if not isinstance(st, OpendaumDeal):
            continue
        for seat in range(m.players):
            view = st.observation(seat)
            assert isinstance(view, OpendaumView)
            old = old_observation(st, seat)
            assert json.dumps(view.to_json()) == json.dumps(old)   # keys, order, values
            assert dict(view) == old
            checked += 1
    assert checked > 500


def test_views_hold_cards_suits_and_seats_and_hash() -> None:
    for m in positions(seeds=2, every=3):
        obs = m.observation(m.to_move if m.to_move is not None else 0)
        assert isinstance(obs, Observation)
        hash(obs)                                       # tuples and views all the way down
        view = obs.deal
        assert isinstance(view, OpendaumView)
        assert all(isinstance(c, int) for c in view.hand)
        assert view.trump is None or view.trump in range(4)
        assert isinstance(view.trump_card, int)
        assert all(isinstance(p[1], int) for p in view.trick)
        assert all(isinstance(t, PlayedTrick) for t in view.tricks_played)
        assert all(s in range(4) for vs in view.voids for s in vs)
        assert isinstance(obs.sheet, OpendaumSheet)
        assert all(r.trump in range(4) for r in obs.sheet.deals)


def test_the_sheet_and_the_results_details_are_as_they_were() -> None:
    for game, players, opts in GAMES:
        m = koloda.new_game(game, players=players, seed=1, max_deals=4, **opts)
        rng = random.Random(1)
        while not m.is_over:
            m.apply(rng.choice(m.legal_actions()))
        assert isinstance(m, OpendaumMatch)
        sheet = m.sheet()
        assert isinstance(sheet, OpendaumSheet)
        data = sheet.to_json()
        assert list(data) == ["deals", "totals"]
        for row, d in zip(data["deals"], m.deals, strict=True):
            assert list(row) == ["deal", "dealer", "cards", "trump", "bids", "tricks", "points"]
            assert d.trump_card is not None and row["dealer"] == d.dealer
            assert row["trump"] == SUITS[d.trump_card // 13]
        assert m.result is not None
        assert m.result.to_json()["details"]["deals"] == data["deals"]
        assert data["totals"] == m.result.to_json()["scores"]


# ------------------------------------------------------------ the spectator

def test_the_public_view_names_no_card_hidden_from_any_seat() -> None:
    from tests.conformance import cards_in
    checked = 0
    for m in positions(seeds=3):
        hidden: set[int] = set()
        for seat in range(m.players):
            hidden |= m.hidden_from(seat)
        public = m.public_observation().to_json()
        assert public["seat"] is None and "hand" not in public
        leaked = cards_in(public) & hidden
        assert not leaked, [CARD_TEXT[c] for c in leaked]
        # every seat's own view names nothing hidden from it
        for seat in range(m.players):
            mine = m.observation(seat).to_json()
            assert not cards_in(mine) & m.hidden_from(seat)
        checked += 1
    assert checked > 1000


# ----------------------------------------------------------- the determinizer

@pytest.mark.parametrize("name", NAMES)
def test_determinize_reads_the_typed_observation_and_agrees_with_it(name: str) -> None:
    spec = koloda.get_spec(name)
    det_fn = spec.determinize
    assert det_fn is not None
    rng = random.Random(11)
    checked = 0
    for game, players, opts in GAMES:
        if game != name:
            continue
        for seed in range(5):
            m = koloda.new_deal(game, players=players, seed=seed, start_deal=seed * 3, **opts)
            play = random.Random(seed)
            while not m.is_over:
                seat = m.to_move
                assert seat is not None
                obs = m.observation(seat)
                st = m.current
                assert isinstance(st, OpendaumDeal)
                voids = st.known_voids()
                for _ in range(3):
                    det = det_fn(obs, rng)
                    assert isinstance(det, OpendaumDeal)
                    # the seat sees exactly what it saw (typed views compare by value)
                    assert det.observation(seat) == obs.deal
                    assert det.to_move == seat and det.legal_actions() == m.legal_actions()
                    zones = Counter(c for z in det.card_zones().values() for c in z)
                    assert zones == Counter(m.deals[-1].all_cards())
                    for s, h in enumerate(det.hands):
                        assert len(h) == len(st.hands[s])
                        assert not [c for c in h if c not in st.rules.shakhi
                                    and st.rules.suit[c] in voids[s]]
                    assert det.hands[seat] == st.hands[seat]
                    checked += 1
                m.apply(play.choice(m.legal_actions()))
    assert checked > 100


def test_determinize_refuses_a_view_that_is_not_one_seats() -> None:
    m = koloda.new_deal("opendaum", players=4, seed=1)
    det_fn = m.spec.determinize
    assert det_fn is not None
    with pytest.raises(ValueError, match="one seat"):
        det_fn(m.public_observation(), random.Random(0))


def test_a_view_reads_as_its_json() -> None:
    m = koloda.new_deal("opendaum-shakhi", players=4, seed=3, start_deal=8)
    rng = random.Random(3)
    while not m.is_over and m.current.phase != "play":      # type: ignore[attr-defined]
        m.apply(rng.choice(m.legal_actions()))
    for _ in range(6):
        m.apply(rng.choice(m.legal_actions()))
    obs = m.observation(0)
    view = obs.deal
    assert isinstance(view, View)
    data = obs.to_json()
    for key in ("hand", "trick", "voids", "trump", "options", "tricks_played", "last_trick"):
        assert obs[key] == data[key] == view[key]
    assert data["trump"] in SUITS


def test_the_heuristic_decides_alike_from_the_typed_view_and_from_its_json() -> None:
    from koloda.bots.heuristic.opendaum import OpendaumHeuristic
    bots = {name: OpendaumHeuristic(name) for name in NAMES}
    checked = 0
    for m in positions(seeds=2, every=2):
        seat = m.to_move
        if seat is None:
            continue
        obs, legal = m.observation(seat), m.legal_actions()
        bot = bots[m.spec.name]
        typed = bot.choose(obs, legal, random.Random(0))
        plain = bot.choose(obs.to_json(), legal, random.Random(0))
        assert typed == plain
        checked += 1
    assert checked > 200
