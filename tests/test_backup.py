"""``ratscrew backup``: a copy of a running server's SQLite store, taken while it writes (a score-keeper match
taking rounds, rooms being made), that restores every room, every finished game's record and every match
as it was when the copy was taken; and one clear line for whatever it cannot do."""

from __future__ import annotations

import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from harness.players import Player, journaled, open_room, play
from harness.server import Server, start_server
from harness.site import call, free_ports, wait_ready
from ratscrew import database
from ratscrew.cli import main

SHORT_GAME = {"preset": "standard", "end": {"max_cards": 8}}


def backup(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "ratscrew", "backup", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)


def finished_game(server: Server) -> str:
    """A game played to its end in a room (eight cards): its id."""
    players = open_room(server, 2, rules=SHORT_GAME)
    play(players, lambda: False)
    host = players[0]
    host.wait_for(lambda: any(m["type"] == "over" for m in host.messages), "the game's end")
    game_id: str = next(m for m in host.messages if m["type"] == "over")["summary"]["game"]
    for player in players:
        player.close()
    return game_id


def match_with_rounds(url: str, rounds: int) -> tuple[str, dict[str, str]]:
    status, _, made = call(url + "/api/matches", {"players": ["Ann", "Bo", "Cy"], "name": "Friday"})
    assert status == 201, made
    keys = {"X-Match-Keys": made["key"]}
    for index in range(rounds):
        status, _, doc = call(f"{url}/api/matches/{made['id']}/rounds", {"winner": index % 3}, keys)
        assert status == 200, doc
    return made["id"], keys


class Writer(threading.Thread):
    """Writes while the backup runs: a round of a match, then a new room, again and again."""

    def __init__(self, url: str, match: str, keys: dict[str, str]) -> None:
        super().__init__(daemon=True)
        self.url, self.match, self.keys = url, match, keys
        self.stop = threading.Event()
        self.writes = 0

    def run(self) -> None:
        while not self.stop.is_set():
            status, _, _ = call(f"{self.url}/api/matches/{self.match}/rounds", {"winner": 0}, self.keys)
            assert status == 200
            status, _, _ = call(self.url + "/api/rooms", {"seats": 2}, source=f"127.0.110.{self.writes % 200 + 1}")
            assert status == 200
            self.writes += 1


def test_a_backup_taken_while_the_server_writes_restores_every_room_record_and_match(tmp_path: Path) -> None:
    (port,) = free_ports(1)
    url, data = f"http://127.0.0.1:{port}", tmp_path / "data"
    log = tmp_path / "serve.log"
    command = [sys.executable, "-m", "ratscrew", "serve", "--workers", "1", "--port", str(port), "--data", str(data)]
    process = subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    restored: Server | None = None
    try:
        wait_ready(url, process, log)
        server = Server(url + "/", data, process)  # type: ignore[arg-type]
        # Rooms in the middle of their games, each at its own card.
        rooms: list[tuple[str, list[str | None], int]] = []
        for cards in (3, 5, 7):
            players = open_room(server, 2)
            play(players, lambda p=players, c=cards: p[0].state.get("cards", 0) >= c)
            reached = players[0].state["cards"]
            journaled(data, players[0].code, reached)
            rooms.append((players[0].code, [p.token for p in players], reached))
            for player in players:
                player.close()
        records = {
            game: call(f"{url}/api/games/{game}/record")[2] for game in (finished_game(server) for _ in range(2))
        }
        matches = dict(match_with_rounds(url, rounds) for rounds in (0, 4, 9))
        shown = {match: call(f"{url}/api/matches/{match}", headers=keys)[2] for match, keys in matches.items()}
        busy, busy_keys = match_with_rounds(url, 2)
        writer = Writer(url, busy, busy_keys)
        writer.start()
        while writer.writes < 3 and writer.is_alive():
            writer.stop.wait(0.05)
        copy = tmp_path / "backups" / "ratscrew-backup.sqlite3"
        copy.parent.mkdir()
        began = writer.writes
        done = backup("--data", str(data), str(copy))
        ended = writer.writes
        writer.stop.set()
        writer.join(120)
        assert done.returncode == 0, done.stderr
        assert ended > began  # the server wrote while the copy was taken
        assert done.stdout.startswith(f"ratscrew: backed up {data / 'ratscrew.sqlite3'} to {copy}: ")
        assert " 2 finished games, 4 score-keeper matches " in done.stdout
        with sqlite3.connect(copy) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file, no -wal beside it
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(60)

    # Restored as the doc says: the file in a data folder of its own, a server started on it.
    (tmp_path / "restored").mkdir()
    shutil.copy(copy, tmp_path / "restored" / "ratscrew.sqlite3")
    restored = start_server(tmp_path / "restored")
    try:
        for code, tokens, cards in rooms:
            pages = [Player(restored, code, token) for token in tokens]
            for page in pages:
                page.wait_for(lambda p=page: bool(p.state), "the restored room")
                assert page.state["cards"] == cards
            assert [page.yours for page in pages] == [[0], [1]]
            for page in pages:
                page.close()
        for game, record in records.items():
            assert restored.get(f"/api/games/{game}/record") == (200, record)
        for match, keys in matches.items():
            status, _, doc = call(f"{restored.url.rstrip('/')}/api/matches/{match}", headers=keys)
            assert status == 200 and doc == shown[match]
        status, _, doc = call(f"{restored.url.rstrip('/')}/api/matches/{busy}", headers=busy_keys)
        assert status == 200 and 2 + began <= len(doc["rounds"]) <= 2 + ended + 1  # as it was mid-stream
    finally:
        restored.stop()


def test_backup_refuses_what_it_cannot_do_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def refused(*args: str) -> tuple[int, str]:
        with pytest.raises(SystemExit) as ended:
            main(["backup", *args])
        err = capsys.readouterr().err
        assert "Traceback" not in err and err.count("\n") == 1
        return int(ended.value.code or 0), err

    data = tmp_path / "data"
    assert refused("--data", str(data), str(tmp_path / "b.sqlite3")) == (
        2,
        f"ratscrew: error: --data: no folder {data}: give the folder the server keeps its store in\n",
    )
    data.mkdir()
    code, err = refused("--data", str(data), str(tmp_path / "b.sqlite3"))
    assert code == 2 and "no ratscrew.sqlite3 in" in err
    (data / "ratscrew.sqlite3").write_text("not a database")
    code, err = refused("--data", str(data), str(tmp_path / "b.sqlite3"))
    assert code == 2 and "file is not a database" in err
    sqlite3.connect(data / "other.sqlite3").execute("CREATE TABLE t (x)").connection.close()
    (data / "other.sqlite3").replace(data / "ratscrew.sqlite3")
    code, err = refused("--data", str(data), str(tmp_path / "b.sqlite3"))
    assert code == 2 and "not a ratscrew store" in err
    assert not list(tmp_path.glob("*b.sqlite3*"))  # nothing half-written left behind
    (data / "ratscrew.sqlite3").unlink()
    database.prepare(data / "ratscrew.sqlite3")
    for target, expected in (
        (data / "ratscrew.sqlite3", "is the live store"),
        (data / "ratscrew.sqlite3-wal", "is the live store"),
        (tmp_path, "is a folder"),
        (tmp_path / "nowhere" / "b.sqlite3", "no folder"),
    ):
        code, err = refused("--data", str(data), str(target))
        assert code == 2 and expected in err, err
    (tmp_path / "b.sqlite3").write_text("an older backup")
    code, err = refused("--data", str(data), str(tmp_path / "b.sqlite3"))
    assert code == 3 and "exists: give --force to replace it" in err
    assert (tmp_path / "b.sqlite3").read_text() == "an older backup"
    main(["backup", "--data", str(data), "--force", str(tmp_path / "b.sqlite3")])
    assert "0 open rooms, 0 finished games, 0 score-keeper matches" in capsys.readouterr().out
    with sqlite3.connect(tmp_path / "b.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM rooms").fetchone() == (0,)


def test_a_backup_holds_what_is_committed_but_still_only_in_the_write_ahead_log(tmp_path: Path) -> None:
    """A server's last commits may be in the -wal file alone until its next checkpoint: a copy of the main file
    would miss them; SQLite's backup reads them as any reader does."""
    data = tmp_path / "data"
    database.prepare(data / "ratscrew.sqlite3")
    server = database.connect(data / "ratscrew.sqlite3", synchronous="FULL", timeout=30)
    try:
        server.execute("PRAGMA wal_autocheckpoint = 0")  # as the rooms' journal does (it checkpoints on a timer)
        with server:
            server.execute("INSERT INTO games (id, record, summary, created) VALUES ('ABCDEF-1', '{}', '{}', 1)")
        assert (data / "ratscrew.sqlite3-wal").stat().st_size > 0
        done = backup("--data", str(data), str(tmp_path / "copy.sqlite3"))
        assert done.returncode == 0, done.stderr
    finally:
        server.close()
    with sqlite3.connect(tmp_path / "copy.sqlite3") as db:
        assert db.execute("SELECT id FROM games").fetchall() == [("ABCDEF-1",)]
