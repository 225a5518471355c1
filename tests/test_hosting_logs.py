"""Every line ``ratscrew serve`` and its workers write is a JSON object, so that
``journalctl -u ratscrew -o cat | jq`` reads the whole journal: serve's own lines (start, a worker
restarted, stopped), the workers' (a refused message naming its room), uvicorn's (a request it cannot read),
and whatever reaches stderr otherwise (a library's print, a warning, an exception nobody caught)."""

from __future__ import annotations

import io
import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from harness.players import Player
from harness.server import Server
from harness.site import call, free_ports, wait_ready
from ratscrew.hosting.logs import JsonStderr

FIELDS = ("t", "level", "logger", "msg")


def json_lines(text: str) -> list[dict[str, Any]]:
    """Each line of ``text`` as a JSON object with the fields every line has (failing on any other line)."""
    lines = []
    for line in text.splitlines():
        doc = json.loads(line)
        assert isinstance(doc, dict) and all(key in doc for key in FIELDS), line
        lines.append(doc)
    return lines


def worker_pid(url: str) -> int:
    status, _, doc = call(url + "/healthz")
    assert status == 200
    return int(doc["pid"])


def test_every_line_serve_and_its_workers_write_is_json(tmp_path: Path) -> None:
    (port,) = free_ports(1)
    url = f"http://127.0.0.1:{port}"
    err, out = tmp_path / "stderr", tmp_path / "stdout"
    command = [sys.executable, "-m", "ratscrew", "serve", "--workers", "1", "--port", str(port)]
    command += ["--data", str(tmp_path / "data"), "--log-level", "info"]
    process = subprocess.Popen(command, stdout=out.open("wb"), stderr=err.open("wb"))
    try:
        wait_ready(url, process, err)
        # A request uvicorn cannot read: it says so in its own log line.
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(b"NOT HTTP AT ALL\r\n\r\n")
            sock.recv(1024)
        # A message the room refuses: the worker's line names the room.
        status, _, made = call(url + "/api/rooms", {"seats": 2})
        assert status == 200
        page = Player(Server(url + "/", tmp_path / "data", process), made["code"], made["token"])  # type: ignore[arg-type]
        page.wait_for(lambda: bool(page.room), "the welcome")
        sent_at = len(page.messages)  # the server's lag probes may come after the refusal
        page.send({"type": "nonsense"})
        page.wait_for(lambda: any(m["type"] == "error" for m in page.messages[sent_at:]), "the refusal")
        page.close()
        # A worker killed: serve says so, and starts it again.
        pid = worker_pid(url)
        subprocess.run(["kill", "-9", str(pid)], check=True)
        deadline = time.monotonic() + 60
        while True:
            try:
                if worker_pid(url) != pid:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the worker did not come back"
            time.sleep(0.1)
        wait_ready(url, process, err)
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(60) == 0
    lines = json_lines(err.read_text(encoding="utf-8"))
    assert out.read_text() == ""  # everything goes to stderr: journald keeps it
    said = [(line["logger"], line.get("worker"), line["msg"]) for line in lines]
    serve = [msg for logger, _, msg in said if logger == "ratscrew.serve"]
    assert serve[0].startswith("ratscrew ") and " (commit " in serve[0]
    assert any(msg.startswith("open files: ") for msg in serve)
    assert any(msg.startswith(f"worker 0 (pid {pid}) ended with -9: starting it again") for msg in serve)
    assert serve[-1] == "stopped"
    assert any(
        logger == "uvicorn.error" and worker == 0 and "Invalid HTTP request" in msg for logger, worker, msg in said
    )
    refused = [line for line in lines if "bad message" in line["msg"]]
    assert refused and refused[0]["room"] == made["code"] and refused[0]["worker"] == 0
    assert ("ratscrew.hosting.worker", 0, "stopped") in said


def test_what_reaches_stderr_without_logging_is_json_too(tmp_path: Path) -> None:
    script = """
import sys, threading, warnings
from ratscrew.hosting import logs
logs.to_stderr(3)
print("a library's own line", file=sys.stderr)
sys.stderr.write("two lines\\nwritten at once\\n")
warnings.warn("something old")
thread = threading.Thread(target=lambda: 1 / 0, name="helper")
thread.start()
thread.join()
raise ValueError("nobody caught this")
"""
    (tmp_path / "noisy.py").write_text(script)
    done = subprocess.run([sys.executable, tmp_path / "noisy.py"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and done.stdout == ""
    lines = json_lines(done.stderr)
    assert all(line["worker"] == 3 for line in lines)
    assert [line["msg"] for line in lines[:3]] == ["a library's own line", "two lines", "written at once"]
    assert lines[3]["logger"] == "py.warnings" and "something old" in lines[3]["msg"]
    assert "ZeroDivisionError" in lines[4]["error"] and "helper" in lines[4]["msg"]
    assert lines[5]["level"] == "critical" and "nobody caught this" in lines[5]["msg"]
    assert 'raise ValueError("nobody caught this")' in lines[5]["error"]  # the traceback, in one line
    assert len(lines) == 6


def test_json_stderr_passes_json_lines_and_wraps_the_rest() -> None:
    sink = io.StringIO()
    stream = JsonStderr(sink, worker=None)
    stream.write('{"msg": "already json"}\nhalf a ')
    stream.write("line\n[1, 2]\n")
    stream.write("no newline at the end")
    stream.flush()
    lines = sink.getvalue().splitlines()
    assert lines[0] == '{"msg": "already json"}'
    wrapped = [json.loads(line) for line in lines[1:]]
    assert [line["msg"] for line in wrapped] == ["half a line", "[1, 2]", "no newline at the end"]
    assert all(line["logger"] == "stderr" and "worker" not in line for line in wrapped)


def test_serve_that_cannot_start_says_why_in_a_json_line_and_exits_2(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        command = [sys.executable, "-m", "ratscrew", "serve", "--workers", "1", "--port", str(port)]
        done = subprocess.run([*command, "--data", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    last = json_lines(done.stderr)[-1]
    assert last["level"] == "error" and f"port {port} is already in use" in last["msg"]
