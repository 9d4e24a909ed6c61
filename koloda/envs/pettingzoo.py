"""PettingZoo AEC environments for every koloda game (optional extra: pettingzoo,
gymnasium, numpy).

    from koloda.envs.pettingzoo import env
    e = env("durak", players=4)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else \\
            e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_0`` … (seat numbers). An observation is ``{"observation": float32
vector, "action_mask": int8 vector}``: the vector is koloda.envs.common.Features (the
game's tensor — written from the match's state for the games whose deal state declares
``tensor_fields``, else read off the typed observation, koloda.tensors.typed —, the cards seen this
deal, the cards selected) written straight into a new numpy array, the mask is
koloda.envs.actions over the game's fixed Discrete action space.
A multi-card action is chosen in several steps by the same agent (``select C`` …,
``confirm VERB``).

Rewards (``rewards="match"``, the default) come at the end of the match, from its result:
+1 each winner, −1 each loser, 0 for all in a draw or a tie of every seat (or side);
``rewards="deal"`` gives every seat its change of score after each deal instead
(koloda.envs.common.DealScores). A match the rules end is a termination; one stopped by
``max_deals`` is a truncation (``truncations``, ``infos[agent]["capped"]``). The acting
agent's ``infos`` hold its raw observation (the typed ``Observation``, which reads as its
JSON mapping; ``.to_json()`` gives the dict) and the engine's legal actions.
``reset(seed=s)`` makes the deals reproducible (numpy integers too); ``reset(options=
{...})`` plays that match with these game options. ``state()`` is the global state for a
centralised critic: every seat's vector, seat 0 first. Environments pickle mid-game (as
their match's seed and actions, replayed).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]
from pettingzoo.utils import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    wrappers,
)
from pettingzoo.utils.env_logger import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    EnvLogger,
)

import koloda
from koloda.engine.errors import ConfigError
from koloda.engine.match import Match
from koloda.engine.registry import get_spec
from koloda.envs.actions import Selection, action_space
from koloda.envs.common import DealScores, Features, LazyObservation, result_rewards, seed_of
from koloda.tensors import TableMemory, render

NO_SELECTION = Selection()
REWARDS = ("match", "deal")


class raw_env(AECEnv):
    """One koloda match as an AEC environment (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's own pattern; copied per env)
        "render_modes": ["human", "ansi"], "name": "koloda_v0", "is_parallelizable": False}

    def __init__(self, game: str = "durak", players: int | None = None,
                 render_mode: str | None = None, rewards: str = "match",
                 **options: Any) -> None:
        super().__init__()
        spec = get_spec(game)
        n = spec.player_count(players)
        spec.resolve_options(n, options)            # a bad option fails here, not at reset
        if rewards not in REWARDS:
            raise ValueError(f"rewards={rewards!r}: one of {', '.join(REWARDS)}")
        self.game, self.players, self.options = spec.name, n, dict(options)
        self.reward_mode = rewards
        self.metadata = {**self.metadata, "name": f"koloda_{spec.name.replace('-', '_')}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._build()
        self._seeds = random.Random()
        self.match: Match | None = None
        self._match_seed = 0
        self._match_options: dict[str, Any] = dict(options)
        self.selection = NO_SELECTION
        self.memory = TableMemory()
        self.scores = DealScores(n)
        #: the cards seen this deal as the vector's block (TableMemory, as float32 flags)
        self._seen = np.zeros(52, np.float32)
        #: its memoryview (what the flags are set through and copied from)
        self._seen_mv: Any = self._seen.data
        self._seen_any = False

    def _build(self) -> None:
        """What is made from (game, players) alone: rebuilt after unpickling."""
        self.space = action_space(self.game, "pettingzoo")
        self.features = Features(self.game, self.players)
        lows, highs = self.features.bounds()
        box = spaces.Box(np.array(lows, dtype=np.float32), np.array(highs, dtype=np.float32),
                         dtype=np.float32)
        obs_space = spaces.Dict({
            "observation": box,
            "action_mask": spaces.Box(0, 1, (self.space.size,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.space.size) for a in self.possible_agents}
        self.state_space = spaces.Box(np.tile(box.low, self.players),
                                      np.tile(box.high, self.players), dtype=np.float32)
        self._mask_size = self.space.size
        self._size = self.features.size
        #: where the cards seen and the cards selected begin in the vector
        self._seen_at = self.features.encoder.size
        self._selected_at = self._seen_at + 52
        #: seat → (position, vector without the selection) of the position last encoded
        self._cache: dict[int, tuple[int, np.ndarray]] = {}
        #: (deal state class, match class, each seat's direct writer or None) of the
        #: last write
        self._writers: tuple[Any, Any, Any] = (None, None, None)
        self._moves = 0
        #: the game has multi-card actions (chosen in several steps at one position)
        self._multi = bool(self.space.multi)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match; ``seed`` makes this and every later reset reproducible;
        ``options`` are game options for this match (on top of the constructor's)."""
        seed = seed_of(seed)
        match_options = self._reset_options(options)
        if seed is not None:
            self._seeds = random.Random(seed)
        self._match_seed = self._seeds.getrandbits(63)
        self._match_options = match_options
        self.match = koloda.new_game(self.game, players=self.players, seed=self._match_seed,
                                     **match_options)
        agents = self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        self.agent_selection = self.agents[0]
        self._rewarded = False       # some reward is not zero (so it is reset next move)
        self.selection = NO_SELECTION
        self.memory = TableMemory()
        self.scores = DealScores(self.players)
        self._cache = {}
        if self._seen_any:           # (an array no cards were seen in is still zeros)
            self._seen = np.zeros(52, np.float32)
            self._seen_mv = self._seen.data
            self._seen_any = False
        self._moves = 0
        self._after_move()

    def _reset_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        if isinstance(options, dict) and options.keys() == {"options"}:
            # PettingZoo's api_test checks that reset takes the keyword with exactly this
            # probe ({"options": 1}); it names no game option, so it changes nothing
            options = None
        if not options:
            return dict(self.options)
        if not isinstance(options, dict):
            raise TypeError(f"reset options are a dict of game options, not {options!r}")
        if "players" in options:
            raise ValueError("reset options: 'players' is fixed when the environment is made "
                             "(its spaces depend on it): make another environment")
        spec = get_spec(self.game)
        merged = {**self.options, **options}
        try:
            spec.resolve_options(self.players, merged)
        except ConfigError as exc:
            known = ", ".join(o.name for o in spec.all_options)
            raise ValueError(f"reset options for {self.game}: {exc} (the game's options: "
                             f"{known})") from exc
        return merged

    def _fresh(self, seat: int, m: Match | None = None) -> np.ndarray:
        """The seat's vector without the selection (the tensor and the cards seen),
        written into a new zeroed array through its memoryview: straight from the match's
        state for the games whose deal state declares ``tensor_fields``, else off the typed
        observation (koloda.tensors.typed)."""
        out = np.zeros(self._size, np.float32)
        mv: Any = out.data
        if m is None:
            m = self._live()
        kept = self._writers
        if kept[0] is not m.current.__class__ or kept[1] is not m.__class__:
            kept = self._writers = (m.current.__class__, m.__class__,
                                    self.features.typed.writers(m))
        writers = kept[2]
        if writers is not None:
            writers[seat](m, seat, mv)
        else:
            self.features.typed.write_match(m, seat, mv)
        if self._seen_any:          # (a memoryview's slice copy: a third of numpy's)
            at = self._seen_at
            mv[at:at + 52] = self._seen_mv
        return out

    def _base(self, seat: int) -> np.ndarray:
        """``_fresh``, kept for the position (a selection step does not change the
        position; ``self._moves`` counts the engine actions): do not change it."""
        hit = self._cache.get(seat)
        if hit is not None and hit[0] == self._moves:
            return hit[1]
        out = self._fresh(seat)
        self._cache[seat] = (self._moves, out)
        return out

    def _vector(self, seat: int, selection: Selection, selecting: bool | None = None
                ) -> np.ndarray:
        """A new array the caller may keep and change. Written afresh, not copied, when
        the seat will not be looked at again at this position: nothing kept for it, and
        no selection step may follow (``selecting``: the seat is to move and its legal
        actions let it select a card; when not given, whether it is to move in a game
        with multi-card actions)."""
        if selecting is None:
            selecting = self._multi and seat == self._live().to_move
        if not selection.cards and not selecting:
            hit = self._cache.get(seat)
            if hit is None or hit[0] != self._moves:
                return self._fresh(seat)
        out = self._base(seat).copy()
        if selection.cards:
            mv: Any = out.data
            base = self._selected_at
            for c in selection.cards:
                mv[base + c] = 1.0
        return out

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        m = self.match
        if m is None:
            raise RuntimeError("call reset() before using the environment")
        seat = self.agent_name_mapping[agent]
        if m.is_over or seat != m.current.to_move:
            # not to move: no selection and no mask; the vector written afresh unless
            # kept for this position
            hit = self._cache.get(seat)
            vector = hit[1].copy() if hit is not None and hit[0] == self._moves \
                else self._fresh(seat, m)
            return {"observation": vector, "action_mask": np.zeros(self._mask_size, np.int8)}
        # The mask is made at every asking (keeping masks per selection tree node to hand
        # out copies measured 0-6 % slower on fresh deals); the vector is
        # kept for the position only when a selection step may follow here (``_vector``).
        selection = self.selection
        legal, space = m.legal_actions(), self.space
        if selection.cards:
            allowed: Any = space.allowed(legal, selection)
            vector = self._vector(seat, selection, True)
        else:
            keys = space.start(legal)        # (no tree needed: a select comes last)
            if keys is not None:
                allowed, selects = keys, bool(keys) and keys[-1] >= space.select_base
            else:
                root = space._root(legal)
                allowed, selects = root.options.keys(), root.selects
            vector = self._vector(seat, selection, True) if selects \
                else self._fresh(seat, m)
        mask = np.zeros(self._mask_size, np.int8)
        mv: Any = mask.data
        for i in allowed:
            mv[i] = 1
        return {"observation": vector, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """AECEnv.last, reading the environment's own dicts once each."""
        agent = self.agent_selection
        assert agent is not None
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def state(self) -> np.ndarray:
        """The global state for a centralised critic: every seat's observation vector
        (its hand included), seat 0 first — what no single agent may see."""
        m = self._live()
        acting = None if m.is_over else m.to_move
        return np.concatenate([
            self._vector(s, self.selection if s == acting else NO_SELECTION)
            for s in range(self.players)])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        m = self.match
        if m is None:
            raise RuntimeError("call reset() before using the environment")
        self._cumulative_rewards[agent] = 0.0
        text, self.selection = self.space.step(
            action if action.__class__ is int else int(action), m.legal_actions(),
            self.selection)
        if text is None:            # a selection step: the position and the agent stay
            if self._rewarded:
                rewards = self.rewards
                for a in rewards:
                    rewards[a] = 0.0
                self._rewarded = False
            return                  # (nothing to accumulate: every reward is zero)
        deals = m.deals
        count = len(deals)
        m.apply(text)
        self._moves += 1
        seen = self.memory.record(text)
        if len(deals) != count:
            self.memory.new_deal()
            self._seen = np.zeros(52, np.float32)
            self._seen_mv = self._seen.data
            self._seen_any = False
            self._after_move(True)
        else:
            if seen:
                flags = self._seen_mv
                for c in seen:
                    flags[c] = 1.0
                self._seen_any = True
            if m.is_over or self._rewarded:
                self._after_move(False)
            else:
                # the match goes on within the deal, no reward to clear: _hand_to,
                # inline (a call more at every step measured lower on PettingZoo
                # Opendaum 4p, which stands within a point of its 20 % target)
                seat: int = m.current.to_move  # type: ignore[assignment]  # (not over)
                agent = self.possible_agents[seat]
                infos = self.infos
                if agent != self.agent_selection:
                    infos[self.agent_selection] = {}
                    self.agent_selection = agent
                infos[agent] = {"observation": LazyObservation(m, seat),
                                "legal_actions": m.legal_actions()}
                return
        if self._rewarded or m.is_over:
            self._accumulate_rewards()

    def _was_dead_step(self, action: Any) -> None:
        """AECEnv._was_dead_step for this environment, where every agent ends at once
        (all terminated or all truncated): the agent leaves, the next one left is
        selected (the first: all are dead), the rewards are cleared."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        assert self.terminations[agent] or self.truncations[agent], (
            "an agent that was not dead as attempted to be removed")
        del self.terminations[agent]
        del self.truncations[agent]
        del self.rewards[agent]
        del self._cumulative_rewards[agent]
        del self.infos[agent]
        agents = self.agents
        agents.remove(agent)
        skip: Any = getattr(self, "_skip_agent_selection", None)
        if agents:
            if skip is None:
                self._skip_agent_selection: str | None = agent
            self.agent_selection = agents[0]
        else:
            if skip is not None:
                self.agent_selection = skip
            self._skip_agent_selection = None
        rewards = self.rewards
        for a in rewards:
            rewards[a] = 0

    def render(self) -> str | None:
        m = self._live()
        seat = m.to_move if m.to_move is not None else 0
        text = render(m.observation(seat))
        if m.is_over and m.result is not None:
            text += f"\nresult: {m.result.to_json()}"
        elif self.selection:
            text += f"\nselected: {self.selection.text()}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.match = None

    # ------------------------------------------------------------------ pickling
    def __getstate__(self) -> dict[str, Any]:
        """The match goes as its seed, options and actions (it holds its GameSpec, whose
        option checks need not pickle); the spaces are rebuilt."""
        state = {k: v for k, v in self.__dict__.items()
                 if k not in ("match", "space", "features", "observation_spaces",
                              "action_spaces", "state_space", "_cache", "_writers",
                              "_seen_mv")}
        m = self.match
        state["match"] = None if m is None else [text for _, text in m.history]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        actions = state.pop("match")
        self.__dict__.update(state)
        self._seen_mv = self._seen.data
        self._build()
        self.match = None
        if actions is not None:
            m = koloda.new_game(self.game, players=self.players, seed=self._match_seed,
                                **self._match_options)
            for text in actions:
                m.apply(text)
            self.match = m

    # ------------------------------------------------------------------ internals
    def _live(self) -> Match:
        if self.match is None:
            raise RuntimeError("call reset() before using the environment")
        return self.match

    def _after_move(self, deal_ended: bool = False) -> None:
        m = self._live()
        rewards = self.rewards
        over = m.is_over
        per_deal = (deal_ended or over) and self.reward_mode == "deal"
        if per_deal:
            for s, x in enumerate(self.scores.deltas(m)):
                rewards[self.possible_agents[s]] = x
        if over:
            result = m.result
            if not per_deal:
                values = result_rewards(result, self.players)
                for a in self.agents:
                    rewards[a] = values[self.agent_name_mapping[a]]
            capped = bool(result and result.capped)
            info = {"result": result.to_json() if result else None, "capped": capped}
            for a in self.agents:
                self.terminations[a] = not capped
                self.truncations[a] = capped
                self.infos[a] = dict(info)
            self.agent_selection = self.agents[0]
            return
        if not per_deal and self._rewarded:
            for a in self.agents:
                rewards[a] = 0.0
        self._rewarded = per_deal
        self._hand_to(m, m.current.to_move or 0)      # (the match is not over)

    def _hand_to(self, m: Match, seat: int) -> None:
        """The seat to act becomes the agent selected, its infos the position's raw
        observation and legal actions (the agent that acted before keeps none)."""
        agent = self.possible_agents[seat]
        infos = self.infos
        if agent != self.agent_selection:
            infos[self.agent_selection] = {}
            self.agent_selection = agent
        infos[agent] = {"observation": LazyObservation(m, seat),
                        "legal_actions": m.legal_actions()}


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc, unused-ignore]
    """PettingZoo's OrderEnforcingWrapper over its AssertOutOfBoundsWrapper, with the same
    checks made against the environment itself: the inherited ``last()``, ``step()`` and
    iterator read every attribute through two wrappers' ``__getattr__``, which cost more
    than the engine's move."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._raw = env.unwrapped

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """OrderEnforcingWrapper.reset, calling the environment itself (the inner
        wrapper's reset only passes the call on)."""
        self._has_reset = True
        self._has_updated = True
        self._raw.reset(seed=seed, options=options)
        # once reset, ``last`` has nothing to check (a reset is never undone): the
        # environment's own, one call fewer at every step
        self.last = self._raw.last  # type: ignore[method-assign]

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self._raw.last(observe)

    def step(self, action: Any) -> None:
        u = self._raw
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not u.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            agent = u.agent_selection
            if action is None:
                ok = u.terminations[agent] or u.truncations[agent]
            elif action.__class__ is int:
                ok = 0 <= action < u.space.size
            else:
                ok = u.action_spaces[agent].contains(action)
            assert ok, "action is not in action space"   # AssertOutOfBoundsWrapper's check
            u.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIter(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)


class _AgentIter:
    """PettingZoo's order-enforcing agent iterator, reading the environment directly."""

    def __init__(self, wrapper: _OrderEnforcing, max_iter: int) -> None:
        self.wrapper = wrapper
        self.env = wrapper._raw
        self.left = max_iter

    def __iter__(self) -> _AgentIter:
        return self

    def __next__(self) -> str:
        e = self.env
        if not e.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        w = self.wrapper
        assert w._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        w._has_updated = False
        return e.agent_selection


def env(game: str = "durak", players: int | None = None, render_mode: str | None = None,
        rewards: str = "match", **options: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's classic games are: an out-of-range action
    or a call out of order raises."""
    e: AECEnv = raw_env(game, players, render_mode, rewards, **options)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return _OrderEnforcing(e)
