"""The one API every game speaks."""

from koloda.engine.actions import Action
from koloda.engine.deal import Deal, DealState
from koloda.engine.errors import ConfigError, IllegalAction, RecordError
from koloda.engine.match import Match
from koloda.engine.result import Result
from koloda.engine.spec import GameSpec, Option

__all__ = ["Action", "ConfigError", "Deal", "DealState", "GameSpec", "IllegalAction", "Match",
           "Option", "RecordError", "Result"]
