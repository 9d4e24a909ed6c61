"""One deal of Opendaum (koloda/rules/opendaum.en.md §Precisely): public bids, then tricks; every
variant alike.

The deal holds data and hooks only: who bids and leads, the hook rule (§1c) on the
dealer's bid, and the trick bookkeeping. What may be played and who wins a trick is the
shared trick core's (koloda/tricks.py), given this variant's ``TrickRules``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, ClassVar

from koloda.cards import TEXT_CARD, Card
from koloda.engine.deal import Deal, DealState
from koloda.engine.messages import Act, Reason
from koloda.games.opendaum.layout import STATE_FIELDS
from koloda.games.opendaum.views import (
    LastTrick,
    OpendaumOptions,
    OpendaumView,
    PlayedTrick,
)
from koloda.tricks import (
    PLAY_ACTION,
    Trick,
    TrickRules,
    play_to_trick,
    why_not_play,
)

BID, PLAY, OVER = "bid", "play", "over"
#: "bid N" for every hand size Opendaum deals (at most 17 cards: 2 players, 34 cards)
BID_TEXT: tuple[str, ...] = tuple(f"bid {n}" for n in range(18))
BID_ACTION: dict[str, int] = {t: n for n, t in enumerate(BID_TEXT)}


def score(bid: int, taken: int, final_multiplier: int | None = None,
          penalty: bool = False) -> int:
    """§1a: a made bid scores 5 × bid + 5, a missed one 1 per trick taken. §1c's final deal
    (``final_multiplier`` 10): 10 × bid + 10; with ``penalty`` a miss there costs 10 per
    trick bid but not taken."""
    k = final_multiplier or 5
    if taken == bid:
        return k * bid + k
    if final_multiplier and penalty:
        return taken - 10 * max(0, bid - taken)
    return taken


class OpendaumDeal(DealState):
    """Bidding from the dealer's left (dealer last), then play: the dealer's left neighbour
    leads the first trick, each trick's winner the next, until the hands are empty."""

    #: how the fast tensor path reads this observation's fields off the state
    #: (koloda/games/opendaum/layout.py)
    tensor_fields: ClassVar[Mapping[str, str]] = STATE_FIELDS

    def __init__(self, deal: Deal, rules: TrickRules, hook: bool = False,
                 position: int = 0, schedule_length: int = 1,
                 final_multiplier: int | None = None,
                 options: Mapping[str, Any] | OpendaumOptions | None = None) -> None:
        n = self.players = len(deal.hands)
        self.deal = deal
        self.dealer = deal.dealer
        self.rules = rules
        self.hook = hook
        self.position = position
        self.schedule_length = schedule_length
        #: §1c: the final deal's multiplier (None: scored like any other deal)
        self.final_multiplier = final_multiplier
        #: the match's options: public (every player knows the rules), echoed to all
        self.options: Mapping[str, Any] = options if options is not None else {}
        self.size = len(deal.hands[0])
        self.hands: list[list[Card]] = [sorted(h) for h in deal.hands]
        self.stock = deal.stock
        assert deal.trump_card is not None, "an Opendaum deal always turns a trump card"
        self.trump_card: Card = deal.trump_card
        #: the whole deck dealt: the trump card is the dealer's last card, shown to all
        self.trump_in_hand = not deal.stock
        self.next_seat = [(s + 1) % n for s in range(n)]
        self.bids: list[int | None] = [None] * n
        self.tricks = [0] * n
        self.taken: list[list[Card]] = [[] for _ in range(n)]
        self.trick = Trick(self.next_seat[self.dealer])
        #: the deal's completed tricks, in order: public, they were played face up
        self.played: list[Trick] = []
        #: their views, made once each (completed tricks never change)
        self._history: tuple[PlayedTrick, ...] = ()
        self.last_trick: Trick | None = None
        self.last_winner: int | None = None
        self.phase = BID
        self.to_move = self.next_seat[self.dealer]

    @classmethod
    def resume(cls, deal: Deal, rules: TrickRules, hook: bool, position: int,
               schedule_length: int, final_multiplier: int | None,
               options: Mapping[str, Any] | OpendaumOptions, *,
               hands: Sequence[Sequence[Card]], bids: Sequence[int | None],
               tricks: Sequence[int], taken: list[list[Card]], played: Sequence[Trick],
               winners: Sequence[int], trick: Trick, phase: str, to_move: int | None,
               history: tuple[PlayedTrick, ...] | None = None) -> OpendaumDeal:
        """A deal already under way (a search's sampled deal): ``deal`` as it was dealt,
        then the present — the hands left, the bids, the tricks each seat took (and their
        cards), the completed tricks with their winners, the trick on the table, the phase
        and the seat to move. ``history``: the completed tricks' views, if at hand."""
        st = cls(deal, rules, hook, position, schedule_length, final_multiplier, options)
        st.hands = [sorted(h) for h in hands]
        st.bids = list(bids)
        st.tricks = list(tricks)
        st.taken = taken
        st.played = list(played)
        if played:
            st.last_trick, st.last_winner = played[-1], winners[-1]
        if history is not None and len(history) == len(played):
            st._history = history
        st.trick = trick
        st.phase = BID if phase == BID else PLAY if phase == PLAY else OVER
        st.to_move = to_move
        st.is_over = st.phase is OVER
        return st

    # ----------------------------------------------------------------- bids
    def forbidden_bid(self) -> int | None:
        """The hook rule (§1c): the bid the dealer, bidding last, may not make — the one
        that would make the bids add up to the cards each player holds."""
        if not self.hook or self.phase != BID or self.to_move != self.dealer:
            return None
        f = self.size - sum(b for b in self.bids if b is not None)
        return f if 0 <= f <= self.size else None

    def _legal_actions(self) -> list[str]:
        if self.phase is PLAY:
            return self.rules.plays(self.hands[self.to_move], self.trick)  # type: ignore[index]
        bids = list(BID_TEXT[:self.size + 1])
        if self.hook:
            f = self.forbidden_bid()
            if f is not None:
                del bids[f]
        return bids

    def _do(self, action: str) -> None:
        seat: int = self.to_move  # type: ignore[assignment]
        if self.phase is PLAY:
            c, mode = PLAY_ACTION[action]
            done = play_to_trick(self, self.rules, seat, c, self.players,
                                 self.next_seat[seat], mode)
            if done is not None:
                self.last_trick, self.last_winner = done
                self.played.append(done[0])
                if self.is_over:
                    self.phase = OVER
            return
        self.bids[seat] = BID_ACTION[action]
        if seat == self.dealer:
            self.phase = PLAY
        self.to_move = self.next_seat[seat]

    def why_illegal(self, action: str) -> str:
        words = action.split()
        verb = words[0]
        if verb not in ("bid", "play"):
            return Reason("opendaum_action", action=Act(action))
        if self.phase is BID:
            if verb != "bid":
                return Reason("bidding_first", seat=self.to_move, size=self.size)
            n = int(words[1])
            if n > self.size:
                return Reason("bid_range", n=n, size=self.size)
            others = sum(b for b in self.bids if b is not None)
            return Reason("hook_rule", n=n, total=others + n)
        if verb == "bid":
            return Reason("bidding_over")
        if len(words) > 3 or (len(words) == 3 and words[2] not in ("wild", "plain")):
            return Reason("one_card_at_a_time")
        mode = words[2] if len(words) == 3 else None
        hand = self.hands[self.to_move]  # type: ignore[index]
        return why_not_play(self.rules, hand, self.trick, TEXT_CARD[words[1]], mode)

    # ---------------------------------------------------------------- views
    def observation(self, seat: int) -> OpendaumView:
        trump = self.rules.trump
        return OpendaumView(
            self.phase, tuple(self.hands[seat]), tuple(map(len, self.hands)),
            self.size, self.position, self.schedule_length,
            self.position == self.schedule_length - 1, trump, self.trump_card,
            self.trump_in_hand, tuple(self.bids), self.forbidden_bid(), tuple(self.tricks),
            self.trick.leader, self.trick.plays(), self.last_trick_view(), self.history(),
            self._voids_view(), self.size * self.players + len(self.stock),
            self.options_view())

    #: the last trick's view, keyed by the trick it shows (made once after each trick)
    _last_shown: tuple[object, LastTrick | None] = (None, None)
    #: the voids the completed tricks show: how many tricks were read, the last of them,
    #: and the sets
    _voids_done: tuple[int, object, tuple[frozenset[int], ...]] = (0, None, ())

    #: the voids view, keyed by the completed tricks' count and the trick on the table
    #: with its plays' count
    _voids_shown: tuple[int, object, int, tuple[tuple[int, ...], ...]] = (0, None, 0, ())

    def last_trick_view(self) -> LastTrick | None:
        """The last completed trick as the view shows it (made once after each trick)."""
        last = self.last_trick
        key, shown = self._last_shown
        if key is not last:
            shown = None
            if last is not None:
                assert self.last_winner is not None
                shown = LastTrick(last.plays(), self.last_winner)
            self._last_shown = (last, shown)
        return shown

    def _voids_view(self) -> tuple[tuple[int, ...], ...]:
        """``known_voids`` as the view shows them: the completed tricks are read once
        each (they never change), the trick on the table at every asking."""
        trick = self.trick
        played, on, plays, shown = self._voids_shown
        if on is not trick or plays != len(trick.cards) or played != len(self.played):
            done = self._completed_voids()
            if trick.cards:
                voids = [set(vs) for vs in done]
                self._read_voids(voids, trick)
                shown = tuple(tuple(sorted(vs)) for vs in voids)
            else:
                shown = tuple(tuple(sorted(vs)) for vs in done)
            self._voids_shown = (len(self.played), trick, len(trick.cards), shown)
        return shown

    #: what ``shown_voids`` gave last: the trick on the table, the completed tricks'
    #: count, how many of the trick's cards were read, the sets
    _voids_read: tuple[object, int, int, Sequence[AbstractSet[int]]] = (None, -1, -1, ())

    def shown_voids(self) -> Sequence[AbstractSet[int]]:
        """``known_voids()``'s sets, not copied (not to be changed) and unsorted — what
        the fast tensor path reads (the voids block writes them as flags): the completed
        tricks' voids, with what the trick on the table shows. The answer is kept for the
        position (every seat's tensor is written in turn at one position) and read on
        when the same trick has grown (only the cards played since are read)."""
        t = self.trick
        n = len(t.cards)
        played = len(self.played)
        last_t, last_played, last_n, voids = self._voids_read
        if last_t is t and last_played == played and last_n <= n:
            if last_n == n:
                return voids
            start = last_n                  # the same trick, grown: read its new cards
        else:
            voids, start = self._completed_voids(), 0
        reveals, seats, cards = self.rules.reveals, t.seats, t.cards
        out: list[AbstractSet[int]] | None = None     # copied only when a void shows
        for i in range(start, n):
            shown = reveals(t.led if i else None, cards[i])
            if shown:
                if out is None:
                    out = list(voids)
                s = seats[i]
                out[s] = out[s] | shown
        if out is not None:
            voids = out
        self._voids_read = (t, played, n, voids)
        return voids

    def options_view(self) -> OpendaumOptions:
        """The options as the view shows them (made once, when first shown)."""
        options = self.options
        if not isinstance(options, OpendaumOptions):
            options = self.options = OpendaumOptions.of(options)
        return options

    def history(self) -> tuple[PlayedTrick, ...]:
        """The deal's completed tricks as views (each made once: they never change)."""
        done = self._history
        if len(done) < len(self.played):
            rules = self.rules
            done = self._history = done + tuple(
                PlayedTrick(t.leader, t.plays(), t.winner(rules))
                for t in self.played[len(done):])
        return done

    def known_voids(self) -> list[set[int]]:
        """Per seat, the suits every player at the table knows it lacks, read off the
        deal's plays (observation only, never the play path).

        Derived from the follow policy by the trick core (``TrickRules.reveals``): not
        following the led suit shows a void in it (a shakha shows nothing: it is always
        playable); classic follow-else-trump: void in the lead and playing a non-trump
        shows no trumps either; two shakhi: leading a trump, or ruffing under
        ``ruff_only_when_only_trumps``, shows nothing but trumps are held; 33 cards
        (follow-else-any): only the led suit."""
        voids = [set(vs) for vs in self._completed_voids()]
        self._read_voids(voids, self.trick)
        return voids

    def _completed_voids(self) -> tuple[frozenset[int], ...]:
        """The voids the completed tricks show, read on from the last trick read (the
        list of completed tricks only grows; another list is read from the start)."""
        played = self.played
        read, last, shown = self._voids_done
        if not shown or read > len(played) or (read and played[read - 1] is not last):
            read, shown = 0, (frozenset(),) * self.players
        if read < len(played):
            voids = [set(vs) for vs in shown]
            for t in played[read:]:
                self._read_voids(voids, t)
            shown = tuple(map(frozenset, voids))
            self._voids_done = (len(played), played[-1], shown)
        return shown

    def _read_voids(self, voids: list[set[int]], t: Trick) -> None:
        reveals = self.rules.reveals
        for i, (seat, c) in enumerate(zip(t.seats, t.cards, strict=True)):
            voids[seat] |= reveals(t.led if i else None, c)

    def card_zones(self) -> dict[str, list[Card]]:
        zones = {f"hand{s}": list(h) for s, h in enumerate(self.hands)}
        zones["stock"] = list(self.stock)
        zones["trick"] = list(self.trick.cards)
        zones.update({f"taken{s}": list(t) for s, t in enumerate(self.taken)})
        return zones

    def hidden_from(self, seat: int) -> set[Card]:
        """Other hands (but the dealer's shown trump card) and the stock under the turned
        card. Cards played were seen by all and stay known."""
        hidden = {c for s, h in enumerate(self.hands) if s != seat for c in h}
        hidden.update(self.stock)
        hidden.discard(self.trump_card)
        return hidden

    # ------------------------------------------------------------- for search bots
    def clone(self) -> OpendaumDeal:
        """An independent copy for a search playout: fresh containers for whatever play
        changes (completed tricks never change again and are shared)."""
        new = object.__new__(OpendaumDeal)
        new.__dict__.update(self.__dict__)
        new.hands = [list(h) for h in self.hands]
        new.bids = list(self.bids)
        new.tricks = list(self.tricks)
        new.taken = [list(t) for t in self.taken]
        new.played = list(self.played)
        new.trick = self.trick.copy()
        new._legal = None
        return new

    def payoffs(self) -> list[float]:
        """Each seat's points for this deal, as the score sheet writes them."""
        final = self.position == self.schedule_length - 1
        k = self.final_multiplier if final else None
        penalty = bool(self.options.get("last_deal_penalty", False))
        return [float(score(b or 0, t, k, penalty))
                for b, t in zip(self.bids, self.tricks, strict=True)]

