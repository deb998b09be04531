"""Heuristics: admissible estimates of the distance to the goal.

A heuristic here is a table ``h[code, cell]``: the cost charged to the tile
with label code ``code`` standing on ``cell``; a board's estimate is the sum
over its tiles.  The search kernels keep that sum up to date per move by
adding ``h[t, new] - h[t, old]`` for the one tile that moved, instead of
recomputing it.

``manhattan``
    Each tile's taxicab distance to its goal cell; for a label that appears
    on several tiles, to the *nearest* goal cell with that label.  Every move
    changes one tile's distance by one, so the sum is admissible and
    consistent.
``zero``
    Always 0 (turns A* into uniform-cost search, IDA* into iterative deepening).
"""

from __future__ import annotations

import numpy as np

from .errors import SlidelabError
from .puzzle import Puzzle

HEURISTICS = ("manhattan", "zero")


def manhattan_table(puzzle: Puzzle) -> np.ndarray:
    """``table[code, cell]``: distance from ``cell`` to the nearest goal cell of ``code``.

    Examples
    --------
    >>> manhattan_table(Puzzle("1 2/3 0")).tolist()
    [[0, 0, 0, 0], [0, 1, 1, 2], [1, 0, 2, 1], [1, 2, 0, 1]]
    """
    w, n = puzzle.width, puzzle.width * puzzle.height
    goal = puzzle.goal_codes
    k = len(puzzle.labels)
    rows, cols = np.divmod(np.arange(n), w)
    table = np.zeros((k + 1, n), dtype=np.int32)
    for code in range(1, k + 1):
        cells = np.flatnonzero(goal == code)
        dist = np.abs(rows[:, None] - rows[cells][None, :]) + np.abs(cols[:, None] - cols[cells][None, :])
        table[code] = dist.min(axis=1)
    return table


def heuristic_table(puzzle: Puzzle, name: str = "manhattan") -> np.ndarray:
    """The per-tile table of heuristic ``name`` for this puzzle."""
    if name == "manhattan":
        return manhattan_table(puzzle)
    if name == "zero":
        return np.zeros((len(puzzle.labels) + 1, puzzle.width * puzzle.height), dtype=np.int32)
    raise SlidelabError(f"unknown heuristic {name!r}; choose from {', '.join(HEURISTICS)}")


def estimate(table: np.ndarray, codes) -> int:
    """Sum of the table over a board's tiles."""
    codes = np.asarray(codes)
    return int(table[codes, np.arange(codes.shape[0])].sum())
