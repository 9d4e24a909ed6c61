"""The one bilingual vocabulary: every term a person reads, in English and Russian.

Field labels, value words (phases, outcomes, modes), action verbs and suit names, each said
one way in every interface (the terminal, the browser, the command line). A game adds the
terms only it uses with :func:`register` (from its module, next to its rules); a term
registered twice with different words is an error, so two places cannot drift apart.
Russian words follow the books (../shared/seeds/ in the project's steering files).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from koloda.cards import (
    RANK_NAMES,
    SUIT_NAMES,
    SUIT_NAMES_GENITIVE_RU,
    SUIT_SYMBOLS,
    format_card,
)

#: field labels and value words (key → (English, Russian))
TERMS: dict[str, tuple[str, str]] = {
    'hand_sizes': ('cards', 'карт'),
    'cards': ('cards', 'карт'),
    'tricks': ('tricks', 'взятки'),
    'tricks_taken': ('tricks', 'взятки'),
    'money': ('money', 'деньги'),
    'discards': ('discarded', 'сброшено'),
    'known_cards': ('known cards', 'известные карты'),
    'choices': ('chose', 'выбор'),
    'scores': ('score', 'счёт'),
    'above': ('above the line', 'над чертой'),
    'below': ('below the line', 'под чертой'),
    'points': ('points', 'очки'),
    'phase': ('phase', 'фаза'),
    'trump': ('trumps', 'козыри'),
    'trump_card': ('trump card', 'козырная карта'),
    'trumps': ('trumps', 'козыри'),
    'stock': ('stock', 'колода'),
    'pot': ('pot', 'касса'),
    'limit': ('limit', 'предел'),
    'round': ('round', 'кон'),
    'schedule_position': ('deal of schedule', 'сдача по расписанию'),
    'schedule_length': ('deals in the match', 'сдач в партии'),
    'games_played': ('games played', 'сыграно игр'),
    'games': ('games', 'игр'),
    'deals_played': ('deals played', 'сыграно сдач'),
    'set_aside': ('set aside', 'отложено'),
    'final_deal': ('final deal', 'последняя сдача'),
    'my_discards': ('your discards', 'ваш снос'),
    'leader': ('leads', 'ходит первым'),
    'dealer': ('dealer', 'сдающий'),
    'golets': ('golets', 'голец'),
    'outcome': ('outcome', 'итог'),
    'kind': ('kind', 'вид'),
    'variant': ('variant', 'вариант'),
    'out': ('out', 'вне игры'),
    'taken': ('taken', 'взято'),
    'taken_by': ('taken by', 'взял(а)'),
    'caps': ('caps', 'старшие по мастям'),
    'change': ('change', 'изменение'),
    'count': ('count', 'число'),
    'deal': ('deal', 'сдача'),
    'deals': ('deals', 'сдачи'),
    'deck': ('deck', 'колода'),
    'deck_size': ('deck size', 'колода'),
    'discard': ('beaten off', 'бито'),
    'hand': ('hand', 'на руках'),
    'deal_number': ('deal number', 'номер сдачи'),
    'to_move': ('to move', 'ходит'),
    'match_over': ('match over', 'партия окончена'),
    'table': ('table', 'стол'),
    'trick': ('trick', 'взятка'),
    'sheet': ('sheet', 'запись'),
    'offers': ('offers', 'выкладки'),
    'last_round': ('last round', 'последний кон'),
    'draws': ('drew from the talon', 'добрали из прикупа'),
    'durak': ('durak', 'дурак'),
    'first_dealer_draw': ('first dealer', 'первым сдавал(а)'),
    'in_play': ('in play', 'играют'),
    'last_deal_penalty': ('last deal penalty', 'штраф последней сдачи'),
    'last_trick': ('last trick', 'последняя взятка'),
    'led': ('led', 'масть хода'),
    'level': ('level', 'уровень'),
    'max_deals': ('max deals', 'не больше сдач'),
    'mushka': ('mushka', 'мушка'),
    'options': ('options', 'параметры'),
    'pair': ('pair', 'пара'),
    'pairs': ('pairs', 'пары'),
    'passes': ('passes', 'пасовали'),
    'ranks': ('ranks', 'разряды'),
    'rounds': ('rounds', 'круги'),
    'ruff_only_when_only_trumps': ('ruff only when only trumps',
                                   'бить козырем, только когда нет других'),
    'shown': ('shown', 'показаны'),
    'stake': ('stake', 'взнос'),
    'start_deal': ('start deal', 'первая сдача'),
    'suit': ('suit', 'масть'),
    'teams': ('teams', 'команды'),
    'tricks_played': ('tricks played', 'сыгранные взятки'),
    'value': ('value', 'цена'),
    'values': ('values', 'цены взяток'),
    'voids': ('void in', 'нет масти'),
    'winner': ('winner', 'взял'),
    'winners': ('winners', 'победители'),
    'match_winner': ('match winner', 'победитель'),
    'players': ('players', 'игроки'),
    'nobody_wins': ('a draw: nobody wins', 'ничья'),
    'capped_note': ('stopped at the most deals a match may have: standings as they were',
                    'остановлено: сыграно предельное число сдач, итог по текущему счёту'),
    'losers': ('losers', 'проигравшие'),
    'end': ('end', 'конец игры'),
    'spades': ('spades', 'пики'),
    'clubs': ('clubs', 'трефы'),
    'diamonds': ('diamonds', 'бубны'),
    'hearts': ('hearts', 'черви'),
    'over': ('over', 'окончена'),
    'awaiting_deal': ('awaiting the deal', 'ждёт сдачи'),
    'bid': ('bidding', 'заказ'),
    'play': ('play', 'розыгрыш'),
    'exchange': ('exchange', 'обмен'),
    'attack': ('attack', 'ход'),
    'throw': ('throw-in', 'подкидывание'),
    'alone': ('alone', 'один'),
    'played': ('played', 'сыграна'),
    'nobody': ('nobody', 'никто'),
    'capped': ('capped', 'ограничение сдач'),
    'draw': ('draw', 'ничья'),
    'trinka': ('trinka', 'тринька'),
    'embryo': ('embryo', 'эмбрион'),
    'knock': ('knock', 'стучу'),
    'drop': ('drop', 'пас'),
    'pass': ('pass', 'пас'),
    'stand': ('stand', 'играю'),
    'first': ('first', 'первый'),
    'all': ('all', 'пока все карты не у одного'),
    'first_elimination': ('first elimination', 'до первого выбывшего'),
    'cycle': ('cycle', 'доиграть круг'),
    # words the interfaces put around fields (marks, flags, headings)
    'yes': ('yes', 'да'),
    'no': ('no', 'нет'),
    'partner': ('partner', 'партнёр'),
    'team': ('team', 'команда'),
    'seat': ('seat', 'место'),
    'you': ('you', 'вы'),
    'details': ('details', 'подробности'),
    'cards_each': ('cards each', 'карт на руках'),
    'no_trumps': ('no trumps', 'без козырей'),
    'cover': ('cover', 'отбой'),
}

#: action verbs as a person reads them (the canonical text stays in records)
VERBS: dict[str, tuple[str, str]] = {
    "play": ("play", "сыграть"),
    "discard": ("discard", "снести"),
    "stand": ("stand", "играю"),
    "pass": ("pass", "пас"),
}

#: what a log says a seat did (the third person: «Аня ходит 9♥», "Alice plays 9♥"); the
#: verbs above are what a person presses («сыграть»). A verb missing here reads as above.
DONE: dict[str, tuple[str, str]] = {
    "play": ("plays", "ходит"),
    "discard": ("discards", "сносит"),
    "stand": ("stands", "играет"),
    "pass": ("passes", "пасует"),
}

#: the suits by index (S C D H), and the genitive Russian ("must follow ...")
SUIT_WORDS: tuple[tuple[str, str], ...] = tuple(zip(SUIT_NAMES["en"], SUIT_NAMES["ru"],
                                                    strict=True))
SUIT_GENITIVE_RU: tuple[str, ...] = SUIT_NAMES_GENITIVE_RU

#: the kinds and levels of computer players
BOTS: dict[str, tuple[str, str]] = {
    "random": ("random", "случайный"),
    "heuristic": ("heuristic", "по правилам опыта"),
    "search": ("search", "перебор"),
    "easy": ("easy", "лёгкий"),
    "normal": ("normal", "средний"),
    "hard": ("hard", "сильный"),
}

#: who registered each term (for the error that names both places)
_OWNERS: dict[str, str] = {}


#: called after every registration (an interface keeping a served copy, the browser's texts)
_LISTENERS: list[Callable[[], None]] = []


def on_register(callback: Callable[[], None]) -> None:
    """Call ``callback`` whenever a game adds its terms (a catalog served as data follows)."""
    _LISTENERS.append(callback)


def register(terms: Mapping[str, tuple[str, str]], owner: str,
             verbs: Mapping[str, tuple[str, ...]] | None = None) -> None:
    """Add a game's own terms (and verbs); the same key with other words is an error.

    A verb is ``(English, Russian)`` as a person presses it, optionally followed by what a
    log says a seat did (``("plays", "ходит")``, see ``DONE``)."""
    pressed = {k: (v[0], v[1]) for k, v in (verbs or {}).items()}
    did = {k: (v[2], v[3]) for k, v in (verbs or {}).items() if len(v) >= 4}
    for table, new in ((TERMS, terms), (VERBS, pressed), (DONE, did)):
        for key, pair in new.items():
            have = table.get(key)
            if have is not None and have != tuple(pair):
                where = _OWNERS.get(_owner_key(table, key), "koloda.engine.terms")
                raise ValueError(f"term {key!r}: {owner} says {pair}, {where} says {have}")
            table[key] = (pair[0], pair[1])
            _OWNERS.setdefault(_owner_key(table, key), owner)
    for callback in _LISTENERS:
        callback()


def _owner_key(table: dict[str, tuple[str, str]], key: str) -> str:
    return ("v:" if table is VERBS else "d:" if table is DONE else "") + key


def term(key: str, lang: str = "en") -> str:
    """A label or value word in ``lang``; an unknown key reads as itself (spaces for
    underscores), so a missing term shows and a test can find it."""
    pair = TERMS.get(key)
    if pair is None:
        return key.replace("_", " ")
    return pair[1] if lang == "ru" else pair[0]


def has_term(key: str) -> bool:
    return key in TERMS


def verb(word: str, lang: str = "en") -> str:
    pair = VERBS.get(word)
    if pair is None:
        return word
    return pair[1] if lang == "ru" else pair[0]


def verb_done(word: str, lang: str = "en") -> str:
    """What a log says a seat did with this verb (``ходит``); the pressed form if none."""
    pair = DONE.get(word)
    if pair is None:
        return verb(word, lang)
    return pair[1] if lang == "ru" else pair[0]


def suit_word(suit: int, lang: str = "en") -> str:
    return SUIT_WORDS[suit][1 if lang == "ru" else 0]


def suit_symbol(suit: int) -> str:
    return SUIT_SYMBOLS[suit]


def card_word(card: int, lang: str = "en") -> str:
    """A card as people write it: 10♥, В♠ (Russian) or J♠."""
    return format_card(card, "symbol", "ru" if lang == "ru" else "en")


def pairs() -> dict[str, dict[str, tuple[str, str]]]:
    """Every term by kind (``term``, ``verb``, ``suit``, ``rank``): what an interface that
    receives the vocabulary as data (the browser's /api/texts) is given."""
    from koloda.cards import RANKS, SUITS
    return {
        "term": dict(TERMS), "verb": dict(VERBS), "done": dict(DONE), "bot": dict(BOTS),
        "suit": {SUITS[i]: SUIT_WORDS[i] for i in range(4)},
        "rank": {RANKS[r]: (RANK_NAMES["en"][r], RANK_NAMES["ru"][r]) for r in range(13)},
    }
