"""The screenshots of docs/web.md, made from the running server: the player page (with its
plot), a leaderboard and a replay, at 1280 px (English) and 390 px (Russian) wide.

It runs the browser test that starts ``koloda serve``'s app on a free port, stores a few
rated matches through the store (as a finished table does) and opens the pages in
Chromium (tests/browser/test_web_ratings_pages.py), with KOLODA_SCREENSHOTS=docs/img.

    python3 benchmarks/web_screenshots.py
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

if __name__ == "__main__":
    env = dict(os.environ, KOLODA_SCREENSHOTS=str(ROOT / "docs" / "img"))
    sys.exit(subprocess.call([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                              "tests/browser/test_web_ratings_pages.py"], cwd=ROOT, env=env))
