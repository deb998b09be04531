"""One process compiles a kernel; the others wait for it and then load it from the cache.

numba compiles a kernel in every process that calls it before it is in the on-disk cache: a
server's warm-up and its two search workers, a Dask cluster's workers, two test processes all
compiled the same kernels side by side, each paying the whole compile (tens of seconds a set on
2 cores) on cores the others needed.  Here a kernel's cache miss takes a file lock beside its
cache index (``<index>.lock``, ``flock``): a second process that misses the same kernel waits
for the lock, looks in the cache again and loads what the first one saved.  The lock is let go
when the kernel is saved, when its compile fails, or when the process ends (the system drops a
dead process's ``flock``).

Only slidelab's own kernels (those :class:`slidelab._jit.KernelLocator` places: :func:`install`)
take the lock.
A process holds the locks of the kernels it is compiling now, callees included; the kernels
call each other without cycles, so two processes never wait for each other.  Waiting counts as
compiling for the time limits (it happens under numba's compiler lock, which
:mod:`slidelab._jit` times).
"""

from __future__ import annotations

import logging
import os
import threading

from numba.core import caching, event

try:
    import fcntl
except ImportError:  # not on Windows: there each process compiles for itself, as before
    fcntl = None  # type: ignore[assignment]

_ours: list[type] = []  # the locator class of slidelab's kernels (:func:`install`)
_held: dict[str, int] = {}  # lock file -> descriptor, the locks this process holds
_said: list[bool] = []  # whether this process said it waits
_guard = threading.Lock()
_load = caching.Cache.load_overload
_save = caching.Cache.save_overload


def _lock_file(cache) -> str | None:
    """The lock file of a cache of slidelab's kernels, else None."""
    if not _ours or not isinstance(getattr(cache._impl, "locator", None), _ours[0]):
        return None
    return cache._cache_file._index_path + ".lock"


def _release(path: str) -> None:
    with _guard:
        fd = _held.pop(path, None)
    if fd is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)


def load_overload(self, sig, target_context):
    """numba's load, and on a miss of one of slidelab's kernels: wait until no other process
    compiles it, then look again (None: this process compiles it, holding the lock)."""
    data = _load(self, sig, target_context)
    path = _lock_file(self) if data is None and fcntl is not None else None
    if path is None or path in _held:  # not ours, found, or this process compiles it already
        return data
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:  # a read-only cache: compile without the lock
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not _said:
                _said.append(True)
                logging.getLogger("slidelab.kernels").info(
                    "another slidelab process is compiling kernels this needs: waiting for it,"
                    " then loading them from the cache (not counted in time limits)"
                )
            fcntl.flock(fd, fcntl.LOCK_EX)
    except BaseException:
        os.close(fd)
        raise
    with _guard:
        _held[path] = fd
    data = _load(self, sig, target_context)
    if data is not None:  # the other process saved it
        _release(path)
    return data


def save_overload(self, sig, data):
    """numba's save, then the kernel's lock let go."""
    try:
        _save(self, sig, data)
    finally:
        path = _lock_file(self)
        if path is not None:
            _release(path)


class _FailedCompile(event.Listener):
    """Lets go of a kernel's lock when its compile ends in an error (no save follows)."""

    def on_start(self, ev):
        pass

    def on_end(self, ev):
        # the exception itself: numba's ``Event.is_failed`` says the opposite (0.68: ``is None``)
        if getattr(ev, "_exc_details", None) is not None:
            cache = getattr(ev.data.get("dispatcher"), "_cache", None)
            path = _lock_file(cache) if cache is not None and hasattr(cache, "_impl") else None
            if path is not None:
                _release(path)


def install(locator: type) -> None:
    """Take the lock for the kernels whose cache ``locator`` places (once per process)."""
    if _ours or fcntl is None:
        return
    _ours.append(locator)
    caching.Cache.load_overload = load_overload  # type: ignore[method-assign]
    caching.Cache.save_overload = save_overload  # type: ignore[method-assign]
    event.register("numba:compile", _FailedCompile())
