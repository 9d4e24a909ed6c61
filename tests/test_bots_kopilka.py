"""Kopilka bots: legal play everywhere, the obvious choice in hand-made positions, payoffs
in money, and determinizations that respect voids, shown cards and the exchange."""

from __future__ import annotations

import random
import time
from collections import Counter
from functools import partial
from typing import Any

import koloda
from koloda.bots import make_bot
from koloda.bots.heuristic.kopilka import KopilkaHeuristic, rollout
from koloda.cards import CARD_TEXT, SUITS, TEXT_CARD, deck, suit_of
from koloda.games.kopilka import KopilkaDeal
from koloda.games.kopilka.determinize import _fits, determinize
from koloda.games.kopilka.views import WonTrick
from koloda.games.mushka import deal_by_suit
from tests.bots_common import drive
from tests.bots_common import seat_view as _seat_view
from tests.test_kopilka import EXCHANGE, EXCHANGE_TALON, FULL, run, table

#: a deal state's observation as a kopilka match gives it
seat_view = partial(_seat_view, "kopilka")


def choice(st: KopilkaDeal) -> str:
    seat = st.to_move
    assert seat is not None
    return KopilkaHeuristic().choose(seat_view(st, seat), st.legal_actions(),
                                     random.Random(0))


# ---------------------------------------------------------------- legality
def test_heuristic_bot_in_every_seat_plays_whole_matches_legally() -> None:
    rng = random.Random(3)
    for seed in range(15):
        m = koloda.new_game("kopilka", seed=seed)
        drive(m, [make_bot("heuristic", "kopilka")] * 4, rng)
        assert m.result is not None and m.deals_played == 4


# ---------------------------------------------------------------- payoffs
def test_payoffs_are_each_seats_money_change_in_the_deal() -> None:
    st = table(FULL)
    rollout(st)
    assert st.is_over
    assert st.payoffs() == [float(b + 10) for b in st.purse.balances]


def test_payoffs_of_the_4th_deal_include_the_final_pot() -> None:
    st = table(["7H", "8H", "9H", "TH"], "", final=True)
    run(st, "play 7H", "play 8H", "play 9H", "play TH")
    # TH takes 4; remizes from seats 0-2, fees from 1-3; seat 0 shed first: the pot
    assert st.first_to_shed == 0
    assert st.payoffs() == [61.0, -10.0, -10.0, -1.0]


def test_clone_has_its_own_purse() -> None:
    st = table(FULL)
    copy = st.clone()
    rollout(copy)
    assert copy.is_over and not st.is_over
    assert st.purse.balances == [-10] * 4 and st.purse.pot == 40


# ---------------------------------------------------------------- heuristic
def test_AS_goes_on_a_hearts_trick() -> None:
    st = table(FULL)                 # seat 1 holds 9H TH and AS
    st.apply("play 7H")
    assert choice(st) == "play AS"


def test_never_passes_holding_the_led_suit() -> None:
    st = table(["7C 8C 9D", "9C TD JD", "TC QD KD", "JC KC AD"], "")
    st.apply("play 7C")
    assert "pass" in st.legal_actions() and choice(st).startswith("play")


def test_last_to_answer_takes_the_trick_with_the_cheapest_winner() -> None:
    st = table(["7C 8D", "9C 9D", "TC TD", "JC AC 7D"], "")
    run(st, "play 7C", "play 9C", "play TC")
    assert choice(st) == "play JC"


def test_the_last_card_is_played_whenever_it_may_be() -> None:
    st = table(["7C 8D 9D", "AS", "TC TD", "JC KC 7D"], "")
    st.apply("play 7C")
    assert choice(st) == "play AS"   # it sheds: the deal ends in seat 1's favour


def test_the_leader_leads_the_dearest_sure_trick() -> None:
    st = table(["AH AC 7D", "9H 9C TD", "TH TC JD", "JH JC QD"], "")
    assert choice(st) == "play AH"   # hearts pay 4, clubs 3


def test_void_the_bot_draws_even_with_a_trick_won_and_a_cheap_lead() -> None:
    st = table(["7D 8D", "7C 8C", "9H 9C", "TH TC"])
    st.won[1].append(WonTrick(1, False, 3, 3))   # a club trick won already
    st.apply("play 7D")      # diamonds pay 2
    assert st.legal_actions() == ["pass", "draw"] and choice(st) == "draw"


def test_void_but_holding_AS_the_bot_plays_it_rather_than_draws() -> None:
    st = table(["7D 8D", "AS 7C 8C", "9H 9C", "TH TC"])
    st.apply("play 7D")
    assert "draw" in st.legal_actions() and choice(st) == "play AS"


def test_the_exchange_picks_the_highest_position_and_never_throws_AS() -> None:
    st = table(["7H 8H 9H 7C 7D", "AS JH 8C 9C 8D", "QH 9D TD TC JC", "KH AH JD QD QC"],
               EXCHANGE_TALON.replace("AS", "TH"))
    assert choice(st) == "pick 2"
    st.apply("pick 2")
    assert choice(st) != "discard AS"


# ---------------------------------------------------------------- observation
def test_a_pass_without_a_remiz_shows_a_void_and_a_draw_clears_it() -> None:
    st = table(["7H 8H 9D", "7C 8C 7S", "9H TD", "TH JD"])
    run(st, "play 7H", "pass")
    assert st.observation(0)["voids"][1] == ["H"]
    run(st, "pass", "play TH")       # seat 2 passes holding 9H: a remiz, no void
    assert st.observation(0)["voids"][2] == []
    run(st, "play JD", "play 9D", "draw")   # seat 1 draws: the card may be a heart
    assert st.observation(0)["voids"][1] == []


def test_leading_the_last_tricks_suit_shows_a_hand_of_nothing_else() -> None:
    st = table(["7C 8C", "9C JD", "TC QD", "AC KC"], "")
    run(st, "play 7C", "play 9C", "play TC", "play AC")
    assert st.to_move == 3 and st.banned == SUITS.index("C")
    st.apply("play KC")              # clubs again: seat 3 held nothing else
    assert st.observation(0)["voids"][3] == ["S", "D", "H"]


def test_a_failed_lead_is_shown_in_the_leaders_hand_until_played() -> None:
    st = table(["7H 7C", "8C 9C", "TC JC", "QC KC"])
    run(st, "play 7H", "pass", "pass", "pass")
    assert st.observation(2)["shown"][0] == ["7H"]
    assert st.observation(2)["hand_sizes"][0] == 2


# ---------------------------------------------------------------- determinize
def check(obs: dict[str, Any], real: KopilkaDeal, rng: random.Random) -> None:
    seat = obs["seat"]
    det = determinize(obs, rng)
    assert det.hands[seat] == real.hands[seat]
    assert det.discards[seat] == real.discards[seat]
    assert [len(h) for h in det.hands] == [len(h) for h in real.hands]
    assert [len(d) for d in det.discards] == [len(d) for d in real.discards]
    assert len(det.talon) == len(real.talon)
    for s in range(4):
        if s == seat:
            continue
        assert not real.seen & set(det.hands[s]) - set(real.shown[s])
        assert set(real.shown[s]) <= set(det.hands[s])
        for v in obs["voids"][s]:
            assert all(suit_of(c) != SUITS.index(v) for c in det.hands[s])
    for view in obs["offers"]:
        if view["offerer"] == seat:
            for c, taker in zip(view["cards"], view["taken"], strict=True):
                c = TEXT_CARD[c]
                if taker is not None and c not in real.seen:
                    later = [v for v in obs["offers"] + [obs["exchange"] or {}]
                             if v.get("offerer") == taker]
                    if not later:    # else he may have passed it on
                        assert c in det.hands[taker] or c in det.discards[taker]
    ex = obs["exchange"]
    if ex is not None and "picked" in ex:
        assert det.offer is not None
        pos, text = ex["picked"]
        assert det.offer.cards[pos] == TEXT_CARD[text]
        assert {suit_of(c) for c in det.offer.cards} == {suit_of(TEXT_CARD[text])}
        assert det.offer.cards == sorted(det.offer.cards)
    zones = Counter(c for cs in det.card_zones().values() for c in cs)
    assert zones == Counter(deck(32))


def test_determinizations_respect_what_the_seat_knows() -> None:
    rng = random.Random(11)
    steps = 0
    for seed in range(40):
        m = koloda.new_game("kopilka", seed=seed)
        while not m.is_over:
            seat = m.to_move
            assert seat is not None
            real = m.current
            assert isinstance(real, KopilkaDeal)
            check(m.observation(seat), real, rng)
            steps += 1
            m.apply(m.legal_actions()[rng.randrange(len(m.legal_actions()))])
    assert steps > 2000


def test_a_picker_knows_the_suit_and_the_rank_order_of_the_offer() -> None:
    st = table(EXCHANGE, EXCHANGE_TALON)
    st.apply("pick 1")               # seat 1 takes 8H, the middle of 7H 8H 9H
    obs = seat_view(st, 1)
    assert obs["exchange"]["picked"] == [1, "8H"]
    rng = random.Random(2)
    for _ in range(50):
        det = determinize(obs, rng)
        assert det.offer is not None
        low, mid, high = (CARD_TEXT[c] for c in det.offer.cards)
        assert mid == "8H" and low == "7H" and high[1] == "H" and high != "8H"


def test_the_offerers_cards_stay_with_their_pickers() -> None:
    st = table(EXCHANGE, EXCHANGE_TALON)
    run(st, "pick 2", "discard 8D", "pick 0", "discard 9D")   # 9H → seat 1, 7H → seat 2
    obs = seat_view(st, 0)           # the offerer's view; seat 3 is to pick
    rng = random.Random(3)
    for _ in range(50):
        det = determinize(obs, rng)
        assert TEXT_CARD["9H"] in det.hands[1] + det.discards[1]
        assert TEXT_CARD["7H"] in det.hands[2] + det.discards[2]
        assert det.offer is not None and det.offer.cards == st.offer.cards  # type: ignore


def test_a_hand_left_one_suit_is_dealt_at_once() -> None:
    """A position met in play: the hand void in all but clubs needs two of the three
    clubs unseen. Dealt straight by the constrained dealer this took it seconds of search;
    the place left one suit is filled first."""
    pool = [TEXT_CARD[t] for t in "7S 8S 9C 9D 9H AH JC JH KD KH QC QD QS".split()]
    needs = [2, 1, 4, 1, 1, 2, 2]
    voids: list[set[int]] = [{0, 2, 3}, {1}, {1}, set(), set(), set(), set()]
    start = time.process_time()
    for seed in range(200):
        out = deal_by_suit(pool, needs, voids, random.Random(seed))
        assert [len(p) for p in out] == needs
        assert sorted(c for p in out for c in p) == sorted(pool)
        assert all(suit_of(c) == 1 for c in out[0])
        assert not any(suit_of(c) == 1 for c in out[1] + out[2])
    assert time.process_time() - start < 2.0


def test_an_impossible_split_is_seen_at_once() -> None:
    pool = [TEXT_CARD[t] for t in "7C 8C 9C 7H".split()]
    assert _fits(pool, [2, 2], [{0, 2, 3}, set()])
    assert not _fits(pool, [2, 2], [{0, 2, 3}, {1}])        # three clubs, room for two
    assert not _fits(pool, [4, 0], [{0, 2, 3}, set()])      # a heart where only clubs go
