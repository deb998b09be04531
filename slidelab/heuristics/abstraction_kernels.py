"""The abstraction heuristic's kernel: a position's index in each view's table, and the largest
of the views' entries (see :mod:`slidelab.heuristics.abstraction`, which makes the arrays).

Kept apart from the tables' choice and build so that a change there recompiles no kernel
(:data:`slidelab._jit.KERNEL_SOURCES`)."""

from __future__ import annotations

import numpy as np

from .._bits import prefetch
from .._jit import njit
from .._slide import slide_back
from ..tables.index import MOD3, MOD3_UNREACHED, NIBBLE
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
def _byte_of(idx, enc):
    """The byte of the table that holds entry ``idx`` in encoding ``enc``."""
    if enc == NIBBLE:
        return idx >> 1
    if enc == MOD3:
        return idx >> 2
    return idx


@njit(cache=True, inline="always")
def _code(table, idx):
    """The two-bit entry ``idx``: its distance modulo 3, or :data:`MOD3_UNREACHED`."""
    return (np.int64(table[idx >> 2]) >> ((idx & 3) << 1)) & 3


@njit(cache=True, inline="always")
def _read(table, idx, h, enc, parent):
    """Entry ``idx``'s distance; two bits are decoded from ``parent``, the exact distance of a
    position one move away (the distances differ by one at most, so the code tells which)."""
    if enc == NIBBLE:
        return h + 2 * ((np.int64(table[idx >> 1]) >> ((idx & 1) << 2)) & 15)
    if enc == MOD3:
        r = (_code(table, idx) - parent % 3 + 3) % 3  # 0: the same, 1: one more, 2: one less
        return parent + (r if r < 2 else -1)
    return np.int64(table[idx])


@njit(cache=True, inline="always")
def abstraction_within(data, board, depth, h, tile, frm, to, enough):
    """The largest of the views' table entries, two at a time (both asked of the memory at
    once, prefetched, so that their waits overlap); stops once one is above ``enough``.

    Each view's distance is kept in row ``depth + 1`` of ``vals``, read from row ``depth``
    (the parent's) where its table is in two bits; a row is complete only when the result is
    at most ``enough`` (see :func:`~slidelab.heuristics.dispatch.heuristic_move_within`)."""
    table, views, ranking, nibble, vals = data
    count = views[0].shape[0]
    table_of = views[2]
    args = ranking[3]
    best = np.int64(0)
    for v in range(0, count, 2):
        if best > enough:
            return best
        e0 = args[table_of[v], 4]
        i0, h0 = _index(board, v, views, ranking, nibble)
        prefetch(table, _byte_of(i0, e0))
        second = v + 1 < count
        i1 = i0
        h1 = h0
        e1 = e0
        if second:
            e1 = args[table_of[v + 1], 4]
            i1, h1 = _index(board, v + 1, views, ranking, nibble)
            prefetch(table, _byte_of(i1, e1))
        x = _read(table, i0, h0, e0, vals[depth, v])
        vals[depth + 1, v] = x
        if x > best:
            best = x
        if second and best <= enough:
            x = _read(table, i1, h1, e1, vals[depth, v + 1])
            vals[depth + 1, v + 1] = x
            if x > best:
                best = x
    return best


@njit(cache=True, inline="always")
def abstraction_move(data, board, depth, h, tile, frm, to):
    return abstraction_within(data, board, depth, h, tile, frm, to, np.inf)


@njit(cache=True, inline="always")
def abstraction_step(data, board, depth, h, tile, frm, to):
    """A step inside a slide of several tiles: the views' distances carried on unread (the
    slide's last step reads them from the parent's: a slide is one move)."""
    vals = data[4]
    for v in range(vals.shape[1]):
        vals[depth + 1, v] = vals[depth, v]
    return h


@njit(cache=True)
def _walk(table, board, v, views, ranking, nibble, nbr, reach):
    """View ``v``'s distance of ``board`` (changed: left at the view's goal) in a two-bit table:
    slides downhill, to a neighbour whose code is one less modulo 3, until none is (the goal)."""
    n = board.shape[0]
    blank = 0
    for c in range(n):
        if board[c] == 0:
            blank = c
    i, _ = _index(board, v, views, ranking, nibble)
    code = _code(table, i)
    if code == MOD3_UNREACHED:
        return -1
    steps = 0
    while steps < 1000:  # a table's distances are below 255
        want = (code + 2) % 3
        found = False
        for d in range(4):
            cur = blank
            for _ in range(reach):
                nb = nbr[cur, d]
                if nb < 0:
                    break
                board[cur] = board[nb]
                board[nb] = 0
                cur = nb
                i, _ = _index(board, v, views, ranking, nibble)
                if _code(table, i) == want:
                    found = True
                    break
            if found:
                blank = cur
                break
            slide_back(board, nbr, cur, blank, d)
        if not found:
            return steps
        code = want
        steps += 1
    return -1


@njit(cache=True)
def root_values(data, board, nbr, reach):
    """Row 0 of the views' distances for ``board`` (two-bit tables walked to their goal), and
    the largest."""
    table, views, ranking, nibble, vals = data
    table_of = views[2]
    args = ranking[3]
    best = np.int64(0)
    for v in range(views[0].shape[0]):
        enc = args[table_of[v], 4]
        if enc == MOD3:
            x = np.int64(_walk(table, board.copy(), v, views, ranking, nibble, nbr, reach))
        else:
            i, hv = _index(board, v, views, ranking, nibble)
            x = _read(table, i, hv, enc, 0)
        vals[0, v] = x
        if x > best:
            best = x
    return best


register(5, abstraction_move, abstraction_within, step=abstraction_step)
