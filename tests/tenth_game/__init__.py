"""A tenth game that lives in this folder only: "Dyuzhina" (a dozen) — two players, twelve
cards, six tricks.

Registered by the tests (``koloda.engine.registry.register(SPEC)``) to show that a game
declared in one place — its rules, typed views, terms, action words, bounds, tensor layout
and bots on its ``GameSpec`` — appears in every interface without touching another file.
"""

from tests.tenth_game.game import SPEC, DozenDeal, DozenMatch

__all__ = ["SPEC", "DozenDeal", "DozenMatch"]
