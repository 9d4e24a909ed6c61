"""What one server allows: tables, connections, messages and sizes, per server and per
client (address); and the web server's own answers in both languages.

Every limit is a field of :class:`Limits` (``create_app(limits=…)``, ``koloda serve
--max-tables`` and the like). A client over a limit is told which limit, in English and
in Russian, and nothing changes.
"""

from __future__ import annotations

import logging
import math
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from koloda.engine.messages import Value


@dataclass(frozen=True)
class Limits:
    #: tables in play on the server (finished and abandoned ones do not count)
    max_tables: int = 5000
    #: tables in play created by one client address (and by one account); with
    #: ``--redis`` counted over every server together
    tables_per_client: int = 20
    #: tables one address may create per minute (a sliding window of a minute; with
    #: ``--redis`` counted by every server together, and kept across restarts)
    creations_per_minute: float = 20.0
    #: seconds without an accepted action after which a table in play is abandoned
    #: (stored as such, never played or reloaded again)
    idle_timeout: float = 1800.0
    #: websockets open at once from one address (and by one account); with ``--redis``
    #: counted over every server together
    connections_per_client: int = 64
    #: messages per second one address may send over all its websockets (a sliding
    #: window of a second; with ``--redis`` over every server together); a connection
    #: far over it is closed
    messages_per_second: float = 30.0
    #: bytes of one HTTP request body
    max_body: int = 64 * 1024
    #: options of one table, and the characters of an option's name / a text value
    max_options: int = 40
    max_option_name: int = 40
    max_option_text: int = 200
    #: tables on one lobby page (``GET /api/tables?limit=``) by default, and at most
    lobby_page: int = 100
    lobby_page_max: int = 500

    @classmethod
    def unlimited(cls) -> Limits:
        """For load benchmarks on loopback: no per-client limit worth the name."""
        big = 10**9
        return cls(tables_per_client=big, creations_per_minute=float(big),
                   connections_per_client=big, messages_per_second=float(big))


# ------------------------------------------------------------------------- texts
#: the web server's own answers that are not the engine's (en, ru)
TEXTS: dict[str, tuple[str, str]] = {
    "too_many_tables": (
        "you have {n} tables in play, the most one address may have; finish or leave one "
        "first",
        "у вас уже {n} столов в игре — больше с одного адреса нельзя; сначала доиграйте "
        "или оставьте один"),
    "creating_too_fast": (
        "too many tables created from your address; try again in {s} s",
        "с вашего адреса создано слишком много столов; попробуйте через {s} с"),
    "too_many_connections": (
        "too many connections from your address (at most {n})",
        "слишком много соединений с вашего адреса (не больше {n})"),
    "no_hint_here": (
        "no hints at this table: they are given where every other seat is a computer",
        "за этим столом подсказок нет: они бывают, когда все остальные места — компьютеры"),
    "hint_busy": (
        "a hint is being thought about already; wait for it",
        "подсказка уже обдумывается — подождите"),
    "hint_failed": (
        "no hint now: the computer players are busy; try again in a moment",
        "подсказки сейчас нет: компьютеры заняты; попробуйте чуть позже"),
    "no_takeback_here": (
        "no takebacks at this table: they are allowed where every other seat is a computer",
        "за этим столом ходы не возвращают: это можно, когда все остальные места — "
        "компьютеры"),
    "nothing_to_take_back": (
        "nothing to take back: you have not moved in this deal yet",
        "возвращать нечего: в этой сдаче вы ещё не ходили"),
    "seat_given_up": (
        "your seat was given up (away too often): the computer plays it to the end",
        "ваше место отдано (вы слишком часто отсутствовали): компьютер доиграет за вас"),
    "chat_empty": ("chat: say something (an empty line is not sent)",
                   "чат: напишите что-нибудь (пустая строка не отправляется)"),
    "chat_too_long": ("chat: a line is at most {n} characters",
                      "чат: не больше {n} символов в строке"),
    "chat_bad_char": ("chat: {what} (U+{code:04X}, character {pos}) may not be in a line",
                      "чат: {what} (U+{code:04X}, символ {pos}) в сообщении недопустим"),
    "chat_too_fast": ("chat: too many lines; wait {s} s",
                      "чат: слишком много сообщений; подождите {s} с"),
    "chat_seats_only": ("chat: only the players at the table talk; watchers read",
                        "чат: пишут только игроки за столом, зрители читают"),
    "private_flag": ("settings: private is true or false",
                     "настройки: private — true или false"),
    "rematch_not_over": ("a rematch is asked for once the match is over",
                         "реванш можно предложить, когда партия окончена"),
    "spectators_setting": ("settings: spectators is one of {kinds}",
                           "настройки: spectators — одно из: {kinds}"),
    "rate_limited": (
        "too many messages: at most {n} a second; this one was not read",
        "слишком много сообщений: не больше {n} в секунду; это не прочитано"),
    "body_too_large": (
        "request body too large: at most {n} bytes",
        "запрос слишком большой: не больше {n} байт"),
    "options_not_object": (
        "options: an object of option names and values",
        "options: объект «имя параметра → значение»"),
    "too_many_options": (
        "options: at most {n} options",
        "options: не больше {n} параметров"),
    "option_name_long": (
        "options: an option name is at most {n} characters (one has {given})",
        "options: имя параметра — не длиннее {n} символов (одно — {given})"),
    "option_value_long": (
        "options.{name}: a text value is at most {n} characters",
        "options.{name}: текст — не длиннее {n} символов"),
    "option_value_kind": (
        "options.{name}: a number, a word, true/false, or a short list of them",
        "options.{name}: число, слово, true/false или короткий список из них"),
    "name_bad_char": (
        "name: {what} (U+{code:04X}, character {pos}) may not be in a name",
        "имя: {what} (U+{code:04X}, символ {pos}) в имени недопустим"),
    "abandoned": (
        "this table was abandoned: no move for {m} minutes; it is kept, no longer played",
        "стол оставлен: {m} мин. без хода; он сохранён, но игра окончена"),
    "overloaded": (
        "the server is overloaded: a computer played a random legal move at {seat}",
        "сервер перегружен: компьютер на месте {seat} сыграл случайный допустимый ход"),
}

#: what a refused character is, per language
CHAR_KINDS = {
    "control": ("a control character", "управляющий символ"),
    "nul": ("NUL", "символ NUL"),
    "invisible": ("an invisible (zero-width) character", "невидимый символ нулевой ширины"),
    "bidi": ("a text-direction override", "символ смены направления текста"),
    "separator": ("a line separator", "разделитель строк"),
    "private": ("a private-use or unassigned character",
                "символ частного использования или неназначенный"),
}


class Said(str):
    """One of :data:`TEXTS`: the English sentence as text, ``render("ru")`` for Russian
    (the same contract as the engine's refusals)."""

    key: str
    args: dict[str, Any]

    def __new__(cls, key: str, /, **args: Any) -> Said:
        self = super().__new__(cls, _fill(TEXTS[key][0], args, 0))
        self.key, self.args = key, args
        return self

    def render(self, lang: str = "en") -> str:
        return _fill(TEXTS[self.key][1], self.args, 1) if lang == "ru" else str(self)

    def to_json(self) -> dict[str, str]:
        return {"en": str(self), "ru": self.render("ru")}


def _fill(template: str, args: dict[str, Any], lang: int) -> str:
    """``template`` with ``args``: a pair gives its side, a value a person gave
    (:class:`~koloda.engine.messages.Value`) reads as that language quotes it."""
    out = {k: (v[lang] if isinstance(v, tuple)
               else v.render("ru" if lang else "en") if isinstance(v, Value) else v)
           for k, v in args.items()}
    return template.format(**out)


# -------------------------------------------------------------------------- names
_BIDI = frozenset(range(0x202A, 0x202F)) | frozenset(range(0x2066, 0x206A)) \
    | {0x200E, 0x200F, 0x061C}


def bad_name_char(name: str) -> Said | None:
    """Why ``name`` (already NFC) cannot be a name: the first character that is a
    control, NUL, zero-width, direction override, separator or private-use one."""
    for pos, ch in enumerate(name, 1):
        code = ord(ch)
        cat = unicodedata.category(ch)
        kind = None
        if code == 0:
            kind = "nul"
        elif code in _BIDI:
            kind = "bidi"
        elif cat == "Cc":
            kind = "control"
        elif cat == "Cf":
            kind = "invisible"
        elif cat in ("Zl", "Zp"):
            kind = "separator"
        elif cat in ("Co", "Cn", "Cs"):
            kind = "private"
        if kind is not None:
            return Said("name_bad_char", what=CHAR_KINDS[kind], code=code, pos=pos)
    return None


# -------------------------------------------------------------------- rate limits
log = logging.getLogger("koloda.web")

#: a rate this high is no limit (``Limits.unlimited``): not counted at all
NO_LIMIT = 1e6
#: the prefix of the rate limits' keys in Redis
RATE_PREFIX = "koloda:limits"


class Rates:
    """The rates of :class:`Limits` — tables made a minute, messages a second — per client
    key (an address, an account), counted by the ``limits`` library's sliding window
    counter. With ``redis_url`` (the servers of one cluster) the counts are Redis keys
    that expire by Redis's own clock: every server counts against one budget, and a
    restarted server finds what was spent. Without (one server on SQLite), the library's
    in-process memory. Redis out of reach lets a message through (logged), never stops
    play."""

    def __init__(self, limits: Limits, redis_url: str | None = None) -> None:
        from limits.aio.storage import MemoryStorage, RedisStorage, Storage
        from limits.aio.strategies import SlidingWindowCounterRateLimiter
        self.shared = redis_url is not None
        storage: Storage
        if redis_url is not None:
            # redis-py's asyncio client (the cluster extra's), not coredis
            storage = RedisStorage(f"async+{redis_url}", implementation="redispy",
                                   key_prefix=RATE_PREFIX)
        else:
            storage = MemoryStorage()
        self.storage = storage
        self.limiter = SlidingWindowCounterRateLimiter(storage)
        self.creations = _item(limits.creations_per_minute / 60.0, 60)
        self.messages = _item(limits.messages_per_second, 1)
        self._complained = 0.0

    async def creation(self, key: str) -> float:
        """Count a table made by ``key``: 0 if allowed, else the seconds to wait."""
        return await self._hit(self.creations, "create", key)

    async def message(self, key: str) -> float:
        """Count a websocket message from ``key``: 0 if allowed, else seconds to wait."""
        return await self._hit(self.messages, "msg", key)

    async def _hit(self, item: Any, kind: str, key: str) -> float:
        if item is None:
            return 0.0
        try:
            if await self.limiter.hit(item, kind, key or "?"):
                return 0.0
            stats = await self.limiter.get_window_stats(item, kind, key or "?")
        except Exception as exc:       # Redis away: not a reason to stop every game
            now = time.monotonic()
            if now - self._complained > 10:
                self._complained = now
                log.error("rate limits not counted (%s); let through meanwhile", exc)
            return 0.0
        # the window's next free place (Redis's TTLs, as seconds from now), at least a
        # moment: what the refusal tells the client to wait before sending it again
        return max(0.05, min(float(item.get_expiry()), stats.reset_time - time.time()))

    async def close(self) -> None:
        bridge = getattr(self.storage, "bridge", None)
        client = getattr(bridge, "storage", None)
        if client is not None:
            try:
                await client.aclose()
            except Exception as exc:  # pragma: no cover - closing a dead connection
                log.debug("rate limits' Redis not closed: %s", exc)


def _item(per_second: float, window: int) -> Any:
    """``per_second`` as a ``limits`` item: so many in ``window`` seconds (a rate under one
    per window: one per as many seconds as it takes); None for no limit."""
    from limits import RateLimitItemPerSecond
    if per_second >= NO_LIMIT:
        return None
    if per_second <= 0:
        return RateLimitItemPerSecond(0, window)
    if per_second * window >= 1:
        return RateLimitItemPerSecond(max(1, round(per_second * window)), window)
    return RateLimitItemPerSecond(1, math.ceil(1 / per_second))


class Bucket:
    """A token bucket: ``rate`` a second, up to ``burst`` at once (one process's: the
    sign-in attempts')."""

    __slots__ = ("burst", "rate", "tokens", "when")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.when = time.monotonic()

    def take(self, n: float = 1.0) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.when) * self.rate)
        self.when = now
        if self.tokens >= n:
            self.tokens -= n
            return True
        return False

    def wait(self, n: float = 1.0) -> float:
        """Seconds until ``n`` tokens are there."""
        return max(0.0, (n - self.tokens) / self.rate) if self.rate > 0 else float("inf")

    @property
    def full(self) -> bool:
        return self.tokens + (time.monotonic() - self.when) * self.rate >= self.burst


class Buckets:
    """A bucket per client address, forgotten once full again (so the dict stays small)."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self._by: dict[str, Bucket] = {}

    def take(self, client: str | None, n: float = 1.0) -> bool:
        return self.get(client).take(n)

    def get(self, client: str | None) -> Bucket:
        key = client or "?"
        b = self._by.get(key)
        if b is None:
            if len(self._by) > 10000:
                self.prune()
            b = self._by[key] = Bucket(self.rate, self.burst)
        return b

    def prune(self) -> None:
        for key in [k for k, b in self._by.items() if b.full]:
            del self._by[key]
