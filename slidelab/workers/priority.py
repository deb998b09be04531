"""A worker process's priority, lowered once its own urgent work is done.

A worker warms up at the server's priority (the server's one-time work: the requests that
come meanwhile wait for it), then yields the CPU as its lane says (:mod:`slidelab.web.lanes`);
the server's builder of later tables yields it to everything.  The kernels' threads are
started by then, and on Linux each thread has its own niceness: every thread of the process is
lowered, and the threads started later inherit it.

This module imports neither FastAPI nor numba.
"""

from __future__ import annotations

import os
from contextlib import suppress


def lower_priority(nice: int) -> None:
    """Lower this process's priority by ``nice`` (at most to 19): each of its threads' where
    they have their own (Linux), else the process's.  Nothing where it cannot be lowered."""
    if nice <= 0:
        return
    try:
        threads = [int(tid) for tid in os.listdir("/proc/self/task")]
    except (OSError, ValueError):
        threads = []
    if not threads:
        with suppress(AttributeError, OSError):
            os.nice(nice)
        return
    for tid in threads:
        with suppress(OSError):  # a thread that ended meanwhile
            now = os.getpriority(os.PRIO_PROCESS, tid)
            os.setpriority(os.PRIO_PROCESS, tid, min(19, now + nice))


__all__ = ["lower_priority"]
