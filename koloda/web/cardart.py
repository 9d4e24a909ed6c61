"""The card faces, drawn here as SVG and shipped as files in ``static/cards``.

Nothing is fetched from elsewhere: suit signs are paths drawn below, pips stand where a
printed deck puts them, court cards a double-headed figure (a king in a crown, a queen in a
tiara, a jack in a feathered cap) with the suit beside the head. Two decks: ``en`` (J Q K A) and
``ru`` (В Д К Т, as Russian decks mark them). ``python -m koloda.web.cardart`` writes the
files again; a test checks that the shipped ones are what this module draws.
"""

from __future__ import annotations

from pathlib import Path

from koloda.cards import CARD_TEXT

W, H = 100, 140
SUIT_PATHS = {
    "H": "M50 92C24 70 2 52 2 30 2 14 14 2 28 2 39 2 46 9 50 18 54 9 61 2 72 2 86 2 98 14 "
         "98 30 98 52 76 70 50 92Z",
    "D": "M50 2L90 50 50 98 10 50Z",
    "S": "M50 2C34 26 4 40 4 62 4 77 15 86 28 86 37 86 43 82 47 76 45 87 39 94 30 98H70"
         "C61 94 55 87 53 76 57 82 63 86 72 86 85 86 96 77 96 62 96 40 66 26 50 2Z",
    "C": "M50 4A21 21 0 0 0 33 38 21 21 0 1 0 46 70C45 84 40 92 30 98H70C60 92 55 84 54 70"
         "A21 21 0 1 0 67 38 21 21 0 0 0 50 4Z",
}
RED = "#c8102e"
BLACK = "#1a1a1a"
RANK_LABEL = {
    "en": {"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"},
    "ru": {"T": "10", "J": "В", "Q": "Д", "K": "К", "A": "Т"},
}
#: pip centres (x, y) on a 100×140 face, by rank; y > 70 pips are drawn upside down
PIPS: dict[str, list[tuple[float, float]]] = {
    "2": [(50, 32), (50, 108)],
    "3": [(50, 32), (50, 70), (50, 108)],
    "4": [(32, 32), (68, 32), (32, 108), (68, 108)],
    "5": [(32, 32), (68, 32), (50, 70), (32, 108), (68, 108)],
    "6": [(32, 32), (68, 32), (32, 70), (68, 70), (32, 108), (68, 108)],
    "7": [(32, 32), (68, 32), (50, 51), (32, 70), (68, 70), (32, 108), (68, 108)],
    "8": [(32, 32), (68, 32), (50, 51), (32, 70), (68, 70), (50, 89), (32, 108), (68, 108)],
    "9": [(32, 32), (68, 32), (32, 57), (68, 57), (50, 70), (32, 83), (68, 83), (32, 108),
          (68, 108)],
    "T": [(32, 32), (68, 32), (50, 45), (32, 57), (68, 57), (32, 83), (68, 83), (50, 95),
          (32, 108), (68, 108)],
}


def _suit(suit: str, x: float, y: float, size: float, flip: bool = False) -> str:
    """A suit sign of ``size`` centred at (x, y)."""
    s = size / 100
    rot = f" rotate(180 {50} {50})" if flip else ""
    return (f'<path d="{SUIT_PATHS[suit]}" transform="translate({x - size / 2:.1f} '
            f'{y - size / 2:.1f}) scale({s:.3f}){rot}"/>')


def _index(label: str, suit: str) -> str:
    """The corner index, top left and (turned) bottom right."""
    size = 15 if len(label) == 1 else 13
    one = (f'<text x="11" y="20" font-size="{size}" text-anchor="middle" '
           f'font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" '
           f'font-weight="bold">{label}</text>{_suit(suit, 11, 30, 11)}')
    return f"<g>{one}</g><g transform=\"rotate(180 50 70)\">{one}</g>"


GOLD = "#d4a017"
SKIN = "#f3d9b1"
#: what each court figure wears: a crown (king), a tiara (queen), a feathered cap (jack)
HEADWEAR = {
    "K": f'<path d="M41 37V28l4.5 4L50 25l4.5 7 4.5-4v9Z" fill="{GOLD}" stroke-width="0.8"/>',
    "Q": (f'<path d="M42 37l2-6 6 3 6-3 2 6Z" fill="{GOLD}" stroke-width="0.8"/>'
          f'<circle cx="44" cy="30" r="1.4" fill="{GOLD}"/><circle cx="50" cy="32.5" r="1.4" '
          f'fill="{GOLD}"/><circle cx="56" cy="30" r="1.4" fill="{GOLD}"/>'),
    "J": ('<path d="M40.5 38Q50 25 59.5 38Z"/>'
          f'<path d="M57 33q7-9 11-4" fill="none" stroke="{GOLD}" stroke-width="1.6"/>'),
}


def _court(rank: str, suit: str, colour: str) -> str:
    """A court card's picture: the figure's upper half, and the same turned round (a
    double-headed card reads the same from both ends of the table)."""
    half = (f'<path d="M30 70C30 58 39 53.5 50 53.5S70 58 70 70Z"/>'
            f'<path d="M44 54L50 62 56 54" fill="{GOLD}"/>'
            f'<circle cx="50" cy="45" r="8" fill="{SKIN}" stroke-width="1"/>'
            f'{HEADWEAR[rank]}{_suit(suit, 34, 44, 11)}')
    return (f'<rect x="22" y="24" width="56" height="92" rx="4" fill="#f6efd9" '
            f'stroke="{colour}" stroke-width="1.5"/>'
            f'<g stroke="{colour}">{half}</g>'
            f'<g stroke="{colour}" transform="rotate(180 50 70)">{half}</g>'
            f'<line x1="22" y1="70" x2="78" y2="70" stroke="{colour}" stroke-width="0.8"/>')


def card_svg(text: str, deck: str = "en") -> str:
    """The face of the card ``text`` (``"TH"``)."""
    rank, suit = text[0], text[1]
    colour = RED if suit in "HD" else BLACK
    label = RANK_LABEL[deck].get(rank, rank)
    body: list[str] = []
    if rank in PIPS:
        for x, y in PIPS[rank]:
            body.append(_suit(suit, x, y, 20, flip=y > 72))
    elif rank == "A":
        body.append(_suit(suit, 50, 70, 46))
    else:
        body.append(_court(rank, suit, colour))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" '
            f'width="{W}" height="{H}">'
            f'<rect x="1" y="1" width="98" height="138" rx="8" fill="#fffdf7" '
            f'stroke="#777" stroke-width="1.2"/>'
            f'<g fill="{colour}">{_index(label, suit)}{"".join(body)}</g></svg>\n')


def back_svg() -> str:
    """The back: a lattice in the colours of an old Russian deck."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" '
            f'width="{W}" height="{H}"><defs><pattern id="p" width="10" height="10" '
            f'patternUnits="userSpaceOnUse"><path d="M0 5L5 0 10 5 5 10Z" fill="#2f5d8a"/>'
            f'</pattern></defs><rect x="1" y="1" width="98" height="138" rx="8" '
            f'fill="#dfe8f1" stroke="#777" stroke-width="1.2"/><rect x="8" y="8" width="84" '
            f'height="124" rx="4" fill="url(#p)" stroke="#2f5d8a"/></svg>\n')


def files() -> dict[str, str]:
    """Relative path → SVG text, for every face of both decks and the back."""
    out = {"back.svg": back_svg()}
    for deck in RANK_LABEL:
        for text in CARD_TEXT:
            out[f"{deck}/{text}.svg"] = card_svg(text, deck)
    return out


def write(directory: Path) -> int:
    for rel, svg in files().items():
        path = directory / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(svg, encoding="utf-8")
    return len(files())


if __name__ == "__main__":  # pragma: no cover
    n = write(Path(__file__).parent / "static" / "cards")
    print(f"wrote {n} card files")
