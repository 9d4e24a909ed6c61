"""Ratings, leaderboards and player pages: a rated match moves the
accounts' OpenSkill ratings exactly as the library's Plackett-Luce model says, computers
keep their fixed ratings, team games rate sides, and the leaderboard orders by ordinal."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("openskill")

from openskill.models import PlackettLuce

from koloda.store import Store
from koloda.store.ratings import bot_rating, bot_ratings, outcome_ranks
from tests.test_store import played
from tests.test_web_accounts import client_for, register

MODEL = PlackettLuce()


def _seats(*kinds: str) -> list[dict[str, Any]]:
    return [{"name": f"Bot {i}", "kind": "bot", "bot": k} if k != "human"
            else {"name": f"P{i}", "kind": "human"} for i, k in enumerate(kinds)]


def _accounts(store: Store, *names: str) -> list[int]:
    return [store.add_account(n, "$argon2id$not-a-real-hash").id for n in names]


def _rating(store: Store, name: str, game: str) -> tuple[float, float] | None:
    board = _board(store, game)
    row = next((r for r in board["rows"] if r["name"] == name), None)
    return (row["mu"], row["sigma"]) if row else None


def _board(store: Store, game: str) -> dict[str, Any]:
    from sqlalchemy.orm import Session

    from koloda.store.ratings import leaderboard
    with Session(store.engine) as s:
        return leaderboard(s, game, 0, 50)


def test_a_rated_match_moves_both_accounts_as_openskill_plackett_luce_says(
        tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'r.db'}")
    a, b = _accounts(store, "Аня", "Боря")
    first = played("durak", 3, _seats("human", "human"))
    second = played("durak", 4, _seats("human", "human"))
    for r in (first, second):      # a real outcome each time (no draw), so ratings move
        assert r["result"]["winners"]
    store.add_game(first, accounts={0: a, 1: b})
    ranks1 = outcome_ranks(first["result"], 2)
    [[ea], [eb]] = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=ranks1)
    got_a, got_b = _rating(store, "Аня", "durak"), _rating(store, "Боря", "durak")
    assert got_a == pytest.approx((ea.mu, ea.sigma), abs=1e-3)
    assert got_b == pytest.approx((eb.mu, eb.sigma), abs=1e-3)
    assert got_a != got_b
    # the second match starts from the ratings the first left (seats swapped)
    store.add_game(second, accounts={0: b, 1: a})
    [[eb2], [ea2]] = MODEL.rate([[MODEL.rating(eb.mu, eb.sigma)],
                                 [MODEL.rating(ea.mu, ea.sigma)]],
                                ranks=outcome_ranks(second["result"], 2))
    assert _rating(store, "Аня", "durak") == pytest.approx((ea2.mu, ea2.sigma), abs=1e-3)
    assert _rating(store, "Боря", "durak") == pytest.approx((eb2.mu, eb2.sigma), abs=1e-3)
    # stored again: the same game, ratings move once
    store.add_game(second, accounts={0: b, 1: a})
    assert _rating(store, "Аня", "durak") == pytest.approx((ea2.mu, ea2.sigma), abs=1e-3)
    store.close()


def test_playing_a_computer_is_rated_at_its_fixed_level_rating_which_never_changes(
        tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'r.db'}")
    [a] = _accounts(store, "Аня")
    bot_mu, bot_sigma = bot_rating("durak", "heuristic")
    assert (bot_mu, bot_sigma) == (bot_ratings()["durak"]["heuristic"]["mu"],
                                   bot_ratings()["durak"]["heuristic"]["sigma"])
    expected = (MODEL.mu, MODEL.sigma)
    for seed in range(3):
        record = played("durak", 10 + seed, _seats("human", "heuristic"))
        store.add_game(record, accounts={0: a})
        [[mine], [_bot]] = MODEL.rate([[MODEL.rating(*expected)],
                                      [MODEL.rating(bot_mu, bot_sigma)]],
                                     ranks=outcome_ranks(record["result"], 2))
        expected = (mine.mu, mine.sigma)
        assert _rating(store, "Аня", "durak") == pytest.approx(expected, abs=1e-3)
        assert bot_rating("durak", "heuristic") == (bot_mu, bot_sigma)   # fixed
    assert [r["name"] for r in _board(store, "durak")["rows"]] == ["Аня"]   # no computer
    store.close()


def test_a_match_without_an_account_is_not_rated(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'r.db'}")
    _accounts(store, "Аня")
    store.add_game(played("durak", 5, _seats("human", "random")))
    assert _board(store, "durak")["total"] == 0
    store.close()


def test_team_durak_rates_each_side_as_one_team(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'r.db'}")
    a, b = _accounts(store, "Аня", "Боря")
    record = played("durak", 7, _seats("human", "human", "random", "random"),
                    players=4, teams=True)
    store.add_game(record, accounts={0: a, 1: b})
    r = outcome_ranks(record["result"], 4)
    assert r[0] == r[2] and r[1] == r[3] and r[0] != r[1]   # sides alternate
    bot = MODEL.rating(*bot_rating("durak", "random"))
    [[ea, _], [eb, _]] = MODEL.rate([[MODEL.rating(), bot], [MODEL.rating(), bot]],
                                    ranks=[r[0], r[1]])
    assert _rating(store, "Аня", "durak") == pytest.approx((ea.mu, ea.sigma), abs=1e-3)
    assert _rating(store, "Боря", "durak") == pytest.approx((eb.mu, eb.sigma), abs=1e-3)
    store.close()


def test_the_leaderboard_orders_accounts_by_ordinal_and_pages(tmp_path: Path) -> None:
    from tests.test_web import db_url
    store = Store(db_url(tmp_path))     # the database the app below serves
    seed = 0
    for i, a in enumerate(_accounts(store, "Ася", "Бо", "Ваня")):
        for _ in range(i + 1):          # Ваня plays most, and so is most certain
            seed += 1
            store.add_game(played("durak", 200 + seed, _seats("human", "random")),
                           accounts={0: a})
    store.close()
    with client_for(tmp_path) as c:
        page = c.get("/api/leaderboard/durak").json()
        ords = [r["ordinal"] for r in page["rows"]]
        assert page["total"] == 3 and len(ords) == 3
        assert ords == sorted(ords, reverse=True)
        # each of mu, sigma and the ordinal rounded to 3 places: 0.0025 apart at most
        assert [r["ordinal"] for r in page["rows"]] == [
            pytest.approx(r["mu"] - 3 * r["sigma"], abs=3e-3) for r in page["rows"]]
        assert [r["place"] for r in page["rows"]] == [1, 2, 3]
        second = c.get("/api/leaderboard/durak?offset=1&limit=1").json()
        assert [r["name"] for r in second["rows"]] == [page["rows"][1]["name"]]
        assert second["rows"][0]["place"] == 2
        assert c.get("/api/leaderboard/no-such-game").status_code == 404
        # the player page's data: ratings, history (one point per rated game), wins
        top = page["rows"][0]["name"]
        me = c.get(f"/api/players/{top}").json()
        assert me["name"] == top and me["ratings"][0]["game"] == "durak"
        assert len(me["history"]["durak"]) == me["ratings"][0]["games"]
        assert me["history"]["durak"][-1]["mu"] == pytest.approx(page["rows"][0]["mu"])
        assert me["games"][0]["played"] == me["ratings"][0]["games"]
        assert len(me["recent"]) == me["ratings"][0]["games"]
        assert c.get("/api/players/nobody-here").status_code == 404
        for path in ("/leaderboard/durak", f"/player/{top}"):
            assert c.get(path).status_code == 200


def test_unknown_player_gets_a_404_naming_the_player_in_both_languages(
        tmp_path: Path) -> None:
    """No «Value('X')»: the API's error names the player as each language quotes a name
    a person gave, and the player page itself answers 404 (its text then says so)."""
    with client_for(tmp_path) as c:
        res = c.get("/api/players/X")
        assert res.status_code == 404
        assert res.json() == {"error": "no registered player 'X'",
                              "error_ru": "зарегистрированного игрока «X» нет"}
        assert c.get("/player/X").status_code == 404
        register(c, "Аня")
        assert c.get("/player/%D0%B0%D0%BD%D1%8F").status_code == 200   # «аня»: same key


def test_the_leaderboard_without_a_game_opens_the_first_game_in_the_books_order(
        tmp_path: Path) -> None:
    """No game is the web's favourite: /leaderboard goes on to the game the lobby lists
    first (the specs' ``order``), and every game's page is served."""
    import koloda
    first = min(koloda.registry().values(), key=lambda s: (s.order, s.name)).name
    with client_for(tmp_path) as c:
        res = c.get("/leaderboard", follow_redirects=False)
        assert res.status_code in (302, 307)
        assert res.headers["location"].endswith(f"/leaderboard/{first}")
        for name in koloda.registry():
            assert c.get(f"/leaderboard/{name}").status_code == 200


def test_a_signed_in_player_at_a_finished_table_is_rated(tmp_path: Path) -> None:
    """Through the server: an account beats (or loses to) a computer; its rating moves."""
    from tests.test_web import Sock
    with client_for(tmp_path) as c:
        register(c, "Аня")
        token = c.get("/api/me").json()["csrf"]
        res = c.post("/api/tables", headers={"X-CSRF-Token": token}, json={
            "game": "durak", "players": 2, "options": {"games": 1},
            "seats": [{"kind": "person"}, {"kind": "computer", "bot": "random"}],
            "sit": 0, "name": "x"})
        assert res.status_code == 201, res.text
        made = res.json()
        sock = Sock(c, made["id"], made["token"])
        c.socks.append(sock)
        rng = random.Random(1)
        seen = -1
        while True:
            st = sock.until(lambda s, v=seen: s["version"] > v and (
                s["game_id"] is not None or bool(s["legal"])), timeout=30)
            if st["game_id"] is not None:
                break
            seen = st["version"]
            assert sock.act(rng.choice(st["legal"]))["type"] == "ok"
        me = c.get("/api/players/Аня").json()
        assert me["ratings"][0]["games"] == 1
        assert me["recent"][0]["id"] == st["game_id"]
