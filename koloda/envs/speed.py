"""The adapters' speed beside the raw engine's, in one run (``koloda bench --adapters``).

Every side plays **the same matches**: one-deal matches (``max_deals=1``) of uniformly
random play, the k-th episode of a round dealt from the same seed on every side and its
actions chosen by the same generator, uniformly among the engine's legal actions — so
the ratios measure what an adapter costs, not how long its random games happen to be
(random Durak games vary a lot in length, and a policy uniform over mask indices plays
other games than one uniform over legal actions). Timed in CPU seconds
(``time.process_time``), each side **in a process of its own** (as a researcher runs one
adapter), the sides taken in turn about 20 ms of CPU at a time so that a change of load
on a shared machine touches every side alike.

Until session 11 the sides shared one process and took five episodes a turn, and three
things in that made the figures wrong: the two adapters shared one action space, so
OpenSpiel, playing each chunk's deals right after PettingZoo, found their selection trees
built (OpenSpiel Durak 2p measured 21 % that way, 17 % on its own); each shape ran with
the earlier shapes' trees alive for the garbage collector to walk (OpenSpiel Mushka 4p
12.8 % after Durak and Opendaum, 15.5–16.7 % alone); and every chunk made its
environment anew (0.18 ms a PettingZoo env against 0.29 ms an Opendaum episode). Now
each adapter keeps its own action space (``action_space(game, adapter)``), a side's
environment is made once per shape before the clocks run and reset for every episode,
and a shape's trees are let go before the next. (Slices of five episodes in separate
processes were tried and left: a side woken after the others ran starts on cold caches,
which made the raw engine's short Opendaum episodes a fifth slower.) ``isolated=False``
runs every side in this process, five episodes a turn (the tests use it to compare the
games played).

- **raw**: ``legal_actions()`` then ``apply()`` (koloda.bench's loop);
- **PettingZoo**: ``env(...)`` as a researcher drives it — ``agent_iter()``, ``last()``
  (the observation vector and its mask) at every step, ``step(index)``; the chosen
  action goes in as its index path (``select`` …, ``confirm``), one step each;
- **OpenSpiel**: ``observation_tensor(player)`` and ``legal_actions()`` at every
  decision; the chance nodes deal the very cards of the raw side's deal.

The ratio adapter / raw is what issue 18 asks to be ≥ 20 % on durak 2p, opendaum 4p and
mushka 4p; Dreyfus 3p is measured too (its discard choice must not cost a tree per step).
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

#: the shapes issue 18 names, and Dreyfus (its exchange offers 4 096 discard sets, chosen
#: in select/confirm steps)
SHAPES: list[tuple[str, int]] = [("durak", 2), ("opendaum", 4), ("mushka", 4), ("dreyfus", 3)]


def match_seed(seed: int) -> int:
    """The match seed a PettingZoo env reset with ``seed`` deals (the raw side uses it)."""
    return random.Random(seed).getrandbits(63)


def raw(game: str, players: int, count: int, seed: int, keep: list[Any] | None = None
        ) -> float:
    """CPU seconds for ``count`` episodes; ``keep`` receives each match's history (the
    tests check that the sides play the same games)."""
    rng = random.Random(seed)
    start = time.process_time()
    for i in range(count):
        m = new_game(game, players=players, seed=match_seed(seed + i), max_deals=1)
        play_random(m, rng)
        if keep is not None:
            keep.append(m.history)
    return time.process_time() - start


def made(side: str, game: str, players: int) -> Any:
    """The environment ``side`` plays on for (game, players): made on the first asking,
    then the same one (the sides reset it for every episode)."""
    key = (side, game, players)
    found = _MADE.get(key)
    if found is None:
        if side == "pettingzoo":
            from koloda.envs.pettingzoo import env
            found = env(game, players=players, max_deals=1)
        else:
            import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

            import koloda.envs.openspiel as kos
            found = pyspiel.load_game(f"{kos.game_name(game)}(players={players},max_deals=1)")
        _MADE[key] = found
    return found


_MADE: dict[tuple[str, str, int], Any] = {}


def pettingzoo(game: str, players: int, count: int, seed: int,
               keep: list[Any] | None = None) -> float:
    e = made("pettingzoo", game, players)
    u = e.unwrapped
    space = u.space
    rng = random.Random(seed)
    start = time.process_time()
    for i in range(count):
        e.reset(seed=seed + i)
        pending: list[int] = []
        for _ in e.agent_iter():
            _obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            if not pending:
                legal = u.match.legal_actions()
                pending = space.path(legal[rng.randrange(len(legal))])
            e.step(pending.pop(0))
        if keep is not None:
            keep.append(u.match.history)
    return time.process_time() - start


def deal_outcomes(game: str, players: int, seed: int) -> list[int]:
    """The chance outcomes that deal the raw side's first deal: the dealer, then every
    card in the order the OpenSpiel table deals them (koloda.envs.chance) — the stock's
    as far as the game ever looks at it (``Match.stock_in_play``)."""
    m = new_game(game, players=players, seed=match_seed(seed), max_deals=1)
    deal = m.deals[0]
    out = [deal.dealer]
    for hand in deal.hands:
        out += hand
    out += deal.stock[:m.stock_in_play(deal)]        # (what lies under is not dealt)
    t = deal.trump_card
    if t is not None and t not in deal.stock and all(t not in h for h in deal.hands):
        out.append(t)
    return out


def openspiel(game: str, players: int, count: int, seed: int,
              keep: list[Any] | None = None) -> float:
    import koloda.envs.openspiel as kos
    g = made("openspiel", game, players)
    space = kos.action_space(game, "openspiel")
    deals = [deal_outcomes(game, players, seed + i) for i in range(count)]
    rng = random.Random(seed)
    start = time.process_time()
    for outcomes in deals:
        state = g.new_initial_state()
        chance = iter(outcomes)
        pending: list[int] = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(next(chance))
                continue
            state.observation_tensor(state.current_player())
            state.legal_actions()
            if not pending:
                legal = state.koloda_match().legal_actions()
                pending = space.path(legal[rng.randrange(len(legal))])
            state.apply_action(pending.pop(0))
        if keep is not None:
            keep.append(state.koloda_match().history)
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


def sides() -> dict[str, Callable[..., float]]:
    """The sides that can run here (an adapter whose extra is missing is left out)."""
    out: dict[str, Callable[..., float]] = {"raw": raw}
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
            shapes: list[tuple[str, int]] | None = None, chunk: int = 5,
            isolated: bool = True, slice_seconds: float = 0.02) -> list[Row]:
    """Each round plays the same ``episodes`` seeds on every side, the sides taken in
    turn a slice at a time (raw, PettingZoo, OpenSpiel, raw, …), so that the load of a
    shared machine falls on every side alike; a round's rate is its episodes over its
    summed CPU time.

    ``isolated``: every side runs in a process of its own (started once, fed its slices
    in turn, each timing its own CPU), as a researcher runs one adapter — no side's
    trees, caches and garbage in another's process. A slice is then about
    ``slice_seconds`` of the side's CPU (its first is ``chunk`` episodes): a side woken
    after the others ran starts on cold caches, which slices of a few episodes made a
    large part of the raw engine's short Opendaum episodes. Otherwise all sides share
    this process and take ``chunk`` episodes a turn."""
    rows = []
    run = sides()
    workers = _Workers(list(run)) if isolated else None
    try:
        for game, players in shapes or SHAPES:
            if workers is not None:
                workers.each("make", game, players)
            else:
                for name in run:
                    if name != "raw":
                        made(name, game, players)   # (made before the clocks run)
            row = Row(game, players, episodes)
            size = dict.fromkeys(run, chunk)
            for r in range(rounds):
                spent = dict.fromkeys(run, 0.0)
                done = dict.fromkeys(run, 0)
                base = seed + r * episodes
                while any(d < episodes for d in done.values()):
                    for name, fn in run.items():
                        n = min(size[name], episodes - done[name])
                        if n <= 0:
                            continue
                        s = base + done[name]
                        took = (fn(game, players, n, s) if workers is None
                                else workers.ask(name, "play", game, players, n, s))
                        spent[name] += took
                        done[name] += n
                        if workers is not None and took > 0:
                            size[name] = max(1, min(episodes, round(
                                slice_seconds * n / took)))
                for name, seconds in spent.items():
                    row.rates.setdefault(name, []).append(
                        episodes / seconds if seconds else 0.0)
            rows.append(row)
            if workers is not None:
                workers.each("release", game, players)
            else:
                release(game, players)
    finally:
        if workers is not None:
            workers.close()
    return rows


class _Workers:
    """One process per side, each answering ``(what, game, players, …)``: make
    the side's environment, play ``n`` episodes from ``seed`` (its CPU seconds back),
    release a shape."""

    def __init__(self, names: list[str]) -> None:
        import multiprocessing as mp
        # spawned, not forked: a forked side pays copy-on-write faults for the pages it
        # touches while timed (the raw engine's short episodes measured a fifth slower)
        ctx: Any = mp.get_context("spawn")
        self.conns: dict[str, Any] = {}
        self.procs: list[Any] = []
        for name in names:
            here, there = ctx.Pipe()
            proc = ctx.Process(target=_serve, args=(name, there), daemon=True)
            proc.start()
            there.close()
            self.conns[name], self.procs = here, [*self.procs, proc]

    def ask(self, name: str, *msg: Any) -> float:
        conn = self.conns[name]
        conn.send(msg)
        ok, value = conn.recv()
        if not ok:
            raise RuntimeError(f"the benchmark's {name} side failed: {value}")
        return float(value)

    def each(self, *msg: Any) -> None:
        for name in self.conns:
            self.ask(name, *msg)

    def close(self) -> None:
        for conn in self.conns.values():
            try:
                conn.send(None)
                conn.close()
            except (OSError, EOFError):
                pass
        for proc in self.procs:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.kill()


#: the seed of each side's one warm-up episode in an isolated run (far from any timed)
WARM_SEED = 987_654_321


def _serve(name: str, conn: Any) -> None:  # pragma: no cover - runs in the worker
    import gc
    fn = sides()[name]
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        try:
            what, game, players, *rest = msg
            if what == "make":         # made, and one episode away from the seeds timed
                if name != "raw":          # (the game's modules imported, the writers
                    made(name, game, players)               # compiled) before the clocks
                fn(game, players, 1, WARM_SEED)
                gc.collect()
                conn.send((True, 0.0))
            elif what == "release":
                release(game, players)
                conn.send((True, 0.0))
            else:
                n, seed = rest
                conn.send((True, fn(game, players, n, seed)))
        except Exception as exc:        # the coordinator raises it, naming the side
            conn.send((False, f"{type(exc).__name__}: {exc}"))


def release(game: str, players: int) -> None:
    """Let go of a shape's environments and the adapters' trees and caches for its game,
    then collect: the next shape is timed as in a process of its own (the trees kept
    alive from earlier shapes made every later side's garbage collection dearer —
    OpenSpiel Mushka 4p measured 12.8 % after Durak and Opendaum, 15.5–16.7 % alone)."""
    import gc

    from koloda.envs.actions import action_space
    for side in ("pettingzoo", "openspiel"):
        _MADE.pop((side, game, players), None)
        action_space(game, side).forget()
    gc.collect()


def lines(rows: list[Row]) -> list[str]:
    out = ["adapters beside the raw engine: the same one-deal matches (max_deals=1) of "
           "uniformly random play on every side, each side in a process of its own, "
           "episodes per CPU second, median of the rounds; the adapters compute an "
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
