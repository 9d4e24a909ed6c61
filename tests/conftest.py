import pathlib

RECORDS = pathlib.Path(__file__).parent / "records"
