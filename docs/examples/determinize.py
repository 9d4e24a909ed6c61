"""Sample full deals consistent with what one seat knows (the search bot's determinizer)."""

import random

import koloda
from koloda.envs import determinize


def main(samples=3, seed=1):
    match = koloda.new_game("durak", players=3, seed=seed)
    seat = match.to_move
    observation = match.observation(seat)
    rng = random.Random(seed)
    for _ in range(samples):
        state = determinize("durak", observation, rng)
        # the seat's own view is unchanged; the other hands are one guess among many
        assert state.observation(seat)["hand"] == observation["hand"]
        print(state.card_zones())


if __name__ == "__main__":
    main()
