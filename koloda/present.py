"""What a person sees of a match, made from the typed observation alone.

``present(obs, lang, names)`` reads the declarations of the observation's views
(``koloda.engine.view.fields_of``: each field's kind, vocabulary term, private flag and
role) and builds the *display*: the players table (one row per seat, its marks and one
column per per-seat field), the info items, the centre (the trick, Durak's table), the last
trick, the hand, the nested groups and the score sheet — every label a term of the one
vocabulary (``koloda.engine.terms``) in the person's language, every value formatted by its
kind, cards as people write them (10♥, В♠). A field whose term is None is never shown;
private fields are left out of a spectator's display.

The display is JSON-ready (the browser receives it in the ``state`` message and draws it
as it is); the terminal renders the same dict with rich. So the two agree by construction.
There is no table keyed by a game's name and no guessing from which keys a dict has — with
no exception: every game declares its views.

Shape (every text already in ``lang``)::

    {"lang", "deal_number", "deal": {"n", "of"}, "to_move", "dealer",
     "players": {"columns": [{"name", "label"}],
                 "rows": [{"seat", "name", "me", "to_move", "dealer", "marks": [str],
                           "cells": [cell]}]},
     "info": [item], "groups": [{"name", "label", "items": [item]}],
     "centre": {"kind": "trick" | "table" | "empty", "label", "plays": [play],
                "pairs": [{"attack": cell, "cover": cell | None}], "items": [item]} | None,
     "last": {"label", "plays": [play], "pairs": [...], "winner": str | None,
              "result": str | None, "items": [item]} | None,
     "hand": {"label", "cards": [code]} | None, "trump": "S" | "C" | "D" | "H" | None,
     "sheet": sheet}
    item = {"name", "label", "text", "cards"?: [code]}     cell = {"text", "cards"?}
    play = {"seat", "name", "card", "text", "note"}
    sheet = {"columns": [...], "rows": [{"seat", "name", "cells"}], "tables":
             [{"name", "label", "legend", "columns": [label], "rows": [[cell]]}],
             "info": [item]}
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from koloda.cards import CARD_TEXT, SUITS, TEXT_CARD
from koloda.engine import terms
from koloda.engine.view import FieldInfo, Observation, View, fields_of

PER_SEAT = ("per_seat", "per_seat_cards", "per_seat_suits", "per_seat_words")
NOTHING = "—"
NO_VALUE = "·"

Entry = tuple[FieldInfo, Any]


# ----------------------------------------------------------------- formatting
def seat_name(seat: Any, names: Sequence[str], lang: str = "en") -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    if isinstance(seat, int):
        return f"{terms.term('seat', lang)} {seat + 1}"
    return NOTHING


def _number(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return str(v)


def _word(v: Any, lang: str) -> str:
    if v is None:
        return NOTHING
    if isinstance(v, bool):
        return terms.term("yes" if v else "no", lang)
    if isinstance(v, (int, float)):
        return _number(v)
    if terms.has_term(str(v)):
        return terms.term(str(v), lang)
    if str(v).split(" ")[0] in terms.VERBS:   # a choice said as an action ("discard 2")
        return action_words(str(v), lang)
    return str(v)


def cards_cell(cards: Sequence[int], lang: str) -> dict[str, Any]:
    if not cards:
        return {"text": NOTHING}
    return {"text": " ".join(terms.card_word(c, lang) for c in cards),
            "cards": [CARD_TEXT[c] for c in cards]}


def _plays(plays: Sequence[Sequence[Any]], names: Sequence[str], lang: str) -> list[dict]:
    out = []
    for p in plays:
        seat, card, *more = p
        note = ", ".join(terms.term(str(w), lang) for w in more if w is not None)
        out.append({"seat": seat, "name": seat_name(seat, names, lang),
                    "card": CARD_TEXT[card], "text": terms.card_word(card, lang),
                    "note": note})
    return out


def _pairs(table: Sequence[Sequence[Any]], lang: str) -> list[dict]:
    return [{"attack": cards_cell([a], lang),
             "cover": None if d is None else cards_cell([d], lang)} for a, d in table]


def value_cell(kind: str, value: Any, names: Sequence[str], lang: str,
               public: bool = False) -> dict[str, Any]:
    """One field's value as a person reads it (a cell: its text, and its cards if any)."""
    if kind == "card":
        return {"text": NOTHING} if value is None else cards_cell([value], lang)
    if kind == "cards":
        return cards_cell(value or (), lang)
    if kind == "suit":
        return {"text": NOTHING if value is None else
                f"{terms.suit_symbol(value)} {terms.suit_word(value, lang)}"}
    if kind == "suits":
        return {"text": ", ".join(f"{terms.suit_symbol(s)} {terms.suit_word(s, lang)}"
                                  for s in value) if value else NOTHING}
    if kind == "seat":
        return {"text": seat_name(value, names, lang) if value is not None else NOTHING}
    if kind == "seats":
        return {"text": ", ".join(seat_name(s, names, lang) for s in value) if value
                else NOTHING}
    if kind == "number":
        return {"text": NOTHING if value is None else _number(value)}
    if kind == "flag":
        return {"text": terms.term("yes" if value else "no", lang)}
    if kind in ("word", "text"):
        return {"text": _word(value, lang) if kind == "word" else
                (NOTHING if value is None else str(value))}
    if kind in PER_SEAT:
        # a per-seat value inside a nested part ("drew from the talon"): the seats it says
        # something of, each name with its value ("Anna 2, Vera 1"); none: nothing
        parts = [f"{seat_name(s, names, lang)} {seat_cell(kind, v, lang)['text']}"
                 for s, v in enumerate(value or ()) if not _empty(v, kind)]
        sep = "; " if kind in ("per_seat_cards", "per_seat_suits") else ", "
        return {"text": sep.join(parts) if parts else NOTHING}
    if kind == "plays":
        plays = _plays(value or (), names, lang)
        return {"text": ", ".join(f"{p['name']} {p['text']}" for p in plays) or NOTHING,
                "cards": [p["card"] for p in plays]}
    if kind == "table":
        text = "  ".join(f"{terms.card_word(a, lang)}/"
                         f"{NO_VALUE if d is None else terms.card_word(d, lang)}"
                         for a, d in value or ())
        return {"text": text or NOTHING}
    if kind == "view":
        if value is None:
            return {"text": NOTHING}
        said = sentence(value, names, lang, public)
        if said is not None:
            return {"text": said}
        items = items_of(entries(value, public), names, lang, public)
        return {"text": "; ".join(f"{i['label']}: {i['text']}" for i in items) or NOTHING}
    if kind == "views":
        rows = [value_cell("view", v, names, lang, public)["text"] for v in value or ()]
        return {"text": " | ".join(rows) if rows else NOTHING}
    return {"text": NOTHING}   # "data": never shown as such


def _empty(value: Any, kind: str = "number") -> bool:
    """Nothing to say: no value, an empty list, no, or a number that is zero (a seat is
    someone, seat 0 too)."""
    if value is None or value is False or (isinstance(value, (tuple, list)) and not value):
        return True
    return kind in ("number", *PER_SEAT) and not isinstance(value, bool) and value == 0


_SLOT = re.compile(r"\{(\w+)\}")
_PART = re.compile(r"\[([^\[\]]*)\]")


def sentence(view: View, names: Sequence[str], lang: str, public: bool = False) -> str | None:
    """A nested view said as a sentence, where its class declares one: ``said``, an
    (English, Russian) pair of templates naming its fields (``{offerer}``), each filled
    with that field's value as a person reads it; a part in square brackets is left out
    when a field in it has nothing to say (no value, none, zero). None: no sentence."""
    said = getattr(type(view), "said", None)
    if not said:
        return None
    shown = {f.name: (f, v) for f, v in entries(view, public)}

    def text(name: str) -> str | None:
        if name not in shown or _empty(shown[name][1], shown[name][0].kind):
            return None
        f, v = shown[name]
        return str(value_cell(f.kind, _as_read(f, v), names, lang, public)["text"])

    def part(m: re.Match[str]) -> str:
        slots = [text(n) for n in _SLOT.findall(m[1])]
        if any(x is None for x in slots):
            return ""
        return _SLOT.sub(lambda k: text(k[1]) or NOTHING, m[1])

    template = said[1] if lang == "ru" else said[0]
    return _SLOT.sub(lambda k: text(k[1]) or NOTHING, _PART.sub(part, template))


def seat_cell(kind: str, value: Any, lang: str) -> dict[str, Any]:
    """One seat's value of a per-seat field, in a column."""
    if kind == "per_seat_cards":
        return cards_cell(value or (), lang) if value else {"text": NO_VALUE}
    if kind == "per_seat_suits":
        return {"text": " ".join(terms.suit_symbol(s) for s in value) if value else NO_VALUE}
    if kind == "per_seat_words":
        return {"text": NO_VALUE if value is None else _word(value, lang)}
    if value is None:
        return {"text": NO_VALUE}
    if isinstance(value, bool):
        return {"text": terms.term("yes" if value else "no", lang)}
    return {"text": _number(value)}


# -------------------------------------------------------------- the fields
def entries(view: Any, public: bool = False, players: int | None = None) -> list[Entry]:
    """The fields of a view a person may see (a term, not private to a spectator, not a
    private field that holds nothing for this seat: cards laid out by another), with their
    values."""
    if not isinstance(view, View):
        return []
    return [(f, getattr(view, f.name)) for f in fields_of(view)
            if f.term is not None and not (public and f.private)
            and not (f.private and getattr(view, f.name) is None)]


def _role_value(view: Any, role: str, players: int | None = None) -> Any:
    """The value of the field with ``role`` (also a field without a term: the teams)."""
    if not isinstance(view, View):
        return None
    return next((getattr(view, f.name) for f in fields_of(view) if f.role == role), None)


#: numbers the observation counts from 0 and people from 1, by their term: a sheet row's
#: deal (its place in the match, as the header counts deals)
FROM_ZERO = frozenset({"deal"})


def _as_read(f: FieldInfo, value: Any) -> Any:
    """A field's value as a person counts it (a deal counted from 1)."""
    if f.kind == "number" and f.term in FROM_ZERO and isinstance(value, int) \
            and not isinstance(value, bool):
        return value + 1
    return value


def _item(f: FieldInfo, value: Any, names: Sequence[str], lang: str,
          public: bool) -> dict[str, Any]:
    assert f.term is not None
    return {"name": f.name, "label": terms.term(f.term, lang),
            **value_cell(f.kind, _as_read(f, value), names, lang, public)}


def items_of(fields: list[Entry], names: Sequence[str], lang: str,
             public: bool) -> list[dict[str, Any]]:
    return [_item(f, v, names, lang, public) for f, v in fields if f.kind != "data"]


def _trick_part(f: FieldInfo, value: Any, names: Sequence[str], lang: str,
                public: bool) -> dict[str, Any]:
    """A trick, a Durak table or a last trick: its plays (or pairs), who took its cards and
    what became of them (``winner`` and ``result``), and the other facts it holds (the suit
    led, who passed).

    Who took the cards: the view's ``taker()`` where it declares one (a Durak round: the
    defender, only when the round was taken), else its seat field termed ``winner`` (a
    trick: who took it). ``result`` says it in ``lang``: "taken by Anna" — or, for a view
    whose outcome field says nobody took the cards, its outcome ("beaten off")."""
    out: dict[str, Any] = {"label": terms.term(f.term or "trick", lang), "plays": [],
                           "pairs": [], "winner": None, "result": None, "items": []}
    if f.kind == "plays":
        out["plays"] = _plays(value or (), names, lang)
    elif f.kind == "table":
        out["pairs"] = _pairs(value or (), lang)
    elif f.kind == "view" and value is not None:
        taker = getattr(value, "taker", None)
        said: str | None = None
        for g, v in entries(value, public):
            if g.kind == "plays" and not out["plays"]:
                out["plays"] = _plays(v or (), names, lang)
            elif g.kind == "table" and not out["pairs"]:
                out["pairs"] = _pairs(v or (), lang)
            elif g.kind == "seat" and g.term == "winner" and not callable(taker):
                if v is not None:
                    out["winner"] = seat_name(v, names, lang)   # a trick's seat: who took it
            elif g.kind == "word" and g.term == "outcome":
                said = _word(v, lang)
            elif g.kind != "data":
                out["items"].append(_item(g, v, names, lang, public))
        if callable(taker):
            seat = taker()
            out["winner"] = None if seat is None else seat_name(seat, names, lang)
        if out["winner"] is not None:
            out["result"] = f"{terms.term('taken_by', lang)} {out['winner']}"
        else:
            out["result"] = said
    return out


# ------------------------------------------------------------ the display
def present(obs: Observation, lang: str = "en", names: Sequence[str] | None = None,
            me: int | None = None) -> dict[str, Any]:
    """The display of ``obs`` for a person (``me``: the viewer's seat, None to use the
    observation's own; a spectator's observation shows no private field)."""
    players = obs.players
    names = list(names) if names is not None else \
        [f"{terms.term('seat', lang)} {i + 1}" for i in range(players)]
    public = obs.is_public
    me = obs.seat if me is None else me
    deal = obs.deal
    fields = entries(deal, public, players)
    columns: list[dict[str, Any]] = []
    cells: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    marks: list[list[str]] = [[] for _ in range(players)]
    info: list[dict[str, Any]] = []
    groups: list[dict[str, Any]] = []
    centre: dict[str, Any] | None = None
    last: dict[str, Any] | None = None
    hand: dict[str, Any] | None = None

    def column(f: FieldInfo, values: Any) -> None:
        label = terms.term(f.term or f.name, lang)
        if any(c["label"] == label for c in columns):
            return   # the same thing said twice (a sheet's total beside the deal's)
        columns.append({"name": f.name, "label": label})
        for s in range(players):
            v = values[s] if values is not None and s < len(values) else None
            cells[s].append(seat_cell(f.kind, v, lang))

    for f, v in fields:
        if f.role == "hand":
            if not public:
                hand = {"label": terms.term(f.term or "hand", lang),
                        "cards": [CARD_TEXT[c] for c in v or ()]}
        elif f.role in ("trick", "table") or (f.kind == "table" and centre is None):
            part = _trick_part(f, v, names, lang, public)
            part["kind"] = "table" if f.kind == "table" or part["pairs"] else "trick"
            if centre is None or not (centre["plays"] or centre["pairs"]):
                centre = part   # the first part with cards on it (else the first)
        elif f.role == "last_trick":
            part = _trick_part(f, v, names, lang, public)
            if v is not None and (part["plays"] or part["pairs"]):
                last = part
        elif f.role == "history" or f.kind == "data":
            continue
        elif f.kind in PER_SEAT:
            column(f, v)
        elif f.kind == "seat" and f.role is None:
            if isinstance(v, int) and 0 <= v < players:
                marks[v].append(terms.term(f.term or f.name, lang))
        elif f.kind == "seats" and f.role is None:
            for s in v or ():
                if 0 <= s < players:
                    marks[s].append(terms.term(f.term or f.name, lang))
        elif f.kind in ("view", "views") and f.role is None:
            if f.kind == "view" and v is not None:
                sub = items_of(entries(v, public), names, lang, public)
                if sub:
                    groups.append({"name": f.name, "label": terms.term(f.term or f.name, lang),
                                   "items": sub})
            elif f.kind == "views" and v:
                groups.append({"name": f.name, "label": terms.term(f.term or f.name, lang),
                               "items": [{"name": f"{f.name}.{i}", "label": str(i + 1),
                                          **value_cell("view", x, names, lang, public)}
                                         for i, x in enumerate(v)]})
        else:
            info.append(_item(f, v, names, lang, public))

    teams = _role_value(deal, "teams", players)
    if teams:
        for k, side in enumerate(teams):
            for s in side:
                if 0 <= s < players:
                    marks[s].append(f"{terms.term('team', lang)} {k + 1}")
                    if me is not None and s != me and me in side:
                        marks[s].append(terms.term("partner", lang))

    sheet_view = obs.sheet
    for f, v in entries(sheet_view, public, players):
        if f.kind in PER_SEAT:
            column(f, v)

    trump = _role_value(deal, "trump", players)
    if not isinstance(trump, int) or isinstance(trump, bool):
        card = _role_value(deal, "trump_card", players)
        trump = card // 13 if isinstance(card, int) and not isinstance(card, bool) else None
    deal_no = _deal_of(info, obs.deal_number, lang)
    rows = [{"seat": s, "name": seat_name(s, names, lang), "me": s == me,
             "to_move": obs.to_move == s, "dealer": obs.dealer == s,
             "marks": marks[s], "cells": cells[s]} for s in range(players)]
    return {
        "lang": lang, "deal_number": obs.deal_number, "deal": deal_no, "to_move": obs.to_move,
        "dealer": obs.dealer, "match_over": obs.match_over,
        "trump": None if trump is None else SUITS[trump],
        "players": {"columns": columns, "rows": rows},
        "info": info, "groups": groups, "centre": centre, "last": last, "hand": hand,
        "sheet": present_sheet(sheet_view, lang, names, players, public),
    }


#: a deal view's place in a schedule of deals (counted from 0) and the schedule's length
SCHEDULE = ("schedule_position", "schedule_length")


def _deal_of(info: list[dict[str, Any]], deal_number: int, lang: str) -> dict[str, Any]:
    """Which deal this is, as the header and the table both say it: counted from 1, and
    "12/25" where the deal view places it in a schedule (its two items become one)."""
    found = {it["name"]: it for it in info if it["name"] in SCHEDULE}
    pos, length = (found.get(k) for k in SCHEDULE)
    if pos is None or not str(pos["text"]).isdigit():
        return {"n": deal_number + 1, "of": None}
    n = int(pos["text"]) + 1
    of = int(length["text"]) if length is not None and str(length["text"]).isdigit() else None
    at = info.index(pos)
    info[:] = [it for it in info if it["name"] not in SCHEDULE]
    info.insert(at, {"name": "deal", "label": terms.term("deal", lang),
                     "text": f"{n}/{of}" if of else str(n)})
    return {"n": n, "of": of}


def present_sheet(sheet: View | Mapping[str, Any], lang: str, names: Sequence[str],
                  players: int, public: bool = False) -> dict[str, Any]:
    """A score sheet: one row per seat of its per-seat fields, a table per list of rows
    (the deals so far), and its other facts."""
    view = sheet
    columns: list[dict[str, Any]] = []
    per: list[tuple[FieldInfo, Any]] = []
    tables: list[dict[str, Any]] = []
    info: list[dict[str, Any]] = []
    for f, v in entries(view, public, players):
        if f.kind in PER_SEAT:
            columns.append({"name": f.name, "label": terms.term(f.term or f.name, lang)})
            per.append((f, v))
        elif f.kind == "views":
            if v:
                tables.append(_rows_table(f, v, names, lang, players, public))
        elif f.kind != "data":
            info.append(_item(f, v, names, lang, public))
    rows = [{"seat": s, "name": seat_name(s, names, lang),
             "cells": [seat_cell(f.kind, v[s] if v is not None and s < len(v) else None,
                                 lang) for f, v in per]} for s in range(players)]
    return {"columns": columns, "rows": rows if columns else [], "tables": tables,
            "info": info}


def _rows_table(f: FieldInfo, rows: Sequence[Any], names: Sequence[str], lang: str,
                players: int, public: bool) -> dict[str, Any]:
    """Nested views as a table: their own facts as columns, then one column per seat
    holding that seat's per-seat values (joined with ·; the legend says which)."""
    first = entries(rows[0], public)
    plain = [g for g, _ in first if g.kind not in PER_SEAT and g.kind != "data"]
    seats = [g for g, _ in first if g.kind in PER_SEAT]
    legend = " · ".join(terms.term(g.term or g.name, lang) for g in seats)
    header = [terms.term(g.term or g.name, lang) for g in plain]
    header += [seat_name(s, names, lang) for s in range(players)] if seats else []
    body = []
    for r in rows:
        values = dict((g.name, v) for g, v in entries(r, public))
        line = [value_cell(g.kind, _as_read(g, values.get(g.name)), names, lang, public)
                for g in plain]
        if seats:
            for s in range(players):
                parts = []
                for g in seats:
                    vs = values.get(g.name)
                    parts.append(seat_cell(g.kind, vs[s] if vs is not None and s < len(vs)
                                           else None, lang)["text"])
                line.append({"text": " · ".join(parts)})
        body.append(line)
    return {"name": f.name, "label": terms.term(f.term or f.name, lang), "legend": legend,
            "columns": header, "rows": body}


def present_result(result: Mapping[str, Any], game: str | None = None, lang: str = "en",
                   names: Sequence[str] | None = None) -> dict[str, Any]:
    """The end of a match as a person reads it, laid out once for every interface: who won
    (or that nobody did), every seat's score, what the game's outcome view adds (its
    ``GameSpec.outcome``, read by its declared fields like any view: a seat is marked on its
    row and named, a per-seat field is a column, a flag that holds is stated by its label),
    and whether the deal cap stopped the match.

    ``result`` is the result object's JSON form (a record's ``result`` will do); ``game``
    the game's name, for its outcome view (None: winners and scores only). Shape::

        {"lang", "headline": {"label", "text"}, "seat_label": str,
         "columns": [{"name", "label"}],
         "rows": [{"seat", "name", "winner", "marks": [str], "cells": [cell]}],
         "info": [item], "capped": str | None}
    """
    scores = list(result.get("scores") or [])
    players = len(scores)
    names = list(names) if names is not None else \
        [f"{terms.term('seat', lang)} {i + 1}" for i in range(players)]
    winners = [w for w in result.get("winners") or [] if isinstance(w, int)]
    if winners:
        label = terms.term("match_winner" if len(winners) == 1 else "winners", lang)
        headline = {"label": label, "text": ", ".join(seat_name(w, names, lang)
                                                      for w in winners)}
    else:
        headline = {"label": terms.term("nobody_wins", lang), "text": ""}
    score_term = _score_term(game)
    columns = [{"name": "scores", "label": terms.term(score_term, lang)}]
    cells = [[{"text": NOTHING if v is None else _number(v)}] for v in scores]
    marks: list[list[str]] = [[] for _ in range(players)]
    info: list[dict[str, Any]] = []
    outcome = _outcome_view(result, game)
    for f, v in entries(outcome, True, players) if outcome is not None else ():
        if f.kind == "data" or f.term is None:
            continue
        label = terms.term(f.term, lang)
        if f.kind in PER_SEAT:
            if not v:
                continue
            columns.append({"name": f.name, "label": label})
            for s in range(players):
                cells[s].append(seat_cell(f.kind, v[s] if v is not None and s < len(v)
                                          else None, lang))
        elif f.kind == "flag":
            if v:
                info.append({"name": f.name, "label": label, "text": ""})
        elif f.kind == "seat":
            if isinstance(v, int) and 0 <= v < players:
                marks[v].append(label)
                info.append(_item(f, v, names, lang, True))
        elif v is not None:
            info.append(_item(f, v, names, lang, True))
    rows = [{"seat": s, "name": seat_name(s, names, lang), "winner": s in winners,
             "marks": marks[s], "cells": cells[s]} for s in range(players)]
    return {"lang": lang, "headline": headline, "seat_label": terms.term("players", lang),
            "columns": columns, "rows": rows,
            "info": info,
            "capped": terms.term("capped_note", lang) if result.get("capped") else None}


def _score_term(game: str | None) -> str:
    """The term over the scores column: the game's own (Durak: games lost), else scores."""
    if game is None:
        return "scores"
    from koloda.engine.registry import get_spec
    return get_spec(game).score_term


def _outcome_view(result: Mapping[str, Any], game: str | None) -> View | None:
    if game is None:
        return None
    from koloda.engine.registry import get_spec
    outcome = get_spec(game).outcome
    details = result.get("details")
    view = outcome(details if isinstance(details, Mapping) else {}) \
        if outcome is not None else None
    return view if isinstance(view, View) else None


def action_words(action: str, lang: str = "en", done: bool = False) -> str:
    """A canonical action as a person reads it: «побить 7♠ картой 9♠», "take card 2"; with
    ``done``, as a log says a seat did it: «бьёт 7♠ картой 9♠», "takes card 2"."""
    words = action.split()
    if not words:
        return action
    head = (terms.verb_done if done else terms.verb)(words[0], lang)
    args = words[1:]
    if words[0] == "beat" and len(args) == 2 and all(a in TEXT_CARD for a in args):
        return (f"{head} {terms.card_word(TEXT_CARD[args[0]], lang)} {terms.verb('with', lang)}"
                f" {terms.card_word(TEXT_CARD[args[1]], lang)}")
    if words[0] == "pick" and len(args) == 1 and args[0].isdigit():
        return f"{head} {int(args[0]) + 1}"
    out = [head]
    for w in args:
        if w in TEXT_CARD:
            out.append(terms.card_word(TEXT_CARD[w], lang))
        elif terms.has_term(w):
            out.append(terms.term(w, lang))
        else:
            out.append(terms.verb(w, lang))
    return " ".join(out)
