"""stats_pkg's kernels are built with the package (see dynac.build)."""
from setuptools import setup

from dynac.build import dynac_extensions

setup(ext_modules=dynac_extensions(["stats_pkg/fast.py"]))
