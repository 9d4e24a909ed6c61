"""Dreyfus (koloda/rules/dreyfus.en.md §Precisely), one deal, batched from the end of the exchange
with the widow.

**What is batched: the twelve tricks.** The exchange (up to 4 096 discard sets a turn, and
a player skipped once the widow is empty) is played at init (``koloda.batched.playphase``)
by a fixed random policy drawn from the key: in turn from the dealer's left each player
stands (probability 1/4) or discards a random set of his cards — each card with
probability 1/2 or 1/4 — and takes as many from the widow; a set larger than the widow
left, or empty, stands. Every player keeps 12 cards, so the tricks are the same shape in
every game: three players, twelve tricks, the dealer's left leading the first.

``Dreyfus(number=0)``: the deal of that number in the match (0-based): the trump is
``number % 5`` — spades, clubs, diamonds, hearts, no trump. Actions ``0..51``: play that
card. Follow suit; if void, trump (when there is a trump suit), else any card. Points by
seat (the engine's ``DreyfusDeal.payoffs``): tricks − 4 − cards bought.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from koloda.batched.bits import ONE, U64, key_stream, popcount
from koloda.batched.core import I64, TrickState
from koloda.batched.playphase import PlayPhase, PlayState, Prepared, cards_text
from koloda.cards import CARD_TEXT, deck

PLAYERS, HAND, PAR = 3, 12, 4
#: the trump of deal d is TRUMPS[d % 5] (-1: no trump)
TRUMPS = (0, 1, 2, 3, -1)
SALT_STAND, SALT_CARDS, SALT_HALF = 0xD4E0_0000, 0xD4E1_0000, 0xD4E2_0000
#: where each packet's cards lie in the shuffled deck: dealt by threes into four packets
#: (dealer's left, next, dealer, widow), four rounds
PACKETS = [[12 * r + 3 * p + i for r in range(4) for i in range(3)] for p in range(4)]


class Dreyfus(PlayPhase):
    """``Dreyfus(number=0)``: the play of deal ``number``'s tricks after the exchange."""

    name = "dreyfus"
    players = PLAYERS
    table = PLAYERS
    hand = HAND
    dealt_hand = HAND
    follow_trump = True

    def __init__(self, number: int = 0) -> None:
        if number < 0:
            raise ValueError(f"dreyfus: a deal number ≥ 0, not {number}")
        self.number = number
        self.deck = np.array(deck(48), dtype=np.uint8)
        self.suit_of = np.arange(64, dtype=np.int64) // 13
        self.power = np.arange(64, dtype=np.int64) % 13
        super().__init__()

    def prepare(self, keys: U64, order: npt.NDArray[np.uint8], dealer: I64) -> Prepared:
        games = len(keys)
        ar = np.arange(games)
        packets = [np.bitwise_or.reduce(
            np.left_shift(ONE, order[:, p].astype(np.uint64)), axis=1) for p in PACKETS[:3]]
        hands = np.stack(packets)
        widow = np.array(PACKETS[3])
        bought = np.zeros((PLAYERS, games), dtype=np.int64)
        discards = np.zeros((PLAYERS, games), dtype=np.uint64)
        drawn = np.zeros(games, dtype=np.int64)
        turn = np.zeros((PLAYERS, games), dtype=np.bool_)   # had a turn (the widow not empty)
        for i in range(PLAYERS):
            turn[i] = drawn < HAND
            stand = key_stream(keys, SALT_STAND + i) % np.uint64(4) == 0
            d = hands[i] & key_stream(keys, SALT_CARDS + i)
            half = (key_stream(keys, SALT_HALF + i) & ONE) == ONE
            d = np.where(half, d, d & key_stream(keys, SALT_HALF + 8 + i))
            count = popcount(d).astype(np.int64)
            ok = turn[i] & ~stand & (count <= HAND - drawn)
            d = np.where(ok, d, np.uint64(0))
            count = np.where(ok, count, 0)
            new = np.zeros(games, dtype=np.uint64)
            for q in range(HAND):
                c = order[ar, widow[np.minimum(drawn + q, HAND - 1)]].astype(np.uint64)
                new |= np.where(q < count, np.left_shift(ONE, c), np.uint64(0))
            hands[i] = (hands[i] & ~d) | new
            discards[i], bought[i] = d, count
            drawn += count
        trump = np.full(games, TRUMPS[self.number % 5], dtype=np.int64)
        seats = (dealer[None, :] + 1 + np.arange(PLAYERS)[:, None]) % PLAYERS
        return Prepared(hands=hands, seats=seats, trump=trump,
                        trump_card=np.full(games, -1, dtype=np.int64),
                        pre={"turn": turn, "discards": discards, "bought": bought})

    def pre_actions(self, state: PlayState, game: int) -> list[dict[str, Any]]:
        out = []
        for i in range(PLAYERS):
            if state.pre["turn"][i, game]:
                d = int(state.pre["discards"][i, game])
                out.append({"seat": int(state.seats[i, game]),
                            "action": cards_text("discard", d) if d else "stand"})
        return out

    def points(self, state: PlayState, tricks: I64) -> npt.NDArray[np.float32]:
        return (tricks - PAR - state.pre["bought"]).astype(np.float32)

    def deal_json(self, state: TrickState, game: int) -> dict[str, Any]:
        order = state.order[game].tolist()
        d = int(state.dealer[game])
        hands: list[list[str]] = [[] for _ in range(PLAYERS)]
        for k in range(PLAYERS):
            hands[(d + 1 + k) % PLAYERS] = [CARD_TEXT[order[i]] for i in PACKETS[k]]
        return {"dealer": d, "hands": hands,
                "stock": [CARD_TEXT[order[i]] for i in PACKETS[3]], "trump_card": None}


__all__ = ["Dreyfus"]
