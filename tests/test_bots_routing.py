"""Which bot a game gets is what its spec says (``GameSpec.bots``): each declared kind is
built from its "module:function"; a kind the game does not declare is refused, never
replaced by a generic guess; the generic ISMCTS comes only when a spec names it."""

from __future__ import annotations

import dataclasses
import random

import pytest

import koloda
from koloda.bots import make_bot
from koloda.bots.search import SearchBot
from koloda.engine.errors import ConfigError
from koloda.engine.registry import register, unregister


@pytest.mark.parametrize("name", sorted(koloda.registry()))
def test_every_declared_bot_is_built_from_the_spec(name: str) -> None:
    spec = koloda.get_spec(name)
    for kind, factory in spec.bots.items():
        module, _, function = str(factory).partition(":")
        assert module.startswith("koloda.bots.") and function, factory
        bot = make_bot(kind, name)
        assert callable(bot.choose)
    for kind in {"heuristic", "search"} - set(spec.bots):
        with pytest.raises(ConfigError, match=f"no {kind} bot"):
            make_bot(kind, name)


def test_a_game_without_a_search_has_none_and_says_so_in_russian() -> None:
    assert "search" not in koloda.get_spec("pyanitsy").bots
    with pytest.raises(ConfigError) as err:
        make_bot("search:easy", "pyanitsy")
    assert "pyanitsy" in str(err.value)
    assert "перебор" in err.value.render("ru")


def test_the_generic_search_comes_only_when_the_spec_names_it() -> None:
    spec = dataclasses.replace(koloda.get_spec("trinka"), name="trinka-generic", aliases=(),
                               bots={"search": "koloda.bots.search:SearchBot"})
    register(spec)
    try:
        bot = make_bot("search:easy", "trinka-generic")
        assert isinstance(bot, SearchBot) and bot.name == "search:easy"
        m = koloda.new_game("trinka-generic", seed=2)
        assert bot.choose(m.observation(m.to_move), m.legal_actions(),
                          random.Random(0)) in m.legal_actions()
        with pytest.raises(ConfigError, match="no heuristic bot"):
            make_bot("heuristic", "trinka-generic")
    finally:
        unregister("trinka-generic")
