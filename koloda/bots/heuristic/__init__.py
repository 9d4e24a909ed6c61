"""Heuristic bots: one module per game family, each exposing ``make(game, level) -> Bot``.

They play as a sensible person would, from the observation alone.
"""
