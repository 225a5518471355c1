"""Rooms in-process on virtual time: fair races over links of different speeds, lying pages, reconnecting,
stand-ins, the lobby, and what a page may see. Nothing here sleeps."""

from __future__ import annotations

import random
from typing import Any

import pytest

from harness.rooms_sim import SimNet, SimPage, slapper
from ratscrew.rooms.core import GRACE_MS, HISTORY, HOST_GRACE_MS, RoomCore
from ratscrew.rooms.fairness import HARD_CAP_MS, HUMAN_FLOOR_MS, LagEstimate, Quota, credit, decision_window
from ratscrew.rooms.seating import SeatInfo
from ratscrew.rooms.wire import Phase, SeatKind
from ratscrew.rules import Rules
from ratscrew.table.clock import VirtualClock

RULES = Rules.build("standard")


def two_player_room(seed: int, clock: VirtualClock) -> tuple[RoomCore, str, str]:
    room = RoomCore(
        "ROOM01", clock, seats=[SeatInfo(SeatKind.HUMAN, "Far"), SeatInfo(SeatKind.HUMAN, "Near")], rules=RULES
    )
    far, near = room.issue_token({0}), room.issue_token({1})
    room.start_game(seed=seed)
    return room, far, near


def racer(seat: int, reaction: dict[int, int]) -> Any:
    """A page that slaps every slappable card after ``reaction[card]`` ms (reported honestly), and otherwise
    turns its card 300 ms after it becomes due."""
    return slapper(seat, RULES, lambda card: reaction.setdefault(card, 0))


def race_wins(seeds: range) -> tuple[int, int]:
    """Games between "Far", behind 150 ms of extra round trip (75 ms each way, jittered), and "Near" (10 ms),
    where Far always reacts 40 ms sooner: how many slap races each won."""
    far_wins = near_wins = 0
    for seed in seeds:
        clock = VirtualClock()
        room, far_token, near_token = two_player_room(seed, clock)
        rng = random.Random(seed)
        far_rt: dict[int, int] = {}
        near_rt: dict[int, int] = {}
        for card in range(1, 3000):
            base = rng.randint(250, 450)
            far_rt[card], near_rt[card] = base, base + 40
        net = SimNet(room, clock, seed)
        net.connect(SimPage(1, 80, far_token, jitter=0.1, script=racer(0, far_rt)))
        net.connect(SimPage(2, 5, near_token, jitter=0.1, script=racer(1, near_rt)))
        net.run_until(10_000)  # the delay estimates settle before the first card
        net.send(net.pages[1], {"type": "flip", "seat": 0})
        game = room.game
        assert game is not None
        net.run_while(lambda game=game: not game.over, 900_000)  # type: ignore[misc]
        for adjudication in room.adjudications:
            assert adjudication.credit.compensation <= HARD_CAP_MS
            if adjudication.verdict == "slap_correct":
                far_wins += adjudication.seat == 0
                near_wins += adjudication.seat == 1
    return far_wins, near_wins


def test_a_faster_reaction_over_a_slower_link_wins_the_race() -> None:
    far_wins, near_wins = race_wins(range(30))
    races = far_wins + near_wins
    assert races >= 200, races
    assert far_wins / races >= 0.95, (far_wins, near_wins)


def test_without_compensation_the_slower_link_loses_those_races(monkeypatch: pytest.MonkeyPatch) -> None:
    # The control for the test above: judged at arrival, Far's 40 ms head start is eaten by its link.
    import ratscrew.rooms.play as play_module

    def arrival(**kwargs: Any) -> Any:
        return credit(**{**kwargs, "reaction": None})

    monkeypatch.setattr(play_module, "credit", arrival)
    far_wins, near_wins = race_wins(range(8))
    assert near_wins > 3 * far_wins, (far_wins, near_wins)


def test_a_page_that_lies_gains_at_most_the_cap() -> None:
    lag = LagEstimate()
    for _ in range(20):
        lag.observe(10)
    quota = Quota()
    # Claims a superhuman reaction: no compensation at all.
    assert (
        credit(received=1000, sent=500, reaction=HUMAN_FLOOR_MS - 1, lag=lag, quota=quota, window=150).compensation == 0
    )
    # Claims a long lag on a fast link: bounded by what the server measured.
    honest = credit(received=1000, sent=500, reaction=480, lag=lag, quota=quota, window=150)
    liar = credit(received=1000, sent=500, reaction=100, lag=lag, quota=quota, window=150)
    assert liar.compensation == lag.allowance() < HARD_CAP_MS
    assert liar.compensation - honest.compensation <= HARD_CAP_MS
    # On a link the server itself measured as very slow: still never more than the cap.
    slow = LagEstimate()
    for _ in range(50):
        slow.observe(5000)
    assert (
        credit(received=9000, sent=0, reaction=100, lag=slow, quota=Quota(), window=10_000).compensation == HARD_CAP_MS
    )
    # Claims lag on every card: the quota runs dry.
    drained = Quota()
    spent = [
        credit(received=900, sent=0, reaction=200, lag=slow, quota=drained, window=HARD_CAP_MS).compensation
        for _ in range(5)
    ]
    assert spent[:2] == [HARD_CAP_MS, HARD_CAP_MS] and spent[-1] == 0


def test_the_estimate_rises_slowly_and_falls_fast() -> None:
    lag = LagEstimate()
    lag.observe(40)
    lag.observe(400)
    assert lag.rtt_ms is not None and lag.rtt_ms < 100
    for _ in range(40):
        lag.observe(400)
    assert lag.rtt_ms > 350
    lag.observe(40)
    assert lag.rtt_ms < 250
    assert decision_window([]) >= 34 and decision_window([10_000]) == HARD_CAP_MS


def test_a_page_that_reconnects_gets_exactly_the_events_it_missed() -> None:
    clock = VirtualClock()
    room, far_token, near_token = two_player_room(5, clock)
    reactions: dict[int, int] = {}
    net = SimNet(room, clock)
    a = SimPage(1, 20, far_token, script=racer(0, reactions))
    b = SimPage(2, 20, near_token, script=racer(1, reactions))
    for card in range(1, 3000):
        reactions[card] = 400
    net.connect(a)
    net.connect(b)
    net.run_until(1000)
    net.send(a, {"type": "flip", "seat": 0})
    net.run_until(8000)
    seen = b.last_seq
    assert seen > 5
    net.disconnect(b)
    net.run_until(12_000)  # Far keeps playing; Near's seat waits for them (grace period)
    assert room.seq > seen
    b.received.clear()
    b.script = None
    net.connect(b, since=seen)
    net.run_until(12_200)
    welcome = next(m for m in b.received if m["type"] == "welcome")
    replay = next(m for m in b.received if m["type"] == "events")
    assert welcome["missed"] == len(replay["items"]) > 0
    assert [i["seq"] for i in replay["items"]] == list(range(seen + 1, seen + 1 + len(replay["items"])))
    assert welcome["yours"] == [1]


def test_too_far_behind_gets_the_whole_state_and_says_so() -> None:
    clock = VirtualClock()
    room, _, token = two_player_room(5, clock)
    room.seq = HISTORY * 3  # as if many events went by
    net = SimNet(room, clock)
    page = SimPage(1, 10, token)
    net.connect(page, since=3)
    net.run_until(100)
    welcome = next(m for m in page.received if m["type"] == "welcome")
    assert welcome["missed"] is None and welcome["state"]["stack_sizes"] == [26, 26]
    assert page.last_seq == room.seq


def test_a_dropped_player_is_held_by_a_computer_after_the_grace_period() -> None:
    clock = VirtualClock()
    room, far_token, near_token = two_player_room(9, clock)
    net = SimNet(room, clock)
    a = SimPage(1, 10, far_token)
    b = SimPage(2, 10, near_token)
    net.connect(a)
    net.connect(b)
    net.run_until(500)
    net.disconnect(a)
    net.run_until(500 + GRACE_MS - 100)
    assert room.table is not None and 0 not in room.table.bots
    net.run_until(500 + GRACE_MS + 2000)
    assert 0 in room.table.bots and room.seats[0].standin
    seats = room.lobby()["seats"]
    assert isinstance(seats, list) and seats[0]["standin"] is True  # everyone sees who is holding the seat
    a.received.clear()
    net.connect(a, since=a.last_seq)
    net.run_until(clock.now() + 200)
    assert 0 not in room.table.bots and not room.seats[0].standin


def test_spectators_see_the_table_but_cannot_act_or_see_a_stack() -> None:
    clock = VirtualClock()
    room, _, _ = two_player_room(3, clock)
    net = SimNet(room, clock)
    watcher = SimPage(1, 10, None)
    net.connect(watcher)
    net.run_until(100)
    welcome = next(m for m in watcher.received if m["type"] == "welcome")
    assert welcome["yours"] == [] and "hands" not in welcome["state"]
    for forged in ({"type": "flip", "seat": 0}, {"type": "slap", "seat": 1, "card": 0, "rt": 300}):
        net.send(watcher, forged)
    net.run_until(300)
    assert [m["code"] for m in watcher.received if m["type"] == "rejected"] == ["not_yours", "not_yours"]
    assert room.game is not None and room.game.cards == 0


def test_burned_cards_are_not_named_to_anyone() -> None:
    clock = VirtualClock()
    room, token, _ = two_player_room(3, clock)
    net = SimNet(room, clock)
    page = SimPage(1, 10, token)
    net.connect(page)
    net.run_until(100)
    net.send(page, {"type": "slap", "seat": 0, "card": 0, "rt": 500})  # nothing to slap: a wrong slap
    net.run_until(400)
    wrong = [
        i["event"]
        for m in page.received
        if m["type"] == "events"
        for i in m["items"]
        if i["event"]["kind"] == "wrong_slap"
    ]
    assert wrong and wrong[0]["burned"] == [None]


def last_room(page: SimPage) -> dict[str, Any]:
    """The room as the last message that carried it showed it to ``page``."""
    room: dict[str, Any] = next(m["room"] for m in reversed(page.received) if "room" in m)
    return room


def lobby_room(clock: VirtualClock) -> tuple[RoomCore, str]:
    room = RoomCore("LOBBY1", clock, seats=[SeatInfo(SeatKind.HUMAN, "Host"), SeatInfo(), SeatInfo()], rules=RULES)
    room.tokens[room.host_token] = frozenset({0})
    return room, room.host_token


def test_the_lobby_seats_people_and_computers_and_only_the_host_changes_the_rules() -> None:
    clock = VirtualClock()
    room, host_token = lobby_room(clock)
    net = SimNet(room, clock)
    host = SimPage(1, 10, host_token)
    guest = SimPage(2, 30, None)
    net.connect(host)
    net.connect(guest)
    net.run_until(100)
    net.send(guest, {"type": "sit", "seat": 1, "name": "Guest <b>"})
    net.run_until(200)
    seated = next(m for m in guest.received if m["type"] == "seated")
    assert seated["seats"] == [1] and room.seats_of(seated["token"]) == frozenset({1})
    assert room.seats[1].name == "Guest <b>"  # kept as typed: pages show names as text, never as markup
    net.send(guest, {"type": "rules", "rules": {"preset": "bicycle"}})
    net.send(guest, {"type": "start"})
    net.run_until(300)
    assert [m["code"] for m in guest.received if m["type"] == "rejected"] == ["not_host", "not_host"]
    net.send(host, {"type": "rules", "rules": {"preset": "bicycle"}})
    net.send(host, {"type": "bot", "seat": 2, "level": "hard", "name": "Ordinateur 3"})
    net.send(host, {"type": "start"})  # nobody is ready yet
    net.run_until(400)
    assert room.rules.preset == "bicycle" and room.phase is Phase.LOBBY
    assert room.seats[2].name == "Ordinateur 3"  # named in the host's language
    assert any(m["type"] == "rejected" and m["code"] == "not_ready" for m in host.received)
    for page in (host, guest):
        net.send(page, {"type": "ready", "ready": True})
    net.run_until(500)
    net.send(host, {"type": "start"})
    net.run_until(600)
    assert room.phase.value == "playing"
    lobby = [m for m in guest.received if m["type"] == "lobby"][-1]["room"]
    assert [s["kind"] for s in lobby["seats"]] == ["human", "human", "bot"]
    assert lobby["seats"][1]["latency_ms"] is not None or lobby["seats"][1]["connected"]


@pytest.mark.parametrize(
    "message",
    [
        {"type": "flip", "seat": 0},
        {"type": "rematch"},
        {"type": "resync", "since": 10**6},
    ],
)
def test_out_of_order_messages_are_refused_and_the_room_goes_on(message: dict[str, object]) -> None:
    clock = VirtualClock()
    room, host_token = lobby_room(clock)
    net = SimNet(room, clock)
    host = SimPage(1, 10, host_token)
    net.connect(host)
    net.run_until(100)
    net.send(host, message)
    net.send(host, {"type": "ping", "id": 7})
    net.run_until(300)
    assert any(m["type"] == "pong" and m["id"] == 7 for m in host.received)
    assert room.phase is Phase.LOBBY


def test_a_held_flip_that_can_no_longer_be_played_is_refused_not_lost() -> None:
    # Two flips sent together: both are the due seat's when they arrive, but the table holds them for its
    # decision window, and by the second one's landing time the turn has passed. Its page is told so.
    clock = VirtualClock()
    room, far, _near = two_player_room(3, clock)
    net = SimNet(room, clock, 3)
    page = SimPage(1, 20, far)
    net.connect(page)
    net.run_until(5_000)
    assert room.table is not None and room.table.hold_ms > 0 and room.game is not None
    assert room.game.turn == 0
    net.send(page, {"type": "flip", "seat": 0})
    net.send(page, {"type": "flip", "seat": 0}, 1)
    net.run_until(6_000)
    assert room.game.cards == 1
    refused = [m for m in page.received if m["type"] == "rejected"]
    assert [(m["code"], m["seat"]) for m in refused] == [("not_your_turn", 0)]
    assert "turn passed" in refused[0]["reason"]


def test_a_host_gone_from_the_lobby_hands_the_room_to_the_next_seated_player() -> None:
    clock = VirtualClock()
    room, host_token = lobby_room(clock)
    net = SimNet(room, clock)
    host, guest = SimPage(1, 10, host_token), SimPage(2, 30, None)
    net.connect(host)
    net.connect(guest)
    net.run_until(100)
    net.send(guest, {"type": "sit", "seat": 1, "name": "Guest"})
    net.run_until(200)
    seated = next(m for m in guest.received if m["type"] == "seated")
    other_tab = SimPage(4, 20, seated["token"])  # the guest has the room open twice: both tabs follow
    net.connect(other_tab)
    net.run_until(300)
    assert last_room(guest)["host_seat"] == 0  # every page is told which seat is the host's
    net.disconnect(host)
    net.run_until(200 + HOST_GRACE_MS - 1_000)  # a host who is only reloading is still the host
    net.send(guest, {"type": "start"})
    net.run_until(200 + HOST_GRACE_MS + 1_000)
    assert [m["code"] for m in guest.received if m["type"] == "rejected"] == ["not_host"]
    assert last_room(guest)["host_seat"] == last_room(other_tab)["host_seat"] == 1  # the mark moved with the room
    assert [m["host"] for m in guest.received if m["type"] == "welcome"] == [False, True]
    assert [m["host"] for m in other_tab.received if m["type"] == "welcome"] == [False, True]
    net.send(guest, {"type": "bot", "seat": 0, "level": "easy"})  # the old host's seat is still theirs
    net.send(guest, {"type": "rules", "rules": {"preset": "bicycle"}})
    net.run_until(clock.now() + 500)
    assert room.rules.preset == "bicycle" and room.seats[0].kind is SeatKind.HUMAN
    back = SimPage(3, 10, host_token)  # the old host comes back: a player in seat 1, not the host
    net.connect(back)
    net.run_until(clock.now() + 500)
    welcome = next(m for m in back.received if m["type"] == "welcome")
    assert welcome["yours"] == [0] and welcome["host"] is False


def test_a_lobby_left_by_its_host_with_nobody_to_take_over_does_not_spin() -> None:
    # The hand-over is due but nobody seated is there: no deadline in the past (the room's task would wake at
    # once, again and again); the first seated player who comes is handed the room.
    clock = VirtualClock()
    room, host_token = lobby_room(clock)
    net = SimNet(room, clock)
    host = SimPage(1, 10, host_token)
    net.connect(host)
    net.run_until(100)
    net.disconnect(host)
    net.run_until(100 + HOST_GRACE_MS + 5_000)
    due = room.next_deadline()
    assert due is None or due > clock.now()
    guest = SimPage(2, 10, None)
    net.connect(guest)
    net.run_until(clock.now() + 200)
    net.send(guest, {"type": "sit", "seat": 1, "name": "Late"})
    net.run_until(clock.now() + 200)
    assert [m["host"] for m in guest.received if m["type"] == "welcome"] == [False, True]
