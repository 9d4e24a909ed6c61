"""The ranks (разряды) of Opendaum-33 (koloda/rules/opendaum.en.md §Precisely 26, 27): earned by
total, kept or dropped."""

from __future__ import annotations

import pytest

from koloda.ranks import CHAMPION, EMBRYO, RANK_BY_ID, RANKS, next_held_rank, rank_for_total


@pytest.mark.parametrize(("total", "rank"), [
    (0, "embryo"), (49, "embryo"), (50, "junior"), (99, "junior"), (100, "third"),
    (119, "third"), (120, "second"), (149, "second"), (150, "first"), (169, "first"),
    (170, "master"), (199, "master"), (200, "grandmaster"), (229, "grandmaster"),
    (230, "champion"), (1000, "champion")])
def test_rank_for_total_every_boundary(total: int, rank: str) -> None:
    assert rank_for_total(total).id == rank


@pytest.mark.parametrize("total", [-1, -10, -500])
def test_a_negative_total_earns_embryo(total: int) -> None:
    assert rank_for_total(total) == EMBRYO


def test_ranks_have_russian_and_english_names_in_order() -> None:
    assert [r.ru for r in RANKS] == ["эмбрион", "детский", "третий", "второй", "первый",
                                     "мастер", "гроссмейстер", "чемпион"]
    assert [r.id for r in RANKS] == ["embryo", "junior", "third", "second", "first", "master",
                                     "grandmaster", "champion"]
    assert all(r.en for r in RANKS)
    assert list(RANKS) == sorted(RANKS) and RANKS[0] < RANKS[1]


def test_a_player_without_a_rank_takes_the_earned_one() -> None:
    for r in RANKS:
        assert next_held_rank(None, r) == r


def test_earned_rank_at_least_the_held_one_becomes_the_held_rank() -> None:
    assert next_held_rank(RANK_BY_ID["third"], RANK_BY_ID["third"]).id == "third"
    assert next_held_rank(RANK_BY_ID["third"], RANK_BY_ID["master"]).id == "master"
    assert next_held_rank(EMBRYO, CHAMPION) == CHAMPION


def test_an_unconfirmed_rank_drops_exactly_one() -> None:
    assert next_held_rank(RANK_BY_ID["master"], RANK_BY_ID["first"]).id == "first"
    assert next_held_rank(RANK_BY_ID["master"], EMBRYO).id == "first"   # one, not to embryo
    assert next_held_rank(CHAMPION, RANK_BY_ID["junior"]).id == "grandmaster"
    assert next_held_rank(RANK_BY_ID["junior"], EMBRYO) == EMBRYO


def test_the_rank_never_drops_below_embryo() -> None:
    assert next_held_rank(EMBRYO, EMBRYO) == EMBRYO
    assert next_held_rank(EMBRYO, rank_for_total(-40)) == EMBRYO


def test_rank_json_names_the_rank() -> None:
    assert RANK_BY_ID["grandmaster"].to_json() == {"id": "grandmaster", "ru": "гроссмейстер",
                                                   "en": "grandmaster", "level": 6}
