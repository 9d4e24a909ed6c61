"""Inference: every determinization agrees with every public fact of the real deal.

Real deals are played from seeds by random players; at sampled decision points several
determinizations are drawn for the seat to move (``GameSpec.determinize``, what the search
bots use) and each is checked against the facts the real deal satisfies:

* generic, every game: the seat's own observation of the sample is its observation of the
  real deal (its hand untouched, every public card, hand sizes, counts, voids as recorded),
  and the cards hidden from the seat are the same cards;
* per game, the facts the rules force: voids (a seat that did not follow suit, did not
  trump when it had to), Stukolka's "could not beat" caps, Durak's lowest-trump opening,
  Mushka's "the holder of the ace of spades may not pass", Kopilka's cards shown by a
  failed lead; and for games without exchanges the strongest check of all: the deal as
  the sample says it was dealt, replayed action by action under the rules' legality
  check, allows every action that was really taken.

Each checker is run on the real deal too (it must pass there and it must have applied at
least once), so a checker cannot be vacuous.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

import koloda
from koloda.cards import ACE, CLUBS, SIX, SPADES, TEXT_CARD, card, rank_of, suit_of
from koloda.engine.deal import Deal, DealState
from koloda.engine.match import Match
from koloda.engine.registry import get_spec
from koloda.games.durak.rounds import lowest_trump_holder


@dataclass
class Point:
    """One decision point of a real deal: the match, the seat to move, where the deal's
    actions begin in ``match.history``."""

    match: Match
    seat: int
    deal_start: int


#: a fact: (point, state) -> None when it does not apply here, else its violations
Fact = Callable[[Point, DealState], "list[str] | None"]


def decision_points(game: str, players: int, seeds: range, every: int,
                    options: dict[str, Any] | None = None,
                    dense: Callable[[Match], bool] | None = None) -> Iterator[Point]:
    """Random play from each seed; every ``every``-th decision (the first of each deal
    always, and every one where ``dense`` says so) is yielded before the move is made."""
    for seed in seeds:
        m = koloda.new_game(game, players=players, seed=seed, **(options or {}))
        rng = random.Random(seed * 7919 + 1)
        deal_no, start, step = -1, 0, 0
        while not m.is_over and step < 400:
            seat = m.to_move
            obs_deal = len(m.deals)
            if obs_deal != deal_no:
                deal_no, start, k = obs_deal, len(m.history), 0
            if seat is not None and (k % every == 0 or (dense is not None and dense(m))):
                yield Point(m, seat, start)
            k += 1
            step += 1
            m.apply(rng.choice(m.legal_actions()))


@dataclass
class Tally:
    points: int = 0
    samples: int = 0
    applied: dict[str, int] = field(default_factory=dict)
    broken: dict[str, list[str]] = field(default_factory=dict)


def check_game(game: str, players: int, facts: dict[str, Fact], *, seeds: range,
               every: int, draws: int = 4, options: dict[str, Any] | None = None,
               dense: Callable[[Match], bool] | None = None) -> Tally:
    """Play, sample, check: the tally of facts applied and broken by the samples."""
    spec = get_spec(game)
    assert spec.determinize is not None
    tally = Tally()
    for p in decision_points(game, players, seeds, every, options, dense):
        m, seat = p.match, p.seat
        real = m.current
        obs = m.observation(seat)
        want = obs.deal.to_json()
        hidden = real.hidden_from(seat)
        live = {}
        for name, fact in facts.items():
            on_real = fact(p, real)
            if on_real is not None:
                assert on_real == [], f"{name} fails on the real deal itself: {on_real}"
                live[name] = fact
                tally.applied[name] = tally.applied.get(name, 0) + 1
        tally.points += 1
        rng = random.Random(tally.points)
        for _ in range(draws):
            sample = spec.determinize(obs, rng)
            tally.samples += 1
            got = sample.observation(seat).to_json()
            if got != want:
                diff = sorted(k for k in want if got.get(k) != want[k])
                tally.broken.setdefault("same_observation", []).append(str(diff))
            if sample.hidden_from(seat) != hidden:
                tally.broken.setdefault("same_hidden_cards", []).append("differ")
            for name, fact in live.items():
                bad = fact(p, sample)
                if bad:
                    tally.broken.setdefault(name, []).extend(bad)
    return tally


def assert_clean(tally: Tally, facts: dict[str, Fact]) -> None:
    for name in facts:
        assert tally.applied.get(name, 0) > 0, f"{name} never applied: the test is vacuous"
    summary = {k: (len(v), v[:3]) for k, v in tally.broken.items()}
    assert not tally.broken, f"of {tally.samples} samples, broken facts: {summary}"


# ------------------------------------------------------------------ shared facts
def _view(p: Point) -> Any:
    return p.match.current.observation(p.seat)


def void_fact(cards_of_suit: Callable[[int], frozenset[int]]) -> Fact:
    """No other seat holds a card of a suit its play showed it lacks (the view's
    ``voids``, as the real deal recorded them)."""
    def fact(p: Point, st: DealState) -> list[str] | None:
        voids = _view(p).voids
        if not any(v for s, v in enumerate(voids) if s != p.seat):
            return None
        hands = st.hands  # type: ignore[attr-defined]
        return [f"seat {s} holds {c} of void suit {su}" for s, v in enumerate(voids)
                if s != p.seat for su in v for c in hands[s] if c in cards_of_suit(su)]
    return fact


def known_in_hand(field: str) -> Fact:
    """The cards the view's per-seat ``field`` says a seat holds are in that seat's hand."""
    def fact(p: Point, st: DealState) -> list[str] | None:
        known = getattr(_view(p), field)
        if not any(known):
            return None
        hands = st.hands  # type: ignore[attr-defined]
        return [f"{c} not with seat {s}" for s, ks in enumerate(known) for c in ks
                if c not in hands[s]]
    return fact



def suit_cards(su: int) -> frozenset[int]:
    return frozenset(c for c in range(52) if suit_of(c) == su)


def _match_copy(m: Match) -> Match:
    """A copy of the match whose sheet a new deal may change (a Stukolka ante) without
    touching the real one."""
    out = copy.copy(m)
    for name, value in vars(m).items():
        if isinstance(value, list):
            setattr(out, name, list(value))
    return out


def replay_fact(as_dealt: Callable[[Point, DealState], Deal]) -> Fact:
    """The deal as the sample says it was dealt allows, under the rules' legality check,
    every action really taken in it so far."""
    def fact(p: Point, st: DealState) -> list[str] | None:
        state = _match_copy(p.match).start_deal(as_dealt(p, st))
        for s, action in p.match.history[p.deal_start:]:
            if state.to_move != s:
                return [f"seat {state.to_move} to move, not {s}, before {action}"]
            try:
                state.apply(action)
            except koloda.IllegalAction as exc:
                return [f"{action} by seat {s} illegal in the sampled deal: {exc}"]
        return []
    return fact


# ------------------------------------------------------------------------- durak
def _durak_round_one(m: Match) -> bool:
    """Round one of the match's first game: nothing drawn yet, so each hand is still its
    dealt cards less what it played (and the lowest trump chose the first attacker)."""
    return len(m.deals) == 1 and m.current.rounds == 0  # type: ignore[attr-defined]


def _durak_as_dealt(p: Point, g: DealState) -> Deal:
    """Round one: the hands as dealt are the hands now plus what each played."""
    real = p.match.current
    hands = [list(h) for h in g.hands]  # type: ignore[attr-defined]
    for s, played in real.plays:  # type: ignore[attr-defined]
        hands[s].extend(played if isinstance(played, tuple) else (played,))
    stock = tuple(reversed(g.stock))  # type: ignore[attr-defined]
    return Deal(p.match.deals[-1].dealer, tuple(tuple(h) for h in hands), stock,
                real.trump_card)  # type: ignore[attr-defined]


def durak_lowest_trump(p: Point, g: DealState) -> list[str] | None:
    """In the first round of the first game the first attacker is the holder of the
    lowest trump among the dealt hands (nobody holds one: left of the dealer)."""
    if not _durak_round_one(p.match):
        return None
    first = p.match.current.first_attacker  # type: ignore[attr-defined]
    holder = lowest_trump_holder(_durak_as_dealt(p, g))
    return [] if holder == first else [f"lowest trump with seat {holder}, not {first}"]


def durak_round_one_replay(p: Point, g: DealState) -> list[str] | None:
    """The first round so far is legal, attacker included, in the deal the sample
    implies (the match chooses the first attacker from it again)."""
    if not _durak_round_one(p.match):
        return None
    return replay_fact(_durak_as_dealt)(p, g)


#: cards a defender picked up (and has not played) are in that defender's hand
durak_taken_in_hand = known_in_hand("known_cards")


def _durak_cards_played(p: Point, seat: int) -> list[int]:
    """The cards ``seat`` has played this game, read off the actions."""
    out = []
    for s, action in p.match.history[p.deal_start:]:
        verb, *cards = action.split()
        if s == seat and verb in ("attack", "throw", "transfer", "beat"):
            out += [TEXT_CARD[c] for c in (cards[1:] if verb == "beat" else cards)]
    return out


def durak_opener_keeps_a_low_trump(p: Point, g: DealState) -> list[str] | None:
    """All game long: the first attacker was dealt a trump below this seat's lowest
    dealt trump; unless it has played one (or holds one publicly) it still holds one."""
    m = p.match
    first = m.current.first_attacker  # type: ignore[attr-defined]
    trump = m.current.trump  # type: ignore[attr-defined]
    mine = [c % 13 for c in m.deals[-1].hands[p.seat] if c // 13 == trump]
    if len(m.deals) != 1 or first == p.seat or not mine:
        return None
    below = min(mine)
    shown = _durak_cards_played(p, first) + list(_view(p).known_cards[first])
    if any(c // 13 == trump and c % 13 < below for c in shown):
        return None
    hand = g.hands[first]  # type: ignore[attr-defined]
    return [] if any(c // 13 == trump and c % 13 < below for c in hand) else \
        [f"opener {first} holds no trump below rank {below}"]


DURAK_FACTS: dict[str, Fact] = {
    "durak_opener_keeps_low_trump": durak_opener_keeps_a_low_trump,
    "durak_lowest_trump": durak_lowest_trump,
    "durak_round_one_replay": durak_round_one_replay,
    "durak_taken_in_hand": durak_taken_in_hand,
}


@pytest.mark.parametrize("game,players,options", [
    ("durak", 2, {}), ("durak", 3, {}), ("durak", 4, {}), ("durak", 4, {"teams": False}),
    ("durak", 5, {}), ("durak", 6, {}), ("durak-perevodnoy", 3, {}),
    ("durak-perevodnoy", 4, {}), ("durak", 3, {"games": 3}),
])
def test_durak_sample_gives_lowest_trump_to_first_attacker(
        game: str, players: int, options: dict[str, Any]) -> None:
    tally = check_game(game, players, DURAK_FACTS, seeds=range(10), every=6,
                       options=options, dense=_durak_round_one)
    assert_clean(tally, DURAK_FACTS)


# -------------------------------------------------------------- the trick games
def _played_by(p: Point) -> list[list[int]]:
    """The cards each seat has played this deal (every trick lay face up)."""
    view = _view(p)
    out: list[list[int]] = [[] for _ in range(p.match.players)]
    tricks = [t.cards if hasattr(t, "cards") else t for t in view.tricks_played]
    current = view.trick.cards if hasattr(view.trick, "cards") else view.trick
    for plays in (*tricks, current or ()):
        for play in plays:
            out[play[0]].append(play[1])
    return out


def _hands_as_dealt(p: Point, st: DealState) -> tuple[tuple[int, ...], ...]:
    """No exchange: the hands as dealt are the hands now plus what each played."""
    played = _played_by(p)
    return tuple(tuple(h) + tuple(played[s])
                 for s, h in enumerate(st.hands))  # type: ignore[attr-defined]


def trick_deal_replay(p: Point, st: DealState) -> list[str] | None:
    """Trinka, Opendaum: the deal rebuilt from the sample allows every bid and play."""
    def as_dealt(p: Point, st: DealState) -> Deal:
        return Deal(p.match.deals[-1].dealer, _hands_as_dealt(p, st),
                    tuple(getattr(st, "stock", ())), getattr(st, "trump_card", None))
    return replay_fact(as_dealt)(p, st)


def test_trinka_sample_respects_voids_and_replays_every_play() -> None:
    from koloda.games.trinka import CARDS_OF
    facts: dict[str, Fact] = {"trinka_voids": void_fact(lambda su: CARDS_OF[su]),
                              "trinka_replay": trick_deal_replay}
    assert_clean(check_game("trinka", 4, facts, seeds=range(6), every=3), facts)


@pytest.mark.parametrize("game,players", [
    ("opendaum", 3), ("opendaum", 4), ("opendaum", 6), ("opendaum-shakhi", 3),
    ("opendaum-shakhi", 5), ("opendaum-33", 3)])
def test_opendaum_sample_respects_voids_and_replays_every_bid_and_play(
        game: str, players: int) -> None:
    shakhi = {card(SIX, SPADES), card(SIX, CLUBS)} if game != "opendaum" else set()

    def suit(su: int) -> frozenset[int]:
        return suit_cards(su) - shakhi
    facts: dict[str, Fact] = {"opendaum_voids": void_fact(suit),
                              "opendaum_replay": trick_deal_replay}
    assert_clean(check_game(game, players, facts, seeds=range(3), every=9), facts)


def stukolka_caps(p: Point, st: DealState) -> list[str] | None:
    """A seat that failed to beat a card it had to beat holds nothing above it (the
    view's ``caps``), nor the trump ace when it led something else."""
    caps = _view(p).caps
    if not any(c for s, c in enumerate(caps) if s != p.seat):
        return None
    hands = st.hands  # type: ignore[attr-defined]
    return [f"seat {s} holds {c} above its cap" for s, cs in enumerate(caps) if s != p.seat
            for su, top in cs for c in hands[s] if suit_of(c) == su and rank_of(c) > top]


def stukolka_replay(p: Point, st: DealState) -> list[str] | None:
    """Without a golets: the hands as dealt (a dropped hand lies in its discards) allow
    every declaration and play."""
    view = _view(p)
    if view.golets is not None:
        return None
    played = _played_by(p)
    hands = tuple(tuple(st.discards[s]) + tuple(h) + tuple(played[s])  # type: ignore
                  for s, h in enumerate(st.hands))  # type: ignore[attr-defined]

    def as_dealt(p: Point, st: DealState) -> Deal:
        return Deal(p.match.deals[-1].dealer, hands, tuple(st.stock),  # type: ignore
                    st.trump_card)  # type: ignore[attr-defined]
    return replay_fact(as_dealt)(p, st)


def test_stukolka_sample_respects_voids_caps_and_trump_ace_lead() -> None:
    facts: dict[str, Fact] = {"stukolka_voids": void_fact(suit_cards),
                              "stukolka_caps": stukolka_caps,
                              "stukolka_replay": stukolka_replay}
    for players in (4, 6):
        assert_clean(check_game("stukolka", players, facts, seeds=range(8), every=2), facts)


def test_dreyfus_sample_respects_voids_after_the_exchange() -> None:
    facts: dict[str, Fact] = {"dreyfus_voids": void_fact(suit_cards)}
    assert_clean(check_game("dreyfus", 3, facts, seeds=range(3), every=5), facts)


ACE_OF_SPADES = card(ACE, SPADES)


def mushka_passer_lacks_ace_of_spades(p: Point, st: DealState) -> list[str] | None:
    """The holder of the ace of spades may not pass: a passed hand (its discards) never
    held it."""
    choices = _view(p).choices
    passed = [s for s, c in enumerate(choices) if c == "pass" and s != p.seat]
    if not passed:
        return None
    discards = st.discards  # type: ignore[attr-defined]
    return [f"seat {s} passed holding AS" for s in passed if ACE_OF_SPADES in discards[s]]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_mushka_sample_gives_no_passer_the_ace_of_spades(players: int) -> None:
    facts: dict[str, Fact] = {"mushka_voids": void_fact(suit_cards),
                              "mushka_passer_lacks_AS": mushka_passer_lacks_ace_of_spades}
    assert_clean(check_game("mushka", players, facts, seeds=range(8), every=3), facts)


#: a failed lead taken back is in its leader's hand until played
kopilka_shown_in_hand = known_in_hand("shown")


def kopilka_remiz_passer_holds_led_suit(p: Point, st: DealState) -> list[str] | None:
    """A pass on the trick on the table by a seat not void in the led suit paid a remiz:
    that seat holds the led suit."""
    from koloda.games.kopilka.table import PLAY_RULES
    view = _view(p)
    cur = view.trick
    if cur is None or cur.led is None:
        return None
    remiz = [s for s in cur.passes if s != p.seat and cur.led not in view.voids[s]]
    if not remiz:
        return None
    hands = st.hands  # type: ignore[attr-defined]
    return [f"seat {s} paid a remiz without the led suit" for s in remiz
            if not PLAY_RULES.holds_suit(hands[s], cur.led)]


def kopilka_decliner_lacks_three_of_a_suit(p: Point, st: DealState) -> list[str] | None:
    """In the exchange, a seat whose turn passed without an offer had no three cards of a
    suit: it holds at most two of each, plus one per card it has picked since."""
    real = p.match.current
    if real.phase != "exchange":  # type: ignore[attr-defined]
        return None
    dealer = p.match.deals[-1].dealer
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    offers = [*real.offers, *([real.offer] if real.offer else [])]  # type: ignore
    bad, seen = [], False
    for i, s in enumerate(order[:real.exchange_turn]):  # type: ignore[attr-defined]
        if s == p.seat or any(o.offerer == s for o in offers):
            continue
        seen = True
        later = sum(o.taken.count(s) for o in offers if order.index(o.offerer) > i)
        for su in range(4):
            held = sum(1 for c in st.hands[s] if suit_of(c) == su)  # type: ignore
            if held > 2 + later:
                bad.append(f"seat {s} declined but holds {held} of suit {su}")
    return bad if seen else None


def test_kopilka_sample_respects_voids_shown_cards_remiz_passes_and_declines() -> None:
    facts: dict[str, Fact] = {"kopilka_voids": void_fact(suit_cards),
                              "kopilka_shown_in_hand": kopilka_shown_in_hand,
                              "kopilka_remiz_pass": kopilka_remiz_passer_holds_led_suit,
                              "kopilka_decline": kopilka_decliner_lacks_three_of_a_suit}
    assert_clean(check_game("kopilka", 4, facts, seeds=range(4), every=3), facts)


def test_durak_opening_sampler_has_the_law_of_rejection_sampling() -> None:
    """The opening's samples are not merely consistent: they are distributed as the
    unconstrained deals that happen to agree with the opening (rejection sampling, the
    exact law) — per seat, how many trumps and which lowest trump it holds."""
    from collections import Counter

    from koloda.games._hidden import HiddenDealer
    from koloda.games.durak.determinize import Template
    m = koloda.new_game("durak", players=4, seed=3, teams=False)
    first = m.current.first_attacker  # type: ignore[attr-defined]
    t = Template(m.observation((first + 1) % 4))
    assert t.openings is not None and len(t.openings) > 1
    trump, n = m.current.trump, 6000  # type: ignore[attr-defined]

    def law(accept: bool) -> Counter[tuple[int, int, int]]:
        rng, out, got = random.Random(5), Counter[tuple[int, int, int]](), 0
        plain = HiddenDealer(t.pool, t.needs, [frozenset()] * len(t.needs))
        while got < n:
            if accept:
                shares = plain.deal(rng)
                hands = [list(h) for h in t.hands]
                for s, share in zip(t.others, shares, strict=False):
                    hands[s] += share
                deal = Deal(0, tuple(tuple(h) for h in hands), (), m.current.trump_card)  # type: ignore
                if lowest_trump_holder(deal) != first:
                    continue
            else:
                hands = t.sample(rng).hands
            got += 1
            for s, h in enumerate(hands):
                ranks = [c % 13 for c in h if c // 13 == trump]
                out[(s, len(ranks), min(ranks, default=-1))] += 1
        return out
    exact, ours = law(True), law(False)
    worst = max(abs(exact[k] - ours[k]) / n for k in exact.keys() | ours.keys())
    assert worst < 0.03, f"the samples' law is off by {worst:.3f}"


def test_the_hidden_dealer_places_every_card_when_sequential_tries_fail() -> None:
    """Found in an Opendaum decision (game 99306): one seat may hold only
    hearts, the stock takes anything, and room-weighted draws mostly leave the seat
    short, so the dealer falls back past its sequential tries nearly every second deal.
    Its backtracking search then ran for half a minute a decision; the fallback now
    places each card only where the rest can still be placed (Hall's condition), so it
    deals at once, every deal fits every ban, and each hand of three hearts comes up."""
    from koloda.games import _hidden

    hearts = [43, 44, 45, 46, 47, 51]
    others = [4, 6, 7, 8, 9, 11, 18, 19, 20, 23, 31, 32, 33, 38]
    needs = [3, 3, 3, 11]
    banned = [frozenset(hearts), frozenset(hearts), frozenset(others), frozenset()]
    dealer = _hidden.HiddenDealer(hearts + others, needs, banned)
    real = _hidden._deal_placeable
    calls: list[int] = []

    def counting(*args: Any) -> list[list[int]]:
        calls.append(1)
        return real(*args)

    hands: set[tuple[int, ...]] = set()
    _hidden._deal_placeable = counting  # type: ignore[assignment]
    try:
        for s in range(400):
            out = dealer.deal(random.Random(s))
            assert [len(o) for o in out] == needs
            assert sorted(c for o in out for c in o) == sorted(hearts + others)
            assert all(not set(o) & banned[i] for i, o in enumerate(out))
            hands.add(tuple(sorted(out[2])))
    finally:
        _hidden._deal_placeable = real
    fell_back = len(calls)
    assert fell_back > 50                   # the case the fallback is for
    assert len(hands) == 20                 # every 3 of the 6 hearts


def test_the_hidden_dealer_refuses_bans_no_deal_can_meet() -> None:
    from koloda.games import _hidden

    # both places of one card ban the same card: the sequential tries and the fallback
    # both find nothing
    dealer = _hidden.HiddenDealer([1, 2], [1, 1], [frozenset({1}), frozenset({1})])
    with pytest.raises(ValueError, match="no arrangement"):
        dealer.deal(random.Random(0))
