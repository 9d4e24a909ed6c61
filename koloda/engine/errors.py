"""The errors every game speaks: each names what was wrong in words a person understands."""


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message names the rule broken."""


class ConfigError(ValueError):
    """An unknown game, variant or option, a bad option value or player count."""


class RecordError(ValueError):
    """A malformed record; the message names the broken field."""
