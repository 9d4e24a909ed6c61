"""The adapters' speed beside the raw engine's, in one run (``koloda bench --adapters``).

Every figure is uniformly random play of one-deal matches (``max_deals=1``), timed in CPU
seconds of this process (``time.process_time``), rounds interleaved so that a change of
load touches every side alike:

- **raw**: ``legal_actions()`` then ``apply()`` of a random one (koloda.bench's loop);
- **PettingZoo**: ``env(...)`` as a researcher writes it — ``last()`` (the observation
  vector and its mask) at every step, a random index the mask allows;
- **OpenSpiel**: ``observation_tensor(player)`` and ``legal_actions()`` at every decision,
  chance outcomes drawn at random.

The ratio adapter / raw is what issue 18 asks to be ≥ 20 % on durak 2p, opendaum 4p and
mushka 4p.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from koloda.bench import play_random
from koloda.engine.registry import new_game

#: the shapes issue 18 names
SHAPES: list[tuple[str, int]] = [("durak", 2), ("opendaum", 4), ("mushka", 4)]


def raw(game: str, players: int, count: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.process_time()
    for i in range(count):
        play_random(new_game(game, players=players, seed=seed + i, max_deals=1), rng)
    return time.process_time() - start


def pettingzoo(game: str, players: int, count: int, seed: int) -> float:
    import numpy as np

    from koloda.envs.pettingzoo import env
    e = env(game, players=players, max_deals=1)
    rng = random.Random(seed)
    flat = np.flatnonzero
    start = time.process_time()
    e.reset(seed=seed)
    for i in range(count):
        if i:
            e.reset()
        for _ in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            allowed = flat(obs["action_mask"])
            e.step(int(allowed[rng.randrange(len(allowed))]))
    return time.process_time() - start


def openspiel(game: str, players: int, count: int, seed: int) -> float:
    import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

    import koloda.envs.openspiel as kos
    g = pyspiel.load_game(f"{kos.game_name(game)}(players={players},max_deals=1)")
    rng = random.Random(seed)
    start = time.process_time()
    for _ in range(count):
        state = g.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
    return time.process_time() - start


@dataclass
class Row:
    game: str
    players: int
    episodes: int
    rates: dict[str, list[float]] = field(default_factory=dict)

    def median(self, side: str) -> float:
        xs = self.rates.get(side) or [0.0]
        return statistics.median(xs)

    def ratio(self, side: str) -> float:
        r = self.median("raw")
        return self.median(side) / r if r else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "episodes": self.episodes,
                **{f"{k}_per_s": round(self.median(k), 1) for k in self.rates},
                **{f"{k}_ratio": round(self.ratio(k), 3) for k in self.rates if k != "raw"}}


def sides() -> dict[str, Callable[[str, int, int, int], float]]:
    """The sides that can run here (an adapter whose extra is missing is left out)."""
    out: dict[str, Callable[[str, int, int, int], float]] = {"raw": raw}
    try:
        import pettingzoo as _pz  # type: ignore[import-untyped, import-not-found, unused-ignore]  # noqa: F401
        out["pettingzoo"] = pettingzoo
    except ImportError:
        pass
    try:
        import pyspiel as _ps  # noqa: F401
        out["openspiel"] = openspiel
    except ImportError:
        pass
    return out


def measure(episodes: int = 100, rounds: int = 3, seed: int = 1,
            shapes: list[tuple[str, int]] | None = None, chunk: int = 5) -> list[Row]:
    """Each round plays ``episodes`` per side in chunks of ``chunk`` episodes taken in
    turn (raw, PettingZoo, OpenSpiel, raw, …), so that the load of a shared machine falls
    on every side alike; a round's rate is its episodes over its summed CPU time."""
    rows = []
    run = sides()
    for game, players in shapes or SHAPES:
        row = Row(game, players, episodes)
        for r in range(rounds):
            spent = dict.fromkeys(run, 0.0)
            done = 0
            while done < episodes:
                n = min(chunk, episodes - done)
                s = seed + r * episodes + done
                for name, fn in run.items():
                    spent[name] += fn(game, players, n, s)
                done += n
            for name, seconds in spent.items():
                row.rates.setdefault(name, []).append(episodes / seconds if seconds else 0.0)
        rows.append(row)
    return rows


def lines(rows: list[Row]) -> list[str]:
    out = ["adapters beside the raw engine: one-deal matches (max_deals=1) of uniformly random "
           "play, episodes per CPU second, median of the rounds; the adapters compute an "
           "observation (vector + mask) at every decision"]
    for row in rows:
        parts = [f"raw {row.median('raw'):,.0f}/s"]
        for side in row.rates:
            if side != "raw":
                parts.append(f"{side} {row.median(side):,.0f}/s ({row.ratio(side):.1%})")
        out.append(f"  {row.game} {row.players}p ({row.episodes} episodes × "
                   f"{len(row.rates['raw'])} rounds): " + ", ".join(parts))
    return out


def main() -> None:  # pragma: no cover - python -m koloda.envs.speed
    import sys
    episodes = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    for line in lines(measure(episodes)):
        print(line)


if __name__ == "__main__":  # pragma: no cover
    main()
