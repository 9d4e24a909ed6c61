"""A batched simulator (numpy, the pgx style): many deals advanced together.

    from koloda.batched import Opendaum, Trinka
    game = Opendaum(players=4, hand=8)          # the OpenSpiel oh_hell shape
    state = game.init(keys)                      # one deal per key, dealt from the key
    mask = game.mask(state)                      # (games, num_actions) bool
    state, obs, mask, reward = game.step(state, actions)

Hands, suits and legal sets are ``uint64`` bitmasks over koloda's card ints; every game
of a batch is at the same step (a deal has a fixed length; Kopilka's aside), so a step
is a handful of whole-batch operations. ``advance`` is ``step`` without the observation
and mask (the legal set stays as bits in ``state.legal``) — the loop to time.
``record(state, i)`` writes game ``i`` as a koloda-record/1 the engine replays: the
tests replay every game of a batch and compare every legal set and every score. Needs
numpy (an optional extra).

Games (each module's docstring says what it batches):

- ``Opendaum(players, hand)`` classic, ``OpendaumShakhi(players, hand)`` (two shakhi),
  ``Opendaum33(hand)`` (three players, 33 cards) and ``Trinka()``: the whole deal.
- ``Mushka(table, players)``, ``Stukolka(table, players)``: the
  tricks only. Their exchange or declarations change who plays and how long a deal is,
  so they are played at init by a fixed random policy drawn from the key
  (``koloda.batched.playphase``); records hold the whole deal, that phase included.
- ``MushkaFull(table)``, ``StukolkaFull(table)``: the whole deal, the exchange round or
  the declarations as the batch's first steps, then the tricks among whoever stayed in,
  each game at its own pace (``koloda.batched.paced``).
- ``Durak()`` (``koloda.batched.durak``): 2-player durak, whole games, each at its own
  pace, in the engine's durak action space (multi-card attacks as select/confirm steps);
  its vector env resets each game on its own (``koloda.batched.durak_env``).
- ``Dreyfus(number)``: the whole deal, the exchange with the widow as steps (a keep or
  discard decision per card of the exchanger's hand, ``52`` keep, ``53`` discard), then
  the tricks; each game at its own pace (a skipped player has no steps).
- ``Kopilka()``: the play after the same-suit exchange (played at init likewise). Its
  draws, passes and failed leads give every deal its own length and order of play, so
  each game keeps its own mover and trick (``koloda.batched.kopilka``); a game over
  waits for its batch (``terminated`` per game, ``is_over`` for all).

Action spaces: ``0..51`` play a card; then the game's own extra play actions (Opendaum's
shakhi played wild: ``52``, ``53``; Kopilka's ``52`` pass, ``53`` draw; MushkaFull's
``52`` stand, ``53`` pass, ``53 + m`` discard the hand's cards at the bits of m); then bids
(``play_actions + k`` bid k). The
observation layout: ``game.observation_layout()``. A Gymnasium vector env (self-play):
``koloda.batched.vector_env.BatchedVectorEnv`` (needs gymnasium). ``koloda bench``
prints the random-play hands/s beside OpenSpiel's C++ loop.
"""

from koloda.batched.core import IllegalBatchAction, TrickGame, TrickState
from koloda.batched.dreyfus import Dreyfus
from koloda.batched.durak import Durak
from koloda.batched.kopilka import Kopilka
from koloda.batched.mushka import Mushka
from koloda.batched.mushka_full import MushkaFull
from koloda.batched.opendaum import Opendaum
from koloda.batched.opendaum_shakhi import Opendaum33, OpendaumShakhi
from koloda.batched.stukolka import Stukolka
from koloda.batched.stukolka_full import StukolkaFull
from koloda.batched.trinka import Trinka

__all__ = ["Dreyfus", "Durak", "IllegalBatchAction", "Kopilka", "Mushka", "MushkaFull",
           "Opendaum", "Opendaum33",
           "OpendaumShakhi", "Stukolka", "StukolkaFull", "TrickGame", "TrickState", "Trinka"]
