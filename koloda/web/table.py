"""A live table: its seats, its match and log, and what it sends its connections (each
seat's state, and the spectators' frames through one fan-out per table). What the table
may do next is decided by ``koloda.web.tables.TableManager``.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import time
from dataclasses import dataclass, field
from typing import Any

from koloda.bots.hint import hint_bot
from koloda.engine.match import Match
from koloda.engine.records import from_record
from koloda.engine.spec import GameSpec
from koloda.engine.view import View, fields_of
from koloda.web.conn import Conn, dumps, fan_totals
from koloda.web.limits import Said
from koloda.web.views import (
    LogEntry,
    displays,
    guarded,
    hidden_texts,
    log_entry,
    moves_json,
    public_view,
)

#: log entries a state carries (the current deal's latest)
LOG_LENGTH = 60
#: seconds presence changes are gathered into one ``seats`` frame (longer at a crowded
#: table: ``seats`` frames to at most PRESENCE_RATE connections a second, but never
#: more than PRESENCE_MAX seconds late)
PRESENCE_DELAY = 0.1
PRESENCE_RATE = 2000.0
PRESENCE_MAX = 2.0
#: spectators offered a frame at once, the event loop free before the next ones (a table
#: watched by more than this many sends them its frames from its one fan-out task)
FAN_CHUNK = 100
#: sends a second at most to one table's spectators in all, a chunk every FAN_CHUNK /
#: FAN_RATE seconds (a crowd of 1 000 sees at most two states a second, each reaching
#: the last of them half a second after the first; every frame is one send on every
#: connection, ~30 µs of the event loop's CPU here)
FAN_RATE = 2000.0


#: a takeback's text in the table's stored actions: ``takeback N`` undoes the last N
#: actions (no game has a verb of that name)
TAKEBACK = "takeback"


def is_takeback(action: str) -> bool:
    return action.startswith(TAKEBACK + " ")


#: the record's extra key that makes a stored game private: its table's invite hash
PRIVATE_KEY = "invite_sha256"


def token_hash(token: str) -> str:
    """What is kept of a secret handed out (a seat token, an invite key, a ticket)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def invited(digest: Any, invite: Any) -> bool:
    """Whether ``invite`` is the key whose hash is ``digest`` (no digest: open to all)."""
    if digest is None:
        return True
    given = token_hash(invite) if isinstance(invite, str) and 0 < len(invite) <= 100 else ""
    return hmac.compare_digest(given, str(digest))


def _trick_on_table(view: View) -> bool:
    """Whether a view (or a view inside it: Kopilka's trick) shows cards of a trick or a
    round in play: a field of role ``trick`` or ``table`` that is not empty."""
    for f in fields_of(view):
        value = getattr(view, f.name)
        if f.role in ("trick", "table") and value:
            return True
        if f.kind == "view" and isinstance(value, View) and _trick_on_table(value):
            return True
    return False


def fresh_match(game: str, players: int, options: dict[str, Any], seed: int) -> Match:
    """A match as a table starts it: the game's first deal from the seed."""
    return from_record({"format": "koloda-record/1", "game": game, "players": players,
                        "options": options, "seed": seed, "deals": [], "actions": []})


#: times a computer stands in for an away person before the seat is given up for the match
LEAVER_STRIKES = 3


@dataclass
class Seat:
    kind: str                      # "person" or "computer"
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    conns: set[Conn] = field(default_factory=set)
    away_since: float | None = None
    #: the account signed in when the seat was taken (None: a guest)
    account_id: int | None = None
    #: connections at this seat on other servers (server id -> how many)
    remote: dict[str, int] = field(default_factory=dict)
    #: hints shown to this seat, and takebacks it made (the record says how many)
    hints: int = 0
    takebacks: int = 0
    #: times a computer had to stand in for this seat's away person (each time away
    #: counts once); at ``LEAVER_STRIKES`` the seat is given up: a computer plays it to
    #: the end, and its match counts as lost in the ratings
    strikes: int = 0
    left: bool = False
    #: this time away has been counted already
    struck: bool = False

    @property
    def connected(self) -> bool:
        """Someone's page is open at this seat, on this server or another."""
        return bool(self.conns) or any(self.remote.values())

    @property
    def taken(self) -> bool:
        return self.kind == "computer" or self.token_hash is not None

    def record_seat(self, index: int) -> dict[str, Any]:
        if self.kind == "computer":
            return {"name": self.name or f"Computer {index + 1}", "kind": "bot",
                    "bot": self.bot}
        out: dict[str, Any] = {"name": self.name or f"Player {index + 1}", "kind": "human"}
        if self.hints:
            out["hints"] = self.hints
        if self.takebacks:
            out["takebacks"] = self.takebacks
        if self.strikes:
            out["timeouts"] = self.strikes
        if self.left:
            out["left"] = True
        return out


@dataclass
class Table:
    id: str
    spec: GameSpec
    match: Match
    seed: int
    options: dict[str, Any]
    seats: list[Seat]
    settings: dict[str, Any]
    created: float
    finished: bool = False
    #: idle too long: stored as abandoned, no longer played (shown, not listed)
    abandoned: bool = False
    #: when an action was last accepted (or the table made, a seat taken), monotonic
    last_active: float = field(default_factory=time.monotonic)
    #: the address that created it (per-client limits; not stored)
    client: str | None = None
    #: what its creation counts against: the address, and the account signed in if any
    owners: tuple[str, ...] = ()
    #: said with the latest state: a computer had to play a random move (overloaded)
    notice: Said | None = None
    game_id: int | None = None
    store_error: str | None = None
    log: list[LogEntry] = field(default_factory=list)
    conns: set[Conn] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    #: the version ``bot_task`` thinks about, and whether it is storing its move
    bot_version: int = -1
    bot_submitting: bool = False
    finishing: bool = False
    finish_task: asyncio.Task[None] | None = None
    #: when the match was stored (monotonic), to let the table leave memory later
    finished_at: float | None = None
    _cache: dict[int | None, tuple[int, str]] = field(default_factory=dict)
    _hidden: dict[int | None, tuple[int, frozenset[str]]] = field(default_factory=dict)
    #: each viewer's log as it may see it, built once per entry
    _logs: dict[int | None, list[tuple[int, str]]] = field(default_factory=dict)
    #: index in ``log`` of the current deal's first entry
    deal_start: int = 0
    #: connections watching (no seat)
    spectators: int = 0
    #: spectators on other servers (server id -> how many), and when each last said so
    remote_spectators: dict[str, int] = field(default_factory=dict)
    remote_seen: dict[str, float] = field(default_factory=dict)
    #: the version this copy stood at when the database was last seen ahead of it
    lag_mark: int | None = None
    #: a copy left behind on purpose (``koloda.web.sync``: no connection here and
    #: another server's lease): the version the news last said, else None (in step)
    cold_version: int | None = None
    _seats_timer: asyncio.TimerHandle | None = None
    #: what the spectators' fan-out still has to send, the newest frame of each kind
    #: (``"state"``: None, the state as it is then; ``"seats"``)
    _fan: dict[str, str | None] = field(default_factory=dict)
    _fan_task: asyncio.Task[None] | None = None
    #: frames sent to the spectators by the fan-out task (each to all of them)
    fanned: int = 0
    #: versions that are not in the match's history: takebacks and what they undid
    undone: int = 0
    #: a private table's invite key, as made (in memory only, for its creator's answer;
    #: the settings keep its hash)
    invite: str | None = None
    #: the table its rematch is played at
    rematch: str | None = None
    #: the watchers' state at the latest trick start, at a table whose watchers are a
    #: trick behind
    _behind: str | None = None

    @property
    def closed(self) -> bool:
        """No longer played: finished (stored) or abandoned."""
        return self.finished or self.abandoned

    def watching(self) -> int:
        """Spectators on every server."""
        return self.spectators + sum(self.remote_spectators.values())

    def set_remote(self, server: str, counts: list[int], spectators: int,
                   now: float) -> bool:
        """Another server's connections at this table; True if what the table shows
        changed (a seat's person came or left, the spectators' number)."""
        changed = self.remote_spectators.get(server, 0) != spectators
        for seat, n in zip(self.seats, counts, strict=False):
            before = seat.connected
            if n:
                seat.remote[server] = n
            else:
                seat.remote.pop(server, None)
            if seat.connected != before:
                changed = True
                seat.away_since = None if seat.connected else now
        if spectators:
            self.remote_spectators[server] = spectators
        else:
            self.remote_spectators.pop(server, None)
        if any(counts) or spectators:
            self.remote_seen[server] = now
        else:
            self.remote_seen.pop(server, None)
        return changed

    def presence(self) -> list[int]:
        """This server's connections: per seat, then spectators."""
        return [len(s.conns) for s in self.seats] + [self.spectators]

    @property
    def in_play(self) -> bool:
        return not self.finished and not self.abandoned

    @property
    def version(self) -> int:
        """The state version: the number of accepted actions, takebacks and the actions
        they took back included (the rows the database holds for the table: it only
        grows, so two servers can never store two different actions at one version)."""
        return len(self.match.history) + self.undone

    def apply_logged(self, seat: int, action: str) -> str:
        if is_takeback(action):
            self._take_back(seat, int(action.split()[1]))
            return action
        if self.watchers_behind and self.at_trick_start():
            # the last state before a card of the next trick is on the table: what the
            # watchers see until that trick is over
            self._behind = self._live_text(None)
        deal = len(self.match.deals) - 1
        text = self.match.apply(action)
        self.log.append(log_entry(self.match, seat, text, deal))
        if len(self.match.deals) - 1 != deal:
            self.deal_start = len(self.log)
        return text

    def _take_back(self, seat: int, n: int) -> None:
        """Undo the last ``n`` actions: the match is played again from its seed up to
        there (the deals come out the same)."""
        keep = self.match.history[:len(self.match.history) - n]
        undone = self.undone + n + 1
        self._behind = None
        self.match = fresh_match(self.spec.name, self.match.players, self.options, self.seed)
        self.log, self.deal_start = [], 0
        self._cache, self._logs, self._hidden = {}, {}, {}
        self.undone = undone
        for s, text in keep:
            self.apply_logged(s, text)
        self.seats[seat].takebacks += 1

    def takeback_size(self, seat: int) -> int:
        """How many actions a takeback by ``seat`` undoes: its own last action in this
        deal and every action since (0: it has made none in this deal)."""
        history = self.match.history
        for i in range(len(history) - 1, self.deal_start - 1, -1):
            if history[i][0] == seat:
                return len(history) - i
        return 0

    def log_for(self, viewer: int | None) -> list[tuple[int, str]]:
        """The current deal's log as ``viewer`` may see it (its latest entries)."""
        rendered = self._logs.setdefault(viewer, [])
        players = self.match.players
        rendered.extend(e.for_viewer(viewer, players) for e in self.log[len(rendered):])
        return rendered[max(self.deal_start, len(rendered) - LOG_LENGTH):]

    def seats_json(self) -> list[dict[str, Any]]:
        now = time.monotonic()
        timeout = self.settings["away_timeout"]
        out = []
        for i, s in enumerate(self.seats):
            away = s.kind == "person" and s.taken and not s.connected
            out.append({
                "seat": i, "kind": s.kind, "name": s.name, "bot": s.bot, "taken": s.taken,
                "registered": s.account_id is not None,
                "connected": s.connected, "away": away,
                "computer_plays": s.left or (
                    away and self.settings["away_policy"] == "computer"
                    and s.away_since is not None and now - s.away_since >= timeout),
                "timeouts": s.strikes, "left": s.left,
            })
        return out

    def info(self) -> dict[str, Any]:
        """What the lobby and a table page show before any state: public only."""
        m = self.match
        return {
            "id": self.id, "game": self.spec.name, "family": self.spec.family,
            "variant": self.spec.variant,
            "title": {"en": self.spec.title_en, "ru": self.spec.title_ru},
            "players": m.players, "options": self.spec.changed_options(m.players,
                                                                      self.options),
            "settings": {k: v for k, v in self.settings.items() if k != "invite"},
            "private": self.private, "rematch": self.rematch,
            "seats": self.seats_json(),
            "version": self.version if self.cold_version is None else self.cold_version,
            "over": m.is_over, "finished": self.finished, "abandoned": self.abandoned,
            "game_id": self.game_id,
            "spectators": self.watching(),
            "open_seats": [i for i, s in enumerate(self.seats) if not s.taken],
            "hint_bot": self.hint_bot(), "takebacks": self.solo(),
        }

    @property
    def private(self) -> bool:
        """Played by invite: not listed, and found only with its invite key."""
        return "invite" in self.settings

    def admits(self, invite: str | None) -> bool:
        """Whether ``invite`` opens this table (any does, for a public one)."""
        return invited(self.settings.get("invite"), invite)

    def record(self) -> dict[str, Any]:
        """The match's record with the seats' names and kinds; a private table's says
        so (``PRIVATE_KEY``: its invite's hash, which its replay then asks for)."""
        record = self.match.record([s.record_seat(i) for i, s in enumerate(self.seats)])
        if self.private:
            record[PRIVATE_KEY] = self.settings["invite"]
        return record

    def solo(self) -> bool:
        """One person against computers: where hints and takebacks are allowed (against
        people a hint would be a second player, a takeback a changed past)."""
        return sum(1 for s in self.seats if s.kind != "computer") == 1

    def hint_bot(self) -> str | None:
        """Who a hint asks at this table: the game's strongest computer player, at a
        table of one person against computers; None: no hints here."""
        return hint_bot(self.spec) if self.solo() else None

    def hidden_for(self, viewer: int | None) -> frozenset[str]:
        """The card texts ``viewer`` cannot know now (cached per version)."""
        cached = self._hidden.get(viewer)
        version = self.version
        if cached is not None and cached[0] == version:
            return cached[1]
        hidden = hidden_texts(self.match, viewer)
        self._hidden[viewer] = (version, hidden)
        return hidden

    def state_text(self, viewer: int | None) -> str:
        """The ``state`` message for a seat (None: spectators), cached per version. At a
        table whose watchers are a trick behind (``settings["spectators"] == "trick"``),
        theirs is the state as it stood when the trick (Durak: the round) in play began."""
        if viewer is None and self._behind is not None and self.watchers_behind \
                and not self.match.is_over and not self.at_trick_start():
            return self._behind
        return self._live_text(viewer)

    @property
    def watchers_behind(self) -> bool:
        return self.settings.get("spectators") == "trick"

    def at_trick_start(self) -> bool:
        """Nothing of a trick (a round) is on the table: the public view's trick and
        table fields are empty."""
        return not _trick_on_table(self.match.public_observation().deal)

    def _live_text(self, viewer: int | None) -> str:
        cached = self._cache.get(viewer)
        version = self.version
        if cached is not None and cached[0] == version:
            return cached[1]
        m = self.match
        hidden = self.hidden_for(viewer)
        view = m.observation(viewer).to_json() if viewer is not None \
            else public_view(m, hidden)
        # a seat given up is the computer's to play: its person is shown no move
        legal = m.legal_actions() if viewer is not None and viewer == m.to_move \
            and not self.abandoned and not self.seats[viewer].left else []
        entries = self.log_for(viewer)
        msg = {"type": "state", "table": self.id, "version": version, "seat": viewer,
               "view": view, "display": displays(m, viewer, self.seats_json()),
               "legal": legal, "moves": moves_json(m, viewer, legal), "log": entries,
               "result": m.result.to_json() if m.result is not None else None,
               "game_id": self.game_id,
               # "abandoned" once the table was given up for idleness (no more moves)
               "closed": "abandoned" if self.abandoned else None,
               # {"code", "en", "ru"}: something the page should say about the last
               # move (e.g. the server was overloaded and a computer played at random)
               "notice": None if self.notice is None else
               {"code": self.notice.key, **self.notice.to_json()}}
        text = guarded(msg, hidden, dumps)
        self._cache[viewer] = (version, text)
        return text

    def broadcast_state(self) -> None:
        """The new state to every seat's connections now, and to the spectators by the
        table's one fan-out (``to_spectators``)."""
        watchers = 0
        for c in list(self.conns):
            if c.seat is None:
                watchers += 1
            else:
                c.push(self.state_text(c.seat))
        if watchers:
            self.to_spectators("state", None)

    def to_spectators(self, kind: str, text: str | None) -> None:
        """The newest frame of ``kind`` (``"state"``: None, the state as it is when its
        turn comes; ``"seats"``) to every spectator. Every spectator gets the same text,
        made once; frames of one kind that pile up go out as one, the newest.

        A few spectators are offered it at once. Many get it from one task per table
        that offers it to ``FAN_CHUNK`` connections at a time, one chunk every
        ``FAN_CHUNK / FAN_RATE`` seconds, the event loop free in between to serve every
        other table — so a crowd watching one table does not hold up the moves at the
        others (spectators see a move up to ``spectators / FAN_RATE`` seconds late)."""
        busy = self._fan_task is not None and not self._fan_task.done()
        if not busy and self.spectators <= FAN_CHUNK:
            shown = self.state_text(None) if text is None else text
            cpu = time.thread_time()
            for c in list(self.conns):
                if c.seat is None:
                    c.offer(kind, shown)
            fan_totals.cpu_s += time.thread_time() - cpu
            fan_totals.frames += 1
            return
        self._fan.pop(kind, None)       # an older one waiting: this one instead, last
        self._fan[kind] = text
        if not busy:
            self._fan_task = asyncio.get_running_loop().create_task(self._fan_out())

    async def _fan_out(self) -> None:
        while self._fan:
            kind = next(iter(self._fan))
            item = self._fan.pop(kind)
            self.fanned += 1
            fan_totals.frames += 1
            watchers = [c for c in self.conns if c.seat is None]
            for start in range(0, len(watchers), FAN_CHUNK):
                chunk = watchers[start:start + FAN_CHUNK]
                cpu = time.thread_time()
                # the newest state for every chunk (made once per version); one a
                # spectator was offered already is not offered again
                text = self.state_text(None) if item is None else item
                for c in chunk:
                    if c.table is self:
                        c.offer(kind, text)
                fan_totals.cpu_s += time.thread_time() - cpu
                # paced: at most FAN_RATE sends a second to one table's crowd, one
                # chunk at a time, the event loop free in between (for the other
                # tables, and for the threads that wait for the interpreter's lock);
                # frames that come meanwhile are gathered into one of each kind
                await asyncio.sleep(len(chunk) / FAN_RATE)

    def broadcast_seats(self) -> None:
        """Presence to everyone now (rare events: a finish, an abandon)."""
        if self._seats_timer is not None:
            self._seats_timer.cancel()
            self._seats_timer = None
        text = dumps({"type": "seats", "seats": self.seats_json(),
                       "spectators": self.watching()})
        watchers = 0
        for c in list(self.conns):
            if c.seat is None:
                watchers += 1
            else:
                c.push(text)
        if watchers:
            self.to_spectators("seats", text)

    def seats_changed(self) -> None:
        """Presence changed (someone came, left, sat, or a computer stepped in): one
        ``seats`` frame goes to everyone within ``PRESENCE_DELAY``, however many changes
        came meanwhile — so n people joining cost n frames, not n²."""
        if self._seats_timer is None:
            loop = asyncio.get_running_loop()
            # a crowded table waits longer: at most ~PRESENCE_RATE frames a second in all
            delay = min(PRESENCE_MAX, max(PRESENCE_DELAY, len(self.conns) / PRESENCE_RATE))
            self._seats_timer = loop.call_later(delay, self._flush_seats)

    def _flush_seats(self) -> None:
        self._seats_timer = None
        self.broadcast_seats()

