"""Diagnostic: which decision loses the bids? search:normal's seats bid with one bot and
play with another (search or clairvoyant), heuristic opponents, the arena's games."""
import json, random, sys, time
from koloda.arena import schedule_games, play_game, timings_line
from koloda.bots.base import make_bot
from koloda.bots.search.clairvoyant import Clairvoyant

class Hybrid:
    needs_state = True
    def __init__(self, game, bid, play):
        self.name = "search:normal"
        self.search = make_bot("search:normal", game)
        self.clair = Clairvoyant(game)
        self.bid, self.play = bid, play
    def choose_state(self, state, seat, legal, rng):
        who = self.bid if state.phase == "bid" else self.play
        if who == "clairvoyant":
            return self.clair.choose_state(state, seat, legal, rng)
        return self.search.choose(self.clair.observation(state.clone(), seat), legal, rng)

bid, play, seed, n, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
games = schedule_games("opendaum", 4, ["search:normal", "heuristic"], n, seed, "deal", {})
with open(out, "w") as f:
    for g in games:
        bots = [Hybrid("opendaum", bid, play) if b == "search:normal" else make_bot(b, "opendaum") for b in g.lineup]
        res = play_game(g, bots, clock=time.process_time)
        f.write(json.dumps(res.row) + "\n")
