"""``koloda.batched.trick``, the batched trick written once: random tricks played through
the rule in lockstep and at each game's pace against a plain reading of the rules (the
highest trump wins, else the highest card of the led suit; an ``always`` action wins
whatever is led, the later of two), and Stukolka's follow rule read off the trick's best
card against the rule as written (scanning the trick's cards)."""

from __future__ import annotations

import numpy as np

from koloda.batched.bits import ONE
from koloda.batched.trick import TrickRule, beat_or_overtrump
from koloda.cards import deck

CARDS = np.arange(64, dtype=np.int64)
DECK = [int(c) for c in deck(36)]


def random_tricks(rng: np.random.Generator, games: int, size: int) -> np.ndarray:
    """(games, size) distinct cards of the 36-card deck per game."""
    return np.stack([rng.choice(DECK, size, replace=False) for _ in range(games)])


def expected_winner(cards: list[int], trump: int, always: dict[int, int]) -> int:
    led = cards[0] // 13

    def key(i: int) -> tuple[int, int]:
        c = cards[i]
        if c in always:
            return (always[c], i)
        if c // 13 == trump:
            return (32 + c % 13, i)
        return (c % 13 if c // 13 == led else -1, i)
    return max(range(len(cards)), key=key)


def test_trick_winner_is_the_highest_trump_else_the_highest_of_the_led_suit() -> None:
    rng = np.random.default_rng(3)
    rule = TrickRule(DECK, CARDS // 13, CARDS % 13)
    games, n = 400, 4
    cards = random_tricks(rng, games, n)
    trump = rng.integers(-1, 4, games)
    base, best = rule.lead(rule.trump_base(trump), cards[:, 0] // 13, cards[:, 0])
    for j in range(1, n):
        rule.follow(base, best, cards[:, j], j)
    got = rule.winner(best)
    for g in range(games):
        assert got[g] == expected_winner(cards[g].tolist(), int(trump[g]), {}), g


def test_trick_at_each_games_pace_keeps_the_seat_of_the_best_card() -> None:
    """Leads and follows mixed in one call, the seat as the position; a pass (no card)
    never wins; an ``always`` card wins whatever is led."""
    rng = np.random.default_rng(4)
    mushka = 12 + 13 * 3      # AS
    rule = TrickRule(DECK, CARDS // 13, CARDS % 13, always={mushka: 100})
    games, n = 400, 4
    cards = random_tricks(rng, games, n)
    first = rng.integers(0, n, games)        # the leader's seat
    base = np.zeros(games, dtype=np.int64)
    best = np.zeros(games, dtype=np.int64)
    none = rule.trump_base(np.full(games, -1))
    for j in range(n):
        lead = np.full(games, j == 0)
        led = cards[:, 0] // 13
        base, best = rule.play(lead, none, led, base, best, cards[:, j], (first + j) % n)
        # a pass (action 52) in between changes nothing
        base, best = rule.play(np.zeros(games, dtype=bool), none, led, base, best,
                               np.full(games, 52), (first + j) % n)
    got = rule.winner(best)
    for g in range(games):
        k = expected_winner(cards[g].tolist(), -1, {mushka: 100})
        assert got[g] == (first[g] + k) % n, g


def test_of_two_always_actions_the_later_wins() -> None:
    """Opendaum's two shakhi played wild: equal strength, the later position wins."""
    rule = TrickRule(DECK, CARDS // 13, CARDS % 13, always={52: 60, 53: 60})
    trump = np.array([0, 1])
    a = [np.array([13 + 12, 52]), np.array([53, 13 + 5]), np.array([52, 53])]
    base, best = rule.lead(rule.trump_base(trump), np.array([1, 1]), a[0])
    rule.follow(base, best, a[1], 1)
    rule.follow(base, best, a[2], 2)
    assert rule.winner(best).tolist() == [2, 2]


def scanned_stukolka_follow(h: int, cards: list[int], trump: int) -> int:
    """Stukolka's follow rule as written, from the cards on the table."""
    led = cards[0] // 13
    top_led = max((c for c in cards if c // 13 == led), default=-1)
    top_trump = max((c for c in cards if c // 13 == trump), default=-1)
    suit = sum(1 << (13 * led + r) for r in range(13))
    trumps_all = sum(1 << (13 * trump + r) for r in range(13))
    same, trumps = h & suit, h & trumps_all
    trumped = top_trump >= 0 and led != trump
    beat = same & ~((1 << (top_led + 1)) - 1)
    follow = same if trumped or not beat else beat
    over = trumps & ~((1 << (top_trump + 1)) - 1)
    ruff = over or trumps
    return follow if same else (ruff if trumps else h)


def test_stukolka_follow_read_off_the_best_card_is_the_rule_as_written() -> None:
    rng = np.random.default_rng(5)
    rule = TrickRule(DECK, CARDS // 13, CARDS % 13)
    games = 600
    for size in (1, 2, 3):
        cards = random_tricks(rng, games, size + 5)
        table, hand = cards[:, :size], cards[:, size:]
        trump = rng.integers(0, 4, games)
        base, best = rule.lead(rule.trump_base(trump), table[:, 0] // 13, table[:, 0])
        for j in range(1, size):
            rule.follow(base, best, table[:, j], j)
        h = np.bitwise_or.reduce(np.left_shift(ONE, hand.astype(np.uint64)), axis=1)
        led_bits = np.array([sum(1 << (13 * (c // 13) + r) for r in range(13))
                             for c in table[:, 0].tolist()], dtype=np.uint64)
        trump_bits = np.array([sum(1 << (13 * t + r) for r in range(13))
                               for t in trump.tolist()], dtype=np.uint64)
        got = beat_or_overtrump(h, led_bits, trump_bits, base, best)
        for g in range(games):
            want = scanned_stukolka_follow(int(h[g]), table[g].tolist(), int(trump[g]))
            assert int(got[g]) == want, (g, table[g].tolist(), int(trump[g]))
