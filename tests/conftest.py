import pathlib

import pytest

RECORDS = pathlib.Path(__file__).parent / "records"


@pytest.fixture(autouse=True)
def _english_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands without ``--lang`` speak the locale's language (issue #7): the tests run in
    English whatever the machine's locale, unless a test sets KOLODA_LANG itself."""
    monkeypatch.setenv("KOLODA_LANG", "en")
