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

File format
-----------
One file per table, ``<cache_dir>/<table_key(spec)>.slt``:

1. the magic line ``b"SLIDELAB-TABLE\\n"``;
2. the length of the header, 4 bytes, little-endian;
3. the header, UTF-8 JSON: ``{"format": FORMAT_VERSION, "spec", "dtype"`` (numpy's
   ``dtype.str``, byte order included), ``"shape", "nbytes", "sha256"`` (hex digest
   of the data bytes), ``"created"`` (ISO 8601, UTC), ``"offset"}`` (where the data
   starts);
4. zero bytes up to ``offset``, a multiple of 64;
5. the array's bytes in C order, and nothing after them.

A file is used only if all of it checks out: magic line, header, format
version, spec (the one asked for), length (``offset + nbytes`` exactly) and
checksum.  Anything else is logged, ignored and rebuilt over.  Hashing a large
table takes a while (0.4 s for the 15-puzzle's 7-8 tables), so once a file's
checksum has been found right, an extended attribute of the file
(``user.slidelab.checked``) records its size, modification time and checksum;
a later load of the file with them unchanged skips the hashing (every other
check is still made).  Where a file system keeps no extended attributes, every
load hashes.  :func:`verify_file`
(``slidelab tables list``) always hashes.  New files are
written to a temporary file in the same directory, flushed to disk and renamed
over the final name, so a reader never sees half a table; an exclusive lock on
``<key>.lock`` makes processes that want the same missing table build it once:
the others wait, then load it.

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

import datetime as _dt
import hashlib
import json
import logging
import math
import os
import re
import struct
import tempfile
import time
from collections.abc import Callable
from contextlib import contextmanager, suppress
from pathlib import Path

import numpy as np
import platformdirs

from .errors import CacheError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no locking
    fcntl = None

__all__ = [
    "CacheError",
    "FORMAT_VERSION",
    "cache_dir",
    "clear_tables",
    "list_tables",
    "load_or_build",
    "table_key",
    "table_path",
    "touch",
    "trim_tables",
    "verify_file",
]

FORMAT_VERSION = 1
"""Version of the file layout; files of any other version are rebuilt."""

MAGIC = b"SLIDELAB-TABLE\n"
SUFFIX = ".slt"
ALIGNMENT = 64
ENV_VAR = "SLIDELAB_CACHE"

_LENGTH = struct.Struct("<I")
_PREFIX = len(MAGIC) + _LENGTH.size
_MAX_HEADER = 1 << 20
_CHUNK = 1 << 24  # bytes hashed or copied at a time
_STALE_TEMP_SECONDS = 3600  # temp-file age taken as abandoned where there is no locking
_LOCK_RE = re.compile(r"^(.+-[0-9a-f]{16})\.lock$")
_CHECKED = "user.slidelab.checked"  # the extended attribute of a file whose checksum was right
_TEMP_RE = re.compile(r"^\.(.+-[0-9a-f]{16})\.[^.]+\.tmp$")

Progress = Callable[[float, str], None]

log = logging.getLogger(__name__)


class _Invalid(Exception):
    """A table file that must not be used; ``str()`` is the reason, ``header`` what could be read."""

    def __init__(self, reason: str, header: dict | None = None):
        super().__init__(reason)
        self.header = header


def _no_progress(fraction: float, message: str) -> None:
    pass


# --------------------------------------------------------------------------- naming


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


def _canonical(spec) -> str:
    """The spec as sorted-key JSON text: what keys are hashed from and headers compared by."""
    if not isinstance(spec, dict):
        raise CacheError(f"a table spec must be a dict, got {type(spec).__name__}")
    kind = spec.get("kind")
    if not isinstance(kind, str) or not kind:
        raise CacheError("a table spec needs a non-empty 'kind' string, e.g. {'kind': 'pdb', ...}")
    try:
        return json.dumps(spec, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise CacheError(f"a table spec must be plain JSON data: {e}") from None


def _safe(part) -> str:
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
    text = _canonical(spec)
    parts = [_safe(spec["kind"])]
    if spec.get("board") is not None:
        parts.append(_safe(spec["board"]))
    parts.append(hashlib.sha256(text.encode("utf-8")).hexdigest()[:16])
    return "-".join(parts)


# --------------------------------------------------------------------------- reading


def table_path(spec: dict) -> Path:
    """Where the table described by ``spec`` is (or would be) cached."""
    return cache_dir() / (table_key(spec) + SUFFIX)


def _chunks(flat: np.ndarray):
    for start in range(0, flat.size, _CHUNK):
        yield flat[start : start + _CHUNK]


def _flat_bytes(array: np.ndarray) -> np.ndarray:
    """The bytes of a C-contiguous array as a 1-d uint8 view (no copy)."""
    return array.reshape(-1).view(np.uint8)


def _sha256(flat: np.ndarray) -> str:
    digest = hashlib.sha256()
    for chunk in _chunks(flat):
        digest.update(chunk)
    return digest.hexdigest()


def _read_header(f, size: int) -> dict:
    """The checked header of the open table file ``f`` of ``size`` bytes; raises _Invalid."""
    if f.read(len(MAGIC)) != MAGIC:
        raise _Invalid("not a slidelab table (bad magic line)")
    raw = f.read(_LENGTH.size)
    if len(raw) < _LENGTH.size:
        raise _Invalid("truncated header")
    (length,) = _LENGTH.unpack(raw)
    if length > _MAX_HEADER:
        raise _Invalid(f"impossible header length {length}")
    if _PREFIX + length > size:
        raise _Invalid(f"truncated header: {size} bytes in all, header needs {_PREFIX + length}")
    try:
        header = json.loads(f.read(length).decode("utf-8"))
    except ValueError:  # UnicodeDecodeError is a ValueError
        raise _Invalid("header is not UTF-8 JSON") from None
    if not isinstance(header, dict):
        raise _Invalid("header is not a JSON object")
    if header.get("format") != FORMAT_VERSION:
        raise _Invalid(
            f"format version {header.get('format')!r}, this slidelab reads {FORMAT_VERSION}", header
        )

    def field(name, kind):
        value = header.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise _Invalid(f"header field {name!r} is missing or malformed", header)
        return value

    field("spec", dict)
    field("sha256", str)
    shape = field("shape", list)
    nbytes, offset = field("nbytes", int), field("offset", int)
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape):
        raise _Invalid(f"header shape {shape!r} is not a list of sizes", header)
    try:
        dtype = np.dtype(field("dtype", str))
    except (TypeError, ValueError):
        raise _Invalid(f"header dtype {header['dtype']!r} is not a numpy dtype", header) from None
    if dtype.hasobject:
        raise _Invalid(f"header dtype {header['dtype']!r} holds Python objects", header)
    if nbytes != math.prod(shape) * dtype.itemsize:
        raise _Invalid(
            f"header nbytes {nbytes} does not match dtype {dtype.str} and shape {shape}", header
        )
    if offset % ALIGNMENT or offset < _PREFIX + length:
        raise _Invalid(
            f"header offset {offset} is not a {ALIGNMENT}-byte boundary after the header", header
        )
    header["_dtype"] = dtype
    return header


def _load(
    path: Path,
    want: str | None = None,
    *,
    mmap: bool = True,
    verify: bool = True,
    check_name: bool = False,
    trust_checked: bool = False,
) -> np.ndarray:
    """The table in ``path`` after every check; raises _Invalid saying why it cannot be used.

    ``want``: the canonical spec the file must hold.  ``verify=False`` skips the
    checksum (for a file this process has just written).  ``check_name``: the
    file's stem must be the key of its spec.  ``trust_checked``: skip the checksum
    when the file's extended attribute says it was found right before
    (:func:`_was_checked`), and record it when the checksum is computed.
    """
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        raise _Invalid("no such file") from None
    except OSError as e:
        raise _Invalid(f"cannot be read: {e.strerror or e}") from None
    with f:
        stat = os.fstat(f.fileno())
        size = stat.st_size
        header = _read_header(f, size)
        if want is not None and json.dumps(header["spec"], sort_keys=True) != want:
            raise _Invalid("its spec differs from the one asked for", header)
        if check_name:
            try:
                key = table_key(header["spec"])
            except CacheError as e:
                raise _Invalid(f"bad spec in header: {e}", header) from None
            if Path(path).stem != key:
                raise _Invalid(f"its name does not match its spec, whose key is {key}", header)
        end = header["offset"] + header["nbytes"]
        if size < end:
            raise _Invalid(f"truncated: {size} bytes, expected {end}", header)
        if size > end:
            raise _Invalid(
                f"{size - end} unexpected bytes after the data ({size} bytes, expected {end})",
                header,
            )
        dtype, shape = header["_dtype"], tuple(header["shape"])
        if header["nbytes"] == 0:
            table = np.empty(shape, dtype)
        elif mmap:
            table = np.memmap(f, dtype=dtype, mode="r", offset=header["offset"], shape=shape)
        else:
            table = np.empty(shape, dtype)
            f.seek(header["offset"])
            for chunk in _chunks(_flat_bytes(table)):
                if f.readinto(memoryview(chunk)) != chunk.size:
                    raise _Invalid("truncated while being read", header)
    if verify and not (trust_checked and _was_checked(path, stat, header["sha256"])):
        if _sha256(_flat_bytes(table)) != header["sha256"]:
            raise _Invalid("checksum mismatch: the data is corrupt", header)
        if trust_checked:
            _mark_checked(path, stat, header["sha256"])
    if mmap:
        table.flags.writeable = False
    return table


def _signature(stat: os.stat_result, sha256: str) -> bytes:
    return f"{stat.st_size} {stat.st_mtime_ns} {sha256}".encode("ascii")


def _was_checked(path: Path, stat: os.stat_result, sha256: str) -> bool:
    """Whether the file's extended attribute records this size, time and checksum."""
    try:
        return os.getxattr(path, _CHECKED) == _signature(stat, sha256)
    except (OSError, AttributeError):  # no such attribute, or none on this system
        return False


def _mark_checked(path: Path, stat: os.stat_result, sha256: str) -> None:
    """Record on the file that ``stat`` describes that its checksum is ``sha256`` (best
    effort: where it cannot be recorded, every load hashes)."""
    with suppress(OSError, AttributeError):
        os.setxattr(path, _CHECKED, _signature(stat, sha256))


def verify_file(path) -> tuple[bool, str]:
    """Check a table file completely, as :func:`load_or_build` would before using it.

    Checks the magic line, the header, the format version, that the file's name
    is the key of the spec in its header, the length, and the data's checksum.

    Parameters
    ----------
    path : str or os.PathLike
        A ``.slt`` file.

    Returns
    -------
    (bool, str)
        Whether the file is valid, and a one-line reason: ``"ok"``, or what is wrong.

    Examples
    --------
    >>> import os, tempfile
    >>> from unittest import mock
    >>> import numpy as np
    >>> spec = {"kind": "demo", "board": "2x2"}
    >>> with tempfile.TemporaryDirectory() as tmp, mock.patch.dict(os.environ, SLIDELAB_CACHE=tmp):
    ...     _ = load_or_build(spec, lambda progress: np.zeros(4, np.uint8))
    ...     path = cache_dir() / (table_key(spec) + ".slt")
    ...     print(verify_file(path))
    ...     with open(path, "ab") as f:
    ...         _ = f.write(b"extra")
    ...     print(verify_file(path))
    (True, 'ok')
    (False, '5 unexpected bytes after the data (265 bytes, expected 260)')
    """
    try:
        _load(Path(path), check_name=True)
    except _Invalid as e:
        return False, str(e)
    return True, "ok"


# --------------------------------------------------------------------------- writing


def _write(path: Path, spec_text: str, table: np.ndarray) -> str:
    """Write ``table`` to ``path`` atomically (temp file in the same directory, fsync, rename);
    return its checksum."""
    flat = _flat_bytes(table)
    header = {
        "format": FORMAT_VERSION,
        "spec": json.loads(spec_text),
        "dtype": table.dtype.str,
        "shape": list(table.shape),
        "nbytes": int(table.nbytes),
        "sha256": _sha256(flat),
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "offset": 0,
    }
    while True:  # the offset is in the header whose length it depends on
        blob = json.dumps(header).encode("utf-8")
        offset = -(-(_PREFIX + len(blob)) // ALIGNMENT) * ALIGNMENT
        if header["offset"] == offset:
            break
        header["offset"] = offset
    fd, temp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(MAGIC + _LENGTH.pack(len(blob)) + blob + bytes(offset - _PREFIX - len(blob)))
            for chunk in _chunks(flat):
                f.write(chunk)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temp, 0o644)  # mkstemp makes it private; tables are not secret
        os.replace(temp, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(temp)
        raise
    with suppress(OSError):  # make the rename itself durable
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    return header["sha256"]


# --------------------------------------------------------------------------- locking


def _acquire(lock_path: Path, blocking: bool = True) -> int | None:
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


def _release(fd: int, lock_path: Path) -> None:
    """Delete the lock file, then let go of it (see :func:`_acquire`)."""
    with suppress(OSError):
        os.unlink(lock_path)
    os.close(fd)


@contextmanager
def _locked(lock_path: Path):
    if fcntl is None:  # pragma: no cover - not POSIX
        if not os.access(lock_path.parent, os.W_OK):
            raise CacheError(f"cannot write to the table cache directory {lock_path.parent}")
        yield
        return
    fd = _acquire(lock_path)
    try:
        yield
    finally:
        _release(fd, lock_path)


# --------------------------------------------------------------------------- the front door


def load_or_build(
    spec: dict,
    build: Callable[[Progress], np.ndarray],
    progress: Progress | None = None,
    mmap: bool = True,
) -> np.ndarray:
    """The table described by ``spec``: from the cache when a valid file is there, else built and saved.

    A file that is there but fails a check (see :func:`verify_file`) is logged as
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
    want = _canonical(spec)
    path = table_path(spec)
    key, directory = path.stem, path.parent
    with suppress(_Invalid):  # most calls end here, with no lock taken
        table = _load(path, want, mmap=mmap, trust_checked=True)
        touch(path)
        return table
    with _locked(directory / (key + ".lock")):
        try:  # built by another process while we waited?
            table = _load(path, want, mmap=mmap, trust_checked=True)
            touch(path)
            return table
        except _Invalid as e:
            if path.exists():
                log.warning("ignoring the cached table %s (%s); building it again", path, e)
        table = np.asarray(build(progress if progress is not None else _no_progress), order="C")
        if table.dtype.hasobject:
            raise CacheError(
                f"the builder of {key} returned an array of Python objects, which cannot be cached"
            )
        try:
            sha256 = _write(path, want, table)
        except OSError as e:
            log.warning("could not save the table %s (%s); using it unsaved", path, e.strerror or e)
        else:
            with suppress(OSError):
                _mark_checked(path, path.stat(), sha256)
            if mmap:
                with suppress(_Invalid):
                    return _load(path, want, verify=False)
    if mmap:
        table.flags.writeable = False
    return table


# --------------------------------------------------------------------------- housekeeping


def _peek_header(path: Path) -> dict | None:
    """The header of a table file, unchecked beyond being readable, or None."""
    try:
        with open(path, "rb") as f:
            return _read_header(f, os.fstat(f.fileno()).st_size)
    except _Invalid as e:
        return e.header
    except OSError:
        return None


def list_tables() -> list[dict]:
    """Every table file in the cache directory, each checked as :func:`verify_file` does.

    Returns
    -------
    list of dict
        One per ``.slt`` file, sorted by name: ``{"path": pathlib.Path, "key": str,
        "spec": dict or None (None when the header cannot be read), "bytes": int
        (the file's size), "valid": bool, "reason": str}``.

    Examples
    --------
    >>> import os, tempfile
    >>> from unittest import mock
    >>> import numpy as np
    >>> with tempfile.TemporaryDirectory() as tmp, mock.patch.dict(os.environ, SLIDELAB_CACHE=tmp):
    ...     _ = load_or_build({"kind": "demo", "board": "3x3"}, lambda p: np.ones(100, np.uint16))
    ...     (cache_dir() / "junk.slt").write_bytes(b"not a table")
    ...     for t in list_tables():
    ...         print(t["key"], t["spec"], t["bytes"], t["valid"], t["reason"])
    11
    demo-3x3-23b0b1452eab2b2e {'board': '3x3', 'kind': 'demo'} 456 True ok
    junk None 11 False not a slidelab table (bad magic line)
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
        header = _peek_header(path)
        spec = header.get("spec") if header else None
        tables.append(
            {
                "path": path,
                "key": path.stem,
                "spec": spec if isinstance(spec, dict) else None,
                "bytes": size,
                "valid": valid,
                "reason": reason,
            }
        )
    return tables


def _described(key: str, path: Path) -> dict:
    """``{"key", "kind", "board", "bytes"}`` of a table file, for people."""
    header = _peek_header(path)
    spec = header.get("spec") if header else None
    spec = spec if isinstance(spec, dict) else {}
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

    Examples
    --------
    >>> import os, tempfile
    >>> from unittest import mock
    >>> import numpy as np
    >>> with tempfile.TemporaryDirectory() as tmp, mock.patch.dict(os.environ, SLIDELAB_CACHE=tmp):
    ...     for n in (3, 4, 5):
    ...         _ = load_or_build({"kind": "pdb", "n": n}, lambda p: np.zeros(n, np.uint8))
    ...     _ = load_or_build({"kind": "distances"}, lambda p: np.zeros(9, np.uint8))
    ...     print(clear_tables("pdb"), [t["key"][:9] for t in list_tables()], clear_tables())
    3 ['distances'] 1
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
        header = _peek_header(tables[key]) if key in tables else None
        spec = header.get("spec") if header else None
        if isinstance(spec, dict) and "kind" in spec:
            return spec["kind"] == kind
        return key.startswith(_safe(kind) + "-")

    keys = [key for key in sorted(set(tables) | set(temps) | set(locks)) if wanted(key)]
    if confirm is not None:
        doomed = [_described(key, tables[key]) for key in keys if key in tables]
        if doomed and not confirm(doomed):
            return 0
    removed = 0
    for key in keys:
        lock_path = directory / (key + ".lock")
        fd = _acquire(lock_path, blocking=False) if fcntl is not None else None
        try:
            if key in tables:
                with suppress(FileNotFoundError):
                    tables[key].unlink()
                    removed += 1
            idle = fcntl is None or fd is not None
            for temp in temps.get(key, []):
                with suppress(OSError):
                    if fcntl is None and time.time() - temp.stat().st_mtime < _STALE_TEMP_SECONDS:
                        continue  # no locks here: spare what may be in progress
                    if idle:
                        temp.unlink()
        finally:
            if fd is not None:
                _release(fd, lock_path)
    return removed


# --------------------------------------------------------------------------- a size limit


def touch(path) -> None:
    """Record a use of the table file ``path``: its access time set to now (its modification
    time, part of what a checked file's mark records, is left alone).

    :func:`load_or_build` calls it on each load from the cache, so that
    :func:`trim_tables` can tell the tables used least recently, whatever the file
    system's own access-time updates (``relatime``, ``noatime``).  A file that cannot
    be touched (a cache of another user) is left as it is.
    """
    with suppress(OSError):
        os.utime(path, ns=(time.time_ns(), os.stat(path).st_mtime_ns))


def trim_tables(limit: int, directory=None) -> list[Path]:
    """Delete the least recently used tables until the cache holds at most ``limit`` bytes.

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

    Returns
    -------
    list of pathlib.Path
        The files deleted, oldest use first.

    Examples
    --------
    >>> import os, tempfile
    >>> from unittest import mock
    >>> import numpy as np
    >>> with tempfile.TemporaryDirectory() as tmp, mock.patch.dict(os.environ, SLIDELAB_CACHE=tmp):
    ...     for n in (1, 2, 3):
    ...         _ = load_or_build({"kind": "demo", "n": n}, lambda p: np.zeros(1000, np.uint8))
    ...     _ = load_or_build({"kind": "demo", "n": 1}, lambda p: None)  # used again: the newest
    ...     sizes = [t["bytes"] for t in list_tables()]
    ...     gone = trim_tables(2 * sizes[0])                    # room for two of the three
    ...     print(sizes, len(gone), sorted(t["spec"]["n"] for t in list_tables()))
    [1256, 1256, 1256] 1 [1, 3]
    """
    directory = Path(directory) if directory is not None else cache_dir()
    files = []
    for entry in directory.glob("*" + SUFFIX):
        if entry.name.startswith("."):
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
        lock_path = directory / (path.stem + ".lock")
        fd = _acquire(lock_path, blocking=False) if fcntl is not None else None
        if fcntl is not None and fd is None:
            continue  # being built or rebuilt: its builder's
        try:
            path.unlink()
        except FileNotFoundError:  # another process trimmed it first
            total -= size
            continue
        except OSError as e:
            log.warning("could not delete the table %s (%s)", path, e.strerror or e)
            continue
        finally:
            if fd is not None:
                _release(fd, lock_path)
        total -= size
        deleted.append(path)
    return deleted
