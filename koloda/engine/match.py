"""A match (партия): deals one after another, each game's score sheet, the safety cap.

``Match`` is the state ``koloda.new_game`` returns. It owns the chance (the seeded
generator, or the explicit deals of a record), the action history and the record; a game
subclasses it and fills in the hooks: how to deal, how a deal starts, how it is scored,
who deals next and what the result is.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections import Counter
from typing import Any

from koloda.cards import Card
from koloda.engine.actions import VERBS as ALL_VERBS
from koloda.engine.actions import Action, canonical
from koloda.engine.deal import AwaitingDeal, Deal, DealState
from koloda.engine.errors import IllegalAction, RecordError
from koloda.engine.messages import Quoted
from koloda.engine.result import Result
from koloda.engine.spec import GameSpec
from koloda.engine.view import EmptyView, Observation, View


class Match:
    """The one API: ``to_move``, ``legal_actions()``, ``apply()``, ``observation()``,
    ``is_over``, ``result``, ``record()``."""

    def __init__(self, spec: GameSpec, players: int, options: dict[str, Any],
                 seed: int | None = None, deals: list[Deal] | None = None,
                 first_dealer: int | None = None, single_deal: bool = False,
                 shapes: dict[int, Deal] | None = None) -> None:
        """``shapes`` (for callers that deal the explicit deals themselves into the
        game's own places, such as chance nodes): deal index → the game's deal of that
        index (``deal_cards``) the caller dealt into, so the check of the explicit deal
        does not deal it again; it is checked against it all the same."""
        self.spec = spec
        self.players = players
        self.options = options
        self.seed = seed
        self.single_deal = single_deal
        self._explicit = list(deals or [])
        #: deal index → the game's shape of that deal, given by the caller (``shapes``)
        self._shapes: dict[int, Deal] = dict(shapes or {})
        self.rng: random.Random | None = random.Random(seed) if seed is not None else None
        if self.rng is None and not self._explicit and first_dealer is None:
            raise RecordError("a match needs a seed, explicit deals or a first dealer")
        #: the dealer of the next deal while the match waits for its cards (provide_deal)
        self.awaiting_dealer: int | None = None
        self.deals: list[Deal] = []
        self.history: list[tuple[int, str]] = []
        self.deals_played = 0
        self.capped = False
        self.is_over = False   # a plain attribute: read on every step of every loop
        self._result: Result | None = None
        self.setup()
        # the generator is always asked, so a record's seed deals its later deals alike
        drawn = self.choose_first_dealer(self.rng) if self.rng is not None else None
        if first_dealer is None:
            first_dealer = drawn if drawn is not None else self._explicit[0].dealer
        assert first_dealer is not None
        if not 0 <= first_dealer < players:
            raise RecordError(f"first_dealer: {first_dealer} is not a seat of {players}")
        self.first_dealer = first_dealer
        self.current: DealState = self._begin_deal(first_dealer)
        self._settle()

    # ----------------------------------------------------------------- hooks
    def setup(self) -> None:
        """Create the score sheet (called once, before the first deal)."""

    def choose_first_dealer(self, rng: random.Random) -> int:
        """By lot unless the game says how (koloda/rules/conventions.en.md §Precisely 9)."""
        return rng.randrange(self.players)

    @abstractmethod
    def deal_cards(self, dealer: int, rng: random.Random) -> Deal:
        """Shuffle and deal the next deal (the game's deck, sizes and trump card)."""

    @classmethod
    def stock_in_play(cls, shape: Deal) -> int:
        """How many cards of a deal's stock, from the top, the rules ever show or hand
        out (the others lie unseen to the end of the deal): all of them unless the game
        says fewer. A table with explicit chance (koloda.envs.chance) deals these by
        chance and lays the rest under them in ascending order."""
        return len(shape.stock)

    @abstractmethod
    def start_deal(self, deal: Deal) -> DealState:
        """The state of a deal dealt as ``deal``."""

    @abstractmethod
    def end_deal(self, state: DealState) -> None:
        """Score a finished deal onto the sheet."""

    @abstractmethod
    def next_dealer(self) -> int | None:
        """The dealer of the next deal, or None when the match has ended by its rules."""

    @abstractmethod
    def final_result(self, capped: bool) -> Result:
        """The result once the match is over (``capped``: by max_deals)."""

    def counts_as_deal(self, state: DealState) -> bool:
        """False for a deal that does not count (a Stukolka redeal)."""
        return True

    def sheet(self) -> View:
        """The public score sheet (every seat may see it), as a typed view."""
        return EmptyView()

    # ------------------------------------------------------------- the API
    @property
    def to_move(self) -> int | None:
        return None if self.is_over else self.current.to_move

    @property
    def result(self) -> Result | None:
        """None while the match is on; then its result, worked out on first asking (a
        finished match never changes, and a simulation loop may never ask)."""
        if self._result is None and self.is_over:
            self._result = self.final_result(self.capped)
        return self._result

    def legal_actions(self) -> list[str]:
        cur = self.current
        legal = cur._legal
        if legal is None:
            if self.is_over:
                return []
            # DealState.legal_actions inlined (the hottest call of every loop); a deal
            # the match still plays is never over
            legal = cur._legal = cur._legal_actions()
        return legal

    def apply(self, action: str | Action) -> str:
        """Apply the action of the seat to move; return its canonical text."""
        cur = self.current
        seat = cur.to_move
        legal = cur._legal
        if legal is None:
            legal = cur.legal_actions()
        if action.__class__ is str and action in legal:
            # the common case, a canonical legal text: DealState.apply without the detour
            text: str = action
        else:
            text = self.check(action)
        cur._legal = None
        cur._do(text)
        self.history.append((seat, text))  # type: ignore[arg-type]
        if cur.is_over:
            self._settle()
        return text

    def check(self, action: str | Action) -> str:
        """The canonical text of ``action`` if the seat to move may play it now; else
        :class:`IllegalAction` with the rule it breaks (the reason a person reads). Changes
        nothing: an interface asks before it stores and applies (``apply`` asks the same)."""
        if self.is_over:
            raise IllegalAction("match_over")
        cur = self.current
        legal = cur.legal_actions()
        text = action if isinstance(action, str) else str(action)
        if text in legal:
            return text
        if cur.is_over:
            raise IllegalAction("deal_over")
        self._check_verb(action)
        text = canonical(action, self.spec.actions)
        if text not in legal:
            raise IllegalAction(cur.why_illegal(text))
        return text

    def _check_verb(self, action: object) -> None:
        """A word that is no action at all is refused naming this game's verbs (not every
        game's); a verb of another game is left to the game's own sentence."""
        verbs = self.spec.actions.verbs()
        if not verbs or not isinstance(action, str):
            return
        words = action.strip().lower().split()
        if words and words[0] not in verbs and words[0] not in ALL_VERBS:
            raise IllegalAction("unknown_action_here", text=Quoted(action.strip()),
                                game=self.spec.named, verbs=", ".join(verbs))

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know: a typed :class:`~koloda.engine.view.Observation`
        (``.to_json()`` for JSON; ``obs["hand"]`` reads the JSON form)."""
        players = self.players
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"no seat {seat}: seats are 0..{players - 1}")
        deals, cur, over = self.deals, self.current, self.is_over
        return Observation(
            self.spec.name, players, seat, len(deals) - 1,
            deals[-1].dealer if self.awaiting_dealer is None else self.awaiting_dealer,
            None if over else cur.to_move, over, self.sheet(), cur.observation(seat))

    def public_observation(self) -> Observation:
        """What a spectator may see: no seat, no field private to a seat (the engine, not
        an interface, decides what is public)."""
        return self.observation(0).public()

    def hidden_from(self, seat: int) -> set[Card]:
        return self.current.hidden_from(seat)

    def record(self, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The koloda-record/1 of this match so far."""
        return {
            "format": "koloda-record/1",
            "game": self.spec.name,
            "players": self.players,
            "options": self.spec.changed_options(self.players, self.options),
            "seats": seats or [{"name": f"Player {i + 1}", "kind": "human"}
                               for i in range(self.players)],
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "deals": [d.to_json() for d in self.deals],
            "actions": [{"seat": s, "action": a} for s, a in self.history],
            "result": self.result.to_json() if self.result else None,
        }

    # ------------------------------------------------------------ internals
    def provide_deal(self, deal: Deal, shape: Deal | None = None) -> None:
        """Give the cards of the deal the match is waiting for (checked like a record's
        deal); play goes on. For callers that deal themselves (e.g. chance nodes);
        ``shape``: the match's own ``deal_cards(dealer, random.Random(index))`` the caller
        dealt into (the check then need not deal it again)."""
        if self.awaiting_dealer is None:
            raise RecordError("no deal is awaited now")
        index = len(self.deals)
        self._explicit[index:] = [deal]
        if shape is not None:
            self._shapes[index] = shape
        dealer, self.awaiting_dealer = self.awaiting_dealer, None
        self.current = self._begin_deal(dealer)
        self._settle()

    def _begin_deal(self, dealer: int) -> DealState:
        index = len(self.deals)
        generated = self.deal_cards(dealer, self.rng) if self.rng is not None else None
        if index < len(self._explicit):
            deal = self._explicit[index]
            self._check_deal(deal, dealer, index)
        elif generated is not None:
            deal = generated
        else:
            # a record without a seed ends here, or a caller will provide the deal
            self.awaiting_dealer = dealer
            return AwaitingDeal(self.players, dealer)
        self.deals.append(deal)
        return self.start_deal(deal)

    def _check_deal(self, deal: Deal, dealer: int, index: int) -> None:
        """An explicit deal must have the shape this game deals: sizes, cards, trump card."""
        where = f"deals[{index}]"
        if deal.dealer != dealer:
            raise RecordError(f"{where}.dealer: {deal.dealer}, but seat {dealer} deals now")
        shape = self._shapes.pop(index, None)
        if shape is None:
            shape = self.deal_cards(dealer, random.Random(index))
        if len(deal.hands) != len(shape.hands):
            raise RecordError(f"{where}.hands: {len(deal.hands)} hands, expected "
                              f"{len(shape.hands)}")
        for i, (h, s) in enumerate(zip(deal.hands, shape.hands, strict=True)):
            if len(h) != len(s):
                raise RecordError(f"{where}.hands[{i}]: {len(h)} cards, expected {len(s)}")
        turned_outside = shape.trump_card is not None and shape.trump_card not in \
            shape.stock and all(shape.trump_card not in h for h in shape.hands)
        if turned_outside and deal.trump_card is not None and deal.stock[:1] == \
                (deal.trump_card,) and len(deal.stock) == len(shape.stock) + 1:
            # the turned card written as the stock's top card: read it as turned up
            deal = Deal(deal.dealer, deal.hands, deal.stock[1:], deal.trump_card)
        elif turned_outside and deal.trump_card in deal.stock:
            from koloda.cards import CARD_TEXT
            raise RecordError(f"{where}.trump_card: {CARD_TEXT[deal.trump_card]} lies inside "
                              f"the stock; it is turned up, so it lies outside it (or is "
                              f"written as stock[0])")
        if len(deal.stock) != len(shape.stock):
            raise RecordError(f"{where}.stock: {len(deal.stock)} cards, expected "
                              f"{len(shape.stock)}")
        got_cards, want_cards = deal.all_cards(), shape.all_cards()
        if sorted(got_cards) != sorted(want_cards):     # not the same cards (a multiset)
            got, want = Counter(got_cards), Counter(want_cards)
            from koloda.cards import CARD_TEXT
            extra = sorted((got - want).elements())
            missing = sorted((want - got).elements())
            raise RecordError(f"{where}: the cards are not this game's deck (extra: "
                              f"{' '.join(CARD_TEXT[c] for c in extra) or 'none'}; missing: "
                              f"{' '.join(CARD_TEXT[c] for c in missing) or 'none'})")
        self._check_trump_card(deal, shape, where)

    @staticmethod
    def _check_trump_card(deal: Deal, shape: Deal, where: str) -> None:
        if shape.trump_card is None:
            if deal.trump_card is not None:
                raise RecordError(f"{where}.trump_card: this deal has no trump card")
            return
        if shape.trump_card in shape.stock:
            pos = shape.stock.index(shape.trump_card)
            expected = deal.stock[pos]
            place = f"stock[{pos}]"
        elif any(shape.trump_card in h for h in shape.hands):
            seat = next(i for i, h in enumerate(shape.hands) if shape.trump_card in h)
            pos = shape.hands[seat].index(shape.trump_card)
            expected = deal.hands[seat][pos]
            place = f"hands[{seat}][{pos}]"
        else:
            # turned up outside the stock and hands (out of play): the card check covers it
            if deal.trump_card is None:
                raise RecordError(f"{where}.trump_card: this deal turns a trump card")
            return
        if deal.trump_card != expected:
            from koloda.cards import CARD_TEXT
            raise RecordError(f"{where}.trump_card: must be the card at {place}, "
                              f"{CARD_TEXT[expected]}")

    def _settle(self) -> None:
        """Score finished deals and deal the next until someone must act or it is over."""
        while self.current.is_over and not self.is_over:
            self.end_deal(self.current)
            counted = self.counts_as_deal(self.current)
            if counted:
                self.deals_played += 1
            nxt = self.next_dealer()
            if nxt is None or (self.single_deal and counted):
                self._finish(capped=False)
            elif counted and self.deals_played >= self.options["max_deals"]:
                self._finish(capped=True)
            else:
                self.current = self._begin_deal(nxt)

    def _finish(self, capped: bool) -> None:
        self.is_over = True
        self.capped = capped
