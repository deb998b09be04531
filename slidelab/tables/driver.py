"""Breadth-first search by layers in two bits per state: the driver of the full-space analysis
and the distance tables.

The whole-space searches keep a two-bit code per state (or per slot of a state) in arrays of
words, and nothing else:

====  ==========================================================
0     not reached
1, 2  reached at an even / odd depth (the open layers)
3     closed (reached two or more layers ago), or no state (padding)
====  ==========================================================

The layer of depth ``d`` holds code ``1 + d % 2`` and the next one is written
with the other open code; before a layer is expanded, the layer before it is
closed, so the two open codes name exactly the current and the next layer.  The
words are grouped in *blocks*, and a byte per block marks the blocks holding a
layer, so small layers skip the rest.

A layer is expanded in one of two ways (the direction switch of Beamer et al.'s
breadth-first search): **push** while the layer is small, every state of it
claiming its unreached neighbours; **pull** once it outweighs what is left
unreached, every unreached state looking for a neighbour in the layer and
stopping at the first.  :func:`breadth_first` runs the layers and makes that
choice; the caller's kernels walk its states (``slidelab.tables.layers``:
indices of whole positions; the pattern-database builder,
``slidelab.tables.pdb.distinct``, keeps the same four codes in rows of its own
and pulls every layer).  :func:`close_layer` and :func:`close_range` close a
layer, and :func:`spread_block` is the order in which parallel kernels hand
out blocks.

Examples
--------
A path of five states, ``0 - 1 - 2 - 3 - 4``, one state a block, searched from 0:

>>> import numpy as np
>>> codes = np.zeros(5, np.int64); codes[0] = 1
>>> def expand(d, pull, size, cur, nxt, done):
...     new = 0
...     for s in range(5):
...         if codes[s] == 1 + d % 2:
...             for t in (s - 1, s + 1):
...                 if 0 <= t < 5 and codes[t] == 0:
...                     codes[t] = 2 - d % 2; nxt[t] = 1; new += 1
...     return new, new
>>> def close(flags, code, size):
...     close_range(codes, flags, 1, code, 1, 0, flags.shape[0])
>>> seen = []
>>> d, flags = breadth_first(5, 0, expand, close, unseen=4, pull_ratio=1.0,
...                          on_layer=lambda depth, pull, found, seconds: seen.append(found[0]))
>>> d, flags.tolist(), seen
(4, [0, 0, 0, 0, 1], [1, 1, 1, 1, 0])
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from numba import prange

from .._bits import with_code
from .._jit import njit

__all__ = ["SPREAD", "breadth_first", "close_layer", "close_range", "spread_block", "spread_per"]

#: ranges of blocks per chunk: a parallel kernel's chunk ``ch`` walks ranges ``ch, ch + chunks,
#: ...`` of ``spread_per`` blocks each, so the threads share out the open blocks evenly even where
#: they crowd into part of the index range, and each range is still walked in order
SPREAD = 16


@njit(cache=True, inline="always")
def spread_per(nblocks, chunks):
    """Blocks a range, when ``nblocks`` blocks are handed out in ``chunks`` chunks (see :data:`SPREAD`)."""
    return (nblocks + chunks * SPREAD - 1) // (chunks * SPREAD)


@njit(cache=True, inline="always")
def spread_block(ch, i, per, chunks):
    """The ``i``-th block (``0 <= i < per * SPREAD``) of chunk ``ch``; may be past the last block."""
    return (ch + (i // per) * chunks) * per + i % per


@njit(cache=True, nogil=True)
def close_range(words, flags, per_block, code, low, lo, hi):
    """Every slot holding ``code`` in the flagged blocks ``lo .. hi - 1`` becomes closed (3).

    A block is ``per_block`` words (the last one may be shorter); ``low`` has
    bit ``2 s`` set for each slot ``s`` a word holds.
    """
    nwords = words.shape[0]
    for blk in range(lo, hi):
        if flags[blk] == 0:
            continue
        for wi in range(blk * per_block, min(nwords, (blk + 1) * per_block)):
            x = np.int64(words[wi])
            m = with_code(x, code, low)
            if m != 0:
                words[wi] = x | (m * 3)
    return 0


@njit(cache=True, parallel=True, nogil=True)
def close_layer(words, flags, per_block, code, low, chunks):
    """:func:`close_range` over all blocks, on every core."""
    nblocks = flags.shape[0]
    per = spread_per(nblocks, chunks)
    for ch in prange(chunks):
        for i in range(per * SPREAD):
            blk = spread_block(ch, i, per, chunks)
            if blk < nblocks and flags[blk] != 0:
                close_range(words, flags, per_block, code, low, blk, blk + 1)


def breadth_first(
    nblocks: int,
    start_block: int,
    expand: Callable,
    close: Callable,
    *,
    unseen: int,
    pull_ratio: float,
    on_layer: Callable,
    min_pull: int = 0,
):
    """Expand layers from the start (depth 0, in block ``start_block``) until one comes out empty.

    Parameters
    ----------
    nblocks : int
        Blocks of the code array (one flag byte each).
    expand : callable
        ``expand(d, pull, size, flags_cur, flags_next, done)`` writes layer
        ``d + 1`` from layer ``d`` (of ``size``, in the caller's unit), pushing
        from the blocks flagged in ``flags_cur`` or pulling into the blocks not
        marked ``done``, flags the blocks it writes in ``flags_next`` and may
        mark blocks with nothing left unreached in ``done``.  Returns a tuple
        whose first two items are how many entries it reached (0 ends the
        search) and the new layer's size.
    close : callable
        ``close(flags, code, size)``: close the layer of ``code`` in the flagged blocks.
    unseen : int
        Size (the unit of ``expand``'s sizes) of what is unreached at the start.
    pull_ratio : float
        A layer is pulled when its size is over ``pull_ratio`` times what is unreached.
    min_pull : int
        ... and at least ``min_pull`` (a pull looks at every block not yet done, so a
        small layer is pushed even when less is left unreached).
    on_layer : callable
        ``on_layer(depth, pull, result, seconds)`` after each layer, the last
        (empty) one too; ``result`` is what ``expand`` returned.  May raise to stop.

    Returns
    -------
    (d, flags)
        The depth of the last layer that is not empty, and the flags of its blocks.
    """
    flags_prev = np.zeros(nblocks, np.uint8)  # the layer before (cleared, then the next layer)
    flags_cur = np.zeros(nblocks, np.uint8)  # the open layer
    flags_cur[start_block] = 1
    done = np.zeros(nblocks, np.uint8)  # blocks with nothing unreached (for pulling)
    size, prev_size = 1, 0
    d = 0
    while True:
        t0 = time.perf_counter()
        if d > 0:
            close(flags_prev, 1 + ((d - 1) & 1), prev_size)
        flags_prev[:] = 0
        pull = size > pull_ratio * unseen and size >= min_pull
        result = expand(d, pull, size, flags_cur, flags_prev, done)
        found, new_size = int(result[0]), int(result[1])
        flags_prev, flags_cur = flags_cur, flags_prev  # the next layer is now the open one
        on_layer(d + 1, pull, result, time.perf_counter() - t0)
        if found == 0:
            return d, flags_prev
        unseen -= new_size
        prev_size, size = size, new_size
        d += 1
