"""A result's scores column says what its numbers count: Durak's are the games each seat
lost (the durak 1, the winner 0), not a bare "score"."""

from __future__ import annotations

import koloda
from koloda.present import present_result


def _finished(name: str, **options: object) -> koloda.Match:
    match = koloda.new_game(name, seed=3, **options)
    while not match.is_over:
        match.apply(match.legal_actions()[0])
    return match


def test_durak_result_scores_column_says_games_lost_in_both_languages() -> None:
    match = _finished("durak", players=2)
    assert match.result is not None
    result = match.result.to_json()
    for lang, word in (("en", "games lost"), ("ru", "проиграно")):
        shown = present_result(result, "durak", lang)
        assert shown["columns"][0]["label"] == word
        loser = result["losers"][0]
        assert shown["rows"][loser]["cells"][0]["text"] == "1"


def test_other_games_keep_the_score_column() -> None:
    match = _finished("pyanitsy", players=2, max_deals=1)
    assert match.result is not None
    shown = present_result(match.result.to_json(), "pyanitsy", "en")
    assert shown["columns"][0]["label"] == "score"
