import random, time, sys
from koloda.engine.registry import new_deal
from koloda.bots.heuristic.opendaum import OpendaumHeuristic
import koloda.bots.heuristic.opendaum as hm
from koloda.bots.search.games.opendaum import OpendaumSearch
class ByState(OpendaumSearch):
    def rollout(self, state, rng): hm.rollout(state, rng)
class NoShare(OpendaumSearch):
    variant_shares = {}
class ByStateNoShare(ByState):
    variant_shares = {}
game = "opendaum-shakhi"
h = OpendaumHeuristic(game)
class S08(OpendaumSearch):
    variant_shares = {"shakhi": 0.8}
for cls in (NoShare, S08, OpendaumSearch):
    bot = cls(game); tot = 0.0; ts = []
    for seed in range(4):
        m = new_deal(game, players=4, seed=seed, start_deal=8); rng = random.Random(seed)
        while not m.is_over:
            legal = m.legal_actions(); obs = m.observation(m.to_move)
            if m.to_move in (0, 2) and len(legal) > 1:
                a = time.process_time(); act = bot.choose(obs, legal, random.Random(seed)); ts.append(time.process_time() - a)
            else:
                act = h.choose(obs, legal, rng)
            m.apply(act)
    ts.sort(); print(cls.__name__, len(ts), f"sum {sum(ts):.1f} median {1e3*ts[len(ts)//2]:.0f} max {1e3*ts[-1]:.0f}")
