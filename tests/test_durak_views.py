"""Durak's and Pyanitsy's typed views: every field declared, nothing hidden in public, the
last round kept, and determinizations that agree with the seat's observation."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import koloda
from koloda.cards import CARD_TEXT, SUITS, parse_card, parse_cards
from koloda.engine.terms import TERMS
from koloda.engine.view import KINDS, ROLES, Observation, View, fields_of
from koloda.games.durak import DurakGame
from koloda.games.durak.views import DurakRound, DurakSheet, DurakView
from tests.conformance import cards_in

GAMES = ("durak", "durak-perevodnoy", "pyanitsy")
#: (game, players, options): every count, with and without teams
SETTINGS: list[tuple[str, int, dict[str, Any]]] = [
    *[("durak", n, {}) for n in (2, 3, 4, 5, 6)],
    *[("durak-perevodnoy", n, {}) for n in (2, 3, 4, 5, 6)],
    ("durak", 4, {"teams": False}), ("durak", 6, {"teams": False}),
    ("durak-perevodnoy", 4, {"teams": False}), ("durak", 4, {"first_bout_limit": 5}),
]


def positions(name: str, players: int, options: dict[str, Any], count: int,
              seed: int) -> list[koloda.Match]:
    """Matches stopped at random points of random play (each a fresh match)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        m = koloda.new_game(name, players=players, seed=seed * 100 + i, **options)
        for _ in range(rng.randrange(150)):
            if m.is_over:
                break
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])
        out.append(m)
    return out


# ------------------------------------------------------------ declarations
@pytest.mark.parametrize("name", GAMES)
def test_every_view_field_is_declared_with_a_known_kind_role_and_term(name: str) -> None:
    spec = koloda.get_spec(name)
    assert spec.views, f"{name} declares no views"
    for cls in spec.views:
        assert issubclass(cls, View)
        for f in fields_of(cls):        # raises for a field not declared with item()
            assert f.kind in KINDS, (cls.__name__, f.name)
            assert f.role is None or f.role in ROLES, (cls.__name__, f.name)
            assert f.term is None or f.term in TERMS, (cls.__name__, f.name, f.term)


@pytest.mark.parametrize("name", GAMES)
def test_the_views_a_match_gives_are_the_declared_ones(name: str) -> None:
    spec = koloda.get_spec(name)
    for m in positions(name, 3, {}, 6, 1):
        obs = m.observation(0)
        assert isinstance(obs, Observation)
        assert type(obs.deal) in spec.views and type(obs.sheet) in spec.views
        for part in (obs.deal, obs.sheet):
            for f in fields_of(part):
                value = getattr(part, f.name)
                assert not isinstance(value, (list, dict, set)), (f.name, value)
                if f.kind == "view" and value is not None:
                    assert type(value) in spec.views
        # the JSON keys are the field names (and stay what they were)
        assert set(obs.deal.to_json()) == {f.name for f in fields_of(obs.deal)}


def test_durak_values_are_cards_suits_and_seats_and_suits_are_letters_in_json() -> None:
    m = koloda.new_game("durak", players=4, seed=5)
    obs = m.observation(m.to_move or 0)
    view = obs.deal
    assert isinstance(view, DurakView) and isinstance(obs.sheet, DurakSheet)
    assert view.trump_suit == view.trump_card // 13
    assert obs["trump_suit"] == SUITS[view.trump_suit] and obs["trump_suit"] in "SCDH"
    assert obs["trump_card"] == CARD_TEXT[view.trump_card]
    assert all(isinstance(c, int) for c in view.hand)
    assert view.teams == ((0, 2), (1, 3))
    assert obs.sheet.losses == (0, 0, 0, 0) and obs["sheet"]["losses"] == [0, 0, 0, 0]
    fields = {f.name: f for f in fields_of(DurakView)}
    assert [n for n, f in fields.items() if f.private] == ["hand", "lowest_trump_dealt"]
    assert fields["table"].role == "table" and fields["teams"].role == "teams"
    assert fields["teams"].kind == "data" and fields["teams"].term is None
    assert fields["trump_card"].role == "trump_card" and fields["trump_suit"].role == "trump"
    assert fields["last_round"].role == "last_trick"


# ------------------------------------------------------------- last round
def test_the_last_round_says_who_covered_what_beaten_off_or_taken() -> None:
    """The terminal's "last round" key has something to show once a round is over."""
    hands = (tuple(parse_cards("TS TC 7H")), tuple(parse_cards("QS JS 8H")))
    g = DurakGame(koloda.Deal(1, hands, (), parse_card("2S")), teams=False,
                  first_bout_limit=6, transfer=False, first_attacker=0)   # spades trump
    assert g.observation(0).last_round is None
    for a in ("attack TS", "beat TS QS", "pass"):
        g.apply(a)
    last = g.observation(0).last_round
    assert isinstance(last, DurakRound)
    assert (last.defender, last.attacker, last.outcome) == (1, 0, "beaten")
    assert last.table == ((parse_card("TS"), parse_card("QS")),)
    assert last.cards == ((0, parse_card("TS")), (1, parse_card("QS")))
    assert g.observation(1)["last_round"] == {"defender": 1, "attacker": 0,
                                              "table": [["TS", "QS"]],
                                              "cards": [[0, "TS"], [1, "QS"]],
                                              "outcome": "beaten"}
    for a in ("attack JS", "take", "pass"):   # the defender attacks next; seat 0 takes
        g.apply(a)
    last = g.observation(0).last_round
    assert last is not None and last.outcome == "taken"
    assert (last.defender, last.attacker) == (0, 1)
    assert last.table == ((parse_card("JS"), None),)


def test_every_random_game_keeps_a_last_round_once_a_round_is_over() -> None:
    for m in positions("durak", 3, {}, 20, 4):
        st = m.current
        assert isinstance(st, DurakGame)
        last = m.observation(0).deal.last_round
        assert (last is None) == (st.rounds == 0)
        if last is not None:
            covers = sum(b is not None for _, b in last.table)
            assert len(last.cards) == len(last.table) + covers
            assert {c for _, c in last.cards} == {c for p in last.table for c in p
                                                  if c is not None}


# ------------------------------------------------------------ public view
@pytest.mark.parametrize(("name", "players", "options"), SETTINGS)
def test_the_public_json_names_no_card_hidden_from_any_seat(name: str, players: int,
                                                            options: dict[str, Any]) -> None:
    for m in positions(name, players, options, 25, players):
        public = m.public_observation().to_json()
        assert public["seat"] is None and "hand" not in public
        named = cards_in(public)
        for seat in range(players):
            leaked = named & m.hidden_from(seat)
            assert not leaked, (seat, [CARD_TEXT[c] for c in leaked])
        json.dumps(public)


def test_the_public_json_of_pyanitsy_names_no_face_down_card() -> None:
    for players in (2, 3, 4, 5, 6):
        for m in positions("pyanitsy", players, {}, 10, players):
            public = m.public_observation().to_json()
            for seat in range(players):
                assert not cards_in(public) & m.hidden_from(seat)
            # nothing of pyanitsy is private: every seat sees the spectator's view
            assert {k: v for k, v in m.observation(0).to_json().items() if k != "seat"} == \
                {k: v for k, v in public.items() if k != "seat"}


# ------------------------------------------------------------ determinize
@pytest.mark.parametrize(("name", "players", "options"), SETTINGS)
def test_determinize_samples_agree_with_the_seat_s_observation(name: str, players: int,
                                                               options: dict[str, Any]) -> None:
    rng = random.Random(players)
    det_fn = koloda.get_spec(name).determinize
    assert det_fn is not None
    for m in positions(name, players, options, 12, 10 + players):
        if m.is_over:
            continue
        seat = m.to_move
        assert seat is not None
        obs = m.observation(seat)
        real = m.current
        assert isinstance(real, DurakGame)
        for _ in range(3):
            det = det_fn(obs, rng)
            assert isinstance(det, DurakGame)
            assert det.observation(seat) == obs.deal          # typed, field by field
            assert det.observation(seat).to_json() == obs.deal.to_json()
            assert det.to_move == seat and det.legal_actions() == m.legal_actions()
            for s in range(players):
                assert len(det.hands[s]) == len(real.hands[s])
                assert real.public.intersection(real.hands[s]) <= set(det.hands[s])
            assert len(det.stock) == len(real.stock)
            if det.stock:
                assert det.stock[0] == real.trump_card       # drawn last
            # the cards a seat cannot see are the ones that move between samples
            fixed = set(det.hands[seat]) | set(det.discard) | set(det.attacks)
            assert fixed.isdisjoint(real.hidden_from(seat))


def test_determinize_wants_the_typed_observation() -> None:
    m = koloda.new_game("durak", players=2, seed=1)
    det_fn = m.spec.determinize
    assert det_fn is not None
    with pytest.raises(TypeError, match="Observation"):
        det_fn(m.observation(0).to_json(), random.Random(0))
