"""Train a learner on 2-player durak through OpenSpiel against koloda's heuristic bot, and
print its win rate against that bot before and after training.

    python3 examples/train_openspiel.py            # a few minutes
    python3 examples/train_openspiel.py --quick    # seconds (what CI runs)

The game is ``koloda_durak`` (koloda.envs.openspiel) played through OpenSpiel's
``rl_environment`` (chance nodes dealt by OpenSpiel, the observation tensor, the legal
actions); the opponent is ``KolodaBot`` (koloda's heuristic as a ``pyspiel.Bot``).

The learner is REINFORCE with a running-mean baseline on a linear softmax policy over
the legal actions, written in numpy. Why not OpenSpiel's own ``policy_gradient`` or
``nfsp``: those need TensorFlow, PyTorch or JAX, none of which koloda otherwise needs
(PyTorch alone is a 190 MB CPU wheel, 1 GB+ installed); this learner runs wherever
koloda's ``openspiel`` extra does (open_spiel and numpy), in CI too.

Needs: pip install 'koloda[openspiel]'.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
from open_spiel.python import rl_environment  # type: ignore[import-untyped, unused-ignore]

import koloda.envs.openspiel as kos

LEARNER = 0


class LinearSoftmax:
    """logits = W · x + b over the legal actions only; REINFORCE updates with a baseline."""

    def __init__(self, features: int, actions: int, lr: float, seed: int) -> None:
        self.w = np.zeros((actions, features), dtype=np.float64)
        self.b = np.zeros(actions, dtype=np.float64)
        self.lr = lr
        self.rng = np.random.default_rng(seed)
        self.baseline = 0.0

    def probs(self, x: np.ndarray, legal: list[int]) -> np.ndarray:
        z = self.w[legal] @ x + self.b[legal]
        z -= z.max()
        p = np.exp(z)
        return p / p.sum()

    def act(self, x: np.ndarray, legal: list[int], greedy: bool = False) -> int:
        p = self.probs(x, legal)
        i = int(np.argmax(p)) if greedy else int(self.rng.choice(len(legal), p=p))
        return legal[i]

    def update(self, steps: list[tuple[np.ndarray, list[int], int]], ret: float) -> None:
        advantage = ret - self.baseline
        self.baseline += 0.02 * (ret - self.baseline)
        for x, legal, action in steps:
            p = self.probs(x, legal)
            grad = -p
            grad[legal.index(action)] += 1.0            # ∇ log π(a) w.r.t. the logits
            g = self.lr * advantage * grad
            self.w[legal] += np.outer(g, x)
            self.b[legal] += g


def play(env: rl_environment.Environment, game: pyspiel.Game, learner: LinearSoftmax,
         bot: kos.KolodaBot, greedy: bool, learn: bool) -> float:
    """One game: the learner at seat 0, the bot at seat 1; the learner's return."""
    ts = env.reset()
    bot.restart()
    steps: list[tuple[np.ndarray, list[int], int]] = []
    while not ts.last():
        player = ts.observations["current_player"]
        if player == LEARNER:
            x = np.asarray(ts.observations["info_state"][LEARNER], dtype=np.float64)
            legal = list(ts.observations["legal_actions"][LEARNER])
            action = learner.act(x, legal, greedy)
            if learn:
                steps.append((x, legal, action))
        else:
            action = bot.step(env.get_state)
        ts = env.step([action])
    ret = float(ts.rewards[LEARNER])
    if learn:
        learner.update(steps, ret)
    return ret


def win_rate(env: rl_environment.Environment, game: pyspiel.Game, learner: LinearSoftmax,
             bot: kos.KolodaBot, games: int) -> tuple[float, float]:
    """(wins, draws) as fractions of ``games`` played by the policy (sampled, as it
    trains; untrained it is uniformly random over the legal actions), no learning."""
    rets = [play(env, game, learner, bot, greedy=False, learn=False) for _ in range(games)]
    return sum(r > 0 for r in rets) / games, sum(r == 0 for r in rets) / games


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="seconds: checks it runs")
    ap.add_argument("--episodes", type=int, default=1000, help="training games")
    ap.add_argument("--eval", type=int, default=200, help="games per win-rate measurement")
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.quick:
        args.episodes, args.eval = 10, 6
    game = pyspiel.load_game("koloda_durak(players=2,max_deals=1)")
    env = rl_environment.Environment(
        game, observation_type=rl_environment.ObservationType.OBSERVATION)
    env.seed(args.seed)          # the deals (OpenSpiel samples the chance nodes)
    bot = kos.KolodaBot(game, 1 - LEARNER, "heuristic", seed=args.seed)
    learner = LinearSoftmax(game.observation_tensor_size(), game.num_distinct_actions(),
                            args.lr, args.seed)
    before, before_draws = win_rate(env, game, learner, bot, args.eval)
    print(f"before training: win rate vs heuristic {before:.3f} "
          f"(draws {before_draws:.3f}, {args.eval} games)", flush=True)
    start = time.perf_counter()
    recent: list[float] = []
    for ep in range(1, args.episodes + 1):
        recent.append(play(env, game, learner, bot, greedy=False, learn=True))
        if ep % max(args.episodes // 10, 1) == 0:
            wins = sum(r > 0 for r in recent) / len(recent)
            print(f"  {ep} games trained, {time.perf_counter() - start:.0f} s, "
                  f"win rate while training {wins:.3f}", flush=True)
            recent = []
    after, after_draws = win_rate(env, game, learner, bot, args.eval)
    print(f"after training ({args.episodes} games, REINFORCE, linear softmax, numpy): "
          f"win rate vs heuristic {after:.3f} (draws {after_draws:.3f}, {args.eval} games)")
    return {"before": before, "after": after}


if __name__ == "__main__":
    main()
