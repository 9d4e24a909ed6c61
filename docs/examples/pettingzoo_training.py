"""A training-loop skeleton on koloda's PettingZoo environment: one linear softmax policy
shared by every seat, trained by REINFORCE on the end-of-match reward."""

import numpy as np

from koloda.envs.pettingzoo import env


def main(game="durak", players=3, episodes=200, learning_rate=0.01, seed=0):
    e = env(game, players=players, max_deals=1)
    e.reset(seed=seed)
    agent0 = e.possible_agents[0]
    n_obs = e.observation_space(agent0)["observation"].shape[0]
    weights = np.zeros((n_obs, e.action_space(agent0).n), dtype=np.float32)
    rng = np.random.default_rng(seed)
    wins = 0
    for _ in range(episodes):
        e.reset()
        trajectory = {a: [] for a in e.possible_agents}   # (observation, allowed, action, probs)
        final = {}
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            if terminated or truncated:
                final[agent] = reward
                e.step(None)
                continue
            allowed = np.flatnonzero(obs["action_mask"])
            logits = obs["observation"] @ weights[:, allowed]
            probs = np.exp(logits - logits.max())
            probs /= probs.sum()
            k = int(rng.choice(len(allowed), p=probs))
            trajectory[agent].append((obs["observation"], allowed, k, probs))
            e.step(int(allowed[k]))
        # REINFORCE: push up the log-probability of every action by the match's reward
        # (the softmax runs over the allowed actions only, so only their columns move)
        for agent, steps in trajectory.items():
            for x, allowed, k, probs in steps:
                grad = -probs
                grad[k] += 1.0
                weights[:, allowed] += learning_rate * final[agent] * np.outer(x, grad)
        wins += final[agent0] > 0
    print(f"{game}: {episodes} matches, {agent0} won {wins}")
    return weights


if __name__ == "__main__":
    main()
