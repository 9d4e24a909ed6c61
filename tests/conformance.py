"""The generic conformance checks every registered (game, variant) must pass.

Used by test_conformance.py; importable by any later test that wants to run them on one
game with other options.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import koloda
from koloda.cards import CARD_TEXT, TEXT_CARD, deck
from koloda.engine.deal import AwaitingView
from koloda.engine.errors import IllegalAction
from koloda.engine.records import from_record
from koloda.engine.view import EmptyView, Observation, View, fields_of

_WORDS = ["flip", "take", "pass", "stand", "knock", "drop", "golets", "draw", "bid 0", "bid 1",
          "bid 99", "pick 0", "pick 7", "foo", "", "play", "beat 6C"]


def cards_in(obj: Any) -> set[int]:
    """Every card named anywhere in a JSON-ready object (as a word of a string)."""
    found: set[int] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            for w in x.split():
                c = TEXT_CARD.get(w)
                if c is not None:
                    found.add(c)
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return found


def illegal_candidates(match: koloda.Match, rng: random.Random, k: int = 4) -> list[str]:
    legal = set(match.legal_actions())
    pool = list(_WORDS) + [f"play {t}" for t in CARD_TEXT] + \
        [f"attack {t}" for t in CARD_TEXT] + [f"discard {t}" for t in CARD_TEXT]
    out = []
    for a in rng.sample(pool, len(pool)):
        if a in legal:
            continue
        try:
            if koloda.Action.parse(a).__str__() in legal:
                continue
        except IllegalAction:
            pass
        out.append(a)
        if len(out) >= k:
            break
    return out


def fingerprint(match: koloda.Match) -> str:
    return json.dumps([match.to_move, match.legal_actions(),
                       [match.observation(s).to_json() for s in range(match.players)]],
                      sort_keys=True)


def check_playout(name: str, players: int, seed: int, check_every: int = 1,
                  **options: Any) -> koloda.Match:
    """Play one random match checking every invariant; return the finished match."""
    rng = random.Random(seed * 7919 + players)
    match = koloda.new_game(name, players=players, seed=seed, **options)
    prints = [fingerprint(match)]
    step = 0
    while not match.is_over:
        seat = match.to_move
        assert seat is not None, "to_move is None before the match is over"
        legal = match.legal_actions()
        assert legal, "no legal action but the match is not over"
        assert len(set(legal)) == len(legal), f"duplicate legal actions: {legal}"
        if step % check_every == 0:
            _check_state(match, rng)
        action = rng.choice(legal)
        assert match.apply(action) == action
        step += 1
        prints.append(fingerprint(match))
    assert match.legal_actions() == [] and match.to_move is None
    result = match.result
    assert result is not None and result.over
    assert len(result.scores) == players
    assert set(result.winners).isdisjoint(result.losers)
    for a in illegal_candidates(match, rng, 2):
        try:
            match.apply(a)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{a!r} accepted after the match ended")
    # the written record reproduces every state and the result
    record = json.loads(json.dumps(match.record()))
    again = from_record(record)
    assert fingerprint(again) == prints[0]
    for i, a in enumerate(record["actions"]):
        assert again.to_move == a["seat"]
        again.apply(a["action"])
        assert fingerprint(again) == prints[i + 1], f"replay differs after action {i}"
    assert again.result == match.result
    # the same seed gives the same record
    twin = koloda.new_game(name, players=players, seed=seed, **options)
    for a in record["actions"]:
        twin.apply(a["action"])
    assert twin.record() == match.record()
    return match


def _check_state(match: koloda.Match, rng: random.Random) -> None:
    # cards are conserved: every zone together is exactly the deal's cards
    deal = match.deals[-1]
    dealt = Counter(deal.all_cards())
    zones = match.current.card_zones()
    where = Counter(c for cards in zones.values() for c in cards)
    assert where == dealt, f"cards not conserved: {zones}"
    assert set(dealt) <= set(deck(52))
    # observations are typed views, JSON at the boundary, and never name a hidden card
    hidden_any: set[int] = set()
    for seat in range(match.players):
        obs = match.observation(seat)
        check_view(match, obs)
        data = obs.to_json()
        json.dumps(data)
        hidden = match.hidden_from(seat)
        hidden_any |= hidden
        leaked = cards_in(data) & hidden
        assert not leaked, f"seat {seat} sees hidden {[CARD_TEXT[c] for c in leaked]}: {data}"
    # the spectator's view (the engine's, not an interface's) names no card hidden from
    # any seat
    public = match.public_observation().to_json()
    assert public["seat"] is None
    leaked = cards_in(public) & hidden_any
    assert not leaked, f"the public view shows {[CARD_TEXT[c] for c in leaked]}: {public}"
    # a determinization agrees with everything the seat to move knows
    check_determinize(match, rng)
    # illegal actions are refused with a reason and change nothing
    before = fingerprint(match)
    for a in illegal_candidates(match, rng):
        try:
            match.apply(a)
        except IllegalAction as exc:
            assert str(exc), "an IllegalAction needs a reason"
        else:
            raise AssertionError(f"illegal {a!r} accepted; legal: {match.legal_actions()}")
    assert fingerprint(match) == before, "a refused action changed the state"


def check_view(match: koloda.Match, obs: Observation) -> None:
    """The observation is typed: the deal and the sheet are the game's declared views
    (frozen, every field declared, values immutable — so the whole view hashes)."""
    assert isinstance(obs, Observation)
    for part in (obs.deal, obs.sheet):
        assert isinstance(part, View), \
            f"{match.spec.name}: {type(part).__name__} is not a typed view"
        fields_of(part)   # every field declared with item()
        if not isinstance(part, (EmptyView, AwaitingView)):
            assert type(part) in match.spec.views, \
                f"{match.spec.name}: {type(part).__name__} is not among spec.views"
    hash(obs)             # no list or dict inside: tuples and views all the way down


MATCH_KEYS = {"game", "players", "seat", "deal_number", "dealer", "to_move", "match_over",
              "sheet"}


def check_determinize(match: koloda.Match, rng: random.Random) -> None:
    """For games with a determinizer: the sampled deal shows the seat to move exactly its
    observation, offers it exactly its legal actions, and holds exactly the deal's cards."""
    det_fn = match.spec.determinize
    seat = match.to_move
    if det_fn is None or seat is None:
        return
    obs = match.observation(seat)
    frozen = json.dumps(obs.to_json(), sort_keys=True)
    det = det_fn(obs, random.Random(rng.random()))
    assert json.dumps(obs.to_json(), sort_keys=True) == frozen, \
        "determinize changed the observation"
    mine = det.observation(seat)
    theirs = {k: v for k, v in obs.items() if k not in MATCH_KEYS}
    assert json.loads(json.dumps(dict(mine))) == json.loads(json.dumps(theirs)), \
        "the determinized deal shows the seat a different observation"
    assert det.to_move == seat
    assert det.legal_actions() == match.legal_actions()
    deal = match.deals[-1]
    dealt = Counter(deal.all_cards())
    zones = Counter(c for cards in det.card_zones().values() for c in cards)
    assert zones == dealt, "a determinization must hold exactly the deal's cards"
