"""For each search:normal bid in arena logs: the heuristic-rollout trick distribution of
every legal bid on K sampled deals, and the tricks the search really took."""
import json, random, sys
from koloda.bots.search.games.opendaum import OpendaumSearch
from koloda.engine.registry import new_deal

K = int(sys.argv[1]); out = open(sys.argv[2], "w")
files = sys.argv[3:]
bot = OpendaumSearch("opendaum")
bot._weight = 0.02
for f in files:
    for line in open(f):
        row = json.loads(line)
        d = row["result"]["details"]["deals"][0]
        if d["cards"] < 2:
            continue
        m = new_deal("opendaum", players=4, seed=row["seed"], start_deal=row["deal_set"] % 20)
        bids = d["bids"]
        rng = random.Random(row["seed"] * 10 + row["lineup"].index("heuristic"))
        while True:
            seat = m.to_move
            legal = m.legal_actions()
            if not legal[0].startswith("bid"):
                break
            if row["lineup"][seat] == "search:normal" and len(legal) > 1:
                obs = m.observation(seat)
                tpl = bot.prepare(obs)
                dist = {a: [0] * 10 for a in legal}
                for _ in range(K):
                    det = bot.sample(tpl, rng)
                    for a in legal:
                        st = det.clone(); st.apply_unchecked(a); bot.rollout(st, rng)
                        dist[a][st.tricks[seat]] += 1
                out.write(json.dumps({"file": f, "seed": row["seed"], "seat": seat,
                    "cards": d["cards"], "bid": bids[seat], "tricks": d["tricks"][seat],
                    "dist": {a[4:]: v for a, v in dist.items()}, "earlier": [b for b in bids]}) + "\n")
                out.flush()
            m.apply(f"bid {bids[seat]}")
