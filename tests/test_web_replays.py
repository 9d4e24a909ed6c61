"""``/api/replays/<id>``: a stored game stepped through by the server — each step's hands
are the engine's, the last step's result is the record's, the display is the presenter's
(every card face up: the game is over)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from koloda.engine.records import from_record
from koloda.store import Store
from koloda.web.views import HIDDEN
from tests.test_store import played
from tests.test_web import client_for, db_url

SEATS = [{"name": "Аня", "kind": "human"}, {"name": "Боря", "kind": "human"},
         {"name": "Bot", "kind": "bot", "bot": "random"}]


@pytest.mark.parametrize("game", ["mushka", "durak"])
def test_every_step_shows_every_hand_the_engine_holds_and_the_last_the_result(
        tmp_path: Path, game: str) -> None:
    record = played(game, 7, SEATS, players=3) if game == "mushka" else played(
        game, 7, SEATS[:2])
    store = Store(db_url(tmp_path))
    game_id = store.add_game(record).id
    store.close()
    match = from_record(dict(record, actions=[], result=None))
    total = len(record["actions"])
    with client_for(tmp_path) as c:
        assert c.get(f"/g/{game_id}").status_code == 200
        for n in [0, 1, total // 2, total - 1, total]:
            while len(match.history) < n:
                match.apply(record["actions"][len(match.history)]["action"])
            step = c.get(f"/api/replays/{game_id}", params={"at": n}).json()
            assert step["at"] == n and step["total"] == total
            assert [sorted(h["cards"]) for h in step["hands"]] == [
                sorted(match.observation(s).to_json()["hand"]) for s in range(match.players)]
            assert HIDDEN not in str(step["display"]) and "🂠" not in str(step["display"])
            assert set(step["display"]) == {"en", "ru"}
            assert (step["action"] is None) == (n == 0)
        last = c.get(f"/api/replays/{game_id}").json()
        assert last["at"] == total and last["result"] == record["result"]
        assert c.get(f"/api/replays/{game_id}", params={"at": total + 50}).json()["at"] == total
        back = c.get(f"/api/replays/{game_id}", params={"at": 2}).json()
        assert back["log"] == [[a["seat"], a["action"]] for a in record["actions"][:2]]


def test_an_unknown_game_is_refused_in_both_languages(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        res = c.get("/api/replays/12345")
        assert res.status_code == 404
        assert res.json() == {"error": "no finished game 12345 is stored here",
                              "error_ru": "партии 12345 среди сохранённых нет"}
