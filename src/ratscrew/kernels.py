"""Loading the compiled kernels (C extensions built by pip from the repository) for the lab.

The readable Python code is the reference and always works; a kernel only makes the same figures come
sooner. Setting ``RATSCREW_PURE_PYTHON=1`` forces the Python path everywhere, for comparing the two or for
a machine that has no compiler. An install always builds the kernels (``setup.py``), and the test suite
fails if one cannot be imported, so a broken build cannot pass unnoticed; a kernel that is missing all the
same (say, the source tree used without installing it) leaves the Python path in charge.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

PURE_PYTHON_ENV = "RATSCREW_PURE_PYTHON"
KERNELS = ("ratscrew._bmn_fast", "ratscrew._bmn_hunt", "ratscrew._ers_fast")


def pure_python_forced() -> bool:
    """``RATSCREW_PURE_PYTHON`` is set to anything but empty or ``0``."""
    return os.environ.get(PURE_PYTHON_ENV, "").strip() not in ("", "0")


def load(name: str) -> ModuleType | None:
    """The kernel module ``name``, or None when the Python path is forced or the kernel was not built."""
    if pure_python_forced():
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None
