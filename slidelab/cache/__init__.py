"""An on-disk cache for large numpy tables that are expensive to build.

Pattern databases and distance tables take seconds to hours to build and
hundreds of megabytes to store.  :func:`load_or_build` builds such a table once,
stores it in the cache directory (:func:`cache_dir`) and, on later calls,
returns it from there, memory-mapped and checked.

A table is described by a *spec*: a dict of plain JSON data holding everything
its contents depend on, with a ``"kind"`` string and, usually, a ``"board"``::

    {"kind": "pdb", "board": "4x4", "goal": "1 2 3 4/5 6 ? ?/? ? ? ?/? ? ? 0",
     "order": "0,1,2,3,4,5,6", "version": 2}

(the table of the 15-puzzle's group of tiles 1 to 6, as
:mod:`slidelab.heuristics.pdb` writes it: the group's goal and the order of its
tiles, the blank first)

Put a version number in the spec and raise it whenever the builder changes what
it computes: the old files are then no longer found, and are rebuilt.

The package, one concept a module
---------------------------------
- :mod:`.naming`: where a table is cached (:func:`cache_dir`, :func:`table_key`,
  :func:`table_path`);
- :mod:`.tablefile`: the file format, how a file is read and checked
  (:func:`verify_file`) and written (atomically: a reader never sees half a table);
- :mod:`.marks`: the checksum marks (an extended attribute), so that a file found right
  once is not hashed again at each load;
- :mod:`.locks`: the lock that makes processes wanting the same missing table build it once;
- :mod:`.store`: :func:`load_or_build`, the front door, and :func:`touch`;
- :mod:`.housekeeping`: :func:`list_tables`, :func:`clear_tables`, :func:`trim_tables`.

The names below are those of ``slidelab.cache`` (import them from here).

Examples
--------
>>> import os, tempfile
>>> from unittest import mock
>>> import numpy as np
>>> spec = {"kind": "demo", "board": "3x3", "version": 1}
>>> def build(progress):
...     progress(0.0, "starting")
...     table = np.arange(9, dtype=np.uint8)
...     progress(1.0, "done")
...     return table
>>> with tempfile.TemporaryDirectory() as tmp, mock.patch.dict(os.environ, SLIDELAB_CACHE=tmp):
...     table = load_or_build(spec, build, progress=lambda f, msg: print(f, msg))
...     again = load_or_build(spec, build)            # from the file: build() is not called
...     [(t["key"], t["valid"]) for t in list_tables()]
0.0 starting
1.0 done
[('demo-3x3-...', True)]
>>> again.tolist(), again.flags.writeable
([0, 1, 2, 3, 4, 5, 6, 7, 8], False)
"""

from __future__ import annotations

from ..errors import CacheError
from .housekeeping import clear_tables, list_tables, table_names, trim_tables
from .naming import ENV_VAR, SUFFIX, cache_dir, table_key, table_path
from .store import Progress, load_or_build, touch
from .tablefile import ALIGNMENT, FORMAT_VERSION, MAGIC, verify_file

__all__ = [
    "ALIGNMENT",
    "CacheError",
    "ENV_VAR",
    "FORMAT_VERSION",
    "MAGIC",
    "Progress",
    "SUFFIX",
    "cache_dir",
    "clear_tables",
    "list_tables",
    "load_or_build",
    "table_key",
    "table_names",
    "table_path",
    "touch",
    "trim_tables",
    "verify_file",
]
