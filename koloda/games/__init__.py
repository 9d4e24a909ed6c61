"""One module per game. Each module lists its games and variants in ``SPECS``."""
