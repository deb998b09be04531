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
    :mod:`slidelab.tables.driver`, shared with the full-space analysis).

This module loads a partition's tables (from the cache, or built) and makes the
heuristic: :func:`pattern_database`, :func:`pdb`.
"""

from __future__ import annotations

import logging

from ...errors import SlidelabError
from ...puzzle import Puzzle
from ...tables.pdb.build import (
    MAX_BUILD_BYTES,
    build_by_scan,
    build_bytes,
    build_group_table,
    check_build_size,
)
from ...tables.pdb.layout import (
    AUTO_BUILD_STATES,
    DEFAULT_PARTITION,
    GroupLayout,
    auto_partition,
    group_goal_text,
    parse_partition,
    placements,
    reflection,
    stronger_partition,
    stronger_partitions,
)
from ..base import Heuristic
from .lookup import PatternDatabase

#: format of the cached tables (the cache rebuilds tables of another format); 2: the group's
#: order is part of the key (version 1 loaded a group's table for its tiles in any order)
PDB_FORMAT = 2

__all__ = [
    "AUTO_BUILD_STATES",
    "DEFAULT_PARTITION",
    "GroupLayout",
    "LOADED",
    "MAX_BUILD_BYTES",
    "PDB_FORMAT",
    "PatternDatabase",
    "announce_build",
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
    "partition_name",
    "pattern_database",
    "pdb",
    "reflection",
    "stronger_partition",
    "stronger_partitions",
]


log = logging.getLogger(__name__)

#: the pattern databases loaded in this process, by ``(goal, groups, reflect)``: reused by
#: :func:`pattern_database` while their files are in the cache (:func:`forget_deleted` lets
#: go of the others); a test that wants its own cache sets it to an empty dict
LOADED: dict = {}


def pattern_database(
    puzzle: Puzzle, partition=None, *, progress=None, cache: bool = True, reflect: bool = True
) -> PatternDatabase:
    """Build (or load from the cache) the pattern databases of a partition.

    Tables already loaded in this process are reused.
    """
    groups = parse_partition(puzzle, partition)
    key = (puzzle.goal, tuple(map(tuple, groups)), reflect)
    if cache and key in LOADED:
        if _still_cached(LOADED[key]):
            return LOADED[key]
        del LOADED[key]  # a file deleted from the cache (its size limit): load or build again
    for codes in groups:  # refuse an oversized group before building any table
        check_build_size(puzzle, codes)
    if cache:
        announce_build(puzzle, partition, groups)
    tables = []
    for i, codes in enumerate(groups):
        tables.append(_group_table(puzzle, codes, i, len(groups), progress, cache))
    db = PatternDatabase(puzzle, groups, tables, reflect)
    if cache:
        from ...cache import table_path

        db.cache_files = [_file_id(table_path(_spec(puzzle, codes))) for codes in groups]
        LOADED[key] = db
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
    gone = [key for key, db in LOADED.items() if not _files_there(db)]
    for key in gone:
        del LOADED[key]
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
    if any(codes in db.groups for (goal, _, _), db in LOADED.items() if goal == puzzle.goal):
        return True
    from ...cache import table_path

    return table_path(_spec(puzzle, codes)).is_file()


def is_ready(puzzle: Puzzle, partition=None) -> bool:
    """Whether a partition's tables are loaded in this process or cached on disk (not checked
    beyond being there: a bad file is rebuilt when loaded)."""
    return all(_group_ready(puzzle, codes) for codes in parse_partition(puzzle, partition))


#: seconds of one core per byte a group's build holds at its peak (its states: each placement
#: with each blank cell, a byte or two bits each), and seconds per table whatever its size
#: (writing it, checking it, starting the kernels), measured on the 2-core development machine:
#: the 15-puzzle's 7-8 tables (1.56 GB of build) in 2 min 25 s, its 6-6-3 (52 MB) in 3.3 s,
#: a 32x32 board's single-tile tables (1 MB of build each) in about 0.5 s each
BUILD_SECONDS_PER_BYTE = 0.15e-6
BUILD_SECONDS_PER_TABLE = 0.3


def build_estimate(puzzle: Puzzle, partition=None) -> tuple[float, int]:
    """A rough guess of the seconds building a partition's missing tables takes here, and the
    bytes of all its tables.

    A byte per placement of each group; the build's time from the memory it holds at its
    peak (:data:`BUILD_SECONDS_PER_BYTE`, spread over the cores) and a cost per table
    (:data:`BUILD_SECONDS_PER_TABLE`).  Groups already built (a group that two partitions
    share, say) cost nothing.

    Examples
    --------
    >>> seconds, size = build_estimate(Puzzle("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"), "7-8")
    >>> size
    576576000
    """
    groups = parse_partition(puzzle, partition)
    size = sum(placements(puzzle, c) for c in groups)
    missing = [c for c in groups if not _group_ready(puzzle, c)]
    return _build_seconds(puzzle, missing), size


def _build_seconds(puzzle: Puzzle, groups) -> float:
    """About how long building these groups' tables takes here (see :func:`build_estimate`)."""
    from ...memory import usable_cores

    cores = max(1, min(usable_cores(), 16))
    work = sum(build_bytes(puzzle, c) for c in groups) * BUILD_SECONDS_PER_BYTE / cores
    return work + BUILD_SECONDS_PER_TABLE * len(groups)


def announce_build(puzzle: Puzzle, partition, groups=None) -> None:
    """Say (INFO, on the ``slidelab`` log the command line shows) what is about to be built
    before any of a partition's missing tables is: which, how big, about how long, and that it
    is done once.  Nothing when every table is ready."""
    groups = parse_partition(puzzle, partition) if groups is None else groups
    missing = [c for c in groups if not _group_ready(puzzle, c)]
    if not missing:
        return
    from ...cache import cache_dir
    from ...units import format_bytes, format_duration

    size = sum(placements(puzzle, c) for c in missing)
    seconds = _build_seconds(puzzle, missing)
    tables = f"{len(missing)} table{'s' if len(missing) > 1 else ''}"
    if len(missing) < len(groups):
        tables += f" of {len(groups)}"
    log.info(
        "building the %s pattern databases for the %s goal %s: %s, %s, about %s; once: cached"
        " in %s for later solves",
        partition_name(puzzle, partition),
        puzzle.size,
        _short(puzzle.goal.format()),
        tables,
        format_bytes(size),
        format_duration(seconds),
        cache_dir(),
    )


def partition_name(puzzle: Puzzle, partition) -> str:
    """A partition's name for messages: its own, the board's named default for None, else
    "automatic" or "explicit".

    Examples
    --------
    >>> partition_name(Puzzle("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"), None)
    '6-6-3'
    >>> partition_name(Puzzle("1 2 3/4 5 6/7 8 0"), None)
    'automatic'
    """
    if isinstance(partition, str):
        return partition.strip().lower()
    if partition is None:
        named = DEFAULT_PARTITION.get((puzzle.width, puzzle.height))
        if named is not None and not puzzle.has_repeats:
            try:
                parse_partition(puzzle, named)
                return named
            except SlidelabError:
                pass
        return "automatic"
    return "explicit"


def _short(text: str, limit: int = 30) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _group_table(puzzle, codes, i, count, progress, cache):
    def build(report):
        def inner(fraction, message):
            if report is not None:
                report(fraction, f"table {i + 1}/{count}: {message}")

        return build_group_table(puzzle, codes, inner)

    if not cache:
        return build(progress)
    from ...cache import load_or_build
    from ...memory import read_into_memory

    in_memory = read_into_memory(placements(puzzle, codes))
    return load_or_build(_spec(puzzle, codes), build, progress, mmap=not in_memory)


def pdb(puzzle: Puzzle, partition=None, progress=None, cache: bool = True) -> Heuristic:
    """The additive pattern-database heuristic of a puzzle."""
    return pattern_database(puzzle, partition, progress=progress, cache=cache).heuristic()
