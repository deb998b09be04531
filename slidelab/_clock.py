"""The one clock of an answer: a time limit counted from the call, getting kernels ready
excluded.

A ``time_limit`` bounds the whole answer (``solve``, ``generate --distance``, a
batch instance): choosing a method, building or loading tables, searching,
falling back.  Every part of one answer reads the same :class:`Clock`, started
when the answer was asked for.  The one thing it does not count is getting
slidelab's kernels ready: compiling them, once per install (announced on the
command line), and loading them from the kernel cache, once per process:
:mod:`slidelab._jit` adds the seconds numba spends doing either to
:func:`compile_seconds`, and a clock leaves out what was spent so while it ran.

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

import math
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
