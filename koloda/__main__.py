"""``python -m koloda``: the same command line as ``koloda``."""

from koloda.cli.main import app

if __name__ == "__main__":
    app(prog_name="koloda")
