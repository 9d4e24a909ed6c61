"""Measuring tools around the arena: outside anchors (OpenSpiel's ISMCTS), arenas on Ray,
the rating list. Optional extras are imported only when used."""
