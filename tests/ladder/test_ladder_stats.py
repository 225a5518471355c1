"""Each signed-in player's figures of each game, kept in the server's file (``ladder/stats.py``): what a real
game notes for each account, a game noted twice counting once, computers and guests left out, a deleted
account never noted again and its rows gone, a player replaced by a stand-in, and a file made before the
profile existed."""

from __future__ import annotations

import shutil
import sqlite3
import statistics
from pathlib import Path

import pytest

from harness.profiles import Finished, room_game
from ratscrew.accounts import Account, AccountStore
from ratscrew.errors import MalformedInput
from ratscrew.ladder.chances import chances, missed_by
from ratscrew.ladder.places import places
from ratscrew.ladder.ratings import SizeClass
from ratscrew.ladder.stats import StatsStore, note_game
from ratscrew.rules import Rules
from ratscrew.web.store import Store

GOLDEN = Path(__file__).parents[1] / "golden" / "store-before-ratings.sqlite3"


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "ratscrew.sqlite3"


def accounts(path: Path, *names: str) -> list[Account]:
    store = AccountStore(path)
    return [store.create(name, "$argon2id$not-a-real-hash") for name in names]


def rows(path: Path, query: str, *args: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as db:
        return db.execute(query, args).fetchall()


@pytest.fixture(scope="module")
def duel() -> Finished:
    return room_game(Rules.build("standard"), ["medium", "hard"], 3, code="DUEL1")


@pytest.fixture(scope="module")
def table() -> Finished:
    return room_game(Rules.build("bicycle"), ["medium", "expert", "hard"], 5, code="TABLE1")


def test_a_game_notes_each_signed_in_player_s_figures_and_leaves_the_others_out(path: Path, table: Finished) -> None:
    ann, bob = accounts(path, "ann", "bob")
    seats = [ann.id, None, bob.id]  # seat 1 is a computer (or a guest)
    note_game(path, table.game_id, seats, table.summary, table.record, rated=False)
    store = StatsStore(path)
    found = chances(table.record)
    place = places(table.summary.out_order, [p.cards for p in table.summary.players])
    for seat, account in ((0, ann), (2, bob)):
        mine = store.figures(account.id)
        figures = table.summary.players[seat]
        won = int(table.summary.winner == seat)
        assert mine.games == (mine.games[0],) and mine.games[0].size_class is SizeClass.MORE
        assert (mine.games[0].games, mine.games[0].wins, mine.games[0].rated) == (1, won, 0)
        assert (mine.slaps_won, mine.wrong_slaps) == (figures.piles_by_slap, figures.wrong_slaps)
        times = figures.reaction_ms
        assert mine.median_reaction_ms == (statistics.median(times) if times else None)
        assert mine.reactions == len(times)
        expected = missed_by(found, seat)
        assert {p.pattern: (p.chances, p.missed) for p in mine.patterns} == expected
        assert mine.chances == sum(seat in c.open_to for c in found)
        assert mine.missed == sum(c.missed_by(seat) for c in found)
        # The most missed first.
        assert [p.missed for p in mine.patterns] == sorted((p.missed for p in mine.patterns), reverse=True)
        ((kept_place,),) = rows(path, "SELECT place FROM player_games WHERE account_id = ?", account.id)
        assert kept_place == place[seat]
    assert len(rows(path, "SELECT 1 FROM player_games")) == 2
    assert store.figures(ann.id).missed > 0, "a game where the player missed nothing proves little"


def test_figures_add_up_over_games_and_sizes(path: Path, duel: Finished, table: Finished) -> None:
    (ann,) = accounts(path, "ann")
    note_game(path, duel.game_id, [ann.id, None], duel.summary, duel.record, rated=True)
    note_game(path, table.game_id, [None, ann.id, None], table.summary, table.record, rated=False)
    mine = StatsStore(path).figures(ann.id)
    assert [(s.size_class, s.games, s.rated) for s in mine.games] == [(SizeClass.TWO, 1, 1), (SizeClass.MORE, 1, 0)]
    assert mine.played == 2
    assert mine.slaps_won == duel.summary.players[0].piles_by_slap + table.summary.players[1].piles_by_slap
    times = [*duel.summary.players[0].reaction_ms, *table.summary.players[1].reaction_ms]
    assert mine.median_reaction_ms == statistics.median(times) and mine.reactions == len(times)
    both = missed_by(chances(duel.record), 0)
    for pattern, (had, let_go) in missed_by(chances(table.record), 1).items():
        before = both.get(pattern, (0, 0))
        both[pattern] = (before[0] + had, before[1] + let_go)
    assert {p.pattern: (p.chances, p.missed) for p in mine.patterns} == both


def test_a_game_noted_twice_counts_once(path: Path, duel: Finished) -> None:
    ann, bob = accounts(path, "ann", "bob")
    store = StatsStore(path)
    assert store.note(duel.game_id, [ann.id, bob.id], duel.summary, duel.record, True) == 2
    before = store.figures(ann.id)
    # The server restarted and finished the same game again.
    assert store.note(duel.game_id, [ann.id, bob.id], duel.summary, duel.record, True) == 0
    note_game(path, duel.game_id, [ann.id, bob.id], duel.summary, duel.record, True)
    assert store.figures(ann.id) == before
    assert before.played == 1
    assert rows(path, "SELECT count(*) FROM player_patterns WHERE account_id = ?", ann.id) == [(len(before.patterns),)]


def test_deleting_an_account_removes_its_rows_and_it_is_never_noted_again(path: Path, duel: Finished) -> None:
    ann, bob = accounts(path, "ann", "bob")
    note_game(path, duel.game_id, [ann.id, bob.id], duel.summary, duel.record, True)
    AccountStore(path).delete(ann)
    for table in ("player_games", "player_patterns"):
        assert rows(path, f"SELECT 1 FROM {table} WHERE account_id = ?", ann.id) == [], table
    assert rows(path, "SELECT count(*) FROM player_games WHERE account_id = ?", bob.id) == [(1,)]
    # The game handed over again (a restart) brings nothing of the deleted account back.
    note_game(path, duel.game_id, [ann.id, bob.id], duel.summary, duel.record, True)
    assert rows(path, "SELECT 1 FROM player_games WHERE account_id = ?", ann.id) == []
    assert StatsStore(path).figures(ann.id).played == 0


def test_a_player_replaced_by_a_stand_in_has_the_game_but_not_the_stand_in_s_play(path: Path, duel: Finished) -> None:
    ann, bob = accounts(path, "ann", "bob")
    note_game(path, duel.game_id, [ann.id, bob.id], duel.summary, duel.record, True, replaced=[0])
    mine = StatsStore(path).figures(ann.id)
    assert (mine.played, mine.slaps_won, mine.wrong_slaps, mine.reactions, mine.chances, mine.patterns) == (
        1,
        0,
        0,
        0,
        0,
        (),
    )
    assert rows(path, "SELECT place, won FROM player_games WHERE account_id = ?", ann.id) == [(2, 0)]
    assert StatsStore(path).figures(bob.id).chances > 0


def test_a_game_that_does_not_add_up_is_refused_and_nothing_is_kept(path: Path, duel: Finished) -> None:
    ann, bob = accounts(path, "ann", "bob")
    with pytest.raises(MalformedInput, match="2 seats"):
        note_game(path, duel.game_id, [ann.id, bob.id, None], duel.summary, duel.record, True)
    with pytest.raises(MalformedInput, match="two seats"):
        note_game(path, duel.game_id, [ann.id, ann.id], duel.summary, duel.record, True)
    assert rows(path, "SELECT 1 FROM player_games") == []
    note_game(path, duel.game_id, [None, None], duel.summary, duel.record, True)  # nobody signed in: nothing
    assert rows(path, "SELECT 1 FROM player_games") == []


def test_a_player_with_no_games_has_nothing_to_show(path: Path) -> None:
    (ann,) = accounts(path, "ann")
    mine = StatsStore(path).figures(ann.id)
    assert (mine.games, mine.played, mine.median_reaction_ms, mine.patterns, mine.chances) == ((), 0, None, (), 0)


def test_a_file_made_before_the_profile_gains_its_tables_and_keeps_everything(tmp_path: Path, duel: Finished) -> None:
    # tests/golden/store-before-ratings.sqlite3 was made before the ladder and the profile: a score-keeper
    # match with a round, and a finished game.
    path = tmp_path / "ratscrew.sqlite3"
    shutil.copy(GOLDEN, path)
    assert "player_games" not in {name for (name,) in rows(path, "SELECT name FROM sqlite_master")}
    ann, bob = accounts(path, "ann", "bob")
    note_game(path, duel.game_id, [ann.id, bob.id], duel.summary, duel.record, True)
    assert StatsStore(path).figures(ann.id).played == 1
    kept = Store(path)
    assert kept.match("08b7956510aa").name == "kept"
    assert [game_id for game_id, _, _ in kept.game_summaries(["OLDGAM"])] == ["OLDGAM"]
    StatsStore(path)  # opening it again changes nothing
    assert StatsStore(path).figures(ann.id).played == 1
