"""One term, one word: the terminal, the browser, the command line and the engine's
messages say each term the same way, because they read one vocabulary
(koloda/engine/terms.py) and keep no table of terms of their own.

Each test fails when two interfaces say one term differently: every (English → Russian)
pair the catalogs and the vocabulary can produce is collected, and each English term must
have one Russian word (a heading «Взятка» is the term «взятка»)."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

import koloda
from koloda import i18n
from koloda.engine import messages, terms
from koloda.web import limits, texts

#: one English word, two senses — said apart on purpose (the key names the sense)
HOMONYMS = {
    "play": "the verb «сыграть» / the phase «розыгрыш»",
    "attack": "the verb «ходить» / Durak's phase «ход»",
    "throw": "the verb «подкинуть» / the phase «подкидывание»",
    "draw": "Kopilka's verb «прикупить» / a drawn game «ничья»",
    "discard": "the verb «снести» / Durak's beaten-off pile «бито»",
}

#: one English word for two games' own terms, each its book's word (checked as documented)
BOOKS_DIFFER = {
    "pot": {"касса", "кон"},   # Kopilka's book «касса» (the purse kept across deals),
                               # Stukolka's «кон» (the stake of one deal): terms pot, kon
}

STATIC = Path(koloda.__file__).parent / "web" / "static" / "js"


def _norm(text: str) -> str:
    return text.strip().lower()


def _pairs() -> dict[tuple[str, str], dict[str, set[str]]]:
    """(namespace, English) → {Russian: where it is said}; sentences with placeholders are
    not terms and are left out."""
    koloda.registry()   # every game's own terms registered
    out: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))

    def add(ns: str, where: str, en: str, ru: str) -> None:
        if "{" not in en:
            out[(ns, _norm(en))][_norm(ru)].add(where)

    for k, (en, ru) in terms.TERMS.items():
        add("term", f"terms.TERMS[{k!r}]", en, ru)
    for k, (en, ru) in terms.BOTS.items():
        add("term", f"terms.BOTS[{k!r}]", en, ru)
    for i, (en, ru) in enumerate(terms.SUIT_WORDS):
        add("term", f"terms.SUIT_WORDS[{i}]", en, ru)
    for k, (en, ru) in terms.VERBS.items():
        add("verb", f"terms.VERBS[{k!r}]", en, ru)
    for k, (en, ru) in messages.VERB_WORDS.items():
        add("verb", f"messages.VERB_WORDS[{k!r}]", en, ru)
    for k, (en, ru) in i18n._TEXTS.items():
        add("term", f"i18n._TEXTS[{k!r}]", en, ru)
    for k, (en, ru) in texts._PAIRS.items():
        add("term", f"web.texts[{k!r}]", en, ru)
    for k, (en, ru) in limits.TEXTS.items():
        add("term", f"web.limits.TEXTS[{k!r}]", en, ru)
    return out


def test_every_english_term_has_one_russian_word_in_every_interface() -> None:
    clashes = {f"{ns} {en!r}": {ru: sorted(w) for ru, w in said.items()}
               for (ns, en), said in _pairs().items()
               if len(said) > 1 and set(said) != BOOKS_DIFFER.get(en)}
    assert not clashes, clashes


def test_a_verb_and_a_value_word_of_one_key_say_the_same() -> None:
    """«stand» the move and «stand» the choice a seat made: one word."""
    differ = {k: (terms.VERBS[k], terms.TERMS[k]) for k in set(terms.VERBS) & set(terms.TERMS)
              if k not in HOMONYMS and terms.VERBS[k][1] != terms.TERMS[k][1]}
    assert not differ, differ


def test_no_interface_keeps_a_table_of_terms() -> None:
    for name in ("_LABELS", "_VALUES", "_SUITS_RU", "_SUIT_LETTERS", "_OPTIONS", "_VERBS",
                 "_BOTS"):
        assert not hasattr(i18n, name), f"koloda.i18n.{name} re-defines terms"
    prefixes = ("f_", "v_", "w_", "ph_", "suit_", "bot_")
    assert not [k for k in texts._PAIRS if k.startswith(prefixes)]
    # a catalog's own key may not be a term's key with a word of its own: sentences only
    for catalog, name in ((i18n._TEXTS, "i18n"), (texts._PAIRS, "web.texts"),
                          (limits.TEXTS, "web.limits")):
        for key, (en, ru) in catalog.items():
            pair = terms.TERMS.get(key) or terms.VERBS.get(key)
            if pair is not None and "{" not in en and len(en.split()) <= 2:
                assert (_norm(en), _norm(ru)) == (_norm(pair[0]), _norm(pair[1])), \
                    (name, key, (en, ru), pair)


def test_the_browser_is_served_the_vocabulary_itself() -> None:
    for i, lang in enumerate(("en", "ru")):
        served = texts.TEXTS[lang]
        for k, pair in terms.TERMS.items():
            assert served[f"term.{k}"] == pair[i]
        for k, pair in terms.VERBS.items():
            assert served[f"verb.{k}"] == pair[i]
        assert served["suit.H"] == terms.suit_word(3, lang)
        assert served["rank.Q"] == ("Д" if lang == "ru" else "Q")


def test_the_pages_scripts_hold_no_words_of_their_own() -> None:
    """Every word the browser shows comes from /api/texts: no Russian in the scripts (but
    the language's own name in the language switch)."""
    cyrillic = re.compile("[\u0400-\u04ff]")
    for path in sorted(STATIC.glob("*.js")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if cyrillic.search(line) and "Русский" not in line and not \
                    line.lstrip().startswith(("//", "/*", "*")):
                raise AssertionError(f"{path.name}:{n}: {line.strip()}")


def test_the_book_words_chosen_where_the_interfaces_disagreed() -> None:
    """Four words once said two ways, now said one way (the books' words)."""
    assert terms.verb("stand", "ru") == "играю"        # «желающий играть» vs «пасовать»
    assert terms.verb("draw", "ru") == "прикупить"     # «прикупить могут и следующие»
    assert terms.term("voids", "ru") == "нет масти"     # «при отсутствии требуемой масти»
    assert terms.term("blocked", "ru") == "заперта"     # the rules: «сдача заперта»


def test_a_log_says_what_a_seat_did_not_the_infinitive() -> None:
    """The issue's «Alice ходить 9♥»: a log line is the third person («ходит»), a button
    the pressed form («ходить»); every verb of every game has its log form."""
    from koloda.engine.registry import registry
    from koloda.present import action_words
    from koloda.tui.view import action_text
    assert action_words("attack 9H", "ru", done=True) == "ходит 9♥"
    assert action_words("attack 9H", "ru") == "ходить 9♥"
    assert action_words("beat 7S 9S", "ru", done=True) == "бьёт 7♠ картой 9♠"
    assert action_words("play QH", "en", done=True) == "plays Q♥"
    assert action_text("take", "ru", done=True).plain == "берёт"
    for spec in registry().values():
        for v in spec.actions.verbs():
            assert v in terms.DONE, f"{spec.name}: the verb {v!r} has no log form"
            ru = terms.verb_done(v, "ru")
            assert not re.search(r"(ть|ти)\b", ru), f"{v!r} logs as an infinitive: {ru}"
    served = texts.TEXTS
    assert served["ru"]["done.attack"] == "ходит"
    assert served["en"]["done.beat"] == "beats"


@pytest.mark.parametrize("game", sorted(koloda.registry()))
def test_every_view_field_of_every_game_is_declared_with_a_term_of_the_vocabulary(
        game: str) -> None:
    from koloda.engine.terms import has_term
    from koloda.engine.view import fields_of
    spec = koloda.get_spec(game)
    assert spec.views, f"{game} declares no typed views"
    for cls in spec.views:
        for f in fields_of(cls):
            assert f.term is None or has_term(f.term), f"{game}: {cls.__name__}.{f.name}: {f.term}"
