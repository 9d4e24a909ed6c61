"""``koloda --help`` in Russian: the commands' and options' help, and Typer's headings.

The commands are written with English help; with ``--lang ru`` (or a Russian locale) the
help pages read in Russian from this table, keyed by the English text. A text missing here
stays in English, so a command's new help shows (and ``test_cli_help`` finds it).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

RU: dict[str, str] = {
    # the program and its commands
    "koloda — traditional Russian card games.": "koloda — русские карточные игры.",
    "Every game and variant, its player counts and options.":
        "Все игры и варианты: сколько игроков, какие параметры.",
    "The rules of GAME in the chosen language.": "Правила игры GAME на выбранном языке.",
    "Play many matches between bots and summarise them.":
        "Сыграть много партий между компьютерами и подвести итог.",
    "Play against computer seats in the terminal (TUI, or --line).":
        "Играть с компьютером в терминале (полный экран или --line — построчно).",
    "A player's games, results and Opendaum-33 rank (разряд); or every player.":
        "Игры игрока, его итоги и разряд опендаума-33; или все игроки.",
    "Stored games, newest first (replay one with: koloda replay ID).":
        "Сохранённые игры, новые первыми (посмотреть игру: koloda replay ID).",
    "Replay a record file or a stored game, checking every move (exit 2 if one fails).\n\n"
    "Every move by the players' names, the result, and whether every action and the "
    "written result hold.":
        "Проиграть запись партии или сохранённую игру, проверяя каждый ход (код 2, если "
        "ход не проходит).\n\nКаждый ход с именами игроков, итог и то, сходятся ли все "
        "ходы и записанный итог.",
    "Measure bots against each other on the same deals, seats rotated: win, draw and the "
    "game's own rates with 95% intervals, and with two bots their paired difference.":
        "Сравнить компьютерных игроков на одних и тех же сдачах, меняя места: доли побед, "
        "ничьих и мера самой игры с 95-процентными интервалами, а для двух игроков — их "
        "разность по парам сдач.",
    "Summarise arena logs together (e.g. one long run split over seed ranges, or a run "
    "stopped by Ctrl-C): only deal-sets played in every rotation count, each (seed, seats) "
    "once.":
        "Свести журналы arena вместе (например, один долгий прогон, разбитый по "
        "семенам, или прогон, остановленный Ctrl-C): считаются только наборы сдач, "
        "сыгранные при всех пересадках, каждая пара (семя, места) один раз.",
    "Throughput of every game through the public API (uniformly random play).":
        "Скорость каждой игры через открытый API (случайные ходы).",
    "Play in the browser: open http://HOST:PORT/ and create a table.":
        "Играть в браузере: откройте http://HOST:PORT/ и создайте стол.",
    "The rating list of GAME: OpenSkill (Plackett–Luce) mu with mu ± 2 sigma.":
        "Рейтинг компьютерных игроков в GAME: OpenSkill (Плакетт–Льюс), mu и mu ± 2 "
        "sigma.",
    # options and arguments
    "Show this message and exit.": "Показать эту справку и выйти.",
    "machine-readable": "для программ (JSON)",
    "language (default: from the locale)": "язык (по умолчанию — из настроек системы)",
    "game name (koloda games lists them)": "название игры (список: koloda games)",
    "number of players": "число игроков",
    "matches to play": "сколько партий сыграть",
    "first seed; match i uses seed+i": "первое семя; партия i играется с семенем seed+i",
    "comma-separated, one per seat or one for all":
        "через запятую, по одному на место или один на всех",
    "write every record into DIR": "записать каждую партию в папку DIR",
    "worker processes": "рабочих процессов",
    "a game option (koloda games lists them)": "параметр игры (список: koloda games)",
    "print the summary as JSON": "вывести итог в JSON",
    "game name; omit for the start screen": "название игры; без него — экран выбора",
    "variant of the game": "вариант игры",
    "your seat (0-based)": "ваше место (с 0)",
    "computer players for the other seats: one for all or comma-separated (random, "
    "heuristic, search:easy|normal|hard …); default: heuristic where the game has one, "
    "else random":
        "компьютерные игроки на остальных местах: один на всех или через запятую "
        "(random — случайный, heuristic — по правилам опыта, search:easy|normal|hard — "
        "перебор …); по умолчанию heuristic, где он есть, иначе random",
    "deal seed": "семя сдачи",
    "continue a saved game": "продолжить сохранённую игру",
    "line mode instead of the TUI": "построчный режим вместо полноэкранного",
    "your player name (profile, ranks)": "ваше имя игрока (профиль, разряды)",
    "database URL of the store (default: SQLite in the data directory)":
        "адрес базы хранилища (по умолчанию SQLite в папке данных)",
    "database URL (default: SQLite in the data directory)":
        "адрес базы (по умолчанию SQLite в папке данных)",
    "do not keep the game in the store": "не сохранять игру в хранилище",
    "seconds between computer moves in the TUI":
        "секунд между ходами компьютера на полном экране",
    "a player's name; omit for everyone": "имя игрока; без него — все игроки",
    "only games of this player": "только игры этого игрока",
    "only games of this kind": "только игры этого вида",
    "how many, newest first": "сколько, новые первыми",
    "a record file, or the id of a stored game":
        "файл записи партии или номер сохранённой игры",
    "print the replay object": "вывести проверку в JSON",
    "address to listen on": "адрес, на котором слушать",
    "port to listen on": "порт, на котором слушать",
    "SQLAlchemy database URL (default: the store's SQLite file, or $KOLODA_DB); "
    "postgresql://… for many servers":
        "адрес базы SQLAlchemy (по умолчанию файл SQLite хранилища или $KOLODA_DB); "
        "postgresql://… для нескольких серверов",
    "redis://… : one of many servers on one PostgreSQL (--db) and this Redis, behind one "
    "address":
        "redis://… : один из нескольких серверов на одной PostgreSQL (--db) и этом Redis "
        "за одним адресом",
    "share the port with other servers on this machine (SO_REUSEPORT: the kernel spreads "
    "connections over them)":
        "делить порт с другими серверами на этой машине (SO_REUSEPORT: ядро распределяет "
        "соединения между ними)",
    "processes computer players think in (0: threads)":
        "процессов, в которых думают компьютерные игроки (0 — потоки)",
    "least seconds a computer move takes, so people can follow it":
        "не меньше скольких секунд длится ход компьютера, чтобы люди успевали следить",
    "uvicorn log level": "уровень журнала uvicorn",
    "addresses of the proxies whose X-Forwarded-For/-Proto are believed "
    "(comma-separated, * for any)":
        "адреса прокси, чьим X-Forwarded-For/-Proto верят (через запятую, * — любым)",
    "the address people open, behind a proxy (https://cards.example): the origin the "
    "sign-in and websocket checks expect, whatever Host the proxy sends":
        "адрес, который открывают люди, за прокси (https://cards.example): этот origin "
        "ждут проверки входа и websocket, какой бы Host ни прислал прокси",
    "the path prefix people open the server under, behind a proxy that strips it "
    "(/koloda for https://cards.example/koloda/): every page, link, cookie and "
    "websocket the server makes starts with it":
        "префикс пути, под которым сервер открывают люди, за прокси, который его "
        "снимает (/koloda для https://cards.example/koloda/): с него начинается каждая "
        "страница, ссылка, cookie и websocket сервера",
    "comma-separated bots, e.g. search,heuristic":
        "компьютерные игроки через запятую, например search,heuristic",
    "deal-sets (each played in every rotation)": "наборов сдач (каждый при всех пересадках)",
    "first seed; deal-set k uses seed+k": "первое семя; набор k играется с семенем seed+k",
    "deal (single deals) or match": "deal (отдельные сдачи) или match (партии)",
    "name=value": "имя=значение",
    "JSONL log, one line a game (no wall clock: the same seed gives the same lines); a "
    "stopped run keeps every finished game":
        "журнал JSONL, строка на игру (без времени по часам: то же семя даёт те же "
        "строки); остановленный прогон сохраняет каждую доигранную игру",
    "ru or en": "ru или en",
    "JSONL log, one line a game (no wall clock: the same seed gives the same lines)":
        "журнал JSONL, строка на игру (без времени: одно семя — одни и те же строки)",
    "JSONL file of each game's move times (seconds, per seat)":
        "файл JSONL с временем ходов каждой игры (секунды, по местам)",
    "run the deal-sets as Ray tasks: a cluster ADDRESS, 'auto' (a running cluster, else a "
    "local one) or 'local' (a local one of -j CPUs)":
        "играть наборы сдач задачами Ray: АДРЕС кластера, 'auto' (запущенный кластер, "
        "иначе местный) или 'local' (местный на -j процессорах)",
    "JSONL logs written by koloda arena": "журналы JSONL, записанные koloda arena",
    "timings files written by koloda arena --timings (for the move times)":
        "файлы времени, записанные koloda arena --timings (время ходов)",
    "single deals per game": "отдельных сдач на игру",
    "whole matches per game": "целых партий на игру",
    "first seed": "первое семя",
    "only these games": "только эти игры",
    "a few seconds: checks it works": "несколько секунд: проверить, что работает",
    "the side-by-side run with OpenSpiel": "прогон рядом с OpenSpiel",
    "hands per round of the side-by-side run": "раздач за круг прогона рядом с OpenSpiel",
    "rounds of the side-by-side run": "кругов прогона рядом с OpenSpiel",
    "the batched simulator (numpy) beside OpenSpiel's C++ loop":
        "пакетный симулятор (numpy) рядом с циклом OpenSpiel на C++",
    "only the batched run": "только пакетный прогон",
    "hands per round of the batched run": "раздач за круг пакетного прогона",
    "also: PettingZoo and OpenSpiel beside the raw engine, this many episodes per side and "
    "round (koloda.envs.speed; 0 = skip)":
        "ещё PettingZoo и OpenSpiel рядом с самим движком, столько эпизодов на сторону и "
        "круг (koloda.envs.speed; 0 — пропустить)",
    "with --adapters: only these shapes, comma-separated (durak, opendaum-8, opendaum-match, "
    "mushka, dreyfus, kopilka, stukolka, trinka); all when empty":
        "с --adapters: только эти формы, через запятую (durak, opendaum-8, opendaum-match, "
        "mushka, dreyfus, kopilka, stukolka, trinka); пусто — все",
    "arena logs (JSONL) to rate; repeat for several":
        "журналы arena (JSONL) для рейтинга; можно несколько раз",
    "run a round-robin: every pair of bots on this many deal-sets":
        "сыграть круговой турнир: каждая пара игроков на стольких наборах сдач",
    "first seed of the round-robin": "первое семя кругового турнира",
    "comma-separated bots of the round-robin (default: random, heuristic, every search "
    "level, openspiel-ismcts)":
        "игроки кругового турнира через запятую (по умолчанию random, heuristic, каждый "
        "уровень search, openspiel-ismcts)",
    "OpenSpiel ISMCTS simulations a move in the default bots":
        "симуляций OpenSpiel ISMCTS на ход у игроков по умолчанию",
    "write each pair's arena log here (PAIR.jsonl), to rate again later":
        "записать сюда журнал каждой пары (PAIR.jsonl), чтобы потом пересчитать",
    "print the list as JSON": "вывести список в JSON",
}

#: Typer's headings and marks in its help pages (typer.rich_utils), in Russian
HEADINGS: dict[str, str] = {
    "ARGUMENTS_PANEL_TITLE": "Аргументы",
    "OPTIONS_PANEL_TITLE": "Параметры",
    "COMMANDS_PANEL_TITLE": "Команды",
    "DEFAULT_STRING": "[по умолчанию: {}]",
    "REQUIRED_LONG_STRING": "[обязательно]",
}


def said(text: str | None) -> str | None:
    """``text`` in Russian where the table has it."""
    if text is None:
        return None
    return RU.get(text, RU.get(" ".join(text.split()), text))


def _translate_help_option(command: Any) -> None:
    """The ``--help`` option is made when a help page is drawn: translate it then."""
    original = command.get_help_option

    def get_help_option(ctx: Any) -> Any:
        option = original(ctx)
        if option is not None:
            option.help = said(option.help)
        return option
    command.get_help_option = get_help_option


def _translate(command: Any) -> None:
    command.help = said(command.help)
    if getattr(command, "short_help", None):
        command.short_help = said(command.short_help)
    for param in getattr(command, "params", []):
        if getattr(param, "help", None):
            param.help = said(param.help)
    _translate_help_option(command)
    for sub in getattr(command, "commands", {}).values():
        _translate(sub)


@contextmanager
def russian_help(group: Any) -> Iterator[None]:
    """While the command line runs, its help pages read in Russian."""
    rich_utils: Any = None
    with suppress(ImportError):     # (Typer without rich: only the texts)
        from typer import rich_utils
    kept = {k: getattr(rich_utils, k) for k in HEADINGS if hasattr(rich_utils, k)}
    _translate(group)
    for key in kept:
        setattr(rich_utils, key, HEADINGS[key])
    try:
        yield
    finally:
        for key, value in kept.items():
            setattr(rich_utils, key, value)
