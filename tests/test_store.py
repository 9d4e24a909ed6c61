"""The store on a temporary SQLite database: games kept by their records, statistics, and
the Opendaum-33 ranks moved exactly as koloda/rules/opendaum.en.md §Precisely 26, 27 says."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import koloda
from koloda.engine.errors import RecordError
from koloda.store import Store

#: koloda/rules/opendaum.en.md §Precisely 26, written out again here (not read from koloda.ranks):
#: (lowest total, rank)
THRESHOLDS = [(230, "champion"), (200, "grandmaster"), (170, "master"), (150, "first"),
              (120, "second"), (100, "third"), (50, "junior"), (0, "embryo")]
ORDER = ["embryo", "junior", "third", "second", "first", "master", "grandmaster", "champion"]
PEOPLE = [{"name": "Аня", "kind": "human"}, {"name": "Боря", "kind": "human"},
          {"name": "Вера", "kind": "human"}]


def earned(total: float) -> str:
    return next((rank for low, rank in THRESHOLDS if total >= low), "embryo")


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'koloda.db'}")


def played(game: str, seed: int, seats: list[dict[str, Any]] | None = None,
           **options: Any) -> dict[str, Any]:
    """A complete match played at random; its record."""
    m = koloda.new_game(game, seed=seed, **options)
    rng = random.Random(seed)
    while not m.is_over:
        legal = m.legal_actions()
        m.apply(legal[rng.randrange(len(legal))])
    return m.record(seats or PEOPLE[:m.players])


def test_a_finished_opendaum_33_match_promotes_confirms_and_demotes_across_two_matches(
        store: Store) -> None:
    """Three people play two matches. After the first each takes the rank earned (no rank
    yet); after the second: one earns more (promoted to it), one earns the same (kept),
    one earns two or more ranks less (dropped exactly one rank, not to the earned one)."""
    records = {seed: played("opendaum-33", seed) for seed in range(40)}
    level = {seed: [ORDER.index(earned(x)) for x in r["result"]["scores"]]
             for seed, r in records.items()}

    def kinds(a: int, b: int) -> list[str]:
        return sorted("promote" if y > x else "confirm" if y == x else
                      "demote" if x - y >= 2 else "small" for x, y in zip(level[a], level[b],
                                                                       strict=True))
    first, second = next((a, b) for a in records for b in records
                         if a != b and kinds(a, b) == ["confirm", "demote", "promote"])
    one = store.add_game(records[first])
    for seat, person in enumerate(PEOPLE):
        total = records[first]["result"]["scores"][seat]
        assert store.rank_of(person["name"]).id == earned(total)   # no rank: takes earned
    assert [c.before for c in one.rank_changes] == [None, None, None]
    two = store.add_game(records[second])
    for seat, person in enumerate(PEOPLE):
        held = ORDER.index(earned(records[first]["result"]["scores"][seat]))
        now = ORDER.index(earned(records[second]["result"]["scores"][seat]))
        expected = ORDER[now] if now >= held else ORDER[held - 1]
        assert store.rank_of(person["name"]).id == expected, (person, held, now)
        change = two.rank_changes[seat]
        assert (change.before.id, change.earned.id, change.after.id) == \
            (ORDER[held], ORDER[now], expected)
    history = store.stats("Аня").rank_history
    assert [h["game_id"] for h in history] == [one.id, two.id]


def test_a_champion_who_earns_less_drops_exactly_one_rank(store: Store) -> None:
    record = played("opendaum-33", 1)
    low_seat = min(range(3), key=lambda s: record["result"]["scores"][s])
    name = PEOPLE[low_seat]["name"]
    total = record["result"]["scores"][low_seat]
    store.set_rank(name, "champion")
    store.add_game(record)
    assert ORDER.index(earned(total)) < ORDER.index("grandmaster")
    assert store.rank_of(name).id == "grandmaster"      # one step down, not to the earned


def test_a_rank_held_from_elsewhere_must_be_a_known_rank(store: Store) -> None:
    with pytest.raises(ValueError, match="unknown rank"):
        store.set_rank("Аня", "general")


def test_a_capped_opendaum_33_match_moves_no_rank(store: Store) -> None:
    """A match stopped by max_deals has no final total of a whole match (our reading)."""
    g = store.add_game(played("opendaum-33", 3, max_deals=2))
    assert g.capped and g.rank_changes == []
    assert store.rank_of("Аня") is None
    assert store.stats("Аня").games[0].played == 1


def test_a_practice_match_begun_part_way_moves_no_rank(store: Store) -> None:
    g = store.add_game(played("opendaum-33", 3, start_deal=20))
    assert not g.capped and g.rank_changes == [] and store.rank_of("Аня") is None


def test_only_opendaum_33_moves_ranks_and_computer_seats_have_no_profile(store: Store) -> None:
    seats = [{"name": "Аня", "kind": "human"},
             {"name": "Computer 2", "kind": "bot", "bot": "random"},
             {"name": "Computer 3", "kind": "bot", "bot": "random"}]
    g = store.add_game(played("opendaum", 4, seats=seats, players=3))
    assert g.rank_changes == [] and store.rank_of("Аня") is None
    assert store.player_names() == ["Аня"]
    assert g.names == ["Аня", "Computer 2", "Computer 3"] and g.kinds[1] == "bot"


def test_the_same_match_is_stored_once_and_ranks_move_once(store: Store) -> None:
    record = played("opendaum-33", 5)
    first = store.add_game(record)
    again = store.add_game(record)
    assert again.id == first.id and not again.new
    assert len(store.stats("Аня").rank_history) == 1
    assert len(store.history()) == 1


def test_a_record_that_does_not_replay_is_not_stored(store: Store) -> None:
    record = played("trinka", 1, seats=[*PEOPLE, {"name": "Гена", "kind": "human"}])
    record["actions"][3]["action"] = "play AS" if record["actions"][3]["action"] != "play AS" \
        else "play KS"
    with pytest.raises(RecordError):
        store.add_game(record)
    unfinished = played("trinka", 1, seats=[*PEOPLE, {"name": "Гена", "kind": "human"}])
    unfinished["actions"] = unfinished["actions"][:5]
    unfinished["result"] = None
    with pytest.raises(RecordError, match="not over"):
        store.add_game(unfinished)
    assert store.history() == []


def test_statistics_per_player_and_game(store: Store) -> None:
    results = []
    for seed in range(3):
        g = store.add_game(played("durak", seed, seats=PEOPLE[:2]))
        results.append(g)
    store.add_game(played("pyanitsy", 1, seats=PEOPLE[:2], round_cap=30))
    stats = store.stats("Боря")
    by_game = {g.game: g for g in stats.games}
    durak = by_game["durak"]
    wins = sum(1 in g.winners for g in results)
    assert durak.played == 3 and durak.won == wins
    assert durak.won + durak.lost + durak.drawn == 3
    assert by_game["pyanitsy"].played == 1
    assert [g.game for g in store.history(player="Боря", game="durak")] == ["durak"] * 3
    assert store.history(limit=2)[0].id == 4            # newest first
    assert store.stats("nobody") is None


def test_the_stored_record_replays_to_its_result(store: Store) -> None:
    record = played("mushka", 6, seats=[*PEOPLE[:3], {"name": "Гена", "kind": "human"}],
                    max_deals=3)
    g = store.add_game(record)
    again = koloda.replay(store.record(g.id))
    assert again.ok and again.match.result.to_json() == record["result"]
