import random, time, cProfile, pstats
import koloda.arena as A
from koloda.arena import schedule_games, _make, bot_seed
from koloda.bots.base import make_bot
g = [x for x in schedule_games("opendaum", 4, ["search:normal", "heuristic"], 120, 99201, "deal", {}) if x.seed == 99306 and x.lineup[1] == "search:normal"][0]
m = _make(g)
bots = [make_bot(b, "opendaum") for b in g.lineup]
rng = random.Random(bot_seed(g))
while not m.is_over:
    seat = m.to_move; legal = m.legal_actions()
    if len(legal) == 1: m.apply(legal[0]); continue
    obs = m.observation(seat)
    t = time.process_time()
    if seat == 1 and time.process_time() >= 0:
        pr = cProfile.Profile(); pr.enable()
        a = bots[seat].choose(obs, legal, rng)
        pr.disable()
        dt = time.process_time() - t
        print(seat, obs.deal.phase, len(legal), len(obs.deal.hand), f"{dt:.2f}s", bots[seat].last)
        if dt > 2:
            pstats.Stats(pr).sort_stats("cumtime").print_stats(15); break
    else:
        a = bots[seat].choose(obs, legal, rng)
    m.apply(a)
