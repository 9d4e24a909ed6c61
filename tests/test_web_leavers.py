"""Leavers: a seat whose person is away when it is to move, time after time, is given up
after ``LEAVER_STRIKES`` times: a computer plays it to the end even if the person comes
back, the record says so, the ratings count the match as lost for that side, and a
player's page shows how many of their last 20 matches they played to the end."""

from __future__ import annotations

import contextlib
import random
import time
from pathlib import Path
from typing import Any

from koloda.store import Store
from koloda.web.table import LEAVER_STRIKES
from tests.test_store import played
from tests.test_web import Sock, client_for, create, server_table, sit
from tests.test_web_accounts import client_for as accounts_client
from tests.test_web_accounts import register
from tests.test_web_ratings import MODEL, _accounts, _rating, _seats


def _play_until(c: Any, tid: str, anna: Sock, done: Any, rng: random.Random,
                timeout: float = 60) -> None:
    """Anna plays her moves (the away seat's are the computer's) until ``done()``."""
    table = server_table(c, tid)
    deadline = time.monotonic() + timeout
    while not done() and not table.match.is_over:
        assert time.monotonic() < deadline, "the stand-in never came"
        st = anna.until(lambda s: True)
        if st["view"]["to_move"] == 0 and st["version"] == table.version:
            anna.act(rng.choice(st["legal"]))
        else:
            with contextlib.suppress(TimeoutError):
                anna.recv(0.3)


def test_a_seat_away_time_after_time_is_given_up_to_a_computer(tmp_path: Path) -> None:
    with client_for(tmp_path, tick=0.05) as c:
        made = create(c, "durak", 2, settings={"away_timeout": 1, "away_policy": "computer",
                                               "away_bot": "random"})
        tid = made["id"]
        boris = sit(c, tid, 1, "Boris")           # sat, and away from the start
        anna = Sock(c, tid, made["token"])
        table = server_table(c, tid)
        seat = table.seats[1]
        rng = random.Random(2)
        for strike in range(1, LEAVER_STRIKES + 1):
            _play_until(c, tid, anna, lambda n=strike: seat.strikes >= n, rng)
            assert not table.match.is_over and seat.strikes == strike
            # more moves in the same time away are no new strike
            if strike < LEAVER_STRIKES:
                assert not seat.left
                back = Sock(c, tid, boris)          # back for a moment, then away again
                back.close()
        assert seat.left
        info = c.get(f"/api/tables/{tid}").json()["seats"][1]
        assert info["left"] and info["computer_plays"] and info["timeouts"] == 3
        # back again: the computer still plays the seat
        back = Sock(c, tid, boris)
        start = len(table.match.history)
        _play_until(c, tid, anna, lambda: table.match.is_over or any(
            who == 1 for who, _ in table.match.history[start:]), rng)
        assert any(who == 1 for who, _ in table.match.history[start:])
        assert seat.left and table.seats[1].connected
        back.close()
        assert table.seats[1].record_seat(1)["left"] is True


def test_a_given_up_seats_person_back_is_shown_no_move_and_refused_one(
        tmp_path: Path) -> None:
    with client_for(tmp_path, bot_delay=5.0) as c:
        made = create(c, "durak", 2, settings={"away_timeout": 1, "away_policy": "computer",
                                               "away_bot": "random"})
        tid = made["id"]
        boris = sit(c, tid, 1, "Boris")
        anna = Sock(c, tid, made["token"])
        table = server_table(c, tid)
        table.seats[1].strikes, table.seats[1].left = LEAVER_STRIKES, True
        back = Sock(c, tid, boris)
        while table.match.to_move != 1:
            st = anna.until(lambda s: s["version"] == table.version)
            anna.act(st["legal"][0])
        st = back.until(lambda s: s["version"] == table.version)
        assert st["legal"] == [] and not any(st["moves"].values())
        move = table.match.legal_actions()[0]       # what the seat could play
        refused = back.act(move)
        assert refused["type"] == "refused" and refused["code"] == "seat_given_up"
        assert "computer plays it to the end" in refused["reason"]
        assert refused["reason_ru"]
        assert all(who != 1 or action != move for who, action in table.match.history)


def test_a_given_up_seat_survives_a_restart(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        made = create(c, "durak", 2)
        tid = made["id"]
        sit(c, tid, 1, "Boris")
        table = server_table(c, tid)
        c.portal.call(_give_up, c, table)
    with client_for(tmp_path) as c:
        seat = server_table(c, tid).seats[1]
        assert seat.left and seat.strikes == LEAVER_STRIKES


async def _give_up(c: Any, table: Any) -> None:
    driver = c.app.state.manager.driver
    for _ in range(LEAVER_STRIKES):
        table.seats[1].struck = False
        driver._strike(table, 1)
    await c.app.state.manager.writer.run(lambda s: None)      # written


def test_a_side_that_left_counts_as_lost_in_the_ratings(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'r.db'}")
    a, b = _accounts(store, "Аня", "Вера")
    # the same match twice: once played to the end, once with the winner's seat given up
    record = played("durak", 12, _seats("human", "human"))
    winner = record["result"]["winners"][0]
    accounts = {winner: a, 1 - winner: b}
    store.add_game(record, accounts=accounts)
    won = _rating(store, "Аня", "durak")
    store.close()
    store = Store(f"sqlite:///{tmp_path / 'r2.db'}")
    a, b = _accounts(store, "Аня", "Вера")
    left = dict(record, seats=[dict(s) for s in record["seats"]])
    left["seats"][winner]["left"] = True
    store.add_game(left, accounts={winner: a, 1 - winner: b})
    lost = _rating(store, "Аня", "durak")
    assert won is not None and lost is not None and lost[0] < MODEL.mu < won[0]
    assert store.reliability(a) == {"matches": 1, "finished": 0, "left": 1}
    assert store.reliability(b) == {"matches": 1, "finished": 1, "left": 0}
    store.close()


def test_a_players_page_says_how_many_matches_they_played_to_the_end(tmp_path: Path
                                                                     ) -> None:
    with accounts_client(tmp_path) as c:
        account = register(c, "Аня")["account"]["id"]
        store = c.app.state.manager.finisher.open_store()
        for seed, gave_up in ((1, False), (2, True), (3, False)):
            record = played("durak", seed, [{"name": "Аня", "kind": "human"},
                                            {"name": "Bot", "kind": "bot", "bot": "random"}])
            if gave_up:
                record["seats"][0]["left"] = True
            store.add_game(record, accounts={0: account})
        store.close()
        page = c.get("/api/players/Аня").json()
        assert page["reliability"] == {"matches": 3, "finished": 2, "left": 1}
