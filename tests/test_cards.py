"""Card notation and decks (koloda/rules/conventions.en.md §Precisely 3–5)."""

import pytest

from koloda.cards import CARD_TEXT, deck, format_card, parse_card, parse_cards, rank_of, suit_of


def test_parse_ascii_ten_and_symbols() -> None:
    assert CARD_TEXT[parse_card("6C")] == "6C"
    assert parse_card("10H") == parse_card("TH") == parse_card("th") == parse_card("10♥")
    assert parse_card("6♣") == parse_card("6C")
    assert parse_cards("AS KD") == [parse_card("AS"), parse_card("KD")]


@pytest.mark.parametrize("bad", ["", "1H", "6X", "ZZ", "10", "AAS"])
def test_parse_rejects_non_cards_naming_the_text(bad: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse_card(bad)


def test_format_ascii_symbol_and_names_in_both_languages() -> None:
    c = parse_card("TH")
    assert format_card(c) == "TH"
    assert format_card(c, "symbol") == "10♥"
    assert format_card(parse_card("QS"), "symbol", "ru") == "Д♠"
    assert format_card(parse_card("AS"), "name") == "ace of spades"
    assert format_card(parse_card("AS"), "name", "ru") == "туз пик"


def test_canonical_order_is_suit_s_c_d_h_then_rank() -> None:
    cards = parse_cards("2H AS 6C KD 3S")
    assert [CARD_TEXT[c] for c in sorted(cards)] == ["3S", "AS", "6C", "KD", "2H"]
    assert suit_of(parse_card("KD")) == 2 and rank_of(parse_card("KD")) == 11


@pytest.mark.parametrize(("size", "lowest"), [(52, "2"), (48, "3"), (36, "6"), (32, "7")])
def test_standard_decks(size: int, lowest: str) -> None:
    d = deck(size)
    assert len(d) == len(set(d)) == size
    assert min(CARD_TEXT[c][0] for c in d if CARD_TEXT[c][0].isdigit()) == lowest


def test_deck_30_is_36_without_the_red_sixes_and_the_sevens() -> None:
    assert set(deck(36)) - set(deck(30)) == set(parse_cards("6H 6D 7S 7C 7D 7H"))
    assert len(deck(30)) == len(set(deck(30))) == 30


def test_deck_33_is_32_plus_six_of_clubs() -> None:
    assert set(deck(33)) - set(deck(32)) == {parse_card("6C")}


def test_deck_34_is_32_plus_both_black_sixes() -> None:
    assert set(deck(34)) - set(deck(32)) == set(parse_cards("6S 6C"))


def test_unknown_deck_lists_the_allowed_sizes() -> None:
    with pytest.raises(ValueError, match="30, 32, 33, 34, 36, 48, 52"):
        deck(40)


def test_shuffle_makes_the_permutation_random_shuffle_makes() -> None:
    import random

    from koloda.cards import shuffle
    for seed in range(200):
        for n in (0, 1, 2, 3, 32, 36, 52):
            a, b = list(range(n)), list(range(n))
            ra, rb = random.Random(seed), random.Random(seed)
            ra.shuffle(a)
            shuffle(b, rb)
            assert a == b and ra.random() == rb.random()   # the same draws, too
