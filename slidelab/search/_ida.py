"""IDA*'s compiled kernel: one slice of a bounded depth-first search.

:func:`_ida_body` makes and unmakes moves on one small integer board, never
moves the blank straight back nor on a path the automaton of duplicate paths
refuses (:mod:`slidelab.search.move_pruning`), and has the heuristic update its
estimate per move (:mod:`slidelab.heuristics.base`).  It keeps its own explicit stack, so it
runs in slices of a node budget and resumes where it stopped (the driver,
:mod:`slidelab.search.idastar`, checks limits between slices).

The kernels are compiled without numba's reference counting (``_nrt=False``):
they allocate nothing, and every array they touch is owned by the caller for the
whole call.  With it, each use of an array taken out of the heuristic's data tuple
(a pattern database's tables, its rows) was an atomic increment and decrement of
the array's count: five times the time of the search itself on the 15-puzzle's
pattern databases (4 million nodes a second against 22 million, measured on one
core).
"""

from __future__ import annotations

import numpy as np

from .._jit import njit
from .._slide import slide_back
from ..heuristics.dispatch import heuristic_move_within, heuristic_step

RUNNING, FOUND, EXHAUSTED = 0, 1, 2


@njit(cache=True, inline="always")
def _ida_body(
    board,
    nbr,
    goal,
    weight,
    bound,
    path,
    amount,
    steps,
    tried,
    hs,
    st,
    next_bound,
    budget,
    hdata,
    came,
    fsm,
    fs,
    reach,
    divisor,
):
    """Run one slice of a bounded depth-first search.

    ``st`` holds ``[depth, blank, h, expanded, generated]`` and is updated in
    place, as are ``board``, ``path`` and ``amount`` (blank direction and tiles
    slid at each depth), ``steps`` (single-tile moves on the path to each depth:
    the heuristic's row), ``tried`` (next move to try at each depth: direction
    times ``reach`` plus amount less one) and ``hs`` (the heuristic's value at
    each depth; the estimate is its ceiling quotient by ``divisor``).  A move
    slides 1 .. ``reach`` tiles (1: STM; more: MTM).  ``next_bound[0]`` collects
    the smallest ``f`` over the bound.  Returns RUNNING (budget spent), FOUND
    (``path[:depth]`` solves) or EXHAUSTED (no more solutions within ``bound``).
    ``came``: the direction of the move into the root (never undone from it), or -1.
    ``fsm``: the automaton of the paths refused as duplicates, a column per move as ``tried``
    numbers them (:func:`slidelab.search.move_pruning.automaton`; a move into -1 is not made),
    ``fs`` its state at each depth (``fs[0]`` the root's).
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
    last = 4 * reach
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
        m = tried[depth]
        if m == last:
            if depth == 0:
                status = 2
                break
            depth -= 1
            back = path[depth] ^ 1
            for _ in range(1 if reach == 1 else amount[depth]):
                prev = nbr[blank, back]
                board[blank] = board[prev]
                board[prev] = 0
                blank = prev
            h = hs[depth]
            continue
        d = m // reach
        k = m - d * reach + 1
        tried[depth] = m + 1
        before = path[depth - 1] if depth > 0 else came  # -1 at the root: d never equals it
        # never straight back; in MTM not on along the same line either (one longer slide)
        if d == (before ^ 1) or (reach > 1 and d == before):
            tried[depth] = (d + 1) * reach
            continue
        nfs = fsm[fs[depth], m]
        if nfs < 0:  # the path would end in a duplicate of a smaller one
            continue
        if reach == 1:  # one tile (compiled apart: the 15-puzzle's path, kept short)
            nb = nbr[blank, d]
            if nb < 0:
                continue
            t = board[nb]
            board[blank] = t
            board[nb] = 0
            # a child whose estimate puts f over the limit is pruned: its exact h is not needed
            nh = heuristic_move_within(
                hdata, board, depth, h, t, nb, blank, (limit - depth - 1) / weight
            )
            cur = nb
        else:
            row = steps[depth]  # the heuristic's row: single-tile steps so far
            cur = blank
            nh = h
            done = 0
            for j in range(k):
                nb = nbr[cur, d]
                if nb < 0:
                    break
                done += 1
                t = board[nb]
                board[cur] = t
                board[nb] = 0
                if j == k - 1:
                    enough = divisor * np.floor((limit - depth - 1) / weight)
                    nh = heuristic_move_within(hdata, board, row + j, nh, t, nb, cur, enough)
                else:
                    nh = heuristic_step(hdata, board, row + j, nh, t, nb, cur)
                cur = nb
            if done < k:  # the line ends before k tiles: no longer slide this way either
                slide_back(board, nbr, cur, blank, d)
                tried[depth] = (d + 1) * reach
                continue
        generated += 1
        work += 1
        est = nh if divisor == 1 else (nh + divisor - 1) // divisor
        f = (depth + 1) + weight * est
        if f > limit:
            if reach == 1:
                board[cur] = board[blank]
                board[blank] = 0
            else:
                slide_back(board, nbr, cur, blank, d)
            if f < next_bound[0]:
                next_bound[0] = f
            continue
        path[depth] = d
        hs[depth] = h
        fs[depth + 1] = nfs
        if reach > 1:
            amount[depth] = k
            steps[depth + 1] = steps[depth] + k
        depth += 1
        blank = cur
        h = nh
        tried[depth] = 0
    st[0] = depth
    st[1] = blank
    st[2] = h
    st[3] = expanded
    st[4] = generated
    return status


@njit(cache=True, nogil=True, _nrt=False)  # long runs: other threads (a Dask worker's) go on
def _ida_stm(
    board, nbr, goal, weight, bound, path, amount, steps, tried, hs, st, nb, budget, hd, came,
    fsm, fs,
):  # fmt: skip
    """:func:`_ida_body` with single-tile moves and an undivided estimate: the constants fold
    the amount loop and the division away (the 15-puzzle's fast path)."""
    return _ida_body(
        board, nbr, goal, weight, bound, path, amount, steps, tried, hs, st, nb, budget, hd, came,
        fsm, fs, 1, 1,
    )  # fmt: skip


@njit(cache=True, nogil=True, _nrt=False)
def _ida_lines(
    board, nbr, goal, weight, bound, path, amount, steps, tried, hs, st, nb, budget, hd, came,
    fsm, fs, reach, divisor,
):  # fmt: skip
    """:func:`_ida_body` with slides of up to ``reach`` tiles (MTM) and the estimate divided."""
    return _ida_body(
        board, nbr, goal, weight, bound, path, amount, steps, tried, hs, st, nb, budget, hd, came,
        fsm, fs, reach, divisor,
    )  # fmt: skip


def ida_run(*args, reach: int = 1, divisor: int = 1):
    """One slice of the search (see :func:`_ida_body`): the STM kernel where it applies."""
    if reach == 1 and divisor == 1:
        return _ida_stm(*args)
    return _ida_lines(*args, reach, divisor)
