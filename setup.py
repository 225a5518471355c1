"""Builds the C kernels the lab runs on (see src/ratscrew/kernels.py); an install fails if they do not build."""

from setuptools import Extension, setup

# The game kernel must round every float exactly as CPython does: no fused multiply-adds, no fast math.
EXACT_FLOATS = ["-O2", "-fno-fast-math", "-ffp-contract=off"]

setup(
    ext_modules=[
        Extension("ratscrew._bmn_fast", ["src/ratscrew/_bmn_fast.c"], extra_compile_args=["-O2"]),
        Extension("ratscrew._bmn_hunt", ["src/ratscrew/_bmn_hunt.c"], extra_compile_args=["-O2"]),
        Extension("ratscrew._ers_fast", ["src/ratscrew/_ers_fast.c"], extra_compile_args=EXACT_FLOATS),
    ]
)
