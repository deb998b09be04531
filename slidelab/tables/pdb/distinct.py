"""Building a distinct-tile pattern database in two bits per state, on every core.

The search runs over *states* ``(placement, blank region)``: where the group's
``k`` tiles stand, and which connected region of the other ``e = n - k`` cells
holds the blank (moving the blank through non-group cells costs nothing, so
only the region matters).  Moving a group tile into the blank's region costs 1.

**Storage.**  One word per placement (``uint16``, ``uint32`` or ``int64``), two
bits per empty cell, the empty cells numbered in board order (*slots*).  All
cells of a region carry the same code:

====  ===================================================
0     not reached
1, 2  reached at an even / odd depth (the open layers)
3     closed (reached two or more layers ago)
====  ===================================================

For the 15-puzzle's 8-tile group that is 519 million ``uint16`` words, 1.04 GB,
against 4.2 GB for a byte per (placement, blank cell).  The answer, the depth at
which a placement is first reached, is kept as ``(depth - md) / 2`` in four
bits, ``md`` being the group's Manhattan distance (a tile move changes both by
one, so the difference is even), and widened to one byte per placement at the
end, when the two-bit array is gone.

**Layers.**  Placements are numbered like the search's tables (the
``n (n-1) ... (n-k+1)`` perfect hash) and handled in *blocks* that share the
positions of all but the last two tiles, so a block's placements are walked
without unranking each one.  A byte per block marks the blocks holding the
open layer.  While the open layer is small, every open region is expanded by
every move of a group tile next to it ("push"); the successor's index is the
parent's plus a few table entries (a sideways move changes one digit), and a
successor region is claimed with an atomic OR, so threads share the blocks
without losing an update and each region is counted once.  Once the open layer
outweighs what is left unreached, every unreached region looks instead for a
neighbour in the open layer and stops at the first ("pull", the direction
switch of Beamer et al.'s breadth-first search); each thread then writes only
its own blocks.  On the 15-puzzle's 8-tile group the last ten layers go about
a third faster that way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numba
import numpy as np
from numba import prange

from ..._bits import atomic_or, lowest_bit, pdep, pext, popcount, prefetch
from ..._bits import with_code as _with_code
from ..._jit import njit
from ...errors import SlidelabError
from ...geometry import taxicab_table
from ...puzzle import Puzzle
from ..driver import SPREAD, breadth_first, close_layer, spread_block, spread_per
from .layout import GroupLayout
from .layout import placement_index as _index

#: a layer is pulled (backward) when its cells outnumber the unreached cells this many times
PULL_RATIO = 0.5
#: the same for a mirrored build, whose first pull also marks every placement whose mirror is
#: the stored one (a mirror index each): pulling pays later (15-puzzle's 8-tile group: 137 s at
#: 1.0, 145-150 s at 0.5; the unmirrored 7-tile group: 16.0 s at 0.5, 16.7 s at 1.0)
PULL_RATIO_MIRROR = 1.0
#: chunks of the parallel kernels; each takes every CHUNKS-th of SPREAD * CHUNKS ranges of
#: blocks (:func:`slidelab.tables.driver.spread_block`)
CHUNKS = 64


# ----------------------------------------------------------------------------------------
# small kernels


@njit(cache=True, inline="always")
def _flood(cell, free, w, not_first, not_last):
    """The connected region of ``free`` cells (a bit mask) containing ``cell``."""
    r = np.int64(1) << cell
    while True:
        g = (r | (r << w) | (r >> w) | ((r << 1) & not_first) | ((r >> 1) & not_last)) & free
        if g == r:
            return r
        r = g


@njit(cache=True, inline="always")
def _grow(r, w, not_first, not_last):
    """The cells next to the cells of ``r`` (and ``r``'s own), within ``w`` columns."""
    return r | (r << w) | (r >> w) | ((r << 1) & not_first) | ((r >> 1) & not_last)


@njit(cache=True, inline="always")
def _moved(p, j, t, to, w, tile_at, mult):
    """Index of placement ``p`` after tile ``j`` moves from cell ``t`` to the neighbour ``to``.

    A sideways move changes only tile ``j``'s digit, by one.  A vertical move
    passes the ``w - 1`` cells in between: earlier tiles there shrink tile
    ``j``'s step, later tiles there shift their own digit by one.
    """
    if to == t + 1:
        return p + mult[j]
    if to == t - 1:
        return p - mult[j]
    lo = min(t, to)
    hi = max(t, to)
    q = np.int64(0)
    step = np.int64(w)
    for c in range(lo + 1, hi):  # without branches: which tile stands there is anyone's guess
        i = tile_at[c]
        step -= (i >= 0) & (i < j)
        q += mult[max(i, 0)] * (i > j)
    q += step * mult[j]
    return p + q if to > t else p - q


@njit(cache=True, inline="always")
def _slots(region, free):
    """The region's slots as a mask with bit ``2 s`` set for each slot ``s``."""
    return pdep(pext(region, free), np.int64(0x5555555555555555))


@njit(cache=True, inline="always")
def _select(free, s):
    """The cell of slot ``s``: the ``s``-th set bit of ``free``."""
    return lowest_bit(pdep(np.int64(1) << s, free))


@njit(cache=True, inline="always")
def _code_at(word, free, cell):
    """Code of ``cell`` in a placement's word (``free``: the placement's empty cells)."""
    return (word >> (2 * popcount(free & ((np.int64(1) << cell) - 1)))) & 3


@njit(cache=True, inline="always")
def _block_prefix(block, k, n, pos):
    """Positions of tiles ``0 .. k-3`` in ``pos`` for a block; returns their cell mask."""
    rem = block
    for j in range(k - 3, -1, -1):
        radix = n - j
        pos[j] = rem % radix
        rem //= radix
    occ = np.int64(0)
    for j in range(k - 2):
        free = ~occ & ((np.int64(1) << n) - 1)
        c = _select(free, pos[j])
        pos[j] = c
        occ |= np.int64(1) << c
    return occ


@njit(cache=True, inline="always")
def _prefix_cells(block, k, n, pos, tile_at):
    """:func:`_block_prefix`, also filling ``tile_at`` (cell -> tile, -1 when empty)."""
    occ = _block_prefix(block, k, n, pos)
    for c in range(n):
        tile_at[c] = -1
    for j in range(k - 2):
        tile_at[pos[j]] = j
    return occ


@njit(cache=True, inline="always")
def _mirror_mask(mask, scell):
    """The cells of ``mask`` moved by the symmetry ``scell``."""
    out = np.int64(0)
    r = mask
    while r != 0:
        c = lowest_bit(r)
        r &= r - 1
        out |= np.int64(1) << scell[c]
    return out


@njit(cache=True, inline="always")
def _start_block(blk, k, n, pos, tile_at, scell, stile, spos, tile_at_m, sym):
    """Start on block ``blk``: tiles ``0 .. k-3`` on their cells in ``pos`` and ``tile_at``
    (cell -> tile, -1 when empty) and, with ``sym``, their mirror images in ``spos`` and
    ``tile_at_m``; the last two tiles not placed yet.  Returns the cells free of those tiles
    and the cells of their mirror images.

    The placements of a block share the cells of tiles ``0 .. k-3`` and are
    numbered by the cells of the last two (``pos[k-2]``, then ``pos[k-1]``, in
    board order among the free cells): the block's ``(n - k + 2) (n - k + 1)``
    placements are consecutive indices, and :func:`_place_last_two` puts the
    last two tiles on the cells of one of them without ranking or unranking.
    """
    occ0 = _prefix_cells(blk, k, n, pos, tile_at)
    pos[k - 2] = -1
    occ_m = np.int64(0)
    if sym:
        for c in range(n):
            tile_at_m[c] = -1
        for j in range(k - 2):
            c = scell[pos[j]]
            tile_at_m[c] = stile[j]
            spos[stile[j]] = c
            occ_m |= np.int64(1) << c
        spos[stile[k - 2]] = -1
    return ((np.int64(1) << n) - 1) & ~occ0, occ_m


@njit(cache=True, inline="always")
def _place_last_two(off, e1, free0, k, pos, tile_at):
    """Put tiles ``k-2`` and ``k-1`` on their cells for placement ``off`` of a block (see
    :func:`_start_block`), clearing their old cells in ``tile_at``; returns the empty cells."""
    if pos[k - 2] >= 0:
        tile_at[pos[k - 2]] = -1
        tile_at[pos[k - 1]] = -1
    a = _select(free0, off // e1)
    rest = free0 & ~(np.int64(1) << a)
    b = _select(rest, off % e1)
    pos[k - 2] = a
    pos[k - 1] = b
    tile_at[a] = k - 2
    tile_at[b] = k - 1
    return rest & ~(np.int64(1) << b)


@njit(cache=True, inline="always")
def _place_mirror(pos, k, n, mult, scell, stile, spos, tile_at_m, occ_m):
    """After :func:`_place_last_two`, the mirror images of the last two tiles in ``spos`` and
    ``tile_at_m``; returns the mirrored placement's index (each move's mirror image is then one
    :func:`_moved` from it) and its empty cells (``occ_m``: the other tiles' images, from
    :func:`_start_block`)."""
    ta = stile[k - 2]
    tb = stile[k - 1]
    if spos[ta] >= 0:
        tile_at_m[spos[ta]] = -1
        tile_at_m[spos[tb]] = -1
    ma = scell[pos[k - 2]]
    mb = scell[pos[k - 1]]
    spos[ta] = ma
    spos[tb] = mb
    tile_at_m[ma] = ta
    tile_at_m[mb] = tb
    free_m = ((np.int64(1) << n) - 1) & ~(occ_m | (np.int64(1) << ma) | (np.int64(1) << mb))
    return _index(spos, k, mult), free_m


@njit(cache=True, inline="always")
def _md(pos, k, md):
    total = 0
    for j in range(k):
        total += md[j, pos[j]]
    return total


@njit(cache=True, inline="always")
def _md_placed(md0, pos, k, md):
    """The group's Manhattan distance: ``md0`` for tiles ``0 .. k-3`` (a block's) and the last two."""
    return md0 + md[k - 2, pos[k - 2]] + md[k - 1, pos[k - 1]]


@njit(cache=True, inline="always")
def _set_nibble(nib, p, value):
    byte = p >> 1
    if p & 1:
        nib[byte] = (nib[byte] & 0x0F) | (value << 4)
    else:
        nib[byte] = (nib[byte] & 0xF0) | value


@njit(cache=True, inline="always")
def _scratch(k, n):
    """A thread's ``(pos, spos, tile_at, tile_at_m)``: the cells of the group's tiles and the
    tile on each cell (-1: empty), of a placement and of its mirror image."""
    return (
        np.zeros(k, np.int64),
        np.zeros(k, np.int64),
        np.full(n, -1, np.int64),
        np.full(n, -1, np.int64),
    )


@njit(cache=True, inline="always")
def _move_list(n):
    """A thread's list of one placement's moves (at most four a cell): ``(index, cell, empty
    cells, both mirror members, depth less Manhattan distance)`` of each successor."""
    m = 4 * n
    return (
        np.zeros(m, np.int64),
        np.zeros(m, np.int64),
        np.zeros(m, np.int64),
        np.zeros(m, np.bool_),
        np.zeros(m, np.int64),
    )


@njit(cache=True, inline="always")
def _tile_moves(words, t, region, free, p, ps, free_m, md_p, d, geometry, places, moves, m):
    """Add to ``moves`` (from entry ``m`` on) the moves of the group tile on cell ``t`` into
    ``region`` of placement ``p``, and ask for the successors' words (prefetch, so that the
    waits for memory could overlap: no measurable gain on the 2-core machine, where the build
    is bound by its arithmetic); returns the new length.  A move's successor is a neighbour
    either way: reached from ``p`` (push), or a state from which ``p`` is reached (pull)."""
    block, k, n, w, not_first, not_last, nbmask, mult, md, low, scell, stile, sym = geometry
    pos, spos, tile_at, tile_at_m = places
    mq, mcell, mfree, mboth, mgap = moves
    j = tile_at[t]
    adj = nbmask[t] & region
    while adj != 0:
        to = lowest_bit(adj)
        adj &= adj - 1
        q, cell2, free2, both = _stored_move(
            p, ps, j, t, to, free, free_m, w, tile_at, tile_at_m, mult, scell, stile, sym
        )
        prefetch(words, q)
        mq[m] = q
        mcell[m] = cell2
        mfree[m] = free2
        mboth[m] = both
        mgap[m] = d + 1 - (md_p - md[j, t] + md[j, to])
        m += 1
    return m


@njit(cache=True, inline="always")
def _stored_move(p, ps, j, t, to, free, free_m, w, tile_at, tile_at_m, mult, scell, stile, sym):
    """Placement ``p`` (mirror image ``ps``, empty cells ``free`` and ``free_m``) after tile
    ``j`` moves from cell ``t`` into the blank's region at ``to``, as stored: ``(index, a cell
    of the blank's region now, the empty cells, whether the placement is its own mirror)``.

    With a mirror, a pair is stored once, as its smaller index (:func:`_symmetry`).
    """
    q = _moved(p, j, t, to, w, tile_at, mult)
    cell = t
    empty = (free | (np.int64(1) << t)) & ~(np.int64(1) << to)
    both = False
    if sym:
        st = scell[t]
        qs = _moved(ps, stile[j], st, scell[to], w, tile_at_m, mult)
        both = qs == q
        if qs < q:
            q = qs
            cell = st
            empty = (free_m | (np.int64(1) << st)) & ~(np.int64(1) << scell[to])
    return q, cell, empty, both


# ----------------------------------------------------------------------------------------
# layer kernels


@njit(cache=True, inline="always")
def _claim(words, nib, d, flags_next, m, geometry, moves):
    """Push: the successors in ``moves[:m]`` (:func:`_tile_moves`) still unreached join the
    next layer; returns ``(regions, cells, placements, overflow)`` reached.

    Threads write anywhere, so a region is claimed with an atomic OR: bits only
    ever go from 0 to the next layer's code, and the old value tells who was first.
    """
    block, k, n, w, not_first, not_last, nbmask, mult, md, low, scell, stile, sym = geometry
    mq, mcell, mfree, mboth, mgap = moves
    nxt = 2 - (d & 1)
    regions = 0
    cells = 0
    new = 0
    over = 0
    for i in range(m):
        q = mq[i]
        cell2 = mcell[i]
        free2 = mfree[i]
        if _code_at(np.int64(words[q]), free2, cell2) != 0:
            continue
        region2 = _flood(cell2, free2, w, not_first, not_last)
        if mboth[i]:  # a symmetric placement: a region and its mirror at once
            region2 |= _mirror_mask(region2, scell)
        old = np.int64(atomic_or(words, q, _slots(region2, free2) * nxt))
        if _code_at(old, free2, cell2) != 0:
            continue  # another thread claimed it first
        regions += 1
        cells += popcount(region2)
        flags_next[q // block] = 1
        if old == 0:
            gap = mgap[i]
            if gap > 30:
                over = 1
            atomic_or(nib, q >> 1, (gap >> 1) << (4 * (q & 1)))
            new += 1
    return regions, cells, new, over


@njit(cache=True, inline="always")
def _walk_block(
    words, nib, d, flags_next, done, blk, pull, free0, occ_m, md0, places, geometry, moves
):
    """Layer ``d`` in block ``blk``; returns ``(regions, cells, placements, overflow)`` reached.

    **Push**: the block's open regions list their moves (:func:`_tile_moves`)
    and claim the unreached successors (:func:`_claim`).  **Pull**: the block's
    unreached regions look for a neighbour in the open layer, a tile at a time,
    stopping at the first; the thread writes only its own block, and marks it
    ``done`` once nothing in it is left unreached.
    """
    block, k, n, w, not_first, not_last, nbmask, mult, md, low, scell, stile, sym = geometry
    pos, spos, tile_at, tile_at_m = places
    mq, mcell, mfree = moves[0], moves[1], moves[2]
    cur = 1 + (d & 1)
    full = (np.int64(1) << n) - 1
    e1 = n - k + 1
    regions = 0
    cells = 0
    new = 0
    over = 0
    left = False
    base = blk * block
    for off in range(block):
        p = base + off
        x = np.int64(words[p])
        todo = _with_code(x, 0 if pull else cur, low)  # the regions to reach, or to expand
        if todo == 0:
            continue
        free = _place_last_two(off, e1, free0, k, pos, tile_at)
        md_p = _md_placed(md0, pos, k, md)
        ps = 0
        free_m = 0
        if sym:
            ps, free_m = _place_mirror(pos, k, n, mult, scell, stile, spos, tile_at_m, occ_m)
            if pull and ps < p:
                words[p] = low * 3  # not stored: its mirror is; closed from now on
                continue
        reached = np.int64(0)
        m = 0
        while todo != 0:
            region = _flood(_select(free, lowest_bit(todo) >> 1), free, w, not_first, not_last)
            rs = _slots(region, free)
            todo &= ~rs
            border = _grow(region, w, not_first, not_last) & ~free & full
            found = False
            while border != 0 and not found:  # the group's tiles next to the region
                t = lowest_bit(border)
                border &= border - 1
                # push: every move, claimed after the last region; pull: a tile's at a time
                m = _tile_moves(
                    words, t, region, free, p, ps, free_m, md_p, d, geometry, places, moves,
                    0 if pull else m,
                )  # fmt: skip
                if pull:
                    for i in range(m):
                        if _code_at(np.int64(words[mq[i]]), mfree[i], mcell[i]) == cur:
                            found = True
                            break
            if found:
                reached |= rs
                regions += 1
                cells += popcount(region)
            elif pull:
                left = True
        if not pull:
            r, c, p2, o = _claim(words, nib, d, flags_next, m, geometry, moves)
            regions += r
            cells += c
            new += p2
            over = max(over, o)
        elif reached != 0:
            if x == 0:
                gap = d + 1 - md_p
                if gap > 30:
                    over = 1
                _set_nibble(nib, p, gap >> 1)
                new += 1
            words[p] = x | reached * (3 - cur)
            flags_next[blk] = 1
    if pull and not left:
        done[blk] = 1
    return regions, cells, new, over


@njit(cache=True, parallel=True)
def _layer(words, nib, d, marks, flags_next, geometry, chunks, pull):
    """Layer ``d``, pushed from the blocks ``marks`` flags, or pulled into the blocks it does
    not mark done (:func:`_walk_block`); returns ``(regions, cells,
    placements, overflow)`` reached."""
    k, n, md = geometry[1], geometry[2], geometry[8]
    scell, stile, sym = geometry[10], geometry[11], geometry[12]
    nblocks = marks.shape[0]
    counts = np.zeros((chunks, 4), np.int64)
    for ch in prange(chunks):
        places = _scratch(k, n)
        pos, spos, tile_at, tile_at_m = places
        moves = _move_list(n)
        # counted in registers, stored once: threads' rows of ``counts`` share cache lines
        regions = 0
        cells = 0
        new = 0
        over = 0
        per = spread_per(nblocks, chunks)  # blocks a range
        for i in range(per * SPREAD):
            blk = spread_block(ch, i, per, chunks)
            if blk >= nblocks or (marks[blk] != 0) == pull:  # pull: done; push: not open
                continue
            free0, occ_m = _start_block(blk, k, n, pos, tile_at, scell, stile, spos, tile_at_m, sym)
            md0 = _md(pos, k - 2, md)
            r, c, p, o = _walk_block(
                words, nib, d, flags_next, marks, blk, pull, free0, occ_m, md0, places, geometry,
                moves,
            )  # fmt: skip
            regions += r
            cells += c
            new += p
            over = max(over, o)
        counts[ch, 0] = regions
        counts[ch, 1] = cells
        counts[ch, 2] = new
        counts[ch, 3] = over
    return counts[:, 0].sum(), counts[:, 1].sum(), counts[:, 2].sum(), counts[:, 3].max()


@njit(cache=True, parallel=True)
def _widen(nib, table, block, k, n, md, mult, scell, stile, sym, chunks):
    """One byte per placement: ``md + 2 * nibble`` (the nibble of the pair's stored member)."""
    nblocks = table.shape[0] // block
    e1 = n - k + 1
    for ch in prange(chunks):
        pos, spos, tile_at, tile_at_m = _scratch(k, n)
        per = spread_per(nblocks, chunks)  # blocks a range
        for i in range(per * SPREAD):
            blk = spread_block(ch, i, per, chunks)
            if blk >= nblocks:
                continue
            free0, occ_m = _start_block(blk, k, n, pos, tile_at, scell, stile, spos, tile_at_m, sym)
            md0 = _md(pos, k - 2, md)
            base = blk * block
            for off in range(block):
                p = base + off
                _place_last_two(off, e1, free0, k, pos, tile_at)
                src = p
                if sym:
                    ps, _ = _place_mirror(pos, k, n, mult, scell, stile, spos, tile_at_m, occ_m)
                    src = min(p, ps)
                v = (nib[src >> 1] >> (4 * (src & 1))) & 0x0F
                table[p] = _md_placed(md0, pos, k, md) + 2 * v


# ----------------------------------------------------------------------------------------
# driver


def suitable(puzzle: Puzzle, codes: Sequence[int]) -> bool:
    """Whether this builder handles the group: distinct tiles, 2+ tiles, 2+ other cells."""
    n = puzzle.width * puzzle.height
    k = len(codes)
    counts = puzzle.label_counts
    return (
        all(int(counts[c]) == 1 for c in codes)
        and k >= 2
        and n - k >= 2
        and n <= 62
        and 2 * (n - k) <= 62
    )


def build_bytes(n: int, k: int) -> int:
    """Bytes the build holds: the two-bit words and the four-bit answers."""
    placements = math.perm(n, k)
    return placements * _word_dtype(n - k, placements).itemsize + (placements + 1) // 2


#: placements from which a group whose other cells' two-bit words fit 16 bits keeps them in 16
#: (the 7-8 partition's 8-tile group: 519 million, 1 GB saved); below it they take 32 bits, like
#: the 15-puzzle's 6-6-3 groups', so that one compiled build serves both (each word type is a
#: build of its own to compile: about 37 s on 2 cores)
NARROW_WORDS_FROM = 1 << 24


def narrow_words(puzzle: Puzzle, codes: Sequence[int]) -> bool:
    """Whether the group's build keeps its words in 16 bits (:data:`NARROW_WORDS_FROM`)."""
    n = puzzle.width * puzzle.height
    k = len(codes)
    return _word_dtype(n - k, math.perm(n, k)).itemsize == 2


def _word_dtype(e: int, placements: int):
    """The words of a group with ``e`` other cells (two bits each) and ``placements`` entries."""
    if 2 * e <= 16 and placements >= NARROW_WORDS_FROM:
        return np.dtype(np.uint16)
    if 2 * e <= 32:
        return np.dtype(np.uint32)
    return np.dtype(np.int64)


def _symmetry(w: int, h: int, goal_pos: np.ndarray, region: int):
    """A mirror of the board that maps the group's goal and start region onto themselves.

    Returns ``(scell, stile)``: the cell each cell goes to, and the tile each
    tile becomes (the one whose goal cell is the image of its own), or None.
    """
    n = w * h
    cells = range(n)
    candidates = [
        [(c // w) * w + (w - 1 - c % w) for c in cells],  # left-right
        [(h - 1 - c // w) * w + c % w for c in cells],
    ]  # top-bottom
    if w == h:
        candidates.append([(c % w) * w + c // w for c in cells])  # main diagonal
        candidates.append([(w - 1 - c % w) * w + (h - 1 - c // w) for c in cells])
    tile_at = {int(cell): j for j, cell in enumerate(goal_pos)}
    for scell in candidates:
        stile = [tile_at.get(scell[int(cell)]) for cell in goal_pos]
        image = sum(1 << scell[c] for c in cells if region >> c & 1)
        if None not in stile and image == region:
            return np.array(scell, dtype=np.int64), np.array(stile, dtype=np.int64)
    return None


def build_distinct_table(
    puzzle: Puzzle,
    codes: Sequence[int],
    progress: Callable[[float, str], None] | None = None,
    log: Callable[[dict], None] | None = None,
    symmetry: bool = True,
) -> np.ndarray:
    """The pattern database of a group of distinct tiles: ``uint8`` per placement.

    ``codes`` are the group's label codes, in the order that fixes the table's
    index (tile 0 most significant).  ``log`` receives one dict per layer
    (depth, mode, regions, cells, placements, seconds), for benchmarks.  With
    ``symmetry``, a group whose goal is its own mirror image stores and expands
    one state of each mirror pair (see :func:`_symmetry`).
    """
    if not suitable(puzzle, codes):
        raise SlidelabError(
            "this builder needs a group of 2 or more distinct tiles and 2 free cells"
        )
    w, h = puzzle.width, puzzle.height
    n, k = w * h, len(codes)
    e = n - k
    layout = GroupLayout([codes], puzzle.label_counts, n, len(puzzle.labels) + 1)
    placements = layout.sizes[0]  # n (n-1) ... (n-k+1): the group index of the lookups
    mult = np.ascontiguousarray(layout.mult[0, :k])
    block = (e + 2) * (e + 1)
    goal = puzzle.goal_codes
    home = {int(goal[c]): c for c in range(n)}
    goal_pos = np.array([home[c] for c in codes], dtype=np.int64)
    md = np.ascontiguousarray(taxicab_table(goal, w)[list(codes)])
    nbmask = np.zeros(n, dtype=np.int64)
    for c in range(n):
        for nb in puzzle.neighbours[c]:
            if nb >= 0:
                nbmask[c] |= 1 << int(nb)
    first_col = sum(1 << (r * w) for r in range(h))
    last_col = first_col << (w - 1)
    full = (1 << n) - 1
    not_first, not_last = full & ~first_col, full & ~last_col
    low = sum(1 << (2 * s) for s in range(e))

    words = np.zeros(placements, dtype=_word_dtype(e, placements))
    nib = np.zeros((placements + 1) // 2, dtype=np.uint8)
    # Touch every page now: first touches scattered over the layers cost a page
    # fault each, taken one at a time by the kernel even with several threads.
    words[:] = 0
    nib[:] = 0
    start = _index(goal_pos, k, mult)
    occ = 0
    for c in goal_pos:
        occ |= 1 << int(c)
    free = full & ~occ
    region = int(_flood(int(puzzle.goal.blank), free, w, not_first, not_last))
    words[start] = int(_slots(region, free))  # depth 0: code 1, the blank's region at the goal
    mirror = _symmetry(w, h, goal_pos, region) if symmetry else None
    scell, stile = mirror if mirror is not None else (np.arange(n), np.arange(k))
    geometry = (
        block,
        k,
        n,
        w,
        not_first,
        not_last,
        nbmask,
        mult,
        md,
        low,
        scell,
        stile,
        mirror is not None,
    )
    previous_chunksize = numba.set_parallel_chunksize(1)  # hand out chunks dynamically
    try:
        _layers(words, nib, start, geometry, progress, log)
        del words  # the two-bit array goes before the byte table comes
        table = np.empty(placements, dtype=np.uint8)
        _widen(nib, table, block, k, n, md, mult, scell, stile, mirror is not None, CHUNKS)
    finally:
        numba.set_parallel_chunksize(previous_chunksize)
    return table


def _layers(words, nib, start, geometry, progress, log):
    """Breadth-first layers until one comes out empty (:func:`slidelab.tables.driver.breadth_first`)."""
    block, k, n = geometry[:3]
    low, sym = geometry[9], geometry[12]
    placements = words.shape[0]
    reached = [1]

    def expand(d, pull, size, flags_cur, flags_next, done):
        return _layer(
            words, nib, d, done if pull else flags_cur, flags_next, geometry, CHUNKS, pull
        )

    def close(flags, code, size):
        close_layer(words, flags, block, code, low, CHUNKS)

    def on_layer(depth, pull, result, seconds):
        regions, cells, new, overflow = result
        if overflow:
            raise SlidelabError(
                "pattern database values exceed the group's Manhattan distance"
                " by more than 30 moves; use smaller groups"
            )
        reached[0] += int(new)
        if log is not None:
            log(
                {
                    "depth": depth,
                    "mirror": bool(sym),
                    "mode": "pull" if pull else "push",
                    "regions": int(regions),
                    "cells": int(cells),
                    "placements": int(new),
                    "seconds": seconds,
                }
            )
        if progress is not None:
            seen = (
                min(placements, 2 * reached[0]) if sym else reached[0]
            )  # mirror pairs stored once
            progress(seen / placements, f"depth {depth}, {seen:,} of {placements:,} placements")

    # The search ends with an empty layer.  With two free cells some placements can be
    # unreachable (parity); they keep the Manhattan distance, a value no search ever looks up.
    breadth_first(
        placements // block,
        start // block,
        expand,
        close,
        on_layer=on_layer,
        unseen=placements * (n - k) // (2 if sym else 1),  # about half are stored with a mirror
        pull_ratio=PULL_RATIO_MIRROR if sym else PULL_RATIO,
    )
