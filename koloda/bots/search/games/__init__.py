"""Each game's search: its hooks on the shared ISMCTS or flat Monte Carlo."""
