"""Where a table is cached: the cache directory and the file name of a spec.

A table's file is ``<cache_dir()>/<table_key(spec)><SUFFIX>``; the key is made from the
spec's canonical text (:func:`canonical`), which is also what a file's header is compared by.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

import platformdirs

from ..errors import CacheError

__all__ = ["ENV_VAR", "SUFFIX", "cache_dir", "canonical", "safe_name", "table_key", "table_path"]

SUFFIX = ".slt"
"""The file name suffix of a table file."""

ENV_VAR = "SLIDELAB_CACHE"
"""The environment variable naming the cache directory (:func:`cache_dir`)."""


def cache_dir() -> Path:
    """The directory holding the cached tables, created if needed.

    Returns
    -------
    pathlib.Path
        ``$SLIDELAB_CACHE`` when that environment variable is set and not empty,
        else the user's cache directory for slidelab
        (``platformdirs.user_cache_dir("slidelab")``, e.g. ``~/.cache/slidelab``).

    Raises
    ------
    CacheError
        The directory does not exist and cannot be created.

    Examples
    --------
    >>> import os, tempfile
    >>> from unittest import mock
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     with mock.patch.dict(os.environ, SLIDELAB_CACHE=os.path.join(tmp, "tables")):
    ...         print(cache_dir().name, cache_dir().is_dir())
    tables True
    """
    env = os.environ.get(ENV_VAR)
    path = Path(env).expanduser() if env else Path(platformdirs.user_cache_dir("slidelab"))
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        where = f"{ENV_VAR}={env}" if env else "the user cache directory"
        raise CacheError(
            f"cannot create the table cache directory {path} ({where}): {e.strerror or e}"
        ) from None
    return path


def canonical(spec) -> str:
    """The spec as sorted-key JSON text: what keys are hashed from and headers compared by.

    Raises :class:`CacheError` when ``spec`` is not a dict of plain JSON data with a
    non-empty ``"kind"`` string.
    """
    if not isinstance(spec, dict):
        raise CacheError(f"a table spec must be a dict, got {type(spec).__name__}")
    kind = spec.get("kind")
    if not isinstance(kind, str) or not kind:
        raise CacheError("a table spec needs a non-empty 'kind' string, e.g. {'kind': 'pdb', ...}")
    try:
        return json.dumps(spec, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise CacheError(f"a table spec must be plain JSON data: {e}") from None


def safe_name(part) -> str:
    """``part`` as a piece of a file name: no separators, no leading dot, bounded length."""
    text = re.sub(r"[^A-Za-z0-9_.+=-]+", "_", str(part)).lstrip("._")
    return text[:48] or "_"


def table_key(spec: dict) -> str:
    """The file stem of the table described by ``spec``: stable across runs and machines.

    The stem is ``<kind>-<board>-<hash>``, where the hash is the first 16 hex
    digits of the SHA-256 of ``json.dumps(spec, sort_keys=True)``; ``kind`` and
    ``board`` are there for people reading the directory, with characters unsafe
    in file names replaced by ``_``, and ``board`` is left out when the spec has
    none.  Equal specs give equal keys whatever their key order; any other change,
    a version number included, gives another key.

    Parameters
    ----------
    spec : dict
        Plain JSON data (dicts with string keys, lists, strings, numbers, booleans,
        None) with a non-empty ``"kind"`` string.

    Returns
    -------
    str

    Raises
    ------
    CacheError
        ``spec`` is not a dict of JSON data, or has no ``"kind"``.

    Examples
    --------
    >>> table_key({"kind": "pdb", "board": "4x4", "order": "1,2,3", "version": 1})
    'pdb-4x4-a493a82064991fb5'
    >>> table_key({"version": 1, "order": "1,2,3", "board": "4x4", "kind": "pdb"})
    'pdb-4x4-a493a82064991fb5'
    >>> table_key({"kind": "distance/manhattan"})
    'distance_manhattan-6f3094cc3e76b6ef'
    """
    text = canonical(spec)
    parts = [safe_name(spec["kind"])]
    if spec.get("board") is not None:
        parts.append(safe_name(spec["board"]))
    parts.append(hashlib.sha256(text.encode("utf-8")).hexdigest()[:16])
    return "-".join(parts)


def table_path(spec: dict) -> Path:
    """Where the table described by ``spec`` is (or would be) cached."""
    return cache_dir() / (table_key(spec) + SUFFIX)
