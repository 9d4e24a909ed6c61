"""The ``koloda`` command line: thin, it calls the engine and never re-implements a rule."""
