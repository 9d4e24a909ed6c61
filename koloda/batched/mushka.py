"""Mushka (koloda/rules/mushka.en.md §Precisely), one deal, batched from the end of the exchange
round.

**What is batched: the five tricks.** The exchange round (``discard C…`` / ``stand`` /
``pass``) decides who plays, and how many stay in differs from deal to deal, so it is
played at init (``koloda.batched.playphase``) by a fixed random policy drawn from the key:
exactly ``players`` of the ``table`` seats stay in (the holder of AS always among them: he
may not pass), each of them stands or discards a random non-empty set of cards (never
more than the stock holds; else stands), drawing as many; the others pass. A deal where
nobody or one player stays in has no play, so it has no batch.

``Mushka(table, players)``: ``table`` seats (2–6; 32 cards for 2–4, 52 for 5–6),
``players`` of them (2..table) in play. Actions ``0..51``: play that card. The trump is
the suit of the card turned after the deal (out of play); the first player in left of
the dealer leads, the trick's winner next; follow suit, else trump, else any card.
Points by seat (the engine's ``MushkaDeal.payoffs``: the count runs down from 25): a
player in scores +1 a trick, −5 for taking none; a passer 0.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from koloda.batched.bits import ONE, U64, key_stream, popcount
from koloda.batched.core import I64
from koloda.batched.playphase import (
    PlayPhase,
    PlayState,
    Prepared,
    cards_text,
    choose_stayers,
    compact,
    deal_round_robin,
)
from koloda.cards import ACE, SPADES, card, deck

HAND = 5
ACE_OF_SPADES = card(ACE, SPADES)
NO_TRICK = -5.0
#: the policy's salts: who stays, stand or discard, which cards
SALT_STAY, SALT_STAND, SALT_CARDS = 0x5A11_0000, 0x5A12_0000, 0x5A13_0000
STAND, PASS, DISCARD = 0, 1, 2


class Mushka(PlayPhase):
    """``Mushka(table=4, players=3)``: a deal of ``table`` seats, ``players`` in play."""

    name = "mushka"
    hand = HAND
    dealt_hand = HAND
    follow_trump = True

    def __init__(self, table: int = 4, players: int = 3) -> None:
        if not 2 <= table <= 6:
            raise ValueError(f"mushka: 2 to 6 seats, not {table}")
        if not 2 <= players <= table:
            raise ValueError(f"mushka: 2 to {table} players in play (fewer play no trick), "
                             f"not {players}")
        self.table, self.players = table, players
        self.deck = np.array(deck(32 if table <= 4 else 52), dtype=np.uint8)
        self.suit_of = np.arange(64, dtype=np.int64) // 13
        self.power = np.arange(64, dtype=np.int64) % 13
        super().__init__()

    def prepare(self, keys: U64, order: npt.NDArray[np.uint8], dealer: I64) -> Prepared:
        n, games = self.table, len(keys)
        hands = deal_round_robin(order, n, HAND)       # by order from the dealer's left
        trump_card = order[:, n * HAND].astype(np.int64)
        stock_start, stock = n * HAND + 1, len(self.deck) - n * HAND - 1
        ace = np.uint64(1 << ACE_OF_SPADES)
        stay = choose_stayers(keys, n, self.players, SALT_STAY, (hands & ace) != 0)
        choice = np.full((n, games), PASS, dtype=np.int8)
        discards = np.zeros((n, games), dtype=np.uint64)
        drawn = np.zeros(games, dtype=np.int64)
        ar = np.arange(games)
        for i in range(n):
            stand = (key_stream(keys, SALT_STAND + i) & ONE) == ONE
            d = hands[i] & key_stream(keys, SALT_CARDS + i)
            count = popcount(d).astype(np.int64)
            ok = stay[i] & ~stand & (d != 0) & (count <= stock - drawn)
            choice[i] = np.where(ok, DISCARD, np.where(stay[i], STAND, PASS))
            d = np.where(ok, d, np.uint64(0))
            count = np.where(ok, count, 0)
            discards[i] = d
            new = np.zeros(games, dtype=np.uint64)
            for q in range(HAND):
                pos = np.minimum(stock_start + drawn + q, len(self.deck) - 1)
                c = order[ar, pos].astype(np.uint64)
                new |= np.where(q < count, np.left_shift(ONE, c), np.uint64(0))
            hands[i] = (hands[i] & ~d) | new
            drawn += count
        seat_rows = (dealer[None, :] + 1 + np.arange(n)[:, None]) % n
        # the first player in from the dealer's left leads
        first = np.argmax(stay, axis=0)
        return Prepared(hands=compact(stay, hands, first), seats=compact(stay, seat_rows, first),
                        trump=trump_card // 13, trump_card=trump_card,
                        pre={"choice": choice, "discards": discards})

    def pre_actions(self, state: PlayState, game: int) -> list[dict[str, Any]]:
        n, d = self.table, int(state.dealer[game])
        out = []
        for i in range(n):
            c = int(state.pre["choice"][i, game])
            text = ("stand", "pass")[c] if c != DISCARD else \
                cards_text("discard", int(state.pre["discards"][i, game]))
            out.append({"seat": (d + 1 + i) % n, "action": text})
        return out

    def points(self, state: PlayState, tricks: I64) -> npt.NDArray[np.float32]:
        return np.where(tricks > 0, tricks, NO_TRICK).astype(np.float32)


__all__ = ["Mushka"]
