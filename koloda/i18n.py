"""Every text a person sees, in Russian and English."""

from __future__ import annotations

import locale
import os

LANGS = ("en", "ru")

_TEXTS: dict[str, tuple[str, str]] = {
    "your_turn": ("Your move, seat {seat}", "Ваш ход, место {seat}"),
    "choose": ("Choose a number or type an action (q saves and quits, ? lists actions)",
               "Выберите номер или введите ход (q — сохранить и выйти, ? — список ходов)"),
    "press_enter": ("Press Enter to {action} (q saves and quits)",
                    "Нажмите Enter: {action} (q — сохранить и выйти)"),
    "bot_moves": ("{who} plays: {action}", "{who}: {action}"),
    "illegal": ("Not allowed: {reason}", "Нельзя: {reason}"),
    "saved": ("Game saved to {path}. Continue with: koloda play --resume {path}",
              "Игра сохранена в {path}. Продолжить: koloda play --resume {path}"),
    "over": ("The match is over.", "Партия окончена."),
    "winners": ("Winners: {seats}", "Победители: {seats}"),
    "draw": ("A draw: nobody wins.", "Ничья."),
    "scores": ("Scores: {scores}", "Счёт: {scores}"),
    "seat": ("seat", "место"),
    "you": ("you", "вы"),
    "game": ("Game", "Игра"),
    "players": ("Players", "Игроки"),
    "options": ("Options", "Параметры"),
    "variant": ("Variant", "Вариант"),
    "deal": ("Deal", "Сдача"),
    "dealer": ("dealer", "сдаёт"),
    "to_move": ("to move", "ходит"),
}


def default_lang() -> str:
    """Russian when the locale says so, else English."""
    for var in ("KOLODA_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "ru" if value.lower().startswith("ru") else "en"
    loc = locale.getlocale()[0] or ""
    return "ru" if loc.lower().startswith("ru") else "en"


def t(key: str, lang: str = "en", **kw: object) -> str:
    en, ru = _TEXTS[key]
    return (ru if lang == "ru" else en).format(**kw)


def check_lang(lang: str | None) -> str:
    if lang is None:
        return default_lang()
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; languages: {', '.join(LANGS)}")
    return lang
