"""Opendaum bots: payoffs, known voids, the determinizer, the heuristic and the search."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import koloda
import koloda.bots.heuristic.opendaum as heuristic_module
from koloda.bots import make_bot
from koloda.bots.heuristic.opendaum import (
    OpendaumHeuristic,
    expected_tricks,
    misfits,
    rollout,
    rollout_by_state,
)
from koloda.bots.search.games.opendaum import OpendaumSearch
from koloda.cards import CARD_TEXT, TEXT_CARD, parse_cards
from koloda.engine.match import Match
from koloda.engine.records import from_record
from koloda.engine.view import Observation
from koloda.games.opendaum import CLASSIC, SHAKHI, THIRTY_THREE, Variant, schedule
from koloda.games.opendaum.deal import OpendaumDeal
from koloda.games.opendaum.match import trick_rules
from tests.conformance import check_determinize
from tests.test_opendaum import make_record, position

GAMES = [("opendaum", 4, {}), ("opendaum-shakhi", 4, {}),
         ("opendaum-shakhi", 4, {"ruff_only_when_only_trumps": False}), ("opendaum-33", 3, {}),
         ("opendaum", 3, {}), ("opendaum-shakhi", 2, {}), ("opendaum", 4, {"deck": 32})]
DECKS = {"opendaum": 36, "opendaum-shakhi": 36, "opendaum-33": 33}


def at(game: str, hands: list[str], trump_card: str, actions: list[str], *, dealer: int = 0,
       options: dict[str, Any] | None = None, last: bool = False) -> Match:
    """A match at the (first, or with ``last`` the last) schedule position whose deal size is
    the hands' size, the deal as given, the actions applied."""
    players = len(hands)
    size = len(hands[0].split())
    deck_size = DECKS[game] if players != 2 else 34
    sizes = list(schedule(deck_size // players, players))
    pos = len(sizes) - 1 - sizes[::-1].index(size) if last else sizes.index(size)
    rec = make_record(game, players, [{"dealer": dealer, "hands": hands,
                                       "trump_card": trump_card}],
                      actions, options=(options or {}) | {"start_deal": pos},
                      deck_size=deck_size)
    m = from_record(rec)
    for a in actions:
        m.apply(a)
    return m


def determinize(obs: Observation, rng: random.Random) -> OpendaumDeal:
    """The game's own determinizer (the spec's: it knows its variant)."""
    fn = koloda.get_spec(obs.game).determinize
    assert fn is not None
    det = fn(obs, rng)
    assert isinstance(det, OpendaumDeal)
    return det


def decide(bot: Any, m: Match, seed: int = 0) -> str:
    seat = m.to_move
    assert seat is not None
    action: str = bot.choose(m.observation(seat), m.legal_actions(), random.Random(seed))
    return action


# ------------------------------------------------------------------ payoffs

def test_payoffs_are_the_deals_points_made_bid_5x_plus_5_else_a_point_a_trick() -> None:
    st = position(CLASSIC, ["AH 7S", "KH 9D", "6H TD"], "QS", bids=[1, 0, 2],
                  plays=["play KH", "play 6H", "play AH", "play 7S", "play 9D", "play TD"])
    assert st.is_over and st.tricks == [2, 0, 0]
    # bids in order from the dealer's left: seat 1 bid 1, seat 2 bid 0, seat 0 bid 2
    assert st.bids == [2, 1, 0]
    assert st.payoffs() == [15.0, 0.0, 5.0]


def test_payoffs_of_the_33_final_deal_are_10x_and_the_penalty_option_charges_10() -> None:
    for penalty, expected in ((False, [20.0, 0.0, 10.0]), (True, [20.0, -10.0, 10.0])):
        m = at("opendaum-33", ["AH", "KH", "7H"], "QS",
               ["bid 1", "bid 0", "bid 1", "play KH", "play 7H"],
               options={"last_deal_penalty": penalty}, last=True)
        assert m.current.position == 22
        m.apply("play AH")
        st = m.current
        assert st.is_over and st.payoffs() == expected
        assert [float(x) for x in m.result.scores] == expected


# -------------------------------------------------------------- known voids

def voids_of(m: Match, seat: int) -> list[str]:
    v: list[str] = m.observation(0)["voids"][seat]
    return v


def test_classic_a_discard_shows_a_void_in_the_lead_and_in_trumps() -> None:
    # spades trump; seat 1 leads a heart, seat 2 (no hearts, no spades) discards a diamond
    m = at("opendaum", ["AH 7S 9C", "KH 9D 8C", "TD JD 6C", "QH 6S 7C"], "QS",
           ["bid 0"] * 4 + ["play KH", "play TD"])
    assert voids_of(m, 2) == ["S", "H"]
    assert voids_of(m, 0) == [] and voids_of(m, 1) == []


def test_classic_a_ruff_shows_only_a_void_in_the_lead() -> None:
    m = at("opendaum", ["AH 7S 9C", "KH 9D 8C", "TD 8S 6C", "QH 6S 7C"], "QS",
           ["bid 0"] * 4 + ["play KH", "play 8S"])
    assert voids_of(m, 2) == ["H"]


def test_shakhi_a_ruff_under_the_ruff_limit_shows_nothing_but_trumps_held() -> None:
    # hearts trump; seat 2 is void in diamonds and ruffs: it holds no plain card
    m = at("opendaum-shakhi", ["AD 7S 9C", "KD 9D 8C", "TH JH 7H", "QD 6S 7C"], "QH",
           ["bid 0"] * 4 + ["play KD", "play TH"])
    assert voids_of(m, 2) == ["S", "C", "D"]


def test_shakhi_a_discard_under_the_ruff_limit_shows_only_the_lead_void() -> None:
    m = at("opendaum-shakhi", ["AD 7S 9C", "KD 9D 8C", "TS JH 7H", "QD 6S 7C"], "QH",
           ["bid 0"] * 4 + ["play KD", "play TS"])
    assert voids_of(m, 2) == ["D"]
    # without the limit the same discard shows no trumps either
    m = at("opendaum-shakhi", ["AD 7S 9C", "KD 9D 8C", "TS JC 7C", "QD 6S 7D"], "QH",
           ["bid 0"] * 4 + ["play KD", "play TS"],
           options={"ruff_only_when_only_trumps": False})
    assert voids_of(m, 2) == ["D", "H"]


def test_shakhi_leading_a_trump_shows_no_plain_card_held() -> None:
    m = at("opendaum-shakhi", ["AD 7S 9C", "KH 9H 8H", "TS JC 7C", "QD 6S 7D"], "QH",
           ["bid 0"] * 4 + ["play KH"])
    assert voids_of(m, 1) == ["S", "C", "D"]


def test_a_shakha_shows_no_void() -> None:
    m = at("opendaum-shakhi", ["AD 7S 9C", "KD 9D 8C", "6C JD 7H", "QD 6S 7C"], "QH",
           ["bid 0"] * 4 + ["play KD", "play 6C wild"])
    assert voids_of(m, 2) == []


def test_33_a_discard_shows_only_the_lead_void() -> None:
    m = at("opendaum-33", ["7S 9C 8S", "KD 9D 8C", "TD JH 7H"], "QH",
           ["bid 0", "bid 0", "bid 1", "play KD", "play TD", "play 7S"])
    assert voids_of(m, 0) == ["D"]


def test_known_voids_never_contradict_the_hands_in_random_play() -> None:
    for game, players, opts in GAMES:
        for seed in range(12):
            m = koloda.new_deal(game, players=players, seed=seed, start_deal=seed % 9, **opts)
            rng = random.Random(seed)
            while not m.is_over:
                st = m.current
                for s, vs in enumerate(st.known_voids()):
                    assert not [c for c in st.hands[s]
                                if c not in st.rules.shakhi and st.rules.suit[c] in vs]
                m.apply(rng.choice(m.legal_actions()))


# -------------------------------------------------------------- determinizer

def test_determinize_agrees_with_what_the_seat_knows_in_every_variant() -> None:
    rng = random.Random(5)
    for game, players, opts in GAMES:
        for seed in range(6):
            m = koloda.new_deal(game, players=players, seed=seed, start_deal=seed * 2, **opts)
            while not m.is_over:
                check_determinize(m, rng)
                m.apply(rng.choice(m.legal_actions()))


def test_determinize_respects_voids_public_cards_and_counts() -> None:
    m = at("opendaum", ["AH 7S 9C", "KH 9D 8C", "TD JD 6C", "QH 6S 7C"], "QS",
           ["bid 0"] * 4 + ["play KH", "play TD"])
    obs = m.observation(3)
    rng = random.Random(1)
    for _ in range(200):
        det = determinize(obs, rng)
        assert [CARD_TEXT[c] for c in det.hands[3]] == obs["hand"]
        assert [len(h) for h in det.hands] == [3, 2, 2, 3]
        # seat 2 showed no hearts and no trumps (spades)
        assert not [c for c in det.hands[2] if CARD_TEXT[c][1] in "HS"]
        assert det.stock[0] == TEXT_CARD["QS"]
        assert det.trick.cards == parse_cards("KH TD")
        zones = Counter(c for z in det.card_zones().values() for c in z)
        assert zones == Counter(m.deals[-1].all_cards())


def test_determinize_keeps_the_shown_trump_card_in_the_dealers_hand() -> None:
    m = koloda.new_deal("opendaum-33", players=3, seed=3, start_deal=11)   # 11 cards each
    st = m.current
    assert not st.stock and st.trump_card in st.hands[st.dealer]
    seat = st.to_move
    assert seat != st.dealer
    rng = random.Random(2)
    for _ in range(50):
        det = determinize(m.observation(seat), rng)
        assert st.trump_card in det.hands[st.dealer]


def test_determinize_puts_unseen_cards_in_the_stock_too() -> None:
    m = koloda.new_deal("opendaum", players=4, seed=2, start_deal=0)       # 1 card each
    obs = m.observation(m.to_move)
    rng = random.Random(3)
    seen_in_stock = set()
    for _ in range(100):
        det = determinize(obs, rng)
        assert len(det.stock) == 32 and det.stock[0] == TEXT_CARD[obs["trump_card"]]
        seen_in_stock.update(det.stock[1:])
    assert len(seen_in_stock) == 34      # any unseen card may lie in the stock


# ------------------------------------------------------------------ heuristic

def test_bots_only_ever_return_legal_actions() -> None:
    for game, players, opts in GAMES:
        bots = [make_bot("heuristic", game), make_bot("random", game),
                OpendaumSearch(game, iterations=2, seconds=0.02)]
        for seed in range(8):
            m = koloda.new_deal(game, players=players, seed=seed, start_deal=seed, **opts)
            rng = random.Random(seed)
            while not m.is_over:
                seat = m.to_move
                assert seat is not None
                bot = bots[(seat + seed) % len(bots)]
                legal = m.legal_actions()
                a = bot.choose(m.observation(seat), legal, rng)
                assert a in legal, (bot.name, a, legal)
                m.apply(a)


def test_heuristic_bids_high_with_top_trumps_and_zero_with_low_side_cards() -> None:
    rules = trick_rules(CLASSIC, {})[0]                     # spades trump
    assert expected_tricks(parse_cards("AS KS QS JS"), rules, 4) >= 3.5
    assert expected_tricks(parse_cards("7H 8D 7C 9H"), rules, 4) < 0.5
    m = at("opendaum", ["AS KS QS JS", "7H 8D 7C 9H", "TD JD 6C TC", "QH 6S 7D KC"], "9S",
           [], dealer=3)
    assert decide(make_bot("heuristic", "opendaum"), m) == "bid 4"
    m.apply("bid 4")
    assert decide(make_bot("heuristic", "opendaum"), m) == "bid 0"


def test_heuristic_obeys_the_hook_rule_with_the_nearest_allowed_bid() -> None:
    m = at("opendaum-33", ["AS KS", "7H 8D", "TD JD"], "9S", ["bid 2", "bid 0"], dealer=2)
    assert m.legal_actions() == ["bid 1", "bid 2"]           # bid 0 would add up to 2
    assert decide(make_bot("heuristic", "opendaum-33"), m) == "bid 1"


def test_heuristic_at_its_bid_plays_the_highest_card_that_still_loses() -> None:
    # seat 0 bid 0 and, last to a KH lead, holds QH, JH and AH: QH is the highest that loses
    m = at("opendaum", ["QH JH AH", "KH 9D 8C", "TH JD 6C", "9H 7S 9C"], "QS",
           ["bid 1", "bid 1", "bid 0", "bid 0", "play KH", "play TH", "play 9H"])
    assert decide(make_bot("heuristic", "opendaum"), m) == "play QH"


def test_heuristic_short_of_its_bid_wins_with_the_cheapest_winning_card_when_last() -> None:
    m = at("opendaum", ["QH AH 6S", "KH 9D 8C", "TH JD 6C", "9H 7S 9C"], "QS",
           ["bid 1", "bid 0", "bid 0", "bid 2", "play KH", "play TH", "play 9H"])
    assert decide(make_bot("heuristic", "opendaum"), m) == "play AH"
    # void in hearts it ruffs with its lowest trump
    m = at("opendaum", ["9S 6S 7D", "KH 9D 8C", "TH JD 6C", "9H 7H 9C"], "QS",
           ["bid 1", "bid 0", "bid 0", "bid 2", "play KH", "play TH", "play 9H"])
    assert decide(make_bot("heuristic", "opendaum"), m) == "play 6S"


def test_heuristic_leads_a_sure_winner_when_short_and_its_lowest_card_when_at_its_bid(
        ) -> None:
    hands = ["KH 9D 8C", "AH 7H 7C", "TH JD 6C", "QH 6S 7D"]
    m = at("opendaum", hands, "QS", ["bid 1", "bid 0", "bid 0", "bid 0"])
    assert m.to_move == 1
    assert decide(make_bot("heuristic", "opendaum"), m) == "play AH"
    m = at("opendaum", hands, "QS", ["bid 0", "bid 0", "bid 0", "bid 0"])
    assert decide(make_bot("heuristic", "opendaum"), m) in ("play 7H", "play 7C")


def test_heuristic_short_of_its_bid_by_no_more_than_its_top_trumps_ducks_the_rest() -> None:
    # seat 0 wants one trick more and holds the master trump AS: it keeps AS for later and
    # loses this trick with QH rather than take it with AH
    m = at("opendaum", ["QH AH AS", "KH 9D 8C", "TH JD 6C", "9H 7H 9C"], "QS",
           ["bid 1", "bid 0", "bid 0", "bid 1", "play KH", "play TH", "play 9H"])
    assert decide(make_bot("heuristic", "opendaum"), m) == "play QH"


def test_heuristic_plays_a_shakha_wild_only_when_it_needs_the_trick() -> None:
    # hearts trump; seat 0, last to a trick led KD, holds 6C, 7D and 8D
    hands = ["6C 7D 8D", "KD 9H 8C", "TD JD 7C", "9D 7S 9C"]
    plays = ["play KD", "play TD", "play 9D"]
    wants = at("opendaum-shakhi", hands, "QH", ["bid 0", "bid 0", "bid 0", "bid 1", *plays])
    assert decide(make_bot("heuristic", "opendaum-shakhi"), wants) == "play 6C wild"
    ducks = at("opendaum-shakhi", hands, "QH", ["bid 0", "bid 0", "bid 0", "bid 0", *plays])
    assert decide(make_bot("heuristic", "opendaum-shakhi"), ducks) == "play 8D"


# --------------------------------------------------------------------- search

def test_search_is_routed_to_the_opendaum_search() -> None:
    for game in ("opendaum", "opendaum-shakhi", "opendaum-33"):
        bot = make_bot("search", game)
        assert isinstance(bot, OpendaumSearch) and bot.name == "search:normal"
        assert make_bot("search:easy", game).name == "search:easy"


def test_search_bids_one_with_the_lone_trump_ace() -> None:
    m = at("opendaum", ["AS", "7H", "TD", "QH"], "9S", [], dealer=3)
    bot = OpendaumSearch("opendaum", iterations=30, seconds=5.0)
    assert decide(bot, m) == "bid 1"
    m = at("opendaum", ["7H", "AS", "TD", "QH"], "9S", [], dealer=3)
    assert decide(bot, m) == "bid 0"


def test_search_ducks_the_trick_it_does_not_want() -> None:
    m = at("opendaum", ["QH JH AH", "KH 9D 8C", "TH JD 6C", "9H 7S 9C"], "QS",
           ["bid 1", "bid 1", "bid 0", "bid 0", "play KH", "play TH", "play 9H"])
    assert decide(OpendaumSearch("opendaum", iterations=20, seconds=5.0), m) in ("play QH",
                                                                           "play JH")


def test_the_heuristic_rollout_finishes_the_deal_with_legal_play() -> None:
    for game, players, opts in GAMES:
        m = koloda.new_deal(game, players=players, seed=9, start_deal=3, **opts)
        det = determinize(m.observation(m.to_move), random.Random(1))
        rollout(det, random.Random(1))
        assert det.is_over and sum(det.tricks) == det.size


def test_the_plain_rollout_plays_the_same_deal_as_the_rollout_through_the_deal_state() -> None:
    checked = 0
    for game, players, opts in GAMES:
        for seed in range(40):
            m = koloda.new_deal(game, players=players, seed=seed, start_deal=seed % 8, **opts)
            st = m.current
            rng = random.Random(seed)
            for _ in range(rng.randrange(0, 3 * players + 1)):   # bids, then a few cards
                if not st.is_over:
                    st.apply(rng.choice(st.legal_actions()))
            if st.is_over:
                continue
            fast, slow = st.clone(), st.clone()
            rollout(fast)
            rollout_by_state(slow)
            checked += 1
            assert fast.is_over and fast.phase == slow.phase and fast.to_move is None
            assert fast.hands == slow.hands and fast.bids == slow.bids
            assert fast.tricks == slow.tricks and fast.taken == slow.taken
            assert fast.payoffs() == slow.payoffs() and fast.legal_actions() == []
    assert checked > 200


def test_the_classic_rollout_plays_on_int_cards_and_the_shakhi_one_through_the_state(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(state: Any) -> None:
        raise AssertionError("played through the deal state")
    monkeypatch.setattr(heuristic_module, "rollout_by_state", refuse)
    for game, opts in (("opendaum", {}), ("opendaum", {"deck": 32})):
        m = koloda.new_deal(game, players=4, seed=5, start_deal=8, **opts)
        st = m.current.clone()
        rollout(st)
        assert st.is_over and sum(st.tricks) == st.size
    m = koloda.new_deal("opendaum-shakhi", players=4, seed=5, start_deal=8)
    with pytest.raises(AssertionError, match="deal state"):
        rollout(m.current.clone())


def test_misfits_are_none_in_heuristic_play_and_count_each_other_action() -> None:
    for game, players, opts in GAMES:
        heuristic = OpendaumHeuristic(game)
        for seed in range(6):
            m = koloda.new_deal(game, players=players, seed=seed, start_deal=seed + 2, **opts)
            rng = random.Random(seed)
            while not m.is_over:
                assert all(misfits(m.current, s) == 0 for s in range(players))
                seat = m.to_move
                assert seat is not None
                m.apply(heuristic.choose(m.observation(seat), m.legal_actions(), rng))
    # seat 1 (first to bid and lead) bids 3 where the heuristic bids 0, then leads 8C where
    # the heuristic, short of its bid and with no sure winner, leads its lowest card 6H
    m = at("opendaum", ["9H 6D 7C", "6H 7D 8C", "TH JD 6C", "QH 7S 9C"], "QS",
           ["bid 3", "bid 0", "bid 0", "bid 0"])
    assert [misfits(m.current, s) for s in range(4)] == [1, 0, 1, 1]
    assert decide(OpendaumHeuristic("opendaum"), m) == "play 6H"
    m.apply("play 8C")
    assert [misfits(m.current, s) for s in range(4)] == [2, 0, 2, 2]
    heuristic = OpendaumHeuristic("opendaum")
    m.apply(heuristic.choose(m.observation(2), m.legal_actions(), random.Random(0)))
    assert [misfits(m.current, s) for s in range(4)] == [2, 0, 2, 2]


@pytest.mark.parametrize("variant", [CLASSIC, SHAKHI, THIRTY_THREE])
def test_heuristic_bot_is_built_for_every_variant(variant: Variant) -> None:
    name = {"classic": "opendaum", "shakhi": "opendaum-shakhi", "33": "opendaum-33"}
    assert isinstance(make_bot("heuristic", name[variant.name]), OpendaumHeuristic)
