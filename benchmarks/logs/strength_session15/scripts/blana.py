import json, collections
import sys
rows=[json.loads(l) for f in (sys.argv[1:] or ["blunders_a.jsonl", "blunders_b.jsonl"]) for l in open(f)]
games=collections.defaultdict(list)
for r in rows: games[(r["seed"],r["seat"])].append(r)
for k, rs in games.items():
    first = next((r for r in rs if r["solved"]), None)
    drops=[(r["i"],r["stock"],r["phase"],r["action"],r["best"],r["played"]) for r in rs if r["solved"] and r["played"] is not None and r["played"]<r["best"]]
    uns=[r["stock"] for r in rs if not r["solved"]]
    print(k, "first solved stock", first and first["stock"], "value", first and first["best"], "drops", drops, "unsolved stocks", uns)
