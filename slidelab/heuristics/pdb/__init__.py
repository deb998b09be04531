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
)
from .lookup import PatternDatabase

#: format of the cached tables (the cache rebuilds tables of another format)
PDB_FORMAT = 1

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
    "check_build_size",
    "group_goal_text",
    "parse_partition",
    "pattern_database",
    "pdb",
    "reflection",
    "stronger_partition",
]


_LOADED: dict = {}


def pattern_database(
    puzzle: Puzzle, partition=None, *, progress=None, cache: bool = True, reflect: bool = True
) -> PatternDatabase:
    """Build (or load from the cache) the pattern databases of a partition.

    Tables already loaded in this process are reused.
    """
    groups = parse_partition(puzzle, partition)
    key = (puzzle.goal, tuple(map(tuple, groups)), reflect)
    if cache and key in _LOADED:
        return _LOADED[key]
    for codes in groups:  # refuse an oversized group before building any table
        check_build_size(puzzle, codes)
    tables = []
    for i, codes in enumerate(groups):
        tables.append(_group_table(puzzle, codes, i, len(groups), progress, cache))
    db = PatternDatabase(puzzle, groups, tables, reflect)
    if cache:
        _LOADED[key] = db
    return db


def _group_table(puzzle, codes, i, count, progress, cache):
    def build(report):
        def inner(fraction, message):
            if report is not None:
                report(fraction, f"table {i + 1}/{count}: {message}")

        return build_group_table(puzzle, codes, inner)

    if not cache:
        return build(progress)
    from ...cache import load_or_build

    spec = {
        "kind": "pdb",
        "board": puzzle.size,
        "goal": group_goal_text(puzzle, codes),
        "version": PDB_FORMAT,
    }
    return load_or_build(spec, build, progress)


def pdb(puzzle: Puzzle, partition=None, progress=None, cache: bool = True) -> Heuristic:
    """The additive pattern-database heuristic of a puzzle."""
    return pattern_database(puzzle, partition, progress=progress, cache=cache).heuristic()
