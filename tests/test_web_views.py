"""What leaves the server, for every game: each seat's state message names no card hidden
from that seat, a spectator's names no card hidden from any seat, private actions reach
the log face down; and the shipped card faces are what ``cardart`` draws."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from koloda import new_game, registry
from koloda.cards import CARD_TEXT
from koloda.engine.match import Match
from koloda.web import cardart
from koloda.web.protocol import Message, Refusal, parse
from koloda.web.table import Seat, Table
from koloda.web.views import HIDDEN, cards_in, hidden_texts, mentions, public_view, redact

CARDS = frozenset(CARD_TEXT)


def named_cards(text: str) -> set[str]:
    out: set[str] = set()

    def walk(v: object) -> None:
        if isinstance(v, str):
            out.update(w for w in v.split() if w in CARDS)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
    walk(json.loads(text))
    return out


def table_of(match: Match) -> Table:
    seats = [Seat("person", f"P{i}") for i in range(match.players)]
    return Table("t", match.spec, match, match.seed or 0, dict(match.options), seats,
                 {"away_timeout": 60, "away_policy": "wait", "away_bot": "random"},
                 time.time())


@pytest.mark.parametrize("game", sorted(registry()))
def test_no_message_names_a_card_its_receiver_cannot_know(game: str) -> None:
    for seed in (1, 2):
        match = new_game(game, seed=seed)
        table = table_of(match)
        rng = random.Random(seed)
        for _ in range(160):
            if match.is_over:
                break
            union: set[str] = set()
            for seat in range(match.players):
                hidden = hidden_texts(match, seat)
                union |= hidden
                text = table.state_text(seat)
                assert not named_cards(text) & hidden
                # and nothing the seat may see is lost: its view is its observation
                assert json.loads(text)["view"] == json.loads(json.dumps(
                    match.observation(seat).to_json()))
            spectator = json.loads(table.state_text(None))
            assert "hand" not in spectator["view"] and spectator["legal"] == []
            assert not named_cards(table.state_text(None)) & union
            seat = match.to_move
            assert seat is not None
            table.apply_logged(seat, rng.choice(match.legal_actions()))


@pytest.mark.parametrize("game", ["mushka", "dreyfus", "kopilka"])
def test_a_private_discard_reaches_the_others_face_down(game: str) -> None:
    for seed in range(30):
        match = new_game(game, seed=seed)
        table = table_of(match)
        rng = random.Random(seed)
        while not match.is_over and len(match.deals) == 1:
            seat = match.to_move
            assert seat is not None
            legal = match.legal_actions()
            discards = [a for a in legal if a.startswith("discard")]
            table.apply_logged(seat, rng.choice(discards or legal))
            if discards and len(match.deals) == 1:
                entry = table.log[-1]
                other = (seat + 1) % match.players
                mine = entry.for_viewer(seat, match.players)[1]
                theirs = entry.for_viewer(other, match.players)[1]
                watcher = entry.for_viewer(None, match.players)[1]
                assert mine == entry.text and HIDDEN not in mine
                assert theirs.split()[0] == "discard" and not cards_in(theirs)
                assert theirs.count(HIDDEN) == len(cards_in(entry.text))
                assert not cards_in(watcher)
                return
    pytest.fail(f"no {game} discard seen")


def test_played_cards_stay_in_everyones_log() -> None:
    match = new_game("durak", players=2, seed=3)
    table = table_of(match)
    legal = match.legal_actions()
    attack = next(a for a in legal if a.startswith("attack"))
    seat = match.to_move
    assert seat is not None
    table.apply_logged(seat, attack)
    for viewer in (0, 1, None):
        assert table.log[-1].for_viewer(viewer, 2)[1] == attack


def test_the_spectator_view_drops_the_hand_and_redacts_what_any_seat_cannot_see() -> None:
    match = new_game("kopilka", seed=4)
    view = public_view(match, hidden_texts(match, None))
    assert "hand" not in view and "my_discards" not in view and view["seat"] is None
    assert not named_cards(json.dumps(view)) & hidden_texts(match, None)


def test_redact_replaces_hidden_cards_inside_any_structure() -> None:
    hidden = frozenset({"9H", "AS"})
    value = {"a": ["9H", "KD"], "b": {"c": "beat 9H AS"}, "n": 3, "s": "AS"}
    out, n = redact(value, hidden)
    assert n == 4
    assert out == {"a": [HIDDEN, "KD"], "b": {"c": f"beat {HIDDEN} {HIDDEN}"}, "n": 3,
                   "s": HIDDEN}
    assert redact(value, frozenset({"2C"})) == (value, 0)
    assert mentions('{"x":"9H"}', hidden) and not mentions('{"x":"9D"}', hidden)


@pytest.mark.parametrize(("raw", "ok"), [
    ('{"type":"hello"}', True),
    ('{"type":"hello","token":null}', True),
    ('{"type":"act","version":3,"action":"play 9H","id":"a1"}', True),
    ('{"type":"ping","id":7}', True),
    ('{"type":"ping","version":1}', False),
    ('{"type":"act","version":-1,"action":"take"}', False),
    ('{"type":"act","version":1,"action":"' + "x" * 201 + '"}', False),
    ('{"type":"hello","token":"' + "t" * 101 + '"}', False),
    ("[" * 5000 + "]" * 5000, False),
    ("", False),
])
def test_parse_accepts_only_the_protocol(raw: str, ok: bool) -> None:
    msg = parse(raw)
    assert isinstance(msg, Message) == ok
    if not ok:
        assert isinstance(msg, Refusal) and msg.reason


def test_the_shipped_card_faces_are_what_cardart_draws() -> None:
    root = Path(cardart.__file__).parent / "static" / "cards"
    files = cardart.files()
    assert len(files) == 1 + 2 * 52
    for rel, svg in files.items():
        assert (root / rel).read_text(encoding="utf-8") == svg, \
            f"{rel} differs: run python -m koloda.web.cardart"


def test_a_court_card_is_a_double_headed_figure_not_a_bare_letter() -> None:
    """The issue's "court cards a bare letter": a king wears a crown, a queen a tiara, a
    jack a cap, drawn twice (turned round); the rank's letter is only in the corners."""
    for deck in ("en", "ru"):
        for rank in "JQK":
            svg = cardart.card_svg(f"{rank}S", deck)
            assert svg.count(cardart.HEADWEAR[rank]) == 2
            assert 'rotate(180 50 70)"><path d="M30 70' in svg
            # the letter only in the two corner indices, no big letter in the middle
            assert svg.count("</text>") == 2
            assert svg.count(f">{cardart.RANK_LABEL[deck][rank]}</text>") == 2
    assert cardart.HEADWEAR["K"] != cardart.HEADWEAR["Q"] != cardart.HEADWEAR["J"]


# ------------------------------------------------------------ the browser's words
#: fields the browser never shows by name (identity, or drawn in a place of their own)
def _card_words(value: object) -> set[str]:
    """Every card a display names: by code (``cards``, ``card``) and by its words (10♥)."""
    from koloda.cards import CARD_TEXT, format_card
    words = {format_card(c, "symbol", lang): CARD_TEXT[c] for lang in ("en", "ru")
             for c in range(52)}
    out: set[str] = set()

    def walk(x: object) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                if k in ("cards", "card"):
                    out.update(v if isinstance(v, list) else [v])
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, str):
            out.update(words[w] for w in x.replace(",", " ").split() if w in words)
    walk(value)
    return out


@pytest.mark.parametrize("game", sorted(registry()))
def test_no_display_names_a_card_its_receiver_cannot_know(game: str) -> None:
    from koloda.web.views import display
    rng = random.Random(4)
    m = new_game(game, seed=4, max_deals=2)
    seats = [{"kind": "person", "name": f"P{i}"} for i in range(m.players)]
    step = 0
    while not m.is_over and step < 120:
        if step % 5 == 0:
            for viewer in (*range(m.players), None):
                hidden = hidden_texts(m, viewer)
                for lang in ("en", "ru"):
                    named = _card_words(display(m, viewer, seats, lang))
                    assert not named & hidden, (game, step, viewer, named & hidden)
        m.apply(rng.choice(m.legal_actions()))
        step += 1


def test_a_display_shows_a_hidden_card_face_down_in_code_and_in_words() -> None:
    from koloda.web.views import _guard_display
    disp = {"info": [{"label": "x", "text": "9♥ Д♠", "cards": ["9H", "QS"]}],
            "centre": {"plays": [{"card": "QS", "text": "Д♠", "name": "A"}]}}
    safe, n = _guard_display(disp, frozenset({"QS"}), "ru")
    assert n == 4 and safe["info"][0] == {"label": "x", "text": "9♥ 🂠", "cards": ["9H", "??"]}
    assert safe["centre"]["plays"][0]["card"] == "??" and "Д♠" not in str(safe)


def test_the_lobby_names_every_option_in_russian() -> None:
    """And in English in words, not by its identifier (not `first_bout_limit`)."""
    from koloda.web.page_routes import games_json
    for game in games_json():
        for o in game["options"]:
            assert "_" not in o["title"]["en"] and o["allowed_text"]["en"] == o["allowed"]
            assert o["title"]["ru"] != o["name"], o["name"]
            assert o["allowed_text"]["ru"] != o["allowed"], o["allowed"]
