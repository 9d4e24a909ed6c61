import pathlib

import pytest

RECORDS = pathlib.Path(__file__).parent / "records"


@pytest.fixture(autouse=True)
def _english_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands without ``--lang`` speak the locale's language: the tests run in
    English whatever the machine's locale, unless a test sets KOLODA_LANG itself."""
    monkeypatch.setenv("KOLODA_LANG", "en")


#: the tier of every test in a folder (a module may also set ``pytestmark`` itself)
FOLDER_TIERS = {"browser": "browser", "journeys": "journey"}
#: the tiers besides ``unit``; a test marked with none of them is a unit test
TIERS = ("slow", "journey", "browser", "cluster", "train")
HERE = pathlib.Path(__file__).parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test with its tier before ``-m`` selects (``pytest -m unit`` is the fast
    tier the README's test command runs; .ci/run runs the others after it)."""
    for item in items:
        parts = pathlib.Path(str(item.fspath)).relative_to(HERE).parts
        tier = FOLDER_TIERS.get(parts[0]) if len(parts) > 1 else None
        if tier:
            item.add_marker(getattr(pytest.mark, tier))
        if not any(item.get_closest_marker(t) for t in TIERS):
            item.add_marker(pytest.mark.unit)
