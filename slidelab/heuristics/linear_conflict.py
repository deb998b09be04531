"""Manhattan distance plus linear conflicts (Hansson, Mayer and Yung 1992).

Two tiles in their goal row (or column) but in the wrong order there cannot
both travel along it: one must leave the line and come back, two moves the
Manhattan distance does not count.  Per line, the fewest tiles to take out so
that the rest are in order is the line's length minus the longest increasing
subsequence of their goal positions; each costs 2.  Row conflicts cost
vertical moves and column conflicts horizontal ones, so both add to the
Manhattan distance and the sum stays admissible.  Labels that appear on
several tiles (no single goal line) take no part in conflicts.

A horizontal move changes only two columns' conflicts, a vertical move two
rows': the kernel recomputes those two lines and keeps every line's value on a
stack indexed by depth.
"""

from __future__ import annotations

import numpy as np

from .._jit import njit
from ..puzzle import Puzzle
from .base import Heuristic
from .dispatch import register
from .manhattan import manhattan_table, table_sum


@njit(cache=True)
def _line_conflicts(board, w, hgt, grow, gcol, line, seq, best):
    """2 x (tiles to remove) for row ``line`` (< hgt) or column ``line - hgt``."""
    k = 0
    if line < hgt:
        for c in range(w):
            t = board[line * w + c]
            if t != 0 and grow[t] == line:
                seq[k] = gcol[t]
                k += 1
    else:
        col = line - hgt
        for r in range(hgt):
            t = board[r * w + col]
            if t != 0 and gcol[t] == col:
                seq[k] = grow[t]
                k += 1
    if k < 2:
        return 0
    longest = 0
    for i in range(k):
        b = 1
        for j in range(i):
            if seq[j] < seq[i] and best[j] + 1 > b:
                b = best[j] + 1
        best[i] = b
        if b > longest:
            longest = b
    return 2 * (k - longest)


@njit(cache=True)
def _lc_move(data, board, depth, h, tile, frm, to):
    table, grow, gcol, dims, lcs, mds, seq, best = data
    w = dims[0]
    hgt = dims[1]
    md = mds[depth] - table[tile, frm] + table[tile, to]
    mds[depth + 1] = md
    lines = lcs.shape[1]
    for i in range(lines):
        lcs[depth + 1, i] = lcs[depth, i]
    if frm // w == to // w:  # horizontal: the tile changed column
        a = hgt + frm % w
        b = hgt + to % w
    else:  # vertical: the tile changed row
        a = frm // w
        b = to // w
    lcs[depth + 1, a] = _line_conflicts(board, w, hgt, grow, gcol, a, seq, best)
    lcs[depth + 1, b] = _line_conflicts(board, w, hgt, grow, gcol, b, seq, best)
    total = md
    for i in range(lines):
        total += lcs[depth + 1, i]
    return total


register(8, _lc_move)


def goal_lines(puzzle: Puzzle):
    """``(grow, gcol)``: each code's goal row and column, -1 for repeated labels."""
    k = len(puzzle.labels)
    grow = np.full(k + 1, -1, dtype=np.int64)
    gcol = np.full(k + 1, -1, dtype=np.int64)
    goal = puzzle.goal_codes
    for code in range(1, k + 1):
        cells = np.flatnonzero(goal == code)
        if len(cells) == 1:
            grow[code], gcol[code] = divmod(int(cells[0]), puzzle.width)
    return grow, gcol


def linear_conflict(puzzle: Puzzle) -> Heuristic:
    """Manhattan distance plus 2 per tile that must leave its goal row or column."""
    table = manhattan_table(puzzle)
    grow, gcol = goal_lines(puzzle)
    w, hgt = puzzle.width, puzzle.height
    dims = np.array([w, hgt], dtype=np.int64)
    size = max(w, hgt)

    def init(codes, max_depth):
        lcs = np.zeros((max_depth + 2, w + hgt), dtype=np.int64)
        mds = np.zeros(max_depth + 2, dtype=np.int64)
        seq = np.zeros(size, dtype=np.int64)
        best = np.zeros(size, dtype=np.int64)
        for line in range(w + hgt):
            lcs[0, line] = _line_conflicts(codes, w, hgt, grow, gcol, line, seq, best)
        mds[0] = table_sum(table, codes)
        return (table, grow, gcol, dims, lcs, mds, seq, best), int(mds[0] + lcs[0].sum())

    return Heuristic(
        "linear-conflict",
        True,
        _lc_move,
        init,
        "Manhattan distance plus linear conflicts in rows and columns",
    )
