"""Stukolka (koloda/rules/stukolka.en.md §Precisely), one deal (a match's first: the pot is the
dealer's ante), batched from the end of the declarations.

**What is batched: the three tricks.** The declarations (``knock`` / ``drop`` /
``golets``) decide who plays, and how many differs from deal to deal, so they are played
at init (``koloda.batched.playphase``) by a fixed random policy drawn from the key:
exactly ``players`` of the ``table`` seats play; in declaration order each of them takes
the golets (while nobody has) with probability 1/3 — his three cards out, the turned card
and the one under it aside, the next three in — else knocks; the others drop. A deal
where nobody or one player plays has no tricks, and a turned trump ace is a redeal with
no play: neither is batched — a deal whose turned card is an ace turns the first non-ace
of the stock instead (the two cards swap places in the shuffled deck the record holds).

``Stukolka(table, players, deck=36, ante=3)``: ``table`` seats (4–7), ``players`` of them
(2..table) in play. Actions ``0..51``: play that card. The golets taker leads, else the
first to knock; then each trick's winner. The trump ace is led whenever its holder leads.
Follow suit and beat the trick's best card of the led suit if able (any card of it once a
plain lead is trumped); void, trump — beating the highest trump in the trick if able —
else any card. Points by seat (the engine's ``StukolkaDeal.payoffs``): a third of the pot
a trick, the whole pot for a player who played and took none, and the dealer's ante off
the dealer.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from koloda.batched.bits import ONE, U64, key_stream
from koloda.batched.core import I64, TrickState
from koloda.batched.playphase import (
    PlayPhase,
    PlayState,
    Prepared,
    choose_stayers,
    compact,
    deal_round_robin,
)
from koloda.batched.trick import beat_or_overtrump
from koloda.cards import ACE
from koloda.cards import deck as card_deck

HAND = 3
SALT_STAY, SALT_GOLETS = 0x57C0_0000, 0x57C1_0000
KNOCK, DROP, GOLETS = 0, 1, 2
class Stukolka(PlayPhase):
    """``Stukolka(table=5, players=3, deck=36, ante=3)``."""

    name = "stukolka"
    hand = HAND
    dealt_hand = HAND

    def __init__(self, table: int = 5, players: int = 3, deck: int = 36, ante: int = 3) -> None:
        if not 4 <= table <= 7:
            raise ValueError(f"stukolka: 4 to 7 seats, not {table}")
        if not 2 <= players <= table:
            raise ValueError(f"stukolka: 2 to {table} players in play (fewer play no trick), "
                             f"not {players}")
        if deck not in (36, 52):
            raise ValueError(f"stukolka: a deck of 36 or 52, not {deck}")
        if ante < 3 or ante % 3:
            raise ValueError(f"stukolka: the ante is a multiple of 3, at least 3, not {ante}")
        self.table, self.players, self.deck_size, self.ante = table, players, deck, ante
        self.deck = np.array(card_deck(deck), dtype=np.uint8)
        self.suit_of = np.arange(64, dtype=np.int64) // 13
        self.power = np.arange(64, dtype=np.int64) % 13
        super().__init__()

    def prepare(self, keys: U64, order: npt.NDArray[np.uint8], dealer: I64) -> Prepared:
        n, games = self.table, len(keys)
        turned = n * HAND
        # a turned ace would be a redeal: turn the stock's first non-ace instead
        ranks = order[:, turned:].astype(np.int64) % 13
        swap = turned + np.argmax(ranks != ACE, axis=1)
        ar = np.arange(games)
        top = order[:, turned].copy()
        order[:, turned] = order[ar, swap]
        order[ar, swap] = top
        hands = deal_round_robin(order, n, HAND)
        trump_card = order[:, turned].astype(np.int64)
        stay = choose_stayers(keys, n, self.players, SALT_STAY,
                              np.zeros((n, games), dtype=np.bool_))
        choice = np.where(stay, KNOCK, DROP).astype(np.int8)
        taker = np.full(games, -1, dtype=np.int64)
        for i in range(n):
            takes = stay[i] & (taker < 0) & (key_stream(keys, SALT_GOLETS + i) % np.uint64(3) == 0)
            choice[i][takes] = GOLETS
            taker[takes] = i
        # the golets: the card under the turned one aside, the next three in
        fresh = np.left_shift(ONE, order[:, turned + 2:turned + 2 + HAND].astype(np.uint64))
        fresh_hand = np.bitwise_or.reduce(fresh, axis=1)
        for i in range(n):
            hands[i] = np.where(taker == i, fresh_hand, hands[i])
        first = np.where(taker >= 0, taker, np.argmax(stay, axis=0))
        seat_rows = (dealer[None, :] + 1 + np.arange(n)[:, None]) % n
        return Prepared(hands=compact(stay, hands, first), seats=compact(stay, seat_rows, first),
                        trump=trump_card // 13, trump_card=trump_card, pre={"choice": choice})

    def pre_actions(self, state: PlayState, game: int) -> list[dict[str, Any]]:
        n, d = self.table, int(state.dealer[game])
        return [{"seat": (d + 1 + i) % n,
                 "action": ("knock", "drop", "golets")[int(state.pre["choice"][i, game])]}
                for i in range(n)]

    def _play_legal(self, state: TrickState, j: int, h: U64) -> U64:
        trump_ace = np.left_shift(ONE, (state.trump * 13 + ACE).astype(np.uint64))
        if j == 0:
            # the trump ace is led whenever its holder leads
            return np.where((h & trump_ace) != 0, trump_ace, h)
        return beat_or_overtrump(h, state.led_bits, state.trump_bits, state.base, state.best)

    def points(self, state: PlayState, tricks: I64) -> npt.NDArray[np.float32]:
        pot = self.ante          # a match's first deal: the pot is the dealer's ante
        return np.where(tricks > 0, tricks * (pot // 3), -pot).astype(np.float32)

    def score(self, state: TrickState) -> npt.NDArray[np.float32]:
        out = super().score(state)
        # the dealer paid the ante into the pot
        np.subtract.at(out, (state.dealer, np.arange(state.games)), self.ante)
        return out

    def record_options(self) -> dict[str, Any]:
        return record_options(self.deck_size, self.ante)


def record_options(deck: int, ante: int) -> dict[str, Any]:
    """A record's options: those that differ from the defaults (36 cards, ante 3)."""
    opts: dict[str, Any] = {}
    if deck != 36:
        opts["deck"] = deck
    if ante != 3:
        opts["ante"] = ante
    return opts


__all__ = ["Stukolka"]
