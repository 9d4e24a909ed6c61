"""Outside anchors the arena measures against (OpenSpiel's ISMCTS through koloda's OpenSpiel
adapter). Optional extras are imported only when used."""
