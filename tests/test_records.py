"""koloda-record/1: replay, verification, and clear errors for malformed records."""

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from koloda import registry
from koloda.engine.errors import RecordError
from koloda.engine.records import load_record, replay
from tests.conftest import RECORDS

EXAMPLES = sorted((RECORDS / "examples").glob("*.json"))


def sweep() -> dict[str, Any]:
    return json.loads((RECORDS / "pyanitsy-sweep.json").read_text())


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_records_replay_to_their_written_result(path: Path) -> None:
    data = json.loads(path.read_text())
    if data["game"] not in registry():
        pytest.skip(f"{data['game']} is not implemented yet")
    rep = replay(data)
    assert rep.error is None, rep.error
    assert rep.match is not None and rep.match.result is not None
    got = rep.match.result.to_json()
    for key in ("winners", "losers", "scores", "capped"):
        assert got[key] == data["result"][key], key


def test_illegal_action_is_rejected_with_its_index_and_reason() -> None:
    data = sweep()
    data["actions"][3]["action"] = "play 6C"
    rep = replay(data)
    assert rep.error == {"index": 3, "action": "play 6C",
                         "reason": "'play 6C' is not an action of Pyanitsy: the only action "
                                   "is 'flip'"}
    assert len(rep.to_json()["steps"]) == 4


def test_an_action_out_of_turn_is_rejected() -> None:
    data = sweep()
    data["actions"][0]["seat"] = 1
    rep = replay(data)
    assert rep.error is not None and rep.error["index"] == 0
    assert "seat 0's turn" in rep.error["reason"]


def test_a_wrong_written_result_is_reported() -> None:
    data = sweep()
    data["result"]["scores"] = [35, 1]
    rep = replay(data)
    assert rep.error is not None and rep.error["field"] == "result"


def _broken(path: str, value: Any) -> dict[str, Any]:
    data = sweep()
    target: Any = data
    keys = path.split(".")
    for k in keys[:-1]:
        target = target[int(k)] if isinstance(target, list) else target[k]
    last = keys[-1]
    if value is KeyError:
        del target[last]
    elif isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return data


@pytest.mark.parametrize(("path", "value", "field"), [
    ("format", "pgn", "format"),
    ("game", "poker", "game"),
    ("players", "two", "players"),
    ("players", 3, "deals[0].hands"),
    ("options", {"jokers": 1}, "options"),
    ("deals", KeyError, "deals"),
    ("deals.0.dealer", 1, "deals[0].dealer"),
    ("deals.0.hands.0.0", "ZZ", "deals[0].hands[0][0]"),
    ("deals.0.hands.0.0", "TD", "deals[0]"),
    ("deals.0.trump_card", "AS", "deals[0].trump_card"),
    ("actions.0", "flip", "actions[0]"),
    ("actions.0.seat", "zero", "actions[0].seat"),
    ("result", [1], "result"),
])
def test_malformed_records_name_the_broken_field(path: str, value: Any, field: str) -> None:
    rep = replay(_broken(path, value))
    assert rep.error is not None
    assert rep.error["reason"].startswith(field), rep.error
    assert "steps" not in rep.to_json()


def test_a_deal_with_the_wrong_cards_lists_extra_and_missing() -> None:
    data = _broken("deals.0.hands.0.0", "2C")
    rep = replay(data)
    assert rep.error is not None and "extra: 2C" in rep.error["reason"]
    assert "missing: AS" in rep.error["reason"]


def test_load_record_reports_bad_json_with_its_position(tmp_path: Path) -> None:
    p = tmp_path / "bad.json"
    p.write_text('{"format": ')
    with pytest.raises(RecordError, match=r"not JSON: .* line 1"):
        load_record(p)


def test_record_without_later_deals_deals_them_from_its_seed() -> None:
    from koloda import new_game
    m = new_game("pyanitsy", seed=11)
    while not m.is_over:
        m.apply("flip")
    data = copy.deepcopy(m.record())
    data["deals"] = []
    rep = replay(data)
    assert rep.error is None and rep.match is not None
    assert rep.match.deals == m.deals and rep.match.result == m.result


def test_record_without_a_seed_stops_where_its_deals_end() -> None:
    """docs/records.md: without a seed, a reader stops where the written deals end."""
    from koloda import new_game
    m = new_game("trinka", seed=3, max_deals=3)
    while not m.is_over:
        m.apply(m.legal_actions()[0])
    data = copy.deepcopy(m.record())
    data["seed"] = None
    data["deals"] = data["deals"][:1]
    data["result"] = None
    rep = replay(data)
    assert rep.error is not None and rep.error["field"] == "deals"
    assert rep.error["reason"].startswith("deals[1]: the record has no deal 1")
    assert rep.match is not None and rep.match.awaiting_dealer == m.deals[1].dealer


def test_a_waiting_match_goes_on_when_given_its_next_deal() -> None:
    from koloda import new_game
    from koloda.engine.records import from_record
    m = new_game("trinka", seed=3, max_deals=2)
    while not m.is_over:
        m.apply(m.legal_actions()[0])
    data = copy.deepcopy(m.record())
    data["seed"] = None
    data["deals"] = data["deals"][:1]
    w = from_record(data)
    for a in data["actions"]:
        if w.awaiting_dealer is not None:
            assert w.to_move is None and w.legal_actions() == []
            w.provide_deal(m.deals[1])
        w.apply(a["action"])
    assert w.result == m.result
