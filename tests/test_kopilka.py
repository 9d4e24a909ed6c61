"""Kopilka (koloda/rules/kopilka.en.md §Precisely), rule by rule, on hand-made deals and
hand-written records.

Most positions are built straight from ``KopilkaDeal`` with short hands (the deal does not
insist on five cards; the match does), a talon given top first and a fresh ``Purse`` as at
the start of a match: every balance −10, the pot 40.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import koloda
from koloda.cards import CARD_TEXT, deck, parse_cards
from koloda.engine.deal import Deal
from koloda.engine.errors import IllegalAction
from koloda.engine.records import replay
from koloda.engine.view import View, fields_of
from koloda.games.kopilka import KopilkaDeal, Purse
from koloda.games.kopilka.views import KopilkaSheet, KopilkaView, OfferView, SuitValues
from tests.conformance import cards_in
from tests.conftest import RECORDS

VALUES = (1, 3, 2, 4)   # by suit S C D H: the defaults


def table(hands: list[str], talon: str | None = None, dealer: int = 3, final: bool = False,
          pot: int = 40, values: tuple[int, ...] = VALUES) -> KopilkaDeal:
    """Seat ``dealer + 1`` (seat 0 by default) is first in the exchange and leads first."""
    parsed = [parse_cards(h) for h in hands]
    if talon is None:
        used = {c for h in parsed for c in h}
        rest = [c for c in deck(32) if c not in used]
    else:
        rest = parse_cards(talon)
    purse = Purse([-10] * 4, pot)
    return KopilkaDeal(Deal(dealer, tuple(tuple(h) for h in parsed), tuple(rest)), purse,
                       values, 5, 5, final)


def run(st: KopilkaDeal, *actions: str) -> None:
    for a in actions:
        st.apply(a)


def hand(st: KopilkaDeal, seat: int) -> str:
    return " ".join(CARD_TEXT[c] for c in st.hands[seat])


#: five cards each, no three of a suit (no exchange); seat 1 holds AS
FULL = ["7H 8H 7C 8C 7D", "9H TH 9C AS 8D", "JH QH JC QC 9D", "KH AH KC AC TD"]


# ------------------------------------------------------------- the table
def test_four_players_32_cards_five_each_and_a_talon_of_twelve() -> None:
    assert koloda.get_spec("kopilka").players == (4,)
    with pytest.raises(koloda.ConfigError):
        koloda.new_game("kopilka", players=3, seed=1)
    d = koloda.new_game("kopilka", seed=8).deals[0]
    assert [len(h) for h in d.hands] == [5, 5, 5, 5] and len(d.stock) == 12
    assert d.trump_card is None
    assert sorted([c for h in d.hands for c in h] + list(d.stock)) == list(deck(32))


def test_every_player_pays_the_stake_into_the_pot_at_the_start() -> None:
    m = koloda.new_game("kopilka", seed=1, stake=15)
    sheet = m.observation(2)["sheet"]
    assert sheet["money"] == [-15] * 4 and sheet["pot"] == 60


def test_a_match_is_four_deals_and_the_dealer_rotates() -> None:
    m = koloda.new_game("kopilka", seed=12)
    rng = random.Random(3)
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()))
    first = m.first_dealer
    assert [d.dealer for d in m.deals] == [(first + i) % 4 for i in range(4)]
    assert m.deals_played == 4 and m.result is not None and not m.result.capped


def test_trick_values_option_is_validated() -> None:
    for bad in ({"H": 4, "C": 3, "D": 2}, {"H": 4, "C": 3, "D": 2, "S": -1},
                {"H": 4, "C": 3, "D": 2, "S": 1, "X": 0}, {"H": 4.5, "C": 3, "D": 2, "S": 1},
                {"H": True, "C": 3, "D": 2, "S": 1}, [4, 3, 2, 1]):
        with pytest.raises(koloda.ConfigError):
            koloda.new_game("kopilka", seed=1, values=bad)
    m = koloda.new_game("kopilka", seed=1, values={"H": 10, "C": 3, "D": 2, "S": 1})
    assert m.values == (1, 3, 2, 10)
    assert m.record()["options"] == {"values": {"H": 10, "C": 3, "D": 2, "S": 1}}


def test_trick_value_is_the_led_suits_value() -> None:
    for s, value in (("H", 4), ("C", 3), ("D", 2), ("S", 1)):
        o = "C" if s == "H" else "H"     # a second card of another suit: nobody sheds
        st = table([f"7{s} 7{o}", f"9{s} 9{o}", f"T{s} T{o}", f"J{s} J{o}"], "")
        run(st, f"play 7{s}", f"play 9{s}", f"play T{s}", f"play J{s}")
        assert [dict(t) for t in st.won[3]] == [{"suit": s, "mushka": False, "value": value,
                                                 "paid": value}]
        assert st.purse.balances[3] == -10 + value and st.purse.pot == 40 - value


def test_custom_values_pay_their_amounts() -> None:
    st = table(["7H 8D", "9H 9D", "TH TD", "JH JD"], "", values=(1, 3, 2, 10))
    run(st, "play 7H", "play 9H", "play TH", "play JH")
    assert st.purse.balances[3] == 0


# ---------------------------------------------------------------- play
def test_the_player_left_of_the_dealer_leads_first() -> None:
    for dealer in range(4):
        st = table(FULL, dealer=dealer)
        assert st.phase == "play" and st.to_move == (dealer + 1) % 4


def test_no_trumps_the_highest_card_of_the_led_suit_wins() -> None:
    st = table(FULL)
    run(st, "play 7C", "play 9C", "play JC", "play AC")
    assert st.won[3][0]["suit"] == "C" and st.to_move == 3


def test_a_responder_plays_the_led_suit_or_AS_or_passes() -> None:
    st = table(FULL)
    st.apply("play 7H")
    assert st.legal_actions() == ["play AS", "play 9H", "play TH", "pass"]
    with pytest.raises(IllegalAction, match="must play hearts or AS, pass or draw: you hold"):
        st.apply("play 9C")


def test_AS_beats_a_hearts_trick_and_pays_8() -> None:
    st = table(FULL)
    run(st, "play 7H", "play AS", "play QH", "play AH")   # AS played holding 9H TH
    assert [dict(t) for t in st.won[1]] == [{"suit": "H", "mushka": True, "value": 8, "paid": 8}]
    assert st.purse.balances == [-10, -2, -10, -10] and st.purse.pot == 32
    assert st.to_move == 1


def test_AS_led_is_a_spade_lead_and_wins_at_double_spade_value() -> None:
    st = table(["AS 7H", "KS 8H", "QS 9H", "7S TH"], "")
    run(st, "play AS")
    assert st.trick is not None and st.trick.led == 0
    run(st, "play KS", "play QS", "play 7S")
    assert [dict(t) for t in st.won[0]] == [{"suit": "S", "mushka": True, "value": 2, "paid": 2}]


def test_passing_while_holding_the_led_suit_costs_a_remiz_at_once() -> None:
    st = table(FULL)
    run(st, "play 7H", "pass")                  # seat 1 holds 9H TH
    assert st.purse.balances[1] == -15 and st.purse.pot == 45
    assert st.purse.log[-1] == ["remiz: passed holding the led suit", 1, -5]


def test_passing_while_void_costs_nothing() -> None:
    st = table(["7H 8H", "7C 8C", "9H 9C", "TH TC"], "")
    st.apply("play 7H")
    assert st.legal_actions() == ["pass"]       # void, and the talon is empty
    st.apply("pass")
    assert st.purse.balances[1] == -10 and st.purse.pot == 40


def test_AS_counts_as_a_spade_so_holding_it_on_a_spade_lead_is_holding_the_suit() -> None:
    st = table(["7S 7H", "AS 8H", "8S 9H", "9S TH"], "7D")
    st.apply("play 7S")
    assert st.legal_actions() == ["play AS", "pass"]      # not void: no draw
    with pytest.raises(IllegalAction, match="only while void in spades: you hold AS"):
        st.apply("draw")
    st.apply("pass")
    assert st.purse.balances[1] == -15


def test_draw_only_while_void_in_the_led_suit_and_the_talon_not_empty() -> None:
    st = table(["7H 8H", "7C 8C", "9H 9C", "7D TC"], "JH")
    st.apply("play 7H")
    assert st.legal_actions() == ["pass", "draw"]
    run(st, "draw", "play JH")
    with pytest.raises(IllegalAction, match="only while void in hearts: you hold 9H"):
        st.apply("draw")
    st.apply("pass")
    assert st.legal_actions() == ["pass"]                  # seat 3 void, the talon empty
    with pytest.raises(IllegalAction, match="the talon is empty"):
        st.apply("draw")


def test_holding_AS_on_a_hearts_lead_is_still_void_in_hearts() -> None:
    st = table(["7H 8H", "AS 7C", "9H 9C", "TH TC"], "7D")
    st.apply("play 7H")
    assert st.legal_actions() == ["play AS", "pass", "draw"]
    st.apply("pass")                                       # void in hearts: no remiz
    assert st.purse.balances[1] == -10


def test_draw_does_not_end_the_turn() -> None:
    st = table(["7H 8H", "7C 8C", "9H 9C", "7D TC"], "7S JH QH")
    run(st, "play 7H", "draw")
    assert st.to_move == 1 and hand(st, 1) == "7S 7C 8C"
    run(st, "draw")
    assert st.to_move == 1 and hand(st, 1) == "7S 7C 8C JH"
    assert st.observation(2)["trick"]["draws"] == [0, 2, 0, 0]
    st.apply("play JH")
    assert st.to_move == 2


def test_a_pass_after_drawing_the_led_suit_costs_a_remiz() -> None:
    st = table(["7H 8H", "7C 8C", "9H 9C", "7D TC"], "JH")
    run(st, "play 7H", "draw", "pass")
    assert st.purse.balances[1] == -15


def test_the_leader_never_draws_or_passes() -> None:
    st = table(FULL)
    assert all(a.startswith("play") for a in st.legal_actions())
    with pytest.raises(IllegalAction, match="the leader never passes or draws"):
        st.apply("draw")
    with pytest.raises(IllegalAction, match="the leader never passes or draws"):
        st.apply("pass")


def test_no_leading_the_suit_of_the_previous_trick() -> None:
    st = table(FULL)
    run(st, "play 7H", "play AS", "play QH", "play AH")   # seat 1 wins a hearts trick
    assert st.legal_actions() == ["play 9C", "play 8D"]
    with pytest.raises(IllegalAction, match="may not lead hearts, the suit of the last trick"):
        st.apply("play 9H")


def test_the_previous_suit_may_be_led_when_every_card_is_of_that_suit() -> None:
    st = table(["7H 7D", "AH KH", "8H 8D", "9H 9D"], "")
    run(st, "play 7H", "play AH", "play 8H", "play 9H")
    assert st.to_move == 1 and st.legal_actions() == ["play KH"]


def test_AS_counts_as_a_spade_for_the_lead_restriction() -> None:
    st = table(["7S 7D", "KS AS 8D", "8S 9D", "9S TD"], "")
    run(st, "play 7S", "play KS", "play 8S", "play 9S")
    assert st.to_move == 1 and st.legal_actions() == ["play 8D"]


def test_a_failed_lead_is_taken_back_and_the_lead_passes_to_the_next_seat() -> None:
    st = table(["7H 7D 8D", "AH 9C TC", "8H 9H 9D", "TH JH TD"], "")
    run(st, "play 7H", "play AH", "play 8H", "play TH")     # seat 1 wins hearts
    run(st, "play 9C", "pass", "pass", "pass")               # nobody holds clubs
    assert hand(st, 1) == "9C TC" and st.failed == 1 and st.to_move == 2
    # the restriction follows the last completed trick (hearts), not the failed lead
    assert st.legal_actions() == ["play 9D"]


def test_a_pass_during_a_failed_lead_still_costs_a_remiz() -> None:
    st = table(FULL)
    run(st, "play 7H", "pass", "pass", "pass")
    assert st.purse.balances == [-10, -15, -15, -15] and st.purse.pot == 55
    assert st.failed == 1 and st.to_move == 1 and hand(st, 0) == "7C 8C 7D 7H 8H"


def test_four_failed_leads_in_a_row_block_the_deal() -> None:
    st = table(["7H 8H", "7C 8C", "7D 8D", "7S 8S"], "")
    for leader, c in ((0, "7H"), (1, "7C"), (2, "7D")):
        run(st, f"play {c}", "pass", "pass", "pass")
        assert not st.is_over and st.to_move == (leader + 1) % 4
    run(st, "play 7S", "pass", "pass", "pass")
    assert st.is_over and st.blocked and st.first_to_shed is None


def test_a_completed_trick_resets_the_failed_lead_count() -> None:
    st = table(["7H 8H", "7C 8C", "7D 8D", "7S 8S 9H"], "")
    for c in ("7H", "7C", "7D"):
        run(st, f"play {c}", "pass", "pass", "pass")
    assert st.failed == 3 and st.to_move == 3
    run(st, "play 9H", "play 8H", "pass", "pass")
    assert st.failed == 0 and not st.is_over
    run(st, "play 7S", "pass", "pass", "pass")
    assert st.failed == 1 and not st.is_over


def test_the_deal_ends_when_a_player_sheds_after_a_trick() -> None:
    st = table(["7H", "8H 7C", "9H 7D", "TH 7S"], "")
    run(st, "play 7H", "play 8H", "play 9H", "play TH")
    assert st.is_over and st.first_to_shed == 0


def test_if_two_shed_in_one_trick_the_one_who_played_first() -> None:
    st = table(["7H 7D", "8H", "9H", "TH 7C"], "")
    run(st, "play 7H", "play 8H", "play 9H", "play TH")
    assert st.is_over and st.first_to_shed == 1


# --------------------------------------------------------------- money
def test_a_trick_pays_at_most_what_the_pot_holds() -> None:
    st = table(["7H 7D 8D", "8H 9C", "9H TC", "TH JC 9D"], "", pot=3)
    run(st, "play 7H", "play 8H", "play 9H", "play TH")
    assert st.won[3][0]["paid"] == 3 and st.purse.pot == 0 and st.purse.balances[3] == -7
    run(st, "play 9D", "play 8D", "pass", "pass")
    assert st.won[3][1]["paid"] == 0 and st.purse.pot == 0


def test_deal_end_no_trick_remizes_then_fees_from_all_but_the_first_to_shed() -> None:
    st = table(["7H", "8H 7C", "9H 7D", "TH 7S"], "")
    run(st, "play 7H", "play 8H", "play 9H", "play TH")
    assert [e[:2] for e in st.purse.log] == [
        ["trick H", 3], ["remiz: no trick", 0], ["remiz: no trick", 1], ["remiz: no trick", 2],
        ["fee", 1], ["fee", 2], ["fee", 3]]
    assert st.purse.balances == [-15, -20, -20, -11] and st.purse.pot == 66


def test_a_blocked_deal_has_no_first_to_shed_so_everyone_pays_the_fee() -> None:
    st = table(["7H 8H", "7C 8C", "7D 8D", "7S 8S"], "")
    for c in ("7H", "7C", "7D", "7S"):
        run(st, f"play {c}", "pass", "pass", "pass")
    assert [e[0] for e in st.purse.log] == ["remiz: no trick"] * 4 + ["fee"] * 4
    assert st.purse.balances == [-20] * 4 and st.purse.pot == 80


def test_the_final_pot_goes_to_the_first_to_shed_in_the_4th_deal() -> None:
    st = table(["7H", "8H 7C", "9H 7D", "TH 7S"], "", final=True)
    run(st, "play 7H", "play 8H", "play 9H", "play TH")
    assert st.purse.log[-1] == ["final pot", 0, 66]
    assert st.purse.balances == [51, -20, -20, -11] and st.purse.pot == 0


def test_a_blocked_4th_deal_the_fewest_cards_share_and_the_remainder_stays() -> None:
    st = table(["7H", "7C", "7D", "7S 8S"], "", final=True)
    for c in ("7H", "7C", "7D", "7S"):
        run(st, f"play {c}", "pass", "pass", "pass")
    assert st.blocked
    # pot 40 + 4 no-trick remizes + 4 fees = 80; seats 0, 1, 2 hold one card: 26 each
    assert st.purse.balances == [6, 6, 6, -20] and st.purse.pot == 2


def test_a_capped_match_leaves_the_pot_undistributed() -> None:
    m = koloda.new_game("kopilka", seed=5, max_deals=2)
    rng = random.Random(5)
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()))
    assert m.result is not None and m.result.capped and m.deals_played == 2
    pot = m.purse.pot
    assert pot > 0 and sum(m.result.scores) == -pot and m.result.details["pot"] == pot


def test_money_always_adds_up_to_zero_with_the_stakes() -> None:
    for seed in range(6):
        opts: dict[str, Any] = {"stake": 7 + seed, "fee": seed, "remiz": 3}
        m = koloda.new_game("kopilka", seed=seed, **opts)
        rng = random.Random(seed)
        purse: Purse = m.purse
        while True:
            assert purse.pot + sum(purse.balances) == 0 and purse.pot >= 0
            assert sum(e[2] for e in purse.log) == sum(purse.balances)
            if m.is_over:
                break
            m.apply(rng.choice(m.legal_actions()))
        assert m.result is not None and list(m.result.scores) == purse.balances
        assert sum(m.result.scores) == -purse.pot


# ------------------------------------------------------------ exchange
#: dealer 3. Seat 0 holds three hearts; seat 1 two hearts; seat 3 two hearts and picks a
#: third in seat 0's offer
EXCHANGE = ["7H 8H 9H 7C 7D", "TH JH 8C 9C 8D", "QH 9D TD TC JC", "KH AH JD QD QC"]
EXCHANGE_TALON = "7S 8S 9S TS JS QS KS AS KC AC KD AD"


def test_three_or_more_of_a_suit_must_be_laid_face_down_at_once() -> None:
    st = table(EXCHANGE, EXCHANGE_TALON)
    assert st.offer is not None and st.offer.offerer == 0
    assert hand(st, 0) == "7C 7D" and st.to_move == 1       # no choice for the offerer
    assert st.legal_actions() == ["pick 0", "pick 1", "pick 2"]


def test_offered_cards_lie_sorted_and_pick_takes_the_card_at_that_position() -> None:
    st = table(EXCHANGE, EXCHANGE_TALON)
    st.apply("pick 2")                                   # 7H 8H 9H: position 2 is 9H
    assert hand(st, 1) == "8C 9C 8D 9H TH JH"
    assert st.legal_actions() == [f"discard {c}" for c in "8C 9C 8D 9H TH JH".split()]
    st.apply("discard 8D")
    assert st.to_move == 2 and st.legal_actions() == ["pick 0", "pick 1"]  # kept numbers
    with pytest.raises(IllegalAction, match="position 2 is already taken"):
        st.apply("pick 2")


def test_each_picker_in_turn_from_the_offerers_left_picks_then_discards() -> None:
    st = table(EXCHANGE, EXCHANGE_TALON)
    order = []
    for pick in ("pick 2", "pick 0", "pick 1"):
        order.append(st.to_move)
        st.apply(pick)
        with pytest.raises(IllegalAction, match="now discard one card"):
            st.apply("pick 0")
        seat = st.to_move
        assert seat is not None
        st.apply(f"discard {CARD_TEXT[st.hands[seat][0]]}")
    assert order == [1, 2, 3]


def test_a_picker_may_discard_the_picked_card() -> None:
    st = table(EXCHANGE, EXCHANGE_TALON)
    run(st, "pick 0", "discard 7H")
    assert hand(st, 1) == "8C 9C 8D TH JH" and st.discards[1] == parse_cards("7H")


def test_the_offerer_takes_back_untaken_cards_and_draws_as_many_as_were_taken() -> None:
    st = table(["7S 8S 9S TS 7C", "TH JH 8C 9C 8D", "QH 9D TD TC JC", "KH AH JD QD QC"],
               "AS JS 7H 8H 9H QS KS KC AC KD AD 7D")
    assert st.offer is not None and len(st.offer.cards) == 4
    run(st, "pick 3", "discard 8D", "pick 0", "discard 9D", "pick 2", "discard JD")
    # positions 7S 8S 9S TS: 3 → TS, 0 → 7S, 2 → 9S are taken; 8S goes back
    assert hand(st, 0) == "8S JS AS 7C 7H"               # 8S back, AS JS 7H drawn
    assert len(st.talon) == 9
    assert st.offers[0].taken == [2, None, 3, 1]


def test_the_exchange_is_checked_at_each_players_own_turn_and_never_twice() -> None:
    st = table(EXCHANGE, EXCHANGE_TALON)
    run(st, "pick 2", "discard 8D", "pick 0", "discard 7H", "pick 1", "discard JD")
    assert hand(st, 0) == "7S 8S 9S 7C 7D"      # three spades now: no second round
    assert st.offer is not None and st.offer.offerer == 1   # 9H TH JH at its own turn
    run(st, "pick 1", "discard 9D", "pick 0", "discard 9H", "pick 2", "discard JH")
    # seat 2 holds two hearts; seat 3 holds 8H KH AH after picking 8H: it offers them
    assert st.offer is not None and st.offer.offerer == 3
    run(st, "pick 2", "discard 7D", "pick 0", "discard 8H", "pick 1", "discard TC")
    assert st.phase == "play" and st.to_move == 0 and len(st.talon) == 3


def test_AS_is_not_exempt_from_the_exchange() -> None:
    st = table(["AS 7S 8S 7C 7D", "TH JH 8C 9C 8D", "QH 9D TD TC JC", "KH AH JD QD QC"])
    assert st.offer is not None and [CARD_TEXT[c] for c in st.offer.cards] == ["7S", "8S", "AS"]
    st.apply("pick 2")
    assert "AS" in hand(st, 1)


def test_offered_cards_are_hidden_from_everyone_but_their_owner() -> None:
    st = table(EXCHANGE, EXCHANGE_TALON)
    st.apply("pick 1")
    for seat in range(4):
        obs = st.observation(seat)
        assert obs["exchange"]["count"] == 3 and obs["exchange"]["taken"] == [None, 1, None]
        assert ("cards" in obs["exchange"]) == (seat == 0)
        assert not cards_in(obs.to_json()) & st.hidden_from(seat)
    assert {"7H", "9H"} <= {CARD_TEXT[c] for c in st.hidden_from(2)}
    assert "8H" not in {CARD_TEXT[c] for c in st.hidden_from(1)}   # the picker holds it


# --------------------------------------------------------- observations
def test_observation_shows_money_tricks_and_talon_size_but_never_the_talon_order() -> None:
    m = koloda.new_game("kopilka", seed=4)
    rng = random.Random(4)
    for _ in range(60):
        if m.is_over:
            break
        for seat in range(4):
            obs = m.observation(seat)
            assert isinstance(obs["talon"], int)
            assert obs["money"] == obs["sheet"]["money"] and "pot" in obs
            assert len(obs["tricks"]) == 4
            assert not cards_in(obs.to_json()) & m.hidden_from(seat)
            assert not cards_in(obs.to_json()) & set(m.current.talon)
        m.apply(rng.choice(m.legal_actions()))


# -------------------------------------------------------------- records
def _replayed(name: str) -> tuple[dict[str, Any], Any]:
    data = json.loads((RECORDS / name).read_text())
    out = replay(data)
    assert out.ok, out.error
    assert out.match is not None and out.match.result is not None
    return data, out.match


def test_the_example_record_replays_to_its_written_result() -> None:
    data, match = _replayed("examples/kopilka.json")
    res = match.result.to_json()
    for key in ("winners", "losers", "scores", "capped"):
        assert res[key] == data["result"][key]
    assert sum(res["scores"]) == 0 and match.purse.pot == 0


def test_hand_written_exchange_and_play_record() -> None:
    _, match = _replayed("kopilka-exchange-and-play.json")
    res = match.result
    assert res.scores == (-6, -11, -25, -7) and res.winners == (0,) and res.capped
    assert match.purse.pot == 49
    deal = res.details["deals"][0]
    assert deal["first_to_shed"] == 0
    assert [len(t) for t in deal["tricks"]] == [1, 2, 0, 4]


def test_hand_written_blocked_deals_record_shares_the_last_pot() -> None:
    _, match = _replayed("kopilka-blocked-deals.json")
    res = match.result
    assert res.scores == (29, 30, -30, -30) and res.winners == (1,) and not res.capped
    assert [d["blocked"] for d in res.details["deals"]] == [True] * 4
    assert match.purse.pot == 1 and res.details["pot"] == 1


# ------------------------------------------------------------- typed views
def _random_positions(seeds: range) -> Iterator[koloda.Match]:
    """Matches of random play, yielded at every decision."""
    for seed in seeds:
        rng = random.Random(seed)
        m = koloda.new_game("kopilka", seed=seed)
        while not m.is_over:
            yield m
            m.apply(rng.choice(m.legal_actions()))


def _json_keys(view: View) -> set[str]:
    names = getattr(view, "json_names", {})
    return {names.get(f.name, f.name) for f in fields_of(view)}


def test_every_view_field_is_declared_with_a_term_of_the_vocabulary() -> None:
    spec = koloda.get_spec("kopilka")
    assert {KopilkaView, KopilkaSheet, OfferView} <= set(spec.views)
    offers = 0
    for m in _random_positions(range(2)):
        obs = m.observation(m.to_move)   # type: ignore[arg-type]
        deal = obs.deal
        assert isinstance(deal, KopilkaView) and isinstance(obs.sheet, KopilkaSheet)
        hash(obs)                        # tuples and views all the way down
        assert set(deal.to_json()) == _json_keys(deal)
        assert set(obs.sheet.to_json()) == _json_keys(obs.sheet)
        for offer in [*deal.offers, *([deal.exchange] if deal.exchange else [])]:
            # a key only its owner (cards) or its picker (picked) has, as before
            assert set(offer.to_json()) <= _json_keys(offer)
            offers += 1
        assert deal.suit_values == SuitValues(1, 3, 2, 4) and obs["values"]["H"] == 4
        assert [len(w) for w in deal.tricks_taken] == [len(w) for w in obs["tricks"]]
    assert offers


def test_the_public_view_names_no_card_hidden_from_any_seat() -> None:
    checked = 0
    for m in _random_positions(range(8)):
        hidden = set().union(*(m.hidden_from(s) for s in range(4)))
        public = m.public_observation().to_json()
        assert public["seat"] is None
        assert "hand" not in public and "my_discards" not in public
        for offer in public["offers"] + [public["exchange"] or {}]:
            assert "cards" not in offer and "picked" not in offer
        assert not cards_in(public) & hidden
        checked += 1
    assert checked > 300
