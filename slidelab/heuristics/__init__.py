"""Heuristics: admissible estimates of the distance to the goal, selectable by name.

``manhattan``
    Tile distances to their goal cells (nearest cell for repeated labels).
``linear-conflict``
    Manhattan plus two moves per tile that must leave its goal row or column.
``pdb``
    Additive disjoint pattern databases, maximised with their reflection on
    symmetric square goals (default partitions: 3x3 one full table, 4x4 6-6-3,
    ``7-8`` selectable; automatic elsewhere).
``zero``
    No estimate (uniform-cost search / iterative deepening).

Every heuristic is a compiled move function that updates the estimate per move
(see :mod:`slidelab.heuristics.base`).
"""

from __future__ import annotations

from .. import _args
from ..errors import SearchLimitError, SlidelabError
from ..puzzle import Puzzle
from .base import Heuristic
from .linear_conflict import linear_conflict
from .manhattan import manhattan, manhattan_table, table_sum, zero
from .pdb import pattern_database, pdb

HEURISTICS = ("manhattan", "linear-conflict", "pdb", "zero")
_ALIASES = {"md": "manhattan", "lc": "linear-conflict", "linear": "linear-conflict",
            "linearconflict": "linear-conflict", "pattern": "pdb", "none": "zero"}


def heuristic_name(name: str) -> str:
    """The canonical name of a heuristic (aliases such as ``lc`` accepted), or an error listing them."""
    key = _args.text(name, "heuristic").strip().lower()
    key = _ALIASES.get(key, key)
    if key not in HEURISTICS:
        raise SlidelabError(f"unknown heuristic {name!r}; choose from {', '.join(HEURISTICS)}")
    return key


def make_heuristic(puzzle: Puzzle, name: str = "manhattan", *, partition=None, progress=None,
                   cache: bool = True) -> Heuristic:
    """The heuristic ``name`` for this puzzle (pattern databases are built or loaded).

    An allocation the operating system refuses ends with :class:`SearchLimitError`.
    """
    _args.instance(puzzle, "puzzle", Puzzle)
    key = heuristic_name(_args.text(name, "name"))
    _args.callback(progress, "progress")
    cache = _args.boolean(cache, "cache")
    if partition is not None and key != "pdb":
        raise SlidelabError("a partition applies to the pdb heuristic only")
    try:
        if key == "manhattan":
            return manhattan(puzzle)
        if key == "linear-conflict":
            return linear_conflict(puzzle)
        if key == "zero":
            return zero(puzzle)
        return pdb(puzzle, partition, progress=progress, cache=cache)
    except MemoryError:
        raise SearchLimitError(f"limit reached: out of memory making the {key} heuristic of a"
                               f" {puzzle.size} board") from None


def heuristic_table(puzzle: Puzzle, name: str = "manhattan"):
    """Per-tile table of a table-based heuristic (``manhattan`` or ``zero``)."""
    _args.instance(puzzle, "puzzle", Puzzle)
    key = heuristic_name(_args.text(name, "name"))
    if key == "manhattan":
        return manhattan_table(puzzle)
    if key == "zero":
        return zero(puzzle).prepare(puzzle.goal_codes, 1)[0][0]
    raise SlidelabError(f"{name} is not a per-tile table heuristic")


def estimate(table, codes) -> int:
    """Sum of a per-tile table over a board."""
    return table_sum(table, codes)


__all__ = ["HEURISTICS", "Heuristic", "estimate", "heuristic_name", "heuristic_table",
           "linear_conflict", "make_heuristic", "manhattan", "manhattan_table", "pattern_database",
           "pdb", "zero"]
