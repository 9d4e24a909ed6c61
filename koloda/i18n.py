"""The terminal's sentences, in Russian and English; its terms come from the one vocabulary.

``t(key, lang, **kw)`` formats one of the terminal's own sentences (the start screen, the
table's notices, the command line's messages). Every *term* — a field's label, a value
word, a verb, a suit, a computer's kind — is read from ``koloda.engine.terms``, the one
vocabulary the browser and the engine's messages read too: ``label``, ``value_word``,
``verb``, ``suit_word``, ``option_name`` and ``bot_label`` are thin readers of it.
``reason`` says an engine refusal in the chosen language from its message key and
arguments (the catalog lives in the engine: koloda/engine/messages.py).
"""

from __future__ import annotations

import json
import locale
import os

from koloda.engine import terms
from koloda.engine.messages import ALLOWED_RU, render_reason

LANGS = ("en", "ru")

_TEXTS: dict[str, tuple[str, str]] = {
    # line mode (kept: the line mode and its tests use them)
    "your_turn": ("Your move, seat {seat}", "Ваш ход, место {seat}"),
    "your_move_name": ("Your move, {who}", "Ваш ход, {who}"),
    "more_moves": ("({n} moves in all: type a longer one, e.g. with several cards)",
                   "(всего ходов {n}: длинный ход введите сами, например из нескольких карт)"),
    "choose": ("Choose a number or type an action (q saves and quits, ? lists actions)",
               "Выберите номер или введите ход (q — сохранить и выйти, ? — список ходов)"),
    "press_enter": ("Press Enter to {action} (q saves and quits)",
                    "Нажмите Enter: {action} (q — сохранить и выйти)"),
    "bot_moves": ("{who} plays: {action}", "{who}: {action}"),
    "illegal": ("Not allowed: {reason}", "Нельзя: {reason}"),
    "saved": ("Game saved to {path}. Continue with: koloda play --resume {path}",
              "Игра сохранена в {path}. Продолжить: koloda play --resume {path}"),
    "over": ("The match is over.", "Партия окончена."),
    "winners": ("Winners: {seats}", "Победители: {seats}"),
    "scores": ("Scores: {scores}", "Счёт: {scores}"),
    "game": ("Game", "Игра"),
    "variant": ("Variant", "Вариант"),
    "sheet_title": ("Score sheet", "Запись"),
    "players": ("Players", "Игроки"),
    "dealer_mark": ("D", "С"),
    # start screen
    "start_title": ("koloda — a new game", "koloda — новая игра"),
    "start_help": ("↑↓ choose a line · ←→ change it · Enter edits a value or starts · "
                   "r rules · q quits",
                   "↑↓ строка · ←→ изменить · Enter — ввести значение или начать · "
                   "r правила · q — выход"),
    "language": ("Language", "Язык"),
    "lang_name": ("English", "Русский"),
    "your_name": ("Your name", "Ваше имя"),
    "sits": ("Seat {n}", "Место {n}"),
    "human": ("You", "Вы"),
    "computer": ("Computer: {bot}", "Компьютер: {bot}"),
    "start": ("▶ Start the game", "▶ Начать игру"),
    "resume_line": ("Continue: {name}", "Продолжить: {name}"),
    "moves_made": ("{n} moves made", "сделано ходов: {n}"),
    "moves_made_one": ("{n} move made", "сделано ходов: {n}"),
    "your_seat": ("Your seat", "Ваше место"),
    "option_default": ("default {value}", "по умолчанию {value}"),
    "type_value": ("Type a value for {name} and press Enter (Esc cancels)",
                   "Введите значение {name} и нажмите Enter (Esc — отмена)"),
    "need_human": ("Somebody must sit at the table: make one seat «You»",
                   "Кто-то должен сесть за стол: сделайте одно место «Вы»"),
    "one_human": ("One seat is yours; the others are computer players",
                  "Одно место ваше, остальные — компьютер"),
    "bad_value": ("Not a value for {name}: {reason}", "Неверное значение «{name}»: {reason}"),
    "allowed_is": ("allowed: {allowed}", "допустимо: {allowed}"),
    "cannot_start": ("These options do not make a game", "С такими параметрами игры нет"),
    # the table
    "turn_you": ("Your move", "Ваш ход"),
    "turn_of": ("{who} to move", "Ходит {who}"),
    "thinking": ("{who} is thinking…", "{who} думает…"),
    "your_hand": ("Your hand", "Ваши карты"),
    "no_hand": ("(no cards in hand)", "(нет карт на руках)"),
    "moves": ("Moves", "Ходы"),
    "moves_page": ("{first}–{last} of {n} (PgUp PgDn, / filter)",
                   "{first}–{last} из {n} (PgUp PgDn, / поиск)"),
    "filter_hint": ("type to filter the moves · Enter plays · Esc closes",
                    "наберите часть хода · Enter — ход · Esc — закрыть"),
    "log": ("Moves so far", "Ходы партии"),
    "no_last_trick": ("No trick has been completed yet.", "Ещё не сыграно ни одной взятки."),
    "won_by": ("taken by {who}", "взял(а) {who}"),
    "last_round": ("Last round", "Последний кон"),
    "round_beaten": ("beaten off", "бито"),
    "round_taken": ("{who} took the cards", "{who} забрал(а) карты"),
    "empty_table": ("(the table is empty)", "(стол пуст)"),
    "deal_n": ("Deal {n}", "Сдача {n}"),
    "dealer_is": ("dealer {who}", "сдаёт {who}"),
    "marked": ("Marked: {cards} — Enter plays them, Esc clears",
               "Отмечено: {cards} — Enter сыграть, Esc — снять"),
    "more_cards": ("Mark more cards with Space: this set is part of a longer move "
                   "({examples})",
                   "Отметьте ещё карты пробелом: это часть хода из нескольких карт "
                   "({examples})"),
    "which": ("Several moves use these cards: choose one with ↑↓ and Enter",
              "Эти карты можно сыграть по-разному: выберите ↑↓ и Enter"),
    "hint_thinking": ("Hint: thinking…", "Подсказка: думаю…"),
    "hint_is": ("Hint ({bot}): ", "Подсказка ({bot}): "),
    "hint_values": ("estimated values", "оценки ходов"),
    "level_rating": ("rated {mu} in this game (a new player: 25)",
                     "рейтинг в этой игре {mu} (у новичка 25)"),
    "no_hint": ("This game has no computer player to ask for a hint",
                "В этой игре некого спросить о подсказке"),
    "not_yours": ("Wait: it is not your move", "Подождите: сейчас не ваш ход"),
    "multi_hint": ("Space marks cards for a move of several cards ({verbs})",
                   "Пробел отмечает карты для хода из нескольких карт ({verbs})"),
    "keys_table": ("←→ card · Space mark · Enter play · ↑↓ 1-9 / moves · h hint · l last · "
                   "s sheet · r rules · q quit",
                   "←→ карта · Пробел отметить · Enter ход · ↑↓ 1-9 / ходы · h подсказка · "
                   "l взятка · s запись · r правила · q выход"),
    "keys_short": ("←→ Space Enter cards · ↑↓ PgDn / moves · h hint · l last · s sheet · "
                   "q quit",
                   "←→ Пробел Enter карты · ↑↓ / ходы · h совет · l взятка · s запись · "
                   "q выход"),
    "sheet_between": ("Deal {n} is over — score sheet", "Сдача {n} окончена — запись"),
    "press_continue": ("Enter — continue", "Enter — дальше"),
    "press_close": ("Enter or Esc — close", "Enter или Esc — закрыть"),
    "result_title": ("The match is over", "Партия окончена"),
    "result_keys": ("Enter — new game · q — quit", "Enter — новая игра · q — выход"),
    "rank_now": ("{who}: rank {rank} (earned {earned}; was {held})",
                 "{who}: разряд {rank} (заработан {earned}; был {held})"),
    "no_rank": ("none", "нет"),
    "stored_as": ("Stored as game #{id}: koloda replay {id}",
                  "Сохранено как игра №{id}: koloda replay {id}"),
    "autosaved": ("Record: {path}", "Запись партии: {path}"),
    "quit_saved": ("Saved. Continue with: koloda play --resume {path}",
                   "Сохранено. Продолжить: koloda play --resume {path}"),
    "pair": ("Pair {names}", "Пара {names}"),
    "record_left": ("record {n}", "запись {n}"),
    "deal_col": ("#", "№"),
    "trump_is": ("Trump {card}", "Козырь {card}"),
    "trump_suit_is": ("Trumps: {suit}", "Козыри: {suit}"),
    "offer": ("{who} lays out cards face down ({n}); taken by: {taken}",
              "{who} выкладывает карты рубашкой вверх ({n}); взяли: {taken}"),
    "offer_positions": ("Take one blindly by its position: 0 is the first card",
                        "Возьмите одну вслепую по месту: 0 — первая карта"),
    "help_title": ("Keys", "Клавиши"),
    "rules_title": ("Rules", "Правила"),
    "no_rules": ("No rules text for this game yet.", "Текста правил этой игры пока нет."),
    # stats / history / replay commands
    "no_games": ("No games stored yet.", "Сохранённых игр ещё нет."),
    "no_player": ("No player named “{name}”.", "Игрока «{name}» нет."),
    "col_id": ("id", "№"),
    "col_date": ("date", "дата"),
    "col_game": ("game", "игра"),
    "col_players": ("players", "игроки"),
    "col_title": ("title", "название"),
    "col_options": ("options (default) — meaning", "параметры (по умолчанию) — смысл"),
    "col_result": ("result", "итог"),
    "col_played": ("games", "игр"),
    "col_won": ("won", "побед"),
    "col_lost": ("lost", "поражений"),
    "col_drawn": ("drawn", "ничьих"),
    "col_mean": ("mean score", "средний счёт"),
    "col_best": ("best", "лучший"),
    "col_scores": ("scores", "счёт"),
    "col_rank": ("rank (opendaum-33)", "разряд (опендаум-33)"),
    "col_total": ("total", "очки"),
    "col_earned": ("earned", "заработан"),
    "col_held": ("held after", "после партии"),
    "rank_history": ("Opendaum-33 ranks, match by match", "Разряды опендаума-33 по партиям"),
    "stats_of": ("{name}: games by kind", "{name}: игры по видам"),
    "draw_short": ("draw", "ничья"),
    # command-line failures (``koloda play/rules/stats/history/replay``)
    "error": ("error", "ошибка"),
    "option_pair": ("option {pair}: write it as name=value",
                    "параметр {pair}: пишите имя=значение"),
    "no_rules_lang": ("no {language} rules text for {family} yet",
                      "правил {family} на языке {language} пока нет"),
    "cannot_resume": ("cannot resume {path}: {reason}", "не удалось продолжить {path}: {reason}"),
    "bad_seat": ("--seat {seat}: seats are 0..{last}", "--seat {seat}: места от 0 до {last}"),
    "no_stored_game": ("no stored game {id}", "в хранилище нет игры {id}"),
    "record_verified": ("record verified", "запись проверена"),
    "store_open": ("cannot open the store {url}: {reason}",
                   "не удалось открыть хранилище {url}: {reason}"),
    "store_driver": ("cannot open the store {url}: its database driver {module} is not "
                     "installed; install it with: pip install '{package}'",
                     "не удалось открыть хранилище {url}: не установлен драйвер базы "
                     "{module}; установите: pip install '{package}'"),
    "move_refused": ("move {n} ({who}: {action}) is not allowed: {reason}",
                     "ход {n} ({who}: {action}) недопустим: {reason}"),
    "record_broken": ("the record is broken: {reason}", "запись партии испорчена: {reason}"),
    # the command line's own usage errors (koloda/cli/usage.py)
    "cli_no_command": ("no command {name}", "нет команды {name}"),
    "cli_did_you_mean": ("did you mean {names}?", "может быть, {names}?"),
    "cli_no_option": ("no option {name}", "нет параметра {name}"),
    "cli_missing_argument": ("missing argument {name}", "не указан аргумент {name}"),
    "cli_missing_option": ("missing option {name}", "не указан параметр {name}"),
    "cli_needs_value": ("option {name} needs a value", "параметру {name} нужно значение"),
    "cli_bad_value": ("{name}: {reason}", "{name}: {reason}"),
    "cli_bad_value_only": ("invalid value: {reason}", "неверное значение: {reason}"),
    "cli_whole_number": ("{value} is not a whole number", "{value} — не целое число"),
    "cli_number": ("{value} is not a number", "{value} — не число"),
    "cli_yes_no": ("{value} is not true or false", "{value} — не true и не false"),
    "cli_extra": ("unexpected extra argument(s): {args}", "лишние аргументы: {args}"),
    "cli_help_hint": ("help: {command}", "справка: {command}"),
    "cli_aborted": ("aborted", "прервано"),
    # why a --db store cannot be opened (koloda/cli/store_open.py)
    "db_unknown_kind": ("unknown kind of database “{kind}” (use sqlite:///FILE or "
                        "postgresql://USER@HOST/NAME)",
                        "неизвестный вид базы «{kind}» (пишите sqlite:///ФАЙЛ или "
                        "postgresql://ПОЛЬЗОВАТЕЛЬ@ХОСТ/ИМЯ)"),
    "db_not_url": ("not a database URL (use sqlite:///FILE or postgresql://USER@HOST/NAME)",
                   "это не адрес базы (пишите sqlite:///ФАЙЛ или "
                   "postgresql://ПОЛЬЗОВАТЕЛЬ@ХОСТ/ИМЯ)"),
    "db_no_folder": ("the folder {path} does not exist", "папки {path} нет"),
    "db_not_folder": ("{path} is not a folder", "{path} — не папка"),
    "db_is_folder": ("{path} is a folder, not a database file",
                     "{path} — папка, а не файл базы"),
    "db_folder_locked": ("cannot create a file in {path} (no permission)",
                         "нельзя создать файл в {path} (нет прав)"),
    "db_file_locked": ("{path} cannot be read and written (no permission)",
                       "{path} нельзя читать и писать (нет прав)"),
    "db_not_database": ("{path} is not a SQLite database", "{path} — не база SQLite"),
    # koloda play --resume of a record that cannot be continued
    "resume_other_game": ("the record is a game of {game}, not {asked} (leave the game "
                          "name out to continue it)",
                          "в записи игра {game}, а не {asked} (чтобы продолжить, не "
                          "называйте игру)"),
    "resume_over": ("the game is already over; see it move by move with: koloda replay "
                    "{path}",
                    "игра уже окончена; посмотреть её ход за ходом: koloda replay {path}"),
    # the start screen: a word value's alternatives, one number of a value per suit
    "or": ("or", "или"),
    "whole_number": ("a whole number ≥ 0", "целое число ≥ 0"),
    # the table's keys on a terminal under 80 columns (how to quit first)
    # a box over the table with more than it shows
    "scroll_keys": ("↑↓ PgUp PgDn scroll", "↑↓ PgUp PgDn листать"),
    "keys_tiny": ("q quit · s sheet · h hint · l last · ←→↑↓ Enter",
                  "q выход · s запись · h совет · l взятка · ←→↑↓ Enter"),
}

#: option values whose word as a term means something else (``deal``, the field label)
_OPTION_VALUES: dict[str, str] = {"deal": "закончить сразу"}

#: what an option allows, in Russian (keyed by the English text of the option)
_ALLOWED_RU = ALLOWED_RU


def default_lang() -> str:
    """Russian when the locale says so, else English."""
    for var in ("KOLODA_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "ru" if value.lower().startswith("ru") else "en"
    loc = locale.getlocale()[0] or ""
    return "ru" if loc.lower().startswith("ru") else "en"


def pair(key: str) -> tuple[str, str]:
    """A sentence in both languages (English, Russian): what another interface that says
    the same thing (the browser) takes from here."""
    return _TEXTS[key]


def t(key: str, lang: str = "en", **kw: object) -> str:
    en, ru = _TEXTS[key]
    return (ru if lang == "ru" else en).format(**kw)


def label(key: str, lang: str = "en") -> str:
    """The name of an observation or sheet field (the one vocabulary, koloda.engine.terms);
    an unknown field keeps its own name."""
    return terms.term(key, lang)


def heading(key: str, lang: str = "en") -> str:
    """A term as a heading: «Взятка», "Last trick"."""
    word = terms.term(key, lang)
    return word[:1].upper() + word[1:]


def value_word(text: str, lang: str = "en") -> str:
    """A word an observation holds as a value («over», «hearts», a suit letter) in
    ``lang``; unknown values stay as written (names, cards)."""
    if len(text) == 1 and text in "SCDH":
        return terms.suit_word("SCDH".index(text), lang)
    return terms.term(text, lang) if terms.has_term(text) else text


def option_name(name: str, lang: str = "en") -> str:
    """An option's name: as written in English (what ``-o name=value`` takes), the term in
    Russian."""
    return terms.term(name, lang) if lang == "ru" and terms.has_term(name) else name


def option_allowed(allowed: str, lang: str = "en") -> str:
    return _ALLOWED_RU.get(allowed, allowed) if lang == "ru" else allowed


def option_value(value: object, lang: str = "en") -> str:
    """An option's value as the start screen shows it (a word value also in Russian words,
    its code in brackets: the help text names the codes)."""
    if isinstance(value, bool) and lang == "ru":
        return "да" if value else "нет"
    if isinstance(value, str):
        said = _OPTION_VALUES.get(value) or (terms.term(value, "ru") if terms.has_term(value)
                                              else None)
        return f"{said} ({value})" if said is not None and lang == "ru" else value
    return json.dumps(value, ensure_ascii=False)


def verb(word: str, lang: str = "en") -> str:
    return terms.verb(word, lang)


def bot_label(spec: str, lang: str = "en") -> str:
    """A computer player (``search:normal``) in words: «перебор, средний»."""
    words = [(terms.BOTS.get(w) or (w, w))[1 if lang == "ru" else 0] for w in spec.split(":")]
    return ", ".join(words)


def suit_word(text: str, lang: str = "en") -> str:
    """A suit as the engine writes it ("H", "hearts") in the chosen language."""
    if len(text) == 1 and text in "SCDH":
        return terms.suit_word("SCDH".index(text), lang)
    return value_word(text, lang)


def reason(refusal: str | BaseException, lang: str = "en") -> str:
    """An engine refusal in the chosen language.

    ``refusal`` is an ``IllegalAction`` or its reason: the engine's message catalog
    (koloda/engine/messages.py) says it in ``lang``. Plain text (a refusal made outside the
    catalog) is shown as written."""
    if isinstance(refusal, BaseException):
        refusal = getattr(refusal, "reason", None) or str(refusal)
    return render_reason(refusal, lang)


def check_lang(lang: str | None) -> str:
    if lang is None:
        return default_lang()
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; languages: {', '.join(LANGS)}")
    return lang
