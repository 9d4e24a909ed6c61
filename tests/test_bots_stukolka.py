"""Stukolka bots: legal actions everywhere, the obvious choice in hand-made positions, what
play shows about a hand (voids and caps), and determinizations that respect it."""

from __future__ import annotations

import random
from functools import partial

import pytest

import koloda
from koloda.bots import make_bot
from koloda.bots.heuristic.stukolka import (
    StukolkaHeuristic,
    declare,
    knock_worth,
    rollout,
)
from koloda.bots.search import SearchBot
from koloda.bots.search.games.stukolka import SURPRISE, StukolkaSearch, likelihood
from koloda.cards import CARD_TEXT, TEXT_CARD, deck, parse_card, parse_cards, suit_of
from koloda.engine.deal import Deal
from koloda.games.stukolka import StukolkaDeal, determinize
from tests.bots_common import drive
from tests.bots_common import seat_view as _seat_view

#: a deal state's observation as a stukolka match gives it
seat_view = partial(_seat_view, "stukolka")

DECK36 = [CARD_TEXT[c] for c in deck(36)]
#: four hands, dealer 0: seat 1 AS KD 6C, seat 2 hearts, seat 3 diamonds, seat 0 low cards
HANDS = ["6H 7H 8C", "AS KD 6C", "8H 9H TH", "QD JD 6D"]


def state(dealer: int, hands: list[str], turned: str, stock_prefix: tuple[str, ...] = (),
          pot: int = 3) -> StukolkaDeal:
    used = {c for h in hands for c in h.split()} | {turned} | set(stock_prefix)
    stock = [*stock_prefix, *(c for c in DECK36 if c not in used)]
    deal = Deal(dealer, tuple(tuple(parse_cards(h)) for h in hands), tuple(parse_cards(stock)),
                parse_card(turned))
    return StukolkaDeal(deal, pot, 3)


def run(st: StukolkaDeal, *actions: str) -> None:
    for a in actions:
        st.apply(a)


# ---------------------------------------------------------------- legality
@pytest.mark.parametrize(("players", "size"), [(4, 36), (5, 36), (7, 36), (6, 52)])
def test_heuristic_bot_in_every_seat_takes_only_legal_actions(players: int, size: int) -> None:
    rng = random.Random(players)
    for seed in range(30):
        drive(koloda.new_deal("stukolka", players=players, seed=seed, deck=size),
              [make_bot("heuristic", "stukolka")] * players, rng)


def test_heuristic_bot_plays_a_whole_match() -> None:
    m = koloda.new_game("stukolka", players=4, seed=2, deals=4)
    drive(m, [make_bot("heuristic", "stukolka")] * 4, random.Random(1))
    assert m.result is not None and sum(m.result.scores) == -m.result.details["pot"]


def test_search_bots_take_only_legal_actions() -> None:
    rng = random.Random(5)
    plain = SearchBot("stukolka", iterations=30)
    greedy = make_bot("search:easy", "stukolka")
    assert isinstance(greedy, StukolkaSearch)
    greedy.iterations = 30
    for seed in range(4):
        drive(koloda.new_deal("stukolka", players=5, seed=seed),
              [plain, greedy, make_bot("heuristic", "stukolka"),
               make_bot("random", "stukolka"), greedy], rng)


def test_rollout_plays_a_sampled_deal_to_the_end() -> None:
    rng = random.Random(3)
    for seed in range(20):
        m = koloda.new_deal("stukolka", players=6, seed=seed)
        if m.is_over:
            continue
        det = determinize(m.observation(m.to_move), rng)  # type: ignore[arg-type]
        rollout(det, rng)
        assert det.is_over


# ---------------------------------------------------------------- payoffs
def test_payoffs_are_the_deals_money_with_remiz_and_the_dealers_ante() -> None:
    st = state(0, HANDS, "7S", pot=9)
    run(st, "knock", "knock", "drop", "drop")    # seats 1 and 2 play
    run(st, "play AS", "play 8H", "play KD", "play 9H", "play 6C", "play TH")
    assert st.is_over and st.tricks == [0, 3, 0, 0]
    # seat 1: three thirds of 9; seat 2: a remiz of the whole pot; dealer: the ante
    assert st.payoffs() == [-3.0, 9.0, -9.0, 0.0]


def test_lone_player_payoff_is_the_whole_pot() -> None:
    st = state(0, HANDS, "7S", pot=6)
    run(st, "drop", "knock", "drop", "drop")
    assert st.payoffs() == [-3.0, 0.0, 6.0, 0.0]


# ---------------------------------------------------------------- heuristic
def test_last_to_declare_with_nobody_in_knocks_on_anything() -> None:
    junk = parse_cards("6S 7D 8H")
    assert declare(junk, 1, ["drop", "drop", "drop", None], 0, 0) == "knock"
    assert declare(junk, 1, ["knock", "drop", "drop", None], 3, 3) == "drop"


def test_trump_ace_knocks_and_junk_drops() -> None:
    clubs = suit_of(parse_card("7C"))
    assert knock_worth(parse_cards("AC 6S 7D"), clubs, 3) > 0
    assert knock_worth(parse_cards("6S 7D 8H"), clubs, 1) < 0
    assert declare(parse_cards("AC 6S 7D"), clubs, [None, None, None, None], 1, 0) == "knock"
    assert declare(parse_cards("6S 7D 8H"), clubs, [None, None, None, None], 1, 0) == "drop"


def test_heuristic_never_takes_the_golets() -> None:
    st = state(0, HANDS, "7S")
    bot = StukolkaHeuristic()
    rng = random.Random(0)
    while st.phase == "declare" and not st.is_over:
        seat = st.to_move
        assert seat is not None
        a = bot.choose(seat_view(st, seat), st.legal_actions(), rng)
        assert a != "golets"
        st.apply(a)


def test_last_to_play_takes_the_trick_with_the_cheapest_winner() -> None:
    # trump spades, dealer 1; seats 2 and 3 play; seat 2 leads 8H, seat 3 must beat
    st = state(1, ["6S 7D 8D", "9C TC JC", "8H 7C 7H", "KH AH 6D"], "7S")
    run(st, "knock", "knock", "drop", "drop")
    run(st, "play 8H")
    legal = st.legal_actions()
    assert st.to_move == 3 and legal == ["play KH", "play AH"]
    assert StukolkaHeuristic().choose(seat_view(st, 3), legal, random.Random(0)) == "play KH"


def test_with_others_to_play_the_winner_nothing_out_can_beat() -> None:
    st = state(1, ["6S 7D 8D", "9C TC JC", "8H 7C 7H", "QH AH 6D"], "7S")
    run(st, "knock", "knock", "drop", "knock")    # seat 1 plays after seat 3
    run(st, "play 8H")
    legal = st.legal_actions()
    assert legal == ["play QH", "play AH"]        # the KH is out: only AH is safe
    assert StukolkaHeuristic().choose(seat_view(st, 3), legal, random.Random(0)) == "play AH"


def test_leader_cashes_a_trump_nothing_out_can_beat() -> None:
    st = state(0, ["6S 7D 8D", "KS AS 7C", "8H 9H TH", "QD JD 6D"], "QS")
    run(st, "knock", "knock", "drop", "drop")
    assert st.legal_actions() == ["play AS"]     # the trump ace is led first (a rule)
    run(st, "play AS", "play 8H")
    assert st.to_move == 1 and st.legal_actions() == ["play KS", "play 7C"]
    bot = StukolkaHeuristic()
    assert bot.choose(seat_view(st, 1), st.legal_actions(), random.Random(0)) == "play KS"


# ---------------------------------------------------------------- what play shows
def test_not_following_a_trump_lead_shows_a_trump_void() -> None:
    st = state(0, ["6S 7D 8D", "AH KD 6C", "8H 9H TH", "QD JD 6D"], "7S")
    run(st, "knock", "knock", "knock", "knock")
    run(st, "play AH", "play 8H", "play QD")      # seat 3: no heart, no trump
    assert st.observation(0)["voids"][3] == ["S", "H"]
    assert st.observation(0).voids[3] == (0, 3)


def test_following_without_beating_caps_the_suit() -> None:
    st = state(0, ["6S 7D 8D", "KH KD 6C", "8H 9H TH", "QD JD 6D"], "7S")
    run(st, "knock", "knock", "knock", "knock")
    run(st, "play KH", "play 8H")                 # seat 2 could not beat the king
    assert st.observation(0)["caps"][2] == {"H": "K"}
    assert st.observation(0).caps[2] == ((3, 11),)


def test_leading_without_the_trump_ace_shows_it_is_not_held() -> None:
    st = state(0, ["6S 7D 8D", "AH KD 6C", "8H 9H TH", "QD JD 6D"], "7S")
    run(st, "knock", "knock", "knock", "knock")
    run(st, "play AH")
    assert st.observation(2)["caps"][1] == {"S": "K"}


def test_trumping_a_void_shows_only_the_led_void() -> None:
    st = state(0, ["6S 7D 8D", "TH KD 6C", "8H 9H AH", "QD JD 6D"], "7S")
    run(st, "knock", "knock", "knock", "knock")
    run(st, "play TH", "play AH", "play QD", "play 6S")
    assert st.observation(1)["voids"][0] == ["H"]
    assert st.observation(1)["caps"][0] == {}


def test_determinization_respects_voids_caps_discards_and_the_own_hand() -> None:
    st = state(0, ["6S 7D 8D", "AH KD 6C", "8H 9H TH", "QD JD 6D"], "7S",
               ("9C", "KS", "TD", "9D"))
    run(st, "knock", "knock", "golets", "knock")  # seat 3 takes the golets: KS TD 9D
    run(st, "play KS", "play 6S", "play 6C")      # seat 0 cannot beat KS; seat 1 no trump
    assert st.to_move == 2
    obs = seat_view(st, 2)
    rng = random.Random(4)
    spades = {c for c in deck(36) if suit_of(c) == 0}
    for _ in range(200):
        det = determinize(obs, rng)
        assert det.observation(2) == st.observation(2)
        assert det.legal_actions() == st.legal_actions() and det.to_move == st.to_move
        assert sorted(det.hands[2]) == sorted(st.hands[2])
        assert not spades & set(det.hands[1])
        assert TEXT_CARD["AS"] not in det.hands[0]
        assert len(det.hands[3]) == 2 and len(det.discards[3]) == 3
        assert det.golets == 3 and len(det.set_aside) == 1
        played = {TEXT_CARD[t] for t in ("KS", "6S", "6C", "7S")}
        assert not played & {c for h in det.hands for c in h}


def test_determinization_keeps_the_seats_own_discards() -> None:
    st = state(0, HANDS, "7S")
    run(st, "drop", "knock")                      # seat 1 drops its hand
    mine = determinize(seat_view(st, 1), random.Random(1))
    assert mine.discards[1] == st.discards[1]
    theirs = determinize(seat_view(st, 3), random.Random(1))
    assert len(theirs.discards[1]) == 3
    assert not set(theirs.discards[1]) & set(st.hands[3])
    assert sorted(theirs.hands[3]) == sorted(st.hands[3])


def test_search_prefers_knocking_alone_to_dropping_when_last_and_nobody_is_in() -> None:
    st = state(0, HANDS, "7S")
    run(st, "drop", "drop", "drop")
    bot = StukolkaSearch(iterations=40, seconds=5.0)
    obs = seat_view(st, 0)
    means = bot.evaluate(obs, ["knock", "drop"], random.Random(0))
    assert means == {"knock": pytest.approx(0.0), "drop": pytest.approx(-3.0)}
    assert bot.choose(obs, st.legal_actions(), random.Random(0)) == "knock"


def test_clone_shares_nothing_mutable() -> None:
    st = state(0, HANDS, "7S")
    run(st, "knock", "knock")
    before = st.observation(3)
    copy = st.clone()
    run(copy, "golets", "knock")
    while not copy.is_over:
        copy.apply(copy.legal_actions()[0])
    assert st.observation(3) == before and st.to_move == 3


def test_search_leaves_the_golets_to_the_dealer() -> None:
    bot = StukolkaSearch(iterations=30, seconds=5.0)
    rng = random.Random(2)
    for seed in range(15):
        m = koloda.new_deal("stukolka", players=5, seed=seed)
        while not m.is_over and m.observation(m.to_move or 0)["phase"] == "declare":
            seat = m.to_move
            assert seat is not None
            obs = m.observation(seat)
            action = bot.choose(obs, m.legal_actions(), rng)
            if seat != obs["dealer"]:
                assert action != "golets"
            m.apply(action)


def test_samples_where_a_knocker_holds_rags_weigh_little() -> None:
    # seat 1 knocked; a sample giving it AS KD 6C (a trump ace) agrees, rags do not
    strong = state(0, ["6H 7H 8C", "AS KD 6C", "8H 9H TH", "QD JD 6D"], "7S")
    rags = state(0, ["6H 7H 8C", "6D 7D 8D", "8H 9H TH", "QD JD 9C"], "7S")
    for st in (strong, rags):
        run(st, "knock")
    assert likelihood(strong, 3, -0.15) == 1.0
    assert likelihood(rags, 3, -0.15) == SURPRISE
    assert likelihood(rags, 1, -0.15) == 1.0     # a seat's own declaration says nothing
