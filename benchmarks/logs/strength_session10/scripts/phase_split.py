import json, sys
def pct(xs, q):
    xs = sorted(xs); return xs[min(len(xs)-1, int(q*len(xs)))] if xs else float('nan')
for t in sys.argv[1:]:
    bid, play = [], []
    for line in open(t):
        r = json.loads(line)
        for seat, b in enumerate(r["lineup"]):
            if b.startswith("search") and r["times"][seat]:
                bid.append(r["times"][seat][0]); play += r["times"][seat][1:]
    a = bid + play
    print(t, "all", len(a), f"p50 {1e3*pct(a,.5):.0f} p95 {1e3*pct(a,.95):.0f}", "| bid", len(bid), f"p50 {1e3*pct(bid,.5):.0f} p95 {1e3*pct(bid,.95):.0f}", "| play", len(play), f"p50 {1e3*pct(play,.5):.0f} p95 {1e3*pct(play,.95):.0f} max {1e3*max(play):.0f}")
