"""The front door of the cache: :func:`load_or_build` a table, from its file or built and saved.

A table is looked for without a lock first (most calls end there); when it is missing or bad,
the table's lock is taken (:mod:`.locks`), the file looked for again (another process may have
built it meanwhile), and only then is it built, written (:mod:`.tablefile`) and marked checked
(:mod:`.marks`).  Each load from the cache records a use of the file (:func:`touch`), by which
:func:`~slidelab.cache.trim_tables` deletes the least recently used first.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from contextlib import suppress

import numpy as np

from ..errors import CacheError
from .locks import locked
from .marks import mark_checked
from .naming import canonical, table_path
from .tablefile import InvalidTable, read_table, write_table

__all__ = ["Progress", "load_or_build", "touch"]

Progress = Callable[[float, str], None]

log = logging.getLogger(__package__)  # "slidelab.cache", as before the package was split


def _no_progress(fraction: float, message: str) -> None:
    pass


def load_or_build(
    spec: dict,
    build: Callable[[Progress], np.ndarray],
    progress: Progress | None = None,
    mmap: bool = True,
) -> np.ndarray:
    """The table described by ``spec``: from the cache when a valid file is there, else built and saved.

    A file that is there but fails a check (see :func:`~slidelab.cache.verify_file`) is logged as
    a warning and built over.  Only one process builds a given table at a time:
    others wanting it wait for the builder to finish, then load its file.

    Parameters
    ----------
    spec : dict
        Plain JSON data describing the table, with a ``"kind"`` string; see
        :func:`table_key`.  Everything the table's contents depend on, a version
        number included, belongs in it.
    build : callable
        ``build(progress) -> numpy.ndarray``, called only when the table is not
        cached.  It may report how far it has got with ``progress(fraction, message)``,
        ``fraction`` from 0 to 1.  Any numeric, boolean, string or bytes dtype;
        not Python objects.
    progress : callable, optional
        ``progress(fraction, message)``, handed to ``build``; not called when the
        table comes from the cache.
    mmap : bool, default True
        Return a read-only ``numpy.memmap`` of the file: pages are read from disk as
        they are touched, and processes using the same table share them.  With
        False, a writable array in memory.  (An empty table comes back as an
        ordinary read-only array.)

    Returns
    -------
    numpy.ndarray
        C-contiguous, with the dtype and shape ``build`` returned.

    Raises
    ------
    CacheError
        A bad spec, ``build`` returned Python objects, or the table must be built
        but the cache directory cannot be created or written to.

    Examples
    --------
    >>> import os, tempfile
    >>> from unittest import mock
    >>> import numpy as np
    >>> calls = []
    >>> def squares(progress):
    ...     calls.append(1)
    ...     return np.arange(5, dtype=np.int64) ** 2
    >>> spec = {"kind": "squares", "n": 5, "version": 1}
    >>> with tempfile.TemporaryDirectory() as tmp, mock.patch.dict(os.environ, SLIDELAB_CACHE=tmp):
    ...     first = load_or_build(spec, squares)
    ...     second = load_or_build(spec, squares, mmap=False)
    >>> second.tolist(), len(calls), type(first).__name__, first.flags.writeable
    ([0, 1, 4, 9, 16], 1, 'memmap', False)
    """
    want = canonical(spec)
    path = table_path(spec)
    key, directory = path.stem, path.parent
    with suppress(InvalidTable):  # most calls end here, with no lock taken
        table = read_table(path, want, mmap=mmap, trust_checked=True)
        touch(path)
        return table
    with locked(directory / (key + ".lock")):
        try:  # built by another process while we waited?
            table = read_table(path, want, mmap=mmap, trust_checked=True)
            touch(path)
            return table
        except InvalidTable as e:
            if path.exists():
                log.warning("ignoring the cached table %s (%s); building it again", path, e)
        table = np.asarray(build(progress if progress is not None else _no_progress), order="C")
        if table.dtype.hasobject:
            raise CacheError(
                f"the builder of {key} returned an array of Python objects, which cannot be cached"
            )
        try:
            sha256 = write_table(path, want, table)
        except OSError as e:
            log.warning("could not save the table %s (%s); using it unsaved", path, e.strerror or e)
        else:
            with suppress(OSError):
                mark_checked(path, path.stat(), sha256)
            if mmap:
                with suppress(InvalidTable):
                    return read_table(path, want, verify=False)
    if mmap:
        table.flags.writeable = False
    return table


def touch(path) -> None:
    """Record a use of the table file ``path``: its access time set to now (its modification
    time, part of what a checked file's mark records, is left alone).

    :func:`load_or_build` calls it on each load from the cache, so that
    :func:`~slidelab.cache.trim_tables` can tell the tables used least recently, whatever the file
    system's own access-time updates (``relatime``, ``noatime``).  A file that cannot
    be touched (a cache of another user) is left as it is.
    """
    with suppress(OSError):
        os.utime(path, ns=(time.time_ns(), os.stat(path).st_mtime_ns))
