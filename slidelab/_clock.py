"""The one clock of an answer: a time limit counted from the call, getting kernels ready
excluded.

A ``time_limit`` bounds the whole answer (``solve``, ``generate --distance``, a
batch instance): choosing a method, building or loading tables, searching,
falling back.  Every part of one answer reads the same :class:`Clock`, started
when the answer was asked for.  The one thing it does not count is getting
slidelab's kernels ready: compiling them, once per install (announced on the
command line), and loading them, once per process (importing numba, and reading
each kernel from the kernel cache): :mod:`slidelab._jit` adds the seconds numba
holds its compiler lock to :func:`compile_seconds`, this module the seconds numba
takes to import, and a clock leaves out what was spent so while it ran.

This module imports no numba, so front ends can make clocks at start-up.

Examples
--------
>>> clock = Clock(10)
>>> 9 < clock.left() <= 10, clock.over()
(True, False)
>>> Clock(None).left() is None
True
"""

from __future__ import annotations

import importlib.abc
import math
import sys
import threading
import time

_lock = threading.Lock()
_compiling = {"seconds": 0.0, "depth": 0, "began": 0.0}


def compile_seconds() -> float:
    """Seconds this process has spent compiling or loading kernels so far (one in progress
    counts up to now)."""
    with _lock:
        seconds = _compiling["seconds"]
        if _compiling["depth"]:
            seconds += time.perf_counter() - _compiling["began"]
        return seconds


def compiling_started() -> None:
    """Compiling or loading a kernel began (called by :mod:`slidelab._jit`; they nest, and
    threads waiting for numba's compiler lock count once)."""
    with _lock:
        if _compiling["depth"] == 0:
            _compiling["began"] = time.perf_counter()
        _compiling["depth"] += 1


def compiling_ended() -> None:
    """Compiling or loading a kernel ended."""
    with _lock:
        _compiling["depth"] = max(0, _compiling["depth"] - 1)
        if _compiling["depth"] == 0:
            _compiling["seconds"] += time.perf_counter() - _compiling["began"]


class _TimedLoader(importlib.abc.Loader):
    """numba's own loader, its import counted as getting kernels ready (every other attribute
    is the wrapped loader's: resources, source, ...)."""

    def __init__(self, loader):
        self._loader = loader

    def __getattr__(self, name):
        return getattr(self._loader, name)

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        compiling_started()
        try:
            self._loader.exec_module(module)
        finally:
            compiling_ended()


class _NumbaImportClock(importlib.abc.MetaPathFinder):
    """Times the import of numba (about half a second, once per process, wherever it first
    happens: a method's module, a heuristic's) as getting kernels ready: a first answer in a
    fresh process (a batch or web worker) is not charged for it."""

    def find_spec(self, fullname, path, target=None):
        if fullname != "numba":
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _TimedLoader(spec.loader)
                return spec
        return None


if "numba" not in sys.modules and not any(isinstance(f, _NumbaImportClock) for f in sys.meta_path):
    sys.meta_path.insert(0, _NumbaImportClock())


class Clock:
    """Seconds since an answer was asked for (getting kernels ready excluded), against its time
    limit.

    Parameters
    ----------
    limit : float or None
        The answer's time limit in seconds (None or infinite: no limit).
    """

    __slots__ = ("limit", "began", "_compiled")

    def __init__(self, limit: float | None = None):
        self.limit = None if limit is None or math.isinf(limit) else float(limit)
        self.began = time.perf_counter()
        self._compiled = compile_seconds()

    def __repr__(self) -> str:
        return f"Clock({self.limit!r})"

    def elapsed(self) -> float:
        """Seconds since the clock started, less the seconds spent compiling or loading kernels
        since."""
        return time.perf_counter() - self.began - (compile_seconds() - self._compiled)

    def left(self) -> float | None:
        """Seconds left before the limit (negative past it), or None without a limit."""
        return None if self.limit is None else self.limit - self.elapsed()

    def over(self) -> bool:
        """Whether the limit has passed."""
        left = self.left()
        return left is not None and left <= 0
