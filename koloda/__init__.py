"""koloda: traditional Russian card games, exactly as the old books write them."""

from koloda.engine import (
                           Action,
                           ConfigError,
                           Deal,
                           DealState,
                           GameSpec,
                           IllegalAction,
                           Match,
                           Option,
                           RecordError,
                           Result,
)
from koloda.engine.records import from_record, load_record, replay
from koloda.engine.registry import get_spec, new_deal, new_game, registry

__version__ = "0.1.0"

__all__ = ["Action", "ConfigError", "Deal", "DealState", "GameSpec", "IllegalAction", "Match",
           "Option", "RecordError", "Result", "from_record", "get_spec", "load_record",
           "new_deal", "new_game", "registry", "replay"]
