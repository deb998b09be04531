"""Complete breadth-first search of a puzzle's space in the multi-tile metric (MTM).

In MTM a slide of several tiles in one row or column is one move, so a
position's neighbours are every slide of ``1 .. reach`` tiles towards the blank
(:func:`slidelab.moves.reach`).  The search numbers positions as the STM one
does (:mod:`.index`: ``index = blank_cell * H + rank``) and keeps a byte per
position, its depth (255 while unreached), which is both the visited mark and,
once the search ends, the distance table (MTM distances have no parity to
pack them into four bits, so MTM tables are bytes).

A sideways slide keeps the tile sequence, so its index is the blank's new cell
and the same rank; a vertical slide of ``k`` tiles moves each of them past the
``w - 1`` tiles between its cell and the next (the sequence is rotated on ``k``
segments) and the rank is taken again.  Each layer is a list of indices
expanded in chunks by :func:`_expand_chunk`; one thread (the MTM analyses that
fit a machine, up to a few hundred million positions such as the line puzzle's,
take seconds to minutes).

Examples
--------
>>> from slidelab import Board
>>> from .index import Space
>>> counts, last, seconds, depth = search_layers_mtm(Space(Board("1 2 3/4 5 6/7 8 0"), "mtm"))
>>> len(counts) - 1, sum(counts), len(last)
(24, 181440, 1)
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from .._jit import njit
from ..errors import SlidelabError
from .index import UNREACHED, Space
from .index_kernels import _load

#: frontier positions expanded per kernel call (the new positions' buffer holds ``4 * reach`` each)
CHUNK = 1 << 18


@njit(cache=True, inline="always")
def _rank_at(s, b, m, H, distinct, radix, S, full):
    """Index of (tile sequence ``s``, blank cell ``b``), a reachable position."""
    code = full
    t = 0
    for k in range(m):
        v = s[k]
        t += S[code, v]
        code -= radix[v]
    if distinct:
        return b * H + (t >> 1)
    return b * H + t


@njit(cache=True, nogil=True)
def _expand_chunk(frontier, lo, hi, depth, d, g, reach, out):
    """Claim the unreached MTM neighbours of ``frontier[lo:hi]`` (depth ``d``) at depth ``d + 1``;
    write them to ``out`` and return how many."""
    m, w, H, distinct, nbr = g[1], g[2], g[3], g[4], g[5]
    radix, S, counts, full = g[7], g[8], g[10], g[11]
    s = np.empty(m, np.int64)
    L = np.zeros(m, np.int64)
    c = np.empty(counts.shape[0], np.int64)
    s2 = np.empty(m, np.int64)
    n_out = 0
    for i in range(lo, hi):
        idx = frontier[i]
        b = _load(idx, s, L, c, g)
        rest = idx - b * H
        for dd in range(4):
            cur = b
            if dd < 2:
                for q in range(m):
                    s2[q] = s[q]
            for _ in range(reach):
                nb = nbr[cur, dd]
                if nb < 0:
                    break
                if dd >= 2:  # sideways: the sequence stays
                    j = nb * H + rest
                else:
                    if dd == 1:  # blank down: the tile below goes back past w - 1 tiles
                        last = s2[cur + w - 1]
                        for q in range(cur + w - 1, cur, -1):
                            s2[q] = s2[q - 1]
                        s2[cur] = last
                    else:  # blank up: the tile above goes on past them
                        first = s2[cur - w]
                        for q in range(cur - w, cur - 1):
                            s2[q] = s2[q + 1]
                        s2[cur - 1] = first
                    j = _rank_at(s2, nb, m, H, distinct, radix, S, full)
                cur = nb
                if depth[j] == 255:
                    depth[j] = d + 1
                    out[n_out] = j
                    n_out += 1
    return n_out


def search_layers_mtm(
    space: Space,
    progress: Callable[[dict], None] | None = None,
    record: bool = True,
    limit: int = 1000,
):
    """Breadth-first search from the goal over every position of ``space`` in MTM.

    Takes what :func:`.layers.search_layers` takes (which calls it for a space
    whose metric is ``mtm``, and wraps the result); returns ``(counts, last,
    seconds, depth)``: the positions at each distance, the indices of the last
    layer (ascending, at most ``limit``), and the byte per position when
    ``record`` is set (it is always kept: it marks the visited positions).
    """
    began = time.perf_counter()
    g = space.kernel_args()
    N = space.states
    reach = space.reach
    depth = np.full(N, UNREACHED, np.uint8)
    goal = space.index(space.goal)
    depth[goal] = 0
    layer = np.array([goal], np.int64)
    counts = [1]
    reached = 1
    out = np.empty(4 * reach * min(CHUNK, N), np.int64)
    while True:
        d = len(counts) - 1
        if d + 1 >= UNREACHED:
            raise SlidelabError(
                "distances past 254 do not fit a distance table; analyze a smaller board"
            )
        pieces = []
        for lo in range(0, len(layer), CHUNK):
            hi = min(len(layer), lo + CHUNK)
            k = _expand_chunk(layer, lo, hi, depth, d, g, reach, out)
            pieces.append(out[:k].copy())
        new = np.concatenate(pieces) if pieces else np.empty(0, np.int64)
        if len(new) == 0:
            break
        counts.append(len(new))
        reached += len(new)
        layer = new
        if progress is not None:
            elapsed = time.perf_counter() - began
            progress(
                {
                    "depth": d,
                    "layer": len(new),
                    "states": reached,
                    "total": N,
                    "fraction": min(1.0, reached / N),
                    "seconds": elapsed,
                    "rate": reached / elapsed if elapsed > 0 else 0.0,
                }
            )
    last = np.sort(layer)[: max(0, min(limit, len(layer)))]
    return counts, last, time.perf_counter() - began, depth if record else None
