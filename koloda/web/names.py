"""Which names people may take: accounts' names and guests' names at tables.

A name is checked as the tables check every name (:func:`koloda.web.checks.check_name`:
NFC, spaces collapsed, no control, bidi or zero-width character, at most 40 characters),
then by the PRECIS framework's **UsernameCaseMapped** profile (RFC 8265, section 3.3,
through the ``precis-i18n`` package). That profile has no spaces, so a name is taken as
RFC 8265 section 3.5 suggests: userparts separated by single spaces, each checked on its
own — «Anna Maria» and «Анна Мария» stay names. A userpart may not begin with a combining
mark either (a lone accent shows as nothing, or lands on the character before it).

Guests' names follow the same rules, not the Nickname profile (RFC 8266): a guest's name
sits in the same namespace as the accounts' (no guest may take a name an account holds or
one that looks like it), and Nickname's FreeformClass lets in what shows as blank or as
another name — U+2800 BRAILLE PATTERN BLANK passes it, and its NFKC turns «𝐕𝐞𝐫𝐚» into
«vera» silently instead of saying so. One rule for both is one rule to explain.

What is shown is the name as written, width-mapped (full-width letters as ordinary ones),
case kept (PRECIS UsernameCasePreserved); names are compared case folded
(:func:`koloda.store.name_key`) and by their confusables skeleton
(:func:`koloda.store.skeleton.skeleton`), which the store keeps unique for accounts.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from precis_i18n import get_profile

from koloda.web import checks, limits
from koloda.web.checks import TableError

_SHOWN = get_profile("UsernameCasePreserved")
_MAPPED = get_profile("UsernameCaseMapped")

#: characters that PRECIS refuses for other reasons but that a person sees as blank
BLANK = frozenset({0x2800, 0x3164, 0xFFA0, 0x115F, 0x1160, 0x034F, 0x180E, 0x2028,
                   0x2029, 0x205F, 0x3000, 0x00A0, 0x2007, 0x202F, 0x17B4, 0x17B5})
#: PRECIS's reasons (``DISALLOWED/<reason>``) that mean "shows as nothing"
_BLANK_REASONS = frozenset({"old_hangul_jamo", "precis_ignorable_properties", "spaces",
                            "join_control", "zero_width_joiner", "zero_width_nonjoiner"})

NAME_TEXTS: dict[str, tuple[str, str]] = {
    "name_blank_char": (
        "name: the name has a character that shows as blank or as nothing (U+{code:04X}, "
        "character {pos})",
        "имя: в имени есть символ, который выглядит как пустое место или не виден вовсе "
        "(U+{code:04X}, символ {pos})"),
    "name_lone_mark": (
        "name: a combining mark (U+{code:04X}, character {pos}) with no letter before it",
        "имя: надстрочный знак (U+{code:04X}, символ {pos}) без буквы перед ним"),
    "name_styled_char": (
        "name: the name has a styled or compatibility form of a character (U+{code:04X}, "
        "character {pos}); write it plainly",
        "имя: в имени есть начертательный или совместимый вариант символа (U+{code:04X}, "
        "символ {pos}); напишите его обычным"),
    "name_not_allowed": (
        "name: U+{code:04X} (character {pos}) is not a letter, digit or ASCII sign "
        "allowed in names",
        "имя: U+{code:04X} (символ {pos}) — не буква, не цифра и не знак ASCII, "
        "допустимый в именах"),
    "name_mixed_direction": (
        "name: a word mixes left-to-right and right-to-left writing",
        "имя: в одном слове смешаны письмо слева направо и справа налево"),
    "name_looks_taken": (
        "the name {name} looks like the registered name {like}; choose another",
        "имя {name} похоже на зарегистрированное имя {like}; выберите другое"),
    "name_looks_held": (
        "the name {name} looks like the registered name {like}: sign in, or play under "
        "another name",
        "имя {name} похоже на зарегистрированное имя {like}: войдите или играйте под "
        "другим именем"),
}
limits.TEXTS.update(NAME_TEXTS)


def _refusal(reason: str, code: int, pos: int) -> TableError:
    kind = reason.removeprefix("DISALLOWED/")
    if code in BLANK or kind in _BLANK_REASONS:
        return TableError("name_blank_char", code=code, pos=pos)
    if kind == "has_compat":
        return TableError("name_styled_char", code=code, pos=pos)
    if kind == "bidi_rule":
        return TableError("name_mixed_direction")
    return TableError("name_not_allowed", code=code, pos=pos)


def check_name(name: Any) -> str:
    """``name`` as it is shown, if people may take it (else :class:`TableError` saying
    what was wrong, in English and Russian): the table's checks, then each space-separated
    userpart by PRECIS UsernameCaseMapped, none starting with a combining mark."""
    name = checks.check_name(name)
    shown: list[str] = []
    start = 0
    for part in name.split(" "):
        for i, ch in enumerate(part):
            if ord(ch) in BLANK:
                raise TableError("name_blank_char", code=ord(ch), pos=start + i + 1)
        if unicodedata.category(part[0]).startswith("M"):
            raise TableError("name_lone_mark", code=ord(part[0]), pos=start + 1)
        try:
            _MAPPED.enforce(part)
            shown.append(_SHOWN.enforce(part))
        except UnicodeEncodeError as exc:
            # (a reason about the whole userpart points at its first character)
            raise _refusal(exc.reason, ord(part[exc.start]), start + exc.start + 1) from None
        start += len(part) + 1
    return " ".join(shown)
