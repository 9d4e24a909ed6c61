"""The shared trick core (koloda/tricks.py) on hand-made tricks."""

import random
from typing import Any

import pytest

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


# ------------------------------------------------- the fast paths and the shakhi rules

def test_play_action_table_reads_every_canonical_play() -> None:
    from koloda.tricks import PLAY_ACTION, parse_play
    assert parse_play("play 6C wild") == (parse_card("6C"), "wild")
    assert parse_play("play 6C plain") == (parse_card("6C"), "plain")
    assert parse_play("play TH") == (parse_card("TH"), None)
    assert len(PLAY_ACTION) == 3 * 52


def _reference_plays(r: TrickRules, hand: list[int], t: Trick | None) -> list[str]:
    """legal_plays written the slow, obvious way from allowed_cards."""
    from koloda.cards import CARD_TEXT
    from koloda.tricks import allowed_cards
    allowed, _ = allowed_cards(r, hand, t)
    out = []
    for c in sorted(hand):
        if c in r.shakhi:
            out += [f"play {CARD_TEXT[c]} plain", f"play {CARD_TEXT[c]} wild"]
        elif c in allowed or c in r.mushka:
            out.append(f"play {CARD_TEXT[c]}")
    return out


def test_legal_plays_agrees_with_the_worded_rules_on_random_positions() -> None:
    import random

    from koloda.cards import deck
    rng = random.Random(5)
    policies = [FollowElseAny(), FollowElseTrump(), OpendaumShakhiPolicy(True),
                OpendaumShakhiPolicy(False), MustBeatPolicy()]
    for _ in range(3000):
        policy = rng.choice(policies)
        shakhi = SHAKHI if isinstance(policy, OpendaumShakhiPolicy) else frozenset()
        r = TrickRules(rng.choice([None, 0, 1, 2, 3]), policy, shakhi=shakhi)
        cards = rng.sample(deck(36), 12)
        hand = sorted(cards[:rng.randint(1, 8)])   # games keep hands in card order
        t = Trick(0)
        for i, c in enumerate(cards[8:8 + rng.randint(0, 3)]):
            t.add(r, i, c, rng.choice(["wild", "plain"]) if c in shakhi else None)
        assert legal_plays(r, hand, t) == _reference_plays(r, hand, t)
        assert legal_plays(r, hand, None) == _reference_plays(r, hand, None)


def test_a_game_may_count_cards_as_a_fifth_suit() -> None:
    suit = tuple(4 if c == parse_card("JD") else c // 13 for c in range(52))
    r = TrickRules(4, FollowElseTrump(), suit=suit)
    assert r.must_follow[4] == "must follow trumps"
    assert legal_plays(r, parse_cards("JD 9H"), trick(r, "7S")) == ["play JD"]


def test_lead_restriction_never_stops_a_shakha_being_led() -> None:
    r = TrickRules(CLUBS, OpendaumShakhiPolicy(), shakhi=SHAKHI)
    assert legal_plays(r, parse_cards("6C 9C 9D"), None) == \
        ["play 6C plain", "play 6C wild", "play 9D"]


def test_shakha_led_wild_is_a_trump_lead_and_plain_leads_its_suit() -> None:
    r = TrickRules(HEARTS, OpendaumShakhiPolicy(), shakhi=SHAKHI)
    assert trick(r, "6C wild").led == HEARTS
    assert trick(r, "6C plain").led == CLUBS
    assert legal_plays(r, parse_cards("9H 9C 8D"), trick(r, "6S wild")) == ["play 9H"]
    assert legal_plays(r, parse_cards("9H 9C 8D"), trick(r, "6C plain")) == ["play 9C"]


def test_ruff_restriction_both_option_values() -> None:
    hand = parse_cards("9H 9S")
    strict = TrickRules(HEARTS, OpendaumShakhiPolicy(True), shakhi=SHAKHI)
    loose = TrickRules(HEARTS, OpendaumShakhiPolicy(False), shakhi=SHAKHI)
    assert legal_plays(strict, hand, trick(strict, "AD")) == ["play 9S"]
    assert legal_plays(loose, hand, trick(loose, "AD")) == ["play 9H"]
    assert why_not_play(strict, hand, trick(strict, "AD"), parse_card("9H"), None) == \
        "may not ruff while holding a non-trump card: you hold 9S"


def test_a_mushka_is_always_playable_and_wins() -> None:
    r = TrickRules(None, FollowElseAny(), mushka=frozenset(parse_cards("AS")))
    hand = parse_cards("AS 7H")
    assert legal_plays(r, hand, trick(r, "9H")) == ["play AS", "play 7H"]
    assert trick(r, "9H,AS,KH").winner(r) == 1


def test_every_trick_game_keeps_its_hands_in_card_order() -> None:
    """legal_plays' fast paths take the hand as it is: every trick game keeps it sorted,
    through exchanges, draws and purchases too."""
    import random

    from koloda.engine.registry import new_game
    rng = random.Random(3)
    for name in ("opendaum", "opendaum-shakhi", "opendaum-33", "mushka", "kopilka",
                 "dreyfus", "trinka", "stukolka"):
        for seed in range(12):
            m = new_game(name, seed=seed, max_deals=2)
            while not m.is_over:
                hands = m.current.hands  # type: ignore[attr-defined]
                assert all(list(h) == sorted(h) for h in hands), (name, seed, hands)
                legal = m.legal_actions()
                m.apply(legal[rng.randrange(len(legal))])


def test_trick_copy_is_independent_and_equal() -> None:
    from koloda.tricks import Trick
    t = Trick(1, [1, 2], [5, 9], [False, True], [None, "wild"], led=0)
    c = t.copy()
    assert c == t and c is not t
    c.cards.append(3)
    c.seats.append(3)
    c.wild.append(False)
    assert t.cards == [5, 9] and t.seats == [1, 2] and t.wild == [False, True]
    plain = Trick(0, [0], [7], led=0).copy()
    assert plain.wild == [False] and plain.modes == [None]


def test_apply_unchecked_applies_a_legal_action_like_apply() -> None:
    import koloda
    a, b = koloda.new_deal("trinka", seed=3), koloda.new_deal("trinka", seed=3)
    action = a.legal_actions()[0]
    a.apply(action)
    b.current.apply_unchecked(action)
    b.history.append((a.history[0][0], action))
    assert a.observation(0).to_json() == b.observation(0).to_json()
    assert a.current.legal_actions() == b.current.legal_actions()


VOID_GAMES = ["trinka", "dreyfus", "opendaum", "opendaum-shakhi", "opendaum-33", "mushka",
              "stukolka"]


@pytest.mark.parametrize("name", VOID_GAMES)
def test_voids_shown_are_derived_from_the_follow_policy_alone(name: str) -> None:
    """Every trick game's published voids are exactly what its follow policy says each
    play showed (``shown_voids``): one derivation, no game's own bookkeeping beside it."""
    import sys

    import koloda
    from koloda.cards import SUITS
    from koloda.tricks import PLAY_ACTION, shown_voids
    words = ("spades", "clubs", "diamonds", "hearts")

    def suit(rules: Any, text: str) -> int:
        if text in SUITS:
            return SUITS.index(text)
        if text in words:
            return words.index(text)
        return next(s for s in range(len(rules.weakest)) if rules.suit_label(s) == text)

    checked = 0
    for seed in range(12):
        m = koloda.new_game(name, seed=seed, max_deals=2)
        rng = random.Random(seed)
        derived: list[set[int]] = []
        deal = None
        while not m.is_over:
            st = m.current
            if st is not deal:
                deal, derived = st, [set() for _ in range(m.players)]
            rules = getattr(st, "rules", None) or sys.modules[type(st).__module__].RULES
            action, seat = rng.choice(m.legal_actions()), m.to_move
            if action in PLAY_ACTION and getattr(st, "trick", None) is not None:
                derived[seat] |= shown_voids(rules, st.trick, PLAY_ACTION[action][0])
            m.apply(action)
            if m.is_over or m.current is not st:
                continue
            published = [{suit(rules, t) for t in v} for v in m.observation(0)["voids"]]
            assert published == derived, f"seed {seed}: {published} != {derived}"
            checked += 1
    assert checked > 100
