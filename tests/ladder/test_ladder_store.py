"""The ratings in the server's SQLite file: a game recorded all or nothing and once, two writers that never
lose each other's results, the history and the leaderboards, and a file made before the ladder existed."""

from __future__ import annotations

import itertools
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from harness.accounts import numbered_accounts
from ratscrew.ladder.places import RatedResult
from ratscrew.ladder.ratings import Rating, SizeClass, rate
from ratscrew.ladder.store import Change, RatingStore
from ratscrew.web.store import Store

GOLDEN = Path(__file__).parents[1] / "golden" / "store-before-ratings.sqlite3"


def duel(game: str, winner: int, loser: int) -> RatedResult:
    return RatedResult(game, SizeClass.TWO, ((winner, 1), (loser, 2)))


PLAYERS = range(1, 12)  # the accounts these tests play (the store keeps rows only for accounts that exist)


@pytest.fixture
def store(tmp_path: Path) -> RatingStore:
    path = tmp_path / "ratscrew.sqlite3"
    numbered_accounts(path, PLAYERS)
    return RatingStore(path)


def test_a_recorded_game_moves_the_ratings_and_says_by_how_much(store: RatingStore) -> None:
    changes = store.record(duel("G1", winner=1, loser=2), when=100.0)
    expected = rate({}, [(1, 1), (2, 2)])
    assert [(c.player, c.place, c.before, c.after) for c in changes] == [
        (1, 1, Rating(), expected[1]),
        (2, 2, Rating(), expected[2]),
    ]
    assert changes[0].shown_change == expected[1].shown - 1100 > 0
    assert changes[1].shown_change < 0
    mine = store.standings(1)
    assert list(mine) == [SizeClass.TWO]
    assert (mine[SizeClass.TWO].rating, mine[SizeClass.TWO].games) == (expected[1], 1)
    assert store.standings(3) == {}


def test_each_size_class_keeps_its_own_rating(store: RatingStore) -> None:
    store.record(duel("G1", winner=1, loser=2))
    store.record(RatedResult("G2", SizeClass.MORE, ((2, 1), (3, 2), (1, 3))))
    mine = store.standings(1)
    assert mine[SizeClass.TWO].rating.mu > 25 > mine[SizeClass.MORE].rating.mu
    assert [c.game for c in store.history(1, SizeClass.MORE)] == ["G2"]


def test_the_next_game_starts_from_where_the_last_one_left_each_player(store: RatingStore) -> None:
    first = store.record(duel("G1", winner=1, loser=2))
    second = store.record(duel("G2", winner=2, loser=1))
    assert second[1].before == first[0].after and second[0].before == first[1].after
    assert second[0].after == rate({1: first[0].after, 2: first[1].after}, [(2, 1), (1, 2)])[2]
    assert store.standings(1)[SizeClass.TWO].games == 2


def test_a_game_is_counted_once_however_often_it_is_recorded(store: RatingStore) -> None:
    first = store.record(duel("G1", winner=1, loser=2), when=5.0)
    again = store.record(duel("G1", winner=1, loser=2), when=9.0)
    assert again == first
    assert store.standings(1)[SizeClass.TWO].games == 1
    assert len(store.history(1, SizeClass.TWO)) == 1


def test_a_game_is_recorded_all_or_nothing(store: RatingStore) -> None:
    store.record(duel("G1", winner=1, loser=2))
    before = store.standings(1)
    # The second player's row cannot be written (a full disk, a crash): the first player's must not stay.
    with sqlite3.connect(store.path) as db:
        db.execute(
            "CREATE TRIGGER fail BEFORE INSERT ON rating_changes WHEN NEW.account_id = 2 "
            "BEGIN SELECT RAISE(ABORT, 'no room'); END"
        )
    with pytest.raises(sqlite3.IntegrityError, match="no room"):
        store.record(duel("G2", winner=1, loser=2))
    assert store.standings(1) == before
    assert [c.game for c in store.history(1, SizeClass.TWO)] == ["G1"]
    with sqlite3.connect(store.path) as db:
        db.execute("DROP TRIGGER fail")
    store.record(duel("G2", winner=1, loser=2))  # not taken as recorded before
    assert store.standings(1)[SizeClass.TWO].games == 2


def test_two_writers_at_once_never_lose_each_others_games(tmp_path: Path) -> None:
    # Two workers record games of the same player: each must start from the other's last result.
    path = tmp_path / "ratscrew.sqlite3"
    numbered_accounts(path, PLAYERS)
    stores = [RatingStore(path), RatingStore(path)]
    per_writer = 40
    failures: list[BaseException] = []

    def write(index: int) -> None:
        try:
            for i in range(per_writer):
                stores[index].record(duel(f"W{index}-{i}", winner=1, loser=10 + index))
        except BaseException as error:  # reported by the test below
            failures.append(error)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert stores[0].standings(1)[SizeClass.TWO].games == 2 * per_writer
    history = stores[0].history(1, SizeClass.TWO)
    assert len(history) == 2 * per_writer
    for earlier, later in itertools.pairwise(history):
        assert later.before == earlier.after, "a game started from a rating another game had already moved"
    assert history[-1].after == stores[1].standings(1)[SizeClass.TWO].rating


def test_the_history_comes_oldest_first_and_the_latest_when_limited(store: RatingStore) -> None:
    for i in range(6):
        store.record(duel(f"G{i}", winner=1 if i % 2 else 2, loser=2 if i % 2 else 1), when=float(i))
    history = store.history(1, SizeClass.TWO)
    assert [c.game for c in history] == [f"G{i}" for i in range(6)]
    assert [c.place for c in history] == [2, 1, 2, 1, 2, 1]
    assert all(isinstance(c, Change) and c.players == 2 for c in history)
    assert [c.game for c in store.history(1, SizeClass.TWO, limit=2)] == ["G4", "G5"]


def test_the_leaderboard_puts_provisional_players_apart_best_first(store: RatingStore) -> None:
    # Player 1 beats 2 three games in four, forty games: both become established, 1 above 2; 3 and 4 play once.
    for i in range(40):
        store.record(duel(f"G{i}", winner=1, loser=2) if i % 4 else duel(f"G{i}", winner=2, loser=1))
    store.record(duel("H", winner=4, loser=3))
    board = store.leaderboard(SizeClass.TWO)
    assert [s.player for s in board.established] == [1, 2]
    assert [s.player for s in board.provisional] == [4, 3]
    assert all(not s.rating.provisional for s in board.established)
    assert all(s.rating.provisional for s in board.provisional)
    assert board.established[0].games == 40
    assert store.leaderboard(SizeClass.MORE).established == ()
    assert [s.player for s in store.leaderboard(SizeClass.TWO, limit=1).provisional] == [4]


def test_forgetting_a_player_removes_their_rows_and_leaves_the_others(store: RatingStore) -> None:
    store.record(duel("G1", winner=1, loser=2))
    store.record(duel("G2", winner=1, loser=3))
    assert store.forget(1) == 3  # two changes and one rating
    assert store.standings(1) == {} and store.history(1, SizeClass.TWO) == ()
    assert store.standings(2)[SizeClass.TWO].games == 1
    assert store.forget(1) == 0


def test_a_player_whose_account_went_during_the_game_gets_no_rows_and_the_others_move_as_it_went(
    store: RatingStore,
) -> None:
    with sqlite3.connect(store.path) as db:
        db.execute("DELETE FROM accounts WHERE id = 2")  # deleted (all its rows with it) while the game went on
    changes = store.record(RatedResult("G1", SizeClass.MORE, ((1, 1), (2, 2), (3, 3))))
    expected = rate({}, [(1, 1), (2, 2), (3, 3)])
    assert [(c.player, c.place, c.after) for c in changes] == [(1, 1, expected[1]), (3, 3, expected[3])]
    assert store.standings(2) == {} and store.history(2, SizeClass.MORE) == ()
    with sqlite3.connect(store.path) as db:
        assert db.execute("SELECT count(*) FROM rating_changes WHERE account_id = 2").fetchone() == (0,)
    assert store.record(RatedResult("G1", SizeClass.MORE, ((1, 1), (2, 2), (3, 3)))) == changes  # once, still


def test_a_file_made_before_the_ladder_gains_its_tables_and_keeps_everything(tmp_path: Path) -> None:
    # tests/golden/store-before-ratings.sqlite3 was made by main's code before this branch (commit 48fcf94):
    # a score-keeper match with a round, and a finished game.
    path = tmp_path / "ratscrew.sqlite3"
    shutil.copy(GOLDEN, path)
    with sqlite3.connect(path) as db:
        assert "ratings" not in {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    store = RatingStore(path)
    numbered_accounts(path, PLAYERS)
    store.record(duel("G1", winner=1, loser=2))
    assert store.standings(1)[SizeClass.TWO].games == 1
    kept = Store(path)
    match = kept.match("08b7956510aa")
    assert (match.name, match.wins()) == ("kept", [0, 1])
    assert [game_id for game_id, _, _ in kept.game_summaries(["OLDGAM"])] == ["OLDGAM"]
    RatingStore(path)  # opening it again changes nothing
    assert store.standings(1)[SizeClass.TWO].games == 1
