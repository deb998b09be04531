"""Additive disjoint pattern databases (Korf and Felner 2002), with reflection: the heuristic.

The tiles are split into disjoint groups.  For each group a table gives, for every placement
of the group's tiles, the fewest moves *of those tiles* that bring them home, whatever the
other tiles do.  Each move moves one tile, so the values of different groups add up to an
admissible estimate.  The tables are the tables' layer's (the ``pdb`` family:
:mod:`slidelab.tables.pdb`: the groups, their numbering, the builds); here:

:mod:`.lookup`
    the heuristic's move kernels and :class:`PatternDatabase`, the tables ready for the search;
:mod:`.dual`
    ``pdb-dual``: the same maxed with the dual look-up of the board with its blank walked home;

and this module, which makes the heuristic of a partition (:func:`pattern_database`,
:func:`pdb`), made once a process and kept in :data:`slidelab.tables.loaded.LOADED`.
"""

from __future__ import annotations

from ...puzzle import Puzzle
from ...tables.family import Tables
from ..base import Heuristic
from .lookup import PatternDatabase

__all__ = ["PatternDatabase", "pattern_database", "pdb"]


def pattern_database(
    puzzle: Puzzle,
    partition=None,
    *,
    progress=None,
    cache: bool = True,
    reflect: bool = True,
    zero_aware: bool = True,
) -> PatternDatabase:
    """The pattern databases of a partition (None: the board's default), ready for the search:
    their tables loaded from the cache, or built (announced) and cached; made once a process
    (:data:`slidelab.tables.loaded.LOADED`) while their files are in the cache.  With
    ``zero_aware`` false, the search reads the least over the blank only (the published
    tables; for measuring)."""
    from ...tables.loaded import LOADED
    from ...tables.pdb.build import build_group_table, check_build_size
    from ...tables.pdb.layout import parse_partition

    groups = parse_partition(puzzle, partition)

    def checked():  # an oversized group refused before any table is built
        for codes in groups:
            check_build_size(puzzle, codes)
        return groups

    if not cache:
        tables = [build_group_table(puzzle, codes, progress) for codes in checked()]
        return PatternDatabase(puzzle, groups, tables, reflect, zero_aware)
    if partition is not None and not isinstance(partition, str):  # groups of labels, hashable
        partition = tuple(tuple(puzzle.labels[c - 1] for c in codes) for codes in groups)
    named = Tables("pdb", puzzle.goal, "stm", partition)

    def make():
        checked()
        tables = named.load(progress)
        db = PatternDatabase(puzzle, groups, tables, reflect, zero_aware)
        return db, named.files(), sum(int(t.nbytes) for t in tables)

    key = ("pdb", puzzle.goal, tuple(map(tuple, groups)), reflect, zero_aware)
    return LOADED.made(key, make)


def pdb(puzzle: Puzzle, partition=None, progress=None, cache: bool = True) -> Heuristic:
    """The additive pattern-database heuristic of a puzzle."""
    return pattern_database(puzzle, partition, progress=progress, cache=cache).heuristic()
