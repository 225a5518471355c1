"""The Play-now routes (``web/playnow.py``) in-process, their rooms and limits on a clock the test moves: each
mistake refused in one line naming its field, rated pools for accounts only, two accounts seated at one
table, nobody acting for someone else (another's queue token, another's ticket), a cross-site request
refused, guessed tokens counted like wrong room codes, joins limited per address, leaving, and computers
after 20 s at an unrated table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from harness.accounts import Browser, account_client, app_state
from ratscrew.limits import Caps, Limits, LocalLimits
from ratscrew.rooms.journal import SqliteJournal
from ratscrew.rooms.runner import Rooms
from ratscrew.rooms.wire import SeatKind
from ratscrew.table.clock import ManualClock
from ratscrew.web.app import Setup
from ratscrew.web.tally import Tally

DUEL = {"size": "2", "rated": False, "preset": "standard"}
RATED = {"size": "2", "rated": True, "preset": "standard"}


class VirtualPlay(Setup):
    """``ratscrew play``, its rooms, pools and limits on a clock the test moves."""

    def __init__(self, clock: ManualClock, caps: Caps | None = None) -> None:
        self.clock = clock
        self.caps = caps

    def rooms(self, journal: SqliteJournal, tally: Tally) -> Rooms:
        return Rooms(journal, clock=self.clock)

    def limits(self, rooms: Rooms) -> Limits:
        return LocalLimits(self.clock, self.caps)


class Site:
    def __init__(self, client: TestClient, clock: ManualClock) -> None:
        self.client = client
        self.clock = clock

    def advance(self, ms: int) -> None:
        """Time passes on the app's own loop (its alarms fire there, as the event loop's would)."""
        portal = self.client.portal
        assert portal is not None
        portal.call(self.clock.advance, ms)

    def browser(self, address: str = "192.0.2.1") -> Browser:
        return Browser(self.client, address=address)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    clock = ManualClock()
    with account_client(tmp_path, VirtualPlay(clock)) as client:
        yield Site(client, clock)


def said(response: Any) -> tuple[int, str, str | None]:
    doc = response.json()
    return response.status_code, doc.get("error", ""), doc.get("field")


@pytest.mark.parametrize(
    ("body", "status", "field", "words"),
    [
        ({"size": "5"}, 400, "size", 'size must be "2" or "3-4" (players at the table), got \'5\''),
        ({"rated": False}, 400, "size", 'size must be "2" or "3-4" (players at the table), got null'),
        ({**DUEL, "rated": "yes"}, 400, "rated", "rated must be true or false, got text"),
        ({**DUEL, "preset": "chess"}, 400, "preset", "preset must be one of standard, bicycle"),
        ({**DUEL, "colour": "red"}, 400, "colour", "unknown field 'colour'"),
        ({**DUEL, "token": "short"}, 400, "token", "token is not a queue token"),
        ({**DUEL, "token": 12}, 400, "token", "token must be text, got a number"),
        ({**DUEL, "name": "x" * 40}, 400, None, "a name is too long (40 characters): at most 24"),
        (RATED, 403, "rated", "rated games are for signed-in players: sign in, or ask for an unrated table"),
    ],
)
def test_each_mistake_is_refused_in_one_line_naming_its_field(
    site: Site, body: dict[str, object], status: int, field: str | None, words: str
) -> None:
    got_status, error, got_field = said(site.browser().post("/api/playnow/join", body))
    assert (got_status, got_field) == (status, field)
    assert error.startswith(words) and "\n" not in error and "Traceback" not in error


def test_a_body_that_is_not_json_and_a_guest_without_a_token_are_refused(site: Site) -> None:
    response = site.client.post("/api/playnow/join", content=b"size=2", headers={"Content-Type": "text/plain"})
    assert response.status_code == 400 and "Content-Type: application/json" in response.json()["error"]
    status, error, field = said(site.browser().post("/api/playnow/where", {}))
    assert (status, field) == (400, "token") and error.startswith("token is missing: sign in, or send")


def test_two_accounts_press_play_now_and_are_seated_at_one_table(site: Site) -> None:
    ann, bob = site.browser("192.0.2.1"), site.browser("192.0.2.2")
    ann.sign_up("ann_p")
    bob.sign_up("bob_p")
    first = ann.post("/api/playnow/join", RATED).json()
    assert first["where"] == "waiting" and first["token"] is None and first["pool"] == RATED
    assert first["waited_s"] == 0 and first["computers"] is False
    second = bob.post("/api/playnow/join", RATED).json()
    assert second["where"] == "placed"  # seated at once: Ann was waiting
    mine = ann.post("/api/playnow/where", {}).json()
    assert mine["where"] == "placed" and mine["pool"] == RATED
    tickets = mine["ticket"], second["ticket"]
    assert tickets[0]["room"] == tickets[1]["room"] and {t["seat"] for t in tickets} == {0, 1}
    assert tickets[0]["token"] != tickets[1]["token"]
    room = app_state(site.client).rooms.rooms[tickets[0]["room"]].core
    assert [s.name for s in room.seats] == ["ann_p", "bob_p"] and room.room_view().rated
    assert room.seats_of(tickets[0]["token"]) == frozenset({tickets[0]["seat"]})
    again = ann.post("/api/playnow/join", RATED)  # at a table already: one place at a time
    assert again.status_code == 409 and again.json()["code"] == "already_playing"


def test_a_guest_waits_with_a_token_only_their_page_holds_and_nobody_acts_for_anyone_else(site: Site) -> None:
    guest = site.browser("192.0.2.3")
    joined = guest.post("/api/playnow/join", {**DUEL, "name": "Zoé"}).json()
    token = joined["token"]
    assert joined["where"] == "waiting" and isinstance(token, str) and len(token) >= 24
    assert guest.post("/api/playnow/where", {"token": token}).json()["where"] == "waiting"

    # A signed-in account sending the guest's token is refused: its account is its only place in the queue.
    bob = site.browser("192.0.2.4")
    bob.sign_up("bob_q")
    status, error, field = said(bob.post("/api/playnow/where", {"token": token}))
    assert (status, field) == (400, "token") and "you are signed in" in error
    assert bob.post("/api/playnow/where", {}).json()["where"] == "nowhere"
    assert bob.post("/api/playnow/leave", {}).json()["where"] == "nowhere"

    # Another guest's own token says nothing of the first one, and leaving with it leaves nobody.
    other = site.browser("192.0.2.5")
    other_token = other.post("/api/playnow/join", {**DUEL, "preset": "bicycle"}).json()["token"]
    assert other.post("/api/playnow/leave", {"token": other_token}).json()["where"] == "nowhere"
    assert other.post("/api/playnow/leave", {"token": other_token}).status_code == 404
    assert guest.post("/api/playnow/where", {"token": token}).json()["where"] == "waiting"

    # Seated together, each sees their own ticket only.
    ann = site.browser("192.0.2.6")
    ann.sign_up("ann_q")
    ann_ticket = ann.post("/api/playnow/join", DUEL).json()["ticket"]
    guest_ticket = guest.post("/api/playnow/where", {"token": token}).json()["ticket"]
    assert ann_ticket["room"] == guest_ticket["room"] and ann_ticket["token"] != guest_ticket["token"]
    assert bob.post("/api/playnow/where", {}).json()["ticket"] is None


def test_a_cross_site_request_is_refused_and_so_is_one_without_the_session_s_token(site: Site) -> None:
    ann = site.browser()
    ann.sign_up("ann_x")
    evil = ann.post("/api/playnow/join", RATED, headers={"Origin": "https://evil.example"})
    assert evil.status_code == 403 and evil.json()["code"] == "cross_site"
    forged = ann.post("/api/playnow/join", RATED, token=False)
    assert forged.status_code == 403 and forged.json()["code"] == "csrf"
    assert ann.post("/api/playnow/where", {}).json()["where"] == "nowhere"  # neither joined her


def test_guessed_queue_tokens_count_like_wrong_room_codes(site: Site) -> None:
    guest = site.browser("192.0.2.7")
    token = guest.post("/api/playnow/join", DUEL).json()["token"]
    prober = site.browser("192.0.2.8")
    for i in range(20):
        wrong = prober.post("/api/playnow/where", {"token": f"{i:02d}" + "x" * 30})
        assert wrong.status_code == 404 and wrong.json()["code"] == "nowhere"
    # The address has no lookups left: even a real token is answered like any other, and tells nothing.
    assert prober.post("/api/playnow/where", {"token": token}).status_code == 429
    assert guest.post("/api/playnow/where", {"token": token}).json()["where"] == "waiting"


def test_joins_are_limited_per_address(tmp_path: Path) -> None:
    clock = ManualClock()
    with account_client(tmp_path, VirtualPlay(clock, Caps(rooms_per_hour=2))) as client:
        guest = Browser(client, address="192.0.2.9")
        for _ in range(2):
            token = guest.post("/api/playnow/join", DUEL).json()["token"]
            assert guest.post("/api/playnow/leave", {"token": token}).json()["where"] == "nowhere"
        refused = guest.post("/api/playnow/join", DUEL)
        assert refused.status_code == 429 and "too many tables asked for from your address" in refused.json()["error"]
        assert Browser(client, address="192.0.2.10").post("/api/playnow/join", DUEL).status_code == 200


def test_leaving_is_one_request_and_computers_come_after_twenty_seconds_unrated(site: Site) -> None:
    ann = site.browser()
    ann.sign_up("ann_c")
    assert ann.post("/api/playnow/join", RATED).json()["where"] == "waiting"
    assert ann.post("/api/playnow/leave", {}).json()["where"] == "nowhere"
    assert ann.post("/api/playnow/join", RATED).json()["where"] == "waiting"
    early = ann.post("/api/playnow/computers", {})
    assert early.status_code == 409 and early.json()["code"] == "too_early"
    for _ in range(4):  # her page asks where she stands as she waits: she is not taken for gone
        site.advance(5_000)
        answer = ann.post("/api/playnow/where", {}).json()
    assert answer["where"] == "waiting" and answer["waited_s"] == 20 and answer["computers"] is True
    placed = ann.post("/api/playnow/computers", {}).json()
    assert placed["where"] == "placed" and placed["pool"]["rated"] is False
    room = app_state(site.client).rooms.rooms[placed["ticket"]["room"]].core
    assert [s.kind for s in room.seats] == [SeatKind.HUMAN, SeatKind.BOT] and not room.room_view().rated
