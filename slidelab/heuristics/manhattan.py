"""Manhattan distance, the classic per-tile estimate (and ``zero``).

Each tile's taxicab distance to its goal cell; for a label on several tiles,
to the *nearest* goal cell with that label.  A move changes one tile's
distance by one, so the sum is admissible and consistent.  Updated per move
from ``table[tile, cell]``.
"""

from __future__ import annotations

import numpy as np

from .. import _args
from .._jit import njit
from ..geometry import taxicab_table
from ..puzzle import Puzzle
from .base import Heuristic
from .dispatch import register


def manhattan_table(puzzle: Puzzle) -> np.ndarray:
    """``table[code, cell]``: distance from ``cell`` to the nearest goal cell of ``code``.

    Examples
    --------
    >>> manhattan_table(Puzzle("1 2/3 0")).tolist()
    [[0, 0, 0, 0], [0, 1, 1, 2], [1, 0, 2, 1], [1, 2, 0, 1]]
    """
    _args.instance(puzzle, "puzzle", Puzzle)
    _check_table_size(puzzle, "manhattan")
    return taxicab_table(puzzle.goal_codes, puzzle.width, np.int32)


def _check_table_size(puzzle: Puzzle, name: str) -> None:
    """Refuse a per-tile table (4 bytes per label and cell) over the default memory limit."""
    from ..errors import SearchLimitError
    from ..memory import default_max_bytes

    need = 4 * (len(puzzle.labels) + 1) * puzzle.width * puzzle.height
    allowed = default_max_bytes()
    if need > allowed:
        raise SearchLimitError(
            f"limit reached: the {name} table of a {puzzle.size} board needs"
            f" {need:,} bytes, over the memory limit of {allowed:,} bytes"
        )


def table_sum(table: np.ndarray, codes) -> int:
    """Sum of a per-tile table over a board's tiles."""
    codes = np.asarray(codes)
    return int(table[codes, np.arange(codes.shape[0])].sum())


@njit(cache=True)
def _table_move(data, board, depth, h, tile, frm, to):
    table = data[0]
    return h - table[tile, frm] + table[tile, to]


register(1, _table_move)


def _table_heuristic(name, table, description):
    def init(codes, max_depth):
        return (table,), table_sum(table, codes)

    return Heuristic(name, True, _table_move, init, description, table=table)


def manhattan(puzzle: Puzzle) -> Heuristic:
    """The Manhattan-distance heuristic of a puzzle."""
    return _table_heuristic(
        "manhattan", manhattan_table(puzzle), "sum of tile distances to their (nearest) goal cells"
    )


def zero(puzzle: Puzzle) -> Heuristic:
    """Always 0: A* becomes uniform-cost search, IDA* iterative deepening."""
    _check_table_size(puzzle, "zero")
    table = np.zeros((len(puzzle.labels) + 1, puzzle.width * puzzle.height), dtype=np.int32)
    return _table_heuristic("zero", table, "no estimate")
