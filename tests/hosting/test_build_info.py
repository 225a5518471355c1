"""Which ratscrew runs: ``/healthz`` and ``/api/meta`` carry the version and the commit it was built from.

Run from this checkout, the commit is git's. A package built from git knows its commit without ``.git``:
the build writes it into ``ratscrew/COMMIT`` (setup.py), an sdist carries it so a wheel built from the sdist
knows it too, and only a package built outside git says "unknown". The builds run on a copy of this checkout
with a repository of its own, with the setuptools this project builds with (pyproject.toml)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from ratscrew import __version__, build
from ratscrew.hosting.settings import Hosting
from ratscrew.hosting.site import Hosted
from ratscrew.web.app import create_app

ROOT = Path(__file__).resolve().parents[2]


def git(folder: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True, check=True, timeout=120)
    return done.stdout.strip()


def checked_out(folder: Path) -> str:
    """What git says is checked out in ``folder``: the commit, and whether tracked files differ from it."""
    changed = subprocess.run(["git", "diff-index", "--quiet", "HEAD", "--"], cwd=folder, check=False).returncode
    return git(folder, "rev-parse", "HEAD") + ("-dirty" if changed else "")


def test_healthz_and_meta_say_the_version_and_the_commit_of_this_checkout(tmp_path: Path) -> None:
    expected = checked_out(ROOT)
    hosting = Hosting(ports=(8001,), data_dir=tmp_path)
    with TestClient(create_app(tmp_path, setup=Hosted(hosting, lambda: False))) as client:
        health = client.get("/healthz").json()
        meta = client.get("/api/meta").json()
    assert (health["version"], health["commit"]) == (__version__, expected)
    assert (meta["version"], meta["commit"]) == (__version__, expected)


@pytest.fixture(scope="module")
def setuptools_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The setuptools pyproject.toml builds with (this environment may hold an older one), installed apart."""
    target = tmp_path_factory.mktemp("setuptools")
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-warn-script-location", "--target", str(target)]
    subprocess.run([*pip, "setuptools>=77"], check=True, capture_output=True, timeout=600)
    return target


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """This checkout's files as they are now, in a repository of their own with one commit: its folder and
    the commit."""
    folder = tmp_path_factory.mktemp("checkout") / "ratscrew"
    for name in git(ROOT, "ls-files", "-z").split("\0"):
        if name and (ROOT / name).is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, folder / name)
    git(folder, "init", "--quiet")
    git(folder, "add", "--all")
    git(folder, "-c", "user.name=test", "-c", "user.email=test@example.org", "commit", "--quiet", "-m", "copy")
    return folder, git(folder, "rev-parse", "HEAD")


def run_setup(folder: Path, setuptools: Path, *args: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(setuptools)}
    subprocess.run([sys.executable, *args], cwd=folder, env=env, check=True, capture_output=True, timeout=600)


def built_commit(lib: Path) -> tuple[str, str]:
    """The commit in a built package's ``COMMIT``, and the one it reports, imported from ``lib`` (no git)."""
    code = "from ratscrew import build; print(build.commit())"
    env = {**os.environ, "PYTHONPATH": str(lib)}
    said = subprocess.run([sys.executable, "-c", code], cwd=lib, env=env, capture_output=True, text=True, check=True)
    return (lib / "ratscrew" / "COMMIT").read_text().strip(), said.stdout.strip()


def test_a_package_built_from_git_or_from_its_sdist_knows_its_commit(
    copy: tuple[Path, str], setuptools_path: Path, tmp_path: Path
) -> None:
    folder, commit = copy
    # Built in the checkout (as `pip install .` or `pip wheel .` do).
    run_setup(folder, setuptools_path, "setup.py", "--quiet", "build_py", "--build-lib", str(tmp_path / "lib"))
    assert built_commit(tmp_path / "lib") == (commit, commit)
    # The sdist carries the commit; a package built from it, where there is no .git, knows it.
    code = f"from setuptools import build_meta; build_meta.build_sdist({str(tmp_path / 'dist')!r})"
    run_setup(folder, setuptools_path, "-c", code)
    (sdist,) = (tmp_path / "dist").glob("ratscrew-*.tar.gz")
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path / "unpacked", filter="data")
    (unpacked,) = (tmp_path / "unpacked").iterdir()
    assert (unpacked / "src" / "ratscrew" / "COMMIT").read_text().strip() == commit
    assert not (unpacked / ".git").exists()
    run_setup(unpacked, setuptools_path, "setup.py", "--quiet", "build_py", "--build-lib", str(tmp_path / "from-sdist"))
    assert built_commit(tmp_path / "from-sdist") == (commit, commit)
    assert not (folder / "src" / "ratscrew" / "COMMIT").exists()  # the checkout itself is left as it was


def test_a_package_built_outside_git_says_its_commit_is_unknown(
    copy: tuple[Path, str], setuptools_path: Path, tmp_path: Path
) -> None:
    folder, _ = copy
    exported = tmp_path / "exported"
    shutil.copytree(folder, exported, ignore=shutil.ignore_patterns(".git"))
    run_setup(exported, setuptools_path, "setup.py", "--quiet", "build_py", "--build-lib", str(tmp_path / "lib"))
    assert built_commit(tmp_path / "lib") == (build.UNKNOWN, build.UNKNOWN)
