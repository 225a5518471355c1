"""The installed ``ratscrew tui`` in a real terminal: tmux runs it at 80x24, keys go in with send-keys and the
screen is read with capture-pane, through a whole (short) game against a computer to its summary, then Q.
The game is in the data folder afterwards, as the browser's games are."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ratscrew.web.store import Store

HANG_S = 240.0  # the game takes a few seconds; only a hang reaches this
RATSCREW = Path(sys.executable).parent / "ratscrew"  # the command pip installed beside this Python


class Tmux:
    """A tmux server of this test's own (``-L``), so it never meets anyone else's sessions."""

    def __init__(self, name: str) -> None:
        self.name = name

    def run(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.name, *args], capture_output=True, text=True, timeout=30, check=True)
        return done.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "table")

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "table", *keys)


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    if shutil.which("tmux") is None:
        pytest.fail("tmux is missing: run scripts/test, which installs Debian's tmux")
    server = Tmux(f"ratscrew-test-{os.getpid()}-{time.monotonic_ns()}")
    try:
        yield server
    finally:
        subprocess.run(["tmux", "-L", server.name, "kill-server"], capture_output=True, timeout=30, check=False)


def test_the_installed_command_plays_a_whole_game_in_tmux(tmux: Tmux, tmp_path: Path) -> None:
    data = tmp_path / "data"
    status = tmp_path / "status"
    command = [
        str(RATSCREW), "tui", "--data", str(data), "--bots", "expert", "--pace", "0.25", "--seed", "5",
        "--set", "end.max_cards=40", "--name", "Tia",
    ]  # fmt: skip
    shell = f"{shlex.join(command)}; echo $? > {shlex.quote(str(status))}; sleep 600"
    tmux.run("new-session", "-d", "-s", "table", "-x", "80", "-y", "24", shell)

    deadline = time.monotonic() + HANG_S
    screen = ""
    while "cards turned" not in screen:
        assert time.monotonic() < deadline, f"no summary within {HANG_S} s; the screen:\n{screen}"
        screen = tmux.screen()
        if "▶ Tia" in screen:  # the seat whose turn it is (to turn a card, or to pay a debt)
            tmux.keys("f")
        time.sleep(0.15)
    assert "40 cards turned" in screen, screen
    assert "The card limit of these rules was reached." in screen
    assert "Saved as game" in screen and "Typical" in screen
    assert len(screen.splitlines()) <= 24 and all(len(line) <= 80 for line in screen.splitlines())

    tmux.keys("q")
    while not status.exists():
        assert time.monotonic() < deadline, f"the table did not quit; the screen:\n{tmux.screen()}"
        time.sleep(0.1)
    assert status.read_text().strip() == "0"
    [(game, _when, summary)] = Store(data / "ratscrew.sqlite3").game_summaries(
        [line.split("Saved as game ", 1)[1].split()[0] for line in screen.splitlines() if "Saved as game" in line]
    )
    assert summary.cards == 40 and game
