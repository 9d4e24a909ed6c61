"""The shared trick core (koloda/tricks.py) on hand-made tricks."""

from koloda.cards import CLUBS, HEARTS, SPADES, parse_card, parse_cards
from koloda.tricks import (
    FollowElseAny,
    FollowElseTrump,
    MustBeatPolicy,
    OpendaumShakhiPolicy,
    Trick,
    TrickRules,
    legal_plays,
    why_not_play,
)

SHAKHI = frozenset(parse_cards("6S 6C"))


def trick(rules: TrickRules, plays: str, leader: int = 0) -> Trick:
    t = Trick(leader)
    for i, word in enumerate(plays.split(",")):
        parts = word.split()
        t.add(rules, (leader + i) % 4, parse_card(parts[0]), parts[1] if len(parts) > 1 else None)
    return t


def test_highest_card_of_led_suit_wins_without_trump() -> None:
    r = TrickRules(HEARTS, FollowElseTrump())
    assert trick(r, "9D,AD,KS,TD").winner(r) == 1


def test_highest_trump_wins() -> None:
    r = TrickRules(HEARTS, FollowElseTrump())
    assert trick(r, "AD,7H,9H,KD").winner(r) == 2


def test_shakha_played_wild_wins_and_plain_loses() -> None:
    r = TrickRules(HEARTS, OpendaumShakhiPolicy(), shakhi=SHAKHI)
    assert trick(r, "AH,6C wild,KH").winner(r) == 1
    assert trick(r, "AD,6C plain,KD").winner(r) == 0


def test_two_wild_shakhi_the_later_wins() -> None:
    r = TrickRules(HEARTS, OpendaumShakhiPolicy(), shakhi=SHAKHI)
    assert trick(r, "6S wild,AH,6C wild").winner(r) == 2


def test_plain_shakha_of_trump_suit_is_lowest_trump_and_can_win() -> None:
    r = TrickRules(CLUBS, OpendaumShakhiPolicy(), shakhi=SHAKHI)
    assert trick(r, "AD,6C plain,KD").winner(r) == 1
    assert trick(r, "AD,6C plain,7C").winner(r) == 2


def test_follow_suit_reason_names_the_cards() -> None:
    r = TrickRules(SPADES, FollowElseTrump())
    hand = parse_cards("9H KH 7S 8D")
    t = trick(r, "AH")
    assert legal_plays(r, hand, t) == ["play 9H", "play KH"]
    assert why_not_play(r, hand, t, parse_card("7S"), None) == \
        "must follow hearts: you hold 9H KH"


def test_follow_else_any_allows_anything_when_void() -> None:
    r = TrickRules(SPADES, FollowElseAny())
    assert legal_plays(r, parse_cards("7S 8D"), trick(r, "AH")) == ["play 7S", "play 8D"]


def test_shakha_never_counts_for_follow_duty() -> None:
    r = TrickRules(HEARTS, OpendaumShakhiPolicy(), shakhi=SHAKHI)
    hand = parse_cards("6C 8D")
    assert legal_plays(r, hand, trick(r, "AC")) == ["play 6C plain", "play 6C wild", "play 8D"]


def test_must_beat_the_best_card_of_the_led_suit() -> None:
    r = TrickRules(SPADES, MustBeatPolicy())
    hand = parse_cards("7H KH 9S")
    assert legal_plays(r, hand, trick(r, "9H,TH")) == ["play KH"]
    assert legal_plays(r, hand, trick(r, "9H,AH")) == ["play 7H", "play KH"]
