"""A koloda match whose chance is explicit: the first dealer and every dealt card are
outcomes chosen from outside, one at a time (what OpenSpiel's chance nodes need).
Standard library only; koloda.envs.openspiel is the thin pyspiel layer over it.

The first chance node draws the first dealer (uniform over the seats). Then each card of a
deal is one chance node: the card for the next place — every hand in seat order, then the
stock top first, then a card turned up outside both (Mushka, Stukolka) — uniform over the
cards not dealt yet. A stock the rules never look at below its top few cards
(``Match.stock_in_play``: Opendaum's, under the turned trump card) is dealt by chance
only that far; its other cards, never seen nor drawn, are laid under in ascending order
(a first 4-player Opendaum deal, one card each, is five chance nodes, not 36). The
places and the deck come from the game itself (``Match.deal_cards`` with a throwaway
generator), and the finished deal enters the match
as an explicit deal, checked like a record's. A later deal of a multi-deal match is dealt
the same way: a Match without a seed waits between deals (``Match.awaiting_dealer``) until
``Match.provide_deal`` gives it the cards chosen. The dealer of a later deal is the
game's own choice (its rules say who deals next); after a drawn Durak game, where the
rules draw lots, the engine's no-generator path gives the deal to seat 0.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from functools import cache
from typing import Any

from koloda.cards import CARD_TEXT, TEXT_CARD, Card
from koloda.engine.deal import Deal
from koloda.engine.match import Match
from koloda.engine.registry import get_spec
from koloda.envs.actions import Selection, action_space
from koloda.envs.common import features, put, result_rewards
from koloda.tensors import CARDS, TableMemory, render
from koloda.tensors.typed import Indices, field_kind

CHANCE = -1
TERMINAL = -4
#: verbs whose cards the other seats do not see (discards lie face down in every game)
FACE_DOWN = frozenset({"discard"})


#: (game, players, options, dealer) → the first deal's shape (Table._first_shape)
_FIRST_SHAPES: dict[tuple[str, int, str, int], Deal] = {}


class _Dealing:
    """One deal being dealt card by card into the places of ``shape``."""

    def __init__(self, shape: Deal, stock_in_play: int | None = None) -> None:
        self.shape = shape
        #: the stock's cards dealt by chance, from the top (``Match.stock_in_play``); the
        #: others, never seen nor drawn, are laid under them in ascending order
        self.stock_dealt = len(shape.stock) if stock_in_play is None else stock_in_play
        self.places = sum(len(h) for h in shape.hands) + self.stock_dealt
        t = shape.trump_card
        self.turned_outside = t is not None and t not in shape.stock \
            and all(t not in h for h in shape.hands)
        self.places += self.turned_outside
        #: the cards not dealt yet (a set: every dealt card is looked up in it)
        self.remaining: set[Card] = set(shape.all_cards())
        self.dealt: list[Card] = []

    def outcomes(self) -> list[tuple[int, float]]:
        """Every card left, ascending, each as likely."""
        p = 1.0 / len(self.remaining)
        return [(c, p) for c in sorted(self.remaining)]

    def add(self, card: Card) -> None:
        self.remaining.remove(card)
        self.dealt.append(card)

    @property
    def done(self) -> bool:
        return len(self.dealt) == self.places

    def place_of(self, k: int) -> str:
        """Where the k-th dealt card goes, in words."""
        for s, h in enumerate(self.shape.hands):
            if k < len(h):
                return f"seat {s}"
            k -= len(h)
        return "the stock" if k < self.stock_dealt else "face up"

    def deal(self) -> Deal:
        shape, cards = self.shape, iter(self.dealt)
        hands = tuple(tuple(next(cards) for _ in h) for h in shape.hands)
        stock = tuple(next(cards) for _ in range(self.stock_dealt))
        if len(stock) < len(shape.stock):
            stock += tuple(sorted(self.remaining))
        t = shape.trump_card
        if t is None:
            trump = None
        elif self.turned_outside:
            trump = next(cards)
        elif t in shape.stock:
            trump = stock[shape.stock.index(t)]
        else:
            s = next(i for i, h in enumerate(shape.hands) if t in h)
            trump = hands[s][shape.hands[s].index(t)]
        return Deal(shape.dealer, hands, stock, trump)


class Recall:
    """Whether tables read each deal's dealt hands as it begins (for the information
    state; four observations a deal otherwise never needed): off until first asked."""

    __slots__ = ("on",)

    def __init__(self, on: bool = False) -> None:
        self.on = on


class Table:
    """One match with explicit chance, moved by action indices (koloda.envs.actions)."""

    def __init__(self, game: str, players: int, options: dict[str, Any],
                 recall: Recall | None = None) -> None:
        self.spec = get_spec(game)
        self.players = players
        self.options = self.spec.resolve_options(players, options)
        self.space = action_space(self.spec.name, "openspiel")
        self.features = features(self.spec.name, players)
        self.match: Match | None = None
        self.dealing: _Dealing | None = None
        self.selection = Selection()
        self.memory = TableMemory()
        #: the memory's cards as the vector's 52 flags (float32 values; 1.0 exactly)
        self._seen_flags = [0.0] * CARDS
        #: this deal's actions (seat, text), and each seat's hand as the deal began
        self.log: list[tuple[int, str]] = []
        #: the dealt hands (``dealt_hands``); None: not read for this deal yet
        self._dealt: list[list[str] | None] | None = [None] * players
        #: the history's length when this deal's cards were all dealt
        self._deal_at = 0
        #: whether the dealt hands are read as each deal begins (shared by a game's tables)
        self.recall = recall if recall is not None else Recall()
        #: every outcome and action index applied, in order (pickling replays them)
        self.history: list[int] = []
        #: the seat a resampled copy was made for (its history is not its own then)
        self.resampled_for: int | None = None
        #: seat → (position, its typed tensor entries): one encoding per position and seat
        self._cache: dict[int, tuple[tuple[int, int, bool], Indices]] = {}
        #: seat → (position, its observation's tensor and the cards seen as float32
        #: values) for the games whose tensors are read off observations (``_observed``)
        self._lists: dict[int, tuple[tuple[int, int, bool], list[float]]] = {}
        #: (seat, perfect recall) → (history length, the vector written last)
        self._filled: dict[tuple[int, bool], tuple[int, Any]] = {}
        #: ``current_player()`` at this node, once asked (None: not worked out yet)
        self._player: int | None = None
        #: (history length, match, the legal indices ascending) of the last asking
        #: (pyspiel's searchers ask a node's legal actions many times)
        self._legal: tuple[int, Match | None, tuple[int, ...]] = (-1, None, ())

    @property
    def dealt_hands(self) -> list[list[str] | None]:
        """Each seat's hand as this deal began (as its observation showed it then). Read
        as each deal begins once anything has asked (``recall``); asked first mid-deal,
        the deal's start is replayed once."""
        dealt = self._dealt
        if dealt is None:
            self.recall.on = True
            start = Table(self.spec.name, self.players, self.options, Recall(True))
            for index in self.history[:self._deal_at]:
                start.apply(index)
            dealt = self._dealt = start.dealt_hands
        return dealt

    @dealt_hands.setter
    def dealt_hands(self, hands: list[list[str] | None]) -> None:
        self._dealt = hands

    # ----------------------------------------------------------------- the nodes
    def current_player(self) -> int:
        """Chance, the end, or the seat to act — worked out once per node (pyspiel and
        the adapters ask it many times a step; ``apply`` and ``start_from`` forget it)."""
        p = self._player
        if p is None:
            m = self.match
            if m is None or self.dealing is not None:
                p = CHANCE
            elif m.is_over:
                p = TERMINAL
            else:
                p = m.to_move
            self._player = p
        return p  # type: ignore[return-value]

    def start_from(self, match: Match) -> None:
        """Begin the table at a match already dealt (a searcher's copy of a position):
        nothing being dealt, the deal's memory begun afresh — the hands it holds now
        count as the hands dealt (its history has no deal to replay)."""
        self.match = match
        self.dealing = None
        self._player = None
        self._legal = (-1, None, ())
        self._deal_began()
        if self._dealt is None:     # the deal's start is not in this table's history: the
            self._dealt = [dealt_hand(match, s) for s in range(self.players)]  # hands now

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.dealing is None:
            p = 1.0 / self.players
            return [(s, p) for s in range(self.players)]
        return self.dealing.outcomes()

    def legal_indices(self) -> list[int]:
        if self.current_player() < 0:
            return []
        at, m = len(self.history), self._live()
        kept = self._legal
        if kept[0] != at or kept[1] is not m:
            kept = self._legal = (at, m, tuple(sorted(
                self.space.choices(m.legal_actions(), self.selection))))
        return list(kept[2])

    def apply(self, index: int) -> None:
        """Apply a chance outcome or a player's action index."""
        self._player = None
        dealing = self.dealing
        if dealing is not None:                                  # a card of a deal
            remaining = dealing.remaining
            dealt = dealing.dealt
            if index in remaining and len(dealt) + 1 < dealing.places:
                remaining.remove(index)          # not its last card: nothing else to do
                dealt.append(index)
                self.history.append(index)
                return
        if dealing is not None or self.match is None:            # a chance node
            self._chance(index)
            self.history.append(index)
            return
        m = self._live()
        seat = m.to_move
        text, self.selection = self.space.step(index, m.legal_actions(), self.selection)
        self.history.append(index)
        if text is None:
            return
        deals = len(m.deals)
        m.apply(text)
        self.log.append((seat, text))  # type: ignore[arg-type]
        seen = self.memory.record(text)
        if len(m.deals) != deals:
            self.memory.new_deal()
            self._seen_flags = [0.0] * CARDS
        elif seen:
            flags = self._seen_flags
            for c in seen:
                flags[c] = 1.0
        self._after_action()

    def action_text(self, player: int, index: int) -> str:
        if player == CHANCE:
            if self.dealing is None:
                return f"seat {index} deals first"
            return f"{CARD_TEXT[index]} to {self.dealing.place_of(len(self.dealing.dealt))}"
        return self.space.labels[index]

    def returns(self) -> list[float]:
        m = self.match
        return result_rewards(m.result if m is not None else None, self.players)

    # -------------------------------------------------------------- what a seat knows
    def observation(self, seat: int) -> dict[str, Any] | None:
        return None if self.match is None else self.match.observation(seat).to_json()

    def observation_string(self, seat: int) -> str:
        obs = self.observation(seat)
        if obs is None:
            return f"seat {seat}: the first deal is being dealt"
        text = render(obs)
        if self.selection and seat == self.current_player():
            text += f"\nselected: {self.selection.text()}"
        return text

    def information_state_string(self, seat: int) -> str:
        """The seat's hand as the deal began, every action of the deal as the seat saw it
        (others' discards as counts), its own selection, then its observation."""
        if self.match is None:
            return f"seat {seat}: the first deal is being dealt"
        dealt = self.dealt_hands[seat]
        head = f"dealt to seat {seat}: " + ("?" if dealt is None else " ".join(dealt))
        moves = "; ".join(f"{s}:{self._seen(seat, s, a)}" for s, a in self.log)
        return f"{head}\nactions: {moves}\n{self.observation_string(seat)}"

    def _seen(self, viewer: int, seat: int, action: str) -> str:
        verb, _, rest = action.partition(" ")
        if seat == viewer or verb not in FACE_DOWN or rest.startswith("×"):
            return action       # public, the viewer's own, or already a count
        return f"{verb} ×{len(rest.split())}"

    def fill(self, seat: int, out: Any, perfect_recall: bool = False) -> None:
        """Write ``vector(seat, perfect_recall)`` into ``out`` (a numpy array of its size)
        in one assignment, the observation encoded once per position and seat."""
        key = (seat, perfect_recall)
        done = self._filled.get(key)
        if done is not None and done[0] == len(self.history):
            out[:] = done[1]           # pyspiel asks twice for one observation_tensor
            return
        ones, ni, nv = self.entries(seat, perfect_recall)
        out.fill(0)
        put(out, ones, ni, nv)
        self._filled[key] = (len(self.history), out.copy())

    def values(self, seat: int, perfect_recall: bool = False) -> list[float]:
        """``vector(seat, perfect_recall)`` as float32 values in a fresh list — what
        pyspiel's tensors are —: the observation's tensor and the cards seen
        (``_observed``), then the acting seat's selection, the dealt hand for the
        information state."""
        features = self.features
        m = self.match
        if m is None:
            return [0.0] * (features.size + (CARDS if perfect_recall else 0))
        out = self._observed(m, seat, CARDS if perfect_recall else 0)
        cards = self.selection.cards
        if cards and seat == self.current_player():
            top = features.encoder.size + CARDS
            for c in cards:
                out[top + c] = 1.0
        if perfect_recall:
            top = features.size
            for t in self.dealt_hands[seat] or ():
                out[top + TEXT_CARD[t]] = 1.0
        return out

    def _observed(self, m: Match, seat: int, extra: int) -> list[float]:
        """A fresh list of the seat's observation tensor, the cards seen, zeros for the
        selection and ``extra`` more zeros.

        A game whose deal state declares ``tensor_fields`` has its tensor written straight from the
        match's state into that list at every asking, none kept: a kept list must be
        copied for every answer, and copying one (0.0s with a few other floats among
        them) costs ~2.5 µs against ~4 µs for writing afresh (Mushka 4p), so keeping
        (a write and a copy at the first asking, a copy after) paid only for positions
        asked three times or more; random play asks 1.4 times a position (a selection's
        steps ask again). Another game's tensor is read off an observation, which is
        dear: kept per position and seat, and copied."""
        features = self.features
        writers = features.typed.writers(m, True)
        if writers is not None:
            return self._written(m, seat, features.size + extra, writers[seat])
        version = (len(m.history), len(m.deals), m.is_over)
        known = self._lists.get(seat)
        if known is None or known[0] != version:
            known = self._lists[seat] = (version, self._written(m, seat, features.size))
        kept = known[1]
        return kept + _zeros(extra) if extra else kept[:]

    def _written(self, m: Match, seat: int, length: int,
                 writer: Callable[..., None] | None = None) -> list[float]:
        """``length`` zeros with the seat's observation tensor written over the first
        (``TypedEncoder.write_match``, the numbers rounded to float32 as an array would
        hold them; ``writer``: the seat's direct writer) and the cards seen after it."""
        out = [0.0] * length
        if writer is not None:
            writer(m, seat, out)
        else:
            self.features.typed.write_match(m, seat, out, True)
        size = self.features.encoder.size
        out[size:size + CARDS] = self._seen_flags
        return out

    def entries(self, seat: int, perfect_recall: bool = False) -> Indices:
        """The nonzero entries of ``vector(seat, perfect_recall)``: (indices of 1.0, other
        indices, their values) — the observation's typed encoding, the cards seen, the
        acting seat's selection, the dealt hand for the information state."""
        ones, ni, nv = self._indices(seat)
        base = self.features.encoder.size
        ones = ones + [base + c for c in self.memory.cards]
        if self.selection.cards and seat == self.current_player():
            ones += [base + CARDS + c for c in self.selection.cards]
        if perfect_recall and self.dealt_hands[seat]:
            top = self.features.size
            ones += [top + TEXT_CARD[t] for t in self.dealt_hands[seat] or ()]
        return ones, ni, nv

    def _indices(self, seat: int) -> Indices:
        """The seat's tensor entries read off its typed observation (koloda.tensors.typed),
        once per position."""
        m = self.match
        if m is None:
            return [], [], []
        version = (len(m.history), len(m.deals), m.is_over)
        hit = self._cache.get(seat)
        if hit is not None and hit[0] == version:
            return hit[1]
        entries = self.features.typed.indices(m.observation(seat))
        self._cache[seat] = (version, entries)
        return entries

    def vector(self, seat: int, perfect_recall: bool = False) -> list[float]:
        acting = seat == self.current_player()
        v = self.features.vector(self.observation(seat), self.memory,
                                 self.selection if acting else Selection())
        if perfect_recall:
            dealt = [0.0] * CARDS
            for text in self.dealt_hands[seat] or ():
                dealt[TEXT_CARD[text]] = 1.0
            v += dealt
        return v

    def __str__(self) -> str:
        m = self.match
        if m is None:
            if self.dealing is None:
                return f"{self.spec.name}: the first dealer is drawn"
            dealt = " ".join(CARD_TEXT[c] for c in self.dealing.dealt)
            return f"{self.spec.name}: seat {self.dealing.shape.dealer} deals: {dealt}"
        lines = [f"{self.spec.name}: deal {len(m.deals)}, to move {m.to_move}"]
        for zone, cards in m.current.card_zones().items():
            lines.append(f"{zone}: {' '.join(CARD_TEXT[c] for c in cards)}")
        if self.dealing is not None:
            lines.append(f"dealing: {' '.join(CARD_TEXT[c] for c in self.dealing.dealt)}")
        if self.selection:
            lines.append(f"selected: {self.selection.text()}")
        if m.result is not None:
            lines.append(f"result: {m.result.to_json()}")
        return "\n".join(lines)

    # ------------------------------------------------------------------ search
    def resample(self, seat: int, rng: random.Random) -> Table:
        """A copy whose hidden cards are dealt afresh consistently with what ``seat`` knows
        (the game's determinizer). The copy keeps no hidden fact of the original: every
        deal's record becomes a placeholder (its dealer kept), the other seats' face-down
        discards become counts and their dealt hands unknown."""
        from koloda.envs import determinize
        if self.current_player() < 0:
            raise ValueError("resample at a decision node (not while dealing or at the end)")
        new = copy.deepcopy(self)
        m = new.match
        assert m is not None
        m.current = determinize(self.spec.name, m.observation(seat), rng)
        empty = tuple(() for _ in range(self.players))
        m.deals = [Deal(d.dealer, empty) for d in m.deals]
        m._explicit = list(m.deals)
        m.history = [(s, self._seen(seat, s, a)) for s, a in m.history]
        new.log = [(s, self._seen(seat, s, a)) for s, a in self.log]
        new.dealt_hands = [h if s == seat else None for s, h in enumerate(self.dealt_hands)]
        new.resampled_for = seat
        new._player = None
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        new = Table.__new__(Table)
        new.__dict__.update(self.__dict__)
        if self.match is not None:
            # the whole match at once: a deal may share objects with its match (Kopilka's
            # purse), so the deal is not cloned on its own
            m = self.match
            new.match = copy.deepcopy(m, {id(m.spec): m.spec})
        if self.dealing is not None:
            new.dealing = copy.copy(self.dealing)
            new.dealing.remaining = set(self.dealing.remaining)
            new.dealing.dealt = list(self.dealing.dealt)
        new.memory = self.memory.copy()
        new._seen_flags = list(self._seen_flags)
        new._cache = {}
        new._lists = {}
        new._filled = {}
        new._legal = (-1, None, ())
        new.history = list(self.history)
        new.log = list(self.log)
        new._dealt = None if self._dealt is None else list(self._dealt)
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game and history, rebuilt by replaying (a Match holds its
        GameSpec, which does not pickle)."""
        if self.resampled_for is not None:
            raise TypeError("a resampled table cannot be pickled: its history is not its own")
        return _replayed, (self.spec.name, self.players, self.options, list(self.history))

    # ---------------------------------------------------------------- internals
    def _first_shape(self, dealer: int) -> Deal:
        """The first deal's places when ``dealer`` deals (a match dealt from seed 0: only
        its sizes and the trump card's place are used), made once per game, player
        count, options and dealer — it is the same every time."""
        key = (self.spec.name, self.players, repr(sorted(self.options.items())), dealer)
        shape = _FIRST_SHAPES.get(key)
        if shape is None:
            probe = self.spec.match_class(self.spec, self.players, self.options, seed=0,
                                          first_dealer=dealer)
            if len(_FIRST_SHAPES) >= 1024:
                _FIRST_SHAPES.clear()
            shape = _FIRST_SHAPES[key] = probe.deals[0]
        return shape

    def _live(self) -> Match:
        if self.match is None:
            raise RuntimeError("the first deal is still being dealt")
        return self.match

    def _chance(self, outcome: int) -> None:
        if self.dealing is None:            # the first dealer, by lot
            if not 0 <= outcome < self.players:
                raise ValueError(f"chance outcome {outcome}: no seat {outcome}")
            shape = self._first_shape(outcome)
            self.dealing = _Dealing(shape, self.spec.match_class.stock_in_play(shape))
            return
        dealing = self.dealing
        remaining = dealing.remaining
        if outcome not in remaining:
            raise ValueError(f"chance outcome {outcome}: not a card left to deal")
        remaining.remove(outcome)
        dealt = dealing.dealt
        dealt.append(outcome)
        if len(dealt) != dealing.places:
            return
        deal = dealing.deal()
        self.dealing = None
        # the deal is checked against the shape it was dealt into (the game's own deal of
        # that dealer and index), which the match need not deal again to check it
        if self.match is None:
            self.match = self.spec.match_class(self.spec, self.players, self.options,
                                               deals=[deal], first_dealer=deal.dealer,
                                               shapes={0: dealing.shape})
        else:
            self.match.provide_deal(deal, dealing.shape)
        self._deal_began()
        self._after_action()

    def _deal_began(self) -> None:
        m = self._live()
        self.log = []
        self.memory.new_deal()
        self._seen_flags = [0.0] * CARDS
        self._deal_at = len(self.history) + 1   # (the last card is logged after this)
        self._dealt = [dealt_hand(m, s) for s in range(self.players)] if self.recall.on \
            else None

    def _after_action(self) -> None:
        m = self._live()
        if m.awaiting_dealer is not None and not m.is_over:
            shape = m.deal_cards(m.awaiting_dealer, random.Random(len(m.deals)))
            self.dealing = _Dealing(shape, m.stock_in_play(shape))


@cache
def _zeros(size: int) -> list[float]:
    """A list of ``size`` zeros, shared (only read: lists are made by adding it)."""
    return [0.0] * size


def dealt_hand(m: Match, seat: int) -> list[str] | None:
    """The seat's ``hand`` as its observation's JSON gives it (card texts, None without
    one), read off the deal's typed view when it declares the hand as cards."""
    deal = m.current.observation(seat)
    if field_kind(type(deal), "hand") == "cards":
        return [CARD_TEXT[c] for c in deal.hand]  # type: ignore[attr-defined]
    hand: list[str] | None = m.observation(seat).get("hand")
    return hand


def _replayed(game: str, players: int, options: dict[str, Any], history: list[int]) -> Table:
    table = Table(game, players, options)
    for index in history:
        table.apply(index)
    return table
