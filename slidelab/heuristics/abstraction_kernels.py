"""The abstraction heuristic's kernel: a position's index in each view's table, and the largest
of the views' entries (see :mod:`slidelab.heuristics.abstraction`, which makes the arrays).

Kept apart from the tables' choice and build so that a change there recompiles no kernel
(:data:`slidelab._jit.KERNEL_SOURCES`)."""

from __future__ import annotations

import numpy as np

from .._bits import prefetch
from .._jit import njit
from .dispatch import register


@njit(cache=True, inline="always")
def _index(board, v, views, ranking, want_md):
    """Index of view ``v`` of ``board`` in its table (the table's offset added), and, with
    ``want_md``, the view's Manhattan bound with the distance's parity (the four-bit encoding's
    base: :func:`slidelab.tables.index_kernels.heuristic_at`).

    A view is a relabelling (``r``: its space's ranking arrays, one row of each of
    ``ranking``) seen through one of the board's images (``views``: the cells in the image's
    order, and each label's class there)."""
    src, classes, table_of = views
    radix, smaller, md, args = ranking
    r = table_of[v]
    H, full, width, goal_blank = args[r, 0], args[r, 1], args[r, 2], args[r, 3]
    n = src.shape[1]
    code = full
    t = 0
    b = 0
    h = 0
    cells = src[v]
    labels = classes[v]
    sm = smaller[r]
    rx = radix[r]
    mr = md[r]
    for c in range(n):  # one loop for both: want_md is the same on every cell (no slower)
        x = labels[board[cells[c]]]
        if x < 0:
            b = c
            continue
        t += sm[code, x]
        code -= rx[x]
        if want_md:
            h += mr[x, c]
    if want_md:
        bd = abs(b // width - goal_blank // width) + abs(b % width - goal_blank % width)
        if (h - bd) & 1:
            h -= 1
    if args[r, 5]:  # distinct tiles: the rank is halved (:mod:`slidelab.tables.index`)
        t >>= 1
    return args[r, 6] + b * H + t, h


@njit(cache=True, inline="always")
def _read(table, idx, h, nibble):
    if nibble:
        return h + 2 * ((np.int64(table[idx >> 1]) >> ((idx & 1) << 2)) & 15)
    return np.int64(table[idx])


@njit(cache=True, inline="always")
def abstraction_within(data, board, depth, h, tile, frm, to, enough):
    """The largest of the views' table entries, two at a time (both asked of the memory at
    once, prefetched, so that their waits overlap); stops once one is above ``enough``."""
    table, views, ranking, nibble = data
    count = views[0].shape[0]
    best = np.int64(0)
    for v in range(0, count, 2):
        if best > enough:
            return best
        i0, h0 = _index(board, v, views, ranking, nibble)
        prefetch(table, i0 >> 1 if nibble else i0)
        second = v + 1 < count
        i1 = i0
        h1 = h0
        if second:
            i1, h1 = _index(board, v + 1, views, ranking, nibble)
            prefetch(table, i1 >> 1 if nibble else i1)
        x = _read(table, i0, h0, nibble)
        if x > best:
            best = x
        if second and best <= enough:
            x = _read(table, i1, h1, nibble)
            if x > best:
                best = x
    return best


@njit(cache=True, inline="always")
def abstraction_move(data, board, depth, h, tile, frm, to):
    return abstraction_within(data, board, depth, h, tile, frm, to, np.inf)


register(4, abstraction_move, abstraction_within, of_board=True)
