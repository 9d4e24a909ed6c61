"""The adapters' speed beside the raw engine's, in one run (``koloda bench --adapters``).

Every side plays **the same matches**: one-deal matches (``max_deals=1``) of uniformly
random play, the k-th episode of a round dealt from the same seed on every side and its
actions chosen by the same generator, uniformly among the engine's legal actions — so
the ratios measure what an adapter costs, not how long its random games happen to be
(random Durak games vary a lot in length, and a policy uniform over mask indices plays
other games than one uniform over legal actions). Timed in CPU seconds of this process
(``time.process_time``), the sides taken in turn in chunks of a few episodes so that a
change of load on a shared machine touches every side alike.

No side is made faster by another's work on the same games: each adapter keeps its own
action space (selection trees and caches: ``action_space(game, adapter)``). Until
session 11 the two adapters shared one, and OpenSpiel, playing each chunk's deals right
after PettingZoo, found their trees built (OpenSpiel Durak 2p measured 21 % that way, 17 %
on its own). Each adapter's environment (the PettingZoo env, the OpenSpiel game) is made
once per shape and reset for every episode, as a training loop does; making it is not
timed (until session 11 it was made for every chunk of five episodes: 0.18 ms an env
against 0.29 ms a PettingZoo Opendaum episode).

All sides share this process. Each side in a process of its own (spawned, fed its turns,
timing its own CPU) was tried in session 11 and left out: a side woken after the others
ran starts on cold caches, and that fell hardest on the fastest side, the raw engine —
turns of five episodes made its Opendaum episodes a fifth slower, and turns of ~10 ms of
its CPU still made its Durak episodes about 7 % slower — so separate processes flattered
every ratio. In one process the ratios are the lower, conservative ones.

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
            shapes: list[tuple[str, int]] | None = None, chunk: int = 5) -> list[Row]:
    """Each round plays ``episodes`` per side in chunks of ``chunk`` episodes taken in
    turn (raw, PettingZoo, OpenSpiel, raw, …), so that the load of a shared machine falls
    on every side alike; a round's rate is its episodes over its summed CPU time."""
    rows = []
    run = sides()
    for game, players in shapes or SHAPES:
        for name in run:
            if name != "raw":
                made(name, game, players)       # (made before the clocks run)
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
        release(game, players)
    return rows


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
           "uniformly random play on every side, episodes per CPU second, median of the "
           "rounds; the adapters compute an observation (vector + mask) at every decision"]
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
