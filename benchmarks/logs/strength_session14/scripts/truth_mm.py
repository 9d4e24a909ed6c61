"""How often the opponent model (koloda/bots/durak_inference.py) counts mismatches on the
TRUE deal against the heuristic itself: none when the other player drew nothing after the
rounds read, often when it did (the cards it drew are then picked at random).

    PYTHONPATH=. python3 benchmarks/logs/strength_session14/scripts/truth_mm.py
"""
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
from test_bots_durak_strength import _heuristic_positions  # noqa: E402

rng = random.Random(1)
tot = {True: [0, 0, 0], False: [0, 0, 0]}
for m, _obs, model in _heuristic_positions(range(40)):
    truth = m.current.clone()
    t = tot[bool(model.drawn)]
    for _ in range(5):
        mm = model.mismatches(truth, rng)
        t[0] += 1
        t[1] += mm > 0
        t[2] += mm
print("drawn>0: readings, true deal with mismatches, total mismatches", tot[True])
print("drawn=0:", tot[False])
