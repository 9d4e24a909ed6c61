"""Every text a person sees, in Russian and English.

``t(key, lang, **kw)`` formats one catalogue entry; ``label`` names an observation or score
sheet field (falling back to the field name, so a game's new field still shows);
``verb`` names an action verb; ``reason`` says an engine refusal in the chosen language from
its message key and arguments (the catalog lives in the engine: koloda/engine/messages.py).
"""

from __future__ import annotations

import json
import locale
import os

from koloda.engine.messages import ALLOWED_RU, VERB_WORDS, render_reason

LANGS = ("en", "ru")

_TEXTS: dict[str, tuple[str, str]] = {
    # line mode (kept: the line mode and its tests use them)
    "your_turn": ("Your move, seat {seat}", "Ваш ход, место {seat}"),
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
    "draw": ("A draw: nobody wins.", "Ничья."),
    "scores": ("Scores: {scores}", "Счёт: {scores}"),
    "seat": ("seat", "место"),
    "you": ("you", "вы"),
    "game": ("Game", "Игра"),
    "players": ("Players", "Игроки"),
    "options": ("Options", "Параметры"),
    "variant": ("Variant", "Вариант"),
    "deal": ("Deal", "Сдача"),
    "dealer": ("dealer", "сдаёт"),
    "dealer_mark": ("D", "С"),
    "to_move": ("to move", "ходит"),
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
    "hand": ("Your hand", "Ваши карты"),
    "no_hand": ("(no cards in hand)", "(нет карт на руках)"),
    "moves": ("Moves", "Ходы"),
    "log": ("Moves so far", "Ходы партии"),
    "table": ("Table", "Стол"),
    "trick": ("Trick", "Взятка"),
    "last_trick": ("Last trick", "Последняя взятка"),
    "no_last_trick": ("No trick has been completed yet.", "Ещё не сыграно ни одной взятки."),
    "won_by": ("taken by {who}", "взял(а) {who}"),
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
    "not_yours": ("Wait: it is not your move", "Подождите: сейчас не ваш ход"),
    "multi_hint": ("Space marks cards for a move of several cards ({verbs})",
                   "Пробел отмечает карты для хода из нескольких карт ({verbs})"),
    "keys_table": ("←→ card · Space mark · Enter play · ↑↓ 1-9 moves · l last trick · "
                   "s sheet · r rules · q save, quit",
                   "←→ карта · Пробел отметить · Enter ход · ↑↓/1-9 ходы · l взятка · "
                   "s запись · r правила · q выход"),
    "sheet": ("Score sheet", "Запись"),
    "sheet_between": ("Deal {n} is over — score sheet", "Сдача {n} окончена — запись"),
    "press_continue": ("Enter — continue", "Enter — дальше"),
    "press_close": ("Enter or Esc — close", "Enter или Esc — закрыть"),
    "result_title": ("The match is over", "Партия окончена"),
    "result_keys": ("Enter — new game · q — quit", "Enter — новая игра · q — выход"),
    "winner_is": ("Winner: {who}", "Победитель: {who}"),
    "winners_are": ("Winners: {who}", "Победители: {who}"),
    "capped_note": ("Stopped by the max_deals cap: standings as they were",
                    "Остановлено: сыграно предельное число сдач, итог по текущему счёту"),
    "rank_now": ("{who}: rank {rank} (earned {earned}; was {held})",
                 "{who}: разряд {rank} (заработан {earned}; был {held})"),
    "no_rank": ("none", "нет"),
    "stored_as": ("Stored as game #{id}: koloda replay {id}",
                  "Сохранено как игра №{id}: koloda replay {id}"),
    "autosaved": ("Record: {path}", "Запись партии: {path}"),
    "quit_saved": ("Saved. Continue with: koloda play --resume {path}",
                   "Сохранено. Продолжить: koloda play --resume {path}"),
    "epaulettes": ("with epaulettes!", "с погонами!"),
    "durak_is": ("The durak: {who}", "Дурак: {who}"),
    "pair": ("Pair {names}", "Пара {names}"),
    "record_left": ("record {n}", "запись {n}"),
    "deal_col": ("#", "№"),
    "total": ("Total", "Итого"),
    "attack": ("attack", "ход"),
    "cover": ("cover", "отбой"),
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
    "no_player": ("No player named {name!r}.", "Игрока {name!r} нет."),
    "col_id": ("id", "№"),
    "col_date": ("date", "дата"),
    "col_game": ("game", "игра"),
    "col_players": ("players", "игроки"),
    "col_title": ("title", "название"),
    "col_options": ("options (default) — meaning", "параметры (по умолчанию) — смысл"),
    "col_result": ("result", "итог"),
    "col_played": ("played", "сыграно"),
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
}

#: names of observation and score sheet fields (a field not here shows its own name)
_LABELS: dict[str, tuple[str, str]] = {
    "hand_sizes": ("cards", "карт"),
    "pile_sizes": ("pile", "колода"),
    "cards": ("cards", "карт"),
    "bids": ("bid", "заказ"),
    "tricks": ("tricks", "взятки"),
    "tricks_taken": ("tricks", "взятки"),
    "bought": ("bought", "куплено"),
    "money": ("money", "деньги"),
    "balances": ("money", "деньги"),
    "discards": ("discarded", "сброшено"),
    "known_cards": ("known cards", "известные карты"),
    "choices": ("chose", "выбор"),
    "totals": ("total", "очки"),
    "scores": ("score", "счёт"),
    "above": ("above the line", "над чертой"),
    "below": ("below the line", "под чертой"),
    "losses": ("games lost", "проиграно"),
    "points": ("points", "очки"),
    "records": ("record", "запись"),
    "pair_tricks": ("pair tricks", "взятки пар"),
    "changes": ("change", "изменение"),
    "phase": ("phase", "фаза"),
    "trump": ("trumps", "козыри"),
    "trump_suit": ("trumps", "козыри"),
    "trump_card": ("trump card", "козырная карта"),
    "trumps": ("trumps", "козыри"),
    "stock": ("stock", "колода"),
    "stock_size": ("stock", "колода"),
    "widow_size": ("widow", "прикуп"),
    "talon": ("talon", "прикуп"),
    "pot": ("pot", "касса"),
    "discard_count": ("beaten off", "бито"),
    "limit": ("limit", "предел"),
    "round": ("round", "кон"),
    "deal_size": ("cards each", "карт на руках"),
    "schedule_position": ("deal of schedule", "сдача по расписанию"),
    "schedule_length": ("deals in the match", "сдач в партии"),
    "games_played": ("games played", "сыграно игр"),
    "games": ("games", "игр"),
    "deals_played": ("deals played", "сыграно сдач"),
    "set_aside": ("set aside", "отложено"),
    "tie_step": ("tie step", "спор"),
    "forbidden_bid": ("forbidden bid", "запрещённый заказ"),
    "final_deal": ("final deal", "последняя сдача"),
    "next_trump": ("next trumps", "следующие козыри"),
    "my_discards": ("my discards", "мой снос"),
    "attacker": ("attacker", "атакует"),
    "defender": ("defender", "отбивается"),
    "leader": ("leads", "ходит первым"),
    "dealer": ("dealer", "сдавал"),
    "golets": ("golets", "голец"),
    "first_bout_limit": ("first round limit", "предел первого отбоя"),
    "declared": ("declared", "объявил"),
    "outcome": ("outcome", "итог"),
    "kind": ("kind", "вид"),
    "starter": ("starts", "начинает"),
    "failed_leads": ("failed leads", "пустые ходы"),
    "banned_lead": ("may not lead", "нельзя ходить в"),
    "first_to_shed": ("first out of cards", "первым избавился от карт"),
    "variant": ("variant", "вариант"),
    "out": ("out", "вне игры"),
    "skipped": ("skipped", "пропускает"),
    "passed": ("passed", "пас"),
    "taken": ("taken", "взято"),
    "first_bout": ("first round", "первый отбой"),
    # fields a table, a score sheet or a result may also hold
    "ante": ("ante", "ставка за сдачу"),
    "blocked": ("blocked", "тупик"),
    "caps": ("caps", "старшие по мастям"),
    "change": ("change", "изменение"),
    "count": ("count", "число"),
    "deal": ("deal", "сдача"),
    "deals": ("deals", "сдачи"),
    "deck": ("deck", "колода"),
    "deck_size": ("deck size", "колода"),
    "discard": ("beaten off", "бито (карты)"),
    "hand": ("hand", "на руках"),
    "deal_number": ("deal number", "номер сдачи"),
    "to_move": ("to move", "ходит"),
    "match_over": ("match over", "партия окончена"),
    "table": ("table", "стол"),
    "trick": ("trick", "взятка"),
    "trump_drawn_by": ("trump drawn by", "козырь вытянул"),
    "sheet": ("sheet", "запись"),
    "offers": ("offers", "выкладки"),
    "last_round": ("last round", "последний кон"),
    "draws": ("draws", "добирали"),
    "durak": ("durak", "дурак"),
    "fee": ("fee", "платёж за сдачу"),
    "first_attacker": ("first attacker", "первым ходил"),
    "first_dealer_draw": ("first dealer draw", "жребий первой сдачи"),
    "how": ("how", "как"),
    "in_game": ("in the game", "в игре"),
    "in_play": ("in play", "играют"),
    "last_deal": ("last deal", "последняя сдача"),
    "last_deal_penalty": ("last deal penalty", "штраф последней сдачи"),
    "last_trick": ("last trick", "последняя взятка"),
    "led": ("led", "масть хода"),
    "left_holding_cards": ("left holding cards", "остались с картами"),
    "level": ("level", "уровень"),
    "match_deals": ("deals in the match", "сдач в партии"),
    "max_deals": ("max deals", "не больше сдач"),
    "money_at_start": ("money at start", "деньги в начале"),
    "mushka": ("mushka", "мушка"),
    "offerer": ("lays out", "выкладывает"),
    "options": ("options", "параметры"),
    "paid": ("paid", "выплачено"),
    "pair": ("pair", "пара"),
    "pairs": ("pairs", "пары"),
    "passes": ("passes", "пасовали"),
    "payments": ("payments", "платежи"),
    "picked": ("picked", "взята"),
    "pot_after": ("pot after", "в кассе после"),
    "pot_before": ("pot before", "в кассе до"),
    "ranks": ("ranks", "разряды"),
    "redeal": ("redeal", "пересдача"),
    "remiz": ("remiz", "ремиз"),
    "rounds": ("rounds", "круги"),
    "ruff_only_when_only_trumps": ("ruff only when only trumps",
                                   "бить козырем, только когда нет других"),
    "schedule": ("schedule", "расписание"),
    "shown": ("shown", "показаны"),
    "stake": ("stake", "взнос"),
    "start_deal": ("start deal", "первая сдача"),
    "suit": ("suit", "масть"),
    "teams": ("teams", "команды"),
    "tie_steps": ("tie steps", "споры"),
    "tricks_played": ("tricks played", "сыгранные взятки"),
    "value": ("value", "цена"),
    "values": ("values", "цены взяток"),
    "voids": ("voids", "нет мастей"),
    "winner": ("winner", "взял"),
    "winners": ("winners", "победители"),
    "losers": ("losers", "проигравшие"),
    "won_at_deal": ("won at deal", "выиграна в сдаче"),
    "finish": ("finish", "конец партии"),
    "end": ("end", "конец игры"),
    "round_cap": ("round cap", "не больше ходов"),
    "record": ("record", "запись"),
    "S": ("spades", "пики"),
    "C": ("clubs", "трефы"),
    "D": ("diamonds", "бубны"),
    "H": ("hearts", "черви"),
    "spades": ("spades", "пики"),
    "clubs": ("clubs", "трефы"),
    "diamonds": ("diamonds", "бубны"),
    "hearts": ("hearts", "черви"),
    # phases
    "over": ("over", "окончена"),
    "awaiting_deal": ("awaiting the deal", "ждёт сдачи"),
    "bid": ("bidding", "заказ"),
    "play": ("play", "розыгрыш"),
    "exchange": ("exchange", "обмен"),
    "attack": ("attack", "атака"),
    "defend": ("defence", "защита"),
    "throw": ("throw-in", "подкидывание"),
    "declare": ("declaration", "объявление"),
}

#: values an observation, a sheet or a result may hold, as a person reads them
_VALUES: dict[str, tuple[str, str]] = {
    "over": ("over", "окончена"),
    "declare": ("declaration", "объявление"),
    "defend": ("defence", "защита"),
    "exchange": ("exchange", "обмен"),
    "alone": ("alone", "один"),
    "played": ("played", "сыграна"),
    "redeal": ("redeal", "пересдача"),
    "nobody": ("nobody", "никто"),
    "void": ("void", "пустая"),
    "capped": ("capped", "ограничение сдач"),
    "single_deal": ("single deal", "одна сдача"),
    "draw": ("draw", "ничья"),
    "trinka": ("trinka", "тринька"),
    "rozhok": ("rozhok", "рожок"),
    "all_nine": ("all nine", "все девять"),
    "simple": ("simple", "простой"),
    "perevodnoy": ("perevodnoy", "переводной"),
    "trumps": ("trumps", "козыри"),
    "all clubs and all jacks": ("all clubs and all jacks", "все трефы и все валеты"),
    "embryo": ("embryo", "эмбрион"),
    "fee": ("fee", "платёж за сдачу"),
    "stake": ("stake", "взнос"),
    "remiz: no trick": ("remiz: no trick", "ремиз: ни одной взятки"),
    "remiz: passed holding the led suit": ("remiz: passed holding the led suit",
                                           "ремиз: пас при масти хода на руках"),
    "wild": ("wild", "как шаха"),
    "plain": ("plain", "за простую"),
    "knock": ("knock", "стучу"),
    "drop": ("drop", "пас"),
    "golets": ("golets", "голец"),
    "pass": ("pass", "пас"),
    "stand": ("stand", "играю"),
    "first": ("first", "первый"),
    "all": ("all", "все"),
    "first_elimination": ("first elimination", "до первого выбывшего"),
    "cycle": ("cycle", "доиграть круг"),
    **{name: (name, ru) for name, ru in (("spades", "пики"), ("clubs", "трефы"),
                                         ("diamonds", "бубны"), ("hearts", "черви"),
                                         ("S", "пики"), ("C", "трефы"), ("D", "бубны"),
                                         ("H", "черви"))},
}

#: option names as the start screen shows them
_OPTIONS: dict[str, tuple[str, str]] = {
    "finish": ("finish", "конец партии"),
    "max_deals": ("max_deals", "не больше сдач"),
    "teams": ("teams", "командами"),
    "first_bout_limit": ("first_bout_limit", "предел первого отбоя"),
    "games": ("games", "игр в партии"),
    "stake": ("stake", "взнос"),
    "fee": ("fee", "платёж за сдачу"),
    "remiz": ("remiz", "ремиз"),
    "values": ("values", "цены взяток"),
    "deck": ("deck", "колода"),
    "start_deal": ("start_deal", "первая сдача"),
    "last_deal_penalty": ("last_deal_penalty", "штраф последней сдачи"),
    "ruff_only_when_only_trumps": ("ruff_only_when_only_trumps", "козырем — только без других"),
    "end": ("end", "конец игры"),
    "round_cap": ("round_cap", "не больше ходов"),
    "ante": ("ante", "ставка за сдачу"),
    "deals": ("deals", "сдач в партии"),
    "record": ("record", "запись"),
}

#: the word values of options, in Russian
_OPTION_VALUES: dict[str, str] = {
    "cycle": "доиграть круг",
    "deal": "закончить сразу",
    "all": "пока все карты не у одного",
    "first_elimination": "до первого выбывшего",
}

#: what an option allows, in Russian (keyed by the English text of the option)
_ALLOWED_RU = ALLOWED_RU


#: action verbs as a person reads them (the canonical text stays in records)
_VERBS = VERB_WORDS

_BOTS: dict[str, tuple[str, str]] = {
    "random": ("random", "случайный"),
    "heuristic": ("heuristic", "по правилам опыта"),
    "search": ("search", "перебор"),
    "easy": ("easy", "лёгкий"),
    "normal": ("normal", "средний"),
    "hard": ("hard", "сильный"),
}

_SUITS_RU = {"spades": "пики", "clubs": "трефы", "diamonds": "бубны", "hearts": "черви",
             "trumps": "козыри", "no suit": "без масти"}
_SUIT_LETTERS = {"S": ("spades", "пики"), "C": ("clubs", "трефы"),
                 "D": ("diamonds", "бубны"), "H": ("hearts", "черви")}

def default_lang() -> str:
    """Russian when the locale says so, else English."""
    for var in ("KOLODA_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "ru" if value.lower().startswith("ru") else "en"
    loc = locale.getlocale()[0] or ""
    return "ru" if loc.lower().startswith("ru") else "en"


def t(key: str, lang: str = "en", **kw: object) -> str:
    en, ru = _TEXTS[key]
    return (ru if lang == "ru" else en).format(**kw)


def label(key: str, lang: str = "en") -> str:
    """The name of an observation or sheet field; unknown fields keep their own name."""
    pair = _LABELS.get(key)
    if pair is None:
        return key.replace("_", " ")
    return pair[1] if lang == "ru" else pair[0]


def value_word(text: str, lang: str = "en") -> str:
    """A word or phrase an observation holds as a value («over», «hearts») in ``lang``;
    unknown values stay as written (names, cards)."""
    if lang != "ru":
        return text
    pair = _VALUES.get(text)
    if pair is not None:
        return pair[1]
    words = text.split()
    if len(words) in (2, 3) and words[0] == "trick" and words[1] in _SUIT_LETTERS:
        # Kopilka's purse log: "trick H", "trick H mushka"
        out = f"взятка: {_SUIT_LETTERS[words[1]][1]}"
        return out + (" (мушка)" if words[2:] == ["mushka"] else "")
    return text


def option_name(name: str, lang: str = "en") -> str:
    pair = _OPTIONS.get(name)
    return pair[1] if pair is not None and lang == "ru" else name


def option_allowed(allowed: str, lang: str = "en") -> str:
    return _ALLOWED_RU.get(allowed, allowed) if lang == "ru" else allowed


def option_value(value: object, lang: str = "en") -> str:
    """An option's value as the start screen shows it (a word value also in Russian words,
    its code in brackets: the help text names the codes)."""
    if isinstance(value, bool) and lang == "ru":
        return "да" if value else "нет"
    if isinstance(value, str):
        said = _OPTION_VALUES.get(value)
        return f"{said} ({value})" if said is not None and lang == "ru" else value
    return json.dumps(value, ensure_ascii=False)


def verb(word: str, lang: str = "en") -> str:
    pair = _VERBS.get(word)
    if pair is None:
        return word
    return pair[1] if lang == "ru" else pair[0]


def bot_label(spec: str, lang: str = "en") -> str:
    """A computer player (``search:normal``) in words: «перебор, средний»."""
    words = [(_BOTS.get(w) or (w, w))[1 if lang == "ru" else 0] for w in spec.split(":")]
    return ", ".join(words)


def suit_word(text: str, lang: str = "en") -> str:
    """A suit as the engine writes it ("hearts", "H") in the chosen language."""
    if text in _SUIT_LETTERS:
        en, ru = _SUIT_LETTERS[text]
        return ru if lang == "ru" else en
    if lang == "ru":
        return _SUITS_RU.get(text) or value_word(text, lang)
    return text


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
