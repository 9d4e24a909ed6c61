"""What the table shows, drawn from the presenter's display (rich renderables, no Textual).

``koloda.present`` turns the typed observation into the display — labels from the one
vocabulary, values formatted by their declared kind — and this module only draws it:
the players table, the centre (trick or Durak table), the info line, the score sheet.
The browser draws the same display, so the two say the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from koloda.cards import CARD_TEXT, TEXT_CARD, format_card, rank_of, suit_of
from koloda.engine import terms
from koloda.i18n import t, verb
from koloda.present import NO_VALUE, NOTHING, action_words, present, present_sheet

__all__ = ["action_words", "card_text", "present", "present_sheet", "words_text"]

_COLOURS = ("white", "green", "yellow", "red")  # ♠ ♣ ♦ ♥ — four colours, easy to tell apart


def card_text(word: str, lang: str = "en") -> Text:
    """A card word (``TH``) as a coloured ``10♥``; other words unchanged."""
    c = TEXT_CARD.get(word)
    if c is None:
        return Text(word)
    return Text(format_card(c, "symbol", lang), style=f"bold {_COLOURS[suit_of(c)]}")


def words_text(text: str, lang: str = "en") -> Text:
    out = Text()
    for i, w in enumerate(text.split(" ")):
        if i:
            out.append(" ")
        out.append_text(card_text(w, lang))
    return out



def is_card(x: Any) -> TypeGuard[str]:
    return isinstance(x, str) and x in TEXT_CARD


def seat_name(seat: Any, names: Sequence[str]) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return str(seat)


def action_text(action: str, lang: str = "en", done: bool = False) -> Text:
    """A canonical action as a person reads it: the verb in their language, cards coloured;
    with ``done`` as a log says a seat did it («Аня ходит 9♥»).

    ``beat A B`` reads "beat A with B"."""
    words = action.split()
    out = Text((terms.verb_done if done else verb)(words[0], lang), style="bold")
    args = words[1:]
    if words[0] == "beat" and len(args) == 2:
        out.append(" ")
        out.append_text(card_text(args[0], lang))
        out.append(f" {verb('with', lang)} ")
        out.append_text(card_text(args[1], lang))
        return out
    if words[0] == "pick" and len(args) == 1 and args[0].isdigit():
        out.append(f" {int(args[0]) + 1}")      # a position, counted from 1 as people do
        return out
    for w in args:
        out.append(" ")
        if is_card(w):
            out.append_text(card_text(w, lang))
        else:
            out.append(terms.term(w, lang) if terms.has_term(w) else verb(w, lang))
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


def sort_hand(hand: Sequence[str], trump: str | None = None) -> list[str]:
    """By suit (S C D H, trumps last), then rank: the order a player holds cards in."""
    t_suit = "SCDH".index(trump) if trump in ("S", "C", "D", "H") else None

    def key(c: str) -> tuple[int, int, int]:
        card = TEXT_CARD.get(c)
        if card is None:
            return (9, 0, 0)
        s = suit_of(card)
        return (1 if s == t_suit else 0, s, rank_of(card))
    return sorted(hand, key=key)


# ------------------------------------------------------------------ the hand
def hand_text(hand: Sequence[str], cursor: int | None, marked: frozenset[str],
              legal: frozenset[str], lang: str, width: int = 200) -> Text:
    """Cards face up in a row: legal ones bright, others dim; the cursor reversed; marked
    cards lifted with a ▲ under them. A hand wider than ``width`` is written in one line
    of card faces (the marked ones under ▲, the cursor reversed)."""
    if not hand:
        return Text(t("no_hand", lang), style="dim")
    if len(hand) * 5 > width:
        return _hand_line(hand, cursor, marked, legal, lang)
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


def _hand_line(hand: Sequence[str], cursor: int | None, marked: frozenset[str],
               legal: frozenset[str], lang: str) -> Text:
    out = Text()
    for i, c in enumerate(hand):
        if i:
            out.append(" ")
        ct = card_text(c, lang)
        style = str(ct.style) if c in legal or i == cursor else f"{ct.style} dim"
        if c in marked:
            style += " underline bold"
        if i == cursor:
            style += " reverse"
        out.append(("▲" if c in marked else "") + ct.plain, style=style)
    return out


# ---------------------------------------------------------------- the seats
def cell_text(cell: Mapping[str, Any] | None, lang: str) -> Text:
    """A display cell: its cards coloured, or its text (a lone · dim)."""
    if cell is None:
        return Text(NO_VALUE, style="dim")
    cards = cell.get("cards")
    if cards:
        out = Text()
        for i, c in enumerate(cards):
            if i:
                out.append(" ")
            out.append_text(card_text(c, lang))
        return out
    text = str(cell.get("text", ""))
    return Text(text, style="dim" if text in (NO_VALUE, NOTHING) else "")


def players_table(disp: Mapping[str, Any], lang: str, width: int | None = None) -> Table:
    """One row per seat: turn and dealer marks, name and roles, every per-seat column.

    ``width`` given: compact, a line for every seat and one for the header in that many
    columns, what does not fit cut with … (a short screen: every seat's row stays on it)."""
    players = disp["players"]
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="dim")
    cells = [[cell_text(c, lang) for c in row["cells"]] for row in players["rows"]]
    labels = [col["label"] for col in players["columns"]]
    if width is None:
        table.add_column("", no_wrap=True)
        table.add_column(t("players", lang), no_wrap=True)
        for label in labels:
            table.add_column(label, justify="right")
    else:
        marks, name, values = _compact_widths(cells, labels, width)
        table.add_column("", no_wrap=True, width=marks)
        table.add_column(t("players", lang), no_wrap=True, overflow="ellipsis", width=name)
        for label, w in zip(labels, values, strict=True):
            table.add_column(label, justify="right", no_wrap=True, overflow="ellipsis",
                             width=w)
    for row, values_ in zip(players["rows"], cells, strict=True):
        mark = Text()
        mark.append("▶" if row["to_move"] else " ", style="bold green")
        if row["dealer"]:
            mark.append(t("dealer_mark", lang), style="cyan")
        name_ = Text(row["name"], style="bold" if row["me"] else "")
        if row["marks"]:
            name_.append(f" ({', '.join(row['marks'])})", style="italic dim")
        table.add_row(mark, name_, *values_)
    return table


#: a compact players table: the most a column's label keeps, the most a value shows, the
#: least a name keeps
COMPACT_LABEL, COMPACT_CELL, COMPACT_NAME = 10, 12, 14


def _compact_widths(cells: list[list[Text]], labels: list[str], width: int
                    ) -> tuple[int, int, list[int]]:
    """Widths of the marks, the name and each value column that fill ``width``: a column as
    wide as its values (a long one cut), its label cut to them first; the name the rest."""
    widest = [max((len(r[i].plain) for r in cells), default=1) for i in range(len(labels))]
    values = [min(max(w, min(len(label), COMPACT_LABEL)), COMPACT_CELL)
              for w, label in zip(widest, labels, strict=True)]
    gaps = 2 * (len(values) + 1)          # a space either side between two columns
    marks = 2
    name = width - marks - sum(values) - gaps
    while name < COMPACT_NAME:
        # the widest column whose label is longer than its values gives a column first
        over = [i for i, v in enumerate(values) if v > max(widest[i], 1)] or \
            [i for i, v in enumerate(values) if v > 1]
        if not over:
            break
        i = max(over, key=lambda k: values[k])
        values[i] -= 1
        name += 1
    return marks, max(1, name), values


# ---------------------------------------------------------------- the table
def _plays_text(plays: Sequence[Mapping[str, Any]], lang: str) -> Text:
    out = Text()
    for i, p in enumerate(plays):
        if i:
            out.append("   ")
        out.append(f"{p['name']} ", style="dim")
        out.append_text(card_text(p["card"], lang))
        if p.get("note"):
            out.append(f" ({p['note']})", style="italic")
    return out


def durak_table(pairs: Sequence[Mapping[str, Any]], lang: str) -> Text:
    """Attack cards in a row, each with the card that covers it under it."""
    if not pairs:
        return Text(t("empty_table", lang), style="dim")
    attack, cover = terms.term("attack", lang), terms.term("cover", lang)
    width = max(len(attack), len(cover))
    top = Text(f"{attack:>{width}} ", style="dim")
    bottom = Text(f"{cover:>{width}} ", style="dim")
    for pair in pairs:
        at = cell_text(pair["attack"], lang)
        top.append_text(Text(" " * (4 - len(at.plain))) + at)
        if pair["cover"] is None:
            bottom.append("   ·", style="dim")
        else:
            dt = cell_text(pair["cover"], lang)
            bottom.append_text(Text(" " * (4 - len(dt.plain))) + dt)
    return Text("\n").join([top, bottom])


def _items_line(items: Sequence[Mapping[str, Any]], lang: str) -> Text:
    out = Text()
    for i, it in enumerate(items):
        out.append(("   " if i else "") + f"{it['label']}: ", style="dim")
        out.append_text(cell_text(it, lang))
    return out


def _part(part: Mapping[str, Any], lang: str) -> Text:
    line = Text(f"{heading(part['label'])}: ", style="bold")
    if part["pairs"]:
        return Text("\n").join([line, durak_table(part["pairs"], lang)])
    line.append_text(_plays_text(part["plays"], lang))
    if part["items"]:
        line.append("   ")
        line.append_text(_items_line(part["items"], lang))
    return line


def heading(word: str) -> str:
    return word[:1].upper() + word[1:]


def last_trick_view(disp: Mapping[str, Any], lang: str) -> Text:
    last = disp.get("last")
    if not last:
        return Text(t("no_last_trick", lang), style="dim")
    out = _part(last, lang)
    if last.get("result"):
        out.append(f"  — {last['result']}", style="italic")
    return out


def last_round_view(rnd: Any, names: Sequence[str], lang: str) -> Text:
    """A round of a table of pairs (a ``chronicle.Round``): each attack card with who laid
    it, the card that covered it and who covered it; then beaten off or who took."""
    out = Text()
    for attack, cover in rnd.pairs:
        if out:
            out.append("\n")
        if attack is not None:
            out.append(f"{seat_name(rnd.laid_by.get(attack), names)} ", style="dim")
            out.append_text(card_text(attack, lang))
        if cover is not None:
            out.append(f"  ← {seat_name(rnd.laid_by.get(cover), names)} ", style="dim")
            out.append_text(card_text(cover, lang))
        else:
            out.append("  ← ·", style="dim")
    out.append("\n")
    out.append(t("round_taken", lang, who=seat_name(rnd.taken_by, names))
               if rnd.taken_by is not None else t("round_beaten", lang), style="italic")
    return out


def centre(disp: Mapping[str, Any], lang: str) -> RenderableType:
    """The middle of the table: the Durak pairs, or the trick being played."""
    part = disp.get("centre")
    parts: list[RenderableType] = []
    if part is None or not (part["plays"] or part["pairs"] or part["items"]):
        parts.append(Text(t("empty_table", lang), style="dim"))
        if disp.get("last"):
            parts.append(last_trick_view(disp, lang))
    elif part["kind"] == "table":
        parts.append(durak_table(part["pairs"], lang))
        if part["items"]:
            parts.append(_items_line(part["items"], lang))
    else:
        parts.append(_part(part, lang))
    return Group(*parts)


def info_line(disp: Mapping[str, Any], lang: str) -> Columns:
    """Trump, stock, pot, phase and every other fact of the deal, each with its label."""
    items = [_items_line([it], lang) for it in disp["info"]]
    return Columns(items, padding=(0, 3))


def extra_lines(disp: Mapping[str, Any], lang: str) -> list[Text]:
    """The nested parts of the deal (an offer of face-down cards …), a line each."""
    out = []
    for g in disp["groups"]:
        line = Text(f"{heading(g['label'])}: ", style="bold")
        line.append_text(_items_line(g["items"], lang))
        out.append(line)
    return out


# ------------------------------------------------------------ score sheets
def sheet_view(sheet: Mapping[str, Any], lang: str, whole_values: bool = True
               ) -> RenderableType:
    """A score sheet as the presenter made it: per-seat standings, tables, facts.

    ``whole_values``: a value of a table is never broken over lines (a narrow sheet wraps
    its labels instead); False: values wrap too (a sheet that fits no other way)."""
    parts: list[RenderableType] = []
    if sheet["columns"]:
        table = Table(box=None, header_style="dim", pad_edge=False)
        table.add_column(t("players", lang))
        for col in sheet["columns"]:
            table.add_column(col["label"], justify="right")
        for row in sheet["rows"]:
            table.add_row(row["name"], *[cell_text(c, lang) for c in row["cells"]])
        parts.append(table)
    for tab in sheet["tables"]:
        table = Table(box=None, header_style="dim", pad_edge=False, padding=(0, 1, 0, 0),
                      title=heading(tab["label"]) + (f" ({tab['legend']})" if tab["legend"]
                                                     else ""), title_justify="left")
        rows = [[cell_text(c, lang) for c in r] for r in tab["rows"]]
        for i, col in enumerate(tab["columns"]):
            widest = max((len(r[i].plain) for r in rows if i < len(r)), default=1)
            # a column whose label is longer than its values wraps the label; the others
            # keep their values whole
            table.add_column(col, no_wrap=whole_values and widest >= len(col))
        for r in rows:
            table.add_row(*r)
        parts.append(table)
    for it in sheet["info"]:
        parts.append(_items_line([it], lang))
    return Group(*parts) if parts else Text(NOTHING)


def result_view(disp: Mapping[str, Any]) -> RenderableType:
    """The end of a match (``koloda.present.present_result``'s display, the browser draws
    the same): who won, every seat's score and what the game adds (the durak, ranks, the
    pot), and the cap's note."""
    head = disp["headline"]
    parts: list[RenderableType] = [
        Text(heading(head["label"]) + (f": {head['text']}" if head["text"] else ""),
             style="bold green")]
    table = Table(box=None, header_style="dim", pad_edge=False)
    table.add_column(disp["seat_label"])
    for col in disp["columns"]:
        table.add_column(col["label"], justify="right")
    for row in disp["rows"]:
        name = row["name"] + (f" ({', '.join(row['marks'])})" if row["marks"] else "")
        table.add_row(Text(name, style="bold" if row["winner"] else ""),
                      *[cell_text(c, disp["lang"]) for c in row["cells"]])
    parts.append(table)
    for it in disp["info"]:
        parts.append(Text(heading(it["label"]) + (f": {it['text']}" if it["text"] else ""),
                          style="bold"))
    if disp["capped"]:
        parts.append(Text(disp["capped"], style="yellow"))
    return Group(*parts)
