"""Where koloda keeps its files: the user's data directory (XDG), overridable."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """``$KOLODA_HOME``, else ``$XDG_DATA_HOME/koloda``, else ``~/.local/share/koloda``."""
    if os.environ.get("KOLODA_HOME"):
        d = Path(os.environ["KOLODA_HOME"])
    else:
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        d = Path(base) / "koloda"
    d.mkdir(parents=True, exist_ok=True)
    return d
