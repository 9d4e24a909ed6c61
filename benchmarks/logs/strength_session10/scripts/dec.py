import random, time, sys, json
from koloda.engine.registry import new_deal
from koloda.bots.heuristic.opendaum import OpendaumHeuristic
from koloda.bots.search.games.opendaum import OpendaumSearch
from koloda.bots.search.levels import build_search
knobs = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
game = sys.argv[2] if len(sys.argv) > 2 else "opendaum"
bot = build_search(type("X", (OpendaumSearch,), knobs), game, "normal")
h = OpendaumHeuristic(game)
rng = random.Random(1)
ts = {"bid": [], "play": []}
for seed in range(10):
    m = new_deal(game, players=4, seed=seed, start_deal=8)
    while not m.is_over:
        legal = m.legal_actions()
        if len(legal) == 1:
            m.apply(legal[0]); continue
        obs = m.observation(m.to_move)
        if m.to_move == 0:
            a = time.process_time(); act = bot.choose(obs, legal, random.Random(seed)); b = time.process_time()
            ts["bid" if obs.deal.phase == "bid" else "play"].append(b - a)
        else:
            act = h.choose(obs, legal, rng)
        m.apply(act)
for k, v in ts.items():
    v.sort(); print(k, len(v), f"median {1e3*v[len(v)//2]:.0f} max {1e3*v[-1]:.0f} sum {sum(v):.1f}")
