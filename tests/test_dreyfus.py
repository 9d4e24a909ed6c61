"""Dreyfus (koloda/rules/dreyfus.en.md §Precisely), rule by rule, on hand-made deals and
hand-written records."""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import combinations
from math import comb
from typing import Any

import pytest

import koloda
from koloda.cards import CARD_TEXT, CLUBS, DIAMONDS, HEARTS, SPADES, deck, parse_cards
from koloda.engine.actions import cards_action
from koloda.engine.deal import Deal
from koloda.engine.errors import IllegalAction
from koloda.engine.records import replay
from koloda.engine.view import fields_of
from koloda.games.dreyfus import (
    DreyfusDeal,
    DreyfusMatch,
    deal_by_threes,
    deal_score,
    leaders,
    settlement,
    trump_of_deal,
)
from koloda.games.dreyfus.views import DreyfusSheet, DreyfusView
from tests.conformance import cards_in
from tests.conftest import RECORDS
from tests.positions import random_positions

SUITS = {s: [CARD_TEXT[c] for c in deck(48) if CARD_TEXT[c][1] == s] for s in "SCDH"}


def state(hands: list[list[str]], widow: list[str], dealer: int = 0,
          number: int = 0) -> DreyfusDeal:
    deal = Deal(dealer, tuple(tuple(parse_cards(h)) for h in hands), tuple(parse_cards(widow)))
    return DreyfusDeal(deal, number)


def suited_state(number: int = 0, dealer: int = 0) -> DreyfusDeal:
    """Seat 0 diamonds, seat 1 spades, seat 2 clubs, the widow hearts."""
    return state([SUITS["D"], SUITS["S"], SUITS["C"]], SUITS["H"], dealer, number)


def force(m: koloda.Match, tricks: list[int], bought: tuple[int, ...] = (0, 0, 0)) -> None:
    """End the current deal with these tricks and purchases (scoring only)."""
    st = m.current
    assert isinstance(st, DreyfusDeal)
    st.tricks, st.bought = list(tricks), list(bought)
    st.is_over, st.to_move = True, None
    m._settle()


def load(name: str) -> dict:
    return json.loads((RECORDS / name).read_text())


# ---------------------------------------------------------------- dealing
def test_three_players_deck_of_48_without_twos() -> None:
    assert koloda.get_spec("dreyfus").players == (3,)
    m = koloda.new_game("dreyfus", seed=4)
    d = m.deals[0]
    cards = sorted(c for h in d.hands for c in h) + list(d.stock)
    assert sorted(cards) == list(deck(48))
    assert [len(h) for h in d.hands] == [12, 12, 12] and len(d.stock) == 12
    assert d.trump_card is None


def test_deal_by_threes_left_of_dealer_next_dealer_then_widow() -> None:
    cards = list(range(48))
    hands, widow = deal_by_threes(cards, dealer=1)
    # round one: 0-2 to seat 2 (left of dealer 1), 3-5 to seat 0, 6-8 to the dealer, 9-11 widow
    assert hands[2][:3] == (0, 1, 2) and hands[0][:3] == (3, 4, 5)
    assert hands[1][:3] == (6, 7, 8) and widow[:3] == (9, 10, 11)
    assert hands[2][3:6] == (12, 13, 14) and widow[-3:] == (45, 46, 47)


def test_trump_rotation_spades_clubs_diamonds_hearts_no_trump() -> None:
    assert [trump_of_deal(d) for d in range(7)] == [SPADES, CLUBS, DIAMONDS, HEARTS, None,
                                                    SPADES, CLUBS]
    m = koloda.new_game("dreyfus", seed=2)
    seen = []
    for _ in range(6):
        st = m.current
        assert isinstance(st, DreyfusDeal)
        seen.append(st.rules.trump)
        force(m, [4, 4, 4])
    assert seen == [SPADES, CLUBS, DIAMONDS, HEARTS, None, SPADES]


def test_dealer_rotates_left() -> None:
    m = koloda.new_game("dreyfus", seed=2)
    force(m, [4, 4, 4])
    force(m, [4, 4, 4])
    d = [x.dealer for x in m.deals]
    assert d[1] == (d[0] + 1) % 3 and d[2] == (d[1] + 1) % 3


# ---------------------------------------------------------------- exchange
def test_exchange_starts_left_of_dealer_dealer_last() -> None:
    st = suited_state(dealer=1)
    order = []
    while st.phase == "exchange":
        order.append(st.to_move)
        st.apply("stand")
    assert order == [2, 0, 1]


def test_discard_takes_the_widows_next_cards_in_order() -> None:
    st = suited_state(dealer=0)
    st.apply("discard 3S 4S")
    assert st.hands[1][-2:] == parse_cards("3H 4H")
    assert st.bought[1] == 2 and st.discards[1] == parse_cards("3S 4S")
    st.apply("discard 3C")
    assert st.hands[2][-1:] == parse_cards("5H")
    assert len(st.widow) == 9


def test_discard_at_most_the_cards_left_in_the_widow() -> None:
    st = suited_state(dealer=0)
    st.apply("discard " + " ".join(SUITS["S"][:10]))
    assert len(st.widow) == 2
    assert all(len(a.split()) <= 3 for a in st.legal_actions())
    with pytest.raises(IllegalAction, match="only 2 card"):
        st.apply("discard 3C 4C 5C")
    with pytest.raises(IllegalAction, match="do not hold"):
        st.apply("discard 3S")


def test_legal_exchange_lists_stand_and_every_discard_set() -> None:
    st = suited_state(dealer=0)
    assert len(st.legal_actions()) == 1 + sum(comb(12, k) for k in range(1, 13))
    hand = sorted(st.hands[1])
    every = {"stand"} | {cards_action("discard", c) for k in range(1, 13)
                         for c in combinations(hand, k)}
    assert set(st.legal_actions()) == every and len(st.legal_actions()) == len(every)
    st.apply("discard " + " ".join(SUITS["S"][:9]))
    assert len(st.legal_actions()) == 1 + sum(comb(12, k) for k in range(1, 4))


def test_stand_keeps_the_hand_and_buys_nothing() -> None:
    st = suited_state(dealer=0)
    before = list(st.hands[1])
    st.apply("stand")
    assert st.hands[1] == before and st.bought[1] == 0 and len(st.widow) == 12


def test_widow_running_out_mid_exchange_skips_the_rest() -> None:
    st = suited_state(dealer=0)
    st.apply("discard " + " ".join(SUITS["S"]))     # seat 1 buys the whole widow
    assert st.widow == []
    # seats 2 and 0 are skipped: play begins, left of the dealer leads
    assert st.phase == "play" and st.skipped == [2, 0] and st.to_move == 1


def test_the_skipped_player_is_never_asked() -> None:
    st = suited_state(dealer=0)
    st.apply("discard " + " ".join(SUITS["S"][:5]))
    st.apply("discard " + " ".join(SUITS["C"][:7]))
    assert st.phase == "play" and st.skipped == [0]
    with pytest.raises(IllegalAction, match="exchange is over"):
        st.apply("stand")


def test_play_before_the_exchange_is_refused() -> None:
    st = suited_state(dealer=0)
    with pytest.raises(IllegalAction, match="exchange comes first"):
        st.apply("play 3S")


# ---------------------------------------------------------------- play
def _to_play(st: DreyfusDeal) -> DreyfusDeal:
    while st.phase == "exchange":
        st.apply("stand")
    return st


def test_left_of_dealer_leads_the_first_trick() -> None:
    assert _to_play(suited_state(dealer=2)).to_move == 0


def test_must_follow_suit() -> None:
    st = _to_play(state([["3S", "AH", *SUITS["D"][:10]], [*SUITS["S"][1:], "4H"],
                         [*SUITS["C"][:11], "5H"]],
                        ["3H", *SUITS["H"][3:11], *SUITS["C"][11:], *SUITS["D"][10:]],
                        dealer=2))
    st.apply("play AH")
    assert st.legal_actions() == ["play 4H"]
    with pytest.raises(IllegalAction, match="must follow hearts: you hold 4H"):
        st.apply("play 5S")


def test_void_must_trump_with_any_trump_no_over_trump_duty() -> None:
    # deal 0: spades trump; seat 1 is void in diamonds and holds spades
    st = _to_play(suited_state(number=0, dealer=2))
    st.apply("play 3D")
    assert st.legal_actions() == ["play " + c for c in SUITS["S"]]
    st.apply("play 4S")
    # seat 2 holds only clubs: void of diamonds and of trumps, any card
    assert len(st.legal_actions()) == 12
    st.apply("play AC")
    assert st.tricks == [0, 1, 0] and st.to_move == 1   # the trick winner leads next


def test_trump_duty_does_not_require_beating_a_trump() -> None:
    st = _to_play(state([SUITS["D"], "3S 5S 7S 9S JS KS".split() + SUITS["H"][:6],
                         "4S 6S 8S TS QS AS".split() + SUITS["H"][6:]], SUITS["C"], dealer=2))
    st.apply("play 3D")
    st.apply("play 9S")
    # seat 2 is void in diamonds: any of its spades, even one lower than the 9S played
    assert st.legal_actions() == ["play " + c for c in "4S 6S 8S TS QS AS".split()]


def test_no_trump_deal_void_player_may_play_any_card() -> None:
    st = _to_play(suited_state(number=4, dealer=2))
    assert st.rules.trump is None
    st.apply("play AD")
    assert len(st.legal_actions()) == 12
    st.apply("play AS")
    st.apply("play AC")
    assert st.tricks == [1, 0, 0]   # the led suit's highest card wins without trumps


def test_play_ends_after_twelve_tricks() -> None:
    st = _to_play(suited_state(dealer=2))
    while not st.is_over:
        st.apply(st.legal_actions()[0])
    assert sum(st.tricks) == 12


# ---------------------------------------------------------------- scoring
@pytest.mark.parametrize(("bought", "tricks", "above", "below"), [
    (0, 4, 0, 0), (3, 4, 3, 0), (5, 1, 8, 0), (0, 0, 4, 0), (2, 7, 2, 3), (0, 12, 0, 8),
])
def test_deal_score_above_and_below_the_line(bought: int, tricks: int, above: int,
                                             below: int) -> None:
    assert deal_score(bought, tricks) == (above, below)


def test_first_to_ten_below_the_line_wins() -> None:
    m = koloda.new_game("dreyfus", seed=1, finish="deal")
    force(m, [12, 0, 0])
    assert not m.is_over
    force(m, [5, 7, 0])
    assert not m.is_over      # 9 below: not yet
    force(m, [5, 7, 0])       # 10 below: wins
    assert m.is_over and m.result is not None and m.result.winners == (0,)


def test_same_deal_tie_higher_below_then_lower_above_then_share() -> None:
    assert leaders([5, 3, 0], [12, 11, 0], [0, 1]) == [0]
    assert leaders([5, 3, 0], [11, 11, 0], [0, 1]) == [1]
    assert leaders([3, 3, 0], [11, 11, 0], [0, 1]) == [0, 1]


def test_the_winner_once_fixed_never_changes() -> None:
    m = koloda.new_game("dreyfus", seed=1)          # finish = cycle
    force(m, [12, 0, 0])
    force(m, [6, 6, 0])      # seat 0: 10 below, the winner
    force(m, [0, 12, 0])     # seat 1 passes seat 0 below the line: still seat 0
    force(m, [0, 12, 0])
    force(m, [4, 4, 4])
    assert m.is_over and m.result is not None
    assert m.result.details["below"] == [10, 18, 0]
    assert m.result.winners == (0,)


def test_finish_cycle_plays_to_the_end_of_the_five_deal_cycle() -> None:
    m = koloda.new_game("dreyfus", seed=1)
    force(m, [12, 0, 0])
    force(m, [12, 0, 0])     # the winner is fixed at deal 1
    assert not m.is_over
    force(m, [4, 4, 4])
    force(m, [4, 4, 4])
    assert not m.is_over
    force(m, [4, 4, 4])      # deal 4, the no-trump deal, closes the cycle
    assert m.is_over and len(m.deals) == 5


def test_finish_deal_stops_at_once() -> None:
    m = koloda.new_game("dreyfus", seed=1, finish="deal")
    force(m, [12, 0, 0])
    force(m, [12, 0, 0])
    assert m.is_over and len(m.deals) == 2
    with pytest.raises(koloda.ConfigError):
        koloda.new_game("dreyfus", seed=1, finish="never")


def test_settlement_formula_above_plus_what_is_missing_of_ten() -> None:
    # seat 0 won; seat 1: 12 above, 3 below → 19; seat 2: 7 above, 12 below → 7
    assert settlement([20, 12, 7], [10, 3, 12], [0]) == [26, -19, -7]


def test_settlement_uses_the_final_totals_after_the_cycle() -> None:
    m = koloda.new_game("dreyfus", seed=1)
    force(m, [12, 0, 0])
    force(m, [12, 0, 0])                  # seat 0 wins at deal 1
    force(m, [4, 4, 4], (0, 3, 0))        # later purchases still count
    force(m, [4, 4, 4])
    force(m, [0, 6, 6])
    assert m.result is not None
    d = m.result.details
    assert d["above"] == [4, 4 + 4 + 3, 4 + 4] and d["below"] == [16, 2, 2]
    assert m.result.scores == (35, -(11 + 8), -(8 + 8))


def test_co_winners_split_and_do_not_pay_each_other() -> None:
    assert settlement([12, 4, 4], [0, 10, 10], [1, 2]) == [-22, 11, 11]
    assert settlement([13, 4, 4], [0, 10, 10], [1, 2]) == [-23, 11.5, 11.5]


# ---------------------------------------------------------------- records
def test_hand_written_record_skipped_buyers_and_settlement() -> None:
    """Deal 0 (spades): seat 1 stands on all twelve spades, seats 2 and 0 buy 5 and 7 and
    take nothing: above 9 and 11, seat 1 below 8. Deal 1 (clubs): seat 2 buys the whole
    widow, seats 0 and 1 are skipped; seat 1's twelve clubs take every trick: below 16, seat 2
    above 9 + 12 + 4 = 25, seat 0 above 11 + 4 = 15. Seat 1 wins (finish=deal): seat 0 pays
    15 + 10, seat 2 pays 25 + 10."""
    r = replay(load("dreyfus-skipped-buyers.json"))
    assert r.error is None and r.match is not None and r.match.result is not None
    res = r.match.result
    assert res.winners == (1,) and res.scores == (-25, 60, -35)
    assert res.details["above"] == [15, 0, 25] and res.details["below"] == [0, 16, 0]
    assert isinstance(r.match, DreyfusMatch)


def test_hand_written_record_shared_win() -> None:
    """Seats 1 and 2 each take twelve tricks once (8 below, 4 above), then six each in deal 2:
    both reach 10 below with 4 above — they share; seat 0 (12 above, 0 below) pays 22,
    11 to each."""
    r = replay(load("dreyfus-shared-win.json"))
    assert r.error is None and r.match is not None and r.match.result is not None
    res = r.match.result
    assert res.winners == (1, 2) and res.scores == (-22, 11, 11)


def test_example_record_capped_settles_the_standings_as_they_are() -> None:
    """Capped after 3 deals: nobody has 10 below; the best standing (most below, then least
    above) is settled as the winner: seat 0 (24 above, 5 below) receives 12 + 9 and 9 + 6."""
    data = load("examples/dreyfus.json")
    r = replay(data)
    assert r.error is None and r.match is not None and r.match.result is not None
    res = r.match.result.to_json()
    assert res["scores"] == [36, -21, -15] and res["winners"] == [0] and res["capped"]
    assert res["details"]["above"] == [24, 12, 9] and res["details"]["below"] == [5, 1, 4]


def test_observation_hides_the_widow_and_other_discards_but_shows_purchases() -> None:
    m = koloda.new_game("dreyfus", seed=9)
    seat = m.to_move
    assert seat is not None
    hand = m.current.hands[seat]  # type: ignore[attr-defined]
    first = sorted(hand)[:2]
    m.apply("discard " + " ".join(CARD_TEXT[c] for c in first))
    obs_other = m.observation((seat + 1) % 3)
    assert obs_other["bought"][seat] == 2 and obs_other["widow_size"] == 10
    assert obs_other["my_discards"] == []
    assert m.observation(seat)["my_discards"] == [CARD_TEXT[c] for c in first]
    text = json.dumps(obs_other.to_json())
    for c in m.current.widow:  # type: ignore[attr-defined]
        assert f'"{CARD_TEXT[c]}"' not in text


# ---------------------------------------------------------------- the typed views
def positions(seeds: range, **options: Any) -> Iterator[koloda.Match]:
    """Every position of short matches played by random legal actions."""
    return random_positions("dreyfus", seeds, **options)


def test_every_view_field_is_declared_with_a_term_of_the_vocabulary() -> None:
    spec = koloda.get_spec("dreyfus")
    assert {DreyfusView, DreyfusSheet} <= set(spec.views)
    private = {f.name for f in fields_of(DreyfusView) if f.private}
    assert private == {"hand", "my_discards"}
    history = {f.name: f for f in fields_of(DreyfusView)}["tricks_played"]
    assert history.term is None and history.role == "history"
    m = koloda.new_game("dreyfus", seed=1)
    obs = m.observation(0)
    assert isinstance(obs.deal, DreyfusView) and isinstance(obs.sheet, DreyfusSheet)
    assert list(obs.deal.to_json()) == [f.name for f in fields_of(DreyfusView)]
    assert list(obs.sheet.to_json()) == [f.name for f in fields_of(DreyfusSheet)]
    # JSON at the boundary: lists and dicts only, suits as letters
    data = obs.to_json()
    assert data == json.loads(json.dumps(data))
    assert data["trump"] == "S" and data["sheet"]["next_trump"] == "C"


def test_the_no_trump_deal_says_so_with_a_null_trump() -> None:
    m = koloda.new_game("dreyfus", seed=2)
    for _ in range(4):
        m.current.is_over = True
        m.current.to_move = None
        m._settle()
    obs = m.observation(0)
    assert obs.deal_number == 4 and obs.deal.trump is None and obs["trump"] is None
    assert obs.sheet.next_trump == SPADES and obs["sheet"]["next_trump"] == "S"


def test_public_json_names_no_card_hidden_from_any_seat() -> None:
    for m in positions(range(6), finish="deal", max_deals=2):
        hidden = set().union(*(m.hidden_from(s) for s in range(3)))
        public = m.public_observation().to_json()
        assert public["seat"] is None and "hand" not in public and "my_discards" not in public
        leaked = cards_in(public) & hidden
        assert not leaked, f"the public view shows {[CARD_TEXT[c] for c in leaked]}"
        hash(m.observation(0))
