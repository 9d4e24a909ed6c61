"""Replay search:normal vs heuristic games; at each search decision with a small stock,
the perfect-information value (exact solver on the true deal) of the best move and of
the move played."""
import json, random, sys, time
from koloda.arena import Game, play_game
from koloda.bots import make_bot
from koloda.bots.durak_endgame import EndgameSolver, OutOfBudget, SolverBudget
from koloda.engine.view import EmptyView, Observation

MAXSTOCK = int(sys.argv[1])
out = open(sys.argv[2], "a")
tasks = [tuple(map(int, t.split(","))) for t in sys.argv[3:]]

class Rec:
    needs_state = True
    def __init__(self):
        self.inner = make_bot("search:normal", "durak"); self.log = []
    def choose_state(self, state, seat, legal, rng):
        obs = Observation("durak", state.players, seat, 0, getattr(state, "dealer", None),
                          state.to_move, False, EmptyView(), state.observation(seat))
        a = self.inner.choose(obs, legal, rng)
        self.log.append((state.clone(), a, len(state.stock)))
        return a

def values(state, budget=4_000_000):
    """exact value for the mover of every non-dominated legal move (None if too big)"""
    seat = state.to_move
    memo = {}
    vals = {}
    for a in state.legal_actions():
        h = state.clone(); h.apply(a)
        s = EndgameSolver(h, SolverBudget(budget, time.perf_counter() + 60), memo)
        if s._dominated(a):
            continue
        try:
            vals[a] = s.value(h, seat)
        except OutOfBudget:
            return None
    return vals

for seed, seat in tasks:
    rec = Rec()
    lineup = ("search:normal", "heuristic") if seat == 0 else ("heuristic", "search:normal")
    bots = [None, None]; bots[seat] = rec; bots[1 - seat] = make_bot("heuristic", "durak")
    res = play_game(Game("durak", 2, seed, lineup, "game", (), 0), bots)
    lost = seat in res.row["result"]["losers"]
    for i, (st, a, stock) in enumerate(rec.log):
        if stock > MAXSTOCK:
            continue
        t = time.process_time()
        v = values(st)
        if v is None:
            out.write(json.dumps({"seed": seed, "seat": seat, "lost": lost, "i": i, "stock": stock, "solved": False}) + "\n"); out.flush()
            continue
        best = max(v.values())
        out.write(json.dumps({"seed": seed, "seat": seat, "lost": lost, "i": i, "stock": stock, "solved": True,
                              "best": best, "played": v.get(a), "action": a, "phase": st.phase,
                              "n": len(v), "cpu": round(time.process_time() - t, 2)}) + "\n"); out.flush()
    print(seed, seat, "lost" if lost else "not lost", flush=True)
