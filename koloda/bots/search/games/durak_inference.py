"""What the other player's moves say about its hand (two-player simple durak): an opponent
model for the search's determinizations.

A sensible player's leads, covers and throw-ins say much about the cards it holds: it
leads its cheapest rank, covers with the cheapest card that beats, throws in its cheap
cards of the ranks on the table. The model is the heuristic (``koloda.bots.heuristic.
durak.decide``): a sampled deal in which the heuristic, holding the hand the deal gives the
other player, would have made the moves the other player made is more likely than one in
which it would not. ``OpponentModel.mismatches`` counts the other player's moves of the
current round and of up to ``DEPTH`` rounds before it that the heuristic would not have
made on a sampled deal; the search keeps a deal with ``m`` of them with probability
``EPS ** m`` (rejection sampling of the likelihood ``(1 - EPS)`` per move it agrees with,
``EPS`` per move it does not: a player who is not the heuristic costs a little sharpness,
never a deal that cannot be).

The hand the other player held at each of its moves is read back from the sampled deal:
its hand now plus what it played since. An earlier round also needs how many cards it
drew when that round ended (which of them is drawn at random from the cards nobody can
place: the acceptance is then right on average over the ways), the round's stock and its
limit: the search notes them (``RoundMemory``) when it moves during a round; a round
without a note ends the reading. Where the flat list of a round's plays leaves open how
it split into moves (the cards thrown around a ``take``), the model reads it as the
heuristic would have played it (a lead is every card of its rank at once; a throw-in is
every card of one run) and skips the take itself.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from koloda.bots.heuristic.durak import View, decide
from koloda.cards import Card
from koloda.engine.view import Observation
from koloda.games.durak.rounds import ATTACK, DEFEND, THROW, DurakGame
from koloda.games.durak.views import DurakRound, DurakView

#: the likelihood of a move the heuristic would not have made (against 1 for one it would)
EPS = 0.03
#: deals drawn at most for one determinization (then the one with fewest mismatches)
TRIES = 48
#: determinizations drawn so for one decision at the normal level's budget (the search
#: then copies them; a decision's pool scales with its budget) …
POOL = 256
#: … and the deals drawn for them at most (then one each). With a pool of 64 of at most
#: 1 500 draws the 1 500-iteration search (1 500 iterations on 64 deals) won less against
#: the heuristic than without the model, paired win rate −0.100 ± 0.119; with 256 of
#: 3 000, +0.000 ± 0.105 (50 deal-sets each; docs/strength/durak.md)
POOL_TRIES = 3000
#: rounds read before the current one at most
DEPTH = 3


@dataclass(frozen=True)
class Move:
    """One move of the other player: the position it was made in and what it was."""

    phase: str
    attacks: tuple[Card, ...]
    covers: tuple[Card | None, ...]
    taken: bool
    #: the cards the player had played in the round before this move
    before: tuple[Card, ...]
    #: what it did: verb and cards (``beat``: the attack card, then the cover; ``throw``
    #: and ``attack`` as a set, sorted)
    verb: str
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class RoundNote:
    """What the search saw while a round was on: the stock, the round's limit, and each
    hand's size when the round began."""

    stock: int
    limit: int
    sizes: tuple[int, ...]


def round_key(view: DurakView) -> tuple[Card, int]:
    """A round of one game: the trump card and how many cards were played before it."""
    return view.trump_card, sum(len(p) for p in view.played) - len(view.plays)


class RoundMemory:
    """The notes of the rounds the search has moved in, and the rounds it has seen end
    (one game at a time)."""

    def __init__(self) -> None:
        self.notes: dict[tuple[Card, int], RoundNote] = {}
        #: each finished round under the key of the round after it
        self.rounds: dict[tuple[Card, int], DurakRound] = {}

    def remember(self, view: DurakView) -> None:
        key = round_key(view)
        if view.last_round is not None:
            self.rounds[key] = view.last_round
        if key in self.notes:
            return
        if len(self.notes) > 64 or any(k[0] != key[0] or k[1] > key[1] for k in self.notes):
            self.notes.clear()          # another game
            self.rounds = {k: v for k, v in self.rounds.items() if k == key}
        sizes = list(view.hand_sizes)
        for s, _ in view.plays:
            sizes[s] += 1
        self.notes[key] = RoundNote(view.stock_size, view.limit, tuple(sizes))


def round_moves(seat: int, attacker: int, plays: Sequence[tuple[int, Card]],
                table: Sequence[tuple[Card, Card | None]], taken: bool,
                ended: bool = False) -> list[Move]:
    """The moves of ``seat`` in a two-player simple-durak round of these ``plays`` (flat,
    in order), read as the module docstring says."""
    covered_by = {b: a for a, b in table if b is not None}
    # runs of one seat's cards
    runs: list[tuple[int, list[Card]]] = []
    for s, c in plays:
        if runs and runs[-1][0] == s:
            runs[-1][1].append(c)
        else:
            runs.append((s, [c]))
    last_defence = max((i for i, (s, _) in enumerate(runs) if s != attacker), default=-1)
    moves: list[Move] = []
    attacks: list[Card] = []
    covers: list[Card | None] = []
    mine: list[Card] = []

    def note(phase: str, verb: str, cards: Sequence[Card], was_taken: bool = False) -> None:
        if seat_moves:
            moves.append(Move(phase, tuple(attacks), tuple(covers), was_taken, tuple(mine),
                              verb, tuple(cards)))

    def play(cards: Sequence[Card]) -> None:
        attacks.extend(cards)
        covers.extend([None] * len(cards))
        if seat_moves:
            mine.extend(cards)

    seat_moves = False
    for i, (s, cards) in enumerate(runs):
        seat_moves = s == seat
        if s == attacker:
            after_take = taken and i > last_defence
            if i == 0:
                # the lead: every card of its rank from the start (when the defender took
                # at once, the rest was thrown after the take)
                lead = cards if not after_take else [c for c in cards if c % 13 == cards[0] % 13]
                note(ATTACK, "attack", sorted(lead))
                play(lead)
                rest = cards[len(lead):]
                if rest:
                    note(THROW, "throw", sorted(rest), True)
                    play(rest)
            else:
                note(THROW, "throw", sorted(cards), after_take)
                play(cards)
        else:
            for b in cards:
                a = covered_by.get(b)
                if a is None or a not in attacks:
                    return moves        # not a cover (a transfer): read no further
                note(DEFEND, "beat", (a, b))
                covers[attacks.index(a)] = b
                if seat_moves:
                    mine.append(b)
    if ended and seat == attacker:
        seat_moves = True
        note(THROW, "pass", (), taken)      # the round ended: it passed (room and cards)
    return moves


@dataclass(frozen=True)
class ReadRound:
    """One round's moves of the other player and how to read its hand at them."""

    moves: tuple[Move, ...]
    stock: int
    limit: int
    #: cards the other player played in the round (all of them, for its hand at the start)
    played: tuple[Card, ...]
    #: cards it drew when the round ended, and the cards it took
    drawn: int = 0
    taken: tuple[Card, ...] = ()


class OpponentModel:
    """The other player's moves of this round and of up to ``DEPTH`` rounds before it
    (those the memory has notes of), and ``mismatches``."""

    def __init__(self, obs: Observation, memory: RoundMemory | None) -> None:
        view = obs.deal
        assert isinstance(view, DurakView) and obs.seat is not None
        self.seat = seat = obs.seat
        self.other = other = 1 - seat
        self.trump = view.trump_suit
        plays = view.plays
        now = ReadRound(tuple(round_moves(other, view.attacker, plays, view.table,
                                          view.taken)),
                        view.stock_size, view.limit,
                        tuple(c for s, c in plays if s == other))
        self.now = now
        self.known: frozenset[Card] = frozenset(view.known_cards[other])
        self.before: list[ReadRound] = []
        size = view.hand_sizes[other] + len(now.played)   # its hand as this round began
        trump, key = round_key(view)
        last = view.last_round
        while memory is not None and last is not None and len(self.before) < DEPTH:
            key -= len(last.cards)
            note = memory.notes.get((trump, key))
            if note is None:
                break
            taken = last.outcome == "taken"
            moves = round_moves(other, last.attacker, last.cards, last.table, taken, True)
            played = tuple(c for s, c in last.cards if s == other)
            table = tuple(c for pair in last.table for c in pair if c is not None)
            took = taken and last.defender == other
            end = note.sizes[other] - len(played) + (len(table) if took else 0)
            if size < end:
                break
            self.before.append(ReadRound(tuple(moves), note.stock, note.limit, played,
                                         size - end, table if took else ()))
            size = note.sizes[other]
            last = memory.rounds.get((trump, key))
        self.drawn = sum(r.drawn for r in self.before)
        self.moves = len(now.moves) + sum(len(r.moves) for r in self.before)

    def mismatches(self, g: DurakGame, rng: random.Random) -> int:
        """The other player's moves the heuristic would not have made on deal ``g``."""
        start = list(g.hands[self.other]) + list(self.now.played)
        m = self._count(self.now, start)
        for read in self.before:
            # its hand when that round ended: less what it drew then (cards nobody could
            # place: drawn at random from them) and what it took
            taken = set(read.taken)
            end = [c for c in start if c not in taken]
            if read.drawn:
                free = [c for c in end if c not in self.known]
                if len(free) < read.drawn:
                    break
                drawn = set(rng.sample(free, read.drawn))
                end = [c for c in end if c not in drawn]
            start = end + list(read.played)
            m += self._count(read, start)
        return m

    def _count(self, read: ReadRound, start: list[Card]) -> int:
        m = 0
        for mv in read.moves:
            held = sorted(c for c in start if c not in mv.before)
            room = read.limit - len(mv.attacks)
            if mv.verb == "pass" and (room <= 0 or not held):
                continue                    # not asked: no room, or no cards
            v = View(held, self.trump, mv.phase, list(mv.attacks), list(mv.covers), mv.taken,
                     read.stock, room, False, None)
            verb, cards = decide(v)
            if verb != mv.verb or (tuple(cards) if verb == "beat" else tuple(sorted(cards))) \
                    != mv.cards:
                m += 1
        return m


def usable(obs: Observation) -> bool:
    """The model applies: two players, simple durak, cards still to place (with the
    trump card the only one left in the stock every card is known)."""
    view = obs.deal
    return (isinstance(view, DurakView) and obs.players == 2 and view.variant == "simple"
            and view.stock_size > 1 and obs.seat is not None)
