"""IDA*: iterative-deepening A*, depth-first with an ``f = g + w*h`` bound.

Memory is only the current path.  The compiled kernel makes and unmakes moves
on one small integer board, never moves the blank straight back, and updates
``h`` incrementally from the moved tile's table entries.  The depth-first
search keeps its own explicit stack, so it runs in slices of a node budget and
resumes where it stopped: between slices Python checks the time limit,
reports progress and lets Ctrl-C through.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..errors import SlidelabError
from ..heuristics import estimate, heuristic_table
from ..puzzle import Puzzle
from ..solution import Solution, Stats
from ._common import Limits, make_solution

BUDGET = 1 << 22
RUNNING, FOUND, EXHAUSTED = 0, 1, 2


@njit(cache=True)
def _ida_run(board, nbr, htab, goal, weight, bound, path, tried, hs, st, next_bound, budget):
    """Run one slice of a bounded depth-first search.

    ``st`` holds ``[depth, blank, h, expanded, generated]`` and is updated in
    place, as are ``board``, ``path`` (blank direction taken at each depth),
    ``tried`` (next direction to try at each depth) and ``hs`` (``h`` at each
    depth).  ``next_bound[0]`` collects the smallest ``f`` over the bound.
    Returns RUNNING (budget spent), FOUND (``path[:depth]`` solves) or
    EXHAUSTED (no solution within ``bound``).
    """
    depth = st[0]
    blank = st[1]
    h = st[2]
    expanded = st[3]
    generated = st[4]
    n = board.shape[0]
    work = 0
    status = 0
    limit = bound + 1e-9
    while True:
        if work >= budget:
            status = 0
            break
        if tried[depth] == 0:
            if h == 0:
                same = True
                for i in range(n):
                    if board[i] != goal[i]:
                        same = False
                        break
                if same:
                    status = 1
                    break
            expanded += 1
        d = tried[depth]
        if d == 4:
            if depth == 0:
                status = 2
                break
            depth -= 1
            prev = nbr[blank, path[depth] ^ 1]
            board[blank] = board[prev]
            board[prev] = 0
            blank = prev
            h = hs[depth]
            continue
        tried[depth] = d + 1
        if depth > 0 and d == (path[depth - 1] ^ 1):
            continue
        nb = nbr[blank, d]
        if nb < 0:
            continue
        generated += 1
        work += 1
        t = board[nb]
        nh = h + htab[t, blank] - htab[t, nb]
        f = (depth + 1) + weight * nh
        if f > limit:
            if f < next_bound[0]:
                next_bound[0] = f
            continue
        board[blank] = t
        board[nb] = 0
        path[depth] = d
        hs[depth] = h
        depth += 1
        blank = nb
        h = nh
        tried[depth] = 0
    st[0] = depth
    st[1] = blank
    st[2] = h
    st[3] = expanded
    st[4] = generated
    return status


def idastar(puzzle: Puzzle, limits: Limits, heuristic: str = "manhattan",
            weight: float = 1.0) -> Solution:
    """Shortest solution by IDA* (optimal with weight 1 and an admissible heuristic).

    With ``weight > 1`` this is weighted IDA*: faster, at most ``weight`` times
    the optimal length.

    Examples
    --------
    >>> from slidelab import Puzzle
    >>> idastar(Puzzle("1 2 3/4 5 6/0 7 8"), Limits()).notation
    'L2'
    """
    if not weight >= 1:
        raise SlidelabError(f"weight must be at least 1, got {weight}")
    method = "idastar" if weight == 1 else "weighted-idastar"
    table = heuristic_table(puzzle, heuristic)
    board = puzzle.start_codes.copy()
    goal = puzzle.goal_codes
    nbr = puzzle.neighbours
    h0 = estimate(table, board)
    stats = Stats()
    bound = weight * h0
    st = np.zeros(5, np.int64)
    while True:
        size = int(bound) + 2
        path = np.zeros(size, np.int8)
        tried = np.zeros(size, np.int8)
        hs = np.zeros(size, np.int64)
        st[:3] = (0, board.tolist().index(0), h0)
        next_bound = np.array([np.inf])
        while True:
            status = _ida_run(board, nbr, table, goal, float(weight), float(bound), path, tried, hs,
                              st, next_bound, BUDGET)
            stats.expanded, stats.generated = int(st[3]), int(st[4])
            stats.stored = stats.peak_frontier = max(stats.stored, int(st[0]) + 1)
            if status == FOUND:
                stats.seconds = limits.elapsed()
                return make_solution(puzzle, path[:st[0]].tolist(), weight == 1, method, stats)
            if status == EXHAUSTED:
                break
            limits.check(stats, method, bound=bound, depth=int(st[0]))
        if not np.isfinite(next_bound[0]):
            raise AssertionError("IDA* exhausted the space without reaching the goal")
        bound = float(next_bound[0])
        limits.check(stats, method, bound=bound)
