"""Builds the C kernels the lab runs on (see src/ratscrew/kernels.py); an install fails if they do not build.
Writes the commit the package is built from into ratscrew/COMMIT (read by src/ratscrew/build.py)."""

import runpy
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

# The game kernel must round every float exactly as CPython does: no fused multiply-adds, no fast math.
EXACT_FLOATS = ["-O2", "-fno-fast-math", "-ffp-contract=off"]
# A pattern's match_<key> function that _ers_rules.h names and the C lacks is an error, not a warning (C99 compilers
# before GCC 14 would only warn, and the module would fail to load later instead).
KERNEL_FLAGS = [*EXACT_FLOATS, "-Werror=implicit-function-declaration"]
HERE = Path(__file__).resolve().parent


def built_from() -> str:
    """git's commit in a checkout; else the one an sdist carries; else unknown (built outside git)."""
    found = runpy.run_path(str(HERE / "src/ratscrew/build.py"))["commit_of_checkout"](HERE)
    carried = HERE / "src/ratscrew/COMMIT"
    return found or (carried.read_text().strip() if carried.is_file() else "unknown")


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        target = Path(self.build_lib, "ratscrew", "COMMIT")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(built_from() + "\n")


class Sdist(sdist):
    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        target = Path(base_dir, "src", "ratscrew", "COMMIT")
        target.unlink(missing_ok=True)  # never write through a hard link to the checkout's own file
        target.write_text(built_from() + "\n")


setup(
    cmdclass={"build_py": BuildPy, "sdist": Sdist},
    ext_modules=[
        Extension("ratscrew._bmn_fast", ["src/ratscrew/_bmn_fast.c"], extra_compile_args=["-O2"]),
        Extension("ratscrew._bmn_hunt", ["src/ratscrew/_bmn_hunt.c"], extra_compile_args=["-O2"]),
        # _ers_rules.h is generated from the rules' declarations (ratscrew/lab/kernel_header.py) and committed.
        Extension(
            "ratscrew._ers_fast",
            ["src/ratscrew/_ers_fast.c"],
            depends=["src/ratscrew/_ers_rules.h"],
            extra_compile_args=KERNEL_FLAGS,
        ),
    ],
)
