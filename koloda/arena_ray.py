"""Arena deal-sets as Ray tasks (optional extra ``ray``): one task plays one deal-set
(every rotation of one seed), so a cluster spreads the work and the rows are the very rows
a local run gives (the games are deterministic from their seeds).

    koloda arena durak --players 2 --bots search,heuristic --deals 400 --ray auto

``--ray local`` starts a Ray of ``-j`` CPUs on this machine for the run; ``--ray auto``
joins a cluster running here (``ray start --head``) or else starts a local one; any other
value is a cluster address (``ray://host:10001`` or ``host:6379``), whose workers get this
koloda package shipped to them (Ray's ``py_modules``).
"""

from __future__ import annotations

import itertools
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from koloda.arena import Game, GameResult, play_game


class RayUnavailable(RuntimeError):
    """Ray is not installed or the cluster cannot be reached; the message says which."""


def play_deal_set(games: list[Game]) -> list[GameResult]:
    """The task: every game of one deal-set, in order."""
    return [play_game(g) for g in games]


def deal_sets(games: list[Game]) -> list[list[Game]]:
    """The games grouped by deal-set, in schedule order."""
    return [list(group) for _, group in itertools.groupby(games, key=lambda g: g.deal_set)]


def _connect(ray: Any, address: str, cpus: int) -> bool:
    """Join or start Ray; True when this call started it (and should stop it)."""
    if ray.is_initialized():
        return False
    quiet: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": False,
                             "include_dashboard": False}
    local: dict[str, Any] = {"num_cpus": cpus, **quiet}
    if os.environ.get("PYTHONPATH"):
        # the workers import this very koloda (a work tree, not the installed one)
        local["runtime_env"] = {"env_vars": {"PYTHONPATH": os.environ["PYTHONPATH"]}}
    if address == "local":
        ray.init(**local)
        return True
    shipped = {"py_modules": [str(Path(__file__).resolve().parents[1])]}
    if address == "auto":
        try:
            ray.init(address="auto", runtime_env=shipped, **quiet)
        except (ConnectionError, RuntimeError):
            ray.init(**local)
        return True
    try:
        ray.init(address=address, runtime_env=shipped, **quiet)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise RayUnavailable(f"--ray {address}: cannot join the Ray cluster ({exc})") from None
    return True


def run_ray(games: list[Game], address: str, cpus: int = 1) -> Iterator[GameResult]:
    """Play ``games`` as Ray tasks, one a deal-set; the results come in schedule order.
    Raises RayUnavailable at once (not when iterated) when Ray cannot be used."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable("--ray needs Ray: pip install 'koloda[ray]' "
                             "(or pip install ray)") from None
    started = _connect(ray, address, cpus)
    task = ray.remote(play_deal_set)
    refs = [task.remote(chunk) for chunk in deal_sets(games)]

    def results() -> Iterator[GameResult]:
        try:
            for ref in refs:
                yield from ray.get(ref)
        finally:
            if started:
                ray.shutdown()
    return results()
