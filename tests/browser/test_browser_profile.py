"""The profile and leaderboard pages in Debian's Chromium, on a phone and on a laptop, in English, French and
German, with players made the real way: accounts signed up through their route, real games of a room rated
by the ratings' code and noted by ``note_game``. Each page shows what the server counted, fits the screen, is
used by keyboard alone, names its chart for a screen reader, and has nothing axe-core finds serious; the
profile names the patterns its player missed in words. A screenshot of each goes to test-artifacts/profile/."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from harness.browser import open_page, serious_violations
from harness.profiles import seed_ladder
from harness.server import Server
from ratscrew.accounts import AccountStore
from ratscrew.i18n import text
from ratscrew.ladder.ratings import SizeClass
from ratscrew.ladder.stats import Figures, StatsStore
from ratscrew.ladder.store import RatingStore
from ratscrew.web.profiles import drill_for

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "profile"
PASSWORD = "correct horse"
NAMES = ("Ann_1", "Bob_2", "Cy_3", "Dee_4", "Eve_5")
SIZES = [(390, 844, True), (1280, 800, False)]


@pytest.fixture(scope="module")
def ladder(live_server: Server) -> dict[str, int]:
    for name in NAMES:
        assert live_server.post("/api/account/sign-up", {"name": name, "password": PASSWORD})[0] == 200
    path = live_server.data / "ratscrew.sqlite3"
    store = AccountStore(path)
    ids = {name: found[0].id for name in NAMES if (found := store.find(name)) is not None}
    seed_ladder(path, ids, duels=30)
    return ids


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True, animations="disabled")


def checked(page: Page, where: str, width: int) -> None:
    """Nothing wider than the screen (measured against the screen's own width: a phone's browser widens its
    window to a page too wide for it), and nothing axe-core finds serious."""
    wide = page.evaluate(
        "[document.scrollingElement.scrollWidth, window.innerWidth, document.documentElement.clientWidth]"
    )
    assert max(wide) <= width, f"{where}: the page is {wide} px wide on a screen of {width}"
    found = serious_violations(page)
    assert not found, (where, found)


def go(page: Page, hash_: str) -> None:
    page.evaluate("hash => { location.hash = hash; }", hash_)
    page.wait_for_function("hash => location.hash === hash", arg=hash_)


def press(page: Page, selector: str) -> None:
    """Follow a link or open a control as a keyboard does: focus, then Enter."""
    page.locator(selector).focus()
    page.keyboard.press("Enter")


def names_in(page: Page, table: str) -> list[str]:
    return page.locator(f"#{table} tbody th").all_inner_texts()


def pattern_name(lang: str, key: str) -> str:
    return text(lang, f"pattern.{key}")


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
@pytest.mark.parametrize(("width", "height", "touch"), SIZES, ids=["phone", "laptop"])
def test_the_leaderboard_and_a_profile(
    browser: Browser, live_server: Server, ladder: dict[str, int], lang: str, width: int, height: int, touch: bool
) -> None:
    path = live_server.data / "ratscrew.sqlite3"
    ratings = RatingStore(path)
    board = ratings.leaderboard(SizeClass.TWO)
    by_id = {account: name for name, account in ladder.items()}
    case = f"{lang}-{width}x{height}"
    page, errors = open_page(browser, live_server.url, lang=lang, width=width, height=height, touch=touch)
    try:
        # The leaderboard: the settled players ranked as the ratings rank them, the provisional one apart.
        go(page, "#/leaderboard")
        expect(page.locator("#leaderboard-title")).to_have_text(text(lang, "leaderboard.title"))
        expect(page.locator("#leaderboard-established tbody tr")).to_have_count(4)
        assert names_in(page, "leaderboard-established") == [by_id[s.player] for s in board.established]
        assert names_in(page, "leaderboard-provisional") == [by_id[s.player] for s in board.provisional] == ["Eve_5"]
        first = board.established[0]
        row = page.locator("#leaderboard-established tbody tr").first
        assert row.locator("td").all_inner_texts() == ["1", str(first.rating.shown), str(first.games)]
        expect(page.locator("#size-2")).to_have_attribute("aria-current", "page")
        checked(page, f"{case} leaderboard", width)
        shot(page, f"{case}-leaderboard")

        # Three or more, by keyboard: nobody has settled there yet, and the three who played are provisional.
        more = text(lang, "playnow.size.more")
        press(page, "#size-3")
        page.wait_for_function("location.hash === '#/leaderboard/3'")
        expect(page.locator("#size-3")).to_have_attribute("aria-current", "page")
        expect(page.locator("#size-3")).to_be_focused()  # the page redrawn keeps the keyboard where it was
        # in the words Play now says a table of 3 or 4 in
        expect(page.locator("#size-3")).to_have_text(text(lang, "playnow.size.more"))
        expect(page.locator("#leaderboard-empty")).to_have_text(text(lang, "leaderboard.empty"))
        assert sorted(names_in(page, "leaderboard-provisional")) == ["Ann_1", "Bob_2", "Cy_3"]
        # The list's name for a screen reader, in the language's typography (French: a no-break space before ":").
        caption = text(lang, "leaderboard.caption", list=text(lang, "leaderboard.provisional"), size=more)
        expect(page.locator("#leaderboard-provisional caption")).to_have_text(caption)
        assert (lang == "fr") == ("\u00a0:" in caption)
        checked(page, f"{case} leaderboard 3+", width)
        shot(page, f"{case}-leaderboard-3")

        # A name leads to its profile.
        press(page, "#leaderboard-provisional a:text-is('Ann_1')")
        expect(page.locator("#profile-name")).to_have_text("Ann_1")
        profile(page, lang, case, width, path, ladder["Ann_1"], ratings)

        # A name nobody has: said so, with the way back to the leaderboard.
        go(page, "#/players/Nobody_77")
        expect(page.locator("#profile-not-found")).to_contain_text(
            text(lang, "profile.not_found.text", name="Nobody_77")
        )
        checked(page, f"{case} unknown player", width)
    finally:
        page.context.close()
    assert not errors, errors


def profile(page: Page, lang: str, case: str, width: int, path: Path, ann: int, ratings: RatingStore) -> None:
    standings = ratings.standings(ann)
    two, more = standings[SizeClass.TWO].rating, standings[SizeClass.MORE].rating
    expect(page.locator("#rating-2 .rating-number")).to_have_text(str(two.shown))
    expect(page.locator("#rating-more .rating-number")).to_have_text(str(more.shown))
    expect(page.locator("#rating-more .provisional")).to_have_text(text(lang, "profile.rating.provisional"))
    assert page.locator("#rating-2 .provisional").count() == int(two.provisional)

    # The chart is named for a screen reader by the sentence under it, which says the history in numbers: from
    # the number before the first game to the one after the last.
    changes = ratings.history(ann, SizeClass.TWO)
    history = [changes[0].before.shown, *(c.after.shown for c in changes)]
    chart = page.locator("#rating-2-chart svg")
    assert chart.get_attribute("role") == "img"
    caption = page.locator(f"#{chart.get_attribute('aria-labelledby')}").inner_text()
    size = text(lang, "profile.size.2")
    summary = text(
        lang,
        "profile.chart.summary.other",
        first=history[0],
        last=history[-1],
        n=len(changes),
        high=max(history),
        low=min(history),
    )
    assert caption == f"{text(lang, 'profile.chart.label', size=size)} {summary}"
    points = chart.locator("polyline").get_attribute("points") or ""
    assert len(points.split()) == len(history)
    # Its numbers, opened by keyboard: the last twenty games, newest first.
    press(page, "#rating-2-chart summary")
    rows = page.locator("#rating-2-chart tbody tr")
    expect(rows).to_have_count(20)
    assert rows.first.locator("td").last.inner_text() == str(history[-1])
    assert rows.first.locator("th").inner_text() == str(len(changes))

    figures: Figures = StatsStore(path).figures(ann)
    expect(page.locator("#profile-slaps-won")).to_have_text(str(figures.slaps_won))
    expect(page.locator("#profile-wrong-slaps")).to_have_text(str(figures.wrong_slaps))
    assert figures.median_reaction_ms is not None
    expect(page.locator("#profile-median")).to_have_text(
        text(lang, "profile.slaps.ms", ms=round(figures.median_reaction_ms))
    )
    played = page.locator("#profile-games tbody tr")
    expect(played).to_have_count(2)
    assert played.first.locator("td").all_inner_texts() == [str(n) for n in (32, figures.games[0].wins, 32)]

    # The patterns missed most, named in words, most missed first, each with its drill or a line saying none.
    missed = [p for p in figures.patterns if p.missed]
    items = page.locator("#profile-patterns li")
    expect(items).to_have_count(len(missed))
    assert [name.strip() for name in page.locator("#profile-patterns .missed-name").all_inner_texts()] == [
        pattern_name(lang, p.pattern) for p in missed
    ]
    assert {"double", "sandwich", "top_bottom", "six_nine"} <= {p.pattern for p in missed}
    first = items.first
    expect(first.locator(".missed-count")).to_have_text(
        text(lang, "profile.missed.count", missed=missed[0].missed, chances=missed[0].chances)
    )
    expect(page.locator("li[data-pattern=six_nine]")).to_contain_text(text(lang, "profile.missed.no_drill"))
    assert page.locator("li[data-pattern=six_nine] a").count() == 0
    checked(page, f"{case} profile", width)
    shot(page, f"{case}-profile")

    # The drill for top-bottom, which only the bicycle preset's drills deal: followed by keyboard, it opens the
    # timed drill set to that preset.
    link = drill_for("top_bottom")
    assert link is not None and link.preset == "bicycle"
    press(page, "li[data-pattern=top_bottom] a.drill-link")
    page.wait_for_function("location.hash === '#/drills/stream'")
    assert page.evaluate("localStorage.getItem('ratscrew.learn.preset')") == "bicycle"
    expect(page.locator("#drill-preset")).to_have_value("bicycle")


def test_a_signed_in_player_finds_their_own_profile_from_their_account(
    browser: Browser, live_server: Server, ladder: dict[str, int]
) -> None:
    page, errors = open_page(browser, live_server.url, lang="fr", width=390, height=844, touch=True)
    try:
        go(page, "#/sign-in")
        press(page, "#signin-leaderboard")  # the leaderboard is one link away for someone signed out, too
        page.wait_for_function("location.hash === '#/leaderboard'")
        go(page, "#/sign-in")
        page.fill("#signin-name", "bob_2")
        page.fill("#signin-password", PASSWORD)
        page.press("#signin-password", "Enter")
        expect(page.locator("#account-profile")).to_have_text(text("fr", "profile.yours"))
        press(page, "#account-profile")
        expect(page.locator("#profile-name")).to_have_text("Bob_2")
        expect(page.locator("#profile-you")).to_contain_text(text("fr", "profile.you"))
        checked(page, "own profile", 390)
        shot(page, "fr-390x844-own-profile")
        # On the leaderboard, their own row is marked, in words and for a screen reader; nobody else's.
        go(page, "#/leaderboard")
        mine = page.locator("#leaderboard-established tbody tr[aria-current=true]")
        expect(mine).to_have_count(1)
        expect(mine.locator("th")).to_have_text(f"Bob_2{text('fr', 'leaderboard.you')}")
        expect(page.locator("#leaderboard-established .you-mark")).to_have_count(1)
        checked(page, "own row on the leaderboard", 390)
        shot(page, "fr-390x844-leaderboard-own-row")
    finally:
        page.context.close()
    assert not errors, errors
