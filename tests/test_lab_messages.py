"""What the lab's commands say, and say truthfully: `simulate --histogram` on a terminal shows the distribution
(it was silently ignored without --json), and a scheduler on a host that never answers is called unreachable
(it was reported as a server that "sent nothing")."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys

from ratscrew.cli.lengths import nice_width, ranges


def ratscrew(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ratscrew", *args], capture_output=True, text=True, timeout=300, check=False
    )


def shown_ranges(text: str) -> dict[str, list[int]]:
    """The rows of the printed length table: "LOW-HIGH" and the counts after it."""
    rows = {}
    for line in text.splitlines():
        match = re.match(r"[│|]\s*(\d+-\d+)\s*[│|]((?:\s*[\d,]+\s*[│|])+)", line)
        if match:
            rows[match[1]] = [int(n.replace(",", "")) for n in re.findall(r"[\d,]+", match[2])]
    return rows


def test_histogram_without_json_prints_the_lengths_of_the_games() -> None:
    args = ("simulate", "--games", "60", "--players", "2", "--seed", "3", "--workers", "1")
    [doc] = [json.loads(line) for line in ratscrew(*args, "--json", "--histogram").stdout.splitlines()]
    exact = dict(doc["histogram"]["cards"])
    done = ratscrew(*args, "--histogram")
    assert done.returncode == 0, done.stderr
    assert "Game length: games per range of cards turned" in done.stdout
    rows = shown_ranges(done.stdout)
    assert sum(counts[0] for counts in rows.values()) == 60
    for label, (count, *_) in rows.items():  # each range holds exactly the games whose length falls in it
        low, high = map(int, label.split("-"))
        assert count == sum(n for cards, n in exact.items() if low <= cards <= high), label
    assert "Game length" not in ratscrew(*args).stdout  # asked for, it is shown; not asked for, it is not


def test_a_grids_histogram_has_a_column_per_cell() -> None:
    done = ratscrew("simulate", "--games", "20", "--players", "2", "--histogram", "--vary", "slaps.run=0,3")
    assert done.returncode == 0, done.stderr
    assert "slaps.run=0" in done.stdout and "slaps.run=3" in done.stdout
    rows = shown_ranges(done.stdout)
    assert [sum(column) for column in zip(*rows.values(), strict=True)] == [20, 20]


def test_ranges_are_round_and_cover_every_game() -> None:
    assert [nice_width(n) for n in (7, 12, 30, 240, 1400, 99_999)] == [1, 1, 5, 20, 200, 10_000]
    start, width, counts = ranges([[[37, 2], [412, 1]], [[95, 4]]])
    assert (start, width) == (0, 50) and [sum(c) for c in counts] == [3, 4]
    assert counts[0][0] == 2 and counts[0][8] == 1 and counts[1][1] == 4


def test_a_scheduler_that_never_answers_is_called_unreachable() -> None:
    """A host that drops the connection unanswered (as one that is down, or behind a firewall, does): here a
    listening socket whose queue is full, on which the kernel leaves new connections unanswered."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(0)
        port = server.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)):  # fills the queue: the next connection gets no answer
            done = ratscrew("bmn", "--random", "10", "--scheduler", f"tcp://127.0.0.1:{port}")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert f"tcp://127.0.0.1:{port} is unreachable: nothing answered the connection" in done.stderr
    assert "sent nothing" not in done.stderr
