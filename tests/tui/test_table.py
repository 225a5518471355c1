"""The terminal table against the computer, driven by Textual's pilot (headless) on virtual time: the page's keys,
pause, two people at one keyboard, the help, the summary, a slap timed from the frame that drew its card, and
the game saved where and as the browser's games are."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from textual.widget import Widget

from harness.tui import advance, local_app, my_turn, own_loop, screen_text, settle, shown, table, until
from ratscrew.learn.summary import changes
from ratscrew.learn.words import Texts
from ratscrew.record import Record
from ratscrew.rules import load_rules
from ratscrew.tui.app import TableApp
from ratscrew.tui.screens import HelpScreen, SummaryScreen
from ratscrew.tui.widgets import Feed, Seats, Status
from ratscrew.web.history import history_entry
from ratscrew.web.store import Store

SHORT = load_rules(None, ("end.max_cards=30",))  # a game that ends at its 30th card, for a whole game in a test


@own_loop
async def test_a_whole_game_from_the_keys_to_the_summary_is_saved_as_the_browser_saves_its_games(
    tmp_path: Path,
) -> None:
    app, clock = local_app(tmp_path, levels=("hard", "easy"), rules=SHORT, seed=11, pace=0.5)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.model.playing, "the deal")
        assert "F/Space turn · J slap · P pause" in await shown(pilot, app)
        slapped = False
        for _ in range(2000):
            if app.model.summary is not None:
                break
            if my_turn(app):
                await pilot.press("f")
                await advance(pilot, clock, 50)  # the table plays an input a decision window after it lands
            elif not slapped and app.model.top_card() is not None and table(app).owed == 0:
                # The screen draws the card on top (and says when that frame was out); 350 ms later, a slap.
                top = app.model.top_card()
                await until(pilot, lambda top=top: top in app.model.painted, "the card drawn")  # type: ignore[misc]
                for _ in range(3):
                    await pilot.pause()  # the refresh that drew it is done, and has said so
                await advance(pilot, clock, 350, step=350)
                await pilot.press("j")
                await settle(pilot)
                slapped = True
            else:
                await advance(pilot, clock, 100)
        assert app.model.summary is not None, "the game did not end"
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        text = await shown(pilot, app)
        game = app.model.summary.game
        assert "The game was stopped at its card limit" in text  # the headline, as the page words it
        assert "30 cards turned" in text and "Wrong slaps" in text and "Typical" in text, text
        assert f"Saved as game {game} in" in text and f"replays it at #/replay/{game}" in text
        await pilot.press("q")
    await app.close()

    # Kept by the journal in the file `ratscrew play --data` serves: the record replays to the end it had, and
    # the summary is what the History page is answered.
    store = Store(tmp_path / "ratscrew.sqlite3")
    record = Record.from_json(store.game_record(game))
    replayed = record.new_game()
    for action in record.actions:
        replayed.apply(action)
    assert replayed.over and replayed.cards == 30
    assert record.players == ("Ana", "Computer 2", "Computer 3")
    [(saved_id, _when, summary)] = store.game_summaries([game])
    entry = history_entry(saved_id, _when, summary)
    assert entry.id == game and entry.cards == 30 and entry.result == "limit"
    # The slap named the card on top and the reaction the terminal measured from the frame that drew it.
    adjudications = record.extra["adjudications"]
    assert isinstance(adjudications, list) and adjudications
    assert adjudications[0]["seat"] == 0 and adjudications[0]["reaction"] == 350


@own_loop
async def test_p_pauses_the_table_and_resumes_it_where_it_stopped(tmp_path: Path) -> None:
    app, clock = local_app(tmp_path, levels=("medium",), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: my_turn(app), "the deal")
        await pilot.press("f")
        await settle(pilot)
        await pilot.press("p")
        await until(pilot, lambda: table(app).paused, "the pause")
        cards = table(app).cards
        await advance(pilot, clock, 5000, step=500)  # the computer's turn, but its clock stands still
        assert table(app).cards == cards
        text = await shown(pilot, app)
        assert "The game is paused." in text and "Paused" in text and "P resume" in text
        await pilot.press("f")  # refused here, as the page refuses it, with the reason
        await settle(pilot)
        text = await shown(pilot, app)
        assert "Nothing moves until you resume: press P." in text and "Resume button" not in text  # no such button
        await pilot.press("p")
        await until(pilot, lambda: not table(app).paused, "the resume")
        await advance(pilot, clock, 3000, step=100)
        assert table(app).cards > cards
        assert "Nothing moves until you resume" not in await shown(pilot, app)  # said while paused, not after
    await app.close()


@own_loop
async def test_two_people_alone_at_one_keyboard_play_each_other(tmp_path: Path) -> None:
    # No computer unless one is asked for (--people 2 alone): the title says who plays.
    app, _ = local_app(tmp_path, people=("Ana", "Ben"), levels=(), seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: my_turn(app, 0), "the deal")
        assert app.model.room is not None and len(app.model.room.seats) == 2
        text = await shown(pilot, app)
        assert "two at one keyboard" in text and "against the computer" not in text
    await app.close()


@own_loop
async def test_two_people_at_one_keyboard_play_with_a_and_s_and_with_l_and_k(tmp_path: Path) -> None:
    app, clock = local_app(tmp_path, people=("Ana", "Ben"), levels=("easy",), seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: my_turn(app, 0), "the deal")
        assert app.model.yours == (0, 1)
        assert "Ana: A turn, S slap · Ben: L turn, K slap" in await shown(pilot, app)
        await pilot.press("l")  # Ben's key: not his turn, and the table says so in its words
        await settle(pilot)
        assert "Not yet: it is Ana's turn" in await shown(pilot, app)
        await pilot.press("a")
        await advance(pilot, clock, 100)  # the table plays an input a decision window after it lands
        assert my_turn(app, 1)
        await pilot.press("l")
        await advance(pilot, clock, 100)
        assert table(app).cards == 2
        assert len(table(app).pile) == 2
        await pilot.press("k")  # Ben slaps: the feed says who and why
        await advance(pilot, clock, 100)
        lines = [line.text for line in app.model.feed]
        assert lines and lines[0].startswith("Ben slaps")
    await app.close()


@own_loop
async def test_the_help_opens_with_question_mark_and_closes_with_escape(tmp_path: Path) -> None:
    app, _clock = local_app(tmp_path, lang="de")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.model.playing, "the deal")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        text = await shown(pilot, app)
        assert "Tasten" in text and "F oder Leertaste deckt deine Karte auf" in text
        await pilot.press("f")  # the table's keys do nothing under the help
        await settle(pilot)
        assert table(app).cards == 0
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, HelpScreen), "the table again")
    await app.close()


@pytest.mark.parametrize(
    ("lang", "status"),
    [("en", "Your turn, Ana: turn a card"), ("fr", "À vous, Ana"), ("de", "Ana, du bist dran")],
)
@own_loop
async def test_the_table_speaks_the_language_asked_for(tmp_path: Path, lang: str, status: str) -> None:
    app, _clock = local_app(tmp_path, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: my_turn(app), "the deal")
        assert status in await shown(pilot, app)
    await app.close()


@own_loop
async def test_n_plays_again_with_the_same_seats_and_ctrl_c_quits(tmp_path: Path) -> None:
    app, clock = local_app(
        tmp_path, levels=("expert", "match"), rules=load_rules(None, ("end.max_cards=12",)), pace=0.5
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.model.playing, "the deal")
        for _ in range(2000):
            if app.model.summary is not None:
                break
            if my_turn(app):
                await pilot.press("f")
            await advance(pilot, clock, 100)
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        first = app.model.summary
        assert first is not None
        await pilot.press("n")
        await until(pilot, lambda: app.model.summary is None and app.model.playing, "another deal")
        await advance(pilot, clock, 100)
        assert table(app).cards in (0, 1) and not isinstance(app.screen, SummaryScreen)
        assert app.model.room is not None and app.model.room.game != first.game
        assert [seat.name for seat in app.model.room.seats] == ["Ana", "Computer 2", "Computer 3"]
        await pilot.press("ctrl+c")
        await until(pilot, lambda: app.return_code == 0, "the app stopped")
    await app.close()


@pytest.mark.parametrize("confirm", ["q", "y"])
@own_loop
async def test_q_during_a_game_asks_first_and_q_again_or_y_quits(tmp_path: Path, confirm: str) -> None:
    # One stray Q gave up the game without a word.
    app, clock = local_app(tmp_path, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: my_turn(app), "the deal")
        await pilot.press("q")
        assert "Quit? Q again or Y quits, Esc plays on." in await shown(pilot, app)
        assert app.return_code is None
        await pilot.press("escape")
        assert "Quit?" not in await shown(pilot, app)
        await pilot.press("y")  # nothing was asked: Y alone does not quit
        await pilot.press("q")
        await pilot.press("f")  # playing on answers the question too
        await advance(pilot, clock, 100)
        assert table(app).cards == 1 and "Quit?" not in await shown(pilot, app)
        assert app.return_code is None
        await pilot.press("q")
        await pilot.press(confirm)
        await until(pilot, lambda: app.return_code == 0, "the app stopped")
    await app.close()


def rows_in(app: TableApp, part: Widget) -> list[str]:
    """The screen's rows where ``part`` draws its content, as text, trailing blank rows left out."""
    region = part.content_region
    lines = screen_text(app).splitlines()[region.y : region.bottom]
    rows = [line[region.x : region.right].rstrip() for line in lines]
    while rows and not rows[-1]:
        rows.pop()
    return rows


def wrapped(app: TableApp, text: str, width: int) -> list[str]:
    return [row.plain.rstrip() for row in Text(text).wrap(app.console, width)]


@own_loop
async def test_a_long_german_verdict_is_shown_whole_in_the_status_and_the_feed(tmp_path: Path) -> None:
    # At 80 columns a German verdict takes three rows: the status box held four (its status line took two) and
    # cut the third, and the feed cut its last line after its first rows.
    app, clock = local_app(tmp_path, levels=("hard", "easy", "medium", "expert", "match"), seed=8, pace=0.5, lang="de")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.model.playing, "the deal")
        for step in range(5000):
            if app.model.banner is not None and len(app.model.banner.text) > 80:
                break
            if my_turn(app):
                await pilot.press("f")
            elif step % 7 == 0 and app.model.top_card() is not None:
                await pilot.press("j")
            await advance(pilot, clock, 100)
        banner = app.model.banner
        assert banner is not None and len(banner.text) > 80, "no long verdict came"
        await shown(pilot, app)
        status, feed = app.screen.query_one(Status), app.screen.query_one(Feed)
        said = wrapped(app, banner.text, status.content_region.width)
        assert len(said) == 3 and rows_in(app, status)[-3:] == said
        shown_rows = rows_in(app, feed)
        whole: list[str] = []
        for line in app.model.feed:
            if whole == shown_rows:
                break
            whole += wrapped(app, line.text, feed.content_region.width)
        assert whole == shown_rows, "the feed's last line is cut"
    await app.close()


@own_loop
async def test_an_unnamed_person_is_named_once(tmp_path: Path) -> None:
    # Two people without --name are "Player 1" and "Player 2", which is also what their badge says: the seats
    # read "Player 1 (Player 1)".
    app, _ = local_app(tmp_path, people=("Player 1", "Player 2"), levels=("easy",), seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: my_turn(app, 0), "the deal")
        seats = rows_in(app, app.screen.query_one(Seats))
        assert [row.strip(" ▶").split("  ")[0] for row in seats if "cards" in row] == [
            "Player 1",
            "Player 2",
            "Computer 3 (Easy)",
        ]
    await app.close()
    named, _ = local_app(tmp_path, people=("Ana", "Ben"), levels=(), seed=5)
    async with named.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: my_turn(named, 0), "the deal")
        assert "Ana (Player 1)" in await shown(pilot, named)  # a name of one's own keeps the badge
    await named.close()


@own_loop
async def test_the_help_pauses_a_game_against_the_computer_until_it_is_closed(tmp_path: Path) -> None:
    # The computers played on while the help was read.
    app, clock = local_app(tmp_path, levels=("medium",), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: my_turn(app), "the deal")
        await pilot.press("f")
        await settle(pilot)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen) and table(app).paused, "the help, paused")
        # The table around the help says so, however late the pause came back after the help was opened.
        under_the_help = await shown(pilot, app)
        assert "Paused" in under_the_help and "P resume" in under_the_help, under_the_help
        cards = table(app).cards
        await advance(pilot, clock, 5000, step=500)  # the computer's turn, but its clock stands still
        assert table(app).cards == cards
        await pilot.press("escape")
        await until(pilot, lambda: not table(app).paused, "the game again")
        await advance(pilot, clock, 3000, step=100)
        assert table(app).cards > cards
        # Paused by the player first, it stays paused after the help.
        await pilot.press("p")
        await until(pilot, lambda: table(app).paused, "the pause")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, HelpScreen), "the table")
        await advance(pilot, clock, 1000, step=100)
        assert table(app).paused
    await app.close()


@own_loop
async def test_the_house_rules_are_in_the_title_and_all_of_them_in_the_help(tmp_path: Path) -> None:
    # `--set` changed the game without a word on the screen; the words are the pages' own chips.
    rules = load_rules(None, ("slaps.run=4", "slapping.penalty_cards=2"))
    chips = [str(change["chip"]) for change in changes(Texts("en"), rules)]
    assert chips == ["Cards for a wrong slap: 2 cards", "Run: 4 cards"]
    for size, title in (
        ((120, 40), "ratscrew · Standard (Cards for a wrong slap: 2 cards; Run: 4 cards) · against the computer"),
        ((80, 24), "Standard (Cards for a wrong slap: 2 cards; +1) · against the computer"),  # the rest in the help
    ):
        app, _ = local_app(tmp_path / f"{size[0]}", rules=rules, seed=3)
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda app=app: my_turn(app), "the deal")  # type: ignore[misc]
            top = (await shown(pilot, app)).splitlines()[0]
            assert top.startswith(title) and top.rstrip().endswith("Time 0:00"), top
            await pilot.press("question_mark")
            await until(pilot, lambda app=app: isinstance(app.screen, HelpScreen), "the help")  # type: ignore[misc]
            text = await shown(pilot, app)
            assert "Standard with 2 house rules changed" in text and all(f"• {chip}" in text for chip in chips)
        await app.close()


@own_loop
async def test_a_game_dealt_from_two_decks_says_so_at_the_start(tmp_path: Path) -> None:
    # From seven seats the engine deals two decks shuffled together (Rules.deck_for): nothing said so.
    for levels, said, cards in (
        (("easy",) * 6, "7 Spieler, zwei gemischte Kartenspiele.", 104),
        (("easy",) * 5, None, 52),
    ):
        app, _ = local_app(tmp_path / str(len(levels)), levels=levels, seed=3, lang="de")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda app=app: my_turn(app), "the deal")  # type: ignore[misc]
            assert sum(table(app).stack_sizes) == cards
            text = await shown(pilot, app)
            lines = [line.text for line in app.model.feed]
            if said is None:
                assert "Kartenspiele" not in text and not lines
            else:
                assert said in text and lines == [said]
        await app.close()
