"""Stukolka (koloda/rules/stukolka.en.md §Precisely), rule by rule, on hand-made deals and
hand-written records."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import koloda
from koloda.cards import CARD_TEXT, deck, parse_card, parse_cards
from koloda.engine.deal import Deal
from koloda.engine.errors import IllegalAction, RecordError
from koloda.engine.records import from_record, replay
from koloda.engine.terms import term
from koloda.engine.view import fields_of
from koloda.games.stukolka import StukolkaDeal, StukolkaMatch, draw_for_first_dealer
from koloda.games.stukolka.views import DealerDraw, StukolkaSheet, StukolkaView
from tests.conformance import cards_in
from tests.conftest import RECORDS
from tests.positions import random_positions

DECK36 = [CARD_TEXT[c] for c in deck(36)]


def deal_json(dealer: int, hands: list[str], turned: str,
              stock_prefix: tuple[str, ...] = ()) -> dict[str, Any]:
    """A deal of the 36-card deck: these hands, the turned card, the stock's first cards,
    then every other card in canonical order."""
    hs = [h.split() for h in hands]
    used = {c for h in hs for c in h} | {turned} | set(stock_prefix)
    rest = [c for c in DECK36 if c not in used]
    return {"dealer": dealer, "hands": hs, "stock": [*stock_prefix, *rest], "trump_card": turned}


def state(dealer: int, hands: list[str], turned: str, stock_prefix: tuple[str, ...] = (),
          pot: int = 3) -> StukolkaDeal:
    d = deal_json(dealer, hands, turned, stock_prefix)
    deal = Deal(dealer, tuple(tuple(parse_cards(h)) for h in d["hands"]),
                tuple(parse_cards(d["stock"])), parse_card(turned))
    return StukolkaDeal(deal, pot)


def match(deal_list: list[dict[str, Any]], players: int = 4, **options: Any) -> koloda.Match:
    return from_record({"format": "koloda-record/1", "game": "stukolka", "players": players,
                        "options": options, "seed": None,
                        "first_dealer": deal_list[0]["dealer"], "deals": deal_list,
                        "actions": []})


def run(st: StukolkaDeal | koloda.Match, *actions: str) -> None:
    for a in actions:
        st.apply(a)


#: four hands, dealer 0: seat 1 AS KD 6C, seat 2 hearts, seat 3 diamonds, seat 0 low cards
HANDS = ["6H 7H 8C", "AS KD 6C", "8H 9H TH", "QD JD 6D"]


# ---------------------------------------------------------------- set-up
def test_four_to_seven_players() -> None:
    assert koloda.get_spec("stukolka").players == (4, 5, 6, 7)
    for bad in (3, 8):
        with pytest.raises(koloda.ConfigError):
            koloda.new_game("stukolka", players=bad, seed=1)


def test_deck_36_by_default_52_as_option() -> None:
    m = koloda.new_game("stukolka", players=4, seed=1)
    d = m.deals[-1]
    cards = [c for h in d.hands for c in h] + list(d.stock) + [d.trump_card]
    assert sorted(cards) == list(deck(36))
    m = koloda.new_game("stukolka", players=4, seed=1, deck=52)
    d = m.deals[-1]
    assert len([c for h in d.hands for c in h]) + len(d.stock) + 1 == 52
    with pytest.raises(koloda.ConfigError):
        koloda.new_game("stukolka", players=4, seed=1, deck=32)


def test_three_cards_each_and_the_next_card_turned_up_for_trump() -> None:
    m = koloda.new_game("stukolka", players=6, seed=3)
    d = m.deals[-1]
    assert [len(h) for h in d.hands] == [3] * 6
    assert d.trump_card is not None and d.trump_card not in d.stock
    obs = m.observation(0)
    assert obs["trump_card"] == CARD_TEXT[d.trump_card]


class _Rigged(random.Random):
    """A generator whose shuffles put the given cards on top, in order (pop() draws)."""

    def __init__(self, tops: list[list[str]]) -> None:
        super().__init__(0)
        self.tops = tops

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        top = parse_cards(self.tops.pop(0))
        rest = [c for c in x if c not in top]
        x[:] = rest + top[::-1]


def test_first_dealer_draws_the_lowest_card_and_ties_redraw() -> None:
    # seats 1 and 3 tie with sixes; they draw again from the same pack: seat 3's 7 is lower
    draw = draw_for_first_dealer(_Rigged([["9C", "6S", "KD", "6H", "AH", "7C"]]), 4, 36)
    assert draw["dealer"] == 3
    assert draw["rounds"] == [[[0, "9C"], [1, "6S"], [2, "KD"], [3, "6H"]],
                              [[1, "AH"], [3, "7C"]]]


def test_first_dealer_draw_is_public_on_the_sheet_and_in_the_result() -> None:
    m = koloda.new_game("stukolka", players=4, seed=11, deals=1, max_deals=1)
    sheet = m.observation(2)["sheet"]["first_dealer_draw"]
    assert sheet["dealer"] == m.first_dealer == m.deals[0].dealer
    # ranks only on the sheet: the draw's suits decide nothing
    assert all(len(rank) == 1 for rnd in sheet["rounds"] for _, rank in rnd)
    again = from_record(json.loads(json.dumps(m.record())))
    assert again.observation(2)["sheet"]["first_dealer_draw"] == sheet


def test_ante_default_three_must_be_a_multiple_of_three() -> None:
    assert koloda.get_spec("stukolka").defaults(5)["ante"] == 3
    for bad in (0, 4, 5):
        with pytest.raises(koloda.ConfigError):
            koloda.new_game("stukolka", players=4, seed=1, ante=bad)
    koloda.new_game("stukolka", players=4, seed=1, ante=6)


def test_dealer_pays_the_ante_into_the_pot_every_deal() -> None:
    m = match([deal_json(0, HANDS, "7S"), deal_json(1, HANDS, "7S")], ante=6)
    assert isinstance(m, StukolkaMatch)
    assert m.balances == [-6, 0, 0, 0] and m.pot == 6
    run(m, "drop", "drop", "drop", "drop")          # nobody plays: the pot stays
    assert m.balances == [-6, -6, 0, 0] and m.pot == 12


def test_deals_default_two_per_player() -> None:
    spec = koloda.get_spec("stukolka")
    assert [spec.defaults(n)["deals"] for n in (4, 5, 7)] == [8, 10, 14]


# ---------------------------------------------------------------- redeal
def test_trump_ace_turned_up_is_redealt_by_the_same_dealer_without_ante_not_counted() -> None:
    m = match([deal_json(0, HANDS, "AH"), deal_json(0, HANDS, "7S")])
    assert isinstance(m, StukolkaMatch)
    assert len(m.deals) == 2 and [d.dealer for d in m.deals] == [0, 0]
    assert m.deals_played == 0                       # the redeal does not count
    assert m.balances == [-3, 0, 0, 0] and m.pot == 3   # one ante only
    assert m.to_move == 1


def test_a_redeal_has_no_actions() -> None:
    st = state(0, HANDS, "AD")
    assert st.redeal and st.is_over and st.legal_actions() == []


# ---------------------------------------------------------------- declaring
def test_declarations_from_the_dealers_left_dealer_last_each_once() -> None:
    st = state(2, HANDS, "7S")
    order = []
    while st.phase == "declare" and not st.is_over:
        order.append(st.to_move)
        st.apply("knock")
    assert order == [3, 0, 1, 2]
    assert st.phase == "play"


def test_golets_procedure_discard_set_aside_take_the_next_three() -> None:
    st = state(0, HANDS, "7S", ("9C", "KS", "TD", "9D"))
    run(st, "knock", "golets")
    assert sorted(st.hands[2]) == sorted(parse_cards("KS TD 9D"))
    assert st.discards[2] == parse_cards("8H 9H TH")
    assert st.set_aside == parse_cards("9C")
    assert st.stock[0] != parse_card("9C") and len(st.stock) == 23 - 4
    assert st.rules.trump == parse_card("7S") // 13   # the turned card's suit stays trump


def test_golets_only_while_nobody_has_taken_it() -> None:
    st = state(0, HANDS, "7S")
    run(st, "golets")
    assert st.legal_actions() == ["knock", "drop"]
    with pytest.raises(IllegalAction, match="golets is taken already"):
        st.apply("golets")


def test_golets_taker_plays_obligatorily() -> None:
    st = state(0, HANDS, "7S")
    run(st, "golets")
    assert st.to_move == 2            # the taker is not asked again: it plays
    run(st, "drop", "drop", "drop")
    assert st.in_play == [1] and st.tricks == [0, 3, 0, 0]


def test_dealer_may_drop_even_if_the_golets_is_free() -> None:
    st = state(0, HANDS, "7S")
    run(st, "knock", "knock", "knock")
    assert st.to_move == 0 and "golets" in st.legal_actions() and "drop" in st.legal_actions()
    st.apply("drop")
    assert st.in_play == [1, 2, 3]


def test_nobody_plays_the_pot_stays() -> None:
    m = match([deal_json(0, HANDS, "7S"), deal_json(1, HANDS, "7S")], deals=1)
    assert isinstance(m, StukolkaMatch)
    run(m, "drop", "drop", "drop", "drop")
    assert m.deal_log[0]["kind"] == "nobody" and m.deal_log[0]["pot_after"] == 3
    assert m.deal_log[0]["change"] == [0, 0, 0, 0] and not m.is_over
    assert m.pot == 3 + 3 and m.balances == [-3, -3, 0, 0]   # deal 2's ante on top


def test_lone_player_takes_the_whole_pot_without_play_and_pays_no_remiz() -> None:
    m = match([deal_json(0, HANDS, "7S")], deals=1)
    assert isinstance(m, StukolkaMatch)
    run(m, "drop", "drop", "knock", "drop")      # seats 1, 2, 3 (knocks), then the dealer
    assert m.is_over and m.result is not None
    assert m.balances == [-3, 0, 0, 3] and m.pot == 0
    assert m.result.details["deals"][0]["tricks"] == [0, 0, 0, 3]


# ---------------------------------------------------------------- leading
def test_first_lead_by_the_golets_taker() -> None:
    st = state(0, HANDS, "7S", ("9C", "KS", "TD", "9D"))
    run(st, "knock", "knock", "golets", "knock")
    assert st.to_move == 3


def test_first_lead_else_by_the_first_to_knock_in_declaration_order() -> None:
    st = state(0, HANDS, "7S")
    run(st, "drop", "knock", "knock", "knock")
    assert st.to_move == 2


def test_trump_ace_holder_must_lead_it_first() -> None:
    st = state(0, HANDS, "7S")       # seat 1 holds AS, spades are trump
    run(st, "knock", "knock", "drop", "drop")
    assert st.to_move == 1 and st.legal_actions() == ["play AS"]
    with pytest.raises(IllegalAction, match="trump ace must be led"):
        st.apply("play KD")


def test_trump_ace_holder_leads_it_whenever_they_lead() -> None:
    st = state(0, HANDS, "7S", ("9C", "KS", "TD", "9D"))
    run(st, "knock", "golets", "knock", "drop")
    run(st, "play TD", "play JD", "play KD")         # seat 1 wins the first trick
    assert st.to_move == 1 and st.legal_actions() == ["play AS"]


# ---------------------------------------------------------------- follow and beat
def _trick(hands: list[str], turned: str, *plays: str) -> StukolkaDeal:
    st = state(len(hands) - 1, hands, turned)
    run(st, *["knock"] * len(hands))
    run(st, *plays)
    return st


def test_must_follow_and_beat_the_best_card_of_the_led_suit() -> None:
    st = _trick(["9D 6S 7C", "KD 8D 6C", "AH 9H 8C", "TD 7S 8S"], "6H", "play 9D")
    assert st.legal_actions() == ["play KD"]
    with pytest.raises(IllegalAction, match="must follow diamonds and beat it: you hold KD"):
        st.apply("play 8D")


def test_must_follow_when_unable_to_beat() -> None:
    st = _trick(["AD 6S 7C", "KD 8D 6C", "AH 9H 8C", "TD 7S 8S"], "6H", "play AD")
    assert st.legal_actions() == ["play 8D", "play KD"]


def test_already_trumped_any_card_of_the_led_suit() -> None:
    st = _trick(["9D 6S 7C", "7H 8S 6C", "KD 8D 8C", "TD 7S AS"], "6H", "play 9D", "play 7H")
    assert st.legal_actions() == ["play 8D", "play KD"]


def test_void_must_trump() -> None:
    st = _trick(["9D 6S 7C", "7H 8S 6C", "KD 8D 8C", "TD 7S AS"], "6H", "play 9D")
    assert st.legal_actions() == ["play 7H"]
    with pytest.raises(IllegalAction, match="void in diamonds, must trump"):
        st.apply("play 8S")


def test_void_must_over_trump_if_able() -> None:
    st = _trick(["9D 6S 7C", "7H 8S 6C", "8C 9H 6H", "TD 7S AS"], "JH", "play 9D", "play 7H")
    assert st.legal_actions() == ["play 9H"]
    with pytest.raises(IllegalAction, match="must trump and over-trump"):
        st.apply("play 6H")


def test_void_unable_to_over_trump_must_still_trump() -> None:
    st = _trick(["9D 6S 7C", "KH 8S 6C", "8C 9H 6H", "TD 7S AS"], "JH", "play 9D", "play KH")
    assert st.legal_actions() == ["play 6H", "play 9H"]


def test_on_a_trump_lead_must_beat_the_highest_trump() -> None:
    st = _trick(["9H 6S 7C", "KH 7H 6C", "8C 8D 6D", "TD 7S AS"], "JH", "play 9H")
    assert st.legal_actions() == ["play KH"]


def test_void_of_both_any_card() -> None:
    st = _trick(["9D 6S 7C", "KH 8S 6C", "8C TC 6S", "TD 7S AS"], "JH", "play 9D", "play KH")
    assert st.legal_actions() == ["play 6S", "play 8C", "play TC"]


# ---------------------------------------------------------------- money
def test_each_trick_pays_a_third_of_the_pot_before_play_and_the_remiz() -> None:
    """Pot 12 before play: seat 1 takes two tricks (8), seat 2 one (4), seat 3 none and
    pays a remiz of 12 into the next pot."""
    st = state(0, ["6H 7H 8C", "AD KD 6C", "8H 9H AC", "QD JD 6D"], "7S", pot=12)
    run(st, "knock", "knock", "knock", "drop")
    run(st, "play AD", "play 8H", "play 6D")     # seat 1
    run(st, "play KD", "play 9H", "play JD")     # seat 1 (JD beats nothing: KD is best)
    run(st, "play 6C", "play AC", "play QD")     # seat 2
    assert st.tricks == [0, 2, 1, 0]
    assert st.money() == ([0, 8, 4, -12], 12)


def test_remiz_equals_the_pot_as_it_stood_before_play() -> None:
    m = match([deal_json(0, HANDS, "7S", ("9C", "KS", "TD", "9D")),
               deal_json(1, HANDS, "7C")], deals=1)
    assert isinstance(m, StukolkaMatch)
    run(m, "knock", "golets", "knock", "drop", "play TD", "play JD", "play KD",
        "play AS", "play KS", "play 6D", "play 6C", "play 9D", "play QD")
    # seat 1 took all three (3); seats 2 and 3 played and took none: 3 each into the pot
    assert m.pot == 6 + 3                        # two remizes, then deal 2's ante
    assert m.balances == [-3, 3 - 3, -3, -3]


def test_money_is_conserved_at_every_deal() -> None:
    for seed in range(6):
        m = koloda.new_game("stukolka", players=4 + seed % 4, seed=seed)
        rng = random.Random(seed)
        assert isinstance(m, StukolkaMatch)
        while not m.is_over:
            assert m.pot + sum(m.balances) == 0
            m.apply(rng.choice(m.legal_actions()))
        assert m.pot + sum(m.balances) == 0
        for entry in m.deal_log:
            assert entry["pot_after"] + sum(entry["balances"]) == 0


def test_match_ends_after_the_set_deals_once_a_deal_empties_the_pot() -> None:
    m = match([deal_json(0, HANDS, "7S"), deal_json(1, HANDS, "7S"), deal_json(2, HANDS, "7S")],
              deals=1)
    run(m, "drop", "drop", "drop", "drop")       # deal 1 of 1 played, but the pot is 3
    assert not m.is_over
    run(m, "drop", "drop", "drop", "drop")       # pot 6: play on
    assert not m.is_over
    run(m, "knock", "drop", "drop", "drop")       # seat 3 alone takes 9: pot empty
    assert m.is_over and m.result is not None
    assert m.result.scores == (-3, -3, -3, 9) and m.result.winners == (3,)


def test_the_pot_emptied_before_the_set_deals_does_not_end_the_match() -> None:
    m = match([deal_json(0, HANDS, "7S"), deal_json(1, HANDS, "7S")], deals=2)
    run(m, "knock", "drop", "drop", "drop")
    assert not m.is_over and len(m.deals) == 2


# ---------------------------------------------------------------- records
def test_hand_written_record_redeal_golets_remiz_nobody_lone() -> None:
    """Deal 0: AH turned, redeal by seat 0, no ante. Deal 1 (ante 3 by seat 0): seat 2 takes
    the golets and leads TD; seat 3 must beat with JD, seat 1 with KD; seat 1 must lead AS,
    then 6C: three tricks, +3; seats 2 and 3 took none: remiz 3 each, pot 6. Deal 2 (ante
    by seat 1, pot 9): nobody plays. Deal 3 (ante by seat 2, pot 12): the dealer drops with
    the golets free, seat 0 alone takes 12. Balances 9, 0, −6, −3; pot empty, match over."""
    data = json.loads((RECORDS / "stukolka-redeal-golets-remiz.json").read_text())
    r = replay(data)
    assert r.error is None and r.match is not None and r.match.result is not None
    res = r.match.result
    assert res.scores == (9, 0, -6, -3) and res.winners == (0,)
    assert res.details["deals_played"] == 3 and len(r.match.deals) == 4


def test_example_record_replays_to_its_result() -> None:
    data = json.loads((RECORDS / "examples" / "stukolka.json").read_text())
    r = replay(data)
    assert r.error is None and r.match is not None and r.match.result is not None
    assert list(r.match.result.scores) == [-13, -19, 41, -9, 0]
    assert r.match.result.details["deals_played"] == 7 and len(r.match.deals) == 9


def test_a_record_with_the_turned_card_inside_the_stock_is_refused() -> None:
    d = deal_json(0, HANDS, "7S")
    d["stock"].insert(5, "7S")
    with pytest.raises(RecordError, match="lies inside the stock"):
        match([d])


def test_observation_hides_stock_set_aside_and_other_hands() -> None:
    st = state(0, HANDS, "7S", ("9C", "KS", "TD", "9D"))
    run(st, "knock", "golets")
    obs = json.dumps(dict(st.observation(3)))
    for c in ("9C", "KS", "TD", "9D", "AS", "8H"):
        assert f'"{c}"' not in obs
    assert '"7S"' in obs
    assert st.observation(2)["my_discards"] == ["8H", "9H", "TH"]


def test_capped_match_reports_balances_and_the_pot_left() -> None:
    """Capped by max_deals with money still in the pot: the balances as they are, the best
    balance wins, and the pot left is stated (it is nobody's)."""
    m = match([deal_json(0, HANDS, "7S")], max_deals=1)
    run(m, "drop", "drop", "drop", "drop")          # nobody plays: the pot keeps 3
    assert m.is_over and m.result is not None and m.result.capped
    assert m.result.scores == (-3, 0, 0, 0) and m.result.winners == (1, 2, 3)
    assert m.result.details["pot"] == 3


# ---------------------------------------------------------------- the typed views
def positions(seeds: range, players: int, **options: Any) -> Iterator[koloda.Match]:
    """Every position of short matches played by random legal actions."""
    return random_positions("stukolka", seeds, players, **options)


def test_every_view_field_is_declared_with_a_term_of_the_vocabulary() -> None:
    spec = koloda.get_spec("stukolka")
    assert {StukolkaView, StukolkaSheet, DealerDraw} <= set(spec.views)
    private = {f.name for f in fields_of(StukolkaView) if f.private}
    assert private == {"hand", "my_discards"}
    by_name = {f.name: f for f in fields_of(StukolkaView)}
    assert by_name["tricks_played"].term is None and by_name["caps"].term is None
    assert term("kon", "ru") == "кон" and by_name["pot"].term == "kon"   # the book's word
    m = koloda.new_game("stukolka", players=4, seed=1)
    obs = m.observation(0)
    assert isinstance(obs.deal, StukolkaView) and isinstance(obs.sheet, StukolkaSheet)
    assert list(obs.deal.to_json()) == [f.name for f in fields_of(StukolkaView)]
    assert list(obs.sheet.to_json()) == [f.name for f in fields_of(StukolkaSheet)]
    data = obs.to_json()
    assert data == json.loads(json.dumps(data))
    assert data["trump"] == data["trump_card"][1]                     # a suit letter
    draw = obs.sheet.first_dealer_draw
    assert isinstance(draw, DealerDraw) and draw.dealer == m.first_dealer
    assert data["sheet"]["first_dealer_draw"]["rounds"][0][0][1] in "6789TJQKA"


def test_public_json_names_no_card_hidden_from_any_seat() -> None:
    for m in positions(range(8), 5, deals=3):
        hidden = set().union(*(m.hidden_from(s) for s in range(m.players)))
        public = m.public_observation().to_json()
        assert public["seat"] is None and "hand" not in public and "my_discards" not in public
        leaked = cards_in(public) & hidden
        assert not leaked, f"the public view shows {[CARD_TEXT[c] for c in leaked]}"
        hash(m.observation(0))
