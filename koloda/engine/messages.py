"""Engine refusals as data: a message key, its arguments, and a template per language.

A refusal is a :class:`Reason`: a ``str`` whose text is the English sentence (so every
caller that prints, compares or stores it as text keeps working, and records stay in
English) and which also carries ``key`` and ``args``, so an interface can say the same
thing in the player's language with ``reason.render("ru")``.

Arguments are plain numbers and words, or small typed values rendered per language:
:class:`Cards` (``TH`` in English, ``10♥`` in Russian), :class:`Suit` (``hearts`` /
``черви``), :class:`Ranks`, :class:`Act` (a canonical action: ``'play 9H'`` /
``«сыграть 9♥»``), :class:`Quoted` (text a person typed, quoted), or another
:class:`Reason` (a duty inside a longer sentence). A Russian template may ask for a form:
``{suit:gen}`` (genitive: «нет червей») or ``{n:карта|карты|карт}`` (a number with the
noun in the right plural: «2 карты», «5 карт»).
"""

from __future__ import annotations

import json
import string
from collections.abc import Iterable, Mapping
from typing import Any

from koloda.cards import CARD_TEXT, RANK_NAMES, RANKS, SUIT_NAMES, Card, format_card
from koloda.engine.terms import VERBS

LANGS = ("en", "ru")

#: action verbs as a person reads them (the canonical text stays in records)
#: action verbs in words (one vocabulary: koloda.engine.terms)
VERB_WORDS = VERBS

_SUIT_GEN_RU = ("пик", "треф", "бубен", "червей")


class Cards(tuple[Card, ...]):
    """Cards as an argument: ``TH 9S`` in English, ``10♥ 9♠`` in Russian."""

    def render(self, lang: str, spec: str = "") -> str:
        if lang == "en":
            return " ".join(CARD_TEXT[c] for c in self)
        return " ".join(format_card(c, "symbol", lang) for c in self)


class Ranks(tuple[int, ...]):
    """Ranks (0 = two … 12 = ace), listed with commas: ``6, T`` / ``6, 10``."""

    def render(self, lang: str, spec: str = "") -> str:
        names = RANKS if lang == "en" else RANK_NAMES[lang]
        return ", ".join(names[r] for r in self)


class Suit:
    """A suit as a rule names it: one of the four, the trumps, no suit, or a game's own
    suit number beyond the four."""

    __slots__ = ("index", "trump")

    def __init__(self, index: int | None, trump: bool = False) -> None:
        self.index = index
        self.trump = trump

    def __repr__(self) -> str:
        return f"Suit({self.index!r}, trump={self.trump})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Suit) and (self.index, self.trump) == (other.index,
                                                                          other.trump)

    def __hash__(self) -> int:
        return hash((self.index, self.trump))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Suit, (self.index, self.trump))

    def render(self, lang: str, spec: str = "") -> str:
        gen = spec == "gen"
        i = self.index
        if self.trump:
            return "trumps" if lang == "en" else ("козырей" if gen else "козыри")
        if i is None:
            return "no suit" if lang == "en" else "без масти"
        if 0 <= i < 4:
            if lang == "en":
                return SUIT_NAMES["en"][i]
            return _SUIT_GEN_RU[i] if gen else SUIT_NAMES["ru"][i]
        return f"suit {i}" if lang == "en" else (f"масти {i}" if gen else f"масть {i}")


class Act(str):
    """A canonical action named in a refusal: ``'play 9H'`` / ``«сыграть 9♥»``."""

    def render(self, lang: str, spec: str = "") -> str:
        if lang == "en":
            return repr(str(self))
        words = self.split()
        out = []
        for w in words:
            if w in _TEXT_CARD:
                out.append(format_card(_TEXT_CARD[w], "symbol", lang))
            elif w in VERB_WORDS:
                out.append(VERB_WORDS[w][1])
            else:
                out.append(w)
        return "«" + " ".join(out) + "»"


class Verb(str):
    """An action verb the engine names (``take``), in the person's words (``взять``)."""

    def render(self, lang: str, spec: str = "") -> str:
        pair = VERB_WORDS.get(self)
        return str(self) if lang == "en" or pair is None else pair[1]


class Acts(tuple[str, ...]):
    """Several canonical actions, with commas."""

    def render(self, lang: str, spec: str = "") -> str:
        if lang == "en":
            return ", ".join(self)
        return ", ".join(Act(a).render(lang) for a in self)


class Quoted(str):
    """Text as a person typed it: ``'xyz'`` in English, ``«xyz»`` in Russian."""

    def render(self, lang: str, spec: str = "") -> str:
        return repr(str(self)) if lang == "en" else f"«{self}»"


class Value:
    """A value a person gave (an option's, a player count, a seed): ``repr`` in English
    (as the messages always said it), «as typed» in Russian (JSON: ``true``, ``[1]``)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"Value({self.value!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Value) and type(self.value) is type(other.value) \
            and self.value == other.value

    def __hash__(self) -> int:
        return hash(repr(self.value))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Value, (self.value,))

    def render(self, lang: str, spec: str = "") -> str:
        if lang == "en":
            return repr(self.value)
        if isinstance(self.value, str):
            return f"«{self.value}»"
        try:
            return f"«{json.dumps(self.value, ensure_ascii=False)}»"
        except (TypeError, ValueError):
            return f"«{self.value!r}»"


class Quotes(tuple[Any, ...]):
    """Several values, each quoted, with commas: ``'x', 'y'`` / ``«x», «y»``."""

    def render(self, lang: str, spec: str = "") -> str:
        return ", ".join(Value(v).render(lang) for v in self)


class Names(tuple[str, ...]):
    """Names (of games, options) with commas; none at all is ``none`` / ``нет``."""

    def render(self, lang: str, spec: str = "") -> str:
        return ", ".join(self) or ("none" if lang == "en" else "нет")


class Either(tuple[Any, ...]):
    """Alternatives: ``36 or 52`` / ``36 или 52``."""

    def render(self, lang: str, spec: str = "") -> str:
        return (" or " if lang == "en" else " или ").join(map(str, self))


class Named(str):
    """A game by its name (``durak``) in English and by its title («Дурак …») in Russian."""

    ru: str

    def __new__(cls, name: str, ru: str) -> Named:
        self = super().__new__(cls, name)
        self.ru = ru
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Named, (str(self), self.ru))

    def render(self, lang: str, spec: str = "") -> str:
        return str(self) if lang == "en" else f"«{self.ru}»"


#: what an option allows, in Russian (keyed by the English text of ``Option.allowed``)
ALLOWED_RU: dict[str, str] = {
    '"cycle" or "deal"': "«cycle» или «deal»",
    "a whole number ≥ 1": "целое число ≥ 1",
    "a whole number ≥ 0": "целое число ≥ 0",
    "true or false (true only with 4 or 6 players)":
        "да или нет (да — только вчетвером или вшестером)",
    "a whole number 1..6": "целое число от 1 до 6",
    'an object with a whole number ≥ 0 for each suit, e.g. {"H": 4, "C": 3, "D": 2, "S": 1}':
        'цена (целое ≥ 0) для каждой масти, например {"H": 4, "C": 3, "D": 2, "S": 1}',
    "32 (2 players), 36 (3), 32 or 36 (4), 30 (5), 36 (6)":
        "32 (двое), 36 (трое), 32 или 36 (четверо), 30 (пятеро), 36 (шестеро)",
    "0 .. the number of deals in the schedule − 1": "от 0 до числа сдач в расписании − 1",
    "true or false": "да или нет",
    "36 or 52": "36 или 52",
    '"all" or "first_elimination"': "«all» или «first_elimination»",
    "a multiple of 3, at least 3": "кратное 3, не меньше 3",
    "a whole number ≥ 1 (default: 2 × players)": "целое число ≥ 1 (по умолчанию 2 × игроков)",
}


class Allowed(str):
    """What an option allows (``Option.allowed``), in Russian where :data:`ALLOWED_RU`
    has it."""

    def render(self, lang: str, spec: str = "") -> str:
        return str(self) if lang == "en" else ALLOWED_RU.get(self, str(self))


_TEXT_CARD = {t: i for i, t in enumerate(CARD_TEXT)}

#: every refusal: key → (English template, Russian template)
CATALOG: dict[str, tuple[str, str]] = {
    # ------------------------------------------------ the notation (engine/actions.py)
    "action_not_text": ("an action must be text, not {type}",
                        "ход записывается текстом, а не {type}"),
    "empty_action": ("empty action", "пустой ход"),
    "unknown_action_here": ("unknown action {text}; in {game} actions begin with one of: "
                            "{verbs}",
                            "непонятный ход {text}: в игре {game} ходы начинаются со слов: "
                            "{verbs}"),
    "unknown_action": ("unknown action {text}; actions begin with one of: {verbs}",
                       "непонятный ход {text}; ход начинается с одного из слов: {verbs}"),
    "no_arguments": ("'{verb}' takes no arguments: {text}",
                     "после «{verb}» ничего не пишут: {text}"),
    "one_number": ("'{verb}' takes one whole number: {text}",
                   "после «{verb}» пишут одно целое число: {text}"),
    "needs_card": ("'{verb}' needs at least one card: {text}",
                   "после «{verb}» нужна хотя бы одна карта: {text}"),
    "not_a_card": ("not a card: {text} (expected rank 2-9 T/10 J Q K A and suit S C D H or "
                   "♠ ♣ ♦ ♥, e.g. 6C, 10H, AS)",
                   "это не карта: {text} (нужны достоинство 2-9 T/10 J Q K A и масть "
                   "S C D H или ♠ ♣ ♦ ♥, например «6C», «10H», «AS»)"),
    "card_twice": ("a card is named twice: {text}", "карта названа дважды: {text}"),
    "beat_two_cards": ("'beat' names the attack card then the card that covers it: {text}",
                       "в «beat» называют сначала карту хода, потом карту, которой её бьют: "
                       "{text}"),
    # ------------------------------------------------ deals and matches (engine)
    "deal_over": ("the deal is over: no action is legal",
                  "сдача окончена: ходить больше нельзя"),
    "match_over": ("the match is over: no action is legal",
                   "партия окончена: ходить больше нельзя"),
    "not_legal_now": ("{action} is not legal now; legal: {legal}",
                      "ход {action} сейчас невозможен; можно: {legal}"),
    "not_your_turn": ("seat {seat} may not act now: it is seat {to_move}'s turn",
                      "месту {seat} сейчас ходить нельзя: ход места {to_move}"),
    "deal_not_dealt": ("the next deal has not been dealt yet",
                       "следующая сдача ещё не сдана"),
    "deal_not_dealt_by": ("the next deal (dealer seat {dealer}) has not been dealt yet",
                          "следующая сдача (сдаёт место {dealer}) ещё не сдана"),
    # ------------------------------------------------ the trick (tricks.py)
    "must_follow": ("must follow {suit}", "нужно ходить в {suit}"),
    "must_follow_beat": ("must follow {suit} and beat it",
                         "нужно ходить в {suit} и перебить"),
    "must_trump": ("void in {suit}, must play a trump",
                   "нет {suit:gen} — нужно бить козырем"),
    "must_trump_beat": ("void in {suit}, must trump",
                        "нет {suit:gen} — нужно бить козырем"),
    "must_overtrump": ("void in {suit}, must trump and over-trump",
                       "нет {suit:gen} — нужно бить козырем старше лежащего"),
    "must_play_trump": ("must play a trump", "нужно ходить козырем"),
    "no_trump_lead": ("may not lead a trump while holding a non-trump card",
                      "нельзя ходить с козыря, пока на руках есть некозырная карта"),
    "no_ruff": ("may not ruff while holding a non-trump card",
                "нельзя бить козырем, пока на руках есть некозырная карта"),
    "not_held": ("you do not hold {cards}", "у вас нет {cards}"),
    "shakha_mode": ("{card} is a shakha: play it 'wild' or 'plain'",
                    "{card} — шаха: сыграйте её «wild» (как шаху) или «plain» (за простую)"),
    "not_shakha": ("only a shakha is played '{mode}'",
                   "пометку «{mode}» ставят только шахе"),
    "duty_hold": ("{duty}: you hold {cards}", "{duty}: у вас есть {cards}"),
    "play_one_card": ("play one card at a time (play C)", "ходят по одной карте (play C)"),
    "play_not_legal": ("play {card} is not legal now", "сейчас нельзя сыграть {card}"),
    # ------------------------------------------------ games, variants, options (engine/spec.py)
    "unknown_game": ("unknown game {name}; games: {games}",
                     "нет такой игры: {name}; игры: {games}"),
    "no_variant": ("{family} has no variant {variant}; variants: {variants}",
                   "у игры {family} нет варианта {variant}; варианты: {variants}"),
    "seed_whole": ("seed must be a whole number, not {seed}",
                   "номер раздачи (seed) — целое число, а не {seed}"),
    "players_count": ("{game} is played by {counts} players, not {value}",
                      "{game}: число игроков — {counts}, а не {value}"),
    "unknown_option": ("{game} has no option {names}; options: {options}",
                       "{game}: нет параметра {names}; параметры: {options}"),
    "option_kind": ("option {name}={value}: expected {allowed}",
                    "параметр {name}={value}: неверное значение; допустимо: {allowed}"),
    "option_value": ("option {name}={value}: {problem}; allowed: {allowed}",
                     "параметр {name}={value}: {problem}; допустимо: {allowed}"),
    "must_be_range": ("must be {lo}..{hi}", "нужно от {lo} до {hi}"),
    "must_be_at_least": ("must be at least {lo}", "нужно не меньше {lo}"),
    "must_be_one_of": ("must be one of {values}", "нужно одно из: {values}"),
    "must_be_either": ("must be {values}", "нужно {values}"),
    "ante_thirds": ("must be a positive multiple of 3 (the pot is shared by thirds)",
                    "нужно положительное число, кратное 3 (кон делят на трети)"),
    # ------------------------------------------------ computer players (koloda/bots)
    "unknown_bot": ("unknown bot {bot}; bots: {bots}",
                    "нет такого компьютерного игрока: {bot}; есть: {bots}"),
    "unknown_level": ("unknown search level {level}; levels: {levels}",
                      "нет такого уровня перебора: {level}; уровни: {levels}"),
    "needs_openspiel": ("{bot} needs OpenSpiel: pip install 'koloda[openspiel]'",
                        "для {bot} нужен OpenSpiel: pip install 'koloda[openspiel]'"),
    "simulations_needed": ("{bot} {level}: name the simulations a move, a whole number of "
                           "at least 1, e.g. {bot}:20",
                           "{bot} {level}: укажите число розыгрышей на ход, целое, не меньше "
                           "1, например {bot}:20"),
    "no_heuristic": ("no heuristic bot for {game} yet",
                     "игрока «по правилам опыта» для {game} пока нет"),
    "no_heuristic_here": ("no heuristic bot for this game yet",
                          "игрока «по правилам опыта» для этой игры пока нет"),
    "no_search": ("no search bot for {game} yet", "игрока «перебор» для {game} пока нет"),
    "no_search_here": ("no search bot for this game yet",
                       "игрока «перебор» для этой игры пока нет"),
    "no_determinizer": ("the search bot cannot play {game} yet: no determinizer",
                        "перебор пока не умеет играть в {game}: нет расклада по наблюдению"),
    # ------------------------------------------------ record files (engine/records.py)
    "cannot_read": ("cannot read {path}: {why}", "не удалось прочитать {path}: {why}"),
    "not_utf8": ("{path} is not a text file in UTF-8 (byte {at} is not UTF-8): not a record",
                 "{path} — не текст в UTF-8 (байт {at} не UTF-8): это не запись партии"),
    "file_missing": ("No such file or directory", "такого файла нет"),
    "file_denied": ("Permission denied", "нет доступа"),
    "file_is_dir": ("Is a directory", "это папка, а не файл"),
    "not_json": ("not JSON: {msg} at line {line} column {column}",
                 "это не JSON: строка {line}, столбец {column} ({msg})"),
    "record_not_object": ("a record is a JSON object", "запись должна быть объектом JSON"),
    "record_field": ("{field}: {reason}", "поле {field}: {reason}"),
    # ------------------------------------------------ the web server's answers (koloda/web)
    "server_full": ("the server hosts as many tables as it can; try later",
                    "на сервере больше нет места для столов; попробуйте позже"),
    "seats_count": ("seats: {given} seat(s) described for {players} players",
                    "места: описано {given:место|места|мест} на {players} игроков"),
    "seat_kind": ("seats[{i}].kind: \"person\" or \"computer\", not {kind}",
                  "seats[{i}].kind: «person» или «computer», а не {kind}"),
    "sit_not_person": ("sit: seat {seat} is not a seat for a person",
                       "sit: место {seat} — не для человека"),
    "name_missing": ("name: say how the table should call you",
                     "имя: скажите, как вас называть за столом"),
    "name_too_long": ("name: at most {n} characters",
                      "имя: не длиннее {n:символа|символов|символов}"),
    "settings_unknown": ("settings: unknown {names}", "настройки: непонятные {names}"),
    "away_timeout": ("away_timeout: whole seconds, 1..86400",
                     "away_timeout: целое число секунд от 1 до 86400"),
    "away_policy": ("away_policy: one of {policies}", "away_policy: одно из: {policies}"),
    "no_seat": ("no seat {seat} at this table", "за этим столом нет места {seat}"),
    "seat_computer": ("seat {n} is a computer's", "место {n} занимает компьютер"),
    "seat_taken": ("seat {n} is taken", "место {n} уже занято"),
    "no_table": ("no table {id}", "стола {id} нет"),
    "no_rules_text": ("no {lang} rules text for {family} yet",
                      "текста правил {family} на языке {lang} пока нет"),
    "record_later": ("the record is public once the match is over",
                     "запись партии открывается, когда партия окончена"),
    # ------------------------------------------------ interfaces
    "acted_out_of_turn": ("seat {seat} acted out of turn in {path}",
                          "место {seat} в файле {path} сходило не в свою очередь"),
    "stored_out_of_turn": ("stored action {i} by seat {seat} out of turn",
                           "сохранённый ход {i} места {seat} сделан не в свою очередь"),
    "spectator": ("spectators watch; take a seat to play",
                  "зрители только смотрят: чтобы играть, займите место"),
    "stale": ("stale: you saw version {seen}, the table is at version {now}; look again",
              "устарело: вы видели состояние {seen}, а стол уже в состоянии {now}; "
              "посмотрите ещё раз"),
    "not_your_turn_web": ("not your turn: {who} is to move",
                          "сейчас не ваш ход: ходит {who}"),
    "nobody": ("nobody", "никто"),
    "seat_n": ("seat {n}", "место {n}"),
}


def _plural_ru(n: int, forms: list[str]) -> str:
    """The Russian noun form for ``n``: one (1, 21…), few (2–4, 22–24…), many."""
    one, few, many = (forms + forms[-1:] * 3)[:3]
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


class _Formatter(string.Formatter):
    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        render = getattr(value, "render", None)
        if render is not None:
            if isinstance(value, Reason):
                return value.render(self.lang)
            return str(render(self.lang, format_spec))
        if "|" in format_spec and isinstance(value, int):
            if self.lang == "en":
                return str(value)
            return f"{value} {_plural_ru(value, format_spec.split('|'))}"
        return format(value, format_spec)


_FORMATTERS = {lang: _Formatter(lang) for lang in LANGS}


def register(messages: Mapping[str, tuple[str, str]], owner: str) -> None:
    """Add a game's own refusal sentences to the catalog (from the game's module); a key
    already there with other templates is an error."""
    for key, pair in messages.items():
        have = CATALOG.get(key)
        if have is not None and have != tuple(pair):
            raise ValueError(f"message {key!r} of {owner} is already in the catalog as {have}")
        CATALOG[key] = (pair[0], pair[1])


def render(key: str, args: Mapping[str, Any], lang: str = "en") -> str:
    """The sentence of ``key`` in ``lang`` (English for an unknown language)."""
    en, ru = CATALOG[key]
    if lang == "ru":
        return _FORMATTERS["ru"].vformat(ru, (), args)
    return _FORMATTERS["en"].vformat(en, (), args)


class Reason(str):
    """A refusal: the English sentence as text, plus ``key`` and ``args`` to say it in
    another language."""

    key: str
    args: dict[str, Any]

    def __new__(cls, key: str, /, **args: Any) -> Reason:
        self = super().__new__(cls, render(key, args, "en"))
        self.key = key
        self.args = args
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_reason, (self.key, self.args))

    def render(self, lang: str = "en") -> str:
        if lang == "en":
            return str.__str__(self)
        return render(self.key, self.args, lang)

    def cards(self) -> Iterable[Card]:
        """Every card named in the arguments, nested reasons included (for colouring)."""
        for v in self.args.values():
            if isinstance(v, Cards):
                yield from v
            elif isinstance(v, Reason):
                yield from v.cards()


def _reason(key: str, args: dict[str, Any]) -> Reason:
    return Reason(key, **args)


def render_reason(reason: str, lang: str = "en") -> str:
    """Any refusal text in ``lang``: a :class:`Reason` is rendered, plain text kept."""
    if isinstance(reason, Reason):
        return reason.render(lang)
    return reason
