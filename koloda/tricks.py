"""The trick, written once for the six trick-taking games.

A game hands the core its data — which suit each card counts as, how strong it is, the
trump suit, the shakhi (wild-or-plain cards) and the mushka (a card that is always playable
and always wins) — and a small follow policy. The core answers what may be played to a
trick, why a card may not, and who wins it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

from koloda.cards import CARD_TEXT, Card, rank_of, suit_name, suit_of
from koloda.engine.messages import Cards, Reason, Suit
from koloda.engine.view import View, item

WILD, PLAIN = "wild", "plain"

#: ``plays(hand, trick)`` → the legal ``play`` texts (see ``FollowPolicy.bind``)
Plays = Callable[[Sequence[int], "Trick | None"], list[str]]

#: the canonical ``play`` text of every card, and of every card played wild or plain
PLAY_TEXT: tuple[str, ...] = tuple(f"play {t}" for t in CARD_TEXT)
PLAY_PLAIN_TEXT: tuple[str, ...] = tuple(f"play {t} {PLAIN}" for t in CARD_TEXT)
PLAY_WILD_TEXT: tuple[str, ...] = tuple(f"play {t} {WILD}" for t in CARD_TEXT)
#: every canonical ``play`` text → (card, mode): applying a play is one dict lookup
PLAY_ACTION: dict[str, tuple[Card, str | None]] = {}
for _texts, _mode in ((PLAY_TEXT, None), (PLAY_PLAIN_TEXT, PLAIN), (PLAY_WILD_TEXT, WILD)):
    PLAY_ACTION.update({t: (c, _mode) for c, t in enumerate(_texts)})
del _texts, _mode


@functools.cache
def _duty(key: str, s: int, is_trump: bool) -> Reason:
    """A duty's reason, made once (a game makes new rules for every deal's trump)."""
    return Reason(key, suit=Suit(s, trump=is_trump))


@dataclass(frozen=True)
class TrickRules:
    """What a trick needs to know of a game: data plus one follow policy.

    ``suit[c]`` is the suit card ``c`` counts as (Trinka's jacks count as trumps) and
    ``power[c]`` its strength inside that suit (Trinka's own order). Shakhi are played
    ``wild`` (beats everything; the later wild one wins) or ``plain`` (its printed card), and
    never count for any follow, trump or ruff duty. A mushka is always playable and wins.
    """

    trump: int | None
    policy: FollowPolicy
    suit: tuple[int, ...] = tuple(suit_of(c) for c in range(52))
    power: tuple[int, ...] = tuple(rank_of(c) for c in range(52))
    shakhi: frozenset[Card] = frozenset()
    mushka: frozenset[Card] = frozenset()
    #: shakhi and mushka together: no duty counts them, the core always offers them
    specials: frozenset[Card] = field(init=False, repr=False, compare=False)
    #: the duty texts by led suit, worked out once because legal_actions is a hot path
    must_follow: tuple[str, ...] = field(init=False, repr=False, compare=False)
    must_trump: tuple[str, ...] = field(init=False, repr=False, compare=False)
    #: Stukolka's duties to beat: follow and beat, trump, trump and over-trump
    must_follow_beat: tuple[str, ...] = field(init=False, repr=False, compare=False)
    must_trump_beat: tuple[str, ...] = field(init=False, repr=False, compare=False)
    must_overtrump: tuple[str, ...] = field(init=False, repr=False, compare=False)
    #: by led suit, each card's strength in a trick without wild plays: a trump 100 +
    #: power, a card of the led suit its power, any other card -1 (it cannot win)
    strength: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    #: ``plays(hand, trick)``: the legal play texts (``legal_plays``), bound once
    plays: Plays = field(init=False, repr=False, compare=False)
    #: per suit, its weakest ordinary card (``shown_voids``: it stands for any card of it)
    weakest: tuple[Card | None, ...] = field(init=False, repr=False, compare=False)
    #: ``reveals`` memo: (led suit or None, card) → the suits that play shows are lacking
    _reveals: dict[tuple[int | None, Card], frozenset[int]] = field(
        init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        put = object.__setattr__
        put(self, "specials", self.shakhi | self.mushka)
        suits = range(max(3, *self.suit) + 1)   # a game may count some cards as a 5th suit
        st, pw, t = self.suit, self.power, self.trump
        put(self, "strength", tuple(
            tuple(100 + pw[c] if st[c] == t else pw[c] if st[c] == s else -1
                  for c in range(len(st)))
            for s in suits))
        weakest: list[Card | None] = [None] * len(suits)
        for c in range(len(st)):
            if c not in self.specials and (weakest[st[c]] is None
                                           or pw[c] < pw[weakest[st[c]]]):  # type: ignore[index]
                weakest[st[c]] = c
        put(self, "weakest", tuple(weakest))
        put(self, "_reveals", {})
        plain = self.policy.bind(self)
        put(self, "plays", plain if not self.specials else
            partial(_plays_with_specials, self, plain))
        # the duties are message-catalog reasons (koloda/engine/messages.py): English
        # text that an interface can also say in the player's language
        for name, key in (("must_follow", "must_follow"), ("must_trump", "must_trump"),
                          ("must_follow_beat", "must_follow_beat"),
                          ("must_trump_beat", "must_trump_beat"),
                          ("must_overtrump", "must_overtrump")):
            put(self, name, tuple(_duty(key, s, s == self.trump) for s in suits))

    def __reduce__(self) -> tuple[Any, ...]:
        # made anew from the fields: ``plays`` is a closure, which pickle cannot carry
        return (TrickRules, (self.trump, self.policy, self.suit, self.power, self.shakhi,
                             self.mushka))

    def reveals(self, led: int | None, c: Card) -> frozenset[int]:
        """The suits a play of ``c`` shows its player lacks, to a trick led in ``led``
        (None: a lead) — ``shown_voids``, worked out once per (led suit, card): for a suit
        void a follow duty looks only at the led suit (a duty to beat a card changes which
        card of a suit, never whether one of it must be played). Every trick game's voids
        come from here."""
        key = (led, c)
        known = self._reveals.get(key)
        if known is None:
            trick = None
            if led is not None:
                stand_in = self.weakest[led]
                trick = Trick(0, [0], [c if stand_in is None else stand_in], led=led)
            known = self._reveals[key] = shown_voids(self, trick, c)
        return known

    def with_trump(self, trump: int | None) -> TrickRules:
        return TrickRules(trump, self.policy, self.suit, self.power, self.shakhi, self.mushka)

    def duty_cards(self, hand: Iterable[Card]) -> list[Card]:
        """The cards that count for follow, trump and ruff duties (shakhi never do)."""
        sh = self.shakhi
        return [c for c in hand if c not in sh] if sh else list(hand)

    def holds_suit(self, hand: Iterable[Card], s: int) -> list[Card]:
        """The cards of ``hand`` that count as suit ``s`` for a duty (never a shakha)."""
        st, sh = self.suit, self.shakhi
        if sh:
            return [c for c in hand if st[c] == s and c not in sh]
        return [c for c in hand if st[c] == s]

    def suit_label(self, s: int | None) -> str:
        if s is None:
            return "no suit"
        if s == self.trump:
            return "trumps"
        return suit_name(s) if 0 <= s < 4 else f"suit {s}"


class Trick:
    """One trick in progress: who led, and every play so far.

    ``wild[i]`` (played wild, or a mushka) and ``modes[i]`` ("wild"/"plain" for a shakha,
    else None) are kept only once a trick holds a special play: most tricks never do, and
    a trick is made for every trick played, so the plain case stores two lists, not four.
    """

    __slots__ = ("_modes", "_wild", "cards", "leader", "led", "seats")

    def __init__(self, leader: int, seats: list[int] | None = None,
                 cards: list[Card] | None = None, wild: list[bool] | None = None,
                 modes: list[str | None] | None = None, led: int | None = None) -> None:
        self.leader = leader
        self.seats: list[int] = [] if seats is None else seats
        self.cards: list[Card] = [] if cards is None else cards
        plain = (not wild or True not in wild) and (not modes or not any(modes))
        #: None while every play is plain
        self._wild: list[bool] | None = None if plain else list(wild or [False] * len(
            self.cards))
        self._modes: list[str | None] | None = None if plain else list(
            modes or [None] * len(self.cards))
        self.led = led

    def copy(self) -> Trick:
        """An independent copy (search bots clone states; one body for every game)."""
        new = Trick.__new__(Trick)
        new.leader, new.led = self.leader, self.led
        new.seats, new.cards = list(self.seats), list(self.cards)
        new._wild = None if self._wild is None else list(self._wild)
        new._modes = None if self._modes is None else list(self._modes)
        return new

    def plays(self) -> tuple[tuple[int, Card], ...]:
        """The plays as a view holds them: (seat, card), a shakha's with its mode as a
        third item (typed as the plain pair: readers take the first two)."""
        m = self._modes
        if m is None or not any(m):
            # seats and cards grow together; zip's strict check was a third of the call
            return tuple(zip(self.seats, self.cards))  # noqa: B905
        return tuple((s, c, mode) if mode else (s, c)   # type: ignore[misc]
                     for s, c, mode in zip(self.seats, self.cards, m, strict=True))

    def play_pairs(self) -> Iterable[tuple[int, Card]]:
        """``plays()`` to be read once, in order, without its tuple made when the trick
        holds no shakha mode (the adapters' tensors read every trick at every step)."""
        if self._modes is None:
            return zip(self.seats, self.cards)  # noqa: B905 - (they grow together)
        return self.plays()

    @property
    def wild(self) -> list[bool]:
        w = self._wild
        return [False] * len(self.cards) if w is None else w

    @property
    def modes(self) -> list[str | None]:
        m = self._modes
        return [None] * len(self.cards) if m is None else m

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Trick):
            return NotImplemented
        return (self.leader, self.seats, self.cards, self.wild, self.modes, self.led) == \
            (other.leader, other.seats, other.cards, other.wild, other.modes, other.led)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"Trick(leader={self.leader}, seats={self.seats}, cards={self.cards}, "
                f"wild={self.wild}, modes={self.modes}, led={self.led})")

    def __len__(self) -> int:
        return len(self.cards)

    def add(self, rules: TrickRules, seat: int, c: Card, mode: str | None = None) -> None:
        is_wild = (mode == WILD) or (c in rules.mushka)
        if not self.cards:
            self.led = rules.trump if (is_wild and c not in rules.mushka) else rules.suit[c]
        if self._wild is None and (is_wild or mode is not None):
            self._wild = [False] * len(self.cards)
            self._modes = [None] * len(self.cards)
        self.seats.append(seat)
        self.cards.append(c)
        if self._wild is not None:
            self._wild.append(is_wild)
            self._modes.append(mode)  # type: ignore[union-attr]

    def winning_index(self, rules: TrickRules) -> int:
        """The play that wins: the last wild one, else the highest trump, else the highest
        card of the led suit."""
        wild = self._wild
        if (wild is None or True not in wild) and self.led is not None:
            # the common case, looked up: the strongest card by the led suit's table
            order = rules.strength[self.led]
            keys = [order[c] for c in self.cards]
            return keys.index(max(keys))
        wild = self.wild
        best, best_key = 0, -1
        trump, st, pw = rules.trump, rules.suit, rules.power
        for i, c in enumerate(self.cards):
            if wild[i]:
                key = 1000 + i
            elif trump is not None and st[c] == trump:
                key = 100 + pw[c]
            elif st[c] == self.led:
                key = pw[c]
            else:
                continue
            if key > best_key:
                best, best_key = i, key
        return best

    def winner(self, rules: TrickRules) -> int:
        return self.seats[self.winning_index(rules)]

    def highest_of(self, rules: TrickRules, s: int) -> int | None:
        """The power of the highest non-wild card of suit ``s`` played so far."""
        wild = self.wild
        powers = [rules.power[c] for i, c in enumerate(self.cards)
                  if not wild[i] and rules.suit[c] == s]
        return max(powers) if powers else None

    def is_trumped(self, rules: TrickRules) -> bool:
        """Someone has played a trump (or a wild card) to a non-trump lead."""
        t = rules.trump
        return any(w or (t is not None and rules.suit[c] == t and self.led != t)
                   for c, w in zip(self.cards, self.wild, strict=True))

    def to_json(self) -> list[list[object]]:
        """``[[seat, "6C", "wild"], [seat, "9H"], ...]`` — the mode only for shakhi."""
        return [[s, CARD_TEXT[c], m] if m else [s, CARD_TEXT[c]]
                for s, c, m in zip(self.seats, self.cards, self.modes, strict=True)]


class FollowPolicy:
    """Which ordinary cards may be led or played to a trick, and the rule that says so.

    Returns ``(allowed, rule)``: ``rule`` is empty when any card may be played, else the
    duty in words ("must follow hearts"). Shakhi and the mushka are added by the core.
    """

    def lead(self, rules: TrickRules, hand: Sequence[Card]) -> tuple[list[Card], str]:
        return rules.duty_cards(hand), ""

    def follow(self, rules: TrickRules, hand: Sequence[Card],
               trick: Trick) -> tuple[list[Card], str]:
        raise NotImplementedError

    def bind(self, rules: TrickRules) -> Plays:
        """``plays(hand, trick)``: the legal ``play`` texts, in card order, for a hand (in
        card order) without shakhi or mushka (``legal_plays`` handles those). A policy may
        return a faster equivalent: it runs on every ``legal_actions()`` of every trick
        game, so it is made once per rules, a closure over their tables."""
        def plays(hand: Sequence[Card], trick: Trick | None) -> list[str]:
            if trick is None or not trick.cards:
                allowed = self.lead(rules, hand)[0]
            else:
                allowed = self.follow(rules, hand, trick)[0]
            return [PLAY_TEXT[c] for c in sorted(allowed)]
        return plays


def _follow_plays(rules: TrickRules, trump: int | None) -> Plays:
    """The follow-suit policies' plays, lead and follow fused into one pass each (see
    ``FollowPolicy.bind``): the led suit; void, a trump (``trump``: None for
    follow-else-any); void of both, anything."""
    st, text = rules.suit, PLAY_TEXT

    def plays(hand: Sequence[Card], trick: Trick | None) -> list[str]:
        if trick is not None:
            led = trick.led
            if led is not None:
                out = [text[c] for c in hand if st[c] == led]
                if out:
                    return out
                if trump is not None:
                    out = [text[c] for c in hand if st[c] == trump]
                    if out:
                        return out
        return [text[c] for c in hand]
    return plays


class FollowElseAny(FollowPolicy):
    """Follow the led suit; if void, any card (Trinka, Opendaum-33)."""

    def bind(self, rules: TrickRules) -> Plays:
        return _follow_plays(rules, None)

    def follow(self, rules: TrickRules, hand: Sequence[Card],
               trick: Trick) -> tuple[list[Card], str]:
        led = trick.led
        if led is not None:
            same = rules.holds_suit(hand, led)
            if same:
                return same, rules.must_follow[led]
        return rules.duty_cards(hand), ""


class FollowElseTrump(FollowPolicy):
    """Follow the led suit; if void, trump; if void of both, any card (Opendaum, Mushka,
    Dreyfus). Any trump will do: there is no duty to over-trump."""

    def bind(self, rules: TrickRules) -> Plays:
        return _follow_plays(rules, rules.trump)

    def follow(self, rules: TrickRules, hand: Sequence[Card],
               trick: Trick) -> tuple[list[Card], str]:
        led, trump = trick.led, rules.trump
        if led is not None:
            if rules.shakhi:
                same = rules.holds_suit(hand, led)
            else:   # holds_suit inlined: the commonest case of the hottest path
                st = rules.suit
                same = [c for c in hand if st[c] == led]
            if same:
                return same, rules.must_follow[led]
        if trump is not None:
            trumps = rules.holds_suit(hand, trump)
            if trumps:
                return trumps, (rules.must_trump[led] if led is not None
                                else MUST_PLAY_TRUMP)
        return rules.duty_cards(hand), ""


MUST_PLAY_TRUMP = Reason("must_play_trump")
NO_TRUMP_LEAD = Reason("no_trump_lead")
NO_RUFF = Reason("no_ruff")


@dataclass(frozen=True)
class OpendaumShakhiPolicy(FollowPolicy):
    """Opendaum with two shakhi (koloda/rules/opendaum.en.md §Precisely 14–16): no trump lead while
    holding a non-trump card; on a trump lead a trump (or a shakha); void in a plain lead, a trump
    only when holding nothing else (``ruff_only_when_only_trumps``), else follow-else-trump."""

    ruff_only_when_only_trumps: bool = True

    def lead(self, rules: TrickRules, hand: Sequence[Card]) -> tuple[list[Card], str]:
        duty = rules.duty_cards(hand)
        plain = [c for c in duty if rules.suit[c] != rules.trump]
        if plain and len(plain) < len(duty):
            return plain, NO_TRUMP_LEAD
        return duty, ""

    def follow(self, rules: TrickRules, hand: Sequence[Card],
               trick: Trick) -> tuple[list[Card], str]:
        led, trump = trick.led, rules.trump
        if led is not None:
            same = rules.holds_suit(hand, led)
            if same:
                # a trump lead included: a trump (or, added by the core, a shakha)
                return same, rules.must_follow[led]
        duty = rules.duty_cards(hand)
        trumps = [c for c in duty if rules.suit[c] == trump]
        if not trumps:
            return duty, ""
        plain = [c for c in duty if rules.suit[c] != trump]
        if self.ruff_only_when_only_trumps and plain:
            return plain, NO_RUFF
        return trumps, (rules.must_trump[led] if led is not None else MUST_PLAY_TRUMP)


class MustBeatPolicy(FollowPolicy):
    """Stukolka (koloda/rules/stukolka.en.md §Precisely 10, 14–16): follow and beat the best card of
    the led suit if able (any card of the suit once the trick is trumped); void, trump and beat the
    highest trump if able, else any trump; void of both, any card."""

    def follow(self, rules: TrickRules, hand: Sequence[Card],
               trick: Trick) -> tuple[list[Card], str]:
        led, trump = trick.led, rules.trump
        same = rules.holds_suit(hand, led) if led is not None else []
        if same:
            if led != trump and trick.is_trumped(rules):
                return same, rules.must_follow[led]  # type: ignore[index]
            top = trick.highest_of(rules, led)  # type: ignore[arg-type]
            beating = [c for c in same if top is None or rules.power[c] > top]
            if beating:
                return beating, rules.must_follow_beat[led]  # type: ignore[index]
            return same, rules.must_follow[led]  # type: ignore[index]
        if trump is not None:
            trumps = rules.holds_suit(hand, trump)
            if trumps:
                top = trick.highest_of(rules, trump)
                beating = [c for c in trumps if top is None or rules.power[c] > top]
                if led is None:   # (never: a trick's first card sets the led suit)
                    return (beating or trumps), MUST_PLAY_TRUMP
                if beating:
                    duty = rules.must_overtrump if top is not None else rules.must_trump_beat
                    return beating, duty[led]
                return trumps, rules.must_trump[led]
        return rules.duty_cards(hand), ""


def allowed_cards(rules: TrickRules, hand: Sequence[Card],
                  trick: Trick | None) -> tuple[list[Card], str]:
    """The ordinary cards allowed now (lead when ``trick`` is empty) and the duty."""
    if trick is None or not trick.cards:
        return rules.policy.lead(rules, hand)
    return rules.policy.follow(rules, hand, trick)


def legal_plays(rules: TrickRules, hand: Sequence[Card], trick: Trick | None) -> list[str]:
    """Every legal ``play`` action text, canonical order (shakhi as wild and plain). The
    games keep their hands in card order (sorted), which the fast paths rely on."""
    return rules.plays(hand, trick)


def _plays_with_specials(rules: TrickRules, plain: Plays, hand: Sequence[Card],
                         trick: Trick | None) -> list[str]:
    """``legal_plays`` for rules with shakhi or a mushka (``plain``: the policy's plays
    for a hand without them)."""
    if rules.specials.isdisjoint(hand):
        return plain(hand, trick)
    ok = set(allowed_cards(rules, hand, trick)[0])
    shakhi, mushka = rules.shakhi, rules.mushka
    out: list[str] = []
    for c in sorted(hand):
        if c in shakhi:
            out.append(PLAY_PLAIN_TEXT[c])
            out.append(PLAY_WILD_TEXT[c])
        elif c in ok or c in mushka:
            out.append(PLAY_TEXT[c])
    return out


def why_not_play_text(rules: TrickRules, hand: Sequence[Card], trick: Trick | None,
                      action: str) -> str:
    """The rule a canonical ``play`` text breaks; several cards at once are refused too."""
    play = PLAY_ACTION.get(action)
    if play is None:
        return ONE_CARD_AT_A_TIME
    return why_not_play(rules, hand, trick, *play)


ONE_CARD_AT_A_TIME = Reason("play_one_card")


def why_not_play(rules: TrickRules, hand: Sequence[Card], trick: Trick | None, c: Card,
                 mode: str | None) -> str:
    """The rule a ``play`` breaks, in words."""
    if c not in hand:
        return Reason("not_held", cards=Cards((c,)))
    if c in rules.shakhi and mode is None:
        return Reason("shakha_mode", card=Cards((c,)))
    if c not in rules.shakhi and mode is not None:
        return Reason("not_shakha", mode=mode)
    allowed, duty = allowed_cards(rules, hand, trick)
    if duty:
        return Reason("duty_hold", duty=duty, cards=Cards(sorted(allowed)))
    return Reason("play_not_legal", card=Cards((c,)))


def parse_play(action: str) -> tuple[Card, str | None]:
    """``play 6C wild`` → (card, mode); the action must already be canonical."""
    return PLAY_ACTION[action]


class TrickState(Protocol):
    """What ``play_to_trick`` keeps up to date in a trick game's deal state."""
    hands: list[list[Card]]
    trick: Trick
    tricks: list[int]
    taken: list[list[Card]]
    to_move: int | None
    is_over: bool


def play_to_trick(state: TrickState, rules: TrickRules, seat: int, c: Card, size: int,
                  after: int, mode: str | None = None) -> tuple[Trick, int] | None:
    """The bookkeeping every trick game shares once ``seat`` plays ``c`` (already legal):
    out of the hand into the trick; ``after`` moves next until the trick has ``size``
    plays; then the winner counts it, takes its cards and leads the next trick — or, the
    hands empty, the deal is over. Returns the completed trick and its winner, else None."""
    state.hands[seat].remove(c)
    trick = state.trick
    cards = trick.cards
    if mode is None and trick._wild is None and c not in rules.mushka:
        # Trick.add for a plain card in a plain trick, written out: nearly every card
        if not cards:
            trick.led = rules.suit[c]
        trick.seats.append(seat)
        cards.append(c)
    else:
        trick.add(rules, seat, c, mode)
    if len(cards) < size:
        state.to_move = after
        return None
    winner = trick.winner(rules)
    state.tricks[winner] += 1
    state.taken[winner].extend(trick.cards)
    state.trick = Trick(winner)
    if state.hands[winner]:
        state.to_move = winner
    else:
        state.to_move, state.is_over = None, True
    return trick, winner


def shown_voids(rules: TrickRules, trick: Trick | None, c: Card) -> frozenset[int]:
    """The suits a player shows they lack by playing ``c`` to ``trick`` (as it stood
    before the play; None or empty: a lead): every suit of which any card, held, would
    have made the play illegal. Derived from the rules' own follow policy, so every trick
    game reads voids one way. A special card (a shakha, the mushka) shows nothing.

    A duty never weakens when a higher card of a suit is held, so the weakest card of each
    suit stands for all of them."""
    if c in rules.specials:
        return frozenset()
    out = []
    for s, x in enumerate(rules.weakest):
        if x is None or x == c:
            continue
        hand = [c, x] if c < x else [x, c]
        if c not in allowed_cards(rules, hand, trick)[0]:
            out.append(s)
    return frozenset(out)


@dataclass(frozen=True)
class TrickTaken(View):
    """A completed trick as the table saw it — its plays and who took it — the one view
    every trick game gives its last trick (and its history) by."""

    cards: tuple[tuple[int, Card], ...] = item("plays", "trick")
    winner: int = item("seat", "winner")

    @classmethod
    def of(cls, trick: Trick, winner: int) -> TrickTaken:
        return cls(trick.plays(), winner)
