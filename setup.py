"""Builds the C kernels the lab runs on (see src/ratscrew/kernels.py); an install fails if they do not build."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("ratscrew._bmn_fast", ["src/ratscrew/_bmn_fast.c"], extra_compile_args=["-O2"])])
