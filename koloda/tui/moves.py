"""The move chooser the terminal uses: the one in ``koloda.moves``, which the web server also
runs for the browser (the page gets what it computes with each state)."""

from __future__ import annotations

from koloda.moves import MoveChooser, action_cards

__all__ = ["MoveChooser", "action_cards"]
