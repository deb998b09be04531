"""Checksum marks: a table file whose checksum was found right says so, and is not hashed again.

Hashing a large table takes a while (0.4 s for the 15-puzzle's 7-8 tables), so once a file's
checksum has been found right, an extended attribute of the file (``user.slidelab.checked``)
records its size, modification time and checksum; a later load of the file with them unchanged
skips the hashing.  Where a file system keeps no extended attributes, every load hashes.
"""

from __future__ import annotations

import os
from contextlib import suppress
from pathlib import Path

__all__ = ["CHECKED", "mark_checked", "was_checked"]

CHECKED = "user.slidelab.checked"
"""The extended attribute of a file whose checksum was right."""


def _signature(stat: os.stat_result, sha256: str) -> bytes:
    return f"{stat.st_size} {stat.st_mtime_ns} {sha256}".encode("ascii")


def was_checked(path: Path, stat: os.stat_result, sha256: str) -> bool:
    """Whether the file's extended attribute records this size, time and checksum."""
    try:
        return os.getxattr(path, CHECKED) == _signature(stat, sha256)
    except (OSError, AttributeError):  # no such attribute, or none on this system
        return False


def mark_checked(path: Path, stat: os.stat_result, sha256: str) -> None:
    """Record on the file that ``stat`` describes that its checksum is ``sha256`` (best
    effort: where it cannot be recorded, every load hashes)."""
    with suppress(OSError, AttributeError):
        os.setxattr(path, CHECKED, _signature(stat, sha256))
