"""Builds the optional C accelerator for Beggar-my-neighbour; ratscrew works without it (pure Python)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("ratscrew._bmn_fast", ["src/ratscrew/_bmn_fast.c"], optional=True,
                             extra_compile_args=["-O2"])])
