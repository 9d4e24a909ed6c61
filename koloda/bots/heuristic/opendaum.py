"""The Opendaum heuristic: bid the tricks the hand should take, then take exactly that many.

Bidding counts each card's chance of a trick (trumps by rank and length, side aces and
guarded kings, shakhi played wild, ruffs from short suits), shrunk as the table fills.
Play: while short of the bid, win with the cheapest card that should hold the trick and lead
sure winners; at the bid, lose every trick with the highest card that still loses (shedding
danger), lead the card most likely to be beaten. A shakha goes wild only when a trick is
wanted; otherwise it is the safest duck there is (always playable, a plain six).

The same policy plays both from an observation (``OpendaumHeuristic``) and inside the
search's playouts straight from a deal state (``rollout``): one ``play_card`` and one
``bid_for`` for both, on int cards.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from koloda.cards import SUITS, TEXT_CARD, Card, deck
from koloda.engine.view import Observation
from koloda.games.opendaum.deal import BID, BID_TEXT, OVER
from koloda.games.opendaum.views import OpendaumView
from koloda.tricks import (
    PLAY_ACTION,
    WILD,
    FollowElseAny,
    FollowElseTrump,
    Trick,
    TrickRules,
)

BIT = tuple(1 << c for c in range(52))
#: the cards of the same suit above ``c`` (standard rank order, which Opendaum uses)
HIGHER = tuple(((1 << (13 - c % 13 - 1)) - 1) << (c + 1) for c in range(52))
SUIT_MASK = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
ACE, KING, QUEEN, JACK = 12, 11, 10, 9


def mask(cards: Sequence[Card]) -> int:
    m = 0
    for c in cards:
        m |= BIT[c]
    return m


# --------------------------------------------------------------------- bidding
def expected_tricks(hand: Sequence[Card], rules: TrickRules, players: int) -> float:
    """A quick count of the tricks ``hand`` should take with ``players`` at the table."""
    trump, shakhi = rules.trump, rules.shakhi
    size = len(hand)
    by_suit: list[list[int]] = [[], [], [], []]
    wild = 0
    for c in hand:
        if c in shakhi:
            wild += 1
        else:
            by_suit[c // 13].append(c % 13)
    crowd = (players - 1) / 3              # 1.0 at four players
    est = 0.95 * wild
    trumps = sorted(by_suit[trump], reverse=True) if trump is not None else []
    t = len(trumps)
    for i, r in enumerate(trumps):
        if r == ACE:
            v = 1.0
        elif r == KING:
            v = 0.85 if t >= 2 or size <= 2 else 0.7
        elif r == QUEEN:
            v = 0.65 if t >= 3 else 0.45
        elif r == JACK:
            v = 0.5 if t >= 3 else 0.3
        else:
            v = 0.3
        if i >= 3:                         # long trumps take tricks by length
            v = max(v, 0.75)
        est += v
    spare = max(0, t - 2)                  # small trumps free to ruff a short side suit
    for s in range(4):
        if s == trump:
            continue
        ranks = by_suit[s]
        n_s = len(ranks)
        if n_s == 0:
            if size >= 3 and spare:
                est += 0.45 * min(spare, 2)
                spare -= min(spare, 2)
            continue
        risk = 1.0 - 0.06 * max(0, n_s - 2) * crowd      # long suits get ruffed
        if ACE in ranks:
            est += 0.9 * risk
        if KING in ranks:
            est += (0.55 if ACE in ranks else 0.4 if n_s >= 2 else 0.2) * risk
        if QUEEN in ranks and ACE in ranks and KING in ranks:
            est += 0.35 * risk
    # the count fitted to the tricks such hands took in heuristic play (least squares over
    # thousands of deals per table size): a crowded table leaves fewer tricks to each high
    # card, a small one gives low cards tricks too
    a, b = CALIBRATION.get(players, (0.8, 0.0))
    return a * est + b * size


#: players → (a, b): expected tricks = a × the card count + b × the hand size
CALIBRATION = {2: (1.0, 0.19), 3: (1.0, 0.068), 4: (0.9, 0.035), 5: (0.77, 0.035),
               6: (0.8, 0.0)}


def bid_for(hand: Sequence[Card], rules: TrickRules, players: int,
            legal: Sequence[str]) -> str:
    """The legal bid nearest the hand's expected tricks (the hook rule may refuse one)."""
    est = expected_tricks(hand, rules, players)
    best, gap = legal[0], 1e9
    for a in legal:
        g = abs(int(a[4:]) - est)
        if g < gap - 1e-9:
            best, gap = a, g
    return best


# ------------------------------------------------------------------------ play
def _best_key(rules: TrickRules, trick: Trick) -> int:
    best = -1
    trump, suit, power, led = rules.trump, rules.suit, rules.power, trick.led
    for i, c in enumerate(trick.cards):
        if trick.wild[i]:
            k = 1000 + i
        elif suit[c] == trump:
            k = 100 + power[c]
        elif suit[c] == led:
            k = power[c]
        else:
            continue
        if k > best:
            best = k
    return best


def _worth(rules: TrickRules, c: Card) -> int:
    """How much a card is worth keeping to win later tricks (discards go cheapest first)."""
    if c in rules.shakhi:
        return 300
    return rules.power[c] + (100 if rules.suit[c] == rules.trump else 0)


def _danger(rules: TrickRules, c: Card) -> int:
    """How likely a card is to win a trick it should lose later (ducks shed the worst
    first); a shakha never has to: played plain it is a six."""
    if c in rules.shakhi:
        return -1
    return rules.power[c] + (100 if rules.suit[c] == rules.trump else 0)


#: id(rules) → (rules, ``_worth`` and ``_danger`` of every card): the rules are kept so
#: that their id is never reused while cached
_TABLE_CACHE: dict[int, tuple[TrickRules, tuple[int, ...], tuple[int, ...]]] = {}


def _tables(rules: TrickRules) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``_worth`` and ``_danger`` of every card under ``rules``, made once per rules."""
    known = _TABLE_CACHE.get(id(rules))
    if known is None:
        cards = range(len(rules.suit))
        known = _TABLE_CACHE[id(rules)] = (
            rules, tuple(_worth(rules, c) for c in cards), tuple(_danger(rules, c) for c in cards))
    return known[1], known[2]


def _sure_tricks(rules: TrickRules, hand: Sequence[Card], out: int) -> int:
    """Trumps no unseen trump can beat, and a shakha when no other is out: tricks the
    hand takes whenever it likes."""
    trump = rules.trump
    n = 0
    for c in hand:
        if c in rules.shakhi:
            if not any(out & BIT[x] for x in rules.shakhi):
                n += 1
        elif rules.suit[c] == trump and not out & HIGHER[c]:
            n += 1
    return n


def play_card(rules: TrickRules, hand: Sequence[Card], legal: Sequence[str], trick: Trick,
              need: int, out: int, players: int) -> str:
    """The play for a seat that still wants ``need`` tricks (≤ 0: none; more than the
    cards left: the bid is lost, take what there is), ``out`` being the mask of cards
    it cannot see that may still be played."""
    if len(legal) == 1:
        return legal[0]
    n_played = len(trick.cards)
    best = _best_key(rules, trick) if n_played else -1
    return legal[play_index(rules, hand, [PLAY_ACTION[a] for a in legal], n_played,
                            trick.led, best, need, out, players)]


def play_index(rules: TrickRules, hand: Sequence[Card], plays: Sequence[tuple[Card, str | None]],
               n_played: int, led: int | None, best: int, need: int, out: int,
               players: int) -> int:
    """``play_card`` on the plays as (card, mode) pairs, to a trick of ``n_played`` cards
    led in ``led`` whose winning play has strength ``best`` (``_best_key``): the index of
    the play."""
    want = need != 0 and need <= len(hand)
    if need < 0 or need > len(hand):
        want = True                       # lost anyway: a trick is a point
    elif want and need <= _sure_tricks(rules, hand, out):
        want = False                      # the top trumps will take them: lose the rest
    if n_played == 0:
        return _lead(rules, plays, want, out)
    last = n_played == players - 1
    trump = rules.trump
    out_trumps = out & SUIT_MASK[trump] if trump is not None else 0
    shakhi = rules.shakhi
    out_wild = bool(shakhi) and any(out & BIT[c] for c in shakhi)
    worth = _tables(rules)[0]
    suit = rules.suit
    # a card's strength in this trick (``_key``; a follow always has a led suit)
    strength = rules.strength[led]  # type: ignore[index]
    winners: list[tuple[int, int]] = []      # (cost, index)
    losers: list[tuple[int, int]] = []
    for i, (c, mode) in enumerate(plays):
        wild = mode == WILD
        k = 2000 if wild else strength[c]
        if k > best:
            if last or wild:
                safe = last or not out_wild
            elif suit[c] == trump:
                safe = not (out & HIGHER[c])
            else:
                safe = not (out & HIGHER[c]) and (not out_trumps or led == trump)
            cost = (500 if wild else k) - (0 if safe else 1000)
            winners.append((cost, i))
        else:
            losers.append((worth[c], i))
    if want:
        if winners:
            holding = [w for w in winners if w[0] >= 0]
            pick = min(holding) if holding else max(winners)   # else the best chance
            return pick[1]
        return min(losers)[1]
    # ducking: the most dangerous card that still loses (a shakha is kept: it is a safe
    # duck any time); forced to win, the cheapest (someone may overtake) or, last to play,
    # the most dangerous
    danger = _tables(rules)[1]
    if losers:
        return max((danger[plays[i][0]], i) for _, i in losers)[1]
    if last:
        return max((danger[plays[i][0]], i) for _, i in winners)[1]
    return min(winners)[1]


def _lead(rules: TrickRules, plays: Sequence[tuple[Card, str | None]], want: bool,
          out: int) -> int:
    trump = rules.trump
    suit = rules.suit
    if want:
        # sure winners first: a side-suit master (cashed before it can be ruffed), then a
        # master trump; the highest of them
        best = max(((2 if suit[c] != trump else 1, rules.power[c], i)
                    for i, (c, mode) in enumerate(plays)
                    if mode is None and not out & HIGHER[c]), default=None)
        if best is not None:
            return best[2]
        # no sure winner: the lowest card of the shortest side suit (a void to ruff later)
        counts = [0, 0, 0, 0]
        for c, mode in plays:
            if mode is None:
                counts[suit[c]] += 1
        pick = min(((counts[suit[c]] if suit[c] != trump else 99, rules.power[c], i)
                    for i, (c, mode) in enumerate(plays) if mode is None),
                   default=None)
        if pick is not None:
            return pick[2]
        return 0
    # ducking lead: the card with the most unseen cards above it in its suit
    pick2 = max(((bin(out & HIGHER[c]).count("1") - (20 if suit[c] == trump else 0)
                  - (30 if mode == WILD else 0), -rules.power[c], i)
                 for i, (c, mode) in enumerate(plays)))
    return pick2[2]


# ----------------------------------------------------------------------- bots
class OpendaumHeuristic:
    """Plays from the observation alone."""

    name = "heuristic"

    def __init__(self, game: str) -> None:
        from koloda.engine.registry import get_spec
        from koloda.games.opendaum.match import OpendaumMatch, trick_rules
        cls = get_spec(game).match_class
        assert issubclass(cls, OpendaumMatch)
        self.variant = cls.variant
        self._trick_rules = trick_rules

    def choose(self, observation: Mapping[str, Any], legal: list[str],
               rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        obs = observation
        view = obs.deal if isinstance(obs, Observation) else None
        if isinstance(obs, Observation) and isinstance(view, OpendaumView) \
                and obs.seat is not None and view.trump is not None:
            # the typed observation: ints and tuples, no JSON to read
            seat: int = obs.seat
            options: Mapping[str, Any] = view.options
            trump, hand, phase = view.trump, list(view.hand), view.phase
            played = [p[1] for t in view.tricks_played for p in t.cards]
            leader, plays = view.leader, view.trick
            deck_size, deal_size, trump_card = view.deck_size, view.deal_size, view.trump_card
            bid, taken, players = view.bids[seat], view.tricks_taken[seat], len(view.hand_sizes)
        else:                                   # its JSON form (a record's, a script's)
            seat = obs["seat"]
            options = obs.get("options", {})
            trump, hand, phase = SUITS.index(obs["trump"]), [TEXT_CARD[t] for t in obs["hand"]], \
                obs["phase"]
            played = [TEXT_CARD[p[1]] for t in obs["tricks_played"] for p in t["cards"]]
            leader = obs["leader"]
            plays = tuple((p[0], TEXT_CARD[p[1]], *p[2:]) for p in obs["trick"])
            deck_size, deal_size = obs["deck_size"], obs["deal_size"]
            trump_card = TEXT_CARD[obs["trump_card"]]
            bid, taken = obs["bids"][seat], obs["tricks_taken"][seat]
            players = len(obs["hand_sizes"])
        rules = self._trick_rules(self.variant, options)[trump]
        if phase == "bid":
            return bid_for(hand, rules, players, legal)
        seen = mask(hand) | mask(played)
        trick = Trick(leader)
        for p in plays:
            c = p[1]
            seen |= BIT[c]
            trick.add(rules, p[0], c, p[2] if len(p) > 2 else None)
        if deck_size > players * deal_size:
            seen |= BIT[trump_card]       # turned on the stock
        deck_mask = mask(deck(deck_size))
        need = (bid or 0) - taken
        return play_card(rules, hand, legal, trick, need, deck_mask & ~seen, players)


def make(game: str, level: str | None = None) -> OpendaumHeuristic:
    return OpendaumHeuristic(game)


# ---------------------------------------------------------------- for search
def choose_in_state(state: Any) -> str:
    """The heuristic's action for the seat to move, read from a full deal state (what that
    seat could not see is only used as 'unseen': the cards still out)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    seat = state.to_move
    hand = state.hands[seat]
    if state.phase == "bid":
        return bid_for(hand, state.rules, state.players, legal)
    out = mask(state.stock[1:])          # under the turned card: unseen, maybe still out
    for s, h in enumerate(state.hands):
        if s != seat:
            out |= mask(h)
    need = (state.bids[seat] or 0) - state.tricks[seat]
    return play_card(state.rules, hand, legal, state.trick, need, out, state.players)


def rollout(state: Any, rng: random.Random | None = None) -> None:
    """Play the deal out with the heuristic in every seat: the bids (if any are left) by
    ``bid_for``, the cards by ``play_index`` — on plain int cards (``_play_out_plain``)
    when the rules have no special cards and a follow-suit policy, else through the deal
    state (``rollout_by_state``). Both play the same cards (tests/test_bots_opendaum.py).
    The heuristic is deterministic: ``rng`` is not used."""
    rules, players = state.rules, state.players
    while state.phase == BID:
        legal = state.legal_actions()
        seat = state.to_move
        state.apply_unchecked(bid_for(state.hands[seat], rules, players, legal)
                              if len(legal) > 1 else legal[0])
    if state.is_over:
        return
    policy = type(rules.policy)
    if not rules.specials and policy in (FollowElseTrump, FollowElseAny):
        _play_out_plain(state, rules.trump if policy is FollowElseTrump else None)
    else:
        rollout_by_state(state)


def rollout_by_state(state: Any) -> None:
    """``rollout`` through the deal state's own ``legal_actions`` and ``apply_unchecked``
    (every variant; ``choose_in_state`` with the unseen-card masks kept up to date instead
    of rebuilt, and no legality re-check: every action comes from ``legal_actions``)."""
    hm = [mask(h) for h in state.hands]
    alive = mask(state.stock[1:])
    for m in hm:
        alive |= m
    rules, players = state.rules, state.players
    while not state.is_over:
        legal = state.legal_actions()
        seat = state.to_move
        if state.phase == BID:
            a = bid_for(state.hands[seat], rules, players, legal) if len(legal) > 1 else legal[0]
        else:
            if len(legal) == 1:
                a = legal[0]
            else:
                need = (state.bids[seat] or 0) - state.tricks[seat]
                a = play_card(rules, state.hands[seat], legal, state.trick, need,
                              alive & ~hm[seat], players)
            b = ~BIT[PLAY_ACTION[a][0]]
            hm[seat] &= b
            alive &= b
        state.apply_unchecked(a)


#: a plain play of each card, as ``PLAY_ACTION`` reads it
_PLAIN = tuple((c, None) for c in range(52))


def _play_out_plain(state: Any, ruff: int | None) -> None:
    """The card play of ``rollout_by_state`` on int cards and masks, no action texts and
    no deal-state calls, for rules without special cards: follow the led suit, else (void)
    a trump of suit ``ruff`` (None: follow-else-any), else any card. At the end the state
    is over with its hands empty and each seat's tricks and taken cards counted, the
    trick on the table empty; its completed tricks (``played``, ``last_trick``) are not
    recorded — nothing reads them after a playout."""
    rules, n = state.rules, state.players
    suit, strength = rules.suit, rules.strength
    nxt = state.next_seat
    bids, tricks = state.bids, state.tricks
    hands = state.hands                         # the state's own lists: emptied here
    hm = [mask(h) for h in hands]
    alive = mask(state.stock[1:])
    for m in hm:
        alive |= m
    trick = state.trick
    cards, seats = list(trick.cards), list(trick.seats)
    led = trick.led
    best, win = -1, -1
    for s, c in zip(seats, cards, strict=True):
        k = strength[led][c]
        if k > best:
            best, win = k, s
    seat = state.to_move
    taken = state.taken
    while True:
        hand = hands[seat]
        legal = hand
        if cards:
            legal = [c for c in hand if suit[c] == led]
            if not legal and ruff is not None:
                legal = [c for c in hand if suit[c] == ruff]
            if not legal:
                legal = hand
        if len(legal) == 1:
            c = legal[0]
        else:
            need = (bids[seat] or 0) - tricks[seat]
            c = legal[play_index(rules, hand, [_PLAIN[x] for x in legal], len(cards), led,
                                 best, need, alive & ~hm[seat], n)]
        hand.remove(c)
        b = ~BIT[c]
        hm[seat] &= b
        alive &= b
        if not cards:
            led = suit[c]
        k = strength[led][c]
        if k > best:
            best, win = k, seat
        cards.append(c)
        seats.append(seat)
        if len(cards) < n:
            seat = nxt[seat]
            continue
        tricks[win] += 1
        taken[win].extend(cards)
        if not hands[win]:
            break
        seat, cards, seats, best = win, [], [], -1
    state.trick = Trick(win)
    state.to_move, state.is_over, state.phase, state._legal = None, True, OVER, None


#: ``misfits``'s faster play lister: (rules, hand, led suit or None) → the legal plays as
#: (card, mode) pairs in card order, or None where it does not apply
PlaysOf = Callable[[TrickRules, list[Card], "int | None"], "list[tuple[Card, str | None]] | None"]


def misfits(state: Any, seat: int, cap: float = math.inf,
            plays_of: PlaysOf | None = None) -> int:
    """How many of the other seats' bids and plays so far in ``state`` (a full deal: a
    search's sample) the heuristic would not have made holding the hands the sample gives
    them — the bids and plays as evidence about the hands. A play with no choice counts
    for nothing; ``seat``'s own actions are not looked at.

    ``cap``: stop counting there (a search resampling its deals only needs to know
    whether a draw misfits less than some count; the answer is then some count ≥ cap).
    ``plays_of(rules, hand, led)``: the legal plays as (card, mode) pairs in card order,
    or None where it does not apply — a faster lister for a variant
    (koloda.bots.search.games.opendaum_rollout's shakhi plays); the same answers."""
    rules, n = state.rules, state.players
    dealt = state.deal.hands
    miss = 0
    bids = state.bids
    order = [(state.dealer + 1 + i) % n for i in range(n)]     # the dealer bids last
    size = len(dealt[0])
    hook = getattr(state, "hook", False)
    total = 0
    for s in order:
        b = bids[s]
        if b is None:
            break
        if s != seat:
            legal = BID_TEXT[:size + 1]
            if hook and s == state.dealer and 0 <= size - total <= size:
                legal = tuple(t for i, t in enumerate(legal) if i != size - total)
            if bid_for(sorted(dealt[s]), rules, n, legal) != BID_TEXT[b]:
                miss += 1
                if miss >= cap:
                    return miss
        total += b
    if not state.played and not state.trick.cards:
        return miss
    hands = [sorted(h) for h in dealt]
    hm = [mask(h) for h in hands]
    alive = mask(state.deal.stock[1:])
    for m in hm:
        alive |= m
    tricks = [0] * n
    for done in (*state.played, state.trick):
        trick = Trick(done.leader)
        modes = done.modes
        for i, (s, c) in enumerate(zip(done.seats, done.cards, strict=True)):
            mode = modes[i]
            if s != seat:
                need = (bids[s] or 0) - tricks[s]
                k = len(trick.cards)
                plays = None if plays_of is None else \
                    plays_of(rules, hands[s], trick.led if k else None)
                if plays is not None:
                    missed = len(plays) > 1 and plays[play_index(
                        rules, hands[s], plays, k, trick.led,
                        _best_key(rules, trick) if k else -1, need, alive & ~hm[s], n)
                    ] != (c, mode)
                else:
                    legal = rules.plays(hands[s], trick)
                    missed = len(legal) > 1 and PLAY_ACTION[play_card(
                        rules, hands[s], legal, trick, need, alive & ~hm[s], n)] != (c, mode)
                if missed:
                    miss += 1
                    if miss >= cap:
                        return miss
            hands[s].remove(c)
            hm[s] &= ~BIT[c]
            alive &= ~BIT[c]
            trick.add(rules, s, c, mode)
        if len(trick.cards) == n:
            tricks[trick.winner(rules)] += 1
    return miss
