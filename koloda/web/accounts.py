"""Accounts in the browser: a registered name and its password, sessions, and what they
guard.

- A password is kept only as its argon2id hash (``argon2-cffi``; rehashed on sign-in when
  the parameters change), checked for length, for being the name itself and for being one
  of the commonest passwords.
- A session is a random token in an HttpOnly, SameSite=Lax cookie (Secure over https);
  the database keeps its sha256 only (``web_sessions``, beside the store's tables, so every
  server process behind one address knows every session), with its CSRF token.
- CSRF (the synchronizer-token pattern): a state-changing request that carries a session
  cookie must send that session's token in ``X-CSRF-Token`` (the page gets it from
  ``GET /api/me``, which another site cannot read); and any state-changing request whose
  ``Origin`` (or ``Sec-Fetch-Site``) says it came from another site is refused.
- Names are taken as :mod:`koloda.web.names` says (PRECIS UsernameCaseMapped by
  userparts) and compared as :func:`koloda.store.name_key` says (NFC, case folded) and by
  their confusables skeleton: a registered name, or one that looks like it, is no guest's
  and no other account's.
- Sign-in cannot be used against a name's owner. Failures are counted per (name, address)
  pair and per address, in the database (``web_signin_failures``, so every server sees
  them and a restart forgets nothing; rows a day old are dropped), and answered by
  exponential backoff, never by a lockout: after :data:`FREE_PAIR` failures of a pair, that
  address waits 1 s, 2 s, 4 s … (at most :data:`MAX_WAIT`) before it may try that name
  again; after :data:`FREE_ADDRESS` failures of an address (any names), the address waits
  alike. An address that never failed for a name is never refused the right password for
  it by anyone else's failures; a sign-in that works forgets its pair's failures. A
  refusal is 429 with ``Retry-After``. Attempts (sign-ins and registrations) are also
  rate-limited per address in the process (a burst, then a rate). A failed sign-in says
  the same (status and text) for an unknown name and a wrong password, after the same
  argon2 check (an unknown name's against a dummy hash), and counts the same; registering
  still says a name is taken.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import DateTime, Integer, String, case, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker

from koloda.store import AccountInfo, NameTaken, Store, name_key
from koloda.store.store import schema_lock
from koloda.web import limits
from koloda.web.limits import Buckets, Said
from koloda.web.names import check_name as _check_name
from koloda.web.tables import TableError

#: the session cookie's name, and the header that carries the session's CSRF token
COOKIE = "koloda_session"
CSRF_HEADER = "x-csrf-token"
SESSION_DAYS = 30
#: failed sign-ins of one (name, address) pair, and of one address, before backoff starts
FREE_PAIR = 3
FREE_ADDRESS = 20
#: the longest backoff (seconds), and how long a failure is remembered
MAX_WAIT = 15 * 60.0
FORGET_AFTER = timedelta(days=1)
MIN_PASSWORD = 8
MAX_PASSWORD = 1024
#: the commonest passwords of at least MIN_PASSWORD characters (and their like)
COMMON_PASSWORDS = frozenset({
    "password", "password1", "password123", "12345678", "123456789", "1234567890",
    "87654321", "11111111", "00000000", "qwertyui", "qwerty123", "qwertyuiop", "1q2w3e4r",
    "1q2w3e4r5t", "zaq12wsx", "iloveyou", "sunshine", "princess", "football", "baseball",
    "welcome1", "abc12345", "abcd1234", "asdfghjk", "asdfghjkl", "letmein1", "trustno1",
    "passw0rd", "superman", "dragon12", "monkey12", "йцукенгш", "пароль123", "qwerty12",
    "koloda123", "kolodakoloda",
})

#: the server's answers about accounts (en, ru), beside the other answers of koloda.web
AUTH_TEXTS: dict[str, tuple[str, str]] = {
    "account_name_held": (
        "the name {name} belongs to a registered player: sign in, or play under another "
        "name",
        "имя {name} принадлежит зарегистрированному игроку: войдите или играйте под "
        "другим именем"),
    "name_taken": (
        "the name {name} is already registered; choose another",
        "имя {name} уже зарегистрировано; выберите другое"),
    "password_short": (
        "the password is too short: at least {n} characters",
        "пароль слишком короткий: нужно не меньше {n} символов"),
    "password_long": (
        "the password is too long: at most {n} characters",
        "пароль слишком длинный: не больше {n} символов"),
    "password_is_name": (
        "the password may not be your name",
        "пароль не может совпадать с именем"),
    "password_common": (
        "this password is too easy to guess (one of the commonest, or one character "
        "repeated); choose another",
        "этот пароль слишком легко угадать (один из самых частых или один символ много "
        "раз); выберите другой"),
    "bad_sign_in": (
        "wrong name or password",
        "неверное имя или пароль"),
    "sign_in_too_fast": (
        "too many sign-in attempts; try again in {s} s",
        "слишком много попыток входа; попробуйте через {s} с"),
    "cross_site": (
        "refused: this request came from another site",
        "отказано: запрос пришёл с другого сайта"),
    "csrf_missing": (
        "refused: the page's security token (X-CSRF-Token) is missing or wrong; reload "
        "the page",
        "отказано: нет ключа защиты страницы (X-CSRF-Token) или он неверен; обновите "
        "страницу"),
    "not_signed_in": (
        "you are not signed in",
        "вы не вошли"),
}
limits.TEXTS.update(AUTH_TEXTS)


class AuthError(TableError):
    """An account request that cannot be done: the same answer as every refusal of the
    server (``error`` and ``error_ru``), with its HTTP status."""


class SessionBase(DeclarativeBase):
    """The sessions' table, beside the store's in the same database."""


class SessionRow(SessionBase):
    __tablename__ = "web_sessions"

    #: sha256 of the cookie's token (the token itself is never stored)
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(DateTime)
    expires: Mapped[datetime] = mapped_column(DateTime, index=True)


class FailureRow(SessionBase):
    """Failed sign-ins of one (name, address) pair or of one address: how many, and until
    when that pair (or address) waits before it may try again."""

    __tablename__ = "web_signin_failures"

    #: sha256 of ``pair:<name key>\0<address>`` or ``address:<address>``
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer)
    last: Mapped[datetime] = mapped_column(DateTime, index=True)
    wait_until: Mapped[datetime] = mapped_column(DateTime)


def backoff(failures: int, free: int) -> float:
    """Seconds to wait after ``failures`` failures of which ``free`` cost nothing: 0, then
    1, 2, 4 … up to :data:`MAX_WAIT`."""
    if failures < free:
        return 0.0
    return min(MAX_WAIT, 2.0 ** min(failures - free, 30))


def _pair_key(name: str, client: str) -> str:
    return hashlib.sha256(f"pair:{name_key(name)}\0{client}".encode()).hexdigest()


def _address_key(client: str) -> str:
    return hashlib.sha256(f"address:{client}".encode()).hexdigest()


@dataclass(frozen=True)
class SignedIn:
    """A valid session: whose, and the CSRF token its requests must carry."""

    account: AccountInfo
    csrf: str
    token_hash: str


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def password_problem(password: str, name: str) -> Said | None:
    """Why ``password`` will not do for ``name`` (None: it will)."""
    if len(password) < MIN_PASSWORD:
        return Said("password_short", n=MIN_PASSWORD)
    if len(password) > MAX_PASSWORD:
        return Said("password_long", n=MAX_PASSWORD)
    folded = name_key(password)
    if folded == name_key(name) or folded.replace(" ", "") == name_key(name).replace(" ", ""):
        return Said("password_is_name")
    if folded in COMMON_PASSWORDS or len(set(folded)) <= 2:
        return Said("password_common")
    return None


class Accounts:
    """Registering, signing in and out, and reading a session, on the database at
    ``db_url`` (the store's accounts, the web's sessions). Blocking: the routes call it in
    a thread."""

    def __init__(self, db_url: str, hasher: PasswordHasher | None = None,
                 session_days: float = SESSION_DAYS,
                 attempts_per_minute: float = 10.0) -> None:
        self.store = Store(db_url)
        with schema_lock(self.store.engine):   # other servers may be making it now
            SessionBase.metadata.create_all(self.store.engine)
        self._sessions = sessionmaker(self.store.engine, expire_on_commit=False)
        self.hasher = hasher or PasswordHasher()
        self.session_days = session_days
        #: sign-in and registration attempts per address (a burst, then that rate)
        self.by_address = Buckets(attempts_per_minute / 60.0, attempts_per_minute)
        self._dummy: str | None = None

    def close(self) -> None:
        self.store.close()

    # ------------------------------------------------------------- limits
    def attempt(self, client: str | None) -> None:
        """Count one sign-in or registration attempt from ``client``; raise 429 when the
        address is over its rate (a flood guard: only the address's own attempts count)."""
        bucket = self.by_address.get(client)
        if not bucket.take():
            raise _too_fast(bucket.wait())

    def _waits(self, s: Any, keys: list[str], now: datetime) -> float:
        rows = s.scalars(select(FailureRow).where(FailureRow.key.in_(keys))).all()
        return max([(r.wait_until - now).total_seconds() for r in rows
                    if r.last > now - FORGET_AFTER] + [0.0])

    def check_backoff(self, name: str, client: str) -> None:
        """Raise 429 while this (name, address) pair, or this address, waits out its
        backoff. Nobody else's failures count here."""
        now = _now()
        with self._sessions() as s:
            wait = self._waits(s, [_pair_key(name, client), _address_key(client)], now)
        if wait > 0:
            raise _too_fast(wait)

    def failed(self, name: str, client: str) -> None:
        """One more failed sign-in of (name, address) and of the address: their backoffs
        grow. Rows older than :data:`FORGET_AFTER` are dropped meanwhile."""
        now = _now()
        with self._sessions() as s, s.begin():
            for key, free in ((_pair_key(name, client), FREE_PAIR),
                              (_address_key(client), FREE_ADDRESS)):
                self._count(s, key, free, now)
            s.execute(delete(FailureRow).where(FailureRow.last < now - FORGET_AFTER))

    @staticmethod
    def _count(s: Any, key: str, free: int, now: datetime) -> None:
        """Add one failure to ``key``'s row: one UPDATE adds it (servers may count at
        once; on PostgreSQL it also holds the row until the transaction ends), then the
        wait follows from the count."""
        bump = update(FailureRow).where(FailureRow.key == key).values(
            failures=case((FailureRow.last < now - FORGET_AFTER, 1),
                          else_=FailureRow.failures + 1), last=now)
        if s.execute(bump).rowcount == 0:
            try:
                with s.begin_nested():
                    s.add(FailureRow(key=key, failures=1, last=now,
                                     wait_until=now + timedelta(seconds=backoff(1, free))))
                return
            except IntegrityError:       # another server made it meanwhile
                s.execute(bump)
        failures = s.scalar(select(FailureRow.failures).where(FailureRow.key == key))
        s.execute(update(FailureRow).where(FailureRow.key == key).values(
            wait_until=now + timedelta(seconds=backoff(failures or 1, free))))

    def forget_failures(self, name: str, client: str) -> None:
        """A sign-in that worked forgets its pair's failures (the address's stay)."""
        with self._sessions() as s, s.begin():
            s.execute(delete(FailureRow).where(FailureRow.key == _pair_key(name, client)))

    # ------------------------------------------------------------ accounts
    def register(self, name: str, password: str) -> tuple[AccountInfo, str]:
        """A new account and a session for it: ``(account, cookie token)``."""
        name = check_name(name)
        problem = password_problem(password, name)
        if problem is not None:
            raise AuthError(problem, 400)
        digest = self.hasher.hash(password)
        try:
            account = self.store.add_account(name, digest)
        except NameTaken as taken:
            if taken.like is not None:
                raise AuthError("name_looks_taken", 409, name=name, like=taken.like) from None
            raise AuthError("name_taken", 409, name=name) from None
        return account, self.open_session(account.id)

    def login(self, name: str, password: str, client: str = "?"
              ) -> tuple[AccountInfo, str]:
        """Check the password (after this pair's and address's backoff, counting a
        failure); ``(account, cookie token)`` of a new session."""
        self.check_backoff(name, client)
        try:
            found = self._verify(name, password)
        except AuthError:
            self.failed(name, client)
            raise
        self.forget_failures(name, client)
        account, digest = found
        if self.hasher.check_needs_rehash(digest):
            self.store.set_password_hash(account.id, self.hasher.hash(password))
        return account, self.open_session(account.id)

    def _verify(self, name: str, password: str) -> tuple[AccountInfo, str]:
        """The account and its hash if ``password`` is its password; else the one
        answer for an unknown name and a wrong password."""
        found = self.store.credentials(name)
        if found is None:
            # the same work and the same answer as a wrong password: neither the
            # answer nor its time tells whether the name is registered
            with contextlib.suppress(VerificationError, InvalidHashError):
                self.hasher.verify(self._dummy_hash(), password)
            raise AuthError("bad_sign_in", 401)
        digest = found[1]
        try:
            self.hasher.verify(digest, password)
        except (VerificationError, InvalidHashError):
            raise AuthError("bad_sign_in", 401) from None
        return found

    def _dummy_hash(self) -> str:
        """A hash of a random password with this hasher's parameters (made once): what
        an unknown name's sign-in checks its password against."""
        if self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        return self._dummy

    def account_like(self, name: str) -> str | None:
        """The registered name ``name`` is or looks like (None: no account's)."""
        return self.store.account_like(name)

    # ------------------------------------------------------------ sessions
    def open_session(self, account_id: int) -> str:
        token = secrets.token_urlsafe(32)
        now = _now()
        with self._sessions() as s, s.begin():
            s.add(SessionRow(token_hash=_hash_token(token), account_id=account_id,
                             csrf=secrets.token_urlsafe(24), created=now,
                             expires=now + timedelta(days=self.session_days)))
            # a sign-in is a good moment to forget the sessions that ran out
            s.execute(delete(SessionRow).where(SessionRow.expires < now))
        return token

    def session(self, token: str | None) -> SignedIn | None:
        """The session of a cookie's token (None: none, or it ran out or was closed)."""
        if not token or len(token) > 200:
            return None
        digest = _hash_token(token)
        with self._sessions() as s:
            row = s.get(SessionRow, digest)
            if row is None or row.expires < _now():
                return None
            account_id, csrf = row.account_id, row.csrf
        account = self.store.account(account_id)
        return SignedIn(account, csrf, digest) if account is not None else None

    def logout(self, token: str | None) -> None:
        if not token:
            return
        with self._sessions() as s, s.begin():
            s.execute(delete(SessionRow).where(SessionRow.token_hash == _hash_token(token)))


def same_csrf(given: str | None, signed: SignedIn) -> bool:
    """Whether ``given`` (a request's ``X-CSRF-Token``) is the session's token."""
    return bool(given) and hmac.compare_digest(str(given), signed.csrf)


def check_name(name: Any) -> str:
    """A name people may take, as it is shown (:func:`koloda.web.names.check_name`)."""
    return _check_name(name)


def _too_fast(wait: float) -> AuthError:
    err = AuthError("sign_in_too_fast", 429, s=max(1, round(wait)))
    err.retry_after = wait
    return err

