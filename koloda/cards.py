"""Cards as small ints, the notation of koloda/rules/conventions.en.md §Precisely 3, and every deck
the rules use.

A card is ``suit * 13 + rank`` with suits in the canonical order S C D H (0..3) and ranks
2..A (0..12), so sorting ints gives the canonical order of docs/records.md (by suit S, C, D, H,
then rank ascending).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

Card = int

SUITS = "SCDH"
RANKS = "23456789TJQKA"
SPADES, CLUBS, DIAMONDS, HEARTS = range(4)
SUIT_SYMBOLS = "♠♣♦♥"
SUIT_NAMES = {
    "en": ("spades", "clubs", "diamonds", "hearts"),
    "ru": ("пики", "трефы", "бубны", "черви"),
}
#: Russian suit names in the genitive ("must follow ..."), used by messages.
SUIT_NAMES_GENITIVE_RU = ("пик", "треф", "бубен", "червей")
RANK_NAMES = {
    "en": ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"),
    "ru": ("2", "3", "4", "5", "6", "7", "8", "9", "10", "В", "Д", "К", "Т"),
}
RANK_WORDS = {
    "en": ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
           "jack", "queen", "king", "ace"),
    "ru": ("двойка", "тройка", "четвёрка", "пятёрка", "шестёрка", "семёрка", "восьмёрка",
           "девятка", "десятка", "валет", "дама", "король", "туз"),
}

TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(13)

_SUIT_ALIASES = {"S": 0, "C": 1, "D": 2, "H": 3, "♠": 0, "♣": 1, "♦": 2, "♥": 3,
                 "♤": 0, "♧": 1, "♢": 2, "♡": 3}
_RANK_ALIASES = {r: i for i, r in enumerate(RANKS)} | {"10": TEN}


def card(rank: int, suit: int) -> Card:
    return suit * 13 + rank


def rank_of(c: Card) -> int:
    return c % 13


def suit_of(c: Card) -> int:
    return c // 13


def parse_card(text: str) -> Card:
    """Parse ``6C``, ``10H``, ``TH``, ``6♣`` (case-insensitive); ValueError names the text."""
    t = text.strip().upper()
    if len(t) < 2 or t[-1] not in _SUIT_ALIASES or t[:-1] not in _RANK_ALIASES:
        raise ValueError(f"not a card: {text!r} (expected rank 2-9 T/10 J Q K A and suit "
                         f"S C D H or ♠ ♣ ♦ ♥, e.g. 6C, 10H, AS)")
    return card(_RANK_ALIASES[t[:-1]], _SUIT_ALIASES[t[-1]])


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    words = text.split() if isinstance(text, str) else list(text)
    return [parse_card(w) for w in words]


#: canonical ASCII text of every card, indexed by the card int
CARD_TEXT: tuple[str, ...] = tuple(RANKS[r] + SUITS[s] for s in range(4) for r in range(13))
TEXT_CARD: dict[str, Card] = {t: i for i, t in enumerate(CARD_TEXT)}


def format_card(c: Card, style: str = "ascii", lang: str = "en") -> str:
    """``ascii``: ``TH``; ``symbol``: ``10♥`` (``10♥``/``Т♥`` by language); ``name``: words."""
    if style == "ascii":
        return CARD_TEXT[c]
    r, s = rank_of(c), suit_of(c)
    if style == "symbol":
        return RANK_NAMES[lang][r] + SUIT_SYMBOLS[s]
    if style == "name":
        if lang == "ru":
            return f"{RANK_WORDS['ru'][r]} {SUIT_NAMES_GENITIVE_RU[s]}"
        return f"{RANK_WORDS['en'][r]} of {SUIT_NAMES['en'][s]}"
    raise ValueError(f"unknown card style {style!r}; allowed: ascii, symbol, name")


def cards_text(cards: Iterable[Card]) -> list[str]:
    """JSON form of a list of cards (ASCII strings, order kept)."""
    return [CARD_TEXT[c] for c in cards]


def suit_name(s: int, lang: str = "en") -> str:
    return SUIT_NAMES[lang][s]


def _ranks_from(low: int) -> list[Card]:
    return [card(r, s) for s in range(4) for r in range(low, 13)]


_SIX_S, _SIX_C, _SIX_D, _SIX_H = (card(SIX, s) for s in range(4))

#: every deck the rules use, by size (koloda/rules/conventions.en.md §Precisely 5), in canonical
#: order
DECKS: dict[int, tuple[Card, ...]] = {
    52: tuple(_ranks_from(TWO)),
    48: tuple(_ranks_from(THREE)),
    36: tuple(_ranks_from(SIX)),
    32: tuple(_ranks_from(SEVEN)),
    # the five-player deck: 36 without 6H and 6D and without the four sevens — the book's count
    # («30 листов») kept, so that the whole deck deals out evenly, 6 cards to each of five
    # (koloda/rules/conventions.en.md §Precisely 5)
    30: tuple(sorted({*_ranks_from(EIGHT), _SIX_S, _SIX_C})),
    33: tuple(sorted([*_ranks_from(SEVEN), _SIX_C])),
    34: tuple(sorted([*_ranks_from(SEVEN), _SIX_S, _SIX_C])),
}


def deck(size: int) -> tuple[Card, ...]:
    """The deck of ``size`` cards (52, 48, 36, 34, 33, 32 or 30)."""
    try:
        return DECKS[size]
    except KeyError:
        raise ValueError(f"no deck of {size} cards; allowed: "
                         f"{', '.join(map(str, sorted(DECKS)))}") from None


#: bit lengths of 1..52, for ``shuffle``
_BITS = tuple(n.bit_length() for n in range(53))


def shuffle(cards: list[Card], rng: random.Random) -> None:
    """Shuffle ``cards`` in place: the very permutation ``rng.shuffle`` makes (Fisher-Yates
    from the top, each index drawn with ``getrandbits`` and rejection), at about twice its
    speed, and fixed here whatever a later Python does to ``random.shuffle``."""
    getrandbits = rng.getrandbits
    bits = _BITS
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = bits[n] if n < 53 else n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
