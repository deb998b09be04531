"""The table file: its layout, how it is read and checked, and how it is written.

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
checksum has been found right, the file is marked so (:mod:`.marks`) and a later
load of it unchanged skips the hashing (every other check is still made); a table of
at most :data:`ALWAYS_HASHED` bytes is hashed at every load all the same (a few
milliseconds), since the mark records its size and modification time, and bytes
changed in place with both kept (a copy with ``cp -p``, a restore) would be trusted.
:func:`verify_file` (``slidelab tables list``) always hashes.  New files are
written to a temporary file in the same directory, flushed to disk and renamed
over the final name (:func:`write_table`), so a reader never sees half a table.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import math
import os
import struct
import tempfile
from contextlib import suppress
from pathlib import Path

import numpy as np

from ..errors import CacheError
from .marks import mark_checked, was_checked
from .naming import table_key

__all__ = [
    "ALIGNMENT",
    "FORMAT_VERSION",
    "MAGIC",
    "InvalidTable",
    "read_header",
    "read_table",
    "verify_file",
    "write_table",
]

FORMAT_VERSION = 1
"""Version of the file layout; files of any other version are rebuilt."""

MAGIC = b"SLIDELAB-TABLE\n"
ALIGNMENT = 64

_LENGTH = struct.Struct("<I")
_PREFIX = len(MAGIC) + _LENGTH.size
_MAX_HEADER = 1 << 20
_CHUNK = 1 << 24  # bytes hashed or copied at a time
#: tables of at most this many bytes are hashed at every load, whatever their mark (the 8-puzzle's
#: distance tables, the 15-puzzle's 6-6-3 pattern databases: milliseconds); larger ones (the
#: 7-8 tables, 577 MB: 0.4 s) trust a mark that records their size and modification time
ALWAYS_HASHED = 64 * 1024**2


class InvalidTable(Exception):
    """A table file that must not be used; ``str()`` is the reason, ``header`` what could be read."""

    def __init__(self, reason: str, header: dict | None = None):
        super().__init__(reason)
        self.header = header


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


# --------------------------------------------------------------------------- reading


def read_header(f, size: int) -> dict:
    """The checked header of the open table file ``f`` of ``size`` bytes; raises
    :class:`InvalidTable`."""
    if f.read(len(MAGIC)) != MAGIC:
        raise InvalidTable("not a slidelab table (bad magic line)")
    raw = f.read(_LENGTH.size)
    if len(raw) < _LENGTH.size:
        raise InvalidTable("truncated header")
    (length,) = _LENGTH.unpack(raw)
    if length > _MAX_HEADER:
        raise InvalidTable(f"impossible header length {length}")
    if _PREFIX + length > size:
        raise InvalidTable(
            f"truncated header: {size} bytes in all, header needs {_PREFIX + length}"
        )
    try:
        header = json.loads(f.read(length).decode("utf-8"))
    except ValueError:  # UnicodeDecodeError is a ValueError
        raise InvalidTable("header is not UTF-8 JSON") from None
    if not isinstance(header, dict):
        raise InvalidTable("header is not a JSON object")
    if header.get("format") != FORMAT_VERSION:
        raise InvalidTable(
            f"format version {header.get('format')!r}, this slidelab reads {FORMAT_VERSION}", header
        )

    def field(name, kind):
        value = header.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise InvalidTable(f"header field {name!r} is missing or malformed", header)
        return value

    field("spec", dict)
    field("sha256", str)
    shape = field("shape", list)
    nbytes, offset = field("nbytes", int), field("offset", int)
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape):
        raise InvalidTable(f"header shape {shape!r} is not a list of sizes", header)
    try:
        dtype = np.dtype(field("dtype", str))
    except (TypeError, ValueError):
        raise InvalidTable(
            f"header dtype {header['dtype']!r} is not a numpy dtype", header
        ) from None
    if dtype.hasobject:
        raise InvalidTable(f"header dtype {header['dtype']!r} holds Python objects", header)
    if nbytes != math.prod(shape) * dtype.itemsize:
        raise InvalidTable(
            f"header nbytes {nbytes} does not match dtype {dtype.str} and shape {shape}", header
        )
    if offset % ALIGNMENT or offset < _PREFIX + length:
        raise InvalidTable(
            f"header offset {offset} is not a {ALIGNMENT}-byte boundary after the header", header
        )
    header["_dtype"] = dtype
    return header


def read_table(
    path: Path,
    want: str | None = None,
    *,
    mmap: bool = True,
    verify: bool = True,
    check_name: bool = False,
    trust_checked: bool = False,
) -> np.ndarray:
    """The table in ``path`` after every check; raises :class:`InvalidTable` saying why it
    cannot be used.

    ``want``: the canonical spec the file must hold.  ``verify=False`` skips the
    checksum (for a file this process has just written).  ``check_name``: the
    file's stem must be the key of its spec.  ``trust_checked``: skip the checksum
    when the file's mark says it was found right before
    (:func:`~slidelab.cache.marks.was_checked`), and mark it when the checksum is computed.
    """
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        raise InvalidTable("no such file") from None
    except OSError as e:
        raise InvalidTable(f"cannot be read: {e.strerror or e}") from None
    with f:
        stat = os.fstat(f.fileno())
        size = stat.st_size
        header = read_header(f, size)
        if want is not None and json.dumps(header["spec"], sort_keys=True) != want:
            raise InvalidTable("its spec differs from the one asked for", header)
        if check_name:
            try:
                key = table_key(header["spec"])
            except CacheError as e:
                raise InvalidTable(f"bad spec in header: {e}", header) from None
            if Path(path).stem != key:
                raise InvalidTable(f"its name does not match its spec, whose key is {key}", header)
        end = header["offset"] + header["nbytes"]
        if size < end:
            raise InvalidTable(f"truncated: {size} bytes, expected {end}", header)
        if size > end:
            raise InvalidTable(
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
                    raise InvalidTable("truncated while being read", header)
    trusted = header["nbytes"] > ALWAYS_HASHED and was_checked(path, stat, header["sha256"])
    if verify and not (trust_checked and trusted):
        if _sha256(_flat_bytes(table)) != header["sha256"]:
            raise InvalidTable("checksum mismatch: the data is corrupt", header)
        if trust_checked:
            mark_checked(path, stat, header["sha256"])
    if mmap:
        table.flags.writeable = False
    return table


def verify_file(path) -> tuple[bool, str]:
    """Check a table file completely, as :func:`~slidelab.cache.load_or_build` would before
    using it.

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
    >>> from slidelab.cache import cache_dir, load_or_build, table_key
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
        read_table(Path(path), check_name=True)
    except InvalidTable as e:
        return False, str(e)
    return True, "ok"


# --------------------------------------------------------------------------- writing


def write_table(path: Path, spec_text: str, table: np.ndarray) -> str:
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
