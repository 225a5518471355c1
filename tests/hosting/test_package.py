"""What a user installs is what the tests prove: the working tree is built into an sdist and a wheel as pip would
build them, the wheel is installed (not editable) into a fresh virtual environment, and that environment's own
``ratscrew play`` serves every page, a room game and a drill in Chromium without one failed request.

Every other test runs on the editable install, which reads the files straight from src/ and so hides a file the
wheel leaves out (the room's, the drills' and the score keeper's modules once were).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, ConsoleMessage, Page, Request, Response
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from harness.browser import SCREENSHOTS, WAIT_MS, until
from harness.server import Server, serving

ROOT = Path(__file__).resolve().parents[2]
# Built from their sources on install; the wheel carries the compiled modules instead.
BUILT_FROM = (".c", ".h")


@dataclass
class Installed:
    sdist: Path
    venv: Path
    package: Path  # the installed ratscrew folder in the venv's site-packages


def git_files(*paths: str) -> list[str]:
    """The files git would commit from the working tree: tracked ones still there, and new ones not ignored."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *paths],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return sorted(name for name in set(listed.split("\0")) if name and (ROOT / name).is_file())


def own_environment() -> dict[str, str]:
    """This process's variables less those that would point a Python at the editable install."""
    return {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}


def run(command: list[str], cwd: Path) -> None:
    """Run a build or install step; if it fails, the test says which, with what it printed."""
    done = subprocess.run(command, cwd=cwd, env=own_environment(), capture_output=True, text=True)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"


def install(work: Path) -> Installed:
    """The sdist built from a copy of the working tree, the wheel built from that sdist (as ``python -m build``
    and pip do, each in its own isolated build environment), and that wheel installed into a new venv."""
    tree = work / "tree"  # a clean clone's worth: no build/, egg-info or compiled kernels from the editable install
    for name in git_files():
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tree / name)
    dist = work / "dist"
    run([sys.executable, "-m", "build", "--outdir", str(dist), str(tree)], cwd=work)
    (sdist,) = dist.glob("*.tar.gz")
    (wheel,) = dist.glob("*.whl")
    # A venv of its own (not --system-site-packages): only the wheel and the dependencies it names, from the
    # index. This test's own pip installs into it, which saves the venv a copy of pip.
    venv = work / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=work)
    python = venv / "bin" / "python"
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", str(wheel)], cwd=work)
    where = subprocess.run(
        [str(python), "-c", "import ratscrew; print(ratscrew.__file__)"],
        cwd=work,
        capture_output=True,
        text=True,
        check=True,
        env=own_environment(),
    ).stdout.strip()
    package = Path(where).parent
    assert package.is_relative_to(venv), f"the venv imports ratscrew from {package}, not from its own install"
    return Installed(sdist, venv, package)


def missing_from_the_sdist(sdist: Path) -> list[str]:
    """The files under src/ (tracked, or new and not ignored) that the sdist leaves out."""
    with tarfile.open(sdist) as archive:
        top = sdist.name.removesuffix(".tar.gz")
        held = {name.removeprefix(f"{top}/") for name in archive.getnames()}
    return [name for name in git_files("src") if name not in held]


def missing_from_the_install(package: Path) -> list[str]:
    """The package's files (modules, stubs, translations, static files, at any depth) not installed."""
    present = {path.relative_to(package.parent).as_posix() for path in package.rglob("*")}
    wanted = [name.removeprefix("src/") for name in git_files("src/ratscrew") if not name.endswith(BUILT_FROM)]
    assert any(name.startswith("ratscrew/web/static/js/pages/room/") for name in wanted)  # the check sees depth 5
    return [name for name in wanted if name not in present]


# ------------------------------------------------------------------------------------------------ in Chromium


class Problems:
    """Everything that went wrong on a page: requests that failed or were refused, script and console errors."""

    def __init__(self, page: Page) -> None:
        self.seen: list[str] = []
        page.on("requestfailed", self._failed)
        page.on("response", self._answered)
        page.on("pageerror", lambda error: self.seen.append(f"script error: {error}"))
        page.on("console", self._console)

    def _failed(self, request: Request) -> None:
        self.seen.append(f"failed: {request.method} {request.url} ({request.failure})")

    def _answered(self, response: Response) -> None:
        if response.status >= 400:
            self.seen.append(f"{response.status}: {response.request.method} {response.url}")

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.seen.append(f"console error: {message.text}")


def shown(page: Page, problems: Problems, selector: str) -> None:
    """Wait until the page shows ``selector`` or the shell's error box (a page whose module did not load), then
    fail with every problem seen so far if anything went wrong."""
    try:
        page.wait_for_selector(f"{selector}, #view > .error-box:not([hidden])", timeout=WAIT_MS)
    except PlaywrightTimeout:
        # Say what the page showed instead: a form's own error box, a refused request, a script error.
        boxes = page.locator(".error-box:visible, [role=alert]:visible").all_inner_texts()
        raise AssertionError(f"at {page.url}: no {selector} in {WAIT_MS} ms; shown {boxes}; {problems.seen}") from None
    errors = page.locator("#view > .error-box:not([hidden])").all_inner_texts()
    assert not errors and not problems.seen, f"at {page.url}: {errors} {problems.seen}"


def visit(page: Page, problems: Problems, url: str, hash_: str) -> None:
    page.goto(url + hash_)
    # The router clears the view, then fills it once the page's module has loaded.
    page.wait_for_function("h => location.hash === h && document.querySelector('#view').children.length > 0", arg=hash_)
    shown(page, problems, "#view > *")


def links(page: Page, selector: str) -> list[str]:
    hrefs: list[str] = page.eval_on_selector_all(selector, "els => els.map(e => e.getAttribute('href'))")
    return list(dict.fromkeys(hrefs))


FLIP_UNTIL = """selector => {
  const button = document.querySelector('.flip-button.ready');
  if (button) button.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}));
  return document.querySelector(selector) !== null;
}"""


def play_a_room_to_its_card_limit(page: Page, problems: Problems) -> None:
    """A private room of two created from the Play page, its second seat a computer; the game stops at 6 cards."""
    page.fill("#online-name", "Ann")
    page.select_option("#online-seats", "2")
    page.click("details.house-rules summary")
    page.fill("#opt-end-max_cards", "6")
    page.dispatch_event("#opt-end-max_cards", "change")
    page.click("#create-room")
    shown(page, problems, "#room-seat-0.mine")
    page.select_option("#bot-1", "easy")
    page.wait_for_selector("#room-seat-1.kind-bot")
    page.click("#ready-button")
    page.click("#start-button:not([disabled])")
    shown(page, problems, "#flip-0")
    until(page, lambda: bool(page.evaluate(FLIP_UNTIL, "#rematch")), "the room's game at its card limit")


def test_the_installed_package_holds_every_file_and_plays_in_chromium(browser: Browser, tmp_path: Path) -> None:
    """One test, so the package is built once: pytest-xdist's groups (conftest.py) do not hold under pytest 9.2,
    and a fixture shared by several tests was built again in each worker that ran one of them."""
    installed = install(tmp_path / "package")
    missing = missing_from_the_sdist(installed.sdist)
    assert not missing, f"the sdist leaves out {missing}"
    missing = missing_from_the_install(installed.package)
    assert not missing, f"the installed package leaves out {len(missing)} files: {missing}"
    # Installed without its extras: the commands that need one say which, in one line (no worker started).
    for command, extra in ((["serve", "--workers", "1", "--port", "1"], "hosting"), (["tui"], "tui")):
        done = subprocess.run(
            [str(installed.venv / "bin" / "ratscrew"), *command], env=own_environment(), capture_output=True, text=True
        )
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, (command, done.stderr)
        assert f"pip install 'ratscrew[{extra}]'" in done.stderr, done.stderr
    data = tmp_path / "data"
    process = subprocess.Popen(
        [str(installed.venv / "bin" / "ratscrew"), "play", "--no-browser", "--port", "0", "--data", str(data)],
        cwd=tmp_path,
        env=own_environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    server: Server = serving(process, data)
    context = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-GB")
    try:
        page = context.new_page()
        problems = Problems(page)
        url = server.url
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]")
        shown(page, problems, "#start-game")

        # Every page of the shell's navigation, and every page those link to in their own navigation.
        nav = links(page, ".mainnav a[data-nav]")
        assert {"#/", "#/learn", "#/drills", "#/scores", "#/history"} <= set(nav), nav
        for hash_ in nav:
            visit(page, problems, url, hash_)
            for inner in links(page, "#view .subnav a, #view .drill-tile a.button"):
                visit(page, problems, url, inner)

        # A drill: one question answered from the keyboard, and a run of the timed stream stopped with Escape.
        visit(page, problems, url, "#/drills/debt")
        page.wait_for_selector(".choice")
        page.keyboard.press("1")
        shown(page, problems, ".feedback:not([hidden])")
        visit(page, problems, url, "#/drills/stream")
        page.click(".start")
        page.wait_for_selector(".stream-progress")
        page.keyboard.press("Escape")
        shown(page, problems, ".stream-results")

        # The score keeper: a match started and its first round given to the first player.
        visit(page, problems, url, "#/scores")
        page.wait_for_selector(".sk-saved-body:not([aria-busy])")  # the saved matches listed: the page is whole
        names = page.locator(".sk-player-row input")
        names.nth(0).fill("Léa")
        names.nth(1).fill("Tom")
        page.click(".sk-start")
        shown(page, problems, ".sk-tile")
        page.keyboard.press("1")
        page.wait_for_function(
            "[...document.querySelectorAll('.sk-tile .sk-tile-wins')].some(e => e.textContent === '1')"
        )

        # A game against the computer, until a card is on the pile.
        visit(page, problems, url, "#/")
        page.click("#start-game")
        shown(page, problems, "#flip-0")
        until(page, lambda: bool(page.evaluate(FLIP_UNTIL, "#pile .pile-card")), "a card on the pile")

        # A room, then its game in the history and its replay.
        visit(page, problems, url, "#/")
        play_a_room_to_its_card_limit(page, problems)
        visit(page, problems, url, "#/history")
        page.click("#view a[href^='#/replay/']")
        shown(page, problems, "#replay-seats .replay-count")

        # The other languages' words come from the installed catalogs.
        for lang in ("fr", "de"):
            page.select_option("#lang-select", lang)
            page.wait_for_selector(f"body[data-lang={lang}]")
        shown(page, problems, "#replay-seats .replay-count")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "installed-replay.png"), animations="disabled")
    finally:
        context.close()
        server.stop()
