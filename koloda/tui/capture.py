"""A picture of the table for the README: a Durak game against two computer players,
played with the keyboard in a headless terminal, saved as SVG and as plain text.

    python -m koloda.tui.capture docs/tui-durak [--lang en] [--seed 4]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from koloda.engine.registry import new_game
from koloda.tui.app import KolodaApp
from koloda.tui.session import Session, make_seats
from koloda.tui.table import TableScreen


def _worth_showing(screen: TableScreen) -> bool:
    """A defence with two or more attack cards on the table, one already covered and one
    still to beat (read from the presenter's display, as the table draws it)."""
    pairs = (screen.disp.get("centre") or {}).get("pairs") or []
    return (screen.session.human_to_move() and len(pairs) >= 2
            and any(p["cover"] is not None for p in pairs)
            and any(p["cover"] is None for p in pairs)
            and any(a.startswith("beat ") for a in screen.session.match.legal_actions()))


async def capture(seed: int = 4, lang: str = "en", size: tuple[int, int] = (80, 24),
                  name: str = "Anna", max_presses: int = 400) -> tuple[str, str]:
    """Play Durak for three (the person and two random computer players) with key presses
    until the table is worth showing; return (svg, text)."""
    match = new_game("durak", players=3, seed=seed)
    with tempfile.TemporaryDirectory() as tmp:
        session = Session(match, make_seats(3, 0, ["random"], name, lang),
                          Path(tmp) / "durak.json", use_store=False)
        app = KolodaApp(session, lang, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            for _ in range(max_presses):
                screen = app.screen
                if not isinstance(screen, TableScreen):
                    await pilot.press("enter")   # a sheet or the result: start again
                    continue
                if _worth_showing(screen):
                    break
                # play a card when one can be played (Enter on the first legal card),
                # else the first move of the list (take, pass)
                legal = [i for i, c in enumerate(screen.hand) if c in screen.chooser.legal_cards]
                if screen.zone == "menu" and screen.marked:   # which of several moves
                    await pilot.press("enter")
                elif legal:
                    for _ in range((legal[0] - screen.cursor) % len(screen.hand)):
                        await pilot.press("right")
                    await pilot.press("enter")
                else:
                    await pilot.press("1")
            await pilot.pause()
            return app.export_screenshot(title="koloda — durak"), app.export_text()


def main() -> None:  # pragma: no cover - a documentation helper
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", help="path without extension (writes .svg and .txt)")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--size", default="80x24", help="columns x rows (default 80x24)")
    args = parser.parse_args()
    w, _, h = args.size.partition("x")
    svg, text = asyncio.run(capture(args.seed, args.lang, (int(w), int(h))))
    Path(args.out + ".svg").write_text(svg, encoding="utf-8")
    Path(args.out + ".txt").write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    main()
