"""The compiled kernels are built and importable, and RATSCREW_PURE_PYTHON=1 forces the Python path.

No test skips when a kernel is missing: a build that failed must turn the run red, not quietly test the
Python path twice.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys

import pytest

from ratscrew import bmn, kernels


@pytest.mark.parametrize("name", kernels.KERNELS)
def test_every_kernel_is_built_and_importable(name: str) -> None:
    module = importlib.import_module(name)  # an ImportError here means the C build is broken
    assert module.__file__ is not None and not module.__file__.endswith(".py")


def test_the_lab_uses_the_kernel_unless_told_not_to() -> None:
    assert bmn.HAVE_ACCELERATOR is not kernels.pure_python_forced()


@pytest.mark.parametrize(("value", "forced"), [("1", True), ("yes", True), ("0", False), ("", False), (" ", False)])
def test_the_switch_reads_anything_but_empty_or_zero_as_on(
    monkeypatch: pytest.MonkeyPatch, value: str, forced: bool
) -> None:
    monkeypatch.setenv(kernels.PURE_PYTHON_ENV, value)
    assert kernels.pure_python_forced() is forced
    for name in kernels.KERNELS:
        assert (kernels.load(name) is None) is forced


def bmn_random(env_value: str | None) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != kernels.PURE_PYTHON_ENV}
    if env_value is not None:
        env[kernels.PURE_PYTHON_ENV] = env_value
    done = subprocess.run(
        [sys.executable, "-m", "ratscrew", "bmn", "--random", "300", "--seed", "4", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    )
    doc: dict[str, object] = json.loads(done.stdout)
    return doc


def test_the_switch_forces_the_python_player_with_the_same_figures() -> None:
    compiled, pure = bmn_random(None), bmn_random("1")
    assert (compiled["kernel"], pure["kernel"]) == ("c", "python")
    for key in ("games", "mean_cards", "max_cards", "loops"):
        assert compiled[key] == pure[key]
