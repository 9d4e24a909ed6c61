"""OpenSpiel's ISMCTS against koloda's own search bot on koloda's Durak."""

import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import koloda.envs.openspiel  # noqa: F401  (registers the koloda_* games)
from koloda.bots import make_bot


def play(game, ismcts_seat, simulations, seed):
    """One match: ISMCTS in ``ismcts_seat``, koloda's search:easy in every other seat."""
    rng = random.Random(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1,
                                            random_state=np.random.RandomState(seed))
    searcher = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations,
                                random_state=np.random.RandomState(seed))
    ours = make_bot("search:easy", "durak")
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.current_player() == ismcts_seat:
            state.apply_action(searcher.step(state))
        else:
            # koloda's bot sees only its seat's observation and the legal actions
            match = state.koloda_match()
            seat = state.current_player()
            action = ours.choose(match.observation(seat), match.legal_actions(), rng)
            state.apply_koloda_action(action)
    return state.returns()[ismcts_seat]


def main(matches=2, simulations=40, players=2):
    game = pyspiel.load_game(f"koloda_durak(players={players},max_deals=1)")
    results = [play(game, ismcts_seat=m % players, simulations=simulations, seed=m)
               for m in range(matches)]
    print(f"ISMCTS vs search:easy on durak: won {results.count(1.0)}, "
          f"lost {results.count(-1.0)}, drawn {results.count(0.0)} of {matches}")
    return results


if __name__ == "__main__":
    main()
