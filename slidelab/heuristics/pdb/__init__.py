"""Additive disjoint pattern databases (Korf and Felner 2002), with reflection.

The tiles are split into disjoint groups.  For each group a table gives, for
every placement of the group's tiles, the fewest moves *of those tiles* that
bring them home, whatever the other tiles do.  Each move moves one tile, so the
values of different groups add up to an admissible estimate.

The package is split by role:

:mod:`.layout`
    groups and partitions: how a group's placement is numbered (the one group
    index), the named and automatic partitions, the reflection of the goal;
:mod:`.lookup`
    the heuristic's move kernels and :class:`PatternDatabase`, the tables
    ready for the search;
:mod:`.build`
    building one group's table: the byte-per-state scan for groups with
    repeated labels, and the entry to :mod:`.distinct`, the two-bit parallel
    builder for distinct tiles (on the breadth-first layer driver of
    :mod:`slidelab._layers`, shared with the full-space analysis).

This module loads a partition's tables (from the cache, or built) and makes the
heuristic: :func:`pattern_database`, :func:`pdb`.
"""

from __future__ import annotations

from ...puzzle import Puzzle
from ..base import Heuristic
from .build import MAX_BUILD_BYTES, build_by_scan, build_bytes, build_group_table, check_build_size
from .layout import (
    AUTO_BUILD_STATES,
    DEFAULT_PARTITION,
    GroupLayout,
    auto_partition,
    group_goal_text,
    parse_partition,
    reflection,
    stronger_partition,
    stronger_partitions,
)
from .lookup import PatternDatabase

#: format of the cached tables (the cache rebuilds tables of another format); 2: the group's
#: order is part of the key (version 1 loaded a group's table for its tiles in any order)
PDB_FORMAT = 2

__all__ = [
    "AUTO_BUILD_STATES",
    "DEFAULT_PARTITION",
    "GroupLayout",
    "MAX_BUILD_BYTES",
    "PDB_FORMAT",
    "PatternDatabase",
    "auto_partition",
    "build_by_scan",
    "build_bytes",
    "build_group_table",
    "build_estimate",
    "check_build_size",
    "forget_deleted",
    "group_goal_text",
    "is_ready",
    "parse_partition",
    "pattern_database",
    "pdb",
    "reflection",
    "stronger_partition",
    "stronger_partitions",
]


_LOADED: dict = {}

#: a group's table of at least this many bytes is read into memory backed by huge pages (where
#: the system gives them, :func:`slidelab.memory.huge_pages`, and the memory is there) rather
#: than memory-mapped from the cache: the 15-puzzle's 7-8 and the 24-puzzle's 6-6-6-6 tables
IN_MEMORY_BYTES = 32 << 20


def pattern_database(
    puzzle: Puzzle, partition=None, *, progress=None, cache: bool = True, reflect: bool = True
) -> PatternDatabase:
    """Build (or load from the cache) the pattern databases of a partition.

    Tables already loaded in this process are reused.
    """
    groups = parse_partition(puzzle, partition)
    key = (puzzle.goal, tuple(map(tuple, groups)), reflect)
    if cache and key in _LOADED:
        if _still_cached(_LOADED[key]):
            return _LOADED[key]
        del _LOADED[key]  # a file deleted from the cache (its size limit): load or build again
    for codes in groups:  # refuse an oversized group before building any table
        check_build_size(puzzle, codes)
    tables = []
    for i, codes in enumerate(groups):
        tables.append(_group_table(puzzle, codes, i, len(groups), progress, cache))
    db = PatternDatabase(puzzle, groups, tables, reflect)
    if cache:
        from ...cache import table_path

        db.cache_files = [_file_id(table_path(_spec(puzzle, codes))) for codes in groups]
        _LOADED[key] = db
    return db


def _file_id(path):
    """``(path, inode)`` of a table file, or None where there is none (a table unsaved)."""
    try:
        return path, path.stat().st_ino
    except OSError:
        return None


def _files_there(db: PatternDatabase) -> bool:
    """Whether the cache files a loaded database was read from are all still there (the
    same files: not deleted, nor deleted and written again)."""
    return all(f is None or _file_id(f[0]) == f for f in getattr(db, "cache_files", ()))


def _still_cached(db: PatternDatabase) -> bool:
    """Whether every table file of a loaded database is still in the cache; each is marked
    used now (:func:`slidelab.cache.touch`: the cache's size limit deletes the least recently
    used first)."""
    from ...cache import touch

    if not _files_there(db):
        return False
    for f in getattr(db, "cache_files", ()):
        if f is not None:
            touch(f[0])
    return True


def forget_deleted() -> int:
    """Let go of the loaded databases a table file of which was deleted from the cache
    (:func:`slidelab.cache.trim_tables`): their memory, and the disk space of the mapped
    files, are freed.  Returns how many were let go."""
    gone = [key for key, db in _LOADED.items() if not _files_there(db)]
    for key in gone:
        del _LOADED[key]
    return len(gone)


def _spec(puzzle: Puzzle, codes) -> dict:
    """The cache spec of one group's table: the group's goal, and its tiles in the order that
    fixes the table's index."""
    names = (0,) + puzzle.labels
    return {
        "kind": "pdb",
        "board": puzzle.size,
        "goal": group_goal_text(puzzle, codes),
        "order": ",".join(str(names[c]) for c in codes),
        "version": PDB_FORMAT,
    }


def _group_ready(puzzle: Puzzle, codes) -> bool:
    """Whether one group's table is loaded in this process or cached on disk."""
    if any(codes in db.groups for (goal, _, _), db in _LOADED.items() if goal == puzzle.goal):
        return True
    from ...cache import table_path

    return table_path(_spec(puzzle, codes)).is_file()


def is_ready(puzzle: Puzzle, partition=None) -> bool:
    """Whether a partition's tables are loaded in this process or cached on disk (not checked
    beyond being there: a bad file is rebuilt when loaded)."""
    return all(_group_ready(puzzle, codes) for codes in parse_partition(puzzle, partition))


def build_estimate(puzzle: Puzzle, partition=None) -> tuple[float, int]:
    """A rough guess of the seconds building a partition's missing tables takes here, and the
    bytes of all its tables.

    A byte per placement of each group; about half a microsecond of one core per
    placement to build (measured: the 15-puzzle's 7-8 tables, 577 million
    placements, in 2 min 25 s on 2 cores; its 6-6-3 tables, 11.5 million, in
    3.3 s), spread over the cores.  Groups already built (a group that two
    partitions share, say) cost nothing.

    Examples
    --------
    >>> seconds, size = build_estimate(Puzzle("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"), "7-8")
    >>> size
    576576000
    """
    from ...memory import usable_cores

    groups = parse_partition(puzzle, partition)
    size = sum(_placements(puzzle, c) for c in groups)
    missing = sum(_placements(puzzle, c) for c in groups if not _group_ready(puzzle, c))
    return missing * 0.5e-6 / max(1, min(usable_cores(), 16)), size


def _group_table(puzzle, codes, i, count, progress, cache):
    def build(report):
        def inner(fraction, message):
            if report is not None:
                report(fraction, f"table {i + 1}/{count}: {message}")

        return build_group_table(puzzle, codes, inner)

    if not cache:
        return build(progress)
    from ...cache import load_or_build

    in_memory = _in_memory(_placements(puzzle, codes))
    return load_or_build(_spec(puzzle, codes), build, progress, mmap=not in_memory)


def _placements(puzzle: Puzzle, codes) -> int:
    """Placements of a group's tiles: its table's entries (a byte each)."""
    n, k = puzzle.width * puzzle.height, len(puzzle.labels) + 1
    return GroupLayout([codes], puzzle.label_counts, n, k).sizes[0]


def _in_memory(nbytes: int) -> bool:
    """Whether a table of ``nbytes`` is read into memory rather than mapped (see
    :data:`IN_MEMORY_BYTES`): a large table, huge pages, and at most a quarter of the memory
    available now (processes that each read their copy stop doing so when memory runs short,
    and map the one shared copy instead)."""
    from ...memory import available_memory, huge_pages

    return nbytes >= IN_MEMORY_BYTES and huge_pages() and 4 * nbytes <= available_memory()


def pdb(puzzle: Puzzle, partition=None, progress=None, cache: bool = True) -> Heuristic:
    """The additive pattern-database heuristic of a puzzle."""
    return pattern_database(puzzle, partition, progress=progress, cache=cache).heuristic()
