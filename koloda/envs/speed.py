"""The adapters' speed beside the raw engine's, in one run (``koloda bench --adapters``).

Every side plays **the same episodes** of each shape a researcher trains on (``SHAPES``:
Durak 2p games, Opendaum 4p on its full 8-card deal — OpenSpiel's oh_hell shape — and
its whole 20-deal match, Mushka 4p, Dreyfus 3p, Kopilka 4p, Stukolka 5p and Trinka 4p
deals), of uniformly random play: the k-th episode of a round dealt from the same seed
on every side and its actions chosen by the same generator, uniformly among the
engine's legal actions — so the ratios measure what an adapter costs, not how long its
random games happen to be (random Durak games vary a lot in length, and a policy uniform
over mask indices plays other games than one uniform over legal actions). Timed in CPU
seconds of this process (``time.process_time``), the sides taken in turn in chunks of a
few episodes so that a change of load on a shared machine touches every side alike.

**The same work on every side, dealing included.** Each side deals inside the clock:
the raw side makes its match from the seed (``new_game``), PettingZoo's ``reset(seed)``
does the same, and the OpenSpiel side makes that match too to learn the deal's cards
(``deal_outcomes``, timed) and then feeds them to its chance nodes, as its own dealing.
A later deal of a multi-deal episode (the whole Opendaum match) is dealt on the OpenSpiel
side by its chance nodes, each outcome drawn uniformly (a generator seeded by the
episode, inside the clock, as an OpenSpiel loop draws them): its cards then differ from
the raw side's, not its length (an Opendaum match's bids and tricks are fixed by its
deals' sizes).

No side is made faster by another's work on the same games: each adapter keeps its own
action space (selection trees and caches: ``action_space(game, adapter)``). Each
adapter's environment (the PettingZoo env, the OpenSpiel game) is made once per shape
and reset for every episode, as a training loop does; making it is not timed. All sides
share this process (each side in a process of its own flattered every ratio: a side woken
after the others ran starts on cold caches, which falls hardest on the fastest side, the
raw engine).

- **raw**: ``legal_actions()`` then ``apply()`` (koloda.bench's loop);
- **PettingZoo**: ``env(...)`` as a researcher drives it — ``agent_iter()``, ``last()``
  (the observation vector and its mask) at every step, ``step(index)``; the chosen
  action goes in as its index path (``select`` …, ``confirm``), one step each;
- **OpenSpiel**: ``observation_tensor(player)`` and ``legal_actions()`` at every
  decision; the chance nodes deal the very cards of the raw side's first deal.

Every row says its shape: players, cards in each hand (as each deal begins), deals in an
episode and the game options (``Row.to_json``: ``players``, ``cards``, ``deals``,
``options``).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from koloda.bench import play_random
from koloda.engine.registry import new_game


@dataclass(frozen=True)
class Shape:
    """One thing a researcher trains on: a game, its player count and the options that
    make an episode (``max_deals=1``: one deal, or one Durak game; none: the whole
    match). ``what`` names an episode in the output; ``scale`` divides the episodes asked
    for (a whole match is many deals)."""

    game: str
    players: int
    options: tuple[tuple[str, Any], ...] = (("max_deals", 1),)
    what: str = "deal"
    scale: int = 1
    #: the shape's name for ``koloda bench --adapters --shapes`` (the game's when empty)
    key: str = ""

    @property
    def name(self) -> str:
        return self.key or self.game

    @property
    def opts(self) -> dict[str, Any]:
        return dict(self.options)

    @property
    def label(self) -> str:
        return f"{self.game} {self.players}p {self.what}"

    def episodes(self, asked: int) -> int:
        return max(1, asked // self.scale)


#: the shapes measured: what the batched simulator and the examples train on (Opendaum
#: 4p on OpenSpiel's oh_hell shape, its 8-card deal, and the whole match; Dreyfus's
#: exchange offers 4 096 discard sets, chosen in select/confirm steps)
SHAPES: list[Shape] = [
    Shape("durak", 2, what="game"),
    Shape("opendaum", 4, (("max_deals", 1), ("start_deal", 7)), "8-card deal",
          key="opendaum-8"),
    Shape("opendaum", 4, (), "whole match", scale=10, key="opendaum-match"),
    Shape("mushka", 4),
    Shape("dreyfus", 3),
    Shape("kopilka", 4),
    Shape("stukolka", 5),
    Shape("trinka", 4),
]


def named(names: Sequence[str]) -> list[Shape]:
    """The shapes of ``SHAPES`` with these names (``Shape.name``: ``durak``,
    ``opendaum-8``, ``opendaum-match``, ``mushka`` …), in ``SHAPES``' order; ValueError
    naming the known ones for a name that is none of them."""
    known = {s.name: s for s in SHAPES}
    wrong = [n for n in names if n not in known]
    if wrong:
        raise ValueError(f"no adapter shape {', '.join(wrong)}: one of {', '.join(known)}")
    return [s for s in SHAPES if s.name in names]


def as_shape(shape: Shape | tuple[str, int]) -> Shape:
    """A Shape; a bare (game, players) is its one-deal episode."""
    return shape if isinstance(shape, Shape) else Shape(*shape)


def match_seed(seed: int) -> int:
    """The match seed a PettingZoo env reset with ``seed`` deals (the raw side uses it)."""
    return random.Random(seed).getrandbits(63)


def raw(shape: Shape, count: int, seed: int, keep: list[Any] | None = None) -> float:
    """CPU seconds for ``count`` episodes; ``keep`` receives each match (the tests check
    that the sides play the same games)."""
    rng = random.Random(seed)
    game, players, options = shape.game, shape.players, shape.opts
    start = time.process_time()
    for i in range(count):
        m = new_game(game, players=players, seed=match_seed(seed + i), **options)
        play_random(m, rng)
        if keep is not None:
            keep.append(m)
    return time.process_time() - start


def made(side: str, shape: Shape) -> Any:
    """The environment ``side`` plays on for ``shape``: made on the first asking, then
    the same one (the sides reset it for every episode)."""
    key = (side, shape)
    found = _MADE.get(key)
    if found is None:
        if side == "pettingzoo":
            from koloda.envs.pettingzoo import env
            found = env(shape.game, players=shape.players, **shape.opts)
        else:
            import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

            import koloda.envs.openspiel as kos
            params = ",".join([f"players={shape.players}",
                               *(f"{k}={v}" for k, v in shape.options)])
            found = pyspiel.load_game(f"{kos.game_name(shape.game)}({params})")
        _MADE[key] = found
    return found


_MADE: dict[tuple[str, Shape], Any] = {}


def pettingzoo(shape: Shape, count: int, seed: int, keep: list[Any] | None = None) -> float:
    e = made("pettingzoo", shape)
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
            keep.append(u.match)
    return time.process_time() - start


def deal_outcomes(shape: Shape, seed: int) -> list[int]:
    """The chance outcomes that deal the raw side's first deal: the dealer, then every
    card in the order the OpenSpiel table deals them (koloda.envs.chance) — the stock's
    as far as the game ever looks at it (``Match.stock_in_play``). Made from the match
    the raw side makes (``new_game``): the OpenSpiel side calls it inside its clock."""
    m = new_game(shape.game, players=shape.players, seed=match_seed(seed), **shape.opts)
    deal = m.deals[0]
    out = [deal.dealer]
    for hand in deal.hands:
        out += hand
    out += deal.stock[:m.stock_in_play(deal)]        # (what lies under is not dealt)
    t = deal.trump_card
    if t is not None and t not in deal.stock and all(t not in h for h in deal.hands):
        out.append(t)
    return out


def openspiel(shape: Shape, count: int, seed: int, keep: list[Any] | None = None) -> float:
    import koloda.envs.openspiel as kos
    g = made("openspiel", shape)
    space = kos.action_space(shape.game, "openspiel")
    rng = random.Random(seed)
    start = time.process_time()
    for i in range(count):
        # the dealing, inside the clock: the raw side's first deal, then (a later deal of
        # a match) uniformly drawn outcomes
        chance = iter(deal_outcomes(shape, seed + i))
        drawn = random.Random(seed + i)
        state = g.new_initial_state()
        pending: list[int] = []
        while not state.is_terminal():
            if state.is_chance_node():
                outcome = next(chance, None)
                if outcome is None:
                    outcomes = state.chance_outcomes()
                    outcome = outcomes[drawn.randrange(len(outcomes))][0]
                state.apply_action(outcome)
                continue
            state.observation_tensor(state.current_player())
            state.legal_actions()
            if not pending:
                legal = state.koloda_match().legal_actions()
                pending = space.path(legal[rng.randrange(len(legal))])
            state.apply_action(pending.pop(0))
        if keep is not None:
            keep.append(state.koloda_match())
    return time.process_time() - start


def describe(shape: Shape, seed: int, episodes: int = 3) -> dict[str, Any]:
    """What an episode of ``shape`` is, read off a few raw matches (outside any clock):
    players, the cards in each hand as each deal begins (every size met, ascending), the
    deals an episode holds (fewest, most), the options."""
    sizes: set[int] = set()
    deals: list[int] = []
    for i in range(episodes):
        m = new_game(shape.game, players=shape.players, seed=match_seed(seed + i),
                     **shape.opts)
        play_random(m, random.Random(seed + i))
        deals.append(len(m.deals))
        sizes |= {len(d.hands[0]) for d in m.deals}
    return {"players": shape.players, "cards": sorted(sizes),
            "deals": [min(deals), max(deals)], "options": shape.opts}


def shape_text(info: dict[str, Any]) -> str:
    """``4 players, 8 cards each, 1 deal (max_deals=1, start_deal=7)``."""
    cards, (few, most) = info["cards"], info["deals"]
    hand = f"{cards[0]}" if len(cards) == 1 else f"{cards[0]}–{cards[-1]}"
    n = f"{few}" if few == most else f"{few}–{most}"
    opts = ", ".join(f"{k}={v}" for k, v in info["options"].items())
    return (f"{info['players']} players, {hand} cards each, {n} deal{'s' if most > 1 else ''}"
            + (f" ({opts})" if opts else ""))


@dataclass
class Row:
    game: str
    players: int
    episodes: int
    rates: dict[str, list[float]] = field(default_factory=dict)
    #: what an episode is: ``Shape.what`` and ``describe``'s facts
    what: str = "deal"
    shape: dict[str, Any] = field(default_factory=dict)

    def median(self, side: str) -> float:
        xs = self.rates.get(side) or [0.0]
        return statistics.median(xs)

    def ratio(self, side: str) -> float:
        r = self.median("raw")
        return self.median(side) / r if r else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "episode": self.what,
                **self.shape, "shape": shape_text(self.shape) if self.shape else "",
                "episodes": self.episodes,
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
            shapes: Sequence[Shape | tuple[str, int]] | None = None,
            chunk: int = 5) -> list[Row]:
    """After one untimed episode per side (what a first episode makes once: encoders,
    selection trees), each round plays ``episodes`` per side (a shape's ``scale``
    divides them) in chunks of ``chunk`` episodes taken in turn (raw, PettingZoo,
    OpenSpiel, raw, …), so that the load of a shared machine falls on every side alike;
    a round's rate is its episodes over its summed CPU time."""
    rows = []
    run = sides()
    for shape in map(as_shape, shapes or SHAPES):
        for name, fn in run.items():
            if name != "raw":
                made(name, shape)       # (made before the clocks run)
            fn(shape, 1, seed - 1)      # one episode untimed: the first one's warm-up
        count = shape.episodes(episodes)
        row = Row(shape.game, shape.players, count, what=shape.what,
                  shape=describe(shape, seed))
        for r in range(rounds):
            spent = dict.fromkeys(run, 0.0)
            done = 0
            while done < count:
                n = min(chunk, count - done)
                s = seed + r * count + done
                for name, fn in run.items():
                    spent[name] += fn(shape, n, s)
                done += n
            for name, seconds in spent.items():
                row.rates.setdefault(name, []).append(count / seconds if seconds else 0.0)
        rows.append(row)
        release(shape)
    return rows


def release(shape: Shape) -> None:
    """Let go of a shape's environments and the adapters' trees and caches for its game,
    then collect: the next shape is timed as in a process of its own (the trees kept
    alive from earlier shapes made every later side's garbage collection dearer)."""
    import gc

    from koloda.envs.actions import action_space
    for side in ("pettingzoo", "openspiel"):
        _MADE.pop((side, shape), None)
        action_space(shape.game, side).forget()
    gc.collect()


def lines(rows: list[Row]) -> list[str]:
    out = ["adapters beside the raw engine: the same episodes of uniformly random play on "
           "every side, dealing inside the clock on every side, episodes per CPU second "
           "(this process; a shared machine's load falls on every side alike), median of "
           "the rounds; the adapters compute an observation (vector + mask) at every "
           "decision"]
    for row in rows:
        parts = [f"raw {row.median('raw'):,.0f}/s"]
        for side in row.rates:
            if side != "raw":
                parts.append(f"{side} {row.median(side):,.0f}/s ({row.ratio(side):.1%})")
        shape = f"; {shape_text(row.shape)}" if row.shape else ""
        out.append(f"  {row.game} {row.players}p {row.what}{shape}; {row.episodes} "
                   f"episodes × {len(row.rates['raw'])} rounds: " + ", ".join(parts))
    return out


def main() -> None:  # pragma: no cover - python -m koloda.envs.speed
    import sys
    episodes = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    for line in lines(measure(episodes)):
        print(line)


if __name__ == "__main__":  # pragma: no cover
    main()
