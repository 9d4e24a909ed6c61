"""Make ``koloda/web/bot_ratings.json``: the fixed ratings of the computer levels, measured.

For each game the neighbouring levels play each other in the arena (``koloda.arena``: the
same deal-sets for both, seats rotated): random–heuristic, heuristic–search:easy,
search:easy–search:normal, search:normal–search:hard, each pair on its own number of
deal-sets (``--deals``: the cheap pairs more, the searches' pairs few — search:hard thinks
seconds a move). The games are rated by the arena's rating list (``koloda.ratings.rate``,
what ``koloda ratings GAME --log …`` prints: OpenSkill Plackett–Luce from a new player's
mu 25, sigma 25/3 — the scale the server rates people on), and the list is then moved as
a whole so that ``random`` sits at mu 25: Plackett–Luce depends on differences of mu
only, so moving every mu alike changes no prediction, and the scale cannot drift from one
measurement to the next. Each sigma is the list's own: few games, wide intervals.

Each pair's arena log is kept (``--log-dir``, default ``arena-logs/bot_ratings`` under the
directory it is run from, which git ignores: GAME/A_vs_B.jsonl); the deal-sets a log
holds already are rated from it without being played again (more ``--deals`` later play
only the new ones), so that games can be measured at different times (``--games``) and
the file keeps the other games' entries; ``--again`` plays a game anew (after its bots
changed). What was measured — the pairs, their deal-sets and games, the commit of the
code, the command and what it printed — is in the file's ``measured`` part. It prints
each game's list (mu ± 2 sigma) as it is done.

    nice python3 benchmarks/bot_ratings.py --deals 8,6,2,1
    nice python3 benchmarks/bot_ratings.py --games durak --deals 12,12,12,6 --log-dir /tmp/rl
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "koloda" / "web" / "bot_ratings.json"
ORDER = ("random", "heuristic", "search:easy", "search:normal", "search:hard")
#: the level every other is measured from, and where it is held
ANCHOR, ANCHOR_MU = "random", 25.0
#: the pairs' arena logs, under the directory it is run from (ignored by git)
LOG_DIR = Path("arena-logs") / "bot_ratings"


def commit() -> str:
    """The commit of the code the games were played with: the last that changed koloda
    outside its web and store (which the arena does not run), with ``+`` if the work tree
    differs there."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True,
                              text=True, check=False).stdout.strip()
    played = ("--", "koloda", ":!koloda/web", ":!koloda/store")
    last = git("rev-list", "-1", "--abbrev-commit", "HEAD", *played)
    return last + ("+" if git("status", "--porcelain", *played) else "")


def pair_rows(game: str, players: int, pair: tuple[str, str], deals: int, seed: int,
              log: Path) -> tuple[list[dict[str, Any]], bool]:
    """The arena rows of ``pair`` on ``deals`` deal-sets (:func:`spread`; deal-set k has
    seed ``seed + k``, as in the arena): those ``log`` holds read from it, the others
    played (one process) and added to it. Also whether any were played."""
    from koloda import arena
    rows = [json.loads(line) for line in log.read_text("utf-8").splitlines() if line] \
        if log.exists() else []
    have = {int(r["seed"]) for r in rows}
    games = [arena.Game(game, players, seed + k, lineup, "deal", (), k)
             for k in spread(game, players, deals) for lineup in arena.lineups(list(pair), players)
             if seed + k not in have]
    if not games:
        return rows, False
    started = time.process_time()
    new = [res.row for res in arena.run(games, 1)]
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("a", encoding="utf-8") as out:
        out.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in new))
    print(f"  {pair[0]} vs {pair[1]}: {len(new)} games played, "
          f"{time.process_time() - started:.0f} s CPU", file=sys.stderr)
    return rows + new, True


def spread(game: str, players: int, deals: int) -> list[int]:
    """``deals`` deal-set numbers spread over the game's deal schedule (Opendaum's deals of
    1, 2, … cards), so that a pair played on few is not played on the first, shortest
    deals only; 0 .. deals-1 for a game without a schedule (or one no longer than that)."""
    from koloda.arena import schedule_length
    length = schedule_length(game, players, {})
    if length is None or length <= deals:
        return list(range(deals))
    return [i * length // deals for i in range(deals)]


def anchored(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """The rating list of ``rows`` (``koloda.ratings.rate``), moved so that ``ANCHOR``
    is at ``ANCHOR_MU``."""
    from koloda.ratings import rate
    ranking = {r.bot: r for r in rate(rows)}
    shift = ANCHOR_MU - ranking[ANCHOR].mu
    return {bot: {"mu": round(r.mu + shift, 3), "sigma": round(r.sigma, 3), "games": r.games}
            for bot, r in ranking.items()}


def measure(game: str, deals: list[int], seed: int, log_dir: Path
            ) -> tuple[dict[str, Any], dict[str, Any]]:
    """``game``'s levels rated, and what was measured."""
    from koloda.engine.registry import get_spec
    from koloda.web.bots import bots_for
    spec = get_spec(game)
    players = 2 if 2 in spec.players else spec.default_players
    levels = [lv for lv in ORDER if lv in bots_for(game)]
    rows: list[dict[str, Any]] = []
    pairs: dict[str, int] = {}
    played = False
    for (a, b), n in zip(zip(levels, levels[1:], strict=False), deals, strict=False):
        got, new = pair_rows(game, players, (a, b), n, seed,
                             log_dir / game / f"{a}_vs_{b}.jsonl".replace(":", "-"))
        rows += got
        played = played or new
        pairs[f"{a} vs {b}"] = len({r["seed"] for r in got})
    rated = anchored(rows) if rows else {}
    what = {"players": players, "deal_sets": pairs, "games": len(rows),
            "seeds_from": seed}
    if played:
        what["commit"] = commit()
        what["command"] = " ".join(["python3", "benchmarks/bot_ratings.py", *sys.argv[1:]])
    return {lv: rated[lv] for lv in ORDER if lv in rated}, what


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", default="8,6,2,1",
                    help="deal-sets of each neighbouring pair, weakest pair first")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", default="", help="comma-separated; default every game")
    ap.add_argument("--log-dir", type=Path, default=LOG_DIR,
                    help="where each pair's arena log is kept (default: %(default)s)")
    ap.add_argument("--again", action="store_true",
                    help="forget the games' logs and play them again (their bots changed)")
    ap.add_argument("--remark", help="a sentence kept in the file beside the note (e.g. "
                    "which bots were being changed when they were measured)")
    args = ap.parse_args()
    from koloda.engine.registry import registry
    deals = [int(x) for x in args.deals.split(",")]
    old: dict[str, Any] = json.loads(OUT.read_text("utf-8")) if OUT.exists() else {}
    out: dict[str, Any] = {"note": "", "remark": args.remark or old.get("remark", ""),
                           "games": dict(old.get("games", {})),
                           "measured": dict(old.get("measured", {}))}
    wanted = [g for g in args.games.split(",") if g] or sorted(registry())
    for game in wanted:
        print(f"{game} …", file=sys.stderr)
        if args.again:
            for old_log in (args.log_dir / game).glob("*.jsonl"):
                old_log.unlink()
        rated, what = measure(game, deals, args.seed, args.log_dir)
        if len(rated) < 2:
            print(f"  {game}: one level only, nothing to measure", file=sys.stderr)
            out["games"].pop(game, None)
            out["measured"].pop(game, None)
            write(out)
            continue
        before = out["measured"].get(game, {})
        for key in ("commit", "command"):
            what.setdefault(key, before.get(key, ""))
        what["printed"] = ", ".join(f"{lv} {r['mu']:.2f} ± {2 * r['sigma']:.2f}"
                                    for lv, r in rated.items())
        out["games"][game], out["measured"][game] = rated, what
        print(f"  {what['printed']}", file=sys.stderr)
        write(out)          # each game as it is done: a run stopped keeps what it measured


def write(out: dict[str, Any]) -> None:
    out["games"] = dict(sorted(out["games"].items()))
    out["measured"] = dict(sorted(out["measured"].items()))
    out["note"] = NOTE
    OUT.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}", file=sys.stderr)


NOTE = (
    "Fixed OpenSkill (Plackett-Luce) ratings of the computer levels on the people's scale "
    "(a new player: mu 25, sigma 25/3), measured by benchmarks/bot_ratings.py: "
    "neighbouring levels played each other in the arena (same deal-sets, seats rotated; "
    "'measured' says how many deal-sets a pair and at which commit), rated by the "
    "arena's rating list (koloda.ratings.rate, as `koloda ratings GAME --log` prints "
    "it), every mu then moved alike so that random is at 25. sigma is the list's own: "
    "a few games, wide intervals; a level is known to about mu ± 2 sigma. Each game's "
    "'measured' holds the command that last played it, the commit of the code played and "
    "what it printed (mu ± 2 sigma). The command keeps the games' logs in its --log-dir "
    "(default arena-logs/bot_ratings/GAME/): `koloda ratings GAME --log …` of them prints "
    "the same list before the move to 25.")


if __name__ == "__main__":
    main()
