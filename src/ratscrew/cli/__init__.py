"""The command line. Each command's module is imported only when that command is asked for (``cli/app.py``)."""

from ratscrew.cli.app import main

__all__ = ["main"]
