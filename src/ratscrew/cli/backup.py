"""``ratscrew backup``: a copy of a server's SQLite store, taken while it runs (docs/hosting.md)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import click

from ratscrew.cli.app import main
from ratscrew.errors import BadRequest, Conflict, NotFound


@main.command()
@click.option(
    "--data",
    "data_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="The folder `ratscrew serve` or `ratscrew play` keeps its store in (default: ~/.local/share/ratscrew).",
)
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@click.argument("file", type=click.Path(path_type=Path))
def backup(data_dir: Path | None, force: bool, file: Path) -> None:
    """Copy the store (rooms, finished games, score-keeper matches) to FILE, safely while the server runs.

    To restore: stop the server, put FILE in the data folder as ratscrew.sqlite3 (removing any
    ratscrew.sqlite3-wal and -shm beside it), start the server.
    """
    from ratscrew import database
    from ratscrew.web.serve import default_data_dir

    folder = data_dir or default_data_dir()
    source = folder / database.FILE_NAME
    if not folder.is_dir():
        raise NotFound(f"--data: no folder {folder}: give the folder the server keeps its store in")
    if not source.is_file():
        raise NotFound(f"--data: no {database.FILE_NAME} in {folder}: give the folder the server keeps its store in")
    if file.is_dir():
        raise BadRequest(f"{file} is a folder: give the name of the file to write, e.g. {file / 'ratscrew.sqlite3'}")
    if not file.parent.is_dir():
        raise NotFound(f"no folder {file.parent} to write {file.name} in")
    live = {database.FILE_NAME + end for end in ("", "-wal", "-shm", "-journal")}
    if file.resolve().parent == source.resolve().parent and file.name in live:
        raise BadRequest(f"{file} is the live store (or its log): write the backup elsewhere")
    if file.exists() and not force:
        raise Conflict(f"{file} exists: give --force to replace it, or another name")
    try:
        copied = database.backup(source, file)
    except sqlite3.Error as exc:
        raise BadRequest(f"cannot read {source}: {exc}") from None
    except ValueError as exc:
        raise BadRequest(f"{source}: {exc}") from None
    except OSError as exc:
        raise BadRequest(f"cannot write {file}: {exc.strerror or exc}") from None
    click.echo(
        f"ratscrew: backed up {source} to {file}: {copied.rooms} open rooms, {copied.games} finished games, "
        f"{copied.matches} score-keeper matches ({copied.size / 1024 / 1024:.1f} MiB)"
    )
