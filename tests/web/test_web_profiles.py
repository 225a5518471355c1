"""The profile and the leaderboard over HTTP (``web/profiles.py``), with players made the real way: accounts
signed up through their routes, real games of a room noted and rated by the ratings' own code. What each
answer holds, the refusals, an unknown name costing a lookup, and nothing of an account's id, a game's id or
a password's hash in any answer."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from harness.accounts import Browser, account_client, app_state
from harness.lookups import app_client, spend
from harness.profiles import Finished, finish, room_game
from ratscrew.ladder.chances import chances, missed_by
from ratscrew.ladder.places import RatedResult
from ratscrew.ladder.ratings import Rating, SizeClass
from ratscrew.ladder.store import RatingStore
from ratscrew.learn.drills import slap_patterns
from ratscrew.patterns import PATTERN_KEYS
from ratscrew.rules import Rules
from ratscrew.table.clock import ManualClock
from ratscrew.web.profiles import drill_for

FIRST_ID = 7_654_320  # accounts are numbered from here on: an id that leaked would be found in the text


def number_accounts_from(path: Path, first: int) -> None:
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('accounts', ?)", (first,))


@pytest.fixture(scope="module")
def games() -> list[Finished]:
    played = [room_game(Rules.build("standard"), ["medium", "hard"], seed, code=f"DUEL{seed}") for seed in range(4)]
    played.append(room_game(Rules.build("bicycle"), ["hard", "medium", "expert"], 9, code="TRIO9"))
    return played


@pytest.fixture
def client(tmp_path: Path, games: list[Finished]) -> Iterator[TestClient]:
    with account_client(tmp_path) as test_client:
        path = app_state(test_client).store.path
        number_accounts_from(path, FIRST_ID)
        for name in ("Ann_1", "Bob_2", "Cy_3", "Dee_4"):
            assert Browser(test_client).sign_up(name).status_code == 200
        ann, bob, cy = FIRST_ID + 1, FIRST_ID + 2, FIRST_ID + 3
        for game in games[:4]:
            finish(path, game, [ann, bob], rated=True)
        finish(path, games[4], [cy, ann, None], rated=False)
        yield test_client


def test_a_profile_says_ratings_games_slaps_and_the_patterns_missed_most(
    client: TestClient, games: list[Finished]
) -> None:
    answer = client.get("/api/players/ann_1")  # names are found whatever their case
    assert answer.status_code == 200
    doc = answer.json()
    assert doc["name"] == "Ann_1"
    path = app_state(client).store.path
    standing = RatingStore(path).standings(FIRST_ID + 1)
    ((size, rating),) = [(s.value, st.rating) for s, st in standing.items()]
    (shown,) = doc["ratings"]
    assert (shown["size_class"], shown["shown"], shown["provisional"], shown["games"]) == (
        size,
        rating.shown,
        rating.provisional,
        4,
    )
    assert [point["place"] for point in shown["history"]] == [1 if g.summary.winner == 0 else 2 for g in games[:4]]
    assert shown["history"][-1]["shown"] == rating.shown
    assert shown["history"][0]["change"] == shown["history"][0]["shown"] - Rating().shown
    wins = sum(g.summary.winner == 0 for g in games[:4])
    assert doc["games"] == [
        {"size_class": "2", "games": 4, "wins": wins, "rated": 4},
        {"size_class": "3+", "games": 1, "wins": int(games[4].summary.winner == 1), "rated": 0},
    ]
    seats = [(g, 0) for g in games[:4]] + [(games[4], 1)]
    assert doc["slaps_won"] == sum(g.summary.players[s].piles_by_slap for g, s in seats)
    assert doc["wrong_slaps"] == sum(g.summary.players[s].wrong_slaps for g, s in seats)
    assert doc["reactions"] == sum(len(g.summary.players[s].reaction_ms) for g, s in seats)
    expected: dict[str, list[int]] = {}
    for game, seat in seats:
        for pattern, (had, let_go) in missed_by(chances(game.record), seat).items():
            tally = expected.setdefault(pattern, [0, 0])
            tally[0] += had
            tally[1] += let_go
    assert {p["pattern"]: [p["chances"], p["missed"]] for p in doc["patterns"]} == expected
    assert [p["missed"] for p in doc["patterns"]] == sorted((p["missed"] for p in doc["patterns"]), reverse=True)
    missed = {p["pattern"]: p for p in doc["patterns"]}
    assert missed["sandwich"]["drill"] == {"kind": "stream", "preset": "standard"}
    assert missed["top_bottom"]["drill"] == {"kind": "stream", "preset": "bicycle"}  # only bicycle's drills deal it


def test_every_pattern_leads_to_a_drill_that_deals_it_or_to_none() -> None:
    undrilled = []
    for pattern in PATTERN_KEYS:
        link = drill_for(pattern)
        if link is None:
            undrilled.append(pattern)
        else:
            assert pattern in slap_patterns(Rules.build(link.preset)), pattern
    # What no preset's drills deal (house rules only): the profile says so rather than link to a drill without it.
    assert undrilled == ["divorce", "joker", "bigmac", "flush", "six_nine", "top_bottom_ten"]


def test_a_player_with_no_games_yet_has_an_empty_profile(client: TestClient) -> None:
    doc = client.get("/api/players/Dee_4").json()
    assert doc == {
        "name": "Dee_4",
        "ratings": [],
        "games": [],
        "median_reaction_ms": None,
        "reactions": 0,
        "slaps_won": 0,
        "wrong_slaps": 0,
        "chances": 0,
        "missed": 0,
        "patterns": [],
    }


def test_the_leaderboards_rank_by_the_shown_rating_with_provisional_players_apart(client: TestClient) -> None:
    path = app_state(client).store.path
    ratings = RatingStore(path)
    two = client.get("/api/leaderboard?size=2").json()
    assert two["size_class"] == "2" and two["established"] == []  # four games leave everyone provisional
    shown = {
        name: ratings.standings(FIRST_ID + i)[SizeClass.TWO].rating.shown for i, name in ((1, "Ann_1"), (2, "Bob_2"))
    }
    expected = sorted(shown, key=lambda name: -shown[name])
    assert [p["name"] for p in two["provisional"]] == expected
    assert two["provisional"][0] == {"name": expected[0], "shown": shown[expected[0]], "games": 4}
    # Settled players, made by 30 rated games that Cy wins two times in three: ranked, best first, apart.
    for n in range(30):
        cy, dee = FIRST_ID + 3, FIRST_ID + 4
        winner, loser = (cy, dee) if n % 3 else (dee, cy)
        ratings.record(RatedResult(f"S{n}", SizeClass.TWO, ((winner, 1), (loser, 2))))
    two = client.get("/api/leaderboard?size=2").json()
    assert [p["name"] for p in two["established"]] == ["Cy_3", "Dee_4"]
    assert two["established"][0]["shown"] > two["established"][1]["shown"]
    assert [p["name"] for p in two["provisional"]] == expected
    # The plus of "3+" written as it is in a URL reads as a space: it is understood either way.
    assert client.get("/api/leaderboard?size=3%2B").json() == client.get("/api/leaderboard?size=3+").json()
    assert client.get("/api/leaderboard?size=3%2B").json() == {"size_class": "3+", "established": [], "provisional": []}


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("", "which leaderboard? ?size=2"),
        ("?size=4", "size '4' is not a size class: expected ?size=2"),
        ("?size=2&page=3", "unknown parameter 'page'"),
    ],
)
def test_a_leaderboard_asked_wrongly_says_what_it_takes(client: TestClient, query: str, said: str) -> None:
    answer = client.get(f"/api/leaderboard{query}")
    assert answer.status_code == 400
    assert said in answer.json()["error"] and "3%2B" in answer.json()["error"]


def test_a_name_that_cannot_be_anyone_s_is_refused_and_an_unknown_one_is_not_found(client: TestClient) -> None:
    bad = client.get("/api/players/a%20b")
    assert bad.status_code == 400 and "is not a player's name" in bad.json()["error"]
    assert client.get("/api/players/ab").status_code == 400  # too short to be anyone's
    unknown = client.get("/api/players/Nobody_9")
    assert (unknown.status_code, unknown.json()) == (404, {"error": "no player is called 'Nobody_9'"})


def walk(doc: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield key, value
            yield from walk(value)
    elif isinstance(doc, list):
        for value in doc:
            yield from walk(value)


def test_no_answer_holds_an_account_s_id_a_game_s_id_or_a_hash(client: TestClient, games: list[Finished]) -> None:
    texts = [client.get(f"/api/players/{name}").text for name in ("Ann_1", "Bob_2", "Cy_3", "Dee_4")]
    texts += [client.get(f"/api/leaderboard?size={size}").text for size in ("2", "3%2B")]
    path = app_state(client).store.path
    with sqlite3.connect(path) as db:
        hashes = [h for (h,) in db.execute("SELECT password FROM accounts")]
        ids = [str(i) for (i,) in db.execute("SELECT id FROM accounts")]
    assert len(ids) == 4 and all(i.startswith(str(FIRST_ID)[:4]) for i in ids)
    for text in texts:
        for secret in [*ids, *hashes, "argon2", *(g.game_id for g in games)]:
            assert secret not in text, secret
        keys = {key for key, _ in walk(json.loads(text))}
        assert not keys & {"id", "account", "account_id", "player", "game", "password", "hash"}, keys


def test_unknown_names_cost_the_address_its_lookups_and_known_ones_do_not(tmp_path: Path) -> None:
    clock = ManualClock()
    with app_client("play", tmp_path, clock, None) as client:
        Browser(client).sign_up("Ann_1")
        for _ in range(30):  # a known name costs nothing
            assert client.get("/api/players/Ann_1").status_code == 200
        for n in range(20):
            assert client.get(f"/api/players/Nobody_{n}").status_code == 404
        # The budget spent: no name is told, known or not, until it refills.
        assert client.get("/api/players/Ann_1").status_code == 429
        assert client.get("/api/players/Nobody_x").status_code == 429
        clock.advance(60_000)
        assert client.get("/api/players/Ann_1").status_code == 200
        assert spend(client) == 20
        assert client.get("/api/players/Ann_1").status_code == 429
