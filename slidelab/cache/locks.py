"""Locks on tables: one process builds a missing table, the others wait for it.

An exclusive lock (``flock``) on ``<key>.lock`` in the cache directory makes processes that want
the same missing table build it once: the others wait, then load it.  Housekeeping (deleting
tables) takes the lock without waiting, and leaves a table whose lock is held to its builder.
Where there is no ``fcntl`` (not POSIX), nothing is locked.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from ..errors import CacheError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no locking
    fcntl = None

__all__ = ["LOCKING", "acquire", "locked", "release", "unless_busy"]

LOCKING = fcntl is not None
"""Whether tables are locked here (POSIX); where they are not, :func:`unless_busy` holds nothing."""


def acquire(lock_path: Path, blocking: bool = True) -> int | None:
    """Take the exclusive lock ``lock_path``: its descriptor, or None when not blocking and busy."""
    while True:
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise CacheError(
                f"cannot write to the table cache directory {lock_path.parent}: {e.strerror or e}"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
        except BlockingIOError:
            os.close(fd)
            return None
        except BaseException:
            os.close(fd)
            raise
        # The previous holder deletes the lock file before letting go; a lock on a
        # deleted file excludes nobody, so take the lock again on the current file.
        try:
            current = os.path.samestat(os.fstat(fd), os.stat(lock_path))
        except FileNotFoundError:
            current = False
        if current:
            return fd
        os.close(fd)


def release(fd: int, lock_path: Path) -> None:
    """Delete the lock file, then let go of it (see :func:`acquire`)."""
    with suppress(OSError):
        os.unlink(lock_path)
    os.close(fd)


@contextmanager
def locked(lock_path: Path) -> Iterator[None]:
    """Hold the lock ``lock_path`` for the ``with`` block, waiting for it if another holds it."""
    if fcntl is None:  # pragma: no cover - not POSIX
        if not os.access(lock_path.parent, os.W_OK):
            raise CacheError(f"cannot write to the table cache directory {lock_path.parent}")
        yield
        return
    fd = acquire(lock_path)
    try:
        yield
    finally:
        release(fd, lock_path)


@contextmanager
def unless_busy(lock_path: Path) -> Iterator[bool]:
    """Hold the lock ``lock_path`` for the ``with`` block if no one else holds it, without
    waiting: yields whether it is held, and True where nothing is locked (not POSIX)."""
    fd = acquire(lock_path, blocking=False) if fcntl is not None else None
    try:
        yield fcntl is None or fd is not None
    finally:
        if fd is not None:
            release(fd, lock_path)
