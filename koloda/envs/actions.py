"""A fixed, numbered action space per game, and the masks that reach exactly the legal
actions — standard library only (both adapters use it). The space is built from the words
the game declares (``GameSpec.actions``, a koloda.engine.spec.ActionVocabulary).

Most actions have one index each: ``play C`` is ``PLAY + card`` (card = koloda's card int,
suit * 13 + rank), ``beat A B`` is ``BEAT + 52 * A + B``, ``bid N`` is ``BID + N``. A
multi-card choice (Durak ``attack``/``throw``/``transfer``, Mushka and Dreyfus ``discard``)
could name any of thousands of sets, so it is made in steps: ``select C`` picks the cards
one at a time in ascending card order, then ``confirm VERB`` makes the action. The mask
allows a ``select C`` only when some legal set starts with the cards selected so far
followed by C, and a ``confirm VERB`` only when ``VERB <selection>`` is itself legal; while
a selection is open nothing else is allowed. So every legal action is reachable, by one
path, and nothing else is (tests/test_pettingzoo_actions.py checks it on random positions of
every game).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from koloda.cards import CARD_TEXT, TEXT_CARD
from koloda.engine.actions import cards_action
from koloda.engine.legal import CardSubsets, LegalActions
from koloda.engine.registry import get_spec

CARDS = 52

#: how many roots of recent legal lists a space shares by their content (then it starts
#: afresh): every kept root is a few objects the garbage collector walks again and again;
#: 4 096 measured 0.5 (Durak) to 2 (OpenSpiel Mushka) points of the adapters' ratios
#: below 512. Since flat lists (``ActionSpace.start``) need no root, the
#: roots are those of Durak's attacks and throws: 64 measured 0.7-1.3 points (PettingZoo)
#: and 0.3-0.9 (OpenSpiel) above 512 on Durak 2p, 8 no better than 64 (23 %
#: of Durak's lists found a shared root at 512)
SHARED_ROOTS = 64

#: how many roots of legal lists that name their pools a space keeps by their content
#: (then it starts afresh): such a list is one hand's exchange, which comes again while
#: one position is searched (the searcher's own hand in every determinization), seldom
#: after; the roots and nodes of 512 hands kept alive cost the garbage collector more
#: than building them again (each random Mushka episode left ~40 such objects to be
#: collected)
POOLED_ROOTS = 32


@dataclass(frozen=True)
class Selection:
    """The cards selected so far toward a multi-card action (ascending card ints)."""

    cards: tuple[int, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.cards)

    def text(self) -> str:
        return " ".join(CARD_TEXT[c] for c in self.cards)


class _Node:
    """One step of a selection: the confirms allowed here and the cards that may follow.

    The children are made only when asked for (``next``): a node keeps the multi-card
    sets that pass through it as their texts, grouped by verb, and sorts them by their
    next card on first use — read off the text itself (canonical texts list the cards in
    ascending order, each two characters) — so a choice among thousands of sets
    (Dreyfus's discards) costs one slice per set still open at each step: no set is
    parsed whole, and no tree is built beyond the path taken."""

    __slots__ = ("_next", "card", "confirm", "sets")

    def __init__(self, card: int = -1) -> None:
        self.confirm: dict[int, str] = {}
        #: the card this step selects (-1 at the root)
        self.card = card
        #: the sets going on, by verb: (confirm index, where their next card begins —
        #: the same place in every text of the verb at this depth —, their texts)
        self.sets: list[tuple[int, int, list[str]]] = []
        self._next: dict[int, _Node] | None = None

    def child(self, card: int) -> _Node | None:
        """The node after selecting ``card`` here (None: no set goes on with it)."""
        return self.next.get(card)

    @property
    def next(self) -> dict[int, _Node]:
        nxt = self._next
        if nxt is None:
            nxt = {}
            last = self.card
            card_of = _CARD_OF
            for confirm, pos, texts in self.sets:
                end = pos + 2
                going: dict[int, list[str]] = {}
                for text in texts:
                    c = card_of(text[pos:end])
                    if c is None or c <= last:
                        raise ValueError(f"the legal action {text!r} does not list its "
                                         f"cards in the canonical (ascending) order")
                    if len(text) == end:
                        child = nxt.get(c)
                        if child is None:
                            child = nxt[c] = _Node(c)
                        child.confirm[confirm] = text
                    else:
                        more = going.get(c)
                        if more is None:
                            more = going[c] = []
                        more.append(text)
                for c, more in going.items():
                    child = nxt.get(c)
                    if child is None:
                        child = nxt[c] = _Node(c)
                    child.sets.append((confirm, end + 1, more))
            self._next = nxt
            self.sets = []
        return nxt


_CARD_OF = TEXT_CARD.get
NO_SELECTION = Selection()


class _PoolNode:
    """One step of a selection among pools of cards (koloda.engine.legal.LegalActions):
    the same reading as a :class:`_Node` — the confirms allowed here, the cards that may
    follow — worked out from the pools still open (those holding every card selected,
    with room for them) instead of from texts: a step costs the pools' cards, not the
    sets. The node of a card that may follow is made only when that card is selected
    (``child``): a random or searching walk takes one of them."""

    __slots__ = ("_children", "_confirm", "_next", "_space", "card", "cards", "pools")

    def __init__(self, cards: tuple[int, ...], pools: list[CardSubsets],
                 space: ActionSpace) -> None:
        self.cards, self.card, self.pools, self._space = cards, cards[-1], pools, space
        self._next: dict[int, list[CardSubsets]] | None = None
        self._children: dict[int, _PoolNode] = {}
        self._confirm: dict[int, str] | None = None

    @property
    def confirm(self) -> dict[int, str]:
        """Each open pool's confirm → the action of the cards selected (made when first
        asked)."""
        found = self._confirm
        if found is None:
            confirms = self._space._confirms
            found = self._confirm = {confirms[p.verb]: cards_action(p.verb, self.cards)
                                     for p in self.pools}
        return found

    @property
    def next(self) -> dict[int, list[CardSubsets]]:
        """Each card that may follow, in card order → the pools still open with it."""
        nxt = self._next
        if nxt is None:
            last, size = self.card, len(self.cards) + 1
            open_pools = [p for p in self.pools if size <= p.most]
            if len(open_pools) == 1:        # (one pool: every card goes on with it)
                nxt = dict.fromkeys([c for c in open_pools[0].pool if c > last], open_pools)
            else:
                going: dict[int, list[CardSubsets]] = {}
                for p in open_pools:
                    for c in p.pool:
                        if c > last:
                            more = going.get(c)
                            if more is None:
                                going[c] = [p]
                            else:
                                more.append(p)
                nxt = {c: going[c] for c in sorted(going)}
            self._next = nxt
        return nxt

    def child(self, card: int) -> _PoolNode | None:
        """The node after selecting ``card`` here (None: no open pool goes on with it)."""
        node = self._children.get(card)
        if node is None:
            pools = self.next.get(card)
            if pools is None:
                return None
            node = self._children[card] = _PoolNode((*self.cards, card), pools, self._space)
        return node


class _Root:
    """The root of one legal list's selection tree: ``options`` every index allowed
    before a card is selected → a legal text it leads to (for a ``select`` index, one of
    the sets that start with its card: ``select`` tells the two apart by the index); a
    card's node (``child``) made on the first selection of it, from the sets that start
    with it only."""

    __slots__ = ("_children", "_groups", "_pools", "_space", "keys", "legal", "options",
                 "selects")

    def __init__(self, legal: Sequence[str], keys: list[int], space: ActionSpace,
                 groups: dict[int, list[str]] | None = None,
                 pools: tuple[CardSubsets, ...] | None = None) -> None:
        self.legal, self.keys, self._space = legal, keys, space
        #: the multi-card sets by their select key, when the keys were learnt so
        self._groups = groups
        #: the pools the multi-card sets are made of, when the legal list names them
        #: (``legal`` then holds the plain texts, then one pool's verb per select key)
        self._pools = pools
        self._children: dict[int, _Node | _PoolNode | None] = {}
        # (keys are made one per text: zip's strict check would cost a tenth of this)
        self.options: dict[int, str] = dict(zip(keys, legal))  # noqa: B905
        #: a selection may begin here (some index is a ``select``, or a ``confirm`` of a
        #: verb alone: those come after the selects in the space)
        self.selects = bool(space.multi and keys) and max(keys) >= space.select_base

    def select(self, index: int) -> bool:
        """Whether an allowed ``index`` selects a card (else it makes its action)."""
        base = self._space.select_base
        return bool(self._space.multi) and base <= index < base + CARDS

    def child(self, card: int) -> _Node | _PoolNode | None:
        """The node after selecting ``card`` first (None: no set starts with it)."""
        children = self._children
        if card in children:
            return children[card]
        space = self._space
        if self._pools is not None:
            pools = [p for p in self._pools if card in p.pool]
            found = children[card] = _PoolNode((card,), pools, space) if pools else None
            return found
        key = space.select_base + card
        if self._groups is not None:
            sets = self._groups.get(key, [])
        else:
            sets = [text for k, text in zip(self.keys, self.legal, strict=True) if k == key]
        if not sets:
            children[card] = None
            return None
        # every set here starts with ``card``: the node confirms the sets that end there
        # and keeps the others, read on from their second card
        by_verb: dict[str, list[str]] = {}
        if len(space.multi) == 1:
            by_verb[space.multi[0]] = sets
        else:
            for text in sets:
                verb = text[:text.index(" ")]
                texts = by_verb.get(verb)
                if texts is None:
                    texts = by_verb[verb] = []
                texts.append(text)
        node = children[card] = _Node(card)
        for verb, texts in by_verb.items():
            confirm = space._confirms[verb]
            end = len(verb) + 3                 # "verb XX": the set of this card alone
            longer = [t for t in texts if len(t) != end]
            if len(longer) != len(texts):
                for t in texts:
                    if len(t) == end:
                        node.confirm[confirm] = t
                        break
            if longer:
                node.sets.append((confirm, end + 1, longer))
        return node


class ActionSpace:
    """The numbered actions of one game: ``labels[i]`` is index i's text (a canonical
    action, ``select C`` or ``confirm VERB``)."""

    def __init__(self, game: str) -> None:
        spec = get_spec(game)
        self.game = spec.name
        words = spec.actions
        self.labels: list[str] = []
        self.index: dict[str, int] = {}
        for verb in words.plain:
            self._add(verb)
        for verb, top in words.numbers:
            for n in range(top + 1):
                self._add(f"{verb} {n}")
        for verb in words.single:
            for c in range(CARDS):
                self._add(f"{verb} {CARD_TEXT[c]}")
        for card in words.wild_cards:
            self._add(f"play {card} wild")
            self._add(f"play {card} plain")
        for verb in words.pairs:
            for a in range(CARDS):
                for b in range(CARDS):
                    self._add(f"{verb} {CARD_TEXT[a]} {CARD_TEXT[b]}")
        self.multi: tuple[str, ...] = words.multi
        self.select_base = len(self.labels)
        if self.multi:
            for c in range(CARDS):
                self._add(f"select {CARD_TEXT[c]}")
            for verb in self.multi:
                self._add(f"confirm {verb}")
        self.size = len(self.labels)
        self._confirms = {verb: self.index[f"confirm {verb}"] for verb in self.multi}
        #: the texts chosen by one index of their own (every label before the selects
        #: whose verb is not a multi-card one): a legal list of only these is flat
        self._direct = {label: i for i, label in enumerate(self.labels[:self.select_base])
                        if label.split()[0] not in self.multi}
        #: the last (legal list, its indices before a selection or None) (``start``)
        self._start: tuple[Any, list[int] | None] = (None, None)
        #: the tree roots of recent legal lists (engine states keep their list, so the
        #: same list comes back while a position is looked at)
        self._roots: dict[int, tuple[Sequence[str], _Root]] = {}
        #: the roots of recent short legal lists by their texts
        self._shared: dict[tuple[str, ...], _Root] = {}
        #: the roots of recent legal lists that name their pools, by (plain, pools)
        self._pooled: dict[tuple[tuple[str, ...], tuple[CardSubsets, ...]], _Root] = {}
        #: a legal text → the index it is chosen by at the root (``_root_key``)
        self._first: dict[str, int] = {}
        #: an action's text → its index path (``path``)
        self._paths: dict[str, tuple[int, ...]] = {}
        #: the last (legal list, root) and (legal list, cards selected, node) looked up:
        #: an adapter asks the same position's mask and then steps from it
        self._last: tuple[Any, Any] = (None, None)
        self._at: tuple[Any, tuple[int, ...], Any] = (None, (), None)

    def forget(self) -> None:
        """Drop every selection tree and cache (the numbering stays): what a process that
        is done with this game does not need to keep alive."""
        self._roots.clear()
        self._shared.clear()
        self._pooled.clear()
        self._first.clear()
        self._paths.clear()
        self._last = (None, None)
        self._at = (None, (), None)
        self._start = (None, None)

    def _add(self, label: str) -> None:
        self.index[label] = len(self.labels)
        self.labels.append(label)

    # -------------------------------------------------------------- the masks
    def _root_key(self, text: str) -> int:
        """The index a legal text is chosen by at the root: its own (a direct action), the
        ``select`` of its first card (a multi-card set), or its verb's ``confirm`` (a
        multi-card verb alone). Learnt once per text (the texts recur)."""
        sp = text.find(" ")
        verb = text if sp < 0 else text[:sp]
        confirms = self._confirms
        if verb in confirms:
            if sp < 0 or sp == len(text) - 1:
                key = confirms[verb]
            else:
                c = _CARD_OF(text[sp + 1:sp + 3])
                if c is None or text[sp + 3:sp + 4] not in ("", " "):
                    raise ValueError(f"the legal action {text!r} does not list its cards "
                                     f"in the canonical (ascending) order")
                key = self.select_base + c
        else:
            i = self.index.get(text)
            if i is None:
                raise ValueError(f"{self.game}: the action space has no index for the "
                                 f"legal action {text!r}")
            key = i
        first = self._first
        if len(first) >= 200_000:
            first.clear()
        first[text] = key
        return key

    def _learn_keys(self, legal: Sequence[str]) -> tuple[list[int], dict[int, list[str]]]:
        """The root keys of a legal list with texts not learnt yet, and its multi-card
        sets grouped by their ``select`` key (so a card's node need not look through every
        text again). A set of three cards or more is read in line (its first card) and not
        learnt: such sets seldom come again (Mushka's and Dreyfus's discards); the rest go
        through ``_root_key``. A game with one multi-card verb reads every set not learnt
        yet of two cards or more in line, in a loop of its own."""
        learn, get, card_of = self._root_key, self._first.get, _CARD_OF
        confirms, base = self._confirms, self.select_base
        top = base + CARDS
        keys = []
        groups: dict[int, list[str]] = {}
        only = self.multi[0] + " " if len(self.multi) == 1 else None
        if only is not None:            # one multi-card verb (Mushka, Dreyfus: discard)
            n = len(only)
            for t in legal:
                k = get(t)
                if k is None:
                    if t.startswith(only) and len(t) > n + 2 and t[n + 2] == " ":
                        c = card_of(t[n:n + 2])     # a set of two cards or more: in line
                        if c is not None:
                            k = base + c
                    if k is None:
                        k = learn(t)
                keys.append(k)
                if base <= k < top:
                    group = groups.get(k)
                    if group is None:
                        groups[k] = [t]
                    else:
                        group.append(t)
            return keys, groups
        for t in legal:
            if only is not None:
                sp = len(only) - 1 if t.startswith(only) else 0
            else:
                sp = t.find(" ")
                if sp > 0 and t[:sp] not in confirms:
                    sp = 0
            if sp > 0 and len(t) > sp + 6:                  # a set of three cards or more
                c = card_of(t[sp + 1:sp + 3])
                if c is not None and t[sp + 3] == " ":
                    k = base + c
                    keys.append(k)
                    group = groups.get(k)
                    if group is None:
                        groups[k] = [t]
                    else:
                        group.append(t)
                    continue
            known = get(t)
            k = learn(t) if known is None else known
            keys.append(k)
            if base <= k < top:
                group = groups.get(k)
                if group is None:
                    group = groups[k] = []
                group.append(t)
        return keys, groups

    def start(self, legal: Sequence[str]) -> list[int] | None:
        """What may be chosen before a card is selected, for a legal list that needs no
        selection tree (else None); the last answer is kept (an adapter asks the mask,
        then steps). Two kinds of list need none:

        - a *flat* list, every action chosen by an index of its own (no multi-card set,
          no verb confirmed alone): the trick games' plays and bids, Durak's defences —
          most positions. Its indices in the list's order; an allowed index makes
          ``labels[index]`` (the label of a direct action is its canonical text).
        - a list naming *one pool* (every set of 1..most of its cards) whose other texts
          each have an index of their own (Mushka's and Dreyfus's exchanges): those
          indices, then the ``select`` of every card of the pool — the last index is a
          select; the selection it begins is read off the pool (``_one_pool``)."""
        last = self._start
        if last[0] is legal:
            return last[1]
        keys: list[int] | None = None
        get = self._direct.get
        if legal.__class__ is not LegalActions:
            keys = []
            for t in legal:
                k = get(t)
                if k is None:           # a multi-card set or a verb confirmed alone
                    keys = None
                    break
                keys.append(k)
        elif len(legal.subsets) == 1:
            pool = legal.subsets[0]
            if pool.most >= 1 and pool.pool:
                keys = []
                for t in legal.plain:
                    k = get(t)
                    if k is None:       # a multi-card verb's text: the tree
                        keys = None
                        break
                    keys.append(k)
                if keys is not None:
                    base = self.select_base
                    keys += [base + c for c in pool.pool]
        self._start = (legal, keys)
        return keys

    def flat(self, legal: Sequence[str]) -> list[int] | None:
        """``start`` of a flat list (no selection can begin); None for any other."""
        keys = self.start(legal)
        return keys if keys and keys[-1] < self.select_base else None

    def pool_start(self, legal: Sequence[str]) -> list[int] | None:
        """``start`` of a list naming one pool (a selection may begin); None for any
        other."""
        keys = self.start(legal)
        return keys if keys and keys[-1] >= self.select_base else None

    def _root(self, legal: Sequence[str]) -> _Root:
        """The root of the legal actions' selection tree: what may be chosen before any
        card is selected, each index to its action (a ``select`` told by its index). Made
        once per legal list (engine states keep their list while a position is looked
        at), and shared by the positions whose short lists are the same (they recur:
        half of random Durak's and Mushka's positions repeat an earlier list)."""
        last = self._last
        if last[0] is legal:                # the list just asked about (mask, then step)
            return last[1]
        cached = self._roots.get(id(legal))
        if cached is not None and cached[0] is legal:
            self._last = cached
            return cached[1]
        if legal.__class__ is LegalActions and self.multi:
            return self._pool_root(legal)
        content: tuple[str, ...] | None = None
        root = None
        if len(legal) <= 64:
            content = tuple(legal)
            root = self._shared.get(content)
        if root is None:
            groups = None
            known: list[Any] = list(map(self._first.get, legal))
            if None in known:                   # a text not learnt yet (or not learnt
                keys, groups = self._learn_keys(legal)      # at all: long sets)
            else:
                keys = known
            root = _Root(content if content is not None else legal, keys, self, groups)
            if content is not None:
                if len(self._shared) >= SHARED_ROOTS:
                    self._shared.clear()
                self._shared[content] = root
        if len(self._roots) >= 64:
            self._roots.clear()
        self._roots[id(legal)] = self._last = (legal, root)   # (the list kept: its id
        return root                                            # stays its own)

    def _pool_root(self, legal: LegalActions) -> _Root:
        """The root of a legal list that names its pools: the plain texts' own keys,
        then a ``select`` of every card some pool holds — no multi-card text read. Shared
        by the positions with the same plain texts and pools (a hand's discards)."""
        content = (legal.plain, legal.subsets)
        root = self._pooled.get(content)
        if root is None:
            get = self._first.get
            keys = []
            for t in legal.plain:
                k = get(t)
                keys.append(self._root_key(t) if k is None else k)
            texts = list(legal.plain)
            base = self.select_base
            selects = {c: p.verb for p in legal.subsets for c in p.pool}
            for c in sorted(selects):
                keys.append(base + c)
                texts.append(selects[c])
            root = _Root(texts, keys, self, pools=legal.subsets)
            if len(self._pooled) >= POOLED_ROOTS:
                self._pooled.clear()
            self._pooled[content] = root
        if len(self._roots) >= 64:
            self._roots.clear()
        self._roots[id(legal)] = self._last = (legal, root)
        return root

    def _node(self, legal: Sequence[str], selection: Selection
              ) -> _Node | _PoolNode | None:
        """The tree node after the cards of an open selection (not the root)."""
        cards = selection.cards
        at = self._at
        if at[0] is legal and at[1] == cards:
            return at[2]
        node = self._root(legal).child(cards[0])
        for c in cards[1:]:
            node = node.child(c) if node is not None else None
        self._at = (legal, cards, node)
        return node

    def options(self, legal: Sequence[str], selection: Selection = Selection()
                ) -> dict[int, str | None]:
        """Every allowed index now → the engine action it makes, or None for a selection
        step. ValueError when the engine offers an action this space cannot name."""
        if not selection.cards:
            root = self._root(legal)
            return {i: None if root.select(i) else text for i, text in root.options.items()}
        node = self._node(legal, selection)
        if node is None:
            return {}
        out: dict[int, str | None] = dict(node.confirm)
        for c in node.next:
            out[self.select_base + c] = None
        return out

    def _one_pool(self, legal: Sequence[str], cards: tuple[int, ...]) -> CardSubsets | None:
        """The pool an open selection is made from when the legal list names one pool
        (Mushka's and Dreyfus's discards) and the cards selected are a set of it still
        open (ascending, in the pool, no more than its most); else None (the tree).
        From one pool every set of 1..most of its cards is legal, so a step there is
        read off the pool with no node: the confirm, and every later card of the pool
        while there is room."""
        if legal.__class__ is not LegalActions:
            return None
        pools = legal.subsets
        if len(pools) != 1:
            return None
        pool = pools[0]
        if len(cards) > pool.most:
            return None
        held, last = pool.pool, -1
        for c in cards:
            if c <= last or c not in held:
                return None
            last = c
        return pool

    def allowed(self, legal: Sequence[str], selection: Selection = Selection()) -> list[int]:
        """The indices that may be chosen now (what the adapters set to 1 in a numpy mask
        in one assignment)."""
        cards = selection.cards
        if not cards:
            keys = self.start(legal)
            return list(self._root(legal).options) if keys is None else list(keys)
        pool = self._one_pool(legal, cards)
        if pool is not None:
            out = [self._confirms[pool.verb]]
            if len(cards) < pool.most:
                last, base = cards[-1], self.select_base
                out += [base + c for c in pool.pool if c > last]
            return out
        node = self._node(legal, selection)
        if node is None:
            return []
        out = list(node.confirm)
        nxt = node.next
        if nxt:
            base = self.select_base
            out += [base + c for c in nxt]
        return out

    def choices(self, legal: Sequence[str], selection: Selection = Selection()
                ) -> Iterable[int]:
        """``allowed`` without the copy (for writing a mask): the root's own keys when no
        selection is open. Read it, do not keep it."""
        if not selection.cards:
            keys = self.start(legal)
            return self._root(legal).options.keys() if keys is None else keys
        return self.allowed(legal, selection)

    def mask(self, legal: Sequence[str], selection: Selection = Selection()) -> list[int]:
        """0/1 per index: may it be chosen now."""
        m = [0] * self.size
        for i in self.options(legal, selection):
            m[i] = 1
        return m

    def step(self, index: int, legal: Sequence[str], selection: Selection = Selection()
             ) -> tuple[str | None, Selection]:
        """Choose ``index``: (the engine action to apply or None, the selection after)."""
        cards = selection.cards
        if not cards:
            keys = self.start(legal)
            if keys is not None:
                if index in keys:
                    if index >= self.select_base:
                        return None, Selection((index - self.select_base,))
                    return self.labels[index], NO_SELECTION
            else:
                root = self._root(legal)
                action = root.options.get(index)
                if action is not None:
                    if root.select(index):
                        return None, Selection((index - self.select_base,))
                    return action, NO_SELECTION
        else:
            pool = self._one_pool(legal, cards)
            if pool is not None:
                if index == self._confirms[pool.verb]:
                    return cards_action(pool.verb, cards), NO_SELECTION
                card = index - self.select_base
                if len(cards) < pool.most and cards[-1] < card < CARDS and card in pool.pool:
                    return None, Selection((*cards, card))
            elif (node := self._node(legal, selection)) is not None:
                action = node.confirm.get(index)
                if action is not None:
                    return action, NO_SELECTION
                card = index - self.select_base
                if 0 <= card < CARDS and card in node.next:
                    return None, Selection((*cards, card))
        label = self.labels[index] if 0 <= index < self.size else str(index)
        raise ValueError(f"{self.game}: action {index} ({label}) is not allowed now")

    def path(self, action: str) -> list[int]:
        """The indices that make the canonical engine ``action``: one index, or the
        ``select`` steps then the ``confirm`` of a multi-card action."""
        known = self._paths.get(action)
        if known is not None:
            return list(known)
        verb, _, rest = action.partition(" ")
        if verb in self.multi:
            cards = sorted(TEXT_CARD[w] for w in rest.split())
            path = [self.select_base + c for c in cards] + [self.index[f"confirm {verb}"]]
        elif action not in self.index:
            raise ValueError(f"{self.game}: the action space has no index for {action!r}")
        else:
            path = [self.index[action]]
        if len(self._paths) >= 100_000:
            self._paths.clear()
        self._paths[action] = tuple(path)
        return path

    def reachable(self, legal: Sequence[str]) -> set[str]:
        """Every engine action some sequence of allowed indices makes (for the tests)."""
        found: set[str] = set()
        stack = [Selection()]
        while stack:
            sel = stack.pop()
            for i, action in self.options(legal, sel).items():
                if action is not None:
                    found.add(action)
                else:
                    stack.append(Selection((*sel.cards, i - self.select_base)))
        return found

    def describe(self) -> list[tuple[int, int, str]]:
        """(first index, count, pattern) runs of the space, for the documentation."""
        runs: list[tuple[int, int, str]] = []
        for i, label in enumerate(self.labels):
            pattern = _pattern(label)
            if runs and runs[-1][2] == pattern:
                start, count, _ = runs[-1]
                runs[-1] = (start, count + 1, pattern)
            else:
                runs.append((i, 1, pattern))
        return runs


def _pattern(label: str) -> str:
    words = label.split()
    if len(words) == 3 and words[1] in TEXT_CARD and words[2] in TEXT_CARD:
        return f"{words[0]} A B  (index = first + 52·A + B)"
    if len(words) >= 2 and words[1] in TEXT_CARD and words[-1] not in ("wild", "plain"):
        return f"{words[0]} C  (index = first + card)"
    if len(words) == 2 and words[1].isdigit():
        return f"{words[0]} N  (index = first + N)"
    return label


@cache
def action_space(game: str, adapter: str = "") -> ActionSpace:
    """The numbered actions of ``game`` (every instance numbers them alike). ``adapter``
    names whose selection trees and caches these are: each adapter keeps its own, so
    the positions one adapter has looked at never make another faster (the adapters'
    benchmark, koloda.envs.speed, plays the same games on every side in turn)."""
    return ActionSpace(get_spec(game).name)


def markdown(game: str) -> str:
    rows = ["| indices | actions |", "|---|---|"]
    for start, count, pattern in action_space(game).describe():
        span = str(start) if count == 1 else f"{start}–{start + count - 1}"
        rows.append(f"| {span} | `{pattern}` |")
    return "\n".join(rows)

