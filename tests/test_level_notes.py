"""Levels that say what they are: every computer player a person can seat has a sentence
in both languages, the lobby's games list carries it with the level's measured rating,
and the terminal's start screen says it on a computer's line."""

from __future__ import annotations

import pytest

import koloda
from koloda.bots.base import bot_note
from koloda.bots.search.levels import LEVELS
from koloda.store.ratings import bot_ratings
from koloda.tui.session import bot_choices
from koloda.tui.start import StartForm
from koloda.web.page_routes import games_json


@pytest.mark.parametrize("game", sorted(koloda.registry()))
def test_every_level_a_person_can_seat_says_what_it_is_in_both_languages(game: str) -> None:
    for bot in bot_choices(game):
        en, ru = bot_note(bot, "en"), bot_note(bot, "ru")
        assert en and ru and en != ru, (game, bot)
        assert "{" not in en + ru


def test_the_search_levels_say_their_own_time_and_share() -> None:
    assert f"{LEVELS['easy'].seconds:g} s" in bot_note("search:easy")
    assert f"{LEVELS['hard'].seconds:g} s" in bot_note("search:hard")
    times = LEVELS["hard"].share / LEVELS["normal"].share
    assert f"{times:g} times" in bot_note("search:hard")
    assert bot_note("search") == bot_note("search:normal")


def test_the_lobby_gets_each_levels_note_and_measured_rating() -> None:
    ratings = bot_ratings()
    for g in games_json():
        assert set(g["levels"]) == set(g["bots"])
        for bot, level in g["levels"].items():
            assert level["note"]["en"] == bot_note(bot, "en")
            assert level["note"]["ru"] == bot_note(bot, "ru")
            measured = ratings.get(g["name"], {}).get(bot)
            assert level["rating"] == (measured["mu"] if measured else None)


def test_the_start_screen_says_what_the_computer_on_a_line_is() -> None:
    form = StartForm()
    form.set_spec("durak")
    form.row = form.rows().index("seat:1")
    bot = form.seats[1]
    assert bot != "human"
    said = form.help().plain
    assert said.startswith(bot_note(bot, "en"))
    measured = bot_ratings().get("durak", {}).get(bot)
    if measured is not None:
        assert f"rated {round(measured['mu'])}" in said
    form.lang = "ru"
    assert form.help().plain.startswith(bot_note(bot, "ru"))
