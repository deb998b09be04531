"""The tables loaded in this process: one cache for every family, bounded in memory.

What a heuristic makes of a set of tables (a pattern database's groups ready for the search
kernels, an abstraction's tables joined in memory) takes a fraction of a second to a few
seconds to make, and hundreds of megabytes to hold: it is made once a process and kept here,
by a key of the maker's (a :class:`~slidelab.tables.family.Tables` and its options), with the
cache files it was read from.  An entry is used again only while those files are still the
same files in the table cache (not deleted, nor deleted and written again: the cache's size
limit, ``slidelab tables clear``), and each use marks them used (:func:`slidelab.cache.touch`,
by which the cache's size limit deletes the least recently used first).  Past
:func:`limit_bytes` of entries held, the least recently used are let go.

A value is made once even when several threads ask for it at once (the searches of a stream
start together): :meth:`Loaded.made` lets one thread make it while the others wait for it,
rather than each loading the same tables and making the same value again.

Examples
--------
>>> LOADED.put(("example",), [1, 2, 3], files=[], nbytes=24)
>>> LOADED.get(("example",))
[1, 2, 3]
>>> LOADED.forget(("example",)), LOADED.get(("example",)) is None
(True, True)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: the share of this machine's memory that loaded tables may hold, at most
SHARE = 0.5


def limit_bytes() -> int:
    """Bytes of loaded tables kept at most: :data:`SHARE` of the machine's memory."""
    from ..memory import physical_memory

    return int(SHARE * physical_memory())


@dataclass
class _Entry:
    value: Any
    files: list  # (path, inode) of each file the value was read from
    nbytes: int


def _file_id(path: Path):
    try:
        return path, path.stat().st_ino
    except OSError:
        return None


class Loaded:
    """Made values of loaded tables, by key, least recently used first."""

    def __init__(self):
        self._entries: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        self._making: dict = {}  # key -> the lock held by the thread making its value

    def made(self, key, make: Callable[[], tuple[Any, list, int]]) -> Any:
        """The value kept for ``key`` (:meth:`get`), else ``make()``'s, kept (:meth:`put`):
        ``make`` returns the value, the cache files it was read from and the bytes it holds.
        One thread makes a key's value at a time; another asking for it meanwhile waits, then
        takes the value made (or, if that make failed, makes it itself)."""
        value = self.get(key)
        if value is not None:
            return value
        with self._lock:
            making = self._making.setdefault(key, threading.Lock())
        try:
            with making:
                value = self.get(key)
                if value is None:
                    value, files, nbytes = make()
                    self.put(key, value, files, nbytes)
        finally:
            with self._lock:
                if self._making.get(key) is making and not making.locked():
                    del self._making[key]
        return value

    def get(self, key) -> Any:
        """The value kept for ``key`` if its files are still the same in the cache (each marked
        used now), else None (an entry whose files changed is let go)."""
        from ..cache import touch

        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if not _unchanged(entry):
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
        for path, _ in entry.files:
            touch(path)
        return entry.value

    def put(self, key, value, files, nbytes: int) -> None:
        """Keep ``value`` for ``key``: read from the cache ``files`` (paths; a file not there,
        such as a table left unsaved, is not checked), holding ``nbytes``; the least recently
        used entries are let go past :func:`limit_bytes`."""
        ids = [found for found in (_file_id(Path(f)) for f in files) if found is not None]
        with self._lock:
            self._entries[key] = _Entry(value, ids, int(nbytes))
            self._entries.move_to_end(key)
            limit = limit_bytes()
            while len(self._entries) > 1 and self.nbytes() > limit:
                self._entries.popitem(last=False)

    def forget(self, key) -> bool:
        """Let go of ``key``'s entry; whether there was one."""
        with self._lock:
            return self._entries.pop(key, None) is not None

    def forget_deleted(self) -> int:
        """Let go of the entries a file of which was deleted from the cache (their memory, and
        the disk space of the mapped files, are freed).  Returns how many were let go."""
        with self._lock:
            gone = [key for key, entry in self._entries.items() if not _unchanged(entry)]
            for key in gone:
                del self._entries[key]
        return len(gone)

    def clear(self) -> None:
        """Let go of every entry."""
        with self._lock:
            self._entries.clear()

    def nbytes(self) -> int:
        """Bytes the entries hold."""
        return sum(entry.nbytes for entry in self._entries.values())

    def keys(self) -> list:
        """The keys, least recently used first."""
        with self._lock:
            return list(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


def _unchanged(entry: _Entry) -> bool:
    with suppress(OSError):
        return all(_file_id(path) == (path, inode) for path, inode in entry.files)
    return False


#: the process's loaded tables
LOADED = Loaded()

__all__ = ["LOADED", "Loaded", "SHARE", "limit_bytes"]
