"""Determinize speed per game: samples per CPU second over the decision points of seeded
random play — the same observation sampled 50 times (as a search does), and a new
observation for each sample.

    PYTHONPATH=. python3 benchmarks/determinize_speed.py [GAME ...]
"""
import random
import sys
import time

import koloda
from koloda.engine.registry import get_spec

GAMES = [("durak", 2, {}), ("durak", 4, {}), ("durak", 6, {}), ("durak-perevodnoy", 3, {}),
         ("opendaum", 4, {}), ("opendaum-shakhi", 4, {}), ("opendaum-33", 3, {}),
         ("mushka", 4, {}), ("kopilka", 4, {}), ("stukolka", 5, {}), ("dreyfus", 3, {}),
         ("trinka", 4, {})]


def points(game, n, opts, seeds, every=3):
    out = []
    for seed in seeds:
        m = koloda.new_game(game, players=n, seed=seed, **opts)
        rng = random.Random(seed)
        k = 0
        while not m.is_over and k < 300:
            if k % every == 0 and m.to_move is not None:
                out.append(m.observation(m.to_move))
            m.apply(rng.choice(m.legal_actions()))
            k += 1
    return out


def main():
    only = sys.argv[1:]
    for game, n, opts in GAMES:
        if only and game not in only:
            continue
        det = get_spec(game).determinize
        obs = points(game, n, opts, range(4))
        rng = random.Random(0)
        per = 50
        t0 = time.process_time()
        for o in obs:
            for _ in range(per):
                det(o, rng)
        dt = time.process_time() - t0
        t0 = time.process_time()
        for _ in range(3):
            for o in obs:
                det(o, rng)
                det(o.__class__(**{f: getattr(o, f) for f in o.__dataclass_fields__}), rng)
        fresh = time.process_time() - t0
        print(f"{game:18s} {n}p  {len(obs):4d} observations x {per}: "
              f"{len(obs) * per / dt:9.0f} samples/s (same observation); "
              f"{len(obs) * 6 / fresh:9.0f} samples/s (a new observation each)")


main()
