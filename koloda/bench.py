"""Throughput benchmarks through the public API, and the side-by-side run with OpenSpiel.

Every figure comes from uniformly random play: ``legal_actions()`` then ``apply()`` of a
random one, with all validation on — the same loop a researcher would write. Times are the
CPU time of this (single-threaded) process, ``time.process_time()``: on a shared machine
other jobs then slow the figures far less than they slow a wall clock, and both sides of
the OpenSpiel comparison are timed alike (its C++ loop runs in this process too).
"""

from __future__ import annotations

import gc
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from koloda.engine.match import Match
from koloda.engine.registry import get_spec, new_deal, new_game, registry


@dataclass
class Figure:
    name: str
    players: int
    unit: str            # "deals" or "matches"
    count: int
    seed: int
    seconds: float
    actions: int
    peak_kib: float
    #: the shape measured: each hand's size as a deal begins (every size met,
    #: ascending), the deals a unit holds (fewest, most), the game options given
    cards: list[int] = field(default_factory=list)
    deals: list[int] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def per_second(self) -> float:
        return self.count / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def cards_text(self) -> str:
        """Each hand's size as a deal begins: ``8``, or ``1–9`` across a match."""
        c = self.cards
        return "" if not c else f"{c[0]}" if len(c) == 1 else f"{c[0]}–{c[-1]}"

    @property
    def deals_text(self) -> str:
        """The deals one unit holds: ``1``, ``20``, or ``4–7`` when they vary."""
        if not self.deals:
            return ""
        few, most = self.deals
        return f"{few}" if few == most else f"{few}–{most}"

    @property
    def shape(self) -> str:
        """``4 players, 8 cards each, 1 deal (start_deal=7)``."""
        if not self.cards:
            return ""
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items())
        return (f"{self.players} players, {self.cards_text} cards each, {self.deals_text} "
                f"deal{'s' if self.deals[1] > 1 else ''}" + (f" ({opts})" if opts else ""))

    def to_json(self) -> dict[str, Any]:
        return asdict(self) | {"per_second": round(self.per_second, 1),
                               "actions_per_second": round(self.actions_per_second, 1),
                               "shape": self.shape}


def play_random(match: Match, rng: random.Random) -> int:
    """Play to the end with uniformly random legal actions; return the number of actions."""
    n = 0
    randrange = rng.randrange
    while not match.is_over:
        legal = match.legal_actions()
        match.apply(legal[randrange(len(legal))])
        n += 1
    return n


def measure(make: Callable[[int], Match], count: int, seed: int
            ) -> tuple[float, int, float, list[int], list[int]]:
    """(seconds, actions, peak KiB, hand sizes, (fewest, most) deals): throughput first,
    then memory and the shape in a short second pass (off the clock)."""
    rng = random.Random(seed)
    gc.collect()
    actions = 0
    start = time.process_time()
    for i in range(count):
        actions += play_random(make(seed + i), rng)
    seconds = time.process_time() - start
    sizes: set[int] = set()
    deals: list[int] = []
    tracemalloc.start()
    for i in range(min(count, 5)):
        m = make(seed + i)
        play_random(m, random.Random(seed))
        sizes |= {len(d.hands[0]) for d in m.deals}
        deals.append(len(m.deals))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return seconds, actions, peak / 1024, sorted(sizes), [min(deals), max(deals)]


def bench_game(name: str, players: int, count: int, seed: int, unit: str,
               **options: Any) -> Figure:
    if unit == "deals":
        def make(s: int) -> Match:
            return new_deal(name, players=players, seed=s, **options)
    else:
        def make(s: int) -> Match:
            return new_game(name, players=players, seed=s, **options)
    seconds, actions, peak, cards, deals = measure(make, count, seed)
    return Figure(name, players, unit, count, seed, seconds, actions, peak, cards, deals,
                  dict(options))


#: (game, players, options) measured besides each game's default player count, deals
#: only: Durak 2p, and Opendaum 4p on its 8-card deal (OpenSpiel's oh_hell shape; a
#: match opens with a one-card deal, which is what its plain "deals" row measures)
EXTRA_SHAPES: list[tuple[str, int, dict[str, Any]]] = [
    ("durak", 2, {}), ("opendaum", 4, {"start_deal": 7})]


def bench_all(deals: int, matches: int, seed: int,
              only: list[str] | None = None) -> list[Figure]:
    out = []
    for name, spec in registry().items():
        if only and name not in only:
            continue
        shapes: list[tuple[int, dict[str, Any]]] = [(spec.default_players, {})]
        shapes += [(p, o) for g, p, o in EXTRA_SHAPES
                   if g == name and (p, o) not in shapes]
        for players, options in sorted(shapes, key=lambda x: (x[0], len(x[1]))):
            if deals:
                out.append(bench_game(name, players, deals, seed, "deals", **options))
            if matches and not options:
                out.append(bench_game(name, players, matches, seed, "matches"))
    return out


# ------------------------------------------------------------ side by side with OpenSpiel
OH_HELL = "oh_hell(players=4,num_cards_per_suit=9,num_tricks_fixed=8)"


def openspiel_python(count: int, seed: int) -> tuple[float, int] | None:
    """OpenSpiel's oh_hell driven from Python: chance drawn with randrange."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game(OH_HELL)
    rng = random.Random(seed)
    steps = 0
    start = time.process_time()
    for _ in range(count):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
    return time.process_time() - start, steps


def openspiel_cpp(count: int, seed: int) -> float | None:
    """OpenSpiel's oh_hell played entirely in C++ (evaluate_bots with random bots)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(OH_HELL)
    bots = [pyspiel.make_uniform_random_bot(i, seed + i) for i in range(4)]
    start = time.process_time()
    for i in range(count):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + i)
    return time.process_time() - start


def opendaum_like_oh_hell(count: int, seed: int) -> tuple[float, int]:
    """Our Opendaum deal in the anchor's shape: 4 players, 36 cards, 8 cards each, trump
    turned from the stock, bids then play — through the public API."""
    spec = get_spec("opendaum")
    names = {o.name for o in spec.all_options}
    if "start_deal" not in names:
        raise RuntimeError("opendaum has no start_deal option to choose the 8-card deal")
    figure = bench_game("opendaum", 4, count, seed, "deals", start_deal=7)
    assert figure.cards == [8], figure.cards
    return figure.seconds, figure.actions


@dataclass
class SideBySide:
    """Rates in hands per CPU second, round by round: each round plays ``hands`` of ours,
    then of OpenSpiel from Python, then in C++, back to back, so a change of load between
    rounds touches all three alike; the ratios are taken within each round."""
    hands: int
    seed: int
    ours: list[float]
    ours_actions: list[float]
    python: list[float]
    cpp: list[float]

    def median(self, xs: list[float]) -> float:
        return statistics.median(xs) if xs else 0.0

    def ratios(self, other: list[float]) -> list[float]:
        return [a / b for a, b in zip(self.ours, other, strict=False) if b]


def side_by_side(hands: int, seed: int, rounds: int = 9) -> SideBySide | None:
    """Our Opendaum deal against OpenSpiel's oh_hell, ``rounds`` rounds of ``hands`` each
    (None when OpenSpiel is not installed; our own figures are still wanted then: the
    caller runs ``opendaum_like_oh_hell``)."""
    if openspiel_python(1, seed) is None:
        return None
    out = SideBySide(hands, seed, [], [], [], [])
    for r in range(rounds):
        s = seed + r * hands
        ours_s, ours_actions = opendaum_like_oh_hell(hands, s)
        py = openspiel_python(hands, s)
        cpp = openspiel_cpp(hands, s)
        assert py is not None and cpp is not None
        # a coarse CPU clock (about 16 ms on some systems) may read 0 for a short round
        out.ours.append(hands / ours_s if ours_s else 0.0)
        out.ours_actions.append(ours_actions / ours_s if ours_s else 0.0)
        out.python.append(hands / py[0] if py[0] else 0.0)
        out.cpp.append(hands / cpp if cpp else 0.0)
    return out


# ------------------------------------------------- the batched simulator beside OpenSpiel
#: games advanced together by the batched run: large enough that numpy's per-call cost
#: is spread thin, small enough that a step's arrays stay in the L2 cache
BATCH = 8192


def batched_opendaum(hands: int, seed: int, observe: bool | str = False,
                     batch: int = BATCH, game_name: str = "opendaum"
                     ) -> tuple[float, int] | None:
    """``hands`` random-play hands of ``koloda.batched.Opendaum`` in the oh_hell shape
    (4 players, 36 cards, 8 each; ``game_name="trinka"``: a Trinka deal instead): deal,
    bids, the tricks, scores — (CPU seconds, steps), or None without numpy. ``observe``:
    through ``step`` (observation and mask built every step) instead of ``advance`` (the
    legal set kept as bits); ``observe="features"``: the adapters' vector and mask built
    every step (``Opendaum.features``, ``Opendaum.adapter_mask``)."""
    try:
        from koloda.batched import Opendaum, Trinka
    except ImportError:
        return None
    game = Opendaum(players=4, hand=8) if game_name == "opendaum" else Trinka()
    return batched_run(game, hands, seed, observe, batch)


def batched_run(game: Any, hands: int, seed: int, observe: bool | str = False,
                batch: int = BATCH) -> tuple[float, int]:
    """``hands`` random-play hands of the batched ``game`` (a ``koloda.batched`` game):
    (CPU seconds, steps). Init is timed too: a play-phase game plays its exchange or
    declarations there."""
    import numpy as np
    rng = np.random.default_rng(seed)
    done = steps = 0
    start = time.process_time()
    while done < hands:
        size = min(batch, hands - done)
        state = game.init(np.arange(seed + done, seed + done + size))
        while not game.is_over(state):
            actions = game.random_actions(state, rng)
            if observe == "features":
                game.advance(state, actions)
                game.features(state)
                game.adapter_mask(state)
            elif observe:
                game.step(state, actions)
            else:
                game.advance(state, actions)
        done += size
        # (Kopilka's deals differ in length: the batch's steps, those of its longest)
        steps += size * getattr(game, "length", state.t)
    return time.process_time() - start, steps


def batched_games() -> list[tuple[str, Callable[[], Any]]]:
    """The batched games measured beside the oh_hell-shaped Opendaum and Trinka: (label,
    factory), the label saying what a hand is (a play-phase game: its tricks, after an
    exchange or declarations played at init)."""
    from koloda.batched import (
        Dreyfus,
        Kopilka,
        Mushka,
        MushkaFull,
        Opendaum33,
        OpendaumShakhi,
        Stukolka,
        StukolkaFull,
    )
    return [
        ("opendaum-shakhi 4p, 9 each", lambda: OpendaumShakhi(4, 9)),
        ("opendaum-33 3p, 11 each", lambda: Opendaum33(11)),
        ("mushka 4 seats, 3 in (tricks only)", lambda: Mushka(4, 3)),
        ("mushka 4 seats, whole deal (exchange as steps)", lambda: MushkaFull(4)),
        ("stukolka 5 seats, 3 in (tricks only)", lambda: Stukolka(5, 3)),
        ("stukolka 5 seats, whole deal (declaring as steps)", lambda: StukolkaFull(5)),
        ("dreyfus 3p, whole deal (exchange as steps)", lambda: Dreyfus(0)),
        ("kopilka 4p, whole deal (exchange as steps)", lambda: Kopilka()),
    ]


@dataclass
class BatchedSideBySide:
    """Hands per CPU second, round by round: each round runs the batched simulator (bits
    only, then with observations), then OpenSpiel's C++ loop, back to back; the ratio is
    taken within each round, so a change of load touches both sides alike."""
    hands: int
    cpp_hands: int
    seed: int
    batched: list[float]
    batched_steps: list[float]
    observed: list[float]
    trinka: list[float]
    cpp: list[float]
    #: opendaum through step writing the adapters' vector and mask, each round's hands/s
    featured: list[float] = field(default_factory=list)
    #: by ``batched_games`` label, each round's hands/s (``games_hands`` hands a round)
    games: dict[str, list[float]] = field(default_factory=dict)
    games_hands: int = 0
    #: each round's durak 2p games/s and steps/s (``durak_games`` whole games a round)
    durak: list[float] = field(default_factory=list)
    durak_steps: list[float] = field(default_factory=list)
    durak_games: int = 0
    #: each round's durak games/s with the adapters' vector and the mask written every step
    durak_featured: list[float] = field(default_factory=list)

    def ratios(self, ours: list[float]) -> list[float]:
        return [a / b for a, b in zip(ours, self.cpp, strict=False) if b]


def batched_side_by_side(hands: int, cpp_hands: int, seed: int, rounds: int = 5,
                         openspiel: bool = True) -> BatchedSideBySide | None:
    """The batched simulator against OpenSpiel's ``evaluate_bots`` (None without numpy;
    ``cpp`` stays empty without OpenSpiel, or with ``openspiel`` false)."""
    if batched_opendaum(min(hands, BATCH), seed) is None:       # also warms numpy up
        return None
    have_cpp = openspiel and openspiel_cpp(1, seed) is not None
    out = BatchedSideBySide(hands, cpp_hands, seed, [], [], [], [], [])
    games = batched_games()
    for r in range(rounds):
        s = seed + r * hands
        fast = batched_opendaum(hands, s)
        slow = batched_opendaum(max(hands // 8, 1), s, observe=True)
        assert fast is not None and slow is not None
        out.batched.append(hands / fast[0] if fast[0] else 0.0)
        out.batched_steps.append(fast[1] / fast[0] if fast[0] else 0.0)
        out.observed.append(max(hands // 8, 1) / slow[0] if slow[0] else 0.0)
        adapted = batched_opendaum(max(hands // 8, 1), s, observe="features")
        assert adapted is not None
        out.featured.append(max(hands // 8, 1) / adapted[0] if adapted[0] else 0.0)
        trinka = batched_opendaum(hands, s, game_name="trinka")
        assert trinka is not None
        out.trinka.append(hands / trinka[0] if trinka[0] else 0.0)
        out.games_hands = each = max(hands // 4, 1)
        for label, make in games:
            sec, _ = batched_run(make(), each, s)
            out.games.setdefault(label, []).append(each / sec if sec else 0.0)
        out.durak_games = hands          # four batches' worth: the batch kept full
        durak = batched_durak(out.durak_games, s)
        if durak is not None:
            sec, steps = durak
            out.durak.append(out.durak_games / sec if sec else 0.0)
            out.durak_steps.append(steps / sec if sec else 0.0)
            featured = batched_durak_featured(max(hands // 8, 1), s)
            if featured is not None:
                out.durak_featured.append(max(hands // 8, 1) / featured[0]
                                          if featured[0] else 0.0)
        if have_cpp:
            cpp = openspiel_cpp(cpp_hands, s)
            assert cpp is not None
            out.cpp.append(cpp_hands / cpp if cpp else 0.0)
    return out


#: durak games advanced together: the batch is kept full (finished games replaced by new
#: ones) until every game of the run is dealt, then drains
DURAK_BATCH = 32768


def batched_durak(games: int, seed: int, batch: int = DURAK_BATCH) -> tuple[float, int] | None:
    """``games`` random-play 2-player durak games of ``koloda.batched.durak`` (uniformly
    random legal indices of the engine's action space, select and confirm steps included),
    ``batch`` at a time: (CPU seconds, steps), or None without numpy."""
    try:
        import numpy as np

        from koloda.batched.durak import Durak, play_random
    except ImportError:
        return None
    start = time.process_time()
    _, steps, _ = play_random(Durak(), np.arange(seed, seed + games), seed, width=batch)
    return time.process_time() - start, steps


def batched_durak_featured(games: int, seed: int, batch: int = 8192
                           ) -> tuple[float, int] | None:
    """``games`` random-play durak 2p games, ``batch`` at a time, each step writing what a
    learner is given: the adapters' observation vector (``Durak.features``) and the mask:
    (CPU seconds, steps), or None without numpy."""
    try:
        import numpy as np

        from koloda.batched.durak import Durak
    except ImportError:
        return None
    game = Durak()
    rng = np.random.default_rng(seed)
    steps = done = 0
    start = time.process_time()
    while done < games:
        size = min(batch, games - done)
        state = game.init(np.arange(seed + done, seed + done + size), history=False)
        game.features(state)
        while not game.is_over(state):
            live = int((state.phase != 3).sum())
            game.advance(state, game.random_actions(state, rng))
            game.features(state)
            game.mask(state)
            steps += live
        done += size
    return time.process_time() - start, steps
