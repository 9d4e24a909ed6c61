"""Mushka (koloda/rules/mushka.en.md §Precisely), rule by rule, on hand-made deals and hand-written
records."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

import koloda
from koloda.cards import CARD_TEXT, deck, parse_card, parse_cards
from koloda.engine.deal import Deal
from koloda.engine.errors import IllegalAction, RecordError
from koloda.engine.match import Match
from koloda.engine.records import from_record, replay
from koloda.engine.terms import has_term
from koloda.engine.view import fields_of
from koloda.games.mushka import MushkaDeal, MushkaMatch, draw_for_first_dealer
from koloda.games.mushka.views import MushkaSheet, MushkaView
from tests.conformance import cards_in
from tests.conftest import RECORDS


def make_deal(hands: list[str], trump: str, top: str = "", dealer: int = 0) -> Deal:
    """Hands by seat, the turned card, and the first cards of the stock (the rest sorted)."""
    n = len(hands)
    parsed = [parse_cards(h) for h in hands]
    head = parse_cards(top)
    used = {c for h in parsed for c in h} | {parse_card(trump)} | set(head)
    rest = [c for c in deck(32 if n <= 4 else 52) if c not in used]
    return Deal(dealer, tuple(tuple(h) for h in parsed), (*head, *rest), parse_card(trump))


def record(deals: list[Deal], actions: Sequence[tuple[int, str]] = (),
           **options: Any) -> dict[str, Any]:
    return {"format": "koloda-record/1", "game": "mushka", "players": len(deals[0].hands),
            "options": options, "seed": None, "first_dealer": deals[0].dealer,
            "deals": [d.to_json() for d in deals],
            "actions": [{"seat": s, "action": a} for s, a in actions]}


def match_of(deals: list[Deal], **options: Any) -> Match:
    return from_record(record(deals, **options))


def apply_all(st: MushkaDeal | Match, *actions: str) -> None:
    for a in actions:
        st.apply(a)


#: dealer 0, hearts trump; seat 1 holds the top spades, 2 clubs, 3 diamonds, 0 a mix
HANDS = ["QC KC AC QD KD", "AS KS QS JS TS", "7C 8C 9C TC JC", "7D 8D 9D TD JD"]


def deal_a(top: str = "8H 9H TH JH QH") -> MushkaDeal:
    return MushkaDeal(make_deal(HANDS, "7H", top))


# --------------------------------------------------------------- the deal
def test_deck_is_32_for_two_to_four_players_and_52_for_five_or_six() -> None:
    for players, size in ((2, 32), (3, 32), (4, 32), (5, 52), (6, 52)):
        m = koloda.new_game("mushka", players=players, seed=3)
        d = m.deals[0]
        cards = [c for h in d.hands for c in h] + list(d.stock) + [d.trump_card]
        assert sorted(cards) == list(deck(size))
    with pytest.raises(koloda.ConfigError):
        koloda.new_game("mushka", players=7, seed=1)


def test_five_cards_each_dealt_from_the_dealers_left_then_the_trump_card() -> None:
    m = koloda.new_game("mushka", players=3, seed=11)
    d = m.deals[0]
    assert [len(h) for h in d.hands] == [5, 5, 5]
    rng = random.Random(0)
    deal = m.deal_cards(1, rng)
    order = list(deck(32))
    random.Random(0).shuffle(order)
    assert deal.hands[2][0] == order[0] and deal.hands[0][0] == order[1]   # left first
    assert deal.hands[1][0] == order[2]                                      # dealer last
    assert deal.trump_card == order[15] and deal.stock == tuple(order[16:])


class Stacked(random.Random):
    """A generator whose shuffle lays the pack out as given (drawn from the end)."""

    def __init__(self, pack: str) -> None:
        super().__init__(0)
        self.pack = parse_cards(pack)

    def shuffle(self, x: Any) -> None:
        x[:] = self.pack


def test_first_dealer_is_the_lowest_card_drawn() -> None:
    draw = draw_for_first_dealer(Stacked("AH 8C KD 9S"), 4)
    assert draw == {"dealer": 2, "rounds": [[[0, "9S"], [1, "KD"], [2, "8C"], [3, "AH"]]]}


def test_first_dealer_ties_redraw_among_the_tied() -> None:
    draw = draw_for_first_dealer(Stacked("7S 8S 9H 7C KD 7H"), 3)
    # first round: 7H 7C tie (seats 0 and 2; seat 1 drew KD), then 0 draws 9H, 2 draws 8S
    assert draw["rounds"] == [[[0, "7H"], [1, "KD"], [2, "7C"]], [[0, "9H"], [2, "8S"]]]
    assert draw["dealer"] == 2


def test_first_dealer_draw_is_public_on_the_sheet_and_in_the_result() -> None:
    m = koloda.new_game("mushka", players=4, seed=21, max_deals=1)
    sheet = m.observation(1)["sheet"]["first_dealer_draw"]
    assert sheet["dealer"] == m.first_dealer == m.deals[0].dealer
    low = min("23456789TJQKA".index(r) for _, r in sheet["rounds"][-1])
    assert [s for s, r in sheet["rounds"][-1] if "23456789TJQKA".index(r) == low] \
        == [m.first_dealer]
    rng = random.Random(5)
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()))
    assert m.result is not None
    assert m.result.details["first_dealer_draw"]["dealer"] == m.first_dealer
    # a replay of the seeded record shows the same draw
    again = replay(json.loads(json.dumps(m.record())))
    assert again.ok and again.match is not None and again.match.result == m.result


def test_turned_card_sets_the_trump_and_stays_out_of_play() -> None:
    st = deal_a()
    assert st.observation(2)["trump_card"] == "7H" and st.observation(2)["trump"] == "H"
    apply_all(st, "stand", "discard 7C 8C 9C TC JC")          # seat 2 draws the five below it
    assert st.hands[2] == parse_cards("8H 9H TH JH QH")
    zones = st.card_zones()
    assert zones.pop("trump_card") == parse_cards("7H")
    assert parse_card("7H") not in [c for zone in zones.values() for c in zone]


def test_a_record_may_write_the_trump_card_as_stock_0() -> None:
    d = make_deal(HANDS, "7H", "8H")
    as_stock0 = Deal(0, d.hands, (d.trump_card, *d.stock), d.trump_card)
    m = match_of([as_stock0])
    apply_all(m, "stand", "discard 7C")
    assert m.current.hands[2] == parse_cards("8C 9C TC JC 8H")
    bad = Deal(0, d.hands, (d.stock[0], d.trump_card, *d.stock[1:]), d.trump_card)
    with pytest.raises(RecordError, match="trump_card"):
        match_of([bad])


def test_a_record_deal_must_be_this_games_deck_with_a_turned_card() -> None:
    d = make_deal(HANDS, "7H")
    with pytest.raises(RecordError, match="missing: 7H"):   # the turned card
        match_of([Deal(0, d.hands, d.stock, None)])
    with pytest.raises(RecordError, match=r"hands\[1\]: 4 cards"):
        match_of([Deal(0, (d.hands[0], d.hands[1][:4], *d.hands[2:]),
                       (d.hands[1][4], *d.stock), d.trump_card)])
    with pytest.raises(RecordError, match="extra: 2C; missing: AH"):
        match_of([Deal(0, d.hands, (*d.stock[:-1], parse_card("2C")), d.trump_card)])
    with pytest.raises(RecordError, match="stock: 10 cards, expected 11"):
        match_of([Deal(0, d.hands, d.stock[:-1], d.trump_card)])


# ---------------------------------------------------------- exchange round
def test_exchange_starts_left_of_the_dealer_and_the_dealer_is_last() -> None:
    st = MushkaDeal(make_deal(HANDS, "7H", dealer=2))
    seen = []
    while st.phase == "exchange":
        seen.append(st.to_move)
        st.apply("stand")
    assert seen == [3, 0, 1, 2]


def test_legal_actions_list_every_discard_set_stand_and_pass() -> None:
    st = deal_a()
    legal = st.legal_actions()
    discards = [a for a in legal if a.startswith("discard")]
    assert len(discards) == 31 and len(set(discards)) == 31
    assert "discard JS QS KS AS" in legal and "discard TS JS QS KS AS" in legal
    assert legal[-1] == "stand"                 # seat 1 holds AS: no pass
    st.apply("stand")
    assert st.legal_actions()[-2:] == ["stand", "pass"]


def test_discard_draws_as_many_from_the_top_of_the_stock() -> None:
    st = deal_a()
    st.apply("discard TS JS")
    assert st.hands[1] == parse_cards("QS KS AS 8H 9H")
    assert st.discards[1] == parse_cards("TS JS")
    assert len(st.stock) == 9 and st.stock[0] == parse_card("TH")
    assert st.choices[1] == "discard 2"


def test_discard_never_more_than_the_stock_holds() -> None:
    st = deal_a()
    apply_all(st, "discard TS JS QS KS AS", "discard 7C 8C 9C TC JC")   # 11 - 10 = 1 left
    assert len(st.stock) == 1
    legal = st.legal_actions()
    assert [a for a in legal if a.startswith("discard")] == [f"discard {c}" for c in
                                                             "7D 8D 9D TD JD".split()]
    with pytest.raises(IllegalAction, match="stock holds only 1 cards"):
        st.apply("discard 7D 8D")
    st.apply("discard 7D")
    assert st.stock == []


def test_with_an_empty_stock_only_stand_and_pass_remain() -> None:
    st = deal_a()
    apply_all(st, "discard TS JS QS KS AS", "discard 7C 8C 9C TC JC", "discard 7D")
    assert st.legal_actions() == ["stand", "pass"]
    with pytest.raises(IllegalAction, match="stock is empty"):
        st.apply("discard QC")


def test_a_player_holding_AS_may_not_pass() -> None:
    st = deal_a()
    assert "pass" not in st.legal_actions()
    with pytest.raises(IllegalAction, match="hold AS"):
        st.apply("pass")


def test_AS_may_be_discarded_then_its_holder_has_no_duty() -> None:
    st = deal_a()
    st.apply("discard AS")
    assert parse_card("AS") in st.discards[1]
    apply_all(st, "stand", "stand", "stand")
    assert st.phase == "play"


def test_pass_drops_out_and_the_hand_is_discarded_face_down() -> None:
    st = deal_a()
    apply_all(st, "stand", "pass")
    assert st.hands[2] == [] and st.discards[2] == parse_cards("7C 8C 9C TC JC")
    assert st.choices[2] == "pass"
    for seat in (0, 1, 3):
        hidden = st.hidden_from(seat)
        assert set(parse_cards("7C 8C 9C TC JC")) <= hidden
        assert not cards_in(st.observation(seat).to_json()) & hidden
    assert st.observation(2)["my_discards"] == "7C 8C 9C TC JC".split()


def test_every_player_passing_makes_a_void_deal_and_the_dealer_still_moves() -> None:
    hands = ["QC KC AC QD KD", "7S KS QS JS TS", "7C 8C 9C TC JC", "7D 8D 9D TD JD"]
    deals = [make_deal(hands, "7H", dealer=0), make_deal(hands, "7H", dealer=1)]
    m = match_of(deals, max_deals=2)
    apply_all(m, "pass", "pass", "pass", "pass")
    assert m.deals_played == 1 and m.deals[-1].dealer == 1
    assert m.observation(0)["sheet"]["scores"] == [25, 25, 25, 25]
    assert m.deal_log[0]["kind"] == "void"


def test_exactly_one_in_takes_all_five_tricks_without_play() -> None:
    m = match_of([make_deal(HANDS, "7H")], max_deals=1)
    apply_all(m, "stand", "pass", "pass", "pass")
    assert m.is_over and m.result is not None
    assert m.result.scores == (25, 20, 25, 25)
    assert m.result.details["deals"][0]["tricks"] == [0, 5, 0, 0]
    assert m.result.details["deals"][0]["kind"] == "alone"


def test_exactly_one_in_is_judged_after_the_whole_round() -> None:
    st = deal_a()
    apply_all(st, "stand", "pass", "pass")
    assert st.phase == "exchange" and st.to_move == 0   # the dealer still chooses
    st.apply("stand")
    assert st.phase == "play" and st.in_play == [1, 0]


# --------------------------------------------------------------------- play
def test_first_player_in_left_of_the_dealer_leads() -> None:
    st = deal_a()
    apply_all(st, "discard TS", "pass", "stand", "stand")
    assert st.in_play == [1, 3, 0] and st.to_move == 1
    st2 = MushkaDeal(make_deal(["QC KC AC QD KD", "7S KS QS JS TS", "7C 8C 9C TC JC",
                                "7D 8D 9D TD JD"], "7H"))
    apply_all(st2, "pass", "pass", "stand", "stand")
    assert st2.to_move == 3   # seats 1 and 2 passed: seat 3 is the first in


def test_must_follow_suit() -> None:
    st = MushkaDeal(make_deal(["QC KC AC QD 8H", "AS KS 9C JS TS", "7C 8C 9H TC JC",
                               "7D 8D 9D TD JD"], "7H"))
    apply_all(st, "stand", "stand", "stand", "stand", "play 9C")
    assert st.legal_actions() == ["play 7C", "play 8C", "play TC", "play JC"]
    with pytest.raises(IllegalAction, match="must follow clubs: you hold 7C 8C TC JC"):
        st.apply("play 9H")


def test_void_in_the_led_suit_must_trump() -> None:
    st = MushkaDeal(make_deal(["QC KC AC QD 8H", "AS KS 9C JS TS", "7C 8C 9H TC JC",
                               "7D 8D 9D TD JD"], "7H"))
    apply_all(st, "stand", "stand", "stand", "stand", "play KS")
    with pytest.raises(IllegalAction, match="must play a trump"):
        st.apply("play 7C")
    assert st.legal_actions() == ["play 9H"]


def test_void_of_led_suit_and_trumps_any_card() -> None:
    st = MushkaDeal(make_deal(["QC KC AC QD 8H", "AS KS 9C JS TS", "7C 8C 9H TC JC",
                               "7D 8D 9D TD JD"], "7H"))
    apply_all(st, "stand", "stand", "stand", "stand", "play KS", "play 9H")
    assert len(st.legal_actions()) == 5


def test_the_trick_winner_leads_next_and_a_trump_wins() -> None:
    st = MushkaDeal(make_deal(["QC KC AC QD 8H", "AS KS 9C JS TS", "7C 8C 9H TC JC",
                               "7D 8D 9D TD JD"], "7H"))
    apply_all(st, "stand", "stand", "stand", "stand", "play KS", "play 9H", "play 7D",
              "play 8H")
    assert st.tricks == [0, 0, 1, 0] and st.to_move == 2


def test_AS_has_no_other_power_in_mushka() -> None:
    st = MushkaDeal(make_deal(["QC KC AC QD 8H", "AS KS 9C JS TS", "7C 8C 9H TC JC",
                               "7D 8D 9D TD JD"], "7H"))
    apply_all(st, "stand", "stand", "stand", "stand", "play 9C", "play 7C", "play 7D",
              "play QC")
    assert st.tricks[0] == 1
    apply_all(st, "play 8H")   # seat 0 leads a trump; seat 1 has none and plays AS
    apply_all(st, "play AS")
    apply_all(st, "play 9H", "play 8D")
    assert st.tricks == [1, 0, 1, 0]   # AS lost to the nine of trumps


# ------------------------------------------------------------------ scoring
def test_each_trick_subtracts_one_and_in_without_a_trick_adds_five() -> None:
    hands = ["AC KC QC 7D 8D", "AD KD QD JD TD", "AH KH QH JH TH", "AS KS QS JC TC"]
    m = match_of([make_deal(hands, "7C")], max_deals=1)
    apply_all(m, "stand", "pass", "stand", "stand")       # seats 1, 3, 0 in; 2 out
    apply_all(m, "play AD", "play TC", "play 7D",          # seat 3 ruffs
              "play AS", "play QC", "play TD",             # seat 0 ruffs
              "play 8D", "play KD", "play JC",             # seat 3 ruffs
              "play KS", "play KC", "play QD",             # seat 0 ruffs
              "play AC", "play JD", "play QS")             # seat 0's trump
    assert m.result is not None
    deal = m.result.details["deals"][0]
    assert deal["tricks"] == [3, 0, 0, 2]
    assert deal["changes"] == [-3, 5, 0, -2]               # a passer is unchanged
    assert m.result.scores == (22, 30, 25, 23)


def test_a_player_in_with_no_trick_adds_five() -> None:
    hands = ["AC KC QC JC TC", "AS 8D 9D TD JD", "AH KH QH JH TH", "KS QS JS TS 7D"]
    m = match_of([make_deal(hands, "7C")], max_deals=1)
    apply_all(m, "stand", "pass", "pass", "stand")         # seats 1 and 0 in
    while not m.is_over:
        m.apply(m.legal_actions()[0])
    assert m.result is not None
    # seat 0 holds five trumps and takes all five; seat 1 none
    assert m.result.details["deals"][0]["tricks"] == [5, 0, 0, 0]
    assert m.result.scores == (20, 30, 25, 25)


def test_match_ends_after_the_deal_reaching_zero_and_the_lowest_wins() -> None:
    spec = koloda.get_spec("mushka")
    m = MushkaMatch(spec, 3, spec.resolve_options(3, {}), seed=4)
    m.scores = [3, 2, 9]
    m.deals.append(m.deals[-1])
    assert m.next_dealer() is not None
    m.scores = [0, 2, 9]
    assert m.next_dealer() is None
    assert m.final_result(False).winners == (0,)
    m.scores = [-1, -1, 4]
    res = m.final_result(False)
    assert res.winners == (0, 1) and res.losers == (2,) and res.scores == (-1, -1, 4)


def test_a_whole_match_stops_exactly_when_someone_reaches_zero() -> None:
    for seed in range(4):
        m = koloda.new_game("mushka", players=2, seed=seed)
        rng = random.Random(seed)
        while not m.is_over:
            m.apply(rng.choice(m.legal_actions()))
        assert m.result is not None and not m.result.capped
        log = m.result.details["deals"]
        assert min(log[-1]["scores"]) <= 0
        assert all(min(d["scores"]) > 0 for d in log[:-1])
        assert list(m.result.scores) == log[-1]["scores"]
        assert m.result.winners == tuple(i for i, s in enumerate(m.result.scores)
                                         if s == min(m.result.scores))


def test_the_cap_ends_the_match_and_the_lowest_count_wins() -> None:
    m = koloda.new_game("mushka", players=4, seed=9, max_deals=2)
    rng = random.Random(1)
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()))
    assert m.result is not None and m.result.capped and m.deals_played == 2
    assert m.result.winners == tuple(i for i, s in enumerate(m.result.scores)
                                     if s == min(m.result.scores))


# ------------------------------------------------------------------- views
def test_observation_hides_other_hands_discards_and_the_stock() -> None:
    m = koloda.new_game("mushka", players=4, seed=2)
    rng = random.Random(2)
    for _ in range(12):
        for seat in range(4):
            obs = m.observation(seat)
            assert not cards_in(obs.to_json()) & m.hidden_from(seat)
            assert obs["hand"] == [CARD_TEXT[c] for c in m.current.hands[seat]]
            assert isinstance(obs["stock"], int)
        m.apply(rng.choice(m.legal_actions()))


# ------------------------------------------------------------------ records
def test_the_example_record_replays_to_its_written_result() -> None:
    data = json.loads((RECORDS / "examples" / "mushka.json").read_text())
    out = replay(data)
    assert out.ok, out.error
    assert out.match is not None and out.match.result is not None
    res = out.match.result.to_json()
    for key in ("winners", "losers", "scores", "capped"):
        assert res[key] == data["result"][key]


def test_hand_written_record_replays_to_the_hand_computed_result() -> None:
    data = json.loads((RECORDS / "mushka-three-deals.json").read_text())
    out = replay(data)
    assert out.ok, out.error
    assert out.match is not None and out.match.result is not None
    res = out.match.result
    # deal 1: seat 1 alone in (−5); deal 2: void; deal 3: seat 0 no trick (+5), seat 3 took
    # four (−4), seat 1 one (−1), seat 2 passed
    assert [d["changes"] for d in res.details["deals"]] == [
        [0, -5, 0, 0], [0, 0, 0, 0], [5, -1, 0, -4]]
    assert res.scores == (30, 19, 25, 21) and res.winners == (1,) and res.capped


# ------------------------------------------------------------- typed views
def _random_positions(players: int, seeds: range) -> Iterator[koloda.Match]:
    """Matches of random play, yielded at every decision (two deals each)."""
    for seed in seeds:
        rng = random.Random(seed)
        m = koloda.new_game("mushka", players=players, seed=seed, max_deals=2)
        while not m.is_over:
            yield m
            m.apply(rng.choice(m.legal_actions()))


def test_every_view_field_is_declared_with_a_term_of_the_vocabulary() -> None:
    spec = koloda.get_spec("mushka")
    assert {MushkaView, MushkaSheet} <= set(spec.views)
    for m in _random_positions(4, range(3)):
        obs = m.observation(m.to_move)   # type: ignore[arg-type]
        assert isinstance(obs.deal, MushkaView) and isinstance(obs.sheet, MushkaSheet)
        hash(obs)                        # tuples and views all the way down
        for part in (obs.deal, obs.sheet):
            assert set(part.to_json()) == {f.name for f in fields_of(part)}
        assert set(obs.deal.voids[0]) <= {0, 1, 2, 3}
        assert all(has_term(c) for c in obs.deal.choices if c is not None)
        assert all(v in ("S", "C", "D", "H") for vs in obs["voids"] for v in vs)


def test_the_public_view_names_no_card_hidden_from_any_seat() -> None:
    checked = 0
    for players in (2, 4, 6):
        for m in _random_positions(players, range(6)):
            hidden = set().union(*(m.hidden_from(s) for s in range(players)))
            public = m.public_observation().to_json()
            assert public["seat"] is None
            assert "hand" not in public and "my_discards" not in public
            assert not cards_in(public) & hidden
            checked += 1
    assert checked > 300
