import json, sys
rows = [json.loads(l) for f in sys.argv[3:] for l in open(f)]
am, ap = float(sys.argv[1]), float(sys.argv[2])
CM, CP = 0.247, 0.534   # fitted conversion
def score(d, b, m, p):
    K = sum(d)
    return (d[b] + (m * d[b-1] if b >= 1 else 0) + (p * d[b+1] if b + 1 < 10 else 0)) / K
ch = 0; gain = 0.0; old_pred = new_pred = 0
for r in rows:
    dist = {int(k): v for k, v in r["dist"].items()}
    old = max(dist, key=lambda b: (score(dist[b], b, 0, 0), -abs(b - r["bid"])))
    new = max(dist, key=lambda b: (score(dist[b], b, am, ap), -abs(b - r["bid"])))
    o = score(dist[old], old, CM, CP); n = score(dist[new], new, CM, CP)
    old_pred += o; new_pred += n
    if new != old: ch += 1
print(f"am {am} ap {ap}: changed {ch}/{len(rows)} predicted made old {old_pred/len(rows):.4f} new {new_pred/len(rows):.4f} gain {(new_pred-old_pred)/len(rows):+.4f}")
