"""A move typed in line mode, in the words line mode lists it, back to the engine's text.

Line mode lists moves in the person's language («заказ 0», «побить 7♠ картой 9♠», «взять
карту 2»); a person types what they read. ``typed_action`` finds the legal action whose
listed text (in either language) is what was typed, case, «ё» and spaces aside; a move not
in the list (a longer discard set, a refused attempt) is translated word by word — the
verbs and mode words of ``koloda.engine.terms`` and cards written as either language
writes them (``Д♦``, ``Q♦``, ``QD``, ``10ч``) — so the engine can play it or say why not.
The engine's own notation (``bid 0``, ``beat 7S 9S``) is always taken as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from koloda.cards import CARD_TEXT, RANKS, SUITS
from koloda.engine import terms

#: suits as a person may write them after the rank: the symbols, the engine's letters and
#: the Russian initials (пики, трефы, бубны, черви)
_SUITS: dict[str, int] = {
    **{s: i for i, s in enumerate("♠♣♦♥")}, **{s: i for i, s in enumerate("♤♧♢♡")},
    **{s: i for i, s in enumerate(SUITS)}, **{s: i for i, s in enumerate("ПТБЧ")},
}
#: ranks as either language writes them (the Russian ``Т`` is the ace, the Latin ``T`` ten)
_RANKS: dict[str, int] = {
    **{r: i for i, r in enumerate(RANKS)}, "10": 8,
    "J": 9, "Q": 10, "K": 11, "A": 12, "В": 9, "Д": 10, "К": 11, "Т": 12,
}


def normal(text: str) -> str:
    """Text as typed moves are compared: case folded, «ё» as «е», single spaces."""
    return " ".join(text.casefold().replace("ё", "е").split())


def card_of(word: str) -> str | None:
    """A card written as either language writes it, in the engine's text (``QD``)."""
    w = word.strip().upper()
    if len(w) < 2 or w[-1] not in _SUITS or w[:-1] not in _RANKS:
        return None
    return CARD_TEXT[_SUITS[w[-1]] * 13 + _RANKS[w[:-1]]]


def _phrases(verbs: Iterable[str]) -> list[tuple[list[str], str]]:
    """Every way a verb or mode word is written (the key, English, Russian), as words,
    longest first; the verbs of this decision before the others where words are shared
    («пас» is both ``pass`` and ``drop``)."""
    mine = list(dict.fromkeys(verbs))
    keys = mine + [k for k in terms.VERBS if k not in mine]
    out: list[tuple[list[str], str]] = []
    for key in keys:
        en, ru = terms.VERBS.get(key, (key, key))
        for said in dict.fromkeys((key, en, ru)):
            out.append((normal(said).split(), key))
    out.sort(key=lambda p: -len(p[0]))      # (a stable sort: this decision's verbs first)
    return out


def translate(typed: str, verbs: Iterable[str] = ()) -> str:
    """``typed`` word by word in the engine's words: verbs, mode words, cards; a position
    said as a person counts (``взять карту 2``) counted from 0 again."""
    words = normal(typed).split()
    phrases = _phrases(verbs)
    out: list[str] = []
    counted_from_one = False
    i = 0
    while i < len(words):
        for said, key in phrases:
            if words[i:i + len(said)] == said:
                if key == "with" and out and out[0] == "beat":
                    pass                         # «побить 7♠ картой 9♠» is ``beat 7S 9S``
                else:
                    out.append(key)
                    if i == 0 and key == "pick" and said != ["pick"]:
                        counted_from_one = True
                i += len(said)
                break
        else:
            card = card_of(words[i])
            out.append(card if card is not None else words[i])
            i += 1
    if counted_from_one and len(out) == 2 and out[1].isdigit() and int(out[1]) > 0:
        out[1] = str(int(out[1]) - 1)
    return " ".join(out)


def typed_action(typed: str, legal: Sequence[str],
                 shown: Callable[[str, str], str]) -> str:
    """The legal action ``typed`` names, else ``typed`` in the engine's words.

    ``shown(action, lang)`` is how line mode lists an action in a language."""
    text = typed.strip()
    if text in legal:
        return text
    wanted = normal(text)
    for lang in ("ru", "en"):
        for action in legal:
            if wanted in (normal(shown(action, lang)), normal(action)):
                return action
    said = translate(text, (a.split()[0] for a in legal if a))
    by_words = {_canonical(a): a for a in legal}
    return by_words.get(_canonical(said), said)


def _canonical(action: str) -> str:
    """An action with its cards in a fixed order (``discard 7S 6S`` is ``discard 6S 7S``)."""
    words = action.split()
    if not words or words[0] == "beat":
        return " ".join(card_of(w) or w for w in words)
    cards = sorted(c for c in (card_of(w) for w in words[1:]) if c)
    rest = [w for w in words[1:] if not card_of(w)]
    return " ".join([words[0], *cards, *rest])
