"""The command line. Importing the command modules registers them on the ``main`` group."""

from ratscrew.cli import bmn, check, lab, play, replay, rules, serve, simulate  # noqa: F401  (registers the commands)
from ratscrew.cli.app import main

__all__ = ["main"]
