"""Online rooms against a real server over real websockets on loopback: four players, a drop and a catch-up,
and restarts (SIGTERM and kill -9) in the middle of games."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from harness.players import Player, journaled, open_room, play
from harness.server import Server, start_server


def test_four_players_one_drops_mid_challenge_and_catches_up_event_by_event(live_server: Server) -> None:
    # No computer takes the dropped seat after its grace (a loaded machine can take that long to get here):
    # once the others stop, the room's events are only those they played and a won pile moving.
    players = open_room(live_server, 4, standins=False)
    first = players[0]
    play(players, lambda: first.state.get("owed", 0) > 0 and first.state["turn"] != 3)
    dropped = players[3]
    dropped.pump(0.2)
    seen = dropped.last_seq
    dropped.close()
    rest = players[:3]
    target = first.state["cards"] + 6
    play(rest, lambda: first.state["cards"] >= target or first.state["turn"] == 3)
    back = Player(live_server, dropped.code, dropped.token, since=seen)
    back.seqs = []
    back.wait_for(lambda: bool(back.room), "the welcome")
    assert back.yours == [3]
    # The welcome counts every event since the page's last one (a won pile may still move after it: a live
    # event then), and they follow it exactly, in order; the page then stays in step, nothing twice.
    welcome = next(m for m in back.messages if m["type"] == "welcome")
    missed, at_welcome = welcome["missed"], welcome["seq"]
    assert at_welcome >= first.last_seq and missed == at_welcome - seen > 0
    back.wait_for(lambda: back.last_seq >= at_welcome, "the missed events")
    assert back.seqs[:missed] == list(range(seen + 1, at_welcome + 1))  # exactly the missed events, in order
    deadline = time.monotonic() + 30
    while back.last_seq != first.last_seq:  # both have seen the room's last event: the same table
        assert time.monotonic() < deadline, (back.last_seq, first.last_seq)
        first.pump()
        back.pump()
    assert back.seqs == list(range(seen + 1, back.last_seq + 1))
    assert back.state["stack_sizes"] == first.state["stack_sizes"]
    # Everyone sees each player's measured delay (the server times each link every few seconds).
    first.wait_for(lambda: all(isinstance(s["latency_ms"], int) for s in first.room["seats"][:3]), "the delays")
    for player in [*rest, back]:
        player.close()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "kill-9"])
def test_a_restart_mid_game_resumes_every_room(tmp_path: Path, sig: int) -> None:
    server = start_server(tmp_path)
    try:
        online = open_room(server, 2)
        # Stop where nothing is waiting to happen (no won pile about to move): the state must be the same after.
        play(online, lambda: online[0].state.get("cards", 0) >= 5 and online[0].state.get("collect_pending") is None)
        status, solo = server.post(
            "/api/games", {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}], "seed": 4}
        )
        assert status == 200
        lone = Player(server, solo["id"], solo["token"])
        lone.wait_for(lambda: bool(lone.state), "the game vs the computer")
        lone.send({"type": "flip", "seat": 0})
        lone.wait_for(lambda: lone.state.get("cards", 0) >= 1, "the first card")
        # play() stopped with no flip on its way and no won pile waiting to move: the room stands still.
        before_online = dict(online[0].state)
        assert before_online["collect_pending"] is None
        # The journal's writer commits on its own thread a few milliseconds after each action; on a loaded
        # machine that can take longer, so wait until the file holds every card the pages were shown.
        journaled(tmp_path, online[0].code, before_online["cards"])
        lone_cards = lone.state["cards"]
        journaled(tmp_path, lone.code, lone_cards)
        for player in [*online, lone]:
            player.close()
        server.stop(sig)
        server = start_server(tmp_path)
        again = [Player(server, p.code, p.token, since=p.last_seq) for p in online]
        for player in again:
            player.wait_for(lambda p=player: bool(p.state), "the resumed room")
        assert again[0].state["cards"] == before_online["cards"]
        assert again[0].state["stack_sizes"] == before_online["stack_sizes"]
        assert [p.yours for p in again] == [[0], [1]]  # the tokens still hold their seats
        assert again[0].room["phase"] == "playing"
        play(again, lambda: again[0].state.get("cards", 0) >= before_online["cards"] + 2)
        back = Player(server, lone.code, lone.token)
        back.wait_for(lambda: bool(back.state), "the resumed game vs the computer")
        assert back.yours == [0] and back.state["cards"] >= lone_cards
        for player in [*again, back]:
            player.close()
    finally:
        server.stop()
