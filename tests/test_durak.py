"""Durak, simple or throw-in (koloda/rules/durak.en.md §Precisely 1–22): one test per rule.

Positions are built by hand with ``DurakGame`` (any hand sizes, any stock) or, where the
match matters (dealer, first attacker, scores), with records and seeded matches.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import koloda
from koloda.cards import CARD_TEXT, deck, parse_card, parse_cards
from koloda.engine.deal import Deal
from koloda.engine.errors import ConfigError, IllegalAction
from koloda.engine.records import from_record, replay
from koloda.games.durak import DurakGame, DurakMatch
from koloda.games.durak.rounds import lowest_trump_holder
from tests.conformance import cards_in
from tests.conftest import RECORDS


# ---------------------------------------------------------------- helpers
def game(hands: list[str], stock: str = "", trump: str = "AH", *, first: int = 0,
         dealer: int | None = None, teams: bool = False, limit: int = 6,
         transfer: bool = False) -> DurakGame:
    """A game from hand-written hands; the stock top first, its last card shows trump.

    Without a stock ``trump`` names the trump card (an endgame: the stock is used up).
    """
    hs = tuple(tuple(parse_cards(h)) for h in hands)
    st = tuple(parse_cards(stock))
    tc = st[-1] if st else parse_card(trump)
    n = len(hs)
    d = (first - 1) % n if dealer is None else dealer
    return DurakGame(Deal(d, hs, st, tc), teams=teams, first_bout_limit=limit,
                     transfer=transfer, first_attacker=first)


def play(g: DurakGame, *moves: str) -> None:
    """Apply ``"SEAT ACTION"`` moves, checking that SEAT is the one to move."""
    for m in moves:
        seat, action = m.split(" ", 1)
        assert g.to_move == int(seat), f"{m!r}: seat {g.to_move} is to move; " \
                                       f"legal {g.legal_actions()}"
        g.apply(action)


def refused(g: DurakGame, action: str) -> str:
    """The reason ``action`` is refused (it must be)."""
    assert action not in g.legal_actions()
    with pytest.raises(IllegalAction) as exc:
        g.apply(action)
    return str(exc.value)


def hand(g: DurakGame, seat: int) -> list[str]:
    return sorted(CARD_TEXT[c] for c in g.hands[seat])


def full_deal(hands: list[str], trump: str, dealer: int) -> dict[str, Any]:
    """A record deal of 36 cards: the given hands, the rest in the stock, ``trump`` last."""
    used = [c for h in hands for c in h.split()]
    rest = [CARD_TEXT[c] for c in deck(36) if CARD_TEXT[c] not in used and CARD_TEXT[c] != trump]
    return {"dealer": dealer, "hands": [h.split() for h in hands], "stock": [*rest, trump],
            "trump_card": trump}


def record(deals: list[dict[str, Any]], players: int, **options: Any) -> dict[str, Any]:
    return {"format": "koloda-record/1", "game": "durak", "players": players,
            "options": options, "seed": None, "first_dealer": deals[0]["dealer"],
            "deals": deals, "actions": [], "result": None}


def random_play(m: koloda.Match, rng: random.Random) -> None:
    m.apply(rng.choice(m.legal_actions()))


# ------------------------------------------------------------- the setup
def test_players_two_to_six_with_a_36_card_deck() -> None:
    for n in range(2, 7):
        m = koloda.new_game("durak", players=n, seed=n)
        d = m.deals[0]
        cards = [c for h in d.hands for c in h] + list(d.stock)
        assert sorted(cards) == list(deck(36))
        assert all(len(h) == 6 for h in d.hands)
    for n in (1, 7):
        with pytest.raises(ConfigError):
            koloda.new_game("durak", players=n, seed=1)


def test_trump_card_is_turned_up_under_the_stock_and_drawn_last() -> None:
    m = koloda.new_game("durak", players=3, seed=5)
    d = m.deals[0]
    assert len(d.stock) == 18 and d.trump_card == d.stock[-1]
    g = m.current
    assert isinstance(g, DurakGame)
    assert g.trump == d.stock[-1] // 13
    assert g.stock[0] == d.trump_card          # the stock list is drawn from its end


def test_six_players_whole_deck_dealt_and_dealer_last_card_shows_trump() -> None:
    for seed in range(5):
        m = koloda.new_game("durak", players=6, seed=seed)
        d = m.deals[0]
        assert d.stock == ()
        assert d.trump_card == d.hands[d.dealer][-1]
        obs = m.observation((d.dealer + 1) % 6)
        assert obs["trump_card"] == CARD_TEXT[d.trump_card]
        assert obs["trump_drawn_by"] == d.dealer
        assert obs["known_cards"][d.dealer] == [CARD_TEXT[d.trump_card]]


def test_teams_default_on_for_four_and_six_players_partners_alternate() -> None:
    for n, teams in ((2, False), (3, False), (4, True), (5, False), (6, True)):
        m = koloda.new_game("durak", players=n, seed=1)
        assert m.options["teams"] is teams
    obs = koloda.new_game("durak", players=6, seed=1).observation(0)
    assert obs.deal.teams == ((0, 2, 4), (1, 3, 5))
    assert json.loads(json.dumps(obs.to_json()))["teams"] == [[0, 2, 4], [1, 3, 5]]
    assert koloda.new_game("durak", players=4, seed=1, teams=False).observation(0)["teams"] \
        is None


def test_three_or_five_players_always_play_alone() -> None:
    for n in (2, 3, 5):
        with pytest.raises(ConfigError, match=r"4 .* or 6"):
            koloda.new_game("durak", players=n, seed=1, teams=True)


def test_first_attack_of_the_first_game_by_the_holder_of_the_lowest_trump() -> None:
    deal = full_deal(["7H AS KS QS JS TS", "6H AC KC QC JC TC"], "9H", dealer=0)
    m = from_record(record([deal], 2))
    assert m.to_move == 1
    assert all(a.startswith("attack ") for a in m.legal_actions())
    # four players: seat 3 holds the lowest trump (8D), seat 1 a higher one
    deal4 = full_deal(["6S 7S 8S 9S TS JS", "QS KS AS 9D 6C 7C", "8C 9C TC JC QC KC",
                       "8D AC 6H 7H 8H 9H"], "TD", dealer=2)
    m4 = from_record(record([deal4], 4))
    assert m4.to_move == 3
    assert m4.observation(0)["defender"] == 0


def test_first_attack_left_of_the_dealer_when_nobody_holds_a_trump() -> None:
    deal = full_deal(["6S 7S 8S 9S TS JS", "6C 7C 8C 9C TC JC", "6D 7D 8D 9D TD JD"], "6H",
                     dealer=1)
    m = from_record(record([deal], 3))
    assert m.to_move == 2
    assert lowest_trump_holder(Deal(1, ((), (), ()), (parse_card("6H"),),
                                    parse_card("6H"))) == 2


def test_the_defender_is_the_next_player_clockwise_still_in_who_is_an_opponent() -> None:
    g = game(["7S 8S", "", "9S TS", "JS QS"], trump="AH", first=0, teams=True)
    assert g.in_game == [True, False, True, True]
    assert g.defender == 3                      # seat 1 is out, seat 2 is a partner
    g3 = game(["7S 8S", "", "9S TS"], trump="AH", first=0)
    assert g3.defender == 2


# ------------------------------------------------------- attack and defence
def test_attack_is_one_or_more_cards_of_one_rank_every_set_listed() -> None:
    g = game(["7S 7C 7D 9H KS", "8S 8C 8D 8H TC QC"], trump="AH")
    assert sorted(g.legal_actions()) == sorted([
        "attack 7S", "attack 7C", "attack 7D", "attack 7S 7C", "attack 7S 7D",
        "attack 7C 7D", "attack 7S 7C 7D", "attack 9H", "attack KS"])
    assert "one rank" in refused(g, "attack 7S KS")
    assert "do not hold" in refused(g, "attack 8S")
    assert "must open the round" in refused(g, "pass")


def test_the_lead_counts_toward_the_limit_of_the_defender_hand() -> None:
    g = game(["7S 7C 7D 9H KS", "8S 8C"], trump="AH")
    assert "attack 7S 7C" in g.legal_actions()
    assert "limit" in refused(g, "attack 7S 7C 7D")


def test_beat_with_a_higher_card_of_the_suit_or_any_trump_on_a_non_trump() -> None:
    g = game(["7S 7H", "8S 6S 9C 6H AH"], trump="KH")
    play(g, "0 attack 7S")
    assert sorted(g.legal_actions()) == sorted(["beat 7S 8S", "beat 7S 6H", "beat 7S AH",
                                                "take"])
    assert "does not beat" in refused(g, "beat 7S 9C")
    assert "does not beat" in refused(g, "beat 7S 6S")


def test_a_trump_is_beaten_only_by_a_higher_trump() -> None:
    g = game(["7H 7S", "6H 8H AS"], trump="KH")
    play(g, "0 attack 7H")
    assert sorted(g.legal_actions()) == ["beat 7H 8H", "take"]
    assert "higher trump" in refused(g, "beat 7H AS")


def test_the_defender_covers_uncovered_cards_in_any_order() -> None:
    g = game(["7S 7C", "8S 8C 9D"], trump="AH")
    play(g, "0 attack 7S 7C", "1 beat 7C 8C")
    assert g.to_move == 1 and g.legal_actions() == ["beat 7S 8S", "take"]
    assert "not an uncovered attack card" in refused(g, "beat 7C 9D")


def test_take_only_while_a_card_is_uncovered() -> None:
    g = game(["7S KD", "8S 9D", "QD"], trump="AH")
    play(g, "0 attack 7S", "1 beat 7S 8S")
    assert g.to_move == 0 and "take" not in g.legal_actions()
    assert "every card is covered" in refused(g, "take")


def test_nobody_throws_in_while_a_card_is_uncovered() -> None:
    g = game(["7S 7C KD", "8S 9D 9C", "7D QD"], trump="AH")
    play(g, "0 attack 7S")
    assert g.to_move == 1
    assert not [a for a in g.legal_actions() if a.startswith("throw")]
    assert "uncovered" in refused(g, "throw 7C")


def test_throw_in_only_ranks_on_the_table_one_throw_may_mix_ranks() -> None:
    g = game(["7S 9S 9C KD 7D", "9H AS AC AD JH QH"], trump="6H")
    play(g, "0 attack 7S", "1 beat 7S 9H")
    assert sorted(g.legal_actions()) == sorted([
        "throw 9S", "throw 9C", "throw 7D", "throw 9S 9C", "throw 9S 7D", "throw 9C 7D",
        "throw 9S 9C 7D", "pass"])
    assert "ranks already on the table" in refused(g, "throw KD")
    play(g, "0 throw 9S 7D")
    assert g.attacks == parse_cards("7S 9S 7D")


def test_throw_in_priority_first_attacker_then_the_others_clockwise() -> None:
    g = game(["7S 7C KD", "9S 9C AH AD QH JH", "7D 7H QS"], trump="6H")
    play(g, "0 attack 7S", "1 beat 7S 9S")
    assert g.to_move == 0                      # the first attacker is asked first
    play(g, "0 pass")
    assert g.to_move == 2
    play(g, "2 throw 7D", "1 beat 7D AD")
    assert g.to_move == 0                      # the asking starts again at the first attacker
    play(g, "0 throw 7C", "1 beat 7C 9C", "0 pass", "2 pass")
    assert g.phase == "attack" and g.to_move == 1 and g.discard
    # first attacker seat 1 (defender 2): asked 1, then clockwise past the defender, 0
    h = game(["7D QS", "7S 7C KD", "9S 9C AH AD QH JH"], trump="6H", first=1)
    play(h, "1 attack 7S", "2 beat 7S 9S")
    assert h.to_move == 1
    play(h, "1 pass")
    assert h.to_move == 0


def test_a_player_with_nothing_to_throw_answers_pass() -> None:
    g = game(["7S KD", "9S AH", "QC JC"], trump="6H")
    play(g, "0 attack 7S", "1 beat 7S 9S", "0 pass")
    assert g.to_move == 2 and g.legal_actions() == ["pass"]


def test_the_asking_restarts_at_the_first_attacker_after_a_take() -> None:
    g = game(["7S 7C KD", "9D AD QD JD", "7D 7H QS"], trump="6H")
    play(g, "0 attack 7S", "1 take")
    assert g.to_move == 0
    play(g, "0 pass", "2 throw 7D")
    assert g.to_move == 0                      # a throw after take is a change: ask again
    play(g, "0 throw 7C", "0 pass", "2 pass")
    assert hand(g, 1) == sorted(["7S", "7C", "7D", "9D", "AD", "QD", "JD"])


def test_partners_never_throw_in_at_each_other() -> None:
    g = game(["7S KD", "9S AH QD", "7C QS", "7D 7H"], trump="6H", teams=True)
    play(g, "0 attack 7S", "1 beat 7S 9S")
    asked = []
    while g.phase == "throw":
        asked.append(g.to_move)
        assert not [a for a in g.legal_actions() if a.startswith("throw")] or g.to_move != 3
        g.apply("pass")
    assert asked == [0, 2]                     # seat 3, the defender's partner, is never asked
    six = game(["7S KD", "9S AH QD", "7C", "7D", "7H", "8H"], trump="6H", teams=True)
    play(six, "0 attack 7S", "1 beat 7S 9S")
    asked = []
    while six.phase == "throw":
        asked.append(six.to_move)
        six.apply("pass")
    assert asked == [0, 2, 4]


def test_throw_ins_after_take() -> None:
    g = game(["7S 7C KS", "9D AD QD KD", "7D QS"], trump="6H")
    play(g, "0 attack 7S", "1 take", "0 throw 7C", "0 pass", "2 throw 7D", "0 pass", "2 pass")
    assert hand(g, 1) == sorted(["7S", "7C", "7D", "9D", "AD", "QD", "KD"])
    assert (g.phase, g.attacker, g.defender) == ("attack", 2, 0)


# ---------------------------------------------------------------- the limit
def test_throw_in_limit_is_six_attack_cards() -> None:
    g = game(["7S 7C 7D 7H 8S 8C 8D", "8H 9S 9C 9D AH KH QH JH"], trump="6H")
    play(g, "0 attack 7S 7C 7D 7H", "1 beat 7S 8H", "1 beat 7C 9C", "1 beat 7D 9D",
         "1 beat 7H JH")
    throws = [a for a in g.legal_actions() if a.startswith("throw")]
    assert sorted(throws) == sorted(["throw 8S", "throw 8C", "throw 8D", "throw 8S 8C",
                                     "throw 8S 8D", "throw 8C 8D"])
    assert "limit" in refused(g, "throw 8S 8C 8D")


def test_throw_in_limit_when_the_defender_has_fewer_than_six_cards_at_round_start() -> None:
    g = game(["7S 7C 7D 7H 8S", "9S AH QH"], trump="6H")
    assert g.limit == 3
    assert "attack 7S 7C 7D" in g.legal_actions()
    assert "attack 7S 7C 7D 7H" not in g.legal_actions()
    play(g, "0 attack 7S", "1 beat 7S 9S")
    # the limit counts against the three cards held when the round began, not the two left
    assert "throw 7C 7D" in g.legal_actions()
    assert "limit" in refused(g, "throw 7C 7D 7H")
    play(g, "0 throw 7C 7D", "1 beat 7C AH", "1 beat 7D QH")
    assert g.rounds == 1 and g.discard           # limit reached: beaten without asking


def test_the_limit_counts_throw_ins_after_take() -> None:
    g = game(["7S 7C 7D KS", "9D AD"], trump="6H", stock="6C 6D 8C 8D")
    play(g, "0 attack 7S", "1 take")
    assert sorted(g.legal_actions()) == ["pass", "throw 7C", "throw 7D"]
    play(g, "0 throw 7C")
    # the limit (2) is reached: nobody is asked, the round ends, the attacker leads again
    assert g.rounds == 1 and hand(g, 1) == sorted(["7S", "7C", "9D", "AD"])
    assert (g.phase, g.to_move) == ("attack", 0)


def test_nobody_is_asked_once_the_limit_is_reached() -> None:
    g = game(["7S 7C KD", "9S", "7D 7H"], trump="6H", stock="6C 6D 8C 8D 8S 9C TC JC QC KC")
    play(g, "0 attack 7S", "1 beat 7S 9S")
    assert g.rounds == 1 and (g.phase, g.to_move) == ("attack", 1)


def test_first_bout_limit_applies_up_to_and_including_the_first_beaten_round() -> None:
    stock = "6S 6C 6D 9S TS JS QS KS AS 6H"
    g = game(["7S 7C 7D 8S 8C 8D", "8H 9H TH JH QH KH"], stock=stock, trump="6H", limit=5)
    assert g.limit == 5
    play(g, "0 attack 7S 7C 7D", "1 beat 7S 8H", "1 beat 7C 9H", "1 beat 7D TH")
    assert "throw 8S 8C" in g.legal_actions()
    assert "limit" in refused(g, "throw 8S 8C 8D")
    play(g, "0 throw 8S 8C", "1 beat 8S JH", "1 beat 8C QH")
    # that was the first beaten round; from now on the limit is six
    assert g.beaten_rounds == 1 and g.limit == 6
    # a taken round before the first beaten one keeps the first-bout limit
    h = game(["7S 7C 7D 8S 8C 8D", "9C 9D TC TD JC JD"], stock=stock, trump="6H", limit=5)
    play(h, "0 attack 7S", "1 take", "0 pass")
    assert h.limit == 5


# ------------------------------------------------------- after the round
def test_beaten_cards_leave_the_game_and_the_defender_attacks_next() -> None:
    g = game(["7S KD", "9S AH", "QC JC"], trump="6H", stock="6C 6D 8C 8D 8S 9C TC TD")
    play(g, "0 attack 7S", "1 beat 7S 9S", "0 pass", "2 pass")
    assert sorted(CARD_TEXT[c] for c in g.discard) == ["7S", "9S"]
    assert (g.attacker, g.defender, g.to_move) == (1, 2, 1)


def test_after_take_the_player_after_the_defender_attacks() -> None:
    g = game(["7S KD", "9D AH", "QC JC"], trump="6H", stock="6C 6D 8C 8D 8S 9C TC TD")
    play(g, "0 attack 7S", "1 take", "0 pass", "2 pass")
    assert (g.attacker, g.defender, g.to_move) == (2, 0, 2)


def test_draw_order_first_attacker_then_clockwise_defender_last() -> None:
    # seat 1 attacks seat 2: seat 1 draws first, then seat 0, the defender 2 last
    g = game(["6S 6C 6D 8D", "7S 9C TC JC QC KC", "9S 9D TD JD QD KD"], first=1,
             stock="AS AC AD AH")
    play(g, "1 attack 7S", "2 beat 7S 9S", "1 pass", "0 pass")
    assert hand(g, 1) == sorted(["AS", "9C", "TC", "JC", "QC", "KC"])
    assert hand(g, 0) == sorted(["6S", "6C", "6D", "8D", "AC", "AD"])
    assert hand(g, 2) == sorted(["AH", "9D", "TD", "JD", "QD", "KD"])
    assert g.trump_holder == 2                   # the trump card is drawn last
    # when the stock runs out before the defender, the defender draws nothing
    h = game(["6S 6C 6D 8D", "7S 9C TC JC QC KC", "9S 9D TD JD QD KD"], first=1,
             stock="AS AC AD")
    play(h, "1 attack 7S", "2 beat 7S 9S", "1 pass", "0 pass")
    assert len(h.hands[2]) == 5 and h.trump_holder == 0


def test_the_drawn_trump_card_is_public_until_played() -> None:
    g = game(["7S 8C 9C TC JC QC", "9S AH KH QH JH TH"], stock="6C QD")
    play(g, "0 attack 7S", "1 beat 7S 9S", "0 pass")
    assert hand(g, 1) == sorted(["AH", "KH", "QH", "JH", "TH", "QD"]) and g.trump_holder == 1
    assert g.observation(0)["known_cards"][1] == ["QD"]
    assert parse_card("QD") not in g.hidden_from(0)
    play(g, "1 attack QD")
    assert g.observation(0)["known_cards"][1] == []


# ---------------------------------------------------------- leaving, the end
def test_a_player_leaves_the_moment_the_hand_is_empty_while_the_stock_is_empty() -> None:
    g = game(["7S", "9S AH QD", "7C 7D"], trump="6H")
    play(g, "0 attack 7S")
    assert g.in_game == [False, True, True]      # at once, mid-round
    play(g, "1 beat 7S 9S")
    assert g.to_move == 2                        # seat 0, out, is not asked
    play(g, "2 pass")
    assert (g.attacker, g.defender) == (1, 2)


def test_after_a_beaten_round_a_defender_who_left_is_passed_over() -> None:
    g = game(["7S 8S", "9S", "7C QD"], trump="6H")
    play(g, "0 attack 7S", "1 beat 7S 9S")
    assert g.in_game == [True, False, True]
    assert (g.attacker, g.defender) == (2, 0)


def test_the_last_player_holding_cards_is_the_durak() -> None:
    g = game(["7S", "9C 8D"], trump="6H")
    play(g, "0 attack 7S", "1 take")
    assert g.is_over and g.durak == 1 and g.still_in == [1]
    assert g.legal_actions() == []


def test_the_game_ends_after_a_round_when_no_two_players_still_in_are_opponents() -> None:
    g = game(["9C 9D TC", "7S", "KD", ""], trump="6H", first=1, teams=True)
    assert g.defender == 2
    play(g, "1 attack 7S")
    assert not g.is_over                         # seat 1 left, but the round goes on
    play(g, "2 take")
    assert g.is_over and g.still_in == [0, 2]    # partners left holding cards: team 0/2 loses
    assert g.durak == 0                          # the one with most cards


def test_team_durak_tie_goes_to_the_first_clockwise_from_the_last_defender() -> None:
    g = game(["9C 9D", "7S", "KD", ""], trump="6H", first=1, teams=True)
    play(g, "1 attack 7S", "2 take")
    assert g.durak == 2


def test_draw_when_the_last_cards_leave_every_hand_at_once() -> None:
    g = game(["7S", "9S"], trump="6H")
    play(g, "0 attack 7S", "1 beat 7S 9S")
    assert g.is_over and g.still_in == [] and g.durak is None
    m = koloda.new_game("durak", players=2, seed=1)
    assert isinstance(m, DurakMatch)
    m.end_deal(g)
    res = m.final_result(False)
    assert res.winners == () and res.losers == () and list(res.scores) == [0, 0]
    assert res.details["games"][0]["draw"] is True


def test_epaulettes_when_the_attack_on_the_durak_was_two_sixes() -> None:
    g = game(["6S 6C", "7D 8D 9D"], trump="6H")
    play(g, "0 attack 6S 6C", "1 take")
    assert g.is_over and g.durak == 1 and g.epaulettes


def test_no_epaulettes_unless_the_durak_last_defended_round_opened_with_two_sixes() -> None:
    # the durak took two sixes, but the last round defended opened with a nine
    g = game(["6S 6C 9C", "7D 8D 9S"], trump="6H")
    play(g, "0 attack 6S 6C", "1 take", "0 pass", "0 attack 9C", "1 take")
    assert g.is_over and g.durak == 1 and not g.epaulettes
    # one six, or three, is no epaulettes
    for lead in ("6S", "6S 6C 6D"):
        h = game([lead, "7D 8D 9D"], trump="6H")
        play(h, f"0 attack {lead}", "1 take")
        assert h.is_over and h.durak == 1 and not h.epaulettes
    # the lead opens the round: two sixes then a thrown-in six is still epaulettes
    k = game(["6S 6C 6D", "7D 8D 9D"], trump="6H")
    play(k, "0 attack 6S 6C", "1 take", "0 throw 6D")
    assert k.is_over and k.epaulettes


def test_epaulettes_recorded_in_the_result_details() -> None:
    m = koloda.new_game("durak", players=2, seed=1)
    assert isinstance(m, DurakMatch)
    g = game(["6S 6C", "7D 8D 9D"], trump="6H")
    play(g, "0 attack 6S 6C", "1 take")
    m.end_deal(g)
    res = m.final_result(False)
    assert res.details["epaulettes"] is True
    assert res.details["epaulettes_ru"] == "дурак с погонами"
    assert res.winners == (0,) and list(res.scores) == [0, 1]


def test_team_loss_scores_every_seat_of_the_losing_team() -> None:
    m = koloda.new_game("durak", players=4, seed=1)
    assert isinstance(m, DurakMatch)
    g = game(["9C 9D TC", "7S", "KD", ""], trump="6H", first=1, teams=True)
    play(g, "1 attack 7S", "2 take")
    m.end_deal(g)
    res = m.final_result(False)
    assert res.winners == (1, 3) and res.losers == (0, 2) and list(res.scores) == [1, 0, 1, 0]


# ------------------------------------------------------------- the match
def _games_of(m: koloda.Match, rng: random.Random) -> list[tuple[DurakGame, Deal]]:
    """Play ``m`` to its end at random; every game with its deal."""
    out = []
    while not m.is_over:
        g = m.current
        assert isinstance(g, DurakGame)
        if not out or out[-1][0] is not g:
            out.append((g, m.deals[-1]))
        random_play(m, rng)
    return out


def test_later_games_the_durak_deals_and_the_player_left_of_the_durak_attacks() -> None:
    rng = random.Random(3)
    seen = 0
    for seed in range(6):
        m = koloda.new_game("durak", players=3, seed=seed, games=4)
        games = _games_of(m, rng)
        assert isinstance(m, DurakMatch) and len(games) == 4 == len(m.games)
        for (g, deal), before in zip(games[1:], m.games, strict=False):
            if before["durak"] is not None:
                seen += 1
                assert deal.dealer == before["durak"]
                assert g.first_attacker == (before["durak"] + 1) % 3
    assert seen >= 10


def test_after_a_draw_the_dealer_is_drawn_by_lot_and_the_lowest_trump_attacks() -> None:
    dealers = set()
    for seed in range(12):
        m = koloda.new_game("durak", players=2, seed=seed, games=2)
        assert isinstance(m, DurakMatch)
        drawn = game(["7S", "9S"], trump="6H")
        play(drawn, "0 attack 7S", "1 beat 7S 9S")
        assert drawn.is_over and drawn.durak is None
        m.end_deal(drawn)
        lot = random.Random()
        assert m.rng is not None
        lot.setstate(m.rng.getstate())
        dealer = m.next_dealer()
        assert dealer == lot.randrange(2)       # the match's generator draws the lot
        dealers.add(dealer)
        deal = m.deal_cards(dealer if dealer is not None else 0, random.Random(seed))
        g = m.start_deal(deal)
        assert isinstance(g, DurakGame)
        assert g.first_attacker == lowest_trump_holder(deal)
    assert dealers == {0, 1}


def test_a_record_without_seed_takes_the_dealer_after_a_draw_from_its_deals() -> None:
    # game 1: a quick draw is impossible from a full deal, so check the hook directly
    m = from_record(record([full_deal(["6S 7S 8S 9S TS JS", "6C 7C 8C 9C TC JC"], "AH", 0),
                            full_deal(["6S 7S 8S 9S TS JS", "6C 7C 8C 9C TC JC"], "AH", 1)],
                           2, games=2))
    assert isinstance(m, DurakMatch)
    m.prev_durak = None
    m.games.append({"durak": None})
    assert m.next_dealer() == 1


def test_match_scores_count_the_games_each_side_lost() -> None:
    rng = random.Random(5)
    for n, seed in ((4, 1), (3, 2), (6, 3)):
        m = koloda.new_game("durak", players=n, seed=seed, games=3)
        _games_of(m, rng)
        assert isinstance(m, DurakMatch)
        res = m.result
        assert res is not None and not res.capped
        lost = [sum(s in gm["losers"] for gm in m.games) for s in range(n)]
        assert list(res.scores) == lost
        if m.options["teams"]:
            assert all(lost[s] == lost[s % 2] for s in range(n))
        if len(set(lost)) > 1:
            assert list(res.winners) == [s for s in range(n) if lost[s] == min(lost)]


def test_options_refuse_bad_values_with_what_is_allowed() -> None:
    with pytest.raises(ConfigError, match=r"1\.\.6"):
        koloda.new_game("durak", players=2, seed=1, first_bout_limit=7)
    with pytest.raises(ConfigError, match="at least 1"):
        koloda.new_game("durak", players=2, seed=1, games=0)
    assert koloda.get_spec("durak-podkidnoy").name == "durak"
    assert koloda.get_spec("durak", variant="simple").name == "durak"


# -------------------------------------------------------- observations
def test_observation_shows_only_what_the_seat_may_know() -> None:
    g = game(["7S 8C KD", "9D AD QD", "7D 7H QS"], stock="6C 6D AS TC", trump="TC")
    play(g, "0 attack 7S", "1 take", "0 pass", "2 throw 7D", "0 pass", "2 pass")
    obs = g.observation(0)
    assert set(obs) == {"variant", "hand", "hand_sizes", "known_cards", "table", "trump_card",
                        "trump_suit", "trump_drawn_by", "stock_size", "discard_count",
                        "discard", "phase", "attacker", "defender", "taken", "passed",
                        "limit", "in_game", "teams", "first_bout", "first_bout_limit",
                        "last_round", "plays", "opener", "played",
                        "lowest_trump_dealt"}
    assert obs["known_cards"][1] == ["7S", "7D"]  # picked up with take: public
    hidden = g.hidden_from(0)
    assert parse_card("7S") not in hidden and parse_card("9D") in hidden
    assert parse_card("TC") not in hidden        # the trump card lies face up
    assert not cards_in(obs.to_json()) & hidden
    json.dumps(obs.to_json())


def test_taken_cards_are_known_until_played() -> None:
    g = game(["7S 7C KD 8S", "9D AD QD"], trump="6H")
    play(g, "0 attack 7S", "1 take", "0 throw 7C", "0 pass")
    assert g.observation(0)["known_cards"][1] == ["7S", "7C"]
    play(g, "0 attack KD", "1 beat KD AD", "0 pass", "1 attack 7S")
    assert g.observation(0)["known_cards"][1] == ["7C"]
    assert parse_card("7S") in g.attacks


# ------------------------------------------------------------- records
def test_example_record_replays_to_its_written_result() -> None:
    data = json.loads((RECORDS / "examples" / "durak.json").read_text())
    rep = replay(data, keep_steps=False)
    assert rep.error is None
    assert rep.match is not None and rep.match.result is not None
    res = rep.match.result.to_json()
    for key in ("winners", "losers", "scores", "capped"):
        assert res[key] == data["result"][key]


def test_hand_written_two_game_record_with_epaulettes() -> None:
    """Seat 0 leads four of a kind seven times, seat 1 takes; then two sixes: epaulettes.

    Game 2 has diamonds as trump, so seat 1 holds the lowest trump (6D) — but seat 0,
    left of the durak, attacks first; seat 1, the durak, deals. Seat 1 lost both: 0 : 2.
    """
    data = json.loads((RECORDS / "durak-two-games-epaulettes.json").read_text())
    rep = replay(data, keep_steps=False)
    assert rep.error is None
    m = rep.match
    assert isinstance(m, DurakMatch) and m.result is not None
    assert m.result.winners == (0,) and m.result.losers == (1,)
    assert list(m.result.scores) == [0, 2]
    assert [gm["epaulettes"] for gm in m.games] == [True, True]
    assert [gm["first_attacker"] for gm in m.games] == [0, 0]
    assert [d.dealer for d in m.deals] == [1, 1]
    assert lowest_trump_holder(m.deals[1]) == 1
    assert m.result.details["epaulettes"] is True


def test_actions_of_other_games_are_refused_with_a_reason() -> None:
    g = game(["7S", "9S"], trump="6H")
    assert "not a durak action" in refused(g, "bid 1")
    assert "transfer durak" in refused(g, "transfer 7S")


# ------------------------------------------------------------- for search
def test_determinize_agrees_with_what_the_seat_knows() -> None:
    from tests.conformance import check_determinize
    rng = random.Random(2)
    checked = 0
    for i in range(20):
        name = "durak" if i % 2 else "durak-perevodnoy"
        m = koloda.new_game(name, players=2 + i % 5, seed=i)
        while not m.is_over:
            if rng.random() < 0.3:
                check_determinize(m, rng)
                obs = m.observation(m.to_move or 0)
                det = m.spec.determinize(obs, rng)  # type: ignore[misc]
                assert isinstance(det, DurakGame)
                for s in range(m.players):      # cards only a seat itself knows are dealt
                    if s != m.to_move:
                        known = set(obs["known_cards"][s])
                        assert known <= {CARD_TEXT[c] for c in det.hands[s]}
                checked += 1
            random_play(m, rng)
    assert checked > 100


def test_clone_is_independent_and_payoffs_charge_the_losing_side() -> None:
    g = game(["7S 8S", "9S TS"], trump="6H")
    c = g.clone()
    play(c, "0 attack 7S", "1 take")
    assert g.phase == "attack" and hand(g, 1) == ["9S", "TS"] and not g.attacks
    play(c, "0 pass", "0 attack 8S", "1 take")
    assert c.is_over and c.payoffs() == [0.0, -1.0]
    t = game(["9C 9D TC", "7S", "KD", ""], trump="6H", first=1, teams=True)
    play(t, "1 attack 7S", "2 take")
    assert t.payoffs() == [-1.0, 0.0, -1.0, 0.0]
    d = game(["7S", "9S"], trump="6H")
    play(d, "0 attack 7S", "1 beat 7S 9S")
    assert d.payoffs() == [0.0, 0.0]
