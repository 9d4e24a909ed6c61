import json, sys
from collections import Counter
for path in sys.argv[1:]:
    made = few = many = 0; byb = Counter(); byb_made = Counter(); pos = Counter(); pos_made = Counter()
    for line in open(path):
        r = json.loads(line)
        d = r["result"]["details"]["deals"][0]
        n = len(r["lineup"])
        order = [(d["dealer"] + 1 + i) % n for i in range(n)]
        for s, b in enumerate(r["lineup"]):
            if b != "search:normal": continue
            bid, t = d["bids"][s], d["tricks"][s]
            byb[bid] += 1; p = order.index(s); pos[p] += 1
            if bid == t: made += 1; byb_made[bid] += 1; pos_made[p] += 1
            elif t < bid: few += 1
            else: many += 1
    print(path, f"made {made} too-few {few} too-many {many};", " ".join(f"{b}:{byb_made[b]}/{byb[b]}" for b in sorted(byb)),
          "| by bid position", " ".join(f"{p}:{pos_made[p]}/{pos[p]}" for p in sorted(pos)))
