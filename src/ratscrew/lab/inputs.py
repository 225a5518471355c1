"""The lab's checks of what it is given, each written once and worded for whoever gave it.

The same numbers arrive as ``--games 0`` on the command line and as ``games=0`` in a notebook, so a check's
message names the input as its caller wrote it: a check raises :class:`LabInputError` with its message as a
function of a :class:`Spelling`. Read as it is (``str(error)``), the message names the Python API's parameters
(``games must be at least 1, got 0``); a command re-words it with its options inside :func:`worded_for`
(``--games must be at least 1, got 0``).

>>> try:
...     check_count("games", 0)
... except LabInputError as exc:
...     print(exc)
...     print(exc.worded(COMMAND_LINE))
games must be at least 1, got 0
--games must be at least 1, got 0
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ratscrew.errors import MalformedInput

# Options whose name is not the parameter's with "--" before it and "-" for "_".
_OPTIONS = {"sets": "--set"}


@dataclass(frozen=True, slots=True)
class Spelling:
    """How a message names an input: the command line's options, or the Python API's parameters."""

    command_line: bool

    def name(self, param: str, key: str | None = None) -> str:
        """``param`` (``games``), or one ``key`` of it (``vary`` and ``sets`` hold a value per key):
        ``--games``, ``--vary players``, ``--set slaps.run`` on the command line; ``games``,
        ``vary['players']``, ``sets['slaps.run']`` in Python."""
        if self.command_line:
            option = _OPTIONS.get(param, f"--{param.replace('_', '-')}")
            return option if key is None else f"{option} {key}"
        return param if key is None else f"{param}[{key!r}]"

    def given(self, param: str, value: object, key: str | None = None) -> str:
        """An input and the value it was given: ``--bots 'a,,b'`` on the command line, ``bots='a,,b'`` (or
        ``'a,,b' in vary['bots']``) in Python."""
        if self.command_line:
            return f"{self.name(param, key)} {value!r}"
        return f"{param}={value!r}" if key is None else f"{value!r} in {self.name(param, key)}"


PYTHON = Spelling(command_line=False)
COMMAND_LINE = Spelling(command_line=True)


class LabInputError(MalformedInput):
    """An input the lab cannot take, its message worded for the Python API unless re-worded."""

    def __init__(self, words: Callable[[Spelling], str]) -> None:
        super().__init__(words(PYTHON))
        self.words = words

    def worded(self, spelling: Spelling) -> str:
        return self.words(spelling)

    def __reduce__(self) -> tuple[type[MalformedInput], tuple[str]]:
        # Sent back from a worker process it stays a plain error with the Python wording (a function of the
        # message does not pickle).
        return MalformedInput, (str(self),)


@contextmanager
def worded_for(spelling: Spelling) -> Iterator[None]:
    """Inside: a :class:`LabInputError` comes out as a :class:`MalformedInput` worded for ``spelling``."""
    try:
        yield
    except LabInputError as exc:
        raise MalformedInput(exc.worded(spelling)) from None


def check_count(param: str, value: int) -> None:
    """A count the lab needs at least one of (games, replicates)."""
    if value < 1:
        raise LabInputError(lambda s: f"{s.name(param)} must be at least 1, got {value}")


def check_seed(seed: int) -> None:
    if seed < 0:
        raise LabInputError(lambda s: f"{s.name('seed')} must be a non-negative integer, got {seed}")


def check_place(workers: int | None, scheduler: str | None) -> None:
    """``workers`` is a positive count of local processes, and does not go with ``scheduler``."""
    if workers is not None and workers < 1:
        raise LabInputError(lambda s: f"{s.name('workers')} must be at least 1, got {workers}")
    if workers is not None and scheduler is not None:
        raise LabInputError(
            lambda s: (
                f"{s.name('workers')} counts local processes and {s.name('scheduler')} sends the work to a "
                "Dask cluster: give one or the other"
            )
        )
    if scheduler is not None and not scheduler.strip():
        raise LabInputError(
            lambda s: (
                f"{s.name('scheduler')} needs an address, e.g. "
                + ("--scheduler tcp://127.0.0.1:8786" if s.command_line else "scheduler='tcp://127.0.0.1:8786'")
            )
        )
