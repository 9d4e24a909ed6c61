"""Strength between a floor and a ceiling, as printed by the arena (docs/strength.md).

    PYTHONPATH=. nice python3 benchmarks/strength.py            # the doc's modest size
    PYTHONPATH=. nice python3 benchmarks/strength.py --deals 200 --ten-deals 40

Runs `koloda arena` and `koloda ratings` and prints every command with its output:

1. the floor, OpenSpiel's own ISMCTS (random rollouts) through koloda's OpenSpiel
   adapter: ``search:normal`` and ``heuristic`` against ``openspiel-ismcts:N`` with N
   simulations chosen so that a move takes ISMCTS about as long as ``search:normal``
   (calibrated here: ISMCTS's median ms a simulation, from a short run), and
   ``search:normal`` against ISMCTS given ten times that;
2. the ceiling, the ``clairvoyant`` (sees every card; marked as cheating): against
   ``search:normal`` and against ``heuristic`` (skipped, saying so, for a game without
   one);
3. ``search`` against ``heuristic`` on fresh seeds;
4. the rating list of each game: random, heuristic, every search level and ISMCTS at
   equal time, a round-robin on the same deal-sets.

Durak with 2 players and Opendaum with 4. Every arena is deterministic from its seeds
(iteration budgets); only the move times depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

GAMES = (("durak", 2), ("opendaum", 4))
FRESH_SEED = 70_001        # seeds none of the figures in docs/strength were measured on
#: the koloda command of this interpreter and PYTHONPATH (``-m koloda.cli.main`` would
#: leave the commands registered on another copy of the module)
RUN_KOLODA = "import sys; from koloda.cli.main import app; sys.argv[0] = 'koloda'; app()"


def koloda(args: list[str], capture_json: bool = False) -> dict | None:
    """Run ``koloda ARGS``, printing the command and its output; the JSON summary when
    ``capture_json``."""
    print(f"$ koloda {' '.join(args)}", flush=True)
    env = dict(os.environ, COLUMNS="120")
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", RUN_KOLODA, *args], env=env,
                         capture_output=True, text=True)
    took = time.perf_counter() - start
    if out.returncode != 0:
        print(out.stdout + out.stderr)
        raise SystemExit(f"koloda {' '.join(args)} failed ({out.returncode})")
    if capture_json:
        summary: dict = json.loads(out.stdout)
        print(f"({took:.0f} s)\n", flush=True)
        return summary
    print(out.stdout.rstrip())
    print(f"({took:.0f} s)\n", flush=True)
    return None


def has_bot(bot: str, game: str) -> bool:
    sys.path.insert(0, os.getcwd())
    import koloda.arena  # noqa: F401  (registers the measuring bots)
    from koloda.bots import make_bot
    from koloda.engine.errors import ConfigError
    try:
        make_bot(bot, game)
    except ConfigError:
        return False
    return True


def seat_median_ms(timings: str, bot: str) -> float:
    """The median ms a move of ``bot`` in a timings file of koloda arena."""
    times = []
    with open(timings, encoding="utf-8") as f:
        for line in f:
            t = json.loads(line)
            for seat, who in enumerate(t["lineup"]):
                if who == bot:
                    times += t["times"][seat]
    return 1000 * statistics.median(times)


def median_ms(summary: dict, bot: str) -> float:
    return float(next(b for b in summary["bots"] if b["bot"] == bot)["move_ms_median"])


def equal_time_simulations(game: str, players: int, search_ms: float, seed: int,
                           probe: int) -> int:
    """ISMCTS simulations a move that take about ``search_ms``: its median ms a
    simulation from a short run of ``probe`` simulations against the heuristic."""
    s = koloda(["arena", game, "--players", str(players), "--bots",
                f"heuristic,openspiel-ismcts:{probe}", "--deals", "2", "--seed", str(seed),
                "--json"], capture_json=True)
    assert s is not None
    per_sim = median_ms(s, f"openspiel-ismcts:{probe}") / probe
    n = max(1, round(search_ms / per_sim))
    print(f"{game} {players}p: search:normal {search_ms:.1f} ms a move (median); ISMCTS "
          f"{per_sim:.2f} ms a simulation (median over {probe}-simulation moves) → "
          f"openspiel-ismcts:{n} at equal time, openspiel-ismcts:{10 * n} at ten times\n",
          flush=True)
    return n


def arena(game: str, players: int, bots: str, deals: int, seed: int,
          more: tuple[str, ...] | list[str] = ()) -> None:
    koloda(["arena", game, "--players", str(players), "--bots", bots, "--deals", str(deals),
            "--seed", str(seed), *more])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--deals", type=int, default=10, help="deal-sets an arena")
    p.add_argument("--ten-deals", type=int, default=2,
                   help="deal-sets of the runs where ISMCTS has ten times the time")
    p.add_argument("--seed", type=int, default=FRESH_SEED)
    p.add_argument("--probe", type=int, default=10,
                   help="ISMCTS simulations of the calibration run")
    p.add_argument("--rating-deals", type=int, default=4,
                   help="deal-sets a pair in the rating round-robin")
    p.add_argument("--game", action="append", metavar="NAME:PLAYERS",
                   help="only these games (default: durak:2 and opendaum:4)")
    p.add_argument("--no-ratings", action="store_true", help="leave out the rating list")
    args = p.parse_args()
    games = [(g.split(":")[0], int(g.split(":")[1])) for g in args.game] if args.game \
        else list(GAMES)
    print(f"koloda strength, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"seeds from {args.seed}\n", flush=True)
    equal: dict[str, int] = {}
    for game, players in games:
        print(f"## {game}, {players} players\n")
        print("### search against heuristic, fresh seeds\n")
        with tempfile.TemporaryDirectory() as tmp:
            timings = os.path.join(tmp, "t.jsonl")
            koloda(["arena", game, "--players", str(players), "--bots",
                    "search:normal,heuristic", "--deals", str(args.deals), "--seed",
                    str(args.seed), "--timings", timings])
            search_ms = seat_median_ms(timings, "search:normal")
        n = equal_time_simulations(game, players, search_ms, args.seed, args.probe)
        equal[game] = n
        print("### the floor: OpenSpiel's ISMCTS\n")
        for bots, deals in ((f"search:normal,openspiel-ismcts:{n}", args.deals),
                            (f"heuristic,openspiel-ismcts:{n}", args.deals),
                            (f"search:normal,openspiel-ismcts:{10 * n}", args.ten_deals)):
            with tempfile.TemporaryDirectory() as tmp:
                timings = os.path.join(tmp, "t.jsonl")
                arena(game, players, bots, deals, args.seed, ["--timings", timings])
                if bots.startswith("search"):
                    ismcts = bots.split(",")[1]
                    ratio = seat_median_ms(timings, ismcts) / seat_median_ms(
                        timings, "search:normal")
                    print(f"{ismcts} took {ratio:.2f}× search:normal's median move time\n")
        print("### the ceiling: the clairvoyant\n")
        if has_bot("clairvoyant", game):
            for bots in ("clairvoyant,search:normal", "clairvoyant,heuristic"):
                arena(game, players, bots, args.deals, args.seed)
        else:
            print(f"(no clairvoyant bot for {game} in this tree: skipped)\n")
    if args.no_ratings:
        return
    for game, players in games:
        print(f"## the rating list: {game}, {players} players\n")
        sims = equal.get(game, 20)
        koloda(["ratings", game, "--players", str(players), "--bots",
                f"random,heuristic,search:easy,search:normal,search:hard,"
                f"openspiel-ismcts:{sims}", "--deals", str(args.rating_deals), "--seed",
                str(args.seed)])


if __name__ == "__main__":
    main()
