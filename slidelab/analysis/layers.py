"""Complete breadth-first search of a puzzle's space in two bits per state, on every core.

States are the indices of :mod:`.index`.  Each has a two-bit code in an array
of ``int64`` words (32 states a word):

====  ==========================================================
0     not reached
1, 2  reached at an even / odd depth (the open layers)
3     closed (reached two or more layers ago), or no state (padding)
====  ==========================================================

The search is layer-synchronous, run by the driver it shares with the
pattern-database builds (:func:`slidelab._layers.breadth_first`, which also
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

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numba
import numpy as np
from numba import prange

from .._bits import atomic_or, lowest_bit, popcount, with_code
from .._jit import njit
from .._layers import breadth_first, close_layer, close_range
from ..errors import SlidelabError
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
#: spaces smaller than this are searched by one thread (a parallel region costs more than a layer)
SERIAL_STATES = 1 << 21
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
def _block_start(sb, g, perm, s, L, T):
    """Place suffix block ``sb``'s first tiles (``s``, ``L``) and its last tiles (``T``); returns
    ``(blank cell, its first index, the parity the last tiles' digits need, first, last)``, the
    last two the places of the vertical moves' windows that the tables fill (:func:`_window`).

    ``perm`` is the first of :func:`.index.suffix_tables` (``suffix`` in the block kernels).
    """
    m, w, H, n, needpar = g.tiles, g.width, g.per_blank, g.cells, g.parity
    K = perm.shape[1]
    per_cell = H // (perm.shape[0] >> 1)
    b = sb // per_cell
    want = needpar[b] ^ suffix_block(sb - b * per_cell, s, L, T, m, K)
    first, last = _window(b, w, n, m - K)
    return b, b * H, want, first, last


@njit(cache=True, inline="always")
def _walk(a, directions, reach, distinct, by_suffix, pull):
    """Layer ``d`` over units ``lo .. hi - 1`` of the words; returns how many states it reached.

    ``a`` is ``(words, depth, record, d, marks, flags_next, g, suffix, lo, hi)``.

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

    Compiled once (:func:`_walk_kind`), for both metrics and every kind of space.
    """
    words, depth, record, d, marks, flags_next, g, suffix, lo, hi = a
    m, width, per_blank, nbr = g.tiles, g.width, g.per_blank, g.neighbours
    F, radix, S = g.factorials, g.radix, g.smaller
    Tab, counts, full, needpar = g.arrangements, g.label_counts, g.full, g.parity
    perm, leh, par = suffix
    K = perm.shape[1]
    unit = (perm.shape[0] >> 6) if by_suffix else WORDS_PER_BLOCK  # K!/2 states, 32 a word
    cur = 1 + (d & 1)
    nxt = np.int64(3 - cur)
    wanted = 0 if pull else cur  # the states walked: the unreached ones, or the layer's
    nwords = words.shape[0]
    tiles = np.empty(m, np.int64)
    lehmer = np.zeros(m, np.int64)
    last_tiles = np.empty(K, np.int64)
    scratch = np.empty(counts.shape[0], np.int64)
    cursor = np.int64(-1)
    blank = np.int64(0)
    base = np.int64(0)
    end = np.int64(0)
    want = 0
    first = 0
    last = 0
    k = 0
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
            blank, base, want, first, last = _block_start(u, g, perm, tiles, lehmer, last_tiles)
        left = False
        for wi in range(w0, w1):
            x = words[wi]
            targets = _with_code(x, wanted)
            if targets == 0:
                continue
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
                    rank = 2 * (idx - base) + (rho & 1)
                else:
                    blank = seek(
                        idx, cursor, blank, end, tiles, lehmer, scratch, m, per_blank, distinct,
                        radix, Tab, counts, full, needpar,
                    )  # fmt: skip
                    base = blank * per_blank
                    end = base + per_blank
                    cursor = idx
                    rank = tile_rank(idx, base, lehmer, m, distinct)
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
                            j = to * per_blank + (idx - base)
                        else:  # the rank changes tile after tile of the slide
                            moved += vertical_delta(
                                tiles, lehmer, cell, direction, width, m, distinct, F, radix, S
                            )
                            j = to * per_blank + ((moved >> 1) if distinct else moved)
                        cell = to
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
    return k


@njit(cache=True)
def _walk_kind(
    words, depth, record, d, marks, flags_next, g, suffix, lo, hi, directions, reach, distinct,
    by_suffix, pull,
):  # fmt: skip
    """:func:`_walk` inlined once for each kind of walk and way, its flags constants there
    (pulling and walking by suffix blocks as constants took the 6x2's search from 11 s to 7.6 s):
    by suffix blocks, or state by state with distinct or repeated tiles."""
    a = (words, depth, record, d, marks, flags_next, g, suffix, lo, hi)
    if by_suffix and pull:
        return _walk(a, 2, 1, True, True, True)
    if by_suffix:
        return _walk(a, 2, 1, True, True, False)
    if distinct and pull:
        return _walk(a, directions, reach, True, False, True)
    if distinct:
        return _walk(a, directions, reach, True, False, False)
    if pull:
        return _walk(a, directions, reach, False, False, True)
    return _walk(a, directions, reach, False, False, False)


@njit(cache=True, parallel=True)
def _walk_parallel(
    words, depth, record, d, marks, flags_next, g, suffix, units, directions, reach, distinct,
    by_suffix, pull, chunks,
):  # fmt: skip
    """:func:`_walk` over all ``units``, chunks handed to the threads as they come free (a
    pull's threads each write only their own units)."""
    found = np.zeros(chunks, np.int64)
    for ch in prange(chunks):
        lo = ch * units // chunks
        hi = (ch + 1) * units // chunks
        found[ch] = _walk_kind(
            words, depth, record, d, marks, flags_next, g, suffix, lo, hi, directions, reach,
            distinct, by_suffix, pull,
        )  # fmt: skip
    return found.sum()


@njit(cache=True)
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


@njit(cache=True, parallel=True)
def _sweep(words, depth, record, d, flags_cur, flags_next, done, side, Hw, chunks):
    """:func:`_sweep_range` over all blocks, chunks handed to the threads as they come free."""
    nblocks = flags_cur.shape[0]
    found = np.zeros(chunks, np.int64)
    for ch in prange(chunks):
        lo = ch * nblocks // chunks
        hi = (ch + 1) * nblocks // chunks
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


@njit(cache=True)
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
    began = time.perf_counter()
    g = space.kernel_args()
    N = space.states
    nwords = -(-N // 32)
    nblocks = -(-N // (1 << BLOCK_SHIFT))
    words = np.empty(nwords, np.int64)
    words[:] = 0  # touch every page before the threads need them
    tail = N - (nwords - 1) * 32
    if tail < 32:  # slots past the last state: closed
        words[-1] = np.int64(np.uint64((1 << 64) - (1 << (2 * tail))).view(np.int64))
    depth = np.full(N if record else 1, UNREACHED, np.uint8)
    goal = space.index(space.goal)
    words[goal >> 5] |= np.int64(1) << ((goal & 31) << 1)
    if record:
        depth[goal] = 0
    chunks = max(1, min(CHUNKS, nblocks)) if parallel is None else CHUNKS
    serial = N < SERIAL_STATES or numba.get_num_threads() == 1 if parallel is None else not parallel
    serial_layer = 0 if parallel else SERIAL_LAYER
    counts = [1]
    modes = []
    state = {"reached": 1}

    # with whole words per blank cell, the sideways moves are made 32 states at a time
    Hw = space.per_blank // 32 if space.per_blank % 32 == 0 else 0
    directions = 2 if Hw else 4  # the moves the other kernels make: vertical only, or all
    reach = space.reach  # the most tiles one move slides (1 in STM)
    side = _sideways(g.neighbours, reach)
    # distinct tiles past SUFFIX, in STM: the vertical moves walk suffix blocks
    blocks = BLOCK_WALK and space.distinct and space.tiles >= SUFFIX and reach == 1
    nsb = N // (math.factorial(SUFFIX) // 2) if blocks else 0
    # the tables of the last places of a suffix block (about 50 ms to make); a walk state by state
    # takes a one-tile stand-in of the same types, which it never reads
    suffix = suffix_tables(SUFFIX if blocks else 1)

    def expand(d, pull, size, flags_cur, flags_next, done):
        small = serial or size < serial_layer
        marks = done if pull else flags_cur
        new = 0
        if Hw and small:
            new += _sweep_range(
                words, depth, record, d, flags_cur, flags_next, done, side, Hw, 0, nblocks
            )
        elif Hw:
            new += _sweep(words, depth, record, d, flags_cur, flags_next, done, side, Hw, chunks)
        units = nsb if blocks else nblocks
        args = (words, depth, record, d, marks, flags_next, g, suffix)
        if small:
            new += _walk_kind(*args, 0, units, directions, reach, space.distinct, blocks, pull)
        else:
            new += _walk_parallel(
                *args, units, directions, reach, space.distinct, blocks, pull, chunks
            )
        return new, new

    def close(flags, code, size):
        if serial or size < serial_layer:
            close_range(words, flags, WORDS_PER_BLOCK, code, LOW, 0, nblocks)
        else:
            close_layer(words, flags, WORDS_PER_BLOCK, code, LOW, chunks)

    def on_layer(d, pull, result, seconds):
        new = int(result[0])
        modes.append("pull" if pull else "push")
        if log is not None:
            log({"depth": d, "mode": modes[-1], "found": new, "seconds": seconds})
        if new == 0:
            return
        counts.append(new)
        state["reached"] += new
        if d + 1 >= UNREACHED and record:
            raise SlidelabError(
                "distances past 254 do not fit a distance table; analyze without saving the table"
            )
        if progress is not None:
            elapsed = time.perf_counter() - began
            reached = state["reached"]
            progress(
                {
                    "depth": d,
                    "layer": new,
                    "states": reached,
                    "total": N,
                    "fraction": min(1.0, reached / N),
                    "seconds": elapsed,
                    "rate": reached / elapsed if elapsed > 0 else 0.0,
                }
            )

    previous_chunksize = numba.set_parallel_chunksize(1)  # hand out chunks dynamically
    try:
        d, flags = breadth_first(
            nblocks,
            goal >> BLOCK_SHIFT,
            expand,
            close,
            unseen=N - 1,
            # a small space is pushed only: one kernel to compile on a fresh install
            pull_ratio=(
                float("inf")
                if N < SERIAL_STATES and parallel is None
                else PULL_RATIO_MTM
                if reach > 1
                else PULL_RATIO
            ),
            on_layer=on_layer,
            # the 7x2's last dozen layers (a few million states or fewer) took 1-2 s each pulled,
            # each reading all 10.9 GB: pushed, a fraction of a second
            min_pull=N >> 10,
        )
        last = _collect(words, flags, 1 + (d & 1), max(0, min(limit, counts[d])))
    finally:
        numba.set_parallel_chunksize(previous_chunksize)
    return Layers(counts, last, time.perf_counter() - began, depth if record else None, modes)
