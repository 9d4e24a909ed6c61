"""Pyanitsy — War (koloda/rules/pyanitsy.en.md §Precisely): every rule by name, on hand-made
piles."""

import json

import pytest

import koloda
from koloda.cards import parse_cards
from koloda.engine.deal import Deal
from koloda.engine.errors import IllegalAction
from koloda.engine.messages import Reason
from koloda.engine.records import replay
from koloda.games.pyanitsy import PyanitsyDeal
from tests.conftest import RECORDS


def deal(*piles: str, dealer: int = 0, aside: str = "", end: str = "all",
         cap: int = 10000) -> PyanitsyDeal:
    hands = tuple(tuple(parse_cards(p)) for p in piles)
    return PyanitsyDeal(Deal(dealer, hands, tuple(parse_cards(aside)), None), end, cap)


def flips(st: PyanitsyDeal, n: int) -> list[int]:
    """Flip n times; return who flipped."""
    who = []
    for _ in range(n):
        who.append(st.to_move)
        st.apply("flip")
    return who


def winner_of_last_round(st: PyanitsyDeal) -> int | None:
    last = st.observation(0).last_round
    return None if last is None else last.winner


def piles(st: PyanitsyDeal) -> list[str]:
    from koloda.cards import CARD_TEXT
    return [" ".join(CARD_TEXT[c] for c in p) for p in st.piles]


def test_deck_is_36_for_two_players_else_52() -> None:
    assert sum(len(h) for h in koloda.new_game("pyanitsy", players=2, seed=1).deals[0].hands) == 36
    m = koloda.new_game("pyanitsy", players=4, seed=1)
    assert sum(len(h) for h in m.deals[0].hands) == 52
    m = koloda.new_game("pyanitsy", players=4, seed=1, deck=36)
    assert sum(len(h) for h in m.deals[0].hands) == 36


def test_whole_deck_dealt_equally_leftover_set_aside() -> None:
    m = koloda.new_game("pyanitsy", players=5, seed=3)
    d = m.deals[0]
    assert [len(h) for h in d.hands] == [10] * 5 and len(d.stock) == 2
    assert m.observation(0)["set_aside"] == 2


def test_dealer_starts_then_each_round_the_next_seat_clockwise() -> None:
    st = deal("9S 7S 6S", "8S 9C 7D", "6C 8H AH", dealer=1)
    assert flips(st, 3) == [1, 2, 0]      # round 1: the dealer starts
    assert flips(st, 3) == [2, 0, 1]      # round 2: the dealer's left neighbour


def test_starter_skips_players_with_no_cards() -> None:
    st = deal("6S", "AS 7S", "KS 8S", dealer=2)
    assert flips(st, 3) == [2, 0, 1]      # AS takes; seat 0 is out
    assert st.out == [0]
    assert flips(st, 2) == [1, 2]          # the starter would be seat 0: skipped


def test_highest_rank_takes_all_cards_under_its_pile_in_the_order_played() -> None:
    st = deal("9S 6D", "KH 7D", "TC 8D", dealer=0)
    flips(st, 3)
    assert piles(st) == ["6D", "7D 9S KH TC", "8D"]


def test_suits_do_not_matter() -> None:
    st = deal("6S 7C", "6H 8D", dealer=0)
    flips(st, 2)                            # 6S v 6H: a tie despite the suits
    assert st.tie_step == 1


def test_tie_the_tied_players_flip_again_and_the_highest_takes_everything() -> None:
    st = deal("9S 7C 6D", "9H 8C 6H", "7S JD 6S", dealer=0)
    assert flips(st, 3) == [0, 1, 2]
    assert st.to_move == 0 and st.queue == [0, 1]   # only the tied players, in playing order
    assert flips(st, 2) == [0, 1]
    assert piles(st) == ["6D", "6H 9S 9H 7S 7C 8C", "JD 6S"]


def test_tie_repeats_while_tied() -> None:
    st = deal("9S 7C AD 6D", "9H 7D 6C 6H", dealer=0)
    flips(st, 4)                            # 9-9, then 7-7: tied again
    assert st.tie_step == 2
    flips(st, 2)                            # AD beats 6C
    assert piles(st) == ["6D 9S 9H 7C 7D AD 6C", "6H"]


def test_tied_aces_the_ace_played_first_wins_outright() -> None:
    st = deal("7S AS 6D", "AH KH", "AD 8D", dealer=1)
    assert flips(st, 3) == [1, 2, 0]        # AH (seat 1) first, then AD: tied aces
    assert st.rounds == 1 and winner_of_last_round(st) == 1


def test_a_tied_player_without_cards_drops_out_of_the_tie() -> None:
    st = deal("9S", "9H 7D", "9C 8D", "6S 6C", dealer=0)
    flips(st, 4)                            # three nines tie; seat 0 has no card left
    assert st.queue == [1, 2]
    flips(st, 2)
    assert winner_of_last_round(st) == 2


def test_if_no_tied_player_has_a_card_the_first_tied_card_takes() -> None:
    st = deal("9S", "9H", "6S 7S", dealer=0)
    flips(st, 3)
    assert winner_of_last_round(st) == 0
    assert piles(st) == ["9S 9H 6S", "", "7S"]


def test_a_player_with_no_cards_is_out() -> None:
    st = deal("6S", "AS 7S", "KS 8S", dealer=0)
    flips(st, 3)
    assert st.out == [0] and not st.is_over


def test_the_game_ends_when_one_player_holds_all_the_cards() -> None:
    st = deal("AS AC", "6S 6C", dealer=0)
    flips(st, 4)
    assert st.is_over and piles(st)[1] == ""


def test_end_first_elimination_most_cards_wins() -> None:
    m = koloda.new_game("pyanitsy", players=3, seed=5, end="first_elimination")
    while not m.is_over:
        m.apply("flip")
    res = m.result
    assert res is not None and len(res.details["out"]) == 1
    assert list(res.winners) == [s for s in range(3) if res.scores[s] == max(res.scores)]


def test_a_game_over_the_round_cap_is_a_draw() -> None:
    m = koloda.new_game("pyanitsy", players=2, seed=1, round_cap=5)
    while not m.is_over:
        m.apply("flip")
    res = m.result
    assert res is not None and res.capped and res.winners == () and res.losers == ()
    assert res.details["rounds"] == 5


def test_the_only_action_is_flip() -> None:
    m = koloda.new_game("pyanitsy", seed=1)
    assert m.legal_actions() == ["flip"]
    # another game's action gets Pyanitsy's own sentence; a word that is no action at all
    # is refused by the match, naming the one it has
    with pytest.raises(IllegalAction, match="the only action is 'flip'"):
        m.apply("play 6C")
    with pytest.raises(IllegalAction, match="actions begin with one of: flip"):
        m.apply("jump")
    # the deal's own sentence, in both languages
    reason = m.current.why_illegal("play 6C")
    assert isinstance(reason, Reason) and "the only action is 'flip'" in reason
    assert "только открывают карту" in reason.render("ru")


def test_handwritten_record_replays_to_the_hand_computed_result() -> None:
    """Seat 0 holds AS AH then every T..A left; seat 1 holds TD TH then the 6s..9s: seat 0
    wins all 18 rounds (36 flips, starters alternating 0, 1, 0, ...)."""
    data = json.loads((RECORDS / "pyanitsy-sweep.json").read_text())
    rep = replay(data)
    assert rep.error is None
    assert rep.match is not None and rep.match.result is not None
    res = rep.match.result
    assert res.winners == (0,) and res.scores == (36, 0) and res.details["rounds"] == 18


def test_example_record_replays_to_its_result() -> None:
    data = json.loads((RECORDS / "examples" / "pyanitsy.json").read_text())
    rep = replay(data)
    assert rep.error is None


def test_the_view_is_typed_and_its_json_keeps_its_shape() -> None:
    st = deal("7S AS 6D", "AH KH", "AD 8D", dealer=1)
    flips(st, 3)
    view = st.observation(2)
    assert view.table == () and view.pile_sizes == (2, 4, 1)
    assert view.last_round is not None and view.last_round.tie_steps == 0
    assert view.last_round.cards == tuple(zip((1, 2, 0), parse_cards("AH AD 7S"),
                                              strict=True))
    assert view.to_json() == {"pile_sizes": [2, 4, 1], "set_aside": 0, "round": 1,
                              "starter": 2, "table": [], "tie_step": 0,
                              "last_round": {"winner": 1, "cards": [[1, "AH"], [2, "AD"],
                                                                    [0, "7S"]],
                                             "tie_steps": 0},
                              "out": []}
    m = koloda.new_game("pyanitsy", players=3, seed=2)
    assert m.sheet().to_json() == {"cards": [17, 17, 17], "round": 0}
