import pathlib

import pytest

RECORDS = pathlib.Path(__file__).parent / "records"


@pytest.fixture(autouse=True)
def _english_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands without ``--lang`` speak the locale's language (issue #7): the tests run in
    English whatever the machine's locale, unless a test sets KOLODA_LANG itself."""
    monkeypatch.setenv("KOLODA_LANG", "en")


#: the tier of every test in a folder (a module may also set ``pytestmark`` itself)
FOLDER_TIERS = {"browser": "browser", "journeys": "journey"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        parts = pathlib.Path(str(item.fspath)).relative_to(pathlib.Path(__file__).parent).parts
        tier = FOLDER_TIERS.get(parts[0]) if len(parts) > 1 else None
        if tier:
            item.add_marker(getattr(pytest.mark, tier))
