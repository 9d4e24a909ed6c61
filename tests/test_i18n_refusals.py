"""Every refusal a person can meet is a message of the engine's catalog, said in
English (exactly ``str(exc)``) and in Russian (Cyrillic, no English sentence left)."""

from __future__ import annotations

import random
import re
import string
from itertools import combinations
from pathlib import Path

import pytest

import koloda
from koloda.cards import CARD_TEXT, TEXT_CARD
from koloda.engine.actions import CARD_VERBS, NUMBER_VERBS, PLAIN_VERBS, Action
from koloda.engine.deal import AwaitingDeal
from koloda.engine.errors import IllegalAction
from koloda.engine.messages import (
    CATALOG,
    Act,
    Acts,
    Cards,
    Quoted,
    Ranks,
    Reason,
    Suit,
    Verb,
)
from koloda.web.protocol import Refusal

GAMES = sorted(koloda.registry())
KOLODA = Path(koloda.__file__).parent

_CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
#: three Latin words in a row: an English phrase left untranslated
_ENGLISH_RUN = re.compile(r"\b[A-Za-z]{2,}(?:[ \-]+[A-Za-z]{2,}){2,}\b")
_QUOTED = re.compile(r"«[^»]*»")

MALFORMED = ["", "   ", "foo", "play", "play XX", "play 9H 9H", "play 1S", "beat 6C",
             "beat 6C 7C 8C", "take 1", "bid", "bid x", "bid -1", "pick", "pick a b",
             "play 9H wild wild", "attack", "discard", "throw", "transfer", "flip 9H",
             "knock now", "пас", "play 9H please"]


def check_russian(text: str) -> None:
    """A Russian refusal: Cyrillic, no English phrase and no ASCII card outside «quotes»."""
    assert _CYRILLIC.search(text), f"no Russian in {text!r}"
    bare = _QUOTED.sub("«»", text)
    assert not _ENGLISH_RUN.search(bare), f"English left in {text!r}"
    ascii_cards = [w for w in re.split(r"[\s,;:()]+", bare) if w in TEXT_CARD]
    assert not ascii_cards, f"cards not in Russian in {text!r}: {ascii_cards}"


def check_refusal(exc: IllegalAction) -> str:
    key = exc.key
    assert key in CATALOG, f"not a catalog message: {str(exc)!r}"
    assert isinstance(exc.reason, Reason)
    assert exc.render("en") == str(exc) == exc.reason
    check_russian(exc.render("ru"))
    return key


def attempts(match: koloda.Match, rng: random.Random) -> list[str]:
    """A wide set of actions to try: every card with each card verb, every plain verb, bids
    and picks, wrong counts of the hand's cards, beats of the table's cards, malformed
    text."""
    seat = match.to_move
    obs = match.observation(seat) if seat is not None else {}
    hand = [c for c in obs.get("hand") or [] if c in TEXT_CARD]
    out = [f"{v} {t}" for v in sorted(CARD_VERBS - {"beat"}) for t in CARD_TEXT]
    out += [f"play {t} {m}" for t in rng.sample(CARD_TEXT, 8) for m in ("wild", "plain")]
    out += sorted(PLAIN_VERBS)
    out += [f"{v} {n}" for v in sorted(NUMBER_VERBS) for n in (0, 1, 2, 3, 5, 9, 36, 99)]
    for k in range(2, len(hand) + 1):         # wrong counts: several cards at once
        for v in ("play", "discard", "attack", "throw", "transfer"):
            out.append(f"{v} {' '.join(hand[:k])}")
    out += [f"attack {a} {b}" for a, b in combinations(hand[:6], 2)]
    table = [p[0] for p in obs.get("table") or [] if p and p[0] in TEXT_CARD]
    others = rng.sample(CARD_TEXT, 6)
    out += [f"beat {a} {b}" for a in table + others[:2] for b in hand + others[2:]]
    return out + MALFORMED


def refusals_along_a_playout(name: str, players: int, seed: int, every: int) -> set[str]:
    rng = random.Random(seed)
    match = koloda.new_game(name, players=players, seed=seed, max_deals=2)
    keys: set[str] = set()
    step = 0
    while not match.is_over:
        legal = set(match.legal_actions())
        if step % every == 0:
            for a in attempts(match, rng):
                try:
                    if str(Action.parse(a)) in legal:
                        continue
                except IllegalAction:
                    pass
                if a in legal:
                    continue
                with pytest.raises(IllegalAction) as err:
                    match.apply(a)
                keys.add(check_refusal(err.value))
            assert set(match.legal_actions()) == legal      # refusals change nothing
        match.apply(rng.choice(sorted(legal)))
        step += 1
    with pytest.raises(IllegalAction) as err:
        match.apply("flip")
    keys.add(check_refusal(err.value))
    return keys


@pytest.mark.parametrize("name", GAMES)
def test_every_refusal_of_every_game_is_a_catalog_message_in_both_languages(name: str) -> None:
    spec = koloda.get_spec(name)
    keys: set[str] = set()
    for players in sorted({spec.players[0], spec.default_players}):
        for seed in (1, 2):
            keys |= refusals_along_a_playout(name, players, seed, every=3)
    # a game's playouts meet more than the notation's and the engine's messages
    assert keys - {"match_over", "empty_action", "unknown_action", "not_a_card",
                   "card_twice", "no_arguments", "one_number", "needs_card",
                   "beat_two_cards"}, keys


def test_every_key_has_both_templates_with_the_same_placeholders() -> None:
    def fields(template: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}
    for key, (en, ru) in CATALOG.items():
        assert en and ru, key
        assert fields(en) == fields(ru), key
        assert not _CYRILLIC.search(en), key


#: a value of the kind each placeholder name holds, to render every key without a game
SAMPLE_ARGS = {
    "suit": Suit(1), "trump": Suit(3), "cards": Cards([TEXT_CARD["9H"], TEXT_CARD["AS"]]),
    "card": Cards([TEXT_CARD["6C"]]), "a": Cards([TEXT_CARD["7D"]]),
    "b": Cards([TEXT_CARD["QD"]]), "ranks": Ranks([4, 8]), "rank": Ranks([9]),
    "action": Act("play QH"), "legal": Acts(["play 9H", "take"]), "text": Quoted("ply 9H"),
    "verb": Verb("take"), "verbs": "attack, beat, take, throw, pass", "mode": "wild",
    "duty": Reason("must_follow", suit=Suit(2)), "who": Reason("seat_n", n=2),
    "type": "int", "path": "game.json",
}


@pytest.mark.parametrize("key", sorted(CATALOG))
def test_every_key_reads_in_russian(key: str) -> None:
    names = {f for _, f, _, _ in string.Formatter().parse(CATALOG[key][0]) if f}
    args = {n: SAMPLE_ARGS.get(n, 3) for n in names}
    reason = Reason(key, **args)
    assert reason.render("en") == str(reason) and not _CYRILLIC.search(reason)
    check_russian(reason.render("ru"))


def _uses() -> dict[str, set[Path]]:
    """Each string literal of the koloda package that is a catalog key, with its files."""
    found: dict[str, set[Path]] = {}
    for path in KOLODA.rglob("*.py"):
        if path.name == "messages.py":
            continue
        for word in re.findall(r"\"([a-z_0-9]+)\"", path.read_text(encoding="utf-8")):
            if word in CATALOG:
                found.setdefault(word, set()).add(path)
    return found


def test_every_key_is_used_and_every_refusal_names_a_key() -> None:
    assert set(CATALOG) == set(_uses())
    for path in KOLODA.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"(?:IllegalAction|Reason)\(\s*(f?)([\"'])([^\"']*)\2", text):
            assert not m.group(1) and m.group(3) in CATALOG, (path, m.group(0))


def test_a_reason_renders_its_arguments_per_language() -> None:
    nine, ace = TEXT_CARD["9H"], TEXT_CARD["AS"]
    r = Reason("duty_hold", duty=Reason("must_trump", suit=Suit(0)), cards=Cards([nine, ace]))
    assert r == "void in spades, must play a trump: you hold 9H AS"
    assert r.render("ru") == "нет пик — нужно бить козырем: у вас есть 9♥ Т♠"
    assert Reason("must_follow", suit=Suit(3, trump=True)).render("ru") == \
        "нужно ходить в козыри"
    refused = Reason("not_legal_now", action=Act("beat 6S QS"), legal=Acts(["take", "play TH"]))
    assert refused == "'beat 6S QS' is not legal now; legal: take, play TH"
    assert refused.render("ru") == \
        "ход «побить 6♠ Д♠» сейчас невозможен; можно: «взять», «сыграть 10♥»"
    assert Reason("card_twice", text=Quoted("play 9H 9h")).render("ru") == \
        "карта названа дважды: «play 9H 9h»"
    assert Reason("throw_ranks", ranks=Ranks([4, 8]), cards=Cards([ace])).render("ru") == \
        "подкидывать можно только достоинства, что уже на столе (6, 10), а не Т♠"


@pytest.mark.parametrize(("n", "words"), [(1, "1 карта"), (2, "2 карты"), (4, "4 карты"),
                                          (5, "5 карт"), (11, "11 карт"), (21, "21 карта"),
                                          (22, "22 карты"), (0, "0 карт")])
def test_russian_numbers_take_the_right_plural(n: int, words: str) -> None:
    assert Reason("widow_only", n=n).render("ru") == f"в прикупе осталось только {words}"
    assert Reason("widow_only", n=n) == f"only {n} card(s) are left in the widow"


def test_a_reason_survives_copy_and_pickle() -> None:
    import copy
    import pickle
    r = Reason("cover_higher", a=Cards([1]), b=Cards([0]), suit=Suit(0), trump=Suit(3))
    for again in (copy.deepcopy(r), pickle.loads(pickle.dumps(r))):
        assert again == r and again.key == r.key and again.render("ru") == r.render("ru")
    exc = pickle.loads(pickle.dumps(IllegalAction(r)))
    assert exc.key == "cover_higher" and exc.render("ru") == r.render("ru")


def test_a_plain_text_refusal_still_works() -> None:
    exc = IllegalAction("the house rule says no")
    assert exc.key is None and exc.render("ru") == str(exc) == "the house rule says no"


def test_a_deal_not_yet_dealt_refuses_in_both_languages() -> None:
    with pytest.raises(IllegalAction) as err:
        AwaitingDeal(3, 1).apply("play 9H")
    assert check_refusal(err.value) == "deal_not_dealt_by"
    assert "место 1" in err.value.render("ru")


def test_web_refusals_carry_the_russian_of_every_catalog_message() -> None:
    who = Reason("seat_n", n=2)
    for reason in (Reason("not_your_turn_web", who=who), Reason("spectator"),
                   Reason("stale", seen=3, now=5), Reason("match_over")):
        out = Refusal("x", reason).to_json()
        assert out["reason"] == str(reason) and type(out["reason"]) is str
        check_russian(out["reason_ru"])
    assert Refusal("malformed", "not JSON").to_json() == {"type": "refused",
                                                          "code": "malformed",
                                                          "reason": "not JSON"}


def test_a_replay_out_of_turn_is_reported_in_english_as_before() -> None:
    from koloda.engine.records import replay
    match = koloda.new_game("trinka", seed=3)
    record = match.record()
    record["actions"] = [{"seat": (match.to_move + 1) % 4, "action": match.legal_actions()[0]}]
    out = replay(record)
    assert out.error is not None
    assert out.error["reason"] == (f"seat {(match.to_move + 1) % 4} may not act now: it is "
                                   f"seat {match.to_move}'s turn")
