"""Packing the breadth-first search's depths into a distance table's encoding (numba kernels).

:mod:`.distance` describes the three encodings and reads them with numpy: in STM four bits a
position when every ``(d - h) / 2`` fits (``h`` the parity-corrected Manhattan bound), else a
byte; in MTM two bits, the distance modulo 3 (:func:`pack_mod3`: a move changes a distance by
one at most, so a neighbour's distance is known from its code and the position's own).
Building one walks every index, which is done here on every core.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import prange

from .._jit import njit
from .index import MOD3_UNREACHED, UNREACHED, Space
from .index_kernels import heuristic_at, seek
from .layers import BLOCK_SHIFT, SERIAL_STATES


@njit(cache=True, inline="always")
def _pack_body(depth, nib, g, lo, hi, distinct):
    """Four-bit entries for states ``lo .. hi - 1`` (``lo`` even); returns the largest entry (99: unusable)."""
    m, w, H, radix = g.tiles, g.width, g.per_blank, g.radix
    Tab, counts, full, needpar = g.arrangements, g.label_counts, g.full, g.parity
    md, gb = g.taxicab, g.goal_blank
    s = np.empty(m, np.int64)
    L = np.zeros(m, np.int64)
    c = np.empty(counts.shape[0], np.int64)
    b = np.int64(0)
    end = np.int64(0)
    worst = 0
    for idx in range(lo, hi):
        b = seek(
            idx,
            idx - 1 if idx > lo else -1,
            b,
            end,
            s,
            L,
            c,
            m,
            H,
            distinct,
            radix,
            Tab,
            counts,
            full,
            needpar,
        )
        end = (b + 1) * H
        d = np.int64(depth[idx])
        if d == UNREACHED:
            return 99
        gap = d - heuristic_at(s, b, w, distinct, md, gb)
        if gap < 0 or (gap & 1) != 0:
            return 99
        v = gap >> 1
        if v > 15:
            return 99
        if v > worst:
            worst = v
        nib[idx >> 1] |= np.uint8(v << ((idx & 1) << 2))
    return worst


@njit(cache=True)
def _pack_distinct(depth, nib, g, lo, hi):
    return _pack_body(depth, nib, g, lo, hi, True)


@njit(cache=True)
def _pack_multiset(depth, nib, g, lo, hi):
    return _pack_body(depth, nib, g, lo, hi, False)


@njit(cache=True, parallel=True)
def _pack(depth, nib, g, chunks, step):
    """The four-bit entries of all states in parallel; chunks of ``step`` states (even)."""
    n = depth.shape[0]
    worst = np.zeros(chunks, np.int64)
    if g.distinct:
        for ch in prange(chunks):
            worst[ch] = _pack_distinct(depth, nib, g, min(n, ch * step), min(n, (ch + 1) * step))
    else:
        for ch in prange(chunks):
            worst[ch] = _pack_multiset(depth, nib, g, min(n, ch * step), min(n, (ch + 1) * step))
    return worst.max()


@njit(cache=True, parallel=True)
def _pack_mod3(depth, out):
    """Two bits a state, four states a byte (the first in the low bits): the depth modulo 3, or
    :data:`MOD3_UNREACHED`."""
    n = depth.shape[0]
    for j in prange(out.shape[0]):
        byte = 0
        for k in range(4):
            i = 4 * j + k
            if i < n:
                d = depth[i]
                code = MOD3_UNREACHED if d == UNREACHED else d % 3
                byte |= code << (2 * k)
        out[j] = byte


def pack_mod3(depth: np.ndarray) -> np.ndarray:
    """The two-bit table (distance modulo 3) of the search's byte per state."""
    out = np.empty((depth.shape[0] + 3) // 4, np.uint8)
    _pack_mod3(depth, out)
    return out


def pack_table(space: Space, depth: np.ndarray) -> np.ndarray:
    """The table's array from the search's byte per state: in STM four bits when every entry
    fits, else the bytes (four bits hold ``(d - h) / 2`` for the STM parity bound ``h``); in MTM
    two bits, the distance modulo 3 (:func:`pack_mod3`)."""
    if space.metric != "stm":
        return pack_mod3(depth)
    g = space.kernel_args()
    n = depth.shape[0]
    nib = np.zeros((n + 1) // 2, np.uint8)
    step = 1 << BLOCK_SHIFT
    chunks = max(1, -(-n // step))
    previous = numba.set_parallel_chunksize(1)
    try:
        if n < SERIAL_STATES or numba.get_num_threads() == 1:  # one thread, one kernel compiled
            worst = (_pack_distinct if space.distinct else _pack_multiset)(depth, nib, g, 0, n)
        else:
            worst = _pack(depth, nib, g, chunks, step)
    finally:
        numba.set_parallel_chunksize(previous)
    return nib if worst <= 15 else depth
