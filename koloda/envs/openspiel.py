"""Every koloda game as a Python OpenSpiel game (optional extra: open_spiel, numpy).

    import pyspiel
    import koloda.envs.openspiel   # registers koloda_durak, koloda_opendaum_shakhi, ...
    game = pyspiel.load_game("koloda_durak(players=4,max_deals=1)")

Names are ``koloda_`` + the game's name with ``-`` as ``_``. Parameters: ``players`` and
every option of the game (``max_deals`` included). An option whose default depends on the
player count (Durak ``teams``, Opendaum and Pyanitsy ``deck``, Stukolka ``deals``) takes
``-1`` for that default, and a yes/no one of them is written ``0``/``1``; Kopilka's
``values`` is a string ``H4C3D2S1`` (suit letter then value; "" = the default).

Chance nodes deal the cards one at a time (koloda.envs.chance); actions are the game's
fixed action space (koloda.envs.actions), multi-card choices in select/confirm steps.
Returns come at the end from the match result: +1 per winner, −1 per loser, 0 in a draw
or a tie of every seat (zero-sum with two players, general-sum with more). Games and
states pickle; ``KolodaBot`` is a koloda bot as a ``pyspiel.Bot``.
Observation string: the seat's observation rendered; information-state
string: the seat's dealt hand, this deal's actions as the seat saw them, then the
observation (perfect recall within a deal; earlier deals live on in the public score
sheet). Tensors: koloda.envs.common.Features, plus the dealt hand for the information
state. ``resample_from_infostate`` uses the game's determinizer (see koloda.envs
.determinize), so OpenSpiel's Python ISMCTS runs on games that have one.
"""

from __future__ import annotations

import random
import re
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

from koloda.engine.registry import get_spec, registry
from koloda.engine.spec import GameSpec
from koloda.envs.actions import action_space
from koloda.envs.chance import CHANCE, TERMINAL, Recall, Table
from koloda.envs.common import features
from koloda.tensors import CARDS

PREFIX = "koloda_"
assert int(pyspiel.PlayerId.CHANCE) == CHANCE and int(pyspiel.PlayerId.TERMINAL) == TERMINAL


def game_name(name: str) -> str:
    """The OpenSpiel name of a koloda game: ``durak-perevodnoy`` → ``koloda_durak_perevodnoy``."""
    return PREFIX + get_spec(name).name.replace("-", "_")


def _parameters(spec: GameSpec) -> dict[str, Any]:
    params: dict[str, Any] = {"players": spec.default_players}
    for o in spec.all_options:
        if o.kind is dict:
            params[o.name] = ""
        elif callable(o.default):
            params[o.name] = -1
        else:
            params[o.name] = o.default
    return params


def _options(spec: GameSpec, params: dict[str, Any]) -> dict[str, Any]:
    """OpenSpiel parameters back to koloda options (sentinels meaning "the default")."""
    out: dict[str, Any] = {}
    for o in spec.all_options:
        if o.name not in params:
            continue
        v = params[o.name]
        if o.kind is dict:
            if v:
                out[o.name] = {k: int(x) for k, x in re.findall(r"([A-Za-z]+)(\d+)", str(v))}
        elif callable(o.default):
            if v != -1:
                out[o.name] = bool(v) if o.kind is bool else v
        else:
            out[o.name] = v
    return out


def zero_sum(players: int) -> bool:
    """Whether the returns always sum to zero: with two players they are +1/−1, or 0 for
    both in a draw or a tie (koloda.envs.common.result_rewards), in every game (checked
    on random matches of every two-player game by tests/test_envs_fixes.py). With more
    players a lone winner's +1 meets several −1s, so the game is general-sum."""
    return players == 2


def _game_type(spec: GameSpec, players: int | None = None) -> pyspiel.GameType:
    utility = pyspiel.GameType.Utility.ZERO_SUM if players is not None and zero_sum(players) \
        else pyspiel.GameType.Utility.GENERAL_SUM
    return pyspiel.GameType(
        short_name=game_name(spec.name),
        long_name=f"koloda {spec.title_en}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(spec.players),
        min_num_players=min(spec.players),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(spec),
    )


def _max_length(spec: GameSpec, options: dict[str, Any]) -> int:
    """MaxGameLength: the game's own bound on one deal's decisions (``GameSpec.bounds``,
    selections included) times the deals."""
    return min(spec.bounds.per_deal(options) * options["max_deals"], 2**31 - 1)


class KolodaGame(pyspiel.Game):
    """One koloda game with its parameters (the Python class behind ``koloda_*``)."""

    spec: GameSpec

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec = self.spec
        players = spec.check_players(params.get("players", spec.default_players))
        self.options = spec.resolve_options(players, _options(spec, params))
        self.koloda_name = spec.name
        self.players = players
        self.space = action_space(spec.name, "openspiel")
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=CARDS,
            num_players=players,
            min_utility=spec.bounds.utility[0],
            max_utility=spec.bounds.utility[1],
            utility_sum=0.0 if zero_sum(players) else None,
            max_game_length=_max_length(spec, self.options),
        )
        super().__init__(_game_type(spec, players), info, params)
        self.params = params
        #: the game's tables read dealt hands as deals begin once one has been asked
        self.recall = Recall()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its name and parameters (the class is made per game at import):
        unpickling imports this module, which registers the games, and loads it again."""
        return _load_game, (self.spec.name, dict(self.params))

    def new_initial_state(self) -> KolodaState:
        return KolodaState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> KolodaObserver:
        return KolodaObserver(self, iig_obs_type, params)

    def table(self) -> Table:
        return Table(self.koloda_name, self.players, self.options, self.recall)


def _load_game(name: str, params: dict[str, Any]) -> KolodaGame:
    return _CLASSES[get_spec(name).name](params)


class KolodaState(pyspiel.State):
    """A state of a koloda game: a koloda.envs.chance.Table under OpenSpiel's API."""

    def __init__(self, game: KolodaGame) -> None:
        super().__init__(game)
        self.table = game.table()

    # current_player, is_chance_node and is_terminal are the calls made most (pyspiel's
    # apply_action asks current_player, a loop asks all three at every node): they read
    # the player the table keeps for the node (Table.current_player) before calling it,
    # a call fewer each (1-2 % of a random Mushka or Durak episode)
    def current_player(self) -> int:
        # koloda.envs.chance numbers chance and the end as pyspiel does (checked below)
        table = self.table
        p = table._player
        return table.current_player() if p is None else p

    def _legal_actions(self, player: int) -> list[int]:
        return self.table.legal_indices() if player == self.table.current_player() else []

    # pyspiel's own is_chance_node, is_player_node and legal_actions go through C++ and
    # back into current_player / _legal_actions; called from Python these give the same
    # answers directly (tests/test_openspiel.py compares them with pyspiel's)
    def is_chance_node(self) -> bool:
        table = self.table
        p = table._player
        return (table.current_player() if p is None else p) == CHANCE

    def is_player_node(self) -> bool:
        return self.table.current_player() >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions (chance outcomes at a chance node), as pyspiel's."""
        table = self.table
        current = table.current_player()
        if current == CHANCE:
            return [a for a, _ in table.chance_outcomes()]
        if current == TERMINAL:
            return []
        if player is not None and player != current:
            if player < 0:
                raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
            return []
        return table.legal_indices()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.table.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.table.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.table.action_text(player, int(action))

    def is_terminal(self) -> bool:
        table = self.table
        p = table._player
        return (table.current_player() if p is None else p) == TERMINAL

    def returns(self) -> list[float]:
        return self.table.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> KolodaState:
        """A state the player cannot tell from this one, its hidden cards dealt afresh by
        the game's determinizer (``probability_sampler()`` seeds the deal)."""
        seed = int(probability_sampler() * 2**52)
        new = self.clone()
        new.table = self.table.resample(player_id, random.Random(seed))
        return new

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The player's observation vector (koloda.envs.common.Features), written
        straight from the table: pyspiel's own route builds a fresh initial state and an
        observer to learn the shape at every call."""
        return self._tensor(player, False)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The observation vector plus the player's hand as dealt."""
        return self._tensor(player, True)

    def _tensor(self, player: int | None, perfect_recall: bool) -> list[float]:
        if player is None:
            player = self.current_player()
        table = self.table
        if not 0 <= player < table.players:
            raise ValueError(f"no player {player}: players are 0..{table.players - 1}")
        return table.values(player, perfect_recall)

    def apply_koloda_action(self, action: str) -> None:
        """Apply an engine action given as canonical text (``"attack 6C 6D"``): its index,
        or its select/confirm steps. For playing koloda's own bots inside OpenSpiel."""
        m = self.table.match
        if m is None or self.is_chance_node() or self.is_terminal():
            raise ValueError("no seat is to act now")
        if self.table.selection:
            raise ValueError(f"a selection is open ({self.table.selection.text()}): finish "
                             f"it with indices")
        if action not in m.legal_actions():
            raise ValueError(f"{action!r} is not legal now; legal: {m.legal_actions()}")
        for index in self.table.space.path(action):
            self.apply_action(index)

    def koloda_match(self) -> Any:
        """The koloda Match inside (None while the first deal is dealt)."""
        return self.table.match

    def __str__(self) -> str:
        return str(self.table)


class KolodaBot(pyspiel.Bot):
    """koloda's own bot (``"heuristic"``, ``"search:easy"``, ``"random"`` …) as an
    OpenSpiel bot for one player: ``step(state)`` is the index to apply (a multi-card
    action comes as its select/confirm indices on successive calls). It reads only the
    player's observation and the legal actions, as at a table.

        bots = [KolodaBot(game, p, "heuristic", seed=p) for p in range(2)]
        pyspiel.evaluate_bots(game.new_initial_state(), bots, 1)
    """

    def __init__(self, game: KolodaGame, player: int, bot: str = "heuristic",
                 seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        from koloda.envs.bots import BotDriver
        self.player = player
        self.driver = BotDriver(bot, game.koloda_name, seed)

    def step(self, state: KolodaState) -> int:
        table = state.table
        if table.current_player() != self.player or table.match is None:
            raise ValueError(f"player {self.player} is not to act")
        return self.driver.index(table.match, table.selection)

    def restart_at(self, state: KolodaState) -> None:
        self.driver.restart()

    def restart(self) -> None:
        self.driver.restart()

    def inform_action(self, state: KolodaState, player_id: int, action: int) -> None:
        pass

    def provides_policy(self) -> bool:
        return False

    def is_clonable(self) -> bool:
        return False


class KolodaObserver:
    """OpenSpiel's observer: the observation (default) or, with ``perfect_recall``, the
    information state, as a string and as a float32 tensor."""

    def __init__(self, game: KolodaGame, iig_obs_type: Any,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.check(iig_obs_type)
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        # pyspiel makes an observer for every observation_tensor call: kept cheap (the
        # features are made once per game, the block views only when asked for)
        self.features = features(game.koloda_name, game.players)
        size = self.features.size + (CARDS if self.perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self._dict: dict[str, np.ndarray] | None = None

    @property
    def dict(self) -> dict[str, np.ndarray]:
        """The tensor's blocks by name (views into ``tensor``)."""
        if self._dict is None:
            self._dict = {info.name: self.tensor[info.offset:info.offset + info.size]
                          for info in self.features.infos()}
            if self.perfect_recall:
                self._dict["dealt"] = self.tensor[self.features.size:]
        return self._dict

    @staticmethod
    def check(iig_obs_type: Any) -> None:
        if iig_obs_type is not None and (
                not iig_obs_type.public_info
                or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError("koloda observers give one seat's whole view (public and its "
                             "own private information) only")

    def set_from(self, state: KolodaState, player: int) -> None:
        state.table.fill(player, self.tensor, self.perfect_recall)

    def string_from(self, state: KolodaState, player: int) -> str:
        if self.perfect_recall:
            return state.table.information_state_string(player)
        return state.table.observation_string(player)


#: game name → its KolodaGame class (one per game, made at registration)
_CLASSES: dict[str, type[KolodaGame]] = {}


def _register(spec: GameSpec) -> None:
    name = f"Koloda_{spec.name.replace('-', '_')}"
    cls = type(name, (KolodaGame,), {"spec": spec, "__module__": __name__,
                                     "__qualname__": name})
    _CLASSES[spec.name] = cls
    pyspiel.register_game(_game_type(spec), cls)


def register_all() -> list[str]:
    """Register every koloda game not registered yet; return the OpenSpiel names."""
    known = {t.short_name for t in pyspiel.registered_games()}
    names = []
    for spec in registry().values():
        name = game_name(spec.name)
        if name not in known:
            _register(spec)
        names.append(name)
    return names


GAMES = register_all()
