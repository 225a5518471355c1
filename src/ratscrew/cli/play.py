"""``ratscrew play``: the game in the browser, served from this machine."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, help="Port (default: a free one).")
@click.option("--no-browser", is_flag=True, help="Do not open the browser.")
@click.option(
    "--data",
    "data_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder for the SQLite store (default: ~/.local/share/ratscrew).",
)
def play(host: str, port: int, no_browser: bool, data_dir: Path | None) -> None:
    """Start the game server and open the game in the browser."""
    from ratscrew.web.serve import default_data_dir, serve

    serve(host, port, data_dir or default_data_dir(), open_browser=not no_browser)
