"""Complete breadth-first search of a puzzle's space in two bits per state, on every core.

States are the indices of :mod:`.index`.  Each has a two-bit code in an array
of ``int64`` words (32 states a word):

====  ==========================================================
0     not reached
1, 2  reached at an even / odd depth (the open layers)
3     closed (reached two or more layers ago), or no state (padding)
====  ==========================================================

The search is layer-synchronous, run by the driver it shares with the
pattern-database builds (:func:`slidelab.tables.driver.breadth_first`, which also
closes the layers); the layer of depth ``d`` holds code ``1 + d % 2`` and the
next one is written with the other open code.  Nothing else is stored: the
frontier is implicit in the codes, and a byte per *block* of 1,024 states marks
the blocks that hold the current layer, so small layers skip the rest.

Two ways to go one layer deeper (the direction switch of Beamer et al.):

- **push**, until the layer outnumbers the states still unreached
  (:data:`PULL_RATIO`): every state of the layer generates its
  neighbours (a horizontal move keeps the index's rank part, a vertical one
  changes a few digits: :func:`.index_kernels.neighbour`); an unreached one is
  claimed with an atomic OR, which also tells which thread was first, so each
  state is counted once;
- **pull**, from then on, while the layer holds at least a thousandth of the
  states: every unreached state looks for a neighbour in the layer and stops
  at the first.  Each thread writes only its own words: no atomics.  (A pull
  reads every block not yet done, so the last, small layers are pushed.)

A layer's moves are made by two kernels, each pushing or pulling:

- **sideways moves, 32 states a word operation** (:func:`_sweep`): a sideways
  move keeps the rank part of the index, so where a blank cell's indices fill
  whole words, slot ``s`` of word ``k`` of one cell and of the cells up to
  ``reach`` sideways are neighbours, and an unreached word next to the layer's
  words is reached by masks (pushing and pulling alike);
- **a walk over the states** (:func:`_walk`) makes the other moves: by *suffix
  blocks* where the tiles are distinct and at least :data:`.index.SUFFIX` (the
  ``8!/2`` indices of a blank cell that share all but their last eight tiles
  are placed once, and each state's last tiles and their rank digits are read
  from tables by its offset in the block), else state by state, moving the
  tiles on from the last state (:func:`.index_kernels.seek`: a few digits of
  the rank change) instead of unranking each one.

**Both metrics.**  In MTM a move slides up to ``reach`` tiles in a line
(:attr:`.index.Space.reach`): the sweep looks ``reach`` cells sideways, and a
vertical slide's rank changes tile after tile, each by the digits of the
places that tile rotates (:func:`.index_kernels.vertical_delta`), so an MTM
search costs about twice an STM one, in the same two bits, on every core.

With a ``depth`` array (the distance table), each new state's depth is written
too.  On the 7x2 board (43.6 billion states) the sweep and the suffix blocks
made the search about four times faster than stepping through every move;
:func:`.stats.analyze` also searches a board wider than tall on its side, where
a vertical move reorders fewer tiles.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numba
import numpy as np
from numba import prange

from .._bits import atomic_or, lowest_bit, popcount, with_code
from .._jit import njit
from ..errors import SlidelabError
from .budget import SERIAL_STATES, kernels, serial_space, walk_kind
from .driver import breadth_first, close_layer, close_range
from .index import SUFFIX, UNREACHED, Space, suffix_tables
from .index_kernels import seek, suffix_block, tile_rank, vertical_delta

#: states per flag block (a power of two, a multiple of 32)
BLOCK_SHIFT = 10
WORDS_PER_BLOCK = (1 << BLOCK_SHIFT) >> 5
#: a layer is pulled when it holds more than this fraction of the unreached states (a pushed
#: state and a pulled one cost about the same: both look at their three or so neighbours)
PULL_RATIO = 1.0
#: the same in MTM, where a state has about twice the neighbours, so an unreached one finds the
#: layer sooner (the line puzzle: 126 s wall pushing past half, 52 s at 0.5, 127 s at 0.15)
PULL_RATIO_MTM = 0.5
#: chunks of blocks handed to the threads (dynamic scheduling)
CHUNKS = 256
#: layers smaller than this are expanded and closed by one thread
SERIAL_LAYER = 1 << 15
#: walk suffix blocks where the tiles are distinct and many enough (False: the older walk, which
#: steps from state to state; the tests compare the two)
BLOCK_WALK = True
#: bit 2 s set for each of the 32 slots of a word
LOW = 0x5555555555555555


@njit(cache=True, inline="always")
def _with_code(x, code):
    """Mask with bit ``2 s`` set for each slot ``s`` of word ``x`` that holds ``code``."""
    return with_code(x, code, np.int64(LOW))


@njit(cache=True, inline="always")
def _fill_suffix(s, L, T, perm, leh, rho, top, first, last):
    """Places ``first .. last`` (all at or past ``top``) of the state whose last tiles are
    arrangement ``rho`` of ``T``."""
    for p in range(first, last + 1):
        s[p] = T[perm[rho, p - top]]
        L[p] = leh[rho, p - top]


@njit(cache=True, inline="always")
def _window(b, w, n, top):
    """The places of a tile sequence that the vertical moves from blank cell ``b`` rotate, from
    ``top`` on: ``(first, last)``."""
    first = b - w if b >= w else b  # an upward move's window starts a row before the blank
    last = b + w - 1 if b + w < n else b - 1
    return max(first, top), last


@njit(cache=True, inline="always")
def _block_start(b, a, g, perm, s, L, T):
    """Place suffix block ``a`` of blank cell ``b`` (the ranks from ``a * K!``): its first tiles
    (``s``, ``L``) and its last tiles (``T``); returns ``(the parity the last tiles' digits
    need, first, last)``, the last two the places of the vertical moves' windows that the
    tables fill (:func:`_window`).

    ``perm`` is the first of :func:`.index.suffix_tables` (``suffix`` in the block kernels).
    """
    m, w, n, needpar = g.tiles, g.width, g.cells, g.parity
    K = perm.shape[1]
    want = needpar[b] ^ suffix_block(a, s, L, T, m, K)
    first, last = _window(b, w, n, m - K)
    return want, first, last


@njit(cache=True, inline="always")
def _walk(a, directions, reach, distinct, by_suffix, pull, outside):
    """Layer ``d`` over units ``lo .. hi - 1`` of the words; returns ``(how many states it
    reached, how many neighbours it found outside the words)``.

    ``a`` is ``(words, depth, record, d, marks, flags_next, g, suffix, lo, hi, window, out)``.

    Push: the states of the layer (in the flag blocks ``marks`` flags) claim
    their unreached neighbours.  Pull: the unreached states (in the flag blocks
    ``marks`` does not mark done) look for a neighbour in the layer; each thread
    writes only its own words, and a flag block wholly within a unit with
    nothing left unreached is marked done.

    A unit is a flag block, walked state by state: the tiles are moved on from
    the state before (:func:`.index_kernels.seek`).  Or, ``by_suffix`` (distinct
    tiles, STM, the vertical moves only), a *suffix block*: the ``K!/2``
    consecutive indices of one blank cell whose tiles differ only in the last
    ``K`` places (:data:`.index.SUFFIX`); its first places are set once
    (:func:`_block_start`), and a state's last places come from tables
    (``suffix``) by its offset in the block, with no stepping.

    ``window`` is ``(r0, S, Hp)``: the words hold the ranks ``r0 .. r0 + Hp - 1`` of every blank
    cell, ``S`` slots a cell (``(0, H, H)``: the whole space; ``S >= Hp``, the slots past
    ``Hp`` closed).  ``outside`` (a constant) says what becomes of a neighbour of another rank:
    0, none can be (the whole space); 1, a *partition* (:mod:`.partition`): its index goes to
    ``out`` (a pull skips it), the others are claimed; 2, only those go to ``out`` (a pulled
    layer's moves into other partitions).  ``out`` is sized by the caller for every neighbour
    the units can have outside; the count returned says if it was not.

    Compiled once for each kind of walk over the whole space and way (:func:`_walk_of`, the
    six kernels after :data:`CROSSING`), for both metrics; a partition's walks once more
    (:func:`_walk_part_kind`).
    """
    words, depth, record, d, marks, flags_next, g, suffix, lo, hi, window, out = a
    m, width, per_blank, nbr = g.tiles, g.width, g.per_blank, g.neighbours
    F, radix, S = g.factorials, g.radix, g.smaller
    Tab, counts, full, needpar = g.arrangements, g.label_counts, g.full, g.parity
    r0, stride, ranks = window
    perm, leh, par = suffix
    K = perm.shape[1]
    unit = (perm.shape[0] >> 6) if by_suffix else WORDS_PER_BLOCK  # K!/2 states, 32 a word
    half = max(1, perm.shape[0] >> 1)  # states a suffix block (a stand-in's 1: not by blocks)
    per_cell = ranks // half  # suffix blocks a blank cell
    block0 = r0 // half  # the suffix block of rank r0
    cur = 1 + (d & 1)
    nxt = np.int64(3 - cur)
    wanted = 0 if pull else cur  # the states walked: the unreached ones, or the layer's
    nwords = words.shape[0]
    capacity = out.shape[0]
    tiles = np.empty(m, np.int64)
    lehmer = np.zeros(m, np.int64)
    last_tiles = np.empty(K, np.int64)
    scratch = np.empty(counts.shape[0], np.int64)
    cursor = np.int64(-1)
    blank = np.int64(0)
    base = np.int64(0)
    end = np.int64(0)
    shift_in = np.int64(0)
    want = 0
    first = 0
    last = 0
    k = 0
    sent = 0
    for u in range(lo, hi):
        w0 = u * unit
        w1 = min(nwords, w0 + unit)
        open_ = False
        for fb in range(w0 >> 5, ((w1 - 1) >> 5) + 1):
            if (marks[fb] != 0) != pull:  # pull: a block not done; push: one in the layer
                open_ = True
                break
        if not open_:
            continue
        if by_suffix:
            blank = u // per_cell
            want, first, last = _block_start(
                blank, block0 + u - blank * per_cell, g, perm, tiles, lehmer, last_tiles
            )
            base = blank * stride - r0  # the slot of the cell's rank 0
        left = False
        for wi in range(w0, w1):
            x = words[wi]
            targets = _with_code(x, wanted)
            if targets == 0:
                continue
            if outside != 0 and not by_suffix:  # from a slot to its index in the whole space
                shift_in = ((np.int64(wi) * 32) // stride) * (per_blank - stride) + r0
            y = x
            while targets != 0:
                slot = lowest_bit(targets) >> 1
                targets &= targets - 1
                idx = np.int64(wi) * 32 + slot
                if by_suffix:
                    rho = 2 * ((wi - w0) * 32 + slot)
                    if par[rho] != want:
                        rho += 1
                    _fill_suffix(tiles, lehmer, last_tiles, perm, leh, rho, m - K, first, last)
                    r = idx - base
                    rank = 2 * r + (rho & 1)
                else:
                    at = idx + shift_in
                    blank = seek(
                        at, cursor, blank, end, tiles, lehmer, scratch, m, per_blank, distinct,
                        radix, Tab, counts, full, needpar,
                    )  # fmt: skip
                    end = blank * per_blank + per_blank
                    cursor = at
                    r = at - blank * per_blank
                    rank = tile_rank(at, blank * per_blank, lehmer, m, distinct)
                # the state's moves, written out: as helper functions taking the arrays, the
                # walk took the 6x2's search from 7 s to 26 s (reference counts of the arrays)
                found = 0
                for e in range(directions):
                    direction = directions - 1 - e  # sideways first: no ranking
                    cell = blank
                    moved = rank
                    for _ in range(reach):  # a slide of 1 .. reach tiles
                        to = nbr[cell, direction]
                        if to < 0:
                            break
                        if direction >= 2:  # sideways: the tile sequence stays
                            jr = r
                        else:  # the rank changes tile after tile of the slide
                            moved += vertical_delta(
                                tiles, lehmer, cell, direction, width, m, distinct, F, radix, S
                            )
                            jr = (moved >> 1) if distinct else moved
                        cell = to
                        if outside == 0:
                            j = to * per_blank + jr
                        elif jr < r0 or jr >= r0 + ranks:  # another partition's state
                            if not pull:
                                if sent < capacity:
                                    out[sent] = to * per_blank + jr
                                sent += 1
                            continue
                        elif outside == 2:
                            continue
                        else:
                            j = to * stride + (jr - r0)
                        word = j >> 5
                        shift = (j & 31) << 1
                        code = (words[word] >> shift) & 3
                        if pull:
                            if code == cur:
                                found = 1
                                break
                        elif code == 0:
                            # claimed with an atomic OR: the old value says who was first
                            old = atomic_or(words, word, nxt << shift)
                            if (old >> shift) & 3 == 0:
                                found += 1
                                flags_next[j >> BLOCK_SHIFT] = 1
                                if record:
                                    depth[j] = d + 1
                    if pull and found:
                        break
                k += found
                if pull and found:
                    y |= nxt << (slot << 1)
                    if record:
                        depth[idx] = d + 1
                elif pull:
                    left = True
            if y != x:
                words[wi] = y
                flags_next[wi >> 5] = 1
        if pull and not left:  # the flag blocks wholly within this unit
            for fb in range((w0 + WORDS_PER_BLOCK - 1) >> 5, -(-w1 // WORDS_PER_BLOCK)):
                if (fb + 1) * WORDS_PER_BLOCK <= w1 or w1 == nwords:
                    marks[fb] = 1
    return k, sent


#: no partition: the words hold the whole space (:func:`_walk`'s ``outside``)
WHOLE = 0
#: a partition's words: neighbours in other partitions are listed, the others claimed
PARTITION = 1
#: a partition's words: only the neighbours in other partitions are listed (a pulled layer)
CROSSING = 2


@njit(cache=True, inline="always")
def _whole(words, depth, record, d, marks, flags_next, g, suffix, lo, hi):
    """:func:`_walk`'s first argument for a walk over the whole space (nothing is outside)."""
    window = (np.int64(0), g.per_blank, g.per_blank)
    return (words, depth, record, d, marks, flags_next, g, suffix, lo, hi, window,
            np.empty(0, np.int64))  # fmt: skip


# One kernel for each kind of walk over the whole space and way, :func:`_walk` inlined with its
# flags constants (pulling and walking by suffix blocks as constants took the 6x2's search from
# 11 s to 7.6 s), each compiled when first needed: a small space's table compiles its kind's
# push, and its pull if a layer pulls (the 3x3's: the push alone, 8.7 s against 66 s for the
# six in one kernel); a large space's threads run the same kernels (:func:`_walk_threads`).
# numba's numpy error model (no check for a division by zero: none can be) as a parallel
# kernel's callees get it: without it the line puzzle's walk took a quarter longer.
# ``a`` as :func:`_whole` takes.


@njit(cache=True, nogil=True, error_model="numpy")
def _walk_suffix_pull(words, depth, record, d, marks, flags_next, g, suffix, lo, hi, dirs, reach):
    a = _whole(words, depth, record, d, marks, flags_next, g, suffix, lo, hi)
    return _walk(a, 2, 1, True, True, True, WHOLE)[0]


@njit(cache=True, nogil=True, error_model="numpy")
def _walk_suffix_push(words, depth, record, d, marks, flags_next, g, suffix, lo, hi, dirs, reach):
    a = _whole(words, depth, record, d, marks, flags_next, g, suffix, lo, hi)
    return _walk(a, 2, 1, True, True, False, WHOLE)[0]


@njit(cache=True, nogil=True, error_model="numpy")
def _walk_distinct_pull(words, depth, record, d, marks, flags_next, g, suffix, lo, hi, dirs, reach):
    a = _whole(words, depth, record, d, marks, flags_next, g, suffix, lo, hi)
    return _walk(a, dirs, reach, True, False, True, WHOLE)[0]


@njit(cache=True, nogil=True, error_model="numpy")
def _walk_distinct_push(words, depth, record, d, marks, flags_next, g, suffix, lo, hi, dirs, reach):
    a = _whole(words, depth, record, d, marks, flags_next, g, suffix, lo, hi)
    return _walk(a, dirs, reach, True, False, False, WHOLE)[0]


@njit(cache=True, nogil=True, error_model="numpy")
def _walk_repeated_pull(words, depth, record, d, marks, flags_next, g, suffix, lo, hi, dirs, reach):
    a = _whole(words, depth, record, d, marks, flags_next, g, suffix, lo, hi)
    return _walk(a, dirs, reach, False, False, True, WHOLE)[0]


@njit(cache=True, nogil=True, error_model="numpy")
def _walk_repeated_push(words, depth, record, d, marks, flags_next, g, suffix, lo, hi, dirs, reach):
    a = _whole(words, depth, record, d, marks, flags_next, g, suffix, lo, hi)
    return _walk(a, dirs, reach, False, False, False, WHOLE)[0]


def _walk_of(distinct: bool, by_suffix: bool, pull: bool):
    """The kernel of a walk over the whole space of this kind and way."""
    if by_suffix:
        return _walk_suffix_pull if pull else _walk_suffix_push
    if distinct:
        return _walk_distinct_pull if pull else _walk_distinct_push
    return _walk_repeated_pull if pull else _walk_repeated_push


@njit(cache=True, inline="always")
def _chunk(ch, lo, hi, chunks):
    """Units ``(first, end)`` of chunk ``ch`` when units ``lo .. hi - 1`` are cut in ``chunks``."""
    return lo + ch * (hi - lo) // chunks, lo + (ch + 1) * (hi - lo) // chunks


def _walk_threads(walk, args, units: int, directions: int, reach: int, chunks: int) -> int:
    """The kernel ``walk`` (:func:`_walk_of`'s) over all ``units`` in ``chunks`` chunks, handed
    to numba's number of threads as they come free (the kernels let go of the GIL; a pull's
    threads each write only their own units, a push's claim with atomic ORs).  Python threads
    rather than a parallel kernel: a large space's walk compiles its own kind's kernels, as a
    small space's does (8 s), not a kernel holding all six (85 s)."""

    def chunk(ch: int) -> int:
        lo, hi = ch * units // chunks, (ch + 1) * units // chunks
        return int(walk(*args, lo, hi, directions, reach))

    threads = max(1, min(numba.get_num_threads(), chunks))
    if threads == 1:  # one call over them all, as a small layer's walk
        return int(walk(*args, 0, units, directions, reach))
    with ThreadPoolExecutor(threads, thread_name_prefix="slidelab-walk") as pool:
        return sum(pool.map(chunk, range(chunks)))


@njit(cache=True, nogil=True)
def _walk_part_kind(
    words, d, marks, flags_next, g, suffix, lo, hi, window, out, reach, by_suffix, kind
):  # fmt: skip
    """:func:`_walk` over units ``lo .. hi - 1`` of a partition's words (``window``), its
    vertical moves only (a partition's sideways moves stay in it: :func:`_sweep` makes them),
    inlined for each kind of walk and way; ``kind``: 0 push, 1 pull, 2 push into the other
    partitions only.  Returns ``(states reached, neighbours listed in out)``."""
    a = (words, np.empty(0, np.uint8), False, d, marks, flags_next, g, suffix, lo, hi, window, out)
    if by_suffix and kind == 1:
        return _walk(a, 2, 1, True, True, True, PARTITION)
    if by_suffix and kind == 2:
        return _walk(a, 2, 1, True, True, False, CROSSING)
    if by_suffix:
        return _walk(a, 2, 1, True, True, False, PARTITION)
    if g.distinct and kind == 1:
        return _walk(a, 2, reach, True, False, True, PARTITION)
    if g.distinct and kind == 2:
        return _walk(a, 2, reach, True, False, False, CROSSING)
    if g.distinct:
        return _walk(a, 2, reach, True, False, False, PARTITION)
    if kind == 1:
        return _walk(a, 2, reach, False, False, True, PARTITION)
    if kind == 2:
        return _walk(a, 2, reach, False, False, False, CROSSING)
    return _walk(a, 2, reach, False, False, False, PARTITION)


@njit(cache=True, parallel=True, nogil=True)
def _walk_part_parallel(
    words, d, marks, flags_next, g, suffix, lo, hi, window, out, sent, reach, by_suffix, kind,
):  # fmt: skip
    """:func:`_walk_part_kind` over units ``lo .. hi - 1``, in ``out.shape[0]`` chunks handed to
    the threads as they come free; chunk ``ch`` lists its neighbours in other partitions in
    ``out[ch]``, ``sent[ch]`` of them."""
    chunks = out.shape[0]
    found = np.zeros(chunks, np.int64)
    for ch in prange(chunks):
        first, end = _chunk(ch, lo, hi, chunks)
        found[ch], sent[ch] = _walk_part_kind(
            words, d, marks, flags_next, g, suffix, first, end, window, out[ch], reach,
            by_suffix, kind,
        )  # fmt: skip
    return found.sum()


@njit(cache=True, nogil=True)
def _sweep_range(words, depth, record, d, flags_cur, flags_next, done, side, Hw, lo, hi):
    """Sideways moves of layer ``d`` into blocks ``lo .. hi - 1``, 32 states a word operation.

    A sideways move keeps a state's rank part, so with ``Hw`` whole words per
    blank cell, slot ``s`` of word ``k`` of cell ``c`` and the same slot of word
    ``k`` of a cell ``side[c]`` lists (up to ``reach`` cells sideways) are neighbours: an unreached
    slot next to a slot of the layer is reached.  Each target word is written by
    the thread that owns its block (no atomics); the other cells' words are only
    read for their layer's code, which nothing changes meanwhile.  A block is
    skipped when no block it reads from holds the layer.  Returns how many states
    it reached.
    """
    cur = 1 + (d & 1)
    nxt = np.int64(3 - cur)
    nwords = words.shape[0]
    found = 0
    for blk in range(lo, hi):
        if done[blk] != 0:
            continue
        w0 = blk * WORDS_PER_BLOCK
        w1 = min(nwords, w0 + WORDS_PER_BLOCK)
        c0 = w0 // Hw
        if c0 == (w1 - 1) // Hw:  # within one cell: look at the source blocks' flags first
            k0 = w0 - c0 * Hw
            wanted = False
            for e in range(side.shape[1]):  # indexed: a row view costs reference counts
                cell = side[c0, e]
                sw = cell * Hw + k0
                if cell >= 0 and (flags_cur[sw >> 5] != 0 or flags_cur[(sw + w1 - w0 - 1) >> 5]):
                    wanted = True
            if not wanted:
                continue
        changed = False
        for wi in range(w0, w1):
            x = words[wi]
            unreached = _with_code(x, 0)
            if unreached == 0:
                continue
            c = wi // Hw
            k = wi - c * Hw
            near = np.int64(0)
            for e in range(side.shape[1]):
                cell = side[c, e]
                if cell >= 0:
                    near |= _with_code(words[cell * Hw + k], cur)
            new = near & unreached
            if new != 0:
                words[wi] = x | (new * nxt)
                found += popcount(new)
                changed = True
                if record:
                    while new != 0:
                        depth[np.int64(wi) * 32 + (lowest_bit(new) >> 1)] = d + 1
                        new &= new - 1
        if changed:
            flags_next[blk] = 1
    return found


@njit(cache=True, parallel=True, nogil=True)
def _sweep(words, depth, record, d, flags_cur, flags_next, done, side, Hw, chunks):
    """:func:`_sweep_range` over all blocks, chunks handed to the threads as they come free."""
    nblocks = flags_cur.shape[0]
    found = np.zeros(chunks, np.int64)
    for ch in prange(chunks):
        lo, hi = _chunk(ch, 0, nblocks, chunks)
        found[ch] = _sweep_range(
            words, depth, record, d, flags_cur, flags_next, done, side, Hw, lo, hi
        )
    return found.sum()


def _sideways(nbr: np.ndarray, reach: int) -> np.ndarray:
    """``side[c]``: the cells a slide of 1 .. ``reach`` tiles sideways takes the blank to from
    cell ``c`` (-1 past the row's ends)."""
    side = np.full((nbr.shape[0], 2 * reach), -1, np.int64)
    for c in range(nbr.shape[0]):
        for e, direction in enumerate((2, 3)):
            cell = c
            for i in range(reach):
                cell = nbr[cell, direction] if cell >= 0 else -1
                side[c, e * reach + i] = cell
    return side


@njit(cache=True, nogil=True)
def _collect(words, flags, code, limit):
    """Indices (ascending, at most ``limit``) of the states holding ``code`` in the flagged blocks."""
    out = np.empty(limit, np.int64)
    n = 0
    nwords = words.shape[0]
    for blk in range(flags.shape[0]):
        if flags[blk] == 0:
            continue
        for wi in range(blk * WORDS_PER_BLOCK, min(nwords, (blk + 1) * WORDS_PER_BLOCK)):
            mask = _with_code(words[wi], code)
            while mask != 0 and n < limit:
                out[n] = np.int64(wi) * 32 + (lowest_bit(mask) >> 1)
                n += 1
                mask &= mask - 1
            if n >= limit:
                return out[:n]
    return out[:n]


@njit(cache=True, nogil=True)
def claim(words, flags_next, base, offsets, nxt):
    """Slots ``base + offsets[i]`` not reached yet take code ``nxt`` (their blocks flagged in
    ``flags_next``): the neighbours another partition found for this one (:mod:`.partition`).
    Returns how many were not reached before."""
    found = 0
    for i in range(offsets.shape[0]):
        j = base + np.int64(offsets[i])
        word = j >> 5
        shift = (j & 31) << 1
        if (words[word] >> shift) & 3 == 0:
            words[word] |= np.int64(nxt) << shift
            flags_next[j >> BLOCK_SHIFT] = 1
            found += 1
    return found


@dataclass
class Layers:
    """What a complete breadth-first search found.

    ``counts[d]`` states lie at distance ``d``; ``last`` holds the indices of
    the last layer (at most ``limit`` of them); ``depth`` is the byte per
    state when one was asked for (255 where unreached).
    """

    counts: list
    last: np.ndarray
    seconds: float
    depth: np.ndarray | None = None
    modes: list = field(default_factory=list)
    #: a search on a cluster (:mod:`slidelab.analysis.cluster_space`): each worker's peak resident bytes
    peak_bytes: list = field(default_factory=list)


class Codes:
    """The two-bit codes of a space's states, or of a partition of them, and the kernels that
    make a layer of them: what :func:`search_layers` and a partition (:mod:`.partition`) share.

    Without ``window``, slot ``i`` of the words is state ``i`` of ``space``.  With
    ``window = (r0, r1)``, the words hold the ranks ``r0 .. r1 - 1`` of every blank cell (index
    ``b * H + r``: :mod:`.index`), ``stride`` slots a cell, a whole number of words (the slots
    past ``r1 - r0`` closed): slot ``b * stride + r - r0``.  A sideways move keeps the rank, so
    it stays in the window and the sweep (:func:`_sweep`) makes it 32 states at a time; the
    vertical moves are walked (:func:`_walk`), those that leave the window listed for the
    partition that holds them.

    ``parallel``: as :func:`search_layers`' (None: by the sizes and the threads numba has).
    """

    def __init__(
        self,
        space: Space,
        window: tuple[int, int] | None = None,
        parallel: bool | None = None,
        record: bool = False,
    ):
        self.space = space
        self.g = g = space.kernel_args()
        H = space.per_blank
        r0, ranks = (0, H) if window is None else (window[0], window[1] - window[0])
        stride = H if window is None else -(-ranks // 32) * 32
        self.window = (np.int64(r0), np.int64(stride), np.int64(ranks))
        self.slots = slots = space.cells * stride
        nwords = -(-slots // 32)
        self.nblocks = nblocks = -(-slots // (1 << BLOCK_SHIFT))
        self.words = words = np.empty(nwords, np.int64)
        words[:] = 0  # touch every page before the threads need them
        if window is None:
            tail = slots - (nwords - 1) * 32
            if tail < 32:  # slots past the last state: closed
                words[-1] = np.int64(np.uint64((1 << 64) - (1 << (2 * tail))).view(np.int64))
        elif stride > ranks:  # each cell's slots past its ranks (in its last word): closed
            spare = ranks & 31
            words[stride // 32 - 1 :: stride // 32] = np.int64(
                np.uint64((1 << 64) - (1 << (2 * spare))).view(np.int64)
            )
        self.record = record
        self.depth = np.full(slots if record else 1, UNREACHED, np.uint8)
        self.chunks = max(1, min(CHUNKS, nblocks)) if parallel is None else CHUNKS
        self.serial = serial_space(space) if parallel is None else not parallel
        self.serial_layer = 0 if parallel else SERIAL_LAYER
        # with whole words per blank cell, the sideways moves are made 32 states at a time
        self.Hw = stride // 32 if stride % 32 == 0 else 0
        self.directions = 2 if self.Hw else 4  # the moves the walk makes: vertical only, or all
        self.reach = space.reach  # the most tiles one move slides (1 in STM)
        self.side = _sideways(g.neighbours, self.reach)
        # distinct tiles past SUFFIX, in STM: the vertical moves walk suffix blocks (a window of
        # whole blocks)
        half = math.factorial(SUFFIX) // 2
        self.blocks = (
            BLOCK_WALK and walk_kind(space) == "suffix" and r0 % half == 0 and ranks % half == 0
        )
        #: units of the walk: suffix blocks, or flag blocks
        self.units = slots // half if self.blocks else nblocks
        #: states a unit of the walk
        self.unit_states = half if self.blocks else 1 << BLOCK_SHIFT
        # the tables of the last places of a suffix block (about 50 ms to make); a walk state by
        # state takes a one-tile stand-in of the same types, which it never reads
        self.suffix = suffix_tables(SUFFIX if self.blocks else 1)

    def small(self, size: int) -> bool:
        """Whether a layer of ``size`` states is made by one thread."""
        return self.serial or size < self.serial_layer

    def sweep(self, d: int, small: bool, flags_cur, flags_next, done) -> int:
        """Layer ``d + 1`` by the sideways moves from layer ``d`` (none without whole words a
        cell: the walk makes them); returns how many states it reached."""
        if not self.Hw:
            return 0
        args = (self.words, self.depth, self.record, d, flags_cur, flags_next, done, self.side)
        if small:
            return int(_sweep_range(*args, self.Hw, 0, self.nblocks))
        return int(_sweep(*args, self.Hw, self.chunks))

    def expand(self, d, pull, size, flags_cur, flags_next, done):
        """Layer ``d + 1`` of the whole space from layer ``d`` (:func:`.breadth_first`'s
        ``expand``)."""
        small = self.small(size)
        marks = done if pull else flags_cur
        new = self.sweep(d, small, flags_cur, flags_next, done)
        args = (self.words, self.depth, self.record, d, marks, flags_next, self.g, self.suffix)
        walk = _walk_of(self.space.distinct, self.blocks, pull)  # compiled when first needed
        if small:
            new += walk(*args, 0, self.units, self.directions, self.reach)
        else:
            new += _walk_threads(walk, args, self.units, self.directions, self.reach, self.chunks)
        return new, new

    def walk_partition(self, d, kind, marks, flags_next, lo, hi, out, sent) -> int:
        """A partition's vertical moves (:func:`_walk_part_kind`; ``kind`` 0 push, 1 pull, 2 the
        moves into other partitions only) over units ``lo .. hi - 1``: ``out[ch]`` lists the
        neighbours chunk ``ch`` found in other partitions, ``sent[ch]`` of them (one chunk on
        one thread); returns the states reached."""
        args = (self.words, d, marks, flags_next, self.g, self.suffix, lo, hi, self.window)
        if out.shape[0] == 1:
            found, sent[0] = _walk_part_kind(*args, out[0], self.reach, self.blocks, kind)
            return int(found)
        return int(_walk_part_parallel(*args, out, sent, self.reach, self.blocks, kind))

    def close(self, flags, code, size):
        """Close the layer of ``code`` in the flagged blocks (:func:`.breadth_first`'s
        ``close``)."""
        if self.small(size):
            close_range(self.words, flags, WORDS_PER_BLOCK, code, LOW, 0, self.nblocks)
        else:
            close_layer(self.words, flags, WORDS_PER_BLOCK, code, LOW, self.chunks)

    def collect(self, flags, code, limit: int) -> np.ndarray:
        """Slots (ascending, at most ``limit``) holding ``code`` in the flagged blocks."""
        return _collect(self.words, flags, code, max(0, limit))


@contextlib.contextmanager
def kernel_threads(threads: int | None = None):
    """In this thread, while in the block: parallel kernels hand out their chunks one at a time
    as threads come free, on ``threads`` threads (None: numba's default).  Both settings are
    numba's, per thread."""
    previous_chunksize = numba.set_parallel_chunksize(1)
    previous_threads = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
    try:
        yield
    finally:
        numba.set_parallel_chunksize(previous_chunksize)
        numba.set_num_threads(previous_threads)


def switch(space: Space, parallel: bool | None = None) -> dict:
    """When a search of ``space`` pulls a layer instead of pushing it: :func:`.breadth_first`'s
    ``pull_ratio`` and ``min_pull``."""
    N = space.states
    return {
        # a small space is pushed only: one kernel to compile on a fresh install
        "pull_ratio": (
            float("inf")
            if N < SERIAL_STATES and parallel is None
            else PULL_RATIO_MTM
            if space.reach > 1
            else PULL_RATIO
        ),
        # the 7x2's last dozen layers (a few million states or fewer) took 1-2 s each pulled,
        # each reading all 10.9 GB: pushed, a fraction of a second
        "min_pull": N >> 10,
    }


class Tally:
    """A search's counts per layer as they come (:func:`.breadth_first`'s ``on_layer``), told
    to ``progress`` and ``log`` (see :func:`search_layers`): what the in-memory search and the
    partitioned one (:mod:`.partition`) share."""

    def __init__(self, total: int, progress=None, log=None, record: bool = False):
        self.total = total
        self.progress = progress
        self.log = log
        self.record = record
        self.began = time.perf_counter()
        self.counts = [1]
        self.modes: list[str] = []
        self.reached = 1

    def __call__(self, d, pull, result, seconds):
        new = int(result[0])
        self.modes.append("pull" if pull else "push")
        if self.log is not None:
            entry = {"depth": d, "mode": self.modes[-1], "found": new, "seconds": seconds}
            if len(result) > 2:
                entry["parts"] = result[2]
            self.log(entry)
        if new == 0:
            return
        self.counts.append(new)
        self.reached += new
        if d + 1 >= UNREACHED and self.record:
            raise SlidelabError(
                "distances past 254 do not fit a distance table; analyze without saving the table"
            )
        if self.progress is not None:
            elapsed = time.perf_counter() - self.began
            self.progress(
                {
                    "depth": d,
                    "layer": new,
                    "states": self.reached,
                    "total": self.total,
                    "fraction": min(1.0, self.reached / self.total),
                    "seconds": elapsed,
                    "rate": self.reached / elapsed if elapsed > 0 else 0.0,
                }
            )

    def run(self, nblocks: int, start_block: int, expand, close, **switch):
        """:func:`.breadth_first` from the goal with these counts; returns its ``(d, flags)``."""
        return breadth_first(
            nblocks, start_block, expand, close, unseen=self.total - 1, on_layer=self, **switch
        )

    def layers(self, last: np.ndarray, depth: np.ndarray | None = None) -> Layers:
        """The search's :class:`Layers`, ``last`` the indices of its last layer."""
        return Layers(self.counts, last, time.perf_counter() - self.began, depth, self.modes)


def search_layers(
    space: Space,
    progress: Callable[[dict], None] | None = None,
    record: bool = False,
    limit: int = 1000,
    log: Callable[[dict], None] | None = None,
    parallel: bool | None = None,
) -> Layers:
    """Breadth-first search from the goal over every state of ``space``, in its metric (in MTM
    a move slides up to ``space.reach`` tiles).

    Parameters
    ----------
    progress : callable, optional
        Called after each layer with ``{"depth", "layer", "states", "total",
        "fraction", "rate", "seconds"}`` (``rate``: states per second so far;
        ``total``: the number of indices, all reachable with distinct tiles).
    record : bool
        Also keep each state's depth in a byte array (for distance tables).
    limit : int
        At most this many indices of the last layer are returned.
    log : callable, optional
        Called after each layer with ``{"depth", "mode", "found", "seconds"}`` (benchmarks).
    parallel : bool, optional
        Force the parallel kernels (True) or one thread (False); by default
        spaces and layers below :data:`SERIAL_STATES` and :data:`SERIAL_LAYER`
        take one thread.
    """
    from .._jit import kernel_set

    tally = Tally(space.states, progress, log, record)
    codes = Codes(space, parallel=parallel, record=record)
    goal = space.index(space.goal)
    codes.words[goal >> 5] |= np.int64(1) << ((goal & 31) << 1)
    if record:
        codes.depth[goal] = 0
    with kernel_threads(), kernel_set(*kernels(space, codes.serial)):
        d, flags = tally.run(
            codes.nblocks, goal >> BLOCK_SHIFT, codes.expand, codes.close, **switch(space, parallel)
        )
        last = codes.collect(flags, 1 + (d & 1), min(limit, tally.counts[d]))
    return tally.layers(last, codes.depth if record else None)
