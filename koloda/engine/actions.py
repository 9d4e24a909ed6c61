"""The action notation of docs/records.md: one canonical text per action.

``Action`` is the object form; ``str(action)`` is canonical. Several cards are ordered by
suit S, C, D, H then rank (the card int order), except ``beat A B`` whose order means
"cover A with B".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from koloda.cards import CARD_TEXT, Card, parse_card
from koloda.engine.errors import IllegalAction
from koloda.engine.messages import Quoted

if TYPE_CHECKING:
    from koloda.engine.spec import ActionVocabulary

#: verbs whose argument is one whole number
NUMBER_VERBS = frozenset({"bid", "pick"})
#: verbs without arguments
PLAIN_VERBS = frozenset({"flip", "take", "pass", "stand", "knock", "drop", "golets", "draw"})
#: verbs taking cards (order kept only for ``beat``)
CARD_VERBS = frozenset({"play", "discard", "attack", "beat", "throw", "transfer"})
#: trailing words a ``play`` may carry (the shakhi)
PLAY_MODES = frozenset({"wild", "plain"})
#: the engine's verbs: every game's actions are spelled with these or with the verbs its
#: spec declares (``GameSpec.actions``)
VERBS = NUMBER_VERBS | PLAIN_VERBS | CARD_VERBS
#: verbs whose two cards keep their order ("cover A with B")
PAIR_VERBS = frozenset({"beat"})


@dataclass(frozen=True, slots=True)
class _Kinds:
    """Which verbs take no argument, a number, cards, or an ordered pair of cards."""
    plain: frozenset[str]
    number: frozenset[str]
    cards: frozenset[str]
    pairs: frozenset[str]

    @property
    def verbs(self) -> frozenset[str]:
        return self.plain | self.number | self.cards


_ENGINE = _Kinds(PLAIN_VERBS, NUMBER_VERBS, CARD_VERBS, PAIR_VERBS)
_KINDS: dict[ActionVocabulary, _Kinds] = {}


def _kinds(vocabulary: ActionVocabulary | None) -> _Kinds:
    """The engine's verbs, with a game's declared verbs (of the kind it declares them)."""
    if vocabulary is None:
        return _ENGINE
    kinds = _KINDS.get(vocabulary)
    if kinds is None:
        declared = {*vocabulary.plain, *(v for v, _ in vocabulary.numbers), *vocabulary.single,
                    *vocabulary.multi, *vocabulary.pairs}
        number = frozenset(v for v, _ in vocabulary.numbers)
        cards = frozenset({*vocabulary.single, *vocabulary.multi, *vocabulary.pairs})
        plain = frozenset(vocabulary.plain)

        def engine(verbs: frozenset[str]) -> frozenset[str]:
            return verbs - declared
        kinds = _KINDS[vocabulary] = _Kinds(
            engine(PLAIN_VERBS) | plain, engine(NUMBER_VERBS) | number,
            engine(CARD_VERBS) | cards, engine(PAIR_VERBS) | frozenset(vocabulary.pairs))
    return kinds


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
    def parse(text: str, vocabulary: ActionVocabulary | None = None) -> Action:
        """Parse any accepted spelling (any case, any spacing); IllegalAction names what is
        malformed. ``vocabulary``: the game's own words (``GameSpec.actions``), accepted
        beside the engine's, and named when a verb is unknown."""
        if not isinstance(text, str):
            raise IllegalAction("action_not_text", type=type(text).__name__)
        words = text.strip().lower().split()
        if not words:
            raise IllegalAction("empty_action")
        verb, args = words[0], words[1:]
        kinds = _kinds(vocabulary)
        if verb not in kinds.verbs:
            named = vocabulary.verbs() if vocabulary is not None else ()
            raise IllegalAction("unknown_action", text=Quoted(text.strip()),
                                verbs=", ".join(named or sorted(VERBS)))
        if verb in kinds.plain:
            if args:
                raise IllegalAction("no_arguments", verb=verb, text=Quoted(text.strip()))
            return Action(verb)
        if verb in kinds.number:
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
        if verb in kinds.pairs:
            if len(cards) != 2:
                raise IllegalAction("beat_two_cards", text=Quoted(text.strip()))
            return Action(verb, tuple(cards))
        return Action(verb, tuple(sorted(cards)), mode=mode)


def canonical(action: str | Action, vocabulary: ActionVocabulary | None = None) -> str:
    """The canonical text of an action given as text or object (``vocabulary``: the game's
    own words, see :meth:`Action.parse`)."""
    if isinstance(action, Action):
        return str(action)
    return str(Action.parse(action, vocabulary))


def cards_action(verb: str, cards: list[Card] | tuple[Card, ...]) -> str:
    return verb + " " + " ".join(CARD_TEXT[c] for c in sorted(cards))
