"""Pair durak_paired rows (the variant's seat) with arena logs of search:normal on the same seeds."""
import json, math, statistics, sys
rows_path, *logs = sys.argv[1:]
var = {}
for line in open(rows_path):
    name, seed, seat, loss, win, t = json.loads(line)
    var[(seed, seat)] = (loss, win)
base = {}
for p in logs:
    for line in open(p):
        r = json.loads(line)
        seat = r["lineup"].index("search:normal")
        losers = r["result"]["losers"]
        base[(r["seed"], seat)] = (float(seat in losers), float((1 - seat) in losers))
seeds = sorted({s for s, _ in var if all((s, t) in var and (s, t) in base for t in (0, 1))})
def mean(d, i):
    return statistics.fmean((d[(s, 0)][i] + d[(s, 1)][i]) / 2 for s in seeds)
diffs = [((var[(s, 0)][0] + var[(s, 1)][0]) - (base[(s, 0)][0] + base[(s, 1)][0])) / 2 for s in seeds]
half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
print(f"{len(seeds)} deal-sets: variant loss {mean(var,0):.3f} win {mean(var,1):.3f}; "
      f"base loss {mean(base,0):.3f} win {mean(base,1):.3f}; loss diff {statistics.fmean(diffs):+.3f} ± {half:.3f}")
