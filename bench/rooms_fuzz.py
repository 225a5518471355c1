#!/usr/bin/env python3
"""Fuzz rooms for a long time: 100,000 hostile messages to rooms in-process, then some over real websockets.

In-process, one room lives through the whole run (the harshest case for anything that grows): malformed,
wrongly typed, oversized and unknown messages, huge numbers, bad tokens, out-of-order, replayed and
other-seat messages, pages dropping and coming back, while four players keep playing game after game.
Memory is sampled as it goes (the process's RSS and the number of live Python objects; with
``--tracemalloc``, the bytes Python holds). Then a live server (``ratscrew play`` in a subprocess) gets bad
messages, a flood and abrupt drops over websockets on loopback.

Prints what was sent, how it was answered, crashes, unanswered messages, stuck and corrupted rooms, and the
memory samples. Exits 1 if anything crashed, went unanswered, stuck or corrupted.

Usage: python bench/rooms_fuzz.py [--messages 100000] [--rooms 1] [--ws 2000] [--seed 1] [--tracemalloc]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.rooms_fuzzing import RoomFuzzer, Tally, check_alive, check_room
from harness.rooms_fuzzing_ws import ws_fuzz
from ratscrew.rooms.core import HISTORY


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def sample(label: str, fuzzer: RoomFuzzer, traced: bool) -> tuple[int, int, int]:
    gc.collect()
    objects = len(gc.get_objects())
    held = tracemalloc.get_traced_memory()[0] // 1024 if traced else 0
    room = fuzzer.room
    game = room.game
    print(
        f"  {label:>9}  rss {rss_kib():>7} KiB  objects {objects:>8}"
        + (f"  traced {held:>6} KiB" if traced else "")
        + f"  | history {len(room.history):>3}/{HISTORY}  tokens {len(room.tokens)}  pages {len(room.pages)}"
        f"  game {room.game_no} at {game.cards if game else 0} cards, {len(game.actions) if game else 0} actions",
        flush=True,
    )
    return rss_kib(), objects, held


def in_process(messages: int, rooms: int, seed: int, traced: bool) -> Tally:
    total = Tally()
    per_room = messages // rooms
    for index in range(rooms):
        print(f"room {index + 1} of {rooms}: {per_room} messages", flush=True)
        fuzzer = RoomFuzzer(seed + index)
        chunk = max(1, per_room // 10)
        first: tuple[int, int, int] | None = None
        start = time.perf_counter()
        while fuzzer.tally.messages < per_room:
            fuzzer.run(min(chunk, per_room - fuzzer.tally.messages))
            mark = sample(f"{fuzzer.tally.messages}", fuzzer, traced)
            first = first or mark
        seconds = time.perf_counter() - start
        fuzzer.tally.corrupted.extend(check_room(fuzzer))
        fuzzer.tally.stuck.extend(check_alive(fuzzer))
        fuzzer.tally.corrupted.extend(check_room(fuzzer))
        last = sample("end", fuzzer, traced)
        assert first is not None
        print(
            f"  {fuzzer.tally.messages / seconds:.0f} messages/s; from the first sample to the end: "
            f"rss {last[0] - first[0]:+d} KiB, objects {last[1] - first[1]:+d}"
            + (f", traced {last[2] - first[2]:+d} KiB" if traced else ""),
            flush=True,
        )
        total.merge(fuzzer.tally)
    return total


def over_websockets(messages: int, seed: int) -> Tally:
    import subprocess

    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen(
            [sys.executable, "-m", "ratscrew", "play", "--no-browser", "--port", "0", "--data", data],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert server.stdout is not None and server.stderr is not None
        first = server.stdout.readline().strip()
        prefix = "ratscrew: serving on "
        if not first.startswith(prefix):
            server.kill()
            raise SystemExit(f"the server did not start: {first!r} {server.stderr.read()}")
        try:
            tally = asyncio.run(ws_fuzz(first[len(prefix) :], messages, seed))
        finally:
            server.terminate()
            server.wait(timeout=30)
        errors = server.stderr.read()
        if "Traceback" in errors:
            tally.crashes.append(f"the server logged a traceback:\n{errors[-3000:]}")
        return tally


def report(what: str, tally: Tally) -> bool:
    print(f"{what}: {tally.messages} messages sent")
    print("  by kind:   " + ", ".join(f"{k} {v}" for k, v in tally.sent.most_common()))
    print("  answers:   " + ", ".join(f"{k} {v}" for k, v in tally.answers.most_common()))
    if tally.refused_by_wire:
        print(f"  refused by the protocol reader before reaching the room: {tally.refused_by_wire}")
    if tally.games:
        print(f"  games started {tally.games}, reconnections {tally.reconnects}")
    print(
        f"  crashes {len(tally.crashes)}, unanswered {len(tally.unanswered)}, stuck {len(tally.stuck)}, "
        f"corrupted {len(tally.corrupted)}"
    )
    for problem in (tally.crashes + tally.unanswered + tally.stuck + tally.corrupted)[:10]:
        print("  !", problem)
    return not (tally.crashes or tally.unanswered or tally.stuck or tally.corrupted)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000, help="in-process messages in all")
    parser.add_argument("--rooms", type=int, default=1, help="rooms the in-process messages are shared by")
    parser.add_argument("--ws", type=int, default=2_000, help="messages over websockets (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tracemalloc", action="store_true", help="also count the bytes Python holds (slower)")
    args = parser.parse_args()
    if args.tracemalloc:
        tracemalloc.start()
    ok = report("in-process", in_process(args.messages, args.rooms, args.seed, args.tracemalloc))
    if args.ws:
        start = time.perf_counter()
        tally = over_websockets(args.ws, args.seed)
        ok = report(f"websockets ({time.perf_counter() - start:.0f} s)", tally) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
