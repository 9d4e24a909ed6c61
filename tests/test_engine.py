"""The one API: game lookup, options and player counts, actions, single deals."""

import pytest

import koloda
from koloda import Action, ConfigError, IllegalAction


def test_unknown_game_lists_the_games() -> None:
    with pytest.raises(ConfigError, match=r"unknown game 'poker'; games: .*pyanitsy"):
        koloda.new_game("poker")


def test_unknown_option_lists_the_options() -> None:
    with pytest.raises(ConfigError, match="no option 'jokers'; options: deck, end"):
        koloda.new_game("pyanitsy", jokers=2)


def test_bad_option_value_names_what_is_allowed() -> None:
    with pytest.raises(ConfigError, match=r"end='sometimes'.*allowed: \"all\" or"):
        koloda.new_game("pyanitsy", end="sometimes")
    with pytest.raises(ConfigError, match="max_deals=0"):
        koloda.new_game("pyanitsy", max_deals=0)
    with pytest.raises(ConfigError, match="deck=True"):
        koloda.new_game("pyanitsy", deck=True)


def test_player_count_outside_the_rules_is_refused() -> None:
    with pytest.raises(ConfigError, match="played by 2–6 players, not 7"):
        koloda.new_game("pyanitsy", players=7)


def test_unknown_variant_lists_the_variants() -> None:
    with pytest.raises(ConfigError, match="no variant 'turbo'; variants: classic"):
        koloda.new_game("pyanitsy", variant="turbo")


def test_aliases_and_variants_find_the_game() -> None:
    assert koloda.get_spec("war").name == "pyanitsy"
    assert koloda.get_spec("pyanitsy", variant="classic").name == "pyanitsy"


def test_action_parse_is_canonical() -> None:
    assert str(Action.parse("  Play 10h ")) == "play TH"
    assert str(Action.parse("discard 8S 7H 6C")) == "discard 8S 6C 7H"
    assert str(Action.parse("beat 7H 9H")) == "beat 7H 9H"
    assert str(Action.parse("play 6c WILD")) == "play 6C wild"
    assert str(Action.parse("bid 3")) == "bid 3"


@pytest.mark.parametrize(("text", "reason"), [
    ("", "empty action"), ("fly", "unknown action"), ("bid x", "one whole number"),
    ("play", "at least one card"), ("play 6X", "not a card"), ("flip now", "no arguments"),
    ("discard 6C 6C", "named twice"), ("beat 7H", "attack card then"),
])
def test_malformed_actions_are_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(IllegalAction, match=reason):
        Action.parse(text)


def test_apply_accepts_action_objects_and_returns_canonical_text() -> None:
    m = koloda.new_game("pyanitsy", seed=1)
    assert m.apply(Action("flip")) == "flip"
    assert m.apply(" FLIP ") == "flip"
    assert [a for _, a in m.history] == ["flip", "flip"]


def test_same_seed_same_game_and_seedless_games_keep_their_seed() -> None:
    a = koloda.new_game("pyanitsy", seed=42)
    b = koloda.new_game("pyanitsy", seed=42)
    assert a.deals == b.deals
    c = koloda.new_game("pyanitsy")
    assert isinstance(c.seed, int) and c.record()["seed"] == c.seed


def test_single_deal_is_playable_on_its_own() -> None:
    m = koloda.new_deal("pyanitsy", players=3, seed=9)
    while not m.is_over:
        m.apply(m.legal_actions()[0])
    assert m.result is not None and len(m.deals) == 1


def test_observation_rejects_a_seat_that_does_not_exist() -> None:
    m = koloda.new_game("pyanitsy", seed=1)
    with pytest.raises(ValueError, match="no seat 5"):
        m.observation(5)


def test_no_action_after_the_match_is_over() -> None:
    m = koloda.new_game("pyanitsy", seed=1, round_cap=1)
    while not m.is_over:
        m.apply("flip")
    with pytest.raises(IllegalAction, match="match is over"):
        m.apply("flip")
