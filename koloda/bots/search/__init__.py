"""The search bots: one ISMCTS (:mod:`.ismcts`) and one flat Monte Carlo (:mod:`.flat`),
one level table and one way to build a bot (:mod:`.levels`); each game's search is its
hooks (:mod:`.games`), named by the game's spec (``bots={"search": "module:Class"}``).
The ``clairvoyant`` measuring bot (:mod:`.clairvoyant`) is the same search on the true
deal."""

from koloda.bots.search.ismcts import ISMCTS, SearchBot
from koloda.bots.search.levels import LEVELS, Level, build_search, level_named

__all__ = ["ISMCTS", "LEVELS", "Level", "SearchBot", "build_search", "level_named"]
