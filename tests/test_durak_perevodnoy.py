"""Transfer durak (koloda/rules/durak.en.md §Precisely 23–27): one test per rule of the transfer."""

from __future__ import annotations

import json

import koloda
from koloda.cards import CARD_TEXT, parse_cards
from koloda.engine.records import replay
from koloda.games.durak import DurakGame
from tests.conftest import RECORDS
from tests.test_durak import game, hand, play, refused


def tgame(hands: list[str], stock: str = "", trump: str = "AH", **kw: object) -> DurakGame:
    return game(hands, stock, trump, transfer=True, **kw)  # type: ignore[arg-type]


def test_transfer_durak_is_its_own_game_of_the_durak_family() -> None:
    spec = koloda.get_spec("durak-perevodnoy")
    assert (spec.family, spec.variant) == ("durak", "perevodnoy")
    assert koloda.get_spec("durak", variant="perevodnoy") is spec
    assert koloda.get_spec("perevodnoy") is spec


def test_the_defender_transfers_with_cards_of_the_attack_rank() -> None:
    g = tgame(["7S KD", "7C 7D 8S", "9S TS JS QS"], trump="6H")
    play(g, "0 attack 7S")
    transfers = sorted(a for a in g.legal_actions() if a.startswith("transfer"))
    assert transfers == ["transfer 7C", "transfer 7C 7D", "transfer 7D"]
    assert "attack rank" in refused(g, "transfer 8S")
    play(g, "1 transfer 7C")
    # the next player clockwise becomes the defender of every card on the table
    assert (g.attacker, g.defender, g.to_move, g.phase) == (1, 2, 2, "defend")
    assert g.attacks == parse_cards("7S 7C")


def test_the_new_defender_may_transfer_again() -> None:
    g = tgame(["7S 7D KD QD", "7C 8S 9S TS"], trump="6H")
    play(g, "0 attack 7S", "1 transfer 7C")
    assert g.defender == 0 and "transfer 7D" in g.legal_actions()
    play(g, "0 transfer 7D")
    assert (g.attacker, g.defender) == (0, 1)
    assert g.attacks == parse_cards("7S 7C 7D")


def test_transfer_goes_to_the_next_player_still_in() -> None:
    g = tgame(["7S 8D KD", "7C 8S", ""], trump="6H")
    play(g, "0 attack 7S", "1 transfer 7C")
    assert g.defender == 0                      # seat 2 has left the game


def test_in_team_play_a_transfer_goes_to_an_opponent_of_the_transferring_player() -> None:
    g = tgame(["7S 8D KD", "7C 8S", "", "9S TS JS"], trump="6H", teams=True)
    assert g.defender == 1
    play(g, "0 attack 7S", "1 transfer 7C")
    assert g.defender == 0                      # seat 3 is seat 1's partner, seat 2 is out


def test_transfer_refused_when_the_next_defender_holds_too_few_cards() -> None:
    # after the transfer two attack cards would be on the table; seat 0 holds only one
    g = tgame(["7S KD", "7C 8S 9S"], trump="6H")
    play(g, "0 attack 7S")
    assert not [a for a in g.legal_actions() if a.startswith("transfer")]
    assert "holds only 1" in refused(g, "transfer 7C")
    h = tgame(["7S KD QD", "7C 8S 9S"], trump="6H")
    play(h, "0 attack 7S")
    assert "transfer 7C" in h.legal_actions()


def test_transfer_not_allowed_after_take() -> None:
    g = tgame(["7S 7D KD", "7C 8S 9S", "QS JS TS"], trump="6H")
    play(g, "0 attack 7S", "1 take")
    assert not [a for a in g.legal_actions() if a.startswith("transfer")]
    assert "after take" in refused(g, "transfer 7C")


def test_transfer_not_allowed_after_a_beat() -> None:
    g = tgame(["7S 7D KD QD", "7C 8S 9D 9S"], trump="6H")
    play(g, "0 attack 7S 7D", "1 beat 7S 8S")
    assert g.to_move == 1
    assert not [a for a in g.legal_actions() if a.startswith("transfer")]
    assert "beaten" in refused(g, "transfer 7C")


def test_no_transfer_in_simple_durak() -> None:
    g = game(["7S KD QD", "7C 8S 9S"], trump="6H")
    play(g, "0 attack 7S")
    assert not [a for a in g.legal_actions() if a.startswith("transfer")]
    assert "transfer durak" in refused(g, "transfer 7C")


def test_the_transferring_player_becomes_first_attacker_for_throw_ins_and_drawing() -> None:
    g = tgame(["7S 9C TC JC QC KC", "7C 8D 9D TD JD QD", "8S 8C KS AS QS JS"],
              stock="6C 6D 6S")
    play(g, "0 attack 7S", "1 transfer 7C", "2 beat 7S KS", "2 beat 7C 8C")
    assert g.to_move == 1                       # seat 1 is asked first, then seat 0
    play(g, "1 pass")
    assert g.to_move == 0
    play(g, "0 pass")
    # drawing: seat 1 first, then seat 0, seat 2 (the defender) last
    assert hand(g, 1) == sorted(["6C", "8D", "9D", "TD", "JD", "QD"])
    assert hand(g, 0) == sorted(["6D", "9C", "TC", "JC", "QC", "KC"])
    assert hand(g, 2) == sorted(["6S", "8S", "AS", "QS", "JS"])
    assert (g.attacker, g.defender) == (2, 0)   # beaten: the defender attacks


def test_the_limit_counts_from_the_new_defender_hand_at_the_transfer() -> None:
    g = tgame(["7S 8S 9S TS JS", "7C 8C 9C TC JC QC", "8D 9H TH"], trump="6H")
    assert g.limit == 6
    play(g, "0 attack 7S", "1 transfer 7C")
    assert g.limit == 3                         # seat 2 held three cards
    play(g, "2 beat 7C 9H", "2 beat 7S TH")
    # two cards on the table count (the transferred one too): one more may be thrown;
    # seat 1, who transferred, is asked first
    assert g.to_move == 1
    assert sorted(a for a in g.legal_actions() if a.startswith("throw")) == ["throw 9C",
                                                                               "throw TC"]
    assert "limit" in refused(g, "throw 9C TC")


def test_transferred_cards_count_toward_the_limit() -> None:
    g = tgame(["7S 8S 9S", "7C 8C 9C", "9H TH"],
              stock="6C 6D 6S QD KD AD QC KC AC QS KS AS JD JC TD AH")
    play(g, "0 attack 7S", "1 transfer 7C", "2 beat 7C 9H", "2 beat 7S TH")
    # the new defender held two cards: with two on the table nobody is asked
    assert g.rounds == 1 and (g.attacker, g.defender) == (2, 0)


def test_a_transfer_respects_the_first_bout_limit() -> None:
    g = tgame(["7S 7C 8S 9S", "7D 7H 8C 9C TC", "KS KC KD KH QH AH"], trump="6H",
              stock="6C 6D 6S", limit=3)
    play(g, "0 attack 7S 7C")
    assert "transfer 7D" in g.legal_actions()
    assert "limit" in refused(g, "transfer 7D 7H")


def test_epaulettes_after_a_transfer_count_the_cards_when_the_durak_became_defender() -> None:
    g = tgame(["6S 7C 8C", "6C"], trump="6H")
    play(g, "0 attack 6S", "1 transfer 6C")
    assert g.in_game == [True, False]           # seat 1 played its last card and left
    play(g, "0 take")
    assert g.is_over and g.durak == 0 and g.epaulettes
    assert [CARD_TEXT[c] for c in g.last_opening[0] or ()] == ["6S", "6C"]


def test_example_record_replays_to_its_written_result() -> None:
    data = json.loads((RECORDS / "examples" / "durak-perevodnoy.json").read_text())
    rep = replay(data, keep_steps=False)
    assert rep.error is None
    assert rep.match is not None and rep.match.result is not None
    res = rep.match.result.to_json()
    for key in ("winners", "losers", "scores", "capped"):
        assert res[key] == data["result"][key]
