"""Pattern-database tables: groups of tiles, how their placements are numbered, and the builds.

:mod:`.layout`
    groups and partitions: how a group's placement is numbered (the one group index), the
    named and automatic partitions, the reflection of the goal;
:mod:`.build`
    building one group's table: the byte-per-state scan for groups with repeated labels, and
    the entry to :mod:`.distinct`, the parallel builder for distinct tiles (by sets of cells, two
    bits per state: the layer codes of :mod:`slidelab.tables.driver`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from ...errors import SlidelabError
from ...puzzle import Puzzle
from ..family import Family, Part, Tables, goal_argument, goal_words

#: format of the cached tables (the cache rebuilds tables of another format); 2: the group's
#: order is part of the key (version 1 loaded a group's table for its tiles in any order); 3:
#: the zero-aware bits follow a distinct group's table (:func:`.build.above_bytes`); 4: groups
#: leaving up to 24 cells free get them too (the 24-puzzle's), and a placement's byte marks
#: whether it has any; 5: a bit a region, not a cell, then the regions of each set of cells
PDB_FORMAT = 5


#: nanoseconds of one core per placement of a distinct-tile group's build, by sets of cells
#: (:mod:`.distinct`), and per set of cells (each layer looks at every set), on the 2-core
#: development machine: fitted to the 7-8 build (577 million placements, 24,310 sets: 19.4 s)
#: and the 6-6-6-6 one (510 million placements, 708,400 sets: 26.4 s)
NS_PER_PLACEMENT = 66.0
NS_PER_SET = 26_000.0
#: and more per placement with the zero-aware bits: the 7-8 build took 30.4 s with them
NS_PER_ZERO_AWARE_PLACEMENT = 40.0
#: nanoseconds of one core per state (a placement and a cell of the blank,
#: :func:`~.layout.build_states`) of the byte scan of groups with repeated labels
NS_PER_SCAN_STATE = 950.0
#: seconds per table whatever its size (writing it, checking it)
SECONDS_PER_TABLE = 0.05


def model_seconds(puzzle: Puzzle, codes, cores: int) -> float:
    """Seconds a group's build takes on ``cores`` cores of an idle development machine (the
    model :mod:`slidelab.calibration` scales to this machine and its load)."""
    import math

    from . import distinct
    from .build import above_bytes
    from .layout import build_states, placements

    if distinct.suitable(puzzle, codes):
        sets = math.comb(puzzle.width * puzzle.height, len(codes))
        per = NS_PER_PLACEMENT + (NS_PER_ZERO_AWARE_PLACEMENT if above_bytes(puzzle, codes) else 0)
        ns = placements(puzzle, codes) * per + sets * NS_PER_SET
    else:
        ns = build_states(puzzle, codes) * NS_PER_SCAN_STATE
    return ns * 1e-9 / max(1, cores) + SECONDS_PER_TABLE


def spec(puzzle: Puzzle, codes) -> dict:
    """The cache spec of one group's table: the group's goal, and its tiles in the order that
    fixes the table's index."""
    from .layout import group_goal_text

    names = (0,) + puzzle.labels
    return {
        "kind": "pdb",
        "board": puzzle.size,
        "goal": group_goal_text(puzzle, codes),
        "order": ",".join(str(names[c]) for c in codes),
        "version": PDB_FORMAT,
    }


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
    from .layout import DEFAULT_PARTITION, parse_partition

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


def _part(puzzle: Puzzle, codes: list[int]) -> Part:
    from ...memory import usable_cores
    from .build import (
        COMPILE_SECONDS,
        build_bytes,
        build_group_table,
        build_kernels,
        check_build_size,
        table_bytes,
    )

    check_build_size(puzzle, codes)  # an oversized group refused before any table is built
    size = table_bytes(puzzle, codes)
    peak = build_bytes(puzzle, codes)
    cores = max(1, min(usable_cores(), 16))
    kernels = build_kernels(puzzle, codes)
    names = (0,) + puzzle.labels
    return Part(
        spec(puzzle, codes),
        f"the table of tiles {' '.join(str(names[c]) for c in codes)}",
        size,
        peak,
        model_seconds(puzzle, codes, cores),
        kernels,
        COMPILE_SECONDS[kernels],
        lambda progress: build_group_table(puzzle, codes, progress),
    )


@functools.lru_cache(maxsize=64)
def _ladder(goal, metric: str) -> tuple:
    """:meth:`PatternDatabaseFamily.sets` of a goal: the same for every board of a stream, so
    worked out once (sizing each rung's groups took 4 ms a board, as long as a typical
    15-puzzle's search)."""
    from .build import check_build_size
    from .layout import DEFAULT_PARTITION, parse_partition, stronger_partitions

    puzzle = Puzzle(goal, goal)
    few_cells = puzzle.width * puzzle.height <= 16
    if not few_cells and partition_name(puzzle, None) not in DEFAULT_PARTITION.values():
        return ()  # no named tables for this board and goal
    rungs: list = [None]
    if metric == "stm":
        rungs += stronger_partitions(puzzle, None)
    buildable = []
    for name in rungs:
        try:
            for codes in parse_partition(puzzle, name):
                check_build_size(puzzle, codes)
        except SlidelabError:
            break  # too large to build here (and so is every rung above), or no named groups
        buildable.append(partition_name(puzzle, name) if name is None else name)
    # the default partition by its name where it has one (the same tables as None)
    return tuple(None if n == "automatic" else n for n in buildable)


class PatternDatabaseFamily(Family):
    """Additive pattern databases: a table per group of tiles (a partition), each the fewest
    moves of the group's tiles from every placement of them (:mod:`.build`)."""

    name = "pdb"
    option = "partition"
    metric_bound = False

    def parts(self, tables: Tables) -> list[Part]:
        from .layout import parse_partition

        puzzle = tables.puzzle
        return [_part(puzzle, codes) for codes in parse_partition(puzzle, tables.which)]

    def specs(self, tables: Tables) -> Iterator[dict]:
        """The groups' specs one at a time: whether a set is cached is told at its first
        missing table (a 100x100 board's thousands of groups are never all written out)."""
        from .layout import parse_partition

        puzzle = tables.puzzle
        for codes in parse_partition(puzzle, tables.which):
            yield spec(puzzle, codes)

    def sets(self, goal, metric: str) -> tuple:
        """The board's named partitions (:data:`slidelab.tables.registry.PARTITION_LADDER`),
        weakest first, in STM (in MTM the first only: its estimates are divided by a line's
        length), up to the first too large to build here; on boards of at most 16 cells
        without named partitions, the automatic one."""
        return _ladder(goal, metric)

    def stronger(self, tables: Tables):
        from .layout import stronger_partition

        return stronger_partition(tables.puzzle, tables.which)

    def describe(self, tables: Tables) -> str:
        name = partition_name(tables.puzzle, tables.which)
        return f"the {name} pattern databases of {goal_words(tables.goal)}"

    def command(self, tables: Tables) -> str:
        name = tables.which if isinstance(tables.which, str) else None
        return f"slidelab tables build {goal_argument(tables.goal)}" + (
            f" --partition {name}" if name else ""
        )


FAMILY = PatternDatabaseFamily()

__all__ = [
    "FAMILY",
    "PDB_FORMAT",
    "PatternDatabaseFamily",
    "partition_name",
    "spec",
]
