"""The files a lab command writes once its run is over (``simulate --csv``, ``--plot``, ``--games-out``), checked
before the run starts: a run may take hours, and what stops it from writing its results must be said before
it is played, not after.

A file that is already there is refused unless ``--force`` is given (then it is replaced), as ``--report``
refuses a folder holding a report; a file whose folder does not exist is refused with that folder's name; and
two options may not name one file.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ratscrew.errors import MalformedInput


def check_output_file(option: str, path: Path, *, force: bool = False) -> None:
    """Before a run: ``path`` (given to ``option``) can be written without replacing a file by surprise. (A
    folder given as the file is refused by the option's ``click.Path(dir_okay=False)``.)"""
    name = repr(str(path))
    folder = path.parent
    if not folder.is_dir():
        what = "is a file" if folder.exists() else "does not exist"
        raise MalformedInput(f"{option} {name}: the folder {str(folder)!r} {what}: give a file in a folder that exists")
    if path.exists() and not force:
        raise MalformedInput(f"{option} {name} already exists: give a new file, or --force to replace it")


def check_output_files(files: Mapping[str, str | None], *, force: bool = False) -> None:
    """Every file given (option to path, None for an option not given), as ``check_output_file`` does, and no
    two of them the same file (the one written last would replace the other, ``--force`` or not)."""
    seen: dict[Path, tuple[str, str]] = {}
    for option, given in files.items():
        if not given:
            continue
        same = seen.setdefault(Path(given).resolve(), (option, given))
        if same[0] != option:
            raise MalformedInput(f"{same[0]} {same[1]!r} and {option} {given!r} are one file: give each its own")
    for option, given in files.items():
        if given:
            check_output_file(option, Path(given), force=force)
