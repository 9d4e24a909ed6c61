"""Train SB3-contrib's MaskablePPO on 2-player durak against koloda's heuristic bot, and
print its win rate against that bot before and after training.

    python3 examples/train_maskable_ppo.py            # a few minutes
    python3 examples/train_maskable_ppo.py --quick    # seconds (tests/test_examples_train.py;
                                                      # skipped in CI: no train extra there)

The environment is koloda's single-agent env (``koloda.envs.single.SingleAgentEnv``):
the learner plays seat 0, the heuristic bot seat 1; the observation is the learner's
feature vector, ``action_masks()`` the legal actions of the engine's durak action space
(2 760 indices, multi-card attacks in select/confirm steps). The reward is the match
result at the end: +1 a win, −1 a loss, 0 a draw.

Needs: pip install 'koloda[train]' (sb3-contrib, which brings PyTorch).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from koloda.envs.single import SingleAgentEnv


def make_env() -> SingleAgentEnv:
    return SingleAgentEnv("durak", players=2, seat=0, opponents="heuristic", max_deals=1)


def win_rate(model: MaskablePPO, games: int, seed: int) -> tuple[float, float]:
    """(wins, draws) as fractions of ``games`` against the heuristic, the policy sampled
    (as it trains; untrained it is near-uniform over the legal actions)."""
    env = make_env()
    wins = draws = 0
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        reward, done = 0.0, False
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(),
                                      deterministic=False)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            done = terminated or truncated
        wins += reward > 0
        draws += reward == 0
    return wins / games, draws / games


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="seconds: checks it runs")
    ap.add_argument("--timesteps", type=int, default=30_000, help="learner steps to train")
    ap.add_argument("--eval", type=int, default=200, help="games per win-rate measurement")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.quick:
        args.timesteps, args.eval = 128, 4
    torch.set_num_threads(1)     # a small MLP: threads cost more than they give
    model = MaskablePPO("MlpPolicy", make_env(), seed=args.seed, verbose=0,
                        n_steps=64 if args.quick else 2048, batch_size=64,
                        learning_rate=3e-4, gamma=1.0)
    before, before_draws = win_rate(model, args.eval, 10_000)
    print(f"before training: win rate vs heuristic {before:.3f} "
          f"(draws {before_draws:.3f}, {args.eval} games)", flush=True)
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    seconds = time.perf_counter() - start
    after, after_draws = win_rate(model, args.eval, 10_000)
    print(f"after training ({args.timesteps} steps, {seconds:.0f} s, MaskablePPO MlpPolicy): "
          f"win rate vs heuristic {after:.3f} (draws {after_draws:.3f}, {args.eval} games)")
    return {"before": before, "after": after, "seconds": float(np.float64(seconds))}


if __name__ == "__main__":
    main()
