"""Mushka (RULES.md §2): five cards, one exchange round, five tricks, count down from 25.

A deal has two phases. In the exchange round each player, from the dealer's left with the
dealer last, discards 1–5 cards and draws as many (``discard C…``), keeps the hand
(``stand``) or drops out (``pass``; barred while holding AS). The players still in then
play five tricks under follow-suit, else trump, else any card; the trick itself (who may
play what, who wins) is the shared core's (koloda/tricks.py, FollowElseTrump).

The card turned up for trump is out of play. Records keep it outside the stock, as the
example record does (``trump_card`` beside a stock of the cards still to draw); a record
that writes it as ``stock[0]`` is read as well.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from koloda.cards import (
    ACE,
    CARD_TEXT,
    SPADES,
    SUITS,
    TEXT_CARD,
    Card,
    card,
    deck,
    rank_of,
    suit_of,
)
from koloda.engine.actions import cards_action
from koloda.engine.deal import Deal, DealState, deal_round_robin
from koloda.engine.match import Match
from koloda.engine.result import Result, best_seats
from koloda.engine.spec import GameSpec
from koloda.tricks import FollowElseTrump, Trick, TrickRules, legal_plays, parse_play, why_not_play

ACE_OF_SPADES = card(ACE, SPADES)
HAND = 5
START = 25
NO_TRICK_PENALTY = 5
#: the trick rules for each trump suit (Mushka has always a trump; AS has no power here)
RULES_BY_TRUMP = tuple(TrickRules(s, FollowElseTrump()) for s in range(4))


def deck_size(players: int) -> int:
    """32 cards for 2–4 players, 52 for 5–6."""
    return 32 if players <= 4 else 52


def draw_for_first_dealer(rng: random.Random, players: int) -> dict[str, Any]:
    """Each player draws a card; the lowest rank deals; tied lowest players draw again.

    Returns ``{"dealer": seat, "rounds": [[[seat, "7C"], ...], ...]}``: the whole public
    draw, kept on the score sheet. Suits do not matter; a pack that runs out is reshuffled.
    """
    pack: list[Card] = []
    contenders = list(range(players))
    rounds: list[list[list[Any]]] = []
    while True:
        if len(pack) < len(contenders):
            pack = list(deck(deck_size(players)))
            rng.shuffle(pack)
        drawn = [(seat, pack.pop()) for seat in contenders]
        rounds.append([[seat, CARD_TEXT[c]] for seat, c in drawn])
        low = min(rank_of(c) for _, c in drawn)
        contenders = [seat for seat, c in drawn if rank_of(c) == low]
        if len(contenders) == 1:
            return {"dealer": contenders[0], "rounds": rounds}


class MushkaDeal(DealState):
    """One deal: the exchange round, then the tricks among the players still in."""

    def __init__(self, deal: Deal) -> None:
        self.players = n = len(deal.hands)
        self.dealer = deal.dealer
        assert deal.trump_card is not None
        self.trump_card: Card = deal.trump_card
        self.rules = RULES_BY_TRUMP[suit_of(self.trump_card)]
        self.hands = [sorted(h) for h in deal.hands]
        # the turned card is out of play; a record may also write it as stock[0]
        self.trump_in_stock = bool(deal.stock) and deal.stock[0] == self.trump_card
        self.stock = list(deal.stock[1:] if self.trump_in_stock else deal.stock)
        self.all_cards = frozenset(c for h in deal.hands for c in h) | {self.trump_card} \
            | frozenset(deal.stock)
        self.discards: list[list[Card]] = [[] for _ in range(n)]
        self.order = [(self.dealer + 1 + i) % n for i in range(n)]  # dealer last
        self.choices: list[str | None] = [None] * n  # "discard N", "stand" or "pass"
        self.phase = "exchange"
        self.turn = 0  # index into self.order during the exchange
        self.in_play: list[int] = []
        self.tricks = [0] * n
        self.trick: Trick | None = None
        self.done: list[Trick] = []
        self.played: set[Card] = set()
        self.to_move = self.order[0]

    # ------------------------------------------------------------ actions
    def _legal_actions(self) -> list[str]:
        seat = self.to_move
        assert seat is not None
        hand = self.hands[seat]
        if self.phase == "play":
            return legal_plays(self.rules, hand, self.trick)
        most = min(HAND, len(self.stock), len(hand))
        out = [cards_action("discard", combo)
               for k in range(1, most + 1) for combo in combinations(hand, k)]
        out.append("stand")
        if ACE_OF_SPADES not in hand:
            out.append("pass")
        return out

    def why_illegal(self, action: str) -> str:
        seat = self.to_move
        assert seat is not None
        hand = self.hands[seat]
        verb = action.split()[0]
        if self.phase == "play":
            if verb != "play":
                return f"the exchange round is over: play a card ('{action}' is not a play)"
            c, mode = parse_play(action)
            return why_not_play(self.rules, hand, self.trick, c, mode)
        if verb == "play":
            return "the exchange round comes first: discard, stand or pass"
        if verb == "pass" and ACE_OF_SPADES in hand:
            return "you hold AS: a player holding the ace of spades may not pass"
        if verb == "discard":
            cards = [TEXT_CARD[w] for w in action.split()[1:]]
            missing = [c for c in cards if c not in hand]
            if missing:
                return f"you do not hold {' '.join(CARD_TEXT[c] for c in missing)}"
            if not self.stock:
                return "the stock is empty: only stand or pass remain"
            if len(cards) > len(self.stock):
                return (f"the stock holds only {len(self.stock)} cards: you may discard at "
                        f"most {len(self.stock)}")
        return (f"'{action}' is not an action of the exchange round: discard 1–5 cards, "
                f"stand or pass")

    def _do(self, action: str) -> None:
        seat = self.to_move
        assert seat is not None
        if self.phase == "play":
            self._play(seat, parse_play(action)[0])
            return
        hand = self.hands[seat]
        words = action.split()
        if words[0] == "discard":
            for w in words[1:]:
                c = TEXT_CARD[w]
                hand.remove(c)
                self.discards[seat].append(c)
            k = len(words) - 1
            hand.extend(self.stock[:k])
            del self.stock[:k]
            hand.sort()
            self.choices[seat] = f"discard {k}"
        elif words[0] == "stand":
            self.choices[seat] = "stand"
        else:
            self.discards[seat].extend(hand)
            hand.clear()
            self.choices[seat] = "pass"
        self.turn += 1
        if self.turn < self.players:
            self.to_move = self.order[self.turn]
        else:
            self._end_exchange()

    def _end_exchange(self) -> None:
        """Judged after the whole round: nobody in is void, one in takes all five tricks."""
        self.in_play = [s for s in self.order if self.choices[s] != "pass"]
        if not self.in_play:
            self._over()
        elif len(self.in_play) == 1:
            self.tricks[self.in_play[0]] = HAND
            self._over()
        else:
            self.phase = "play"
            self.trick = Trick(self.in_play[0])
            self.to_move = self.in_play[0]

    def _play(self, seat: int, c: Card) -> None:
        trick = self.trick
        assert trick is not None
        self.hands[seat].remove(c)
        self.played.add(c)
        trick.add(self.rules, seat, c)
        if len(trick) < len(self.in_play):
            i = self.in_play.index(seat)
            self.to_move = self.in_play[(i + 1) % len(self.in_play)]
            return
        winner = trick.winner(self.rules)
        self.tricks[winner] += 1
        self.done.append(trick)
        if not self.hands[winner]:
            self.trick = None
            self._over()
        else:
            self.trick = Trick(winner)
            self.to_move = winner

    def _over(self) -> None:
        self.phase = "over"
        self.is_over = True
        self.to_move = None

    # -------------------------------------------------------------- scoring
    def score_changes(self) -> list[int]:
        """−1 a trick; +5 for a player who stayed in and took none; passers unchanged."""
        out = [0] * self.players
        for s in self.in_play:
            out[s] = -self.tricks[s] if self.tricks[s] else NO_TRICK_PENALTY
        return out

    # ---------------------------------------------------------------- views
    def observation(self, seat: int) -> dict[str, Any]:
        last = self.done[-1] if self.done else None
        return {
            "phase": self.phase,
            "hand": [CARD_TEXT[c] for c in self.hands[seat]],
            "hand_sizes": [len(h) for h in self.hands],
            "trump_card": CARD_TEXT[self.trump_card],
            "trump": SUITS[suit_of(self.trump_card)],
            "stock": len(self.stock),
            "choices": list(self.choices),
            "in_play": list(self.in_play),
            "my_discards": [CARD_TEXT[c] for c in self.discards[seat]],
            "trick": self.trick.to_json() if self.trick else [],
            "last_trick": ({"cards": last.to_json(), "winner": last.winner(self.rules)}
                           if last else None),
            "tricks": list(self.tricks),
        }

    def card_zones(self) -> dict[str, list[Card]]:
        zones = {f"hand{s}": list(h) for s, h in enumerate(self.hands)}
        zones["stock"] = list(self.stock)
        zones["discards"] = [c for d in self.discards for c in d]
        zones["tricks"] = [c for t in self.done for c in t.cards] + \
            (list(self.trick.cards) if self.trick else [])
        zones["trump_card"] = [self.trump_card]   # turned up, out of play
        return zones

    def hidden_from(self, seat: int) -> set[Card]:
        known = set(self.hands[seat]) | set(self.discards[seat]) | self.played \
            | {self.trump_card}
        return set(self.all_cards - known)


class MushkaMatch(Match):
    """Scores count down from 25; the match ends after a deal that takes someone to 0."""

    def setup(self) -> None:
        self.scores = [START] * self.players
        self.deal_log: list[dict[str, Any]] = []
        # the draw for the first dealer is made here, so that a replay of a seeded record
        # (which states first_dealer) shows the same draw on the sheet
        self.dealer_draw = (draw_for_first_dealer(self.rng, self.players)
                            if self.rng is not None else None)

    def choose_first_dealer(self, rng: random.Random) -> int:
        if self.dealer_draw is None:
            self.dealer_draw = draw_for_first_dealer(rng, self.players)
        return int(self.dealer_draw["dealer"])

    def deal_cards(self, dealer: int, rng: random.Random) -> Deal:
        cards = list(deck(deck_size(self.players)))
        rng.shuffle(cards)
        hands, rest = deal_round_robin(cards, self.players, dealer, HAND)
        return Deal(dealer, hands, rest[1:], rest[0])

    def start_deal(self, deal: Deal) -> DealState:
        return MushkaDeal(deal)

    def end_deal(self, state: DealState) -> None:
        assert isinstance(state, MushkaDeal)
        changes = state.score_changes()
        for s, d in enumerate(changes):
            self.scores[s] += d
        kind = ("void" if not state.in_play else "alone" if len(state.in_play) == 1
                else "played")
        self.deal_log.append({"dealer": state.dealer, "kind": kind,
                              "choices": list(state.choices), "tricks": list(state.tricks),
                              "changes": changes, "scores": list(self.scores)})

    def next_dealer(self) -> int | None:
        if min(self.scores) <= 0:
            return None
        return (self.deals[-1].dealer + 1) % self.players

    def _public_draw(self) -> dict[str, Any] | None:
        draw = self.dealer_draw
        return draw if draw is not None and draw["dealer"] == self.first_dealer else None

    def final_result(self, capped: bool) -> Result:
        details = {"first_dealer_draw": self._public_draw(), "deals": self.deal_log}
        return Result.of(best_seats(self.scores, higher_is_better=False), self.players,
                         list(self.scores), capped, details)

    def sheet(self) -> dict[str, Any]:
        """Scores, and the draw for the first dealer by rank only: the draw used its own
        pack, and its suits (which decide nothing) would read like cards of the deal."""
        draw = self._public_draw()
        if draw is not None:
            draw = {"dealer": draw["dealer"],
                    "rounds": [[[seat, text[:-1]] for seat, text in rnd]
                               for rnd in draw["rounds"]]}
        return {"scores": list(self.scores), "first_dealer_draw": draw,
                "deals_played": self.deals_played}


SPECS = [GameSpec(
    name="mushka", family="mushka", variant="classic",
    title_en="Mushka", title_ru="Мушка",
    players=(2, 3, 4, 5, 6), default_players=4, match_class=MushkaMatch,
    summary_en="Five cards, one exchange, five tricks; count down from 25, first to 0 wins.",
    summary_ru="Пять карт, один прикуп, пять взяток; списывают с 25, первый до нуля выигрывает.",
    aliases=("мушка",),
)]
