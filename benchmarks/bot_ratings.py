"""Make ``koloda/web/bot_ratings.json``: the fixed OpenSkill ratings of the computer levels.

For each game it runs ``koloda arena GAME --bots <levels> --log …`` (seats rotated, the same
deals for every lineup), then feeds every logged game, in order, to OpenSkill's
Plackett-Luce model — the model the server rates people with (``koloda.store.ratings``),
on its scale (a new player: mu 25, sigma 25/3) — starting every level at that new player's
rating, with ``random`` held at mu 25 so that the scale does not drift. What comes out is
each level's mu and sigma (with more levels than seats, every choice of levels
is its own arena run) (sigma no lower than ``SIGMA_FLOOR``: a computer is not known
more exactly than a few dozen short games tell).

Levels the run did not measure (``--levels`` leaves them out: search:normal and
search:hard cost seconds a move) get the measured level below them plus ``STEP`` mu per
level, a judgement written into the file's ``note``. ``koloda ratings GAME`` (the arena's
rating list, koloda/ratings.py) is to replace this script's figures when it exists.

    python3 benchmarks/bot_ratings.py --deals 4 --levels random,heuristic,search:easy
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from itertools import combinations
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "koloda" / "web" / "bot_ratings.json"
ORDER = ("random", "heuristic", "search:easy", "search:normal", "search:hard")
STEP = 2.0
SIGMA_FLOOR = 1.5


def arena_games(game: str, levels: list[str], deals: int, players: int) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "arena.jsonl"
        subprocess.run(["koloda", "arena", game, "--bots", ",".join(levels), "--deals",
                        str(deals), "--players", str(players), "--log", str(log), "--json"],
                       check=True, stdout=subprocess.DEVNULL)
        return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def fit(games: list[dict[str, Any]], levels: list[str]) -> dict[str, dict[str, float]]:
    from koloda.store.ratings import MODEL, outcome_ranks
    ratings = {lv: MODEL.rating(name=lv) for lv in levels}
    for g in games:
        lineup = g["lineup"]
        teams = [[ratings[b]] for b in lineup]
        new = MODEL.rate(teams, ranks=outcome_ranks(g["result"], len(lineup)))
        for b, [r] in zip(lineup, new, strict=True):
            if b != "random":
                ratings[b] = r
    return {lv: {"mu": round(r.mu, 3), "sigma": round(max(r.sigma, SIGMA_FLOOR), 3)}
            for lv, r in ratings.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=4)
    ap.add_argument("--levels", default="random,heuristic,search:easy")
    ap.add_argument("--games", default="", help="comma-separated; default every game")
    args = ap.parse_args()
    from koloda.engine.registry import registry
    from koloda.web.bots import bots_for
    out: dict[str, Any] = {
        "note": ("Fixed OpenSkill (Plackett-Luce, mu 25 / sigma 25/3 scale) ratings of the "
                 "computer levels, made by benchmarks/bot_ratings.py from short arena runs "
                 f"(--deals {args.deals}, levels {args.levels}; random held at mu 25). "
                 f"Levels not measured: the measured level below plus {STEP} mu a level, "
                 "by judgement. To be replaced by `koloda ratings GAME`."),
        "games": {}}
    wanted = [g for g in args.games.split(",") if g] or sorted(registry())
    for game in wanted:
        spec = registry()[game]
        offered = bots_for(game)
        levels = [lv for lv in args.levels.split(",") if lv in offered]
        players = 2 if 2 in spec.players else spec.default_players
        print(f"{game}: {', '.join(levels)} at {players} players …", file=sys.stderr)
        # the arena seats its first `players` bots: with more levels than seats, every
        # choice of `players` levels is a run of its own
        lineups = [list(c) for c in combinations(levels, players)] \
            if len(levels) > players else [levels]
        games = [g for lineup in lineups for g in arena_games(game, lineup, args.deals,
                                                              players)]
        fitted = fit(games, levels)
        below = fitted[levels[-1]]
        for lv in ORDER:
            if lv in offered and lv not in fitted:
                below = {"mu": round(below["mu"] + STEP, 3), "sigma": below["sigma"]}
                fitted[lv] = dict(below, estimated=True)
            elif lv in fitted:
                below = fitted[lv]
        out["games"][game] = {lv: fitted[lv] for lv in ORDER if lv in fitted}
    OUT.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
