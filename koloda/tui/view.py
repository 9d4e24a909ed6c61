"""What the table shows, made from an observation alone (rich renderables, no Textual).

Generic first: every game's observation has a ``hand``, per-seat lists (``hand_sizes``,
``bids``, ``tricks`` …), a trick or a table, scalars (trump, stock …) and a ``sheet``.
A field this module has never heard of still shows — as a column when it holds one value
per seat, else as a line — so a newly landed game is playable before anyone writes a view
for it. The few adapters below are keyed on observation fields (a Durak table of
attack/defence pairs, Kopilka's trick with passes, Opendaum's deal-by-deal sheet, Trinka's
pair records), never on game rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from koloda.cards import CARD_TEXT, TEXT_CARD, format_card, rank_of, suit_of
from koloda.cli.render import card_text, value_text
from koloda.i18n import label, suit_word, t, value_word, verb

#: fields that are not shown as such (identity, or shown by a dedicated part of the table)
SKIP = frozenset({
    "game", "players", "seat", "deal_number", "dealer", "to_move", "match_over", "sheet",
    "hand", "trick", "table", "last_trick", "last_round", "exchange", "offers", "variant",
    "my_discards", "trump_card_in_dealer_hand", "schedule_position", "schedule_length",
    "teams", "trump_drawn_by", "first_dealer_draw",
})
#: scalar fields that name a seat
SEAT_FIELDS = ("attacker", "defender", "leader", "starter", "offerer", "first_to_shed",
               "golets")
#: sheet fields that repeat an observation field under another name
SAME_AS = {"cards": "pile_sizes"}
#: list fields that are sets of seats (not one value per seat)
SEAT_SETS = {"in_game": "in", "in_play": "in", "out": "out", "skipped": "skipped",
             "passed": "passed"}


def is_card(x: Any) -> TypeGuard[str]:
    return isinstance(x, str) and x in TEXT_CARD


def seat_name(seat: Any, names: Sequence[str]) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return str(seat)


def action_text(action: str, lang: str = "en") -> Text:
    """A canonical action as a person reads it: the verb in their language, cards coloured.

    ``beat A B`` reads "beat A with B"."""
    words = action.split()
    out = Text(verb(words[0], lang), style="bold")
    args = words[1:]
    if words[0] == "beat" and len(args) == 2:
        out.append(" ")
        out.append_text(card_text(args[0], lang))
        out.append(f" {verb('with', lang)} ")
        out.append_text(card_text(args[1], lang))
        return out
    for w in args:
        out.append(" ")
        if is_card(w):
            out.append_text(card_text(w, lang))
        else:
            out.append(verb(w, lang))
    return out


#: a card as a refusal names it in each language (``TH``, ``10♥``, ``Т♥``) → its ASCII text
_REASON_CARDS: dict[str, str] = {
    **{format_card(c, "symbol", lang): CARD_TEXT[c] for lang in ("en", "ru") for c in range(52)},
    **{t: t for t in CARD_TEXT},
}


def reason_text(text: str, lang: str = "en") -> Text:
    """An engine refusal (already in the person's language) with its cards coloured."""
    out = Text()
    for i, w in enumerate(text.split(" ")):
        if i:
            out.append(" ")
        lead = len(w) - len(w.lstrip("(«"))
        core = w[lead:].rstrip(",.;:)»")
        card = _REASON_CARDS.get(core)
        if card is not None:
            out.append(w[:lead])
            out.append_text(card_text(card, lang))
            out.append(w[lead + len(core):])
        else:
            out.append(w)
    return out


def trump_suit(obs: Mapping[str, Any]) -> int | None:
    """The trump suit as an index, when the observation names one plainly."""
    for key in ("trump_suit", "trump"):
        v = obs.get(key)
        if isinstance(v, str):
            if len(v) == 1 and v in "SCDH":
                return "SCDH".index(v)
            if v in ("spades", "clubs", "diamonds", "hearts"):
                return ("spades", "clubs", "diamonds", "hearts").index(v)
    card = obs.get("trump_card")
    return suit_of(TEXT_CARD[card]) if is_card(card) else None


def sort_hand(hand: Sequence[str], obs: Mapping[str, Any]) -> list[str]:
    """By suit (S C D H, trumps last), then rank: the order a player holds cards in."""
    trump = trump_suit(obs)

    def key(c: str) -> tuple[int, int, int]:
        card = TEXT_CARD.get(c)
        if card is None:
            return (9, 0, 0)
        s = suit_of(card)
        return (1 if s == trump else 0, s, rank_of(card))
    return sorted(hand, key=key)


# ------------------------------------------------------------------ the hand
def hand_text(hand: Sequence[str], cursor: int | None, marked: frozenset[str],
              legal: frozenset[str], lang: str) -> Text:
    """Cards face up in a row: legal ones bright, others dim; the cursor reversed; marked
    cards lifted with a ▲ under them."""
    if not hand:
        return Text(t("no_hand", lang), style="dim")
    top, face, bottom = Text(), Text(), Text()
    for i, c in enumerate(hand):
        here = i == cursor
        is_marked = c in marked
        border = "bold yellow" if is_marked else ("bold" if c in legal else "dim")
        if here:
            border = "bold magenta"
        ct = card_text(c, lang)
        width = len(ct.plain)
        pad = 3 - width
        top.append("╭───╮" if not is_marked else "╭─▲─╮", style=border)
        face.append("│", style=border)
        body = Text(" " * max(0, pad) + ct.plain)
        style = ct.style if c in legal or here else f"{ct.style} dim"
        if here:
            style = f"{ct.style} reverse"
        body.stylize(style)
        face.append_text(body)
        face.append("│", style=border)
        bottom.append("╰───╯" if not here else "╰─^─╯", style=border)
    return Text("\n").join([top, face, bottom])


# ---------------------------------------------------------------- the seats
def per_seat_fields(data: Mapping[str, Any], players: int) -> list[str]:
    """Fields holding one value per seat (a list as long as the table is wide)."""
    return [k for k, v in data.items()
            if k not in SKIP and k not in SEAT_SETS and isinstance(v, list)
            and len(v) == players and not any(isinstance(x, dict) for x in v)]


def cell(value: Any, lang: str) -> Text:
    if value is None:
        return Text("·", style="dim")
    if isinstance(value, list):
        if value and all(is_card(x) for x in value):
            out = Text()
            for i, c in enumerate(value):
                if i:
                    out.append(" ")
                out.append_text(card_text(c, lang))
            return out
        return Text(str(len(value)) if value else "·", style="" if value else "dim")
    if isinstance(value, str):
        if is_card(value):
            return card_text(value, lang)
        return action_text(value, lang) if value.split()[0] in (
            "discard", "stand", "pass", "knock", "drop", "golets") else Text(value_word(value,
                                                                                  lang))
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return Text(str(value))


def players_table(obs: Mapping[str, Any], names: Sequence[str], lang: str,
                  me: int | None) -> Table:
    """One row per seat: turn and dealer marks, name, every per-seat field of the
    observation and of its score sheet."""
    n = obs["players"]
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="dim")
    table.add_column("", no_wrap=True)
    table.add_column(t("players", lang), no_wrap=True)
    fields = per_seat_fields(obs, n)
    sheet = obs.get("sheet") or {}
    # the sheet's per-seat columns, unless the observation already shows them
    sheet_fields = [k for k in per_seat_fields(sheet, n) if k not in fields
                    and SAME_AS.get(k) not in fields]
    for k in fields + sheet_fields:
        table.add_column(label(k, lang), justify="right")
    roles = {k: obs.get(k) for k in SEAT_FIELDS if isinstance(obs.get(k), int)}
    sets = {k: set(v) for k, v in obs.items() if k in SEAT_SETS and isinstance(v, list)}
    for s in range(n):
        mark = Text()
        if obs.get("to_move") == s:
            mark.append("▶", style="bold green")
        else:
            mark.append(" ")
        if obs.get("dealer") == s:
            mark.append(t("dealer_mark", lang), style="cyan")
        name = Text(seat_name(s, names), style="bold" if s == me else "")
        notes = [label(k, lang) for k, v in roles.items() if v == s and k != "leader"]
        for k, members in sets.items():
            if k in ("in_game", "in_play"):
                if obs.get(k) and s not in members:
                    notes.append(label("out", lang))
            elif s in members:
                notes.append(label(k, lang))
        if notes:
            name.append(f" ({', '.join(notes)})", style="italic dim")
        row = [mark, name]
        row += [cell(obs[k][s], lang) for k in fields]
        row += [cell(sheet[k][s], lang) for k in sheet_fields]
        table.add_row(*row)
    return table


# ---------------------------------------------------------------- the table
def _seat_cards(pairs: Sequence[Sequence[Any]], names: Sequence[str], lang: str) -> Text:
    out = Text()
    for i, (seat, c, *more) in enumerate(pairs):   # more: how it was played (a shakha)
        if i:
            out.append("   ")
        out.append(f"{seat_name(seat, names)} ", style="dim")
        out.append_text(card_text(c, lang) if is_card(c) else Text(str(c)))
        for word in more:
            if isinstance(word, str):
                out.append(f" ({verb(word, lang)})", style="italic")
    return out


def durak_table(pairs: Sequence[Sequence[Any]], lang: str) -> Text:
    """Attack cards in a row, each with the card that covers it under it."""
    if not pairs:
        return Text(t("empty_table", lang), style="dim")
    top, bottom = Text(f"{t('attack', lang):>6} ", style="dim"), \
        Text(f"{t('cover', lang):>6} ", style="dim")
    for a, d in pairs:
        at = card_text(a, lang)
        top.append_text(Text(" " * (4 - len(at.plain))) + at)
        if d is None:
            bottom.append("   ·", style="dim")
        else:
            dt = card_text(d, lang)
            bottom.append_text(Text(" " * (4 - len(dt.plain))) + dt)
    return Text("\n").join([top, bottom])


def trick_of(obs: Mapping[str, Any]) -> tuple[list[list[Any]], list[int]] | None:
    """The current trick as (seat, card) pairs and the seats that passed, if any."""
    trick = obs.get("trick")
    if isinstance(trick, dict):
        return list(trick.get("cards") or []), list(trick.get("passes") or [])
    if isinstance(trick, list):
        return list(trick), []
    table = obs.get("table")
    if isinstance(table, list) and (not table or isinstance(table[0][0], int)):
        return list(table), []
    return None


def last_trick_of(obs: Mapping[str, Any]) -> tuple[list[list[Any]], Any] | None:
    last = obs.get("last_trick") or obs.get("last_round")
    if isinstance(last, dict) and last.get("cards"):
        return list(last["cards"]), last.get("winner")
    return None


def last_trick_view(obs: Mapping[str, Any], names: Sequence[str], lang: str) -> Text:
    last = last_trick_of(obs)
    if last is None:
        return Text(t("no_last_trick", lang), style="dim")
    cards, winner = last
    out = Text(t("last_trick", lang) + ": ", style="bold")
    out.append_text(_seat_cards(cards, names, lang))
    if winner is not None:
        out.append(f"  — {t('won_by', lang, who=seat_name(winner, names))}", style="italic")
    return out


def centre(obs: Mapping[str, Any], names: Sequence[str], lang: str) -> RenderableType:
    """The middle of the table: the Durak pairs, or the trick being played, or an offer."""
    parts: list[RenderableType] = []
    table = obs.get("table")
    if isinstance(table, list) and "defender" in obs:   # Durak: attack/defence pairs
        parts.append(durak_table(table, lang))
    else:
        trick = trick_of(obs)
        if trick is not None:
            cards, passes = trick
            if cards or passes:
                line = Text(t("trick", lang) + ": ", style="bold")
                led = obs["trick"].get("led") if isinstance(obs.get("trick"), dict) else None
                if isinstance(led, str):
                    line.append(f"({suit_word(led, lang)}) ", style="dim")
                line.append_text(_seat_cards(cards, names, lang))
                for p in passes:
                    line.append(f"   {seat_name(p, names)} ", style="dim")
                    line.append(verb("pass", lang), style="italic")
                parts.append(line)
            else:
                parts.append(Text(t("empty_table", lang), style="dim"))
                if last_trick_of(obs):
                    parts.append(last_trick_view(obs, names, lang))
    offer = obs.get("exchange")
    if isinstance(offer, dict) and "offerer" in offer:
        taken = offer.get("taken") or []
        shown = ", ".join("·" if x is None else seat_name(x, names) for x in taken)
        parts.append(Text(t("offer", lang, who=seat_name(offer["offerer"], names),
                            n=offer.get("count", len(taken)), taken=shown or "—")))
        parts.append(Text(t("offer_positions", lang), style="dim"))
    return Group(*parts) if parts else Text("")


def info_line(obs: Mapping[str, Any], names: Sequence[str], lang: str) -> Columns:
    """Trump, stock, pot, phase and every other scalar the observation holds."""
    items: list[Text] = []

    def item(name: str, value: Text | str) -> None:
        one = Text(f"{name}: ", style="dim")
        one.append_text(value if isinstance(value, Text) else Text(value))
        items.append(one)

    trump_card = obs.get("trump_card")
    if is_card(trump_card):
        item(label("trump_card", lang), card_text(trump_card, lang))
    if not is_card(trump_card):
        named = [k for k in ("trump", "trump_suit", "trumps") if isinstance(obs.get(k), str)]
        if named:
            item(label(named[0], lang), suit_word(obs[named[0]], lang))
        elif "trump" in obs:   # a deal without trumps (Dreyfus's fifth deal)
            item(label("trump", lang), "—")
    if "schedule_length" in obs and isinstance(obs.get("schedule_position"), int):
        item(t("deal", lang), f"{obs['schedule_position'] + 1}/{obs['schedule_length']}")
    for key, v in obs.items():
        if key in SKIP or key in ("trump_card", "trump", "trump_suit", "trumps"):
            continue
        if key in SEAT_FIELDS and isinstance(v, int):
            item(label(key, lang), seat_name(v, names))
        elif isinstance(v, bool):
            if v:
                item(label(key, lang), "✓")
        elif key == "phase" and isinstance(v, str):
            item(label(key, lang), label(v, lang))
        elif isinstance(v, (int, float)) and key not in SEAT_FIELDS:
            item(label(key, lang), str(v))
        elif isinstance(v, str):
            item(label(key, lang), suit_word(v, lang) if len(v) == 1 else value_word(v, lang))
    return Columns(items, padding=(0, 3))


def extra_lines(obs: Mapping[str, Any], lang: str) -> list[Text]:
    """Fields no other part shows (dicts, odd lists) so that nothing is hidden."""
    n = obs["players"]
    shown = set(per_seat_fields(obs, n)) | set(SEAT_SETS)
    out = []
    for key, v in obs.items():
        if key in SKIP or key in shown or v is None:
            continue
        if isinstance(v, (dict, list)) and v:
            line = Text(f"{label(key, lang)}: ", style="dim")
            line.append_text(value_text(v, lang))
            out.append(line)
    mine = obs.get("my_discards")
    if mine:
        line = Text(f"{label('my_discards', lang)}: ", style="dim")
        line.append_text(cell(mine, lang))
        out.append(line)
    return out


# ------------------------------------------------------------ score sheets
def deals_table(deals: Sequence[dict[str, Any]], names: Sequence[str], lang: str,
                players: int) -> Table:
    """A deal-by-deal sheet: the deal's own facts, then one column per seat holding that
    seat's per-deal values (Opendaum: bid/tricks → points)."""
    first = deals[0]
    scalars = [k for k, v in first.items() if not isinstance(v, (list, dict))]
    seat_keys = [k for k, v in first.items() if isinstance(v, list) and len(v) == players
                 and all(not isinstance(x, (list, dict)) for x in v)]
    table = Table(box=None, header_style="dim", pad_edge=False)
    for k in scalars:
        table.add_column(t("deal_col", lang) if k == "deal" else label(k, lang))
    legend = " · ".join(label(k, lang) for k in seat_keys)
    opendaum = seat_keys[:3] == ["bids", "tricks", "points"]
    if opendaum:
        legend = f"{label('bids', lang)}/{label('tricks', lang)} → {label('points', lang)}"
    for s in range(players):
        table.add_column(f"{seat_name(s, names)}\n{legend}", justify="right")
    for d in deals:
        row: list[Text | str] = []
        for k in scalars:
            v = d.get(k)
            if k == "deal" and isinstance(v, int):
                v = v + 1
            if k == "dealer" and isinstance(v, int):
                v = seat_name(v, names)
            if k == "trump" and isinstance(v, str):
                v = suit_word(v, lang)
            elif isinstance(v, str):
                v = value_word(v, lang)
            elif isinstance(v, bool) and lang == "ru":
                v = "да" if v else "нет"
            row.append(Text("—" if v is None else str(v)))
        for s in range(players):
            vals = [d[k][s] for k in seat_keys]
            if opendaum:
                made = d["bids"][s] == d["tricks"][s]
                row.append(Text(f"{vals[0]}/{vals[1]} → {vals[2]}",
                                style="bold green" if made else ""))
            else:
                row.append(Text(" · ".join("·" if x is None else str(x) for x in vals)))
        table.add_row(*row)
    return table


def sheet_view(sheet: Mapping[str, Any], names: Sequence[str], lang: str,
               players: int) -> RenderableType:
    """A game's own score sheet: per-seat standings, pair records, the deals so far."""
    parts: list[RenderableType] = []
    seat_keys = per_seat_fields(sheet, players)
    if seat_keys:
        table = Table(box=None, header_style="dim", pad_edge=False)
        table.add_column(t("players", lang))
        for k in seat_keys:
            table.add_column(label(k, lang), justify="right")
        for s in range(players):
            table.add_row(seat_name(s, names), *[cell(sheet[k][s], lang) for k in seat_keys])
        parts.append(table)
    pairs = sheet.get("pairs")
    records = sheet.get("records")
    if isinstance(pairs, list) and isinstance(records, list) and len(pairs) == len(records):
        for p, r in zip(pairs, records, strict=True):
            who = " + ".join(seat_name(s, names) for s in p)
            parts.append(Text(f"{t('pair', lang, names=who)}: {t('record_left', lang, n=r)}",
                              style="bold"))
    deals = sheet.get("deals")
    if isinstance(deals, list) and deals and isinstance(deals[0], dict):
        parts.append(deals_table(deals, names, lang, players))
    for k, v in sheet.items():
        if k in seat_keys or k in ("pairs", "records", "deals") or v is None:
            continue
        line = Text(f"{label(k, lang)}: ", style="dim")
        if k == "winners" and isinstance(v, list):
            line.append(", ".join(seat_name(s, names) for s in v))
        elif isinstance(v, str):
            line.append(suit_word(v, lang) if len(v) == 1 else value_word(v, lang))
        else:
            line.append_text(value_text(v, lang))
        parts.append(line)
    return Group(*parts) if parts else Text("—")


def result_view(result: dict[str, Any], names: Sequence[str], lang: str) -> RenderableType:
    """Winners, every seat's score, and what the game says about how it ended."""
    parts: list[RenderableType] = []
    winners = result.get("winners") or []
    if not winners:
        parts.append(Text(t("draw", lang), style="bold"))
    else:
        who = ", ".join(seat_name(s, names) for s in winners)
        key = "winner_is" if len(winners) == 1 else "winners_are"
        parts.append(Text(t(key, lang, who=who), style="bold green"))
    details = result.get("details") or {}
    if isinstance(details.get("durak"), int):
        line = Text(t("durak_is", lang, who=seat_name(details["durak"], names)), style="bold")
        if details.get("epaulettes"):
            line.append(" " + t("epaulettes", lang), style="bold red")
        parts.append(line)
    table = Table(box=None, header_style="dim", pad_edge=False)
    table.add_column(t("players", lang))
    table.add_column(label("scores", lang), justify="right")
    ranks = details.get("ranks") if isinstance(details.get("ranks"), list) else None
    if ranks:
        table.add_column(t("col_rank", lang))
    for s, score in enumerate(result.get("scores", [])):
        row = [Text(seat_name(s, names), style="bold" if s in winners else ""), cell(score, lang)]
        if ranks:
            r = ranks[s]
            row.append(Text(str(r.get(lang, r.get("id", ""))) if isinstance(r, dict) else str(r)))
        table.add_row(*row)
    parts.append(table)
    if result.get("capped"):
        parts.append(Text(t("capped_note", lang), style="yellow"))
    return Group(*parts)
