"""Opendaum classic (koloda/rules/opendaum.en.md §Precisely 1–9), one deal of a chosen size,
batched.

Action space (``num_actions = 52 + hand + 1``): ``0..51`` play the card of that int
(``suit * 13 + rank``, suits S C D H — koloda's card ints), ``52 + k`` bid ``k`` tricks
(``k = 0..hand``). A step is a bid for the first ``players`` steps (from the dealer's
left, dealer last; no bid is ever refused: the hook rule is §1c's alone), then a play.

Trump: the top card of the stock, turned; with no stock (the whole deck dealt) the
dealer's last card. Play: the dealer's left leads, the trick's winner leads next; follow
suit, else trump, else anything. Scoring: a made bid ``5 × bid + 5``, else one point a
trick. The OpenSpiel ``oh_hell`` shape is ``Opendaum(players=4, hand=8)`` (36 cards).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from koloda.batched.bits import popcount as popcount_u64
from koloda.batched.bits import unpack
from koloda.batched.core import CARDS, F32, I64, TrickGame, TrickState
from koloda.cards import deck as koloda_deck
from koloda.games.opendaum.match import schedule

#: koloda/rules/opendaum.en.md §Precisely 1–9: the deck by player count (four players may choose
#: 32). The deck named "30" is ``koloda.cards.deck(30)``: 36 without the red sixes and the four
#: sevens, 30 cards, dealt out whole at 6 each (the dealer's last card turns trump)
DECKS = {2: 32, 3: 36, 4: 36, 5: 30, 6: 36}
#: the adapters' opendaum action space (koloda.envs.actions): ``bid 0`` .. ``bid 18``, then
#: the cards (tests/test_batched_features.py holds it to the adapters' own numbering)
ADAPTER_PLAY = 19


class Opendaum(TrickGame):
    """``Opendaum(players, hand, deck)``: the deal of ``hand`` cards each."""

    name = "opendaum"
    bidding = True
    follow_trump = True
    #: the deck by player count (a variant has its own)
    decks: ClassVar[dict[int, int]] = DECKS

    def __init__(self, players: int = 4, hand: int = 8, deck: int | None = None) -> None:
        decks, name = self.decks, self.name
        if players not in decks:
            low, high = min(decks), max(decks)
            allowed = f"{low} to {high}" if low < high else f"exactly {low}"
            raise ValueError(f"{name}: {allowed} players, not {players}")
        size = decks[players] if deck is None else deck
        if size != decks[players] and not (decks is DECKS and players == 4 and size == 32):
            raise ValueError(f"{name}: {players} players play {decks[players]} cards"
                             + (" (or 32)" if decks is DECKS and players == 4 else ""))
        if not 1 <= hand <= size // players:
            raise ValueError(f"{name}: a deal of 1 to {size // players} cards each")
        self.players, self.hand, self.deck_size = players, hand, size
        self.deck = np.array(koloda_deck(size), dtype=np.uint8)
        self.suit_of = np.arange(64, dtype=np.int64) // 13
        self.power = np.arange(64, dtype=np.int64) % 13
        super().__init__()

    def trumps(self, order: npt.NDArray[np.uint8], dealer: I64) -> tuple[I64, I64]:
        dealt = self.players * self.hand
        # the stock's top card is turned; with no stock, the dealer's (last dealt) card
        card = order[:, dealt if dealt < len(self.deck) else dealt - 1].astype(np.int64)
        return card // 13, card

    def score(self, state: TrickState) -> F32:
        bids, tricks = state.bids, self.tricks(state)
        points = np.where(bids == tricks, 5 * bids + 5, tricks).astype(np.float32)
        return self.by_seat(state, points)

    # ------------------------------------------------ the adapters' own vector
    def features_layout(self) -> dict[str, tuple[int, int]]:
        """The adapters' opendaum blocks for this player count: name → (offset, size)."""
        P = self.players
        sizes = [("seat", P), ("to_move", P), ("dealer", P), ("match_over", 1),
                 ("deal_number", 1), ("phase", 3), ("hand", CARDS), ("hand_sizes", P),
                 ("deal_size", 1), ("schedule_position", 1), ("schedule_length", 1),
                 ("final_deal", 1), ("trump", 4), ("trump_card", CARDS),
                 ("trump_card_in_dealer_hand", 1), ("bids", 2 * P), ("forbidden_bid", 2),
                 ("tricks_taken", P), ("leader", P), ("trick", P * CARDS),
                 ("last_trick", P * CARDS), ("last_trick_winner", P),
                 ("tricks_played", P * CARDS), ("voids", 4 * P), ("totals", P),
                 ("seen", CARDS), ("selected", CARDS)]
        out, at = {}, 0
        for name, n in sizes:
            out[name] = (at, n)
            at += n
        return out

    @property
    def features_size(self) -> int:
        at, n = self.features_layout()["selected"]
        return at + n

    def features(self, state: TrickState) -> F32:
        """(games, features_size) float32: the very vector the PettingZoo, OpenSpiel and
        Gymnasium adapters give the player to move in this deal (the engine's match begun
        at ``start_deal = hand - 1``: ``record_options``), the cards seen this deal
        included; all zero once the deal is over. Its actions are the adapters' through
        ``to_adapter_actions`` / ``from_adapter_actions``.
        tests/test_batched_features.py checks it at every step of random deals."""
        if type(self) is not Opendaum:
            raise NotImplementedError(f"{self.name}: the adapters' vector is written for "
                                      f"classic opendaum only")
        P, H = self.players, self.hand
        lay = self.features_layout()
        games, t = state.games, state.t
        out = np.zeros((games, self.features_size), dtype=np.float32)
        if t >= P + P * H:
            return out
        rows = np.arange(games)
        bidding = t < P
        k, j = (0, 0) if bidding else divmod(t - P, P)
        leader = state.leader                       # by order from the dealer's left
        order_m = np.full(games, t) if bidding else (leader + j) % P
        mover = (state.dealer + 1 + order_m) % P

        def rel(order: Any) -> Any:
            return (order - order_m) % P

        def at(name: str) -> int:
            return lay[name][0]

        out[rows, mover] = 1.0
        out[:, at("to_move")] = 1.0
        out[rows, at("dealer") + rel(P - 1)] = 1.0
        out[:, at("phase") + (0 if bidding else 1)] = 1.0
        jm = t if bidding else j                 # the mover's row of ``hands``
        out[:, at("hand"):at("hand") + CARDS] = unpack(state.hands[jm], CARDS)
        for r in range(P):
            held = popcount_u64(state.hands[r])
            out[rows, at("hand_sizes") + (r - jm) % P] = held * (1 / 18)
        out[:, at("deal_size")] = H * (1 / 18)
        plan = schedule(self.deck_size // P, P)
        position = H - 1
        out[:, at("schedule_position")] = position * (1 / 40)
        out[:, at("schedule_length")] = len(plan) * (1 / 40)
        out[:, at("final_deal")] = position == len(plan) - 1
        out[rows, at("trump") + state.trump] = 1.0
        out[rows, at("trump_card") + state.trump_card] = 1.0
        out[:, at("trump_card_in_dealer_hand")] = self.deck_size <= P * H
        for o in range(P):
            b = state.bids[o]
            has = b >= 0
            r = rel(o)
            out[rows[has], at("bids") + r[has]] = 1.0
            out[rows[has], at("bids") + P + r[has]] = b[has] * (1 / 18)
        out[rows, at("leader") + rel(leader)] = 1.0
        # the tricks played, every play at once: (plays, games) arrays of the card, the
        # trick it went to, its seat relative to the mover, the suit led to its trick
        n = k * P + j
        if n:
            cards = state.history[P:P + n].astype(np.int64)
            trick_of = np.arange(n) // P
            leaders = np.zeros((k + 1, games), dtype=np.int64)
            leaders[1:] = state.winners[:k]
            by = (leaders[trick_of] + (np.arange(n) % P)[:, None] - order_m) % P
            where = by * CARDS + cards
            g = np.broadcast_to(rows, (n, games))
            done = trick_of < k
            out[g[done], at("tricks_played") + where[done]] = 1.0
            out[g[~done], at("trick") + where[~done]] = 1.0
            last = trick_of == k - 1
            out[g[last], at("last_trick") + where[last]] = 1.0
            out[g, at("seen") + cards] = 1.0
            suit = self.suit_of[cards]
            led = suit[trick_of * P]
            # off suit: void in the suit led, and, not a trump either, in the trumps
            off = suit != led
            out[g[off], at("voids") + 4 * by[off] + led[off]] = 1.0
            ruff = off & (suit != state.trump)
            out[g[ruff], at("voids") + 4 * by[ruff] + np.broadcast_to(state.trump,
                                                                       (n, games))[ruff]] = 1.0
        if k:
            out[rows, at("last_trick_winner") + rel(state.winners[k - 1])] = 1.0
            taken = np.zeros((P, games), dtype=np.int64)
            for trick in range(k):
                taken[state.winners[trick], rows] += 1
            for o in range(P):
                out[rows, at("tricks_taken") + rel(o)] = taken[o] * (1 / 18)
        return out

    def to_adapter_actions(self, actions: npt.ArrayLike) -> I64:
        """Batch action indices as the adapters number them (``koloda.envs.actions``:
        ``bid k`` is ``k``, ``play C`` is ``19 + C``)."""
        a = np.asarray(actions, dtype=np.int64)
        return np.where(a >= CARDS, a - CARDS, a + ADAPTER_PLAY)

    def adapter_mask(self, state: TrickState) -> npt.NDArray[np.bool_]:
        """(games, 71) the legal actions of the player to move in the adapters' numbering
        (``koloda.envs.actions.action_space("opendaum")``)."""
        out = np.zeros((state.games, ADAPTER_PLAY + CARDS), dtype=np.bool_)
        out[:, self.to_adapter_actions(np.arange(self.num_actions))] = self.mask(state)
        return out

    def from_adapter_actions(self, actions: npt.ArrayLike) -> I64:
        """The adapters' action indices as this batch numbers them (a bid beyond this
        deal's size, or an index outside the space, is refused)."""
        a = np.asarray(actions, dtype=np.int64)
        if ((a < 0) | (a >= ADAPTER_PLAY + CARDS) | ((a < ADAPTER_PLAY) & (a > self.hand))
                ).any():
            bad = a[(a < 0) | (a >= ADAPTER_PLAY + CARDS)
                    | ((a < ADAPTER_PLAY) & (a > self.hand))][0]
            raise ValueError(f"{self.name}: adapter action {int(bad)} is no bid of 0..{self.hand}"
                             f" nor a card ({ADAPTER_PLAY}..{ADAPTER_PLAY + CARDS - 1})")
        return np.where(a < ADAPTER_PLAY, a + CARDS, a - ADAPTER_PLAY)

    def record_options(self) -> dict[str, Any]:
        # the engine's schedule deals `hand` cards at position hand - 1 (1, 2, …, M, M, …)
        opts: dict[str, Any] = {"start_deal": self.hand - 1}
        if self.deck_size != self.decks[self.players]:
            opts["deck"] = self.deck_size
        return opts
