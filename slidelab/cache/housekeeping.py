"""Housekeeping: the tables in the cache listed (:func:`list_tables`), deleted by kind
(:func:`clear_tables`) or the least recently used deleted down to a size (:func:`trim_tables`).

A table being built (its lock held, :mod:`.locks`) is left to its builder.

Examples
--------
A cache of its own: three tables of kind ``demo`` (the first used again last, so the second is
the least recently used), one of kind ``pdb``, and a file that is not a table; listed, trimmed
down to room for all but one of them, then cleared by kind and of all that is left:

>>> import os, tempfile
>>> from unittest import mock
>>> import numpy as np
>>> from slidelab.cache import load_or_build
>>> with tempfile.TemporaryDirectory() as tmp, mock.patch.dict(os.environ, SLIDELAB_CACHE=tmp):
...     for n in (1, 2, 3):
...         _ = load_or_build({"kind": "demo", "n": n}, lambda p: np.zeros(1000, np.uint8))
...     _ = load_or_build({"kind": "pdb", "board": "3x3"}, lambda p: np.ones(100, np.uint16))
...     _ = load_or_build({"kind": "demo", "n": 1}, lambda p: None)  # used again: the newest
...     _ = (cache_dir() / "junk.slt").write_bytes(b"not a table")
...     for t in list_tables():
...         print(t["key"], t["spec"], t["bytes"], t["valid"], t["reason"])
...     gone = trim_tables(sum(t["bytes"] for t in list_tables()) - 1)
...     print([p.stem for p in gone], clear_tables("demo"), clear_tables())
demo-0265804830c316e3 {'kind': 'demo', 'n': 2} 1256 True ok
demo-24a8127ad1e2f134 {'kind': 'demo', 'n': 3} 1256 True ok
demo-f8ec461fdfbb1b32 {'kind': 'demo', 'n': 1} 1256 True ok
junk None 11 False not a slidelab table (bad magic line)
pdb-3x3-4b1bf1cc30ba0248 {'board': '3x3', 'kind': 'pdb'} 456 True ok
['demo-0265804830c316e3'] 2 2
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Callable, Collection
from contextlib import suppress
from pathlib import Path

from ..errors import CacheError
from .locks import LOCKING, unless_busy
from .naming import SUFFIX, cache_dir, safe_name
from .tablefile import InvalidTable, read_header, verify_file

__all__ = ["clear_tables", "list_tables", "table_names", "trim_tables"]

_STALE_TEMP_SECONDS = 3600  # temp-file age taken as abandoned where there is no locking
_LOCK_RE = re.compile(r"^(.+-[0-9a-f]{16})\.lock$")
_TEMP_RE = re.compile(r"^\.(.+-[0-9a-f]{16})\.[^.]+\.tmp$")

log = logging.getLogger(__package__)  # "slidelab.cache", as before the package was split


def _peek_header(path: Path) -> dict | None:
    """The header of a table file, unchecked beyond being readable, or None."""
    try:
        with open(path, "rb") as f:
            return read_header(f, os.fstat(f.fileno()).st_size)
    except InvalidTable as e:
        return e.header
    except OSError:
        return None


def _spec_in(path: Path) -> dict | None:
    """The spec in a table file's header, or None where there is none to read."""
    header = _peek_header(path)
    spec = header.get("spec") if header else None
    return spec if isinstance(spec, dict) else None


def list_tables() -> list[dict]:
    """Every table file in the cache directory, each checked as :func:`verify_file` does.

    Returns
    -------
    list of dict
        One per ``.slt`` file, sorted by name: ``{"path": pathlib.Path, "key": str,
        "spec": dict or None (None when the header cannot be read), "bytes": int
        (the file's size), "valid": bool, "reason": str}``.

    The module's example (:mod:`slidelab.cache.housekeeping`) shows it on a cache of its own.
    """
    tables = []
    for path in sorted(cache_dir().glob("*" + SUFFIX)):
        try:
            size = path.stat().st_size
        except OSError:  # removed meanwhile
            continue
        if not path.is_file():
            continue
        valid, reason = verify_file(path)
        tables.append(
            {
                "path": path,
                "key": path.stem,
                "spec": _spec_in(path),
                "bytes": size,
                "valid": valid,
                "reason": reason,
            }
        )
    return tables


def _described(key: str, path: Path) -> dict:
    """``{"key", "kind", "board", "bytes"}`` of a table file, for people."""
    spec = _spec_in(path) or {}
    try:
        size = path.stat().st_size
    except OSError:
        size = 0
    return {
        "key": key,
        "kind": spec.get("kind", "?"),
        "board": spec.get("board", ""),
        "bytes": size,
    }


def clear_tables(
    kind: str | None = None, confirm: Callable[[list[dict]], bool] | None = None
) -> int:
    """Delete the cached tables of one kind, or all of them, with their leftover lock and temp files.

    A table's kind is read from its header; for a file whose header cannot be
    read, from its name (``<kind>-...``).  A table being built by another process
    right now is deleted, but its lock and temporary file are left to the builder.

    Parameters
    ----------
    kind : str, optional
        The ``"kind"`` of the tables to delete; all tables when None.
    confirm : callable, optional
        Called with the tables about to be deleted (``{"key", "kind", "board",
        "bytes"}`` each) when there are any; nothing is deleted unless it returns
        true.

    Returns
    -------
    int
        How many table files were deleted.

    The module's example (:mod:`slidelab.cache.housekeeping`) shows it on a cache of its own.
    """
    directory = cache_dir()
    tables, temps, locks = {}, {}, {}
    for entry in directory.iterdir():
        name = entry.name
        if name.endswith(SUFFIX) and not name.startswith("."):
            tables[entry.stem] = entry
        elif m := _LOCK_RE.match(name):
            locks[m.group(1)] = entry
        elif m := _TEMP_RE.match(name):
            temps.setdefault(m.group(1), []).append(entry)

    def wanted(key: str) -> bool:
        if kind is None:
            return True
        spec = _spec_in(tables[key]) if key in tables else None
        if spec is not None and "kind" in spec:
            return spec["kind"] == kind
        return key.startswith(safe_name(kind) + "-")

    keys = [key for key in sorted(set(tables) | set(temps) | set(locks)) if wanted(key)]
    if confirm is not None:
        doomed = [_described(key, tables[key]) for key in keys if key in tables]
        if doomed and not confirm(doomed):
            return 0
    removed = 0
    for key in keys:
        with unless_busy(directory / (key + ".lock")) as idle:
            if key in tables:
                with suppress(FileNotFoundError):
                    tables[key].unlink()
                    removed += 1
            for temp in temps.get(key, []):
                with suppress(OSError):
                    if not LOCKING and time.time() - temp.stat().st_mtime < _STALE_TEMP_SECONDS:
                        continue  # no locks here: spare what may be in progress
                    if idle:
                        temp.unlink()
    return removed


def _table_files(directory: Path) -> list[Path]:
    """The table files in ``directory`` (``*.slt``; a builder's hidden files left out)."""
    return [entry for entry in directory.glob("*" + SUFFIX) if not entry.name.startswith(".")]


def table_names(directory=None) -> frozenset[str]:
    """The names of the table files in the cache ``directory`` (default :func:`cache_dir`),
    none where it cannot be read: what a server keeps from :func:`trim_tables` (its ``keep``),
    taken when it starts."""
    try:
        return frozenset(p.name for p in _table_files(Path(directory or cache_dir())))
    except (OSError, CacheError):
        return frozenset()


def trim_tables(limit: int, directory=None, keep: Collection[str] = ()) -> list[Path]:
    """Delete the least recently used tables until the cache holds at most ``limit`` bytes
    (of tables not in ``keep``).

    A table's last use is the later of its access time (:func:`touch`, at each load)
    and its modification time (when it was written).  Tables are deleted oldest use
    first, except a table being written (its lock held by a builder): it is left,
    with its temporary file.  A table that a process has memory-mapped may be
    deleted: that process goes on reading it, and its disk space is freed when the
    process lets go of it.

    Parameters
    ----------
    limit : int
        Bytes of table files (``.slt``) to keep at most.
    directory : path, optional
        The cache directory (default :func:`cache_dir`).
    keep : collection of str, optional
        Names of table files (``pdb-4x4-....slt``) never deleted and not counted against
        ``limit``: a server's are those that were in the cache when it started
        (:meth:`slidelab.workers.pool.WorkerPool.trim`), so that it never deletes a table it
        did not write.

    Returns
    -------
    list of pathlib.Path
        The files deleted, oldest use first.

    The module's example (:mod:`slidelab.cache.housekeeping`) shows it on a cache of its own.
    """
    directory = Path(directory) if directory is not None else cache_dir()
    files = []
    for entry in _table_files(directory):
        if entry.name in keep:
            continue
        try:
            st = entry.stat()
        except OSError:  # deleted meanwhile
            continue
        files.append((max(st.st_atime_ns, st.st_mtime_ns), entry.name, entry, st.st_size))
    total = sum(size for *_, size in files)
    deleted = []
    for _, _, path, size in sorted(files):
        if total <= limit:
            break
        with unless_busy(directory / (path.stem + ".lock")) as idle:
            if not idle:
                continue  # being built or rebuilt: its builder's
            try:
                path.unlink()
            except FileNotFoundError:  # another process trimmed it first
                total -= size
                continue
            except OSError as e:
                log.warning("could not delete the table %s (%s)", path, e.strerror or e)
                continue
        total -= size
        deleted.append(path)
    return deleted
