"""Every text the browser shows, in English and Russian (served as ``/api/texts``).

The sentences particular to the browser (the lobby, the table's notices) are kept here;
every term — a field's label, a value word, a verb, a suit, a rank, a computer's kind — comes
from the one vocabulary, ``koloda.engine.terms``, served under ``term.`` ``verb.`` ``suit.``
``rank.`` ``bot.`` keys (the terminal reads the same catalog).
"""

from __future__ import annotations

from koloda import i18n
from koloda.engine import terms

_PAIRS: dict[str, tuple[str, str]] = {
    # lobby
    "lobby": ("Lobby", "Лобби"),
    "your_name": ("Your name", "Ваше имя"),
    "name_placeholder": ("how the table calls you", "как вас называть за столом"),
    "need_name": ("Type your name first", "Сначала введите имя"),
    "open_tables": ("Open tables", "Столы"),
    "no_tables": ("No tables yet: create one below.", "Столов пока нет: создайте ниже."),
    "page_of": ("page {n} of {of} ({total} tables)", "страница {n} из {of} (столов: {total})"),
    "overloaded": ("The server is overloaded: a computer played at random",
                   "Сервер перегружен: компьютер сыграл наугад"),
    "abandoned": ("This table was closed: nobody moved for a long time (the game is stored)",
                  "Стол закрыт: долго никто не ходил (партия сохранена)"),
    "players_n": ("{n} players", "игроков: {n}"),
    "actions_n": ("{n} moves made", "сделано ходов: {n}"),
    "actions_1": ("1 move made", "сделано ходов: 1"),
    "sit_here": ("Sit at seat {n}", "Сесть на место {n}"),
    "continue_seat": ("Back to my seat", "Вернуться за стол"),
    "watch": ("Watch", "Смотреть"),
    "copy_link": ("copy link", "скопировать ссылку"),
    "copied": ("Link copied: {link}", "Ссылка скопирована: {link}"),
    "spectators_n": ("{n} watching", "смотрят: {n}"),
    "new_table": ("New table", "Новый стол"),
    "game": ("Game", "Игра"),
    "players": ("Players", "Игроки"),
    "seats": ("Seats", "Места"),
    "options": ("Options", "Параметры"),
    "person": ("a person", "человек"),
    "computer": ("computer", "компьютер"),
    "i_sit_here": ("I sit here", "здесь сижу я"),
    "away_title": ("When a player is away", "Если игрок отошёл"),
    "away_after": ("after", "через"),
    "seconds": ("seconds", "секунд"),
    "away_computer": ("a computer plays for them", "за него играет компьютер"),
    "away_wait": ("the table waits", "стол ждёт"),
    "away_bot": ("Computer standing in:", "Компьютер на замену:"),
    "create": ("Create the table", "Создать стол"),
    # private tables, rematches
    "share_private": ("Invite link (a private table: only those with this link can sit or "
                      "watch)", "Ссылка-приглашение (закрытый стол: сесть или смотреть могут "
                      "только те, у кого она есть)"),
    "rematch": ("Rematch: the same seats again", "Реванш: те же места ещё раз"),
    "rematch_go": ("Go to the rematch", "К реваншу"),
    "private_table": ("Private: only by invite link", "Закрытый: только по приглашению"),
    "who_comes": ("Who may come", "Кто может прийти"),
    "level_rating": i18n.pair("level_rating"),
    "spectators_see": ("Watchers see", "Зрители видят"),
    "spectators_live": ("every card at once", "каждую карту сразу"),
    "spectators_trick": ("a trick behind (no card of the trick in play)",
                         "со взятку позади (ни одной карты текущей взятки)"),
    "watching_behind": ("You watch a trick behind: the trick in play shows once it is over.",
                        "Вы смотрите со взятку позади: текущая взятка видна, когда она "
                        "сыграна."),
    # the table's chat
    "chat": ("Chat", "Чат"),
    "chat_placeholder": ("say something to the table", "напишите столу"),
    "chat_send": ("Send", "Отправить"),
    "chat_watchers": ("Watchers read the chat; the players write.",
                      "Зрители читают чат, пишут игроки."),
    "chat_mute": ("mute {name}", "не показывать {name}"),
    "chat_unmute": ("show {name} again", "снова показывать {name}"),
    "chat_muted": ("muted: {names}", "скрыты: {names}"),
    # the hint (the terminal's h)
    "hint": ("Hint", "Подсказка"),
    "hint_title": ("What the strongest computer player would play here (the record counts "
                   "it; the match is then not rated)",
                   "Что сыграл бы здесь сильнейший компьютер (отмечается в записи; партия "
                   "тогда не идёт в рейтинг)"),
    "takeback": ("Take back", "Вернуть ход"),
    "takeback_title": ("Undo your last move in this deal and the computers' moves since (the "
                       "record counts it; the match is then not rated)",
                       "Отменить свой последний ход в этой сдаче и ходы компьютеров после "
                       "него (отмечается в записи; партия тогда не идёт в рейтинг)"),
    "hint_thinking": i18n.pair("hint_thinking"),
    "hint_is": ("Hint ({bot}): {move}", "Подсказка ({bot}): {move}"),
    "hint_values": i18n.pair("hint_values"),
    # accounts
    "sign_in_or_register": ("Sign in or register", "Вход и регистрация"),
    "account_help": ("Without an account you play as a guest. Register your name to keep "
                     "it for yourself, with your rank and statistics.",
                     "Без регистрации вы играете как гость. Зарегистрируйте имя, чтобы оно "
                     "было только вашим — вместе с разрядом и статистикой."),
    "account_name": ("Name", "Имя"),
    "password": ("Password", "Пароль"),
    "sign_in": ("Sign in", "Войти"),
    "register": ("Register", "Зарегистрироваться"),
    "sign_out": ("Sign out", "Выйти"),
    "signed_in_as": ("Signed in as {name}", "Вы вошли как {name}"),
    "rank_is": ("rank: {rank}", "разряд: {rank}"),
    "no_rank": ("no rank yet", "разряда пока нет"),
    "registered": ("registered player", "зарегистрированный игрок"),
    # a finished game's replay
    "replay": ("replay", "повтор партии"),
    "replay_link": ("replay it move by move", "повтор по ходам"),
    "move_of": ("move {n} of {of}", "ход {n} из {of}"),
    "replay_start": ("Before the first move", "До первого хода"),
    "replay_first": ("the start", "в начало"),
    "replay_prev": ("the move before", "ход назад"),
    "replay_next": ("the next move", "ход вперёд"),
    "replay_last": ("the end", "в конец"),
    "replay_keys": ("← → step through the moves; Home and End: the start and the end.",
                    "← → — по ходам; Home и End — в начало и в конец."),
    "hands": ("Every hand", "Карты на руках"),
    # table
    "seat_n": ("Seat {n}", "Место {n}"),
    "computer_n": ("Computer {n}", "Компьютер {n}"),
    "online": ("here", "за столом"),
    "away": ("away", "отошёл"),
    "open_seat": ("open seat", "свободно"),
    "computer_plays": ("computer plays for them", "играет компьютер"),
    "seat_left": ("left: the computer plays to the end", "ушёл: компьютер доигрывает"),
    "known": ("known:", "известны:"),
    "cards_n": ("cards: {n}", "карт: {n}"),
    "deal_n": ("Deal {n}", "Сдача {n}"),
    "your_move": ("Your move", "Ваш ход"),
    "turn_of": ("{who} to move", "Ходит {who}"),
    "thinking": ("{who} is thinking…", "{who} думает…"),
    "waiting_open": ("Seat {n} is open: waiting for a player to sit down",
                     "Место {n} свободно: ждём игрока"),
    "waiting_away": ("Waiting for {who}, who is away", "Ждём игрока {who}: он отошёл"),
    "seat_given_up": ("You were away too often: the computer plays your seat to the end "
                      "of this match.",
                      "Вы слишком часто отходили: ваше место до конца партии играет "
                      "компьютер."),
    "computer_plays_you": ("The computer plays your seat", "За вас играет компьютер"),
    "plays_for": ("{who} is away: the computer plays for them",
                  "{who} отошёл: за него играет компьютер"),
    "plays_left": ("{who} left the match: the computer plays their seat to the end",
                   "{who} ушёл из партии: его место до конца играет компьютер"),
    "match_over": ("The match is over", "Партия окончена"),
    "not_your_turn": ("Wait: it is not your move", "Подождите: сейчас не ваш ход"),
    "reconnecting": ("Connection lost — reconnecting…", "Связь потеряна — подключаемся…"),
    "connected": ("connected", "на связи"),
    "refused": ("Not allowed", "Нельзя"),
    "resending": ("Too fast for the server: sending it again in {s} s…",
                  "Слишком быстро для сервера: отправим снова через {s} с…"),
    "token_gone": ("This browser's seat token is not valid here; you are watching.",
                   "Ключ места в этом браузере не подходит; вы зритель."),
    "no_card_move": ("No move with a card now", "Сейчас нельзя ходить картой"),
    "click_card": ("Click a card to play it; cards that go together are marked first",
                   "Нажмите на карту, чтобы сыграть; карты для хода из нескольких — "
                   "отметьте по очереди"),
    "now_pick_cover": ("Now choose the card that covers {card}",
                       "Теперь выберите карту, которой бить {card}"),
    "selected": ("Chosen: {cards}", "Выбрано: {cards}"),
    "select_more": ("— or choose more cards", "— или выберите ещё карты"),
    "no_move_with": ("no move uses exactly these cards", "нет хода ровно с этими картами"),
    "clear": ("clear", "снять"),
    "all_moves": ("every legal move ({n})", "все возможные ходы ({n})"),
    "no_hand": ("(no cards in hand)", "(нет карт на руках)"),
    "empty_table": ("(the table is empty)", "(стол пуст)"),
    "taken_by": ("taken by {who}", "взял(а) {who}"),
    "offer_of": ("{who} lays out {n} cards face down", "{who} выкладывает {n} карт рубашкой "
                                                        "вверх"),
    "pick_n": ("card {n}", "карта {n}"),
    "log_deal": ("Moves of deal {n}", "Ходы сдачи {n}"),
    "share": ("Invite: the table's link", "Пригласить: ссылка на стол"),
    "watching": ("Every seat is taken: you are watching.", "Все места заняты: вы зритель."),
    "other_device": ("Play this seat on another device", "Играть с другого устройства"),
    "other_device_help": ("This link carries your seat's key: give it to nobody else.",
                          "В ссылке ключ вашего места: никому её не давайте."),
    "sheet_title": ("Score sheet", "Запись"),
    "rules": ("Rules", "Правила"),
    "deal_over": ("Deal {n} is over — score sheet", "Сдача {n} окончена — запись"),
    "continue": ("Continue", "Дальше"),
    "close": ("Close", "Закрыть"),
    "empty_sheet": ("Nothing written yet.", "Пока ничего не записано."),
    "record_link": ("the game's record (JSON)", "запись партии (JSON)"),
    "back_lobby": ("back to the lobby", "в лобби"),
    "face_down_n": ("{n} card(s) face down", "карт рубашкой вверх: {n}"),
}

def _fill(out: dict[str, dict[str, str]]) -> None:
    """The sentences above and the one vocabulary (koloda.engine.terms, every game's terms
    registered): ``term.KEY`` a label or value word, ``verb.VERB``, ``suit.S``, ``rank.T``,
    ``bot.KIND`` — the browser reads terms from here, never from a table of its own."""
    for i, lang in enumerate(("en", "ru")):
        said = out.setdefault(lang, {})
        said.update({k: v[i] for k, v in _PAIRS.items()})
        for kind, table in terms.pairs().items():
            said.update({f"{kind}.{k}": v[i] for k, v in table.items()})


def _texts() -> dict[str, dict[str, str]]:
    from koloda.engine.registry import registry
    registry()   # every game's own terms registered
    out: dict[str, dict[str, str]] = {}
    _fill(out)
    # a game registered later (registry.register) adds its terms to what is served
    terms.on_register(lambda: _fill(out))
    return out


TEXTS: dict[str, dict[str, str]] = _texts()
