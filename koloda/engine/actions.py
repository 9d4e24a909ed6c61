"""The action notation of docs/records.md: one canonical text per action.

``Action`` is the object form; ``str(action)`` is canonical. Several cards are ordered by
suit S, C, D, H then rank (the card int order), except ``beat A B`` whose order means
"cover A with B".
"""

from __future__ import annotations

from dataclasses import dataclass

from koloda.cards import CARD_TEXT, Card, parse_card
from koloda.engine.errors import IllegalAction
from koloda.engine.messages import Quoted

#: verbs whose argument is one whole number
NUMBER_VERBS = frozenset({"bid", "pick"})
#: verbs without arguments
PLAIN_VERBS = frozenset({"flip", "take", "pass", "stand", "knock", "drop", "golets", "draw"})
#: verbs taking cards (order kept only for ``beat``)
CARD_VERBS = frozenset({"play", "discard", "attack", "beat", "throw", "transfer"})
#: trailing words a ``play`` may carry (the shakhi)
PLAY_MODES = frozenset({"wild", "plain"})
VERBS = NUMBER_VERBS | PLAIN_VERBS | CARD_VERBS


@dataclass(frozen=True, slots=True)
class Action:
    verb: str
    cards: tuple[Card, ...] = ()
    number: int | None = None
    mode: str | None = None

    def __str__(self) -> str:
        if self.number is not None:
            return f"{self.verb} {self.number}"
        if not self.cards:
            return self.verb
        text = self.verb + " " + " ".join(CARD_TEXT[c] for c in self.cards)
        return f"{text} {self.mode}" if self.mode else text

    @staticmethod
    def parse(text: str) -> Action:
        """Parse any accepted spelling; IllegalAction names what is malformed."""
        if not isinstance(text, str):
            raise IllegalAction("action_not_text", type=type(text).__name__)
        words = text.strip().lower().split()
        if not words:
            raise IllegalAction("empty_action")
        verb, args = words[0], words[1:]
        if verb not in VERBS:
            raise IllegalAction("unknown_action", text=Quoted(text.strip()),
                                verbs=", ".join(sorted(VERBS)))
        if verb in PLAIN_VERBS:
            if args:
                raise IllegalAction("no_arguments", verb=verb, text=Quoted(text.strip()))
            return Action(verb)
        if verb in NUMBER_VERBS:
            if len(args) != 1 or not args[0].isdigit():
                raise IllegalAction("one_number", verb=verb, text=Quoted(text.strip()))
            return Action(verb, number=int(args[0]))
        mode = None
        if verb == "play" and args and args[-1] in PLAY_MODES:
            mode = args.pop()
        if not args:
            raise IllegalAction("needs_card", verb=verb, text=Quoted(text.strip()))
        cards = []
        for a in args:
            try:
                cards.append(parse_card(a))
            except ValueError:
                raise IllegalAction("not_a_card", text=Quoted(a)) from None
        if len(set(cards)) != len(cards):
            raise IllegalAction("card_twice", text=Quoted(text.strip()))
        if verb == "beat":
            if len(cards) != 2:
                raise IllegalAction("beat_two_cards", text=Quoted(text.strip()))
            return Action(verb, tuple(cards))
        return Action(verb, tuple(sorted(cards)), mode=mode)


def canonical(action: str | Action) -> str:
    """The canonical text of an action given as text or object."""
    if isinstance(action, Action):
        return str(action)
    return str(Action.parse(action))


def cards_action(verb: str, cards: list[Card] | tuple[Card, ...]) -> str:
    return verb + " " + " ".join(CARD_TEXT[c] for c in sorted(cards))
