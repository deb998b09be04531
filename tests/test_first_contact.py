"""A newcomer's first ten minutes (issue 12, items 1-6): set-up, first run, typos."""

from __future__ import annotations

import importlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import slidelab
from slidelab import Puzzle, check
from slidelab.errors import BoardError

PACKAGE = Path(slidelab.__file__).resolve().parent


# -- 1. compiled kernels are cached outside the installed package ---------------------------

def test_kernels_are_cached_outside_the_package():
    from slidelab._jit import kernel_cache_dir

    kernels = []
    for name in ("slidelab.heuristics.manhattan", "slidelab.search.idastar", "slidelab.search.bfs",
                 "slidelab.heuristics.pdb", "slidelab.analysis.layers", "slidelab.ranking"):
        module = importlib.import_module(name)
        kernels += [v for v in vars(module).values() if hasattr(getattr(v, "_cache", None), "_cache_path")]
    assert len(kernels) > 10
    for kernel in kernels:
        where = Path(kernel._cache._cache_path).resolve()
        assert PACKAGE not in where.parents, where
        assert kernel_cache_dir().resolve() in where.parents or "slidelab-kernels" in str(where)


def test_no_cache_files_in_the_package_after_a_solve(tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path), "SLIDELAB_CACHE": str(tmp_path / "t")}
    before = {p for p in PACKAGE.rglob("*") if p.suffix in (".nbi", ".nbc")}
    run = subprocess.run([sys.executable, "-m", "slidelab", "solve", "1 2 3/4 5 6/0 7 8",
                          "--method", "idastar"], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    after = {p for p in PACKAGE.rglob("*") if p.suffix in (".nbi", ".nbc")}
    assert after - before == set()
    assert list((tmp_path / "slidelab" / "kernels").rglob("*.nbi"))
