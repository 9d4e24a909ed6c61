"""Choosing a move with cards: which legal actions a set of marked hand cards stands for.

The one chooser of both interfaces: the terminal asks it as a person marks cards, and the
web server sends the browser what it computes (``MoveChooser.to_json``) with each seat's
state, so the page reads no action text to know which cards a move uses.

No rule lives here. The legal actions come from the engine; this module only reads their
canonical texts (docs/records.md) to see which hand cards each one uses, so that the table can
highlight legal cards, turn "these marked cards" into the one legal action they mean, list
the alternatives when they mean several (a shakha wild or plain, a Durak card that beats
one of two attack cards), and build the text of an attempt the engine should explain when
they mean none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from koloda.cards import TEXT_CARD


def action_cards(action: str, hand: frozenset[str]) -> frozenset[str]:
    """The hand cards an action uses (``beat A B`` uses B; ``play 6C wild`` uses 6C)."""
    return frozenset(w for w in action.split()[1:] if w in hand)


@dataclass
class MoveChooser:
    """The legal actions of one decision, indexed by the hand cards they use."""

    legal: list[str]
    hand: list[str]
    by_cards: dict[frozenset[str], list[str]] = field(init=False)
    plain: list[str] = field(init=False)
    #: each hand card's place in the hand
    place: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        held = frozenset(self.hand)
        self.place = {c: i for i, c in enumerate(self.hand)}
        self.by_cards = {}
        self.plain = []
        for a in self.legal:
            used = action_cards(a, held)
            if used:
                self.by_cards.setdefault(used, []).append(a)
            else:
                self.plain.append(a)

    @property
    def legal_cards(self) -> frozenset[str]:
        """Every hand card some legal action uses: these are highlighted."""
        out: set[str] = set()
        for used in self.by_cards:
            out |= used
        return frozenset(out)

    @property
    def multi_verbs(self) -> list[str]:
        """Verbs of the legal actions that take several hand cards (for the hint)."""
        seen: list[str] = []
        for used, actions in self.by_cards.items():
            if len(used) > 1:
                for a in actions:
                    v = a.split()[0]
                    if v not in seen:
                        seen.append(v)
        return seen

    def exact(self, marked: frozenset[str]) -> list[str]:
        """The legal actions using exactly these hand cards."""
        return list(self.by_cards.get(marked, ()))

    def extending(self, marked: frozenset[str]) -> list[str]:
        """Legal actions that use these cards and more (the person is not done marking)."""
        return [a for used, acts in self.by_cards.items() if marked < used for a in acts]

    def menu(self, marked: frozenset[str] = frozenset()) -> list[str]:
        """The numbered list of moves: the actions for the marked cards, else every action
        of at most one hand card (sets of several are made by marking cards)."""
        if marked:
            return self.exact(marked) + self.plain
        held = frozenset(self.hand)
        short = [a for a in self.legal if len(action_cards(a, held)) <= 1] or list(self.legal)
        # actions without cards first (take, pass, bids), then by the card's place in hand
        place = self.place

        def key(item: tuple[int, str]) -> tuple[int, int, int]:
            used = action_cards(item[1], held)
            return (1 if used else 0, min((place[c] for c in used), default=0), item[0])
        return [a for _, a in sorted(enumerate(short), key=key)]

    def card_verb(self) -> str:
        """The verb the cards are played with now (the most common card verb; ``play`` when
        no card can be played) — used to let the engine say why a card is refused."""
        verbs = Counter(a.split()[0] for acts in self.by_cards.values() for a in acts)
        return verbs.most_common(1)[0][0] if verbs else "play"

    def attempt(self, marked: frozenset[str], target: str | None = None) -> str:
        """The action text a person means by marking cards that no legal action uses.

        ``target`` is the table card a ``beat`` would cover (given by the game's view)."""
        cards = sorted(marked, key=lambda c: TEXT_CARD.get(c, 99))
        verb = self.card_verb()
        if verb == "beat" and len(cards) == 1:
            return f"beat {target} {cards[0]}" if target else f"beat {cards[0]} {cards[0]}"
        return f"{verb} {' '.join(cards)}"

    def aimed(self, card: str, target: str) -> str:
        """The action a person means by choosing the table card ``target`` and then the hand
        card ``card`` (a Durak cover): the legal action that uses the card and names the
        target, else the cover the engine should explain."""
        for a in self.exact(frozenset({card})):
            if target in a.split()[1:]:
                return a
        return f"beat {target} {card}"

    def key(self, cards: Iterable[str]) -> str:
        """A set of hand cards as one text: the cards in the order of the hand."""
        return " ".join(sorted(cards, key=self.place.__getitem__))

    def to_json(self, targets: Sequence[str] = ()) -> dict[str, Any]:
        """What the chooser knows, for a page that lets a person choose by cards.

        ``targets``: the table cards a person may choose to cover (Durak's uncovered
        attack cards, first the one a lone card would beat). A set of hand cards is named
        by ``key`` (its cards in the order of ``hand``):

        - ``playable``: the hand cards some legal action uses (highlighted);
        - ``plain``: the legal actions that use no hand card (take, pass, bids);
        - ``exact``: for each set of cards some legal action uses, those actions (as their
          places in ``legal``, which the page has: a long list is not sent twice);
        - ``more``: the sets some legal action uses together with more cards;
        - ``attempts``: for each hand card no legal action uses, the action the engine
          should explain (none when no legal action uses any card);
        - ``aims``: for each target, each hand card's ``aimed`` action;
        - ``beatable``: the targets some legal action names."""
        index = {a: i for i, a in enumerate(self.legal)}
        exact = {self.key(used): [index[a] for a in acts] for used, acts in self.by_cards.items()}
        # every proper subset of a used set, found by taking one card away at a time (each
        # set once: Dreyfus may discard any of thousands of sets of a long hand)
        more: set[frozenset[str]] = set()
        todo = list(self.by_cards)
        while todo:
            used = todo.pop()
            if len(used) < 2:
                continue
            for c in used:
                sub = used - {c}
                if sub not in more:
                    more.add(sub)
                    todo.append(sub)
        playable = self.legal_cards
        first = targets[0] if targets else None
        attempts = {c: self.attempt(frozenset({c}), first) for c in self.hand
                    if c not in playable} if self.by_cards else {}
        named = {w for acts in self.by_cards.values() for a in acts for w in a.split()[1:]}
        return {
            "hand": list(self.hand),
            "playable": [c for c in self.hand if c in playable],
            "plain": list(self.plain),
            "exact": exact,
            "more": sorted(self.key(sub) for sub in more),
            "attempts": attempts,
            "aims": {t: {c: self.aimed(c, t) for c in self.hand} for t in targets},
            "beatable": [t for t in targets if t in named],
        }
