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

from ..._bits import HAS_BMI2, atomic_or, lowest_bit, pdep, pext, popcount, prefetch
from ..._bits import with_code as _with_code
from ..._jit import njit
from ...errors import SlidelabError
from ...geometry import taxicab_table
from ...puzzle import Puzzle
from ..driver import SPREAD, breadth_first, spread_block, spread_per
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


#: boards of at most this many cells look their regions up (:func:`_region_labels`)
LABELLED_CELLS = 16
#: bit 0 of each of 16 nibbles
NIBBLES = 0x1111111111111111


@njit(cache=True)
def _region_labels(n, w, not_first, not_last):
    """For each set of empty cells of a board of ``n <= 16`` cells (a bit mask), the region of
    each cell as a nibble: regions numbered from 0, 15 on the other cells (:func:`_region`)."""
    labels = np.zeros(1 << n, np.int64)
    for free in range(1 << n):
        word = np.int64(0)
        left = np.int64(free)
        count = 0
        for c in range(n):
            if (left >> c) & 1:
                region = _flood(c, np.int64(free), w, not_first, not_last)
                left &= ~region
                r = region
                while r != 0:
                    word |= np.int64(count) << (4 * lowest_bit(r))
                    r &= r - 1
                count += 1
            elif not (free >> c) & 1:
                word |= np.int64(15) << (4 * c)
        labels[free] = word
    return labels


@njit(cache=True, inline="always")
def _region(cell, free, geometry):
    """The connected region of ``free`` cells containing ``cell``: looked up where the board
    has a table of them (16 cells or fewer: one load, no loop), else flooded."""
    w, not_first, not_last, labels = geometry[3], geometry[4], geometry[5], geometry[16]
    if labels.shape[0] == 0:
        return _flood(cell, free, w, not_first, not_last)
    word = labels[free]
    x = word ^ (((word >> (4 * cell)) & 15) * NIBBLES)  # 0 in the nibbles of the cell's region
    x |= x >> 1
    x |= x >> 2
    return pext(~x & NIBBLES, NIBBLES)


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
    # Without branches (which tile stands there is anyone's guess), and a load from the same
    # table whatever it is: the later tiles' multipliers summed as mult[max(i, j)], less
    # mult[j] for each cell that holds none.
    later = np.int64(0)
    earlier = np.int64(0)
    q = np.int64(0)
    for c in range(lo + 1, hi):
        i = tile_at[c]
        q += mult[max(i, j)]
        later += i > j
        earlier += (i >= 0) & (i < j)
    q += (1 + later - earlier) * mult[j]  # (w - earlier) steps, less (w - 1 - later) extra
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
    placements are consecutive indices, and :func:`_put_last_two` puts the
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
def _mirror_base(k, n, mult, stile, spos, mtab):
    """The index of a placement's mirror image, summed up for a block (after
    :func:`_start_block`): returns the part of the tiles whose images stay put in the block
    (all but ``stile[k-2]`` and ``stile[k-1]``, the images of the last two), and fills
    ``mtab[c]`` (``mtab[n + c]``) with what tile ``stile[k-2]`` (``stile[k-1]``) on cell ``c``
    adds: its own digit, less the tiles before it below ``c``, and one less in the digit of
    each later tile above ``c`` (:func:`_place_mirror` adds them up)."""
    ta = stile[k - 2]
    tb = stile[k - 1]
    base = np.int64(0)
    seen = np.int64(0)
    for i in range(k):
        if i != ta and i != tb:
            c = spos[i]
            base += (c - popcount(seen & ((np.int64(1) << c) - 1))) * mult[i]
            seen |= np.int64(1) << c
    for h in range(2):
        t = ta if h == 0 else tb
        before = np.int64(0)  # the cells of the staying tiles before t
        for i in range(t):
            if i != ta and i != tb:
                before |= np.int64(1) << spos[i]
        for c in range(n):
            v = (c - popcount(before & ((np.int64(1) << c) - 1))) * mult[t]
            for i in range(t + 1, k):
                if i != ta and i != tb and c < spos[i]:
                    v -= mult[i]
            mtab[h * n + c] = v
    return base


@njit(cache=True, inline="always")
def _place_mirror(pos, k, n, mult, scell, stile, spos, tile_at_m, occ_m, mbase, mtab):
    """After :func:`_put_last_two`, the mirror images of the last two tiles in ``spos`` and
    ``tile_at_m``; returns the mirrored placement's index (each move's mirror image is then one
    :func:`_moved` from it) and its empty cells (``occ_m``: the other tiles' images, from
    :func:`_start_block`; ``mbase`` and ``mtab``: the block's sums, :func:`_mirror_base`)."""
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
    ps = mbase + mtab[ma] + mtab[n + mb]
    if ta < tb:  # the later of the two is one lower where the earlier is below it
        ps -= mult[tb] * (ma < mb)
    else:
        ps -= mult[ta] * (mb < ma)
    return ps, free_m


@njit(cache=True, inline="always")
def _md(pos, k, md):
    total = 0
    for j in range(k):
        total += md[j, pos[j]]
    return total


@njit(cache=True, inline="always")
def _set_nibble(nib, p, value):
    byte = p >> 1
    if p & 1:
        nib[byte] = (nib[byte] & 0x0F) | (value << 4)
    else:
        nib[byte] = (nib[byte] & 0xF0) | value


@njit(cache=True, inline="always")
def _scratch(k, n):
    """A thread's ``(pos, spos, tile_at, tile_at_m, mtab)``: the cells of the group's tiles
    and the tile on each cell (-1: empty), of a placement and of its mirror image, and the
    block's table of mirror indices (:func:`_mirror_base`)."""
    return (
        np.zeros(k, np.int64),
        np.zeros(k, np.int64),
        np.full(n, -1, np.int64),
        np.full(n, -1, np.int64),
        np.zeros(2 * n, np.int64),
    )


@njit(cache=True, inline="always")
def _put_last_two(a, b, rest, k, pos, tile_at):
    """Put tiles ``k-2`` and ``k-1`` on cells ``a`` and ``b`` (see :func:`_start_block`),
    clearing their old cells in ``tile_at``; ``rest``: the block's free cells less ``a``.
    Returns the empty cells."""
    if pos[k - 2] >= 0:
        tile_at[pos[k - 2]] = -1
        tile_at[pos[k - 1]] = -1
    pos[k - 2] = a
    pos[k - 1] = b
    tile_at[a] = k - 2
    tile_at[b] = k - 1
    return rest & ~(np.int64(1) << b)


# ----------------------------------------------------------------------------------------
# layer kernels


@njit(cache=True, inline="always")
def _successor(p, ps, j, t, to, free, free_m, pos, tile_at, tile_at_m, geometry, SYM):
    """Placement ``p`` (mirror image ``ps``, empty cells ``free`` and ``free_m``) after tile
    ``j`` moves from cell ``t`` into the blank's region at ``to``, as stored: ``(index, a cell
    of the blank's region now, the empty cells, whether the placement is its own mirror)``.

    With a mirror, a pair is stored once, as its smaller index (:func:`_symmetry`).  Where tiles
    0 and 1 are a mirror pair (``paired``), their cells tell which member that is without
    ranking both: tile 0's cell is the index's first digit, and the mirror image's is the image
    of tile 1's cell; only where the two are equal are both ranked.
    """
    w, mult, paired = geometry[3], geometry[7], geometry[13]
    scell, stile = geometry[10], geometry[11]
    empty = (free | (np.int64(1) << t)) & ~(np.int64(1) << to)
    if not SYM:
        return _moved(p, j, t, to, w, tile_at, mult), t, empty, False
    side = 0  # < 0: this placement is stored; > 0: its mirror image; 0: rank both
    if paired:
        c0 = to if j == 0 else pos[0]
        c1 = to if j == 1 else pos[1]
        side = c0 - scell[c1]
    st = scell[t]
    sto = scell[to]
    if side > 0:
        empty_m = (free_m | (np.int64(1) << st)) & ~(np.int64(1) << sto)
        return _moved(ps, stile[j], st, sto, w, tile_at_m, mult), st, empty_m, False
    q = _moved(p, j, t, to, w, tile_at, mult)
    if side < 0:
        return q, t, empty, False
    qs = _moved(ps, stile[j], st, sto, w, tile_at_m, mult)
    if qs < q:
        empty_m = (free_m | (np.int64(1) << st)) & ~(np.int64(1) << sto)
        return qs, st, empty_m, False
    return q, t, empty, qs == q


@njit(cache=True, inline="always")
def _claim(words, nib, d, flags_next, q, cell2, free2, both, gap, geometry):
    """Push: claim the region of ``cell2`` in placement ``q`` (empty cells ``free2``) for the
    next layer; returns ``(regions, cells, placements, overflow)`` reached (all 0 when another
    thread was first).

    Threads write anywhere, so a region is claimed with an atomic OR: bits only
    ever go from 0 to the next layer's code, and the old value tells who was first.
    """
    scell = geometry[10]
    div_mul, div_shift = geometry[14], geometry[15]
    nxt = 2 - (d & 1)
    region2 = _region(cell2, free2, geometry)
    if both:  # a symmetric placement: a region and its mirror at once
        region2 |= _mirror_mask(region2, scell)
    old = np.int64(atomic_or(words, q, _slots(region2, free2) * nxt))
    if _code_at(old, free2, cell2) != 0:
        return 0, 0, 0, 0  # another thread claimed it first
    flags_next[(q * div_mul) >> div_shift] = 1  # q // block
    if old != 0:
        return 1, popcount(region2), 0, 0
    atomic_or(nib, q >> 1, (gap >> 1) << (4 * (q & 1)))
    return 1, popcount(region2), 1, 1 if gap > 30 else 0


@njit(cache=True, inline="always")
def _tile_moves(
    words, nib, d, t, region, p, ps, free, free_m, md_p, pos, tile_at, tile_at_m, geometry, moves,
    m, PULL, SYM,
):  # fmt: skip
    """The moves of the group tile on cell ``t`` into ``region`` of placement ``p`` (a move's
    successor is a neighbour either way: reached from ``p``, or a state from which ``p`` is
    reached).  Push: added to the list ``moves`` from entry ``m`` on, their words asked for
    (prefetch: the list's reads then overlap their waits for memory), returning the list's new
    length.  Pull: returns 1 at the first successor in the open layer, else 0."""
    nbmask, md = geometry[6], geometry[8]
    mq, mfree, mrest = moves[0], moves[1], moves[2]
    cur = 1 + (d & 1)
    j = tile_at[t]
    adj = nbmask[t] & region
    while adj != 0:
        to = lowest_bit(adj)
        adj &= adj - 1
        q, cell2, free2, both = _successor(
            p, ps, j, t, to, free, free_m, pos, tile_at, tile_at_m, geometry, SYM
        )
        if PULL:
            if _code_at(np.int64(words[q]), free2, cell2) == cur:
                return 1
        else:
            prefetch(words, q)
            prefetch(nib, q >> 1)  # for a new placement's answer: an atomic OR waits for it
            mq[m] = q
            mfree[m] = free2
            gap = d + 1 - (md_p - md[j, t] + md[j, to])  # the depth less the successor's md
            mrest[m] = cell2 | (np.int64(both) << 8) | (gap << 16)
            m += 1
    return 0 if PULL else m


@njit(cache=True, inline="always")
def _claim_all(words, nib, d, flags_next, geometry, moves, lo, hi):
    """Push: the successors in ``moves[lo:hi]`` (:func:`_tile_moves`) still unreached join the
    next layer (:func:`_claim`); returns ``(regions, cells, placements, overflow)`` reached."""
    mq, mfree, mrest = moves[0], moves[1], moves[2]
    regions = 0
    cells = 0
    new = 0
    over = 0
    for i in range(lo, hi):
        q = mq[i]
        free2 = mfree[i]
        rest = mrest[i]
        cell2 = rest & 0xFF
        if _code_at(np.int64(words[q]), free2, cell2) != 0:
            continue
        r, c, n2, o = _claim(
            words, nib, d, flags_next, q, cell2, free2, (rest >> 8) & 1, rest >> 16, geometry
        )
        regions += r
        cells += c
        new += n2
        over = max(over, o)
    return regions, cells, new, over


@njit(cache=True, inline="always")
def _walk_block(
    words, nib, d, flags_next, done, blk, free0, occ_m, mbase, md0, places, moves, geometry, PULL,
    SYM,
):  # fmt: skip
    """Layer ``d`` in block ``blk``; returns ``(regions, cells, placements, overflow)`` reached.

    **Push**: each region of the open layer makes its moves (:func:`_tile_moves`)
    and claims the unreached successors, and is closed (code 3) once expanded: no
    other thread writes its word in this layer (a move changes the parity of the
    group's Manhattan distance, and a placement's regions all share the parity
    of its depth), so the layer is closed as it goes, not in a pass of its own.
    **Pull**: the block's unreached regions whose placement can be reached in
    this layer (the parity again: the other half cannot, and is skipped) look
    for a neighbour in the open layer, a tile at a time, stopping at the first;
    the thread writes only its own block, and marks it ``done`` once nothing in
    it is left unreached.  A pulled layer is not closed: its code comes back two
    layers on, where it can only be read as a neighbour of a region reached
    long before, or expanded again by a push that finds nothing new.
    """
    block, k, n, w, not_first, not_last = geometry[:6]
    md, low, paired = geometry[8], geometry[9], geometry[13]
    scell, stile = geometry[10], geometry[11]
    pos, spos, tile_at, tile_at_m, mtab = places
    pipe = moves[3]
    mult = geometry[7]
    cur = 1 + (d & 1)
    full = (np.int64(1) << n) - 1
    e1 = n - k + 1
    regions = 0
    cells = 0
    new = 0
    over = 0
    left = False
    # pull: does this block hold placements whose mirror image is the stored one?
    mixed = SYM and (not paired or pos[0] == scell[pos[1]])
    base = blk * block
    for ia in range(e1 + 1):  # tile k-2 on the ia-th free cell, tile k-1 on the ib-th after it
        a = _select(free0, ia)
        rest = free0 & ~(np.int64(1) << a)
        row = base + ia * e1
        for ib in range(e1):
            p = row + ib
            x = np.int64(words[p])
            todo = _with_code(x, 0 if PULL else cur, low)  # the regions to reach, or to expand
            if todo == 0:
                continue
            b = _select(rest, ib)
            free = _put_last_two(a, b, rest, k, pos, tile_at)
            md_p = md0 + md[k - 2, a] + md[k - 1, b]
            if PULL and ((md_p ^ (d + 1)) & 1) != 0:
                left = True  # reached at a depth of the other parity
                continue
            ps = np.int64(0)
            free_m = np.int64(0)
            if SYM:
                ps, free_m = _place_mirror(
                    pos, k, n, mult, scell, stile, spos, tile_at_m, occ_m, mbase, mtab
                )
                if PULL and mixed and ps < p:
                    words[p] = low * 3  # not stored: its mirror is; closed from now on
                    continue
            expand = todo
            reached = np.int64(0)
            half = pipe[0]  # push: the half of the list for this placement's moves
            m = half * 4 * n
            while todo != 0:
                region = _region(_select(free, lowest_bit(todo) >> 1), free, geometry)
                rs = _slots(region, free)
                todo &= ~rs
                border = _grow(region, w, not_first, not_last) & ~free & full
                found = 0
                while border != 0:  # the group's tiles next to the region
                    t = lowest_bit(border)
                    border &= border - 1
                    r = _tile_moves(
                        words, nib, d, t, region, p, ps, free, free_m, md_p, pos, tile_at,
                        tile_at_m, geometry, moves, m, PULL, SYM,
                    )  # fmt: skip
                    if PULL:
                        if r != 0:
                            found = 1
                            break
                    else:
                        m = r
                if PULL:
                    if found:
                        reached |= rs
                        regions += 1
                        cells += popcount(region)
                    else:
                        left = True
            if not PULL:
                words[p] = x | expand * 3  # expanded: closed
                # the moves of the placement before, whose words had this one's time to come
                lo = (1 - half) * 4 * n
                r, c, n2, o = _claim_all(
                    words, nib, d, flags_next, geometry, moves, lo, lo + pipe[1]
                )
                pipe[0] = 1 - half
                pipe[1] = m - half * 4 * n
                regions += r
                cells += c
                new += n2
                over = max(over, o)
            elif reached != 0:
                if x == 0:
                    gap = d + 1 - md_p
                    if gap > 30:
                        over = 1
                    _set_nibble(nib, p, gap >> 1)  # p and p ^ 1 are in this block: no race
                    new += 1
                words[p] = x | reached * (2 - (d & 1))
                flags_next[blk] = 1
    if PULL and not left:
        done[blk] = 1
    return regions, cells, new, over


@njit(cache=True, inline="always")
def _walk_chunk(a, PULL, SYM):
    """Chunk ``ch``'s blocks of layer ``d``: pushed from the blocks ``marks`` flags, or pulled
    into the blocks it does not mark done (:func:`_walk_block`); ``places`` and ``moves``: the
    thread's scratch arrays (:func:`_scratch`, :func:`_move_list`)."""
    words, nib, d, marks, flags_next, geometry, ch, chunks, places, moves = a
    k, n, md = geometry[1], geometry[2], geometry[8]
    scell, stile = geometry[10], geometry[11]
    nblocks = marks.shape[0]
    pos, spos, tile_at, tile_at_m, mtab = places
    mult = geometry[7]
    regions = 0
    cells = 0
    new = 0
    over = 0
    per = spread_per(nblocks, chunks)  # blocks a range
    for i in range(per * SPREAD):
        blk = spread_block(ch, i, per, chunks)
        if blk >= nblocks or (marks[blk] != 0) == PULL:  # pull: done; push: not open
            continue
        free0, occ_m = _start_block(blk, k, n, pos, tile_at, scell, stile, spos, tile_at_m, SYM)
        md0 = _md(pos, k - 2, md)
        mbase = _mirror_base(k, n, mult, stile, spos, mtab) if SYM else np.int64(0)
        r, c, p, o = _walk_block(
            words, nib, d, flags_next, marks, blk, free0, occ_m, mbase, md0, places, moves,
            geometry, PULL, SYM,
        )  # fmt: skip
        regions += r
        cells += c
        new += p
        over = max(over, o)
    pipe = moves[3]
    if not PULL and pipe[1] != 0:  # the last placement's moves
        lo = (1 - pipe[0]) * 4 * n
        r, c, p, o = _claim_all(words, nib, d, flags_next, geometry, moves, lo, lo + pipe[1])
        pipe[1] = 0
        regions += r
        cells += c
        new += p
        over = max(over, o)
    return regions, cells, new, over


@njit(cache=True, _nrt=False)
def _walk_kind(words, nib, d, marks, flags_next, geometry, ch, chunks, places, moves, pull):
    """:func:`_walk_chunk`, inlined once for each way (push, pull) and with or without a mirror,
    those flags constants there.  Compiled without numba's reference counting: it allocates
    nothing, and the counts of the arrays handed down the inlined helpers cost a tenth of the
    build (an atomic increment and decrement each, a dozen arrays a placement)."""
    a = (words, nib, d, marks, flags_next, geometry, ch, chunks, places, moves)
    if pull:
        if geometry[12]:
            return _walk_chunk(a, True, True)
        return _walk_chunk(a, True, False)
    if geometry[12]:
        return _walk_chunk(a, False, True)
    return _walk_chunk(a, False, False)


@njit(cache=True, inline="always")
def _move_list(n):
    """A thread's lists of moves (at most four a cell) of two placements, three numbers each:
    the successor's index, its empty cells, and a cell of its blank's region, whether it is its
    own mirror image and its depth less Manhattan distance, packed (:func:`_tile_moves`); and
    which half is filled next and how many moves wait in the other (:func:`_walk_block`)."""
    m = 8 * n
    return (
        np.zeros(m, np.int64),
        np.zeros(m, np.int64),
        np.zeros(m, np.int64),
        np.zeros(2, np.int64),
    )


@njit(cache=True, parallel=True)
def _layer(words, nib, d, marks, flags_next, geometry, chunks, pull):
    """Layer ``d``, pushed from the blocks ``marks`` flags, or pulled into the blocks it does
    not mark done (:func:`_walk_block`); returns ``(regions, cells, placements, overflow)``
    reached."""
    k, n = geometry[1], geometry[2]
    counts = np.zeros((chunks, 4), np.int64)
    for ch in prange(chunks):
        places = _scratch(k, n)
        moves = _move_list(n)
        r, c, p, o = _walk_kind(
            words, nib, d, marks, flags_next, geometry, ch, chunks, places, moves, pull
        )
        counts[ch, 0] = r
        counts[ch, 1] = c
        counts[ch, 2] = p
        counts[ch, 3] = o
    return counts[:, 0].sum(), counts[:, 1].sum(), counts[:, 2].sum(), counts[:, 3].max()


@njit(cache=True, parallel=True)
def _widen(nib, table, geometry, order, chunks):
    """One byte per placement: ``md + 2 * nibble`` (the nibble of the pair's stored member).

    The search numbered the placements with the group's tiles in its own order (tile ``i`` is
    the table's tile ``order[i]``: :func:`_build_order`), the last two tiles the table's, so a
    block of the search is a block of the table, its placements in the same order."""
    block, k, n, mult, md = geometry[0], geometry[1], geometry[2], geometry[7], geometry[8]
    scell, stile, sym, paired = geometry[10], geometry[11], geometry[12], geometry[13]
    nblocks = table.shape[0] // block
    e1 = n - k + 1
    # the table's index: tile order[i] most significant first, each digit its cell less the
    # cells of the tiles before it below
    tmult = np.zeros(k, np.int64)
    size = np.int64(1)
    for j in range(k - 1, -1, -1):
        tmult[j] = size
        size *= n - j
    for ch in prange(chunks):
        pos, spos, tile_at, tile_at_m, mtab = _scratch(k, n)
        tpos = np.zeros(k, np.int64)
        per = spread_per(nblocks, chunks)  # blocks a range
        for i in range(per * SPREAD):
            blk = spread_block(ch, i, per, chunks)
            if blk >= nblocks:
                continue
            free0, occ_m = _start_block(blk, k, n, pos, tile_at, scell, stile, spos, tile_at_m, sym)
            md0 = _md(pos, k - 2, md)
            for j in range(k - 2):
                tpos[order[j]] = pos[j]
            out = _index(tpos, k - 2, tmult)  # the table's block, times the block's size
            # paired: tiles 0 and 1 tell which member of each pair the block stores (_successor)
            side = pos[0] - scell[pos[1]] if paired else 0
            mirrored = sym and side >= 0
            mbase = _mirror_base(k, n, mult, stile, spos, mtab) if mirrored else np.int64(0)
            base = blk * block
            for ia in range(e1 + 1):
                a = _select(free0, ia)
                rest = free0 & ~(np.int64(1) << a)
                for ib in range(e1):
                    b = _select(rest, ib)
                    off = ia * e1 + ib
                    src = base + off
                    if mirrored:
                        _put_last_two(a, b, rest, k, pos, tile_at)
                        ps, _ = _place_mirror(
                            pos, k, n, mult, scell, stile, spos, tile_at_m, occ_m, mbase, mtab
                        )
                        src = ps if side > 0 else min(src, ps)
                    v = (nib[src >> 1] >> (4 * (src & 1))) & 0x0F
                    table[out + off] = md0 + md[k - 2, a] + md[k - 1, b] + 2 * v


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


def build_bytes(n: int, k: int, stored: float = 1.0) -> int:
    """Bytes the build holds at its peak: the two-bit words and the four-bit answers of the
    placements it stores (``stored``, a share: about half with a mirror,
    :func:`stored_share`), then those answers and the byte table."""
    placements = math.perm(n, k)
    kept = math.ceil(placements * stored)
    answers = (kept + 1) // 2
    return max(kept * _word_dtype(n - k).itemsize, placements) + answers


def _word_dtype(e: int):
    if 2 * e <= 16:
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


def _build_order(stile) -> list[int]:
    """The order of the group's tiles in the search: a mirror pair first where one is among
    the tiles before the last two, the others as in the table.

    Tile 0's cell is the first digit of a placement's index and its mirror image's is the
    image of tile 1's cell: with a pair first, the stored members (the smaller index of each
    pair) fill whole ranges of ``n - 2`` choose-and-arrange placements and the others whole
    ranges too, never touched (:func:`_stored_ranges`), so a mirror halves the memory as well
    as the work.
    """
    k = len(stile)
    for a in range(k - 2):
        b = int(stile[a])
        if b != a and b < k - 2:
            return [a, b] + [j for j in range(k) if j not in (a, b)]
    return list(range(k))


def _stored_ranges(scell, mult, n) -> list[tuple[int, int]]:
    """Index ranges of a paired build holding stored placements: ``(c0, c1)``, the cells of
    tiles 0 and 1, with ``c0`` at most the image of ``c1`` (where it is the image, the range
    holds both members of its pairs)."""
    out = []
    for c0 in range(n):
        for c1 in range(n):
            if c1 != c0 and c0 <= scell[c1]:
                lo = c0 * int(mult[0]) + (c1 - (c1 > c0)) * int(mult[1])
                out.append((lo, lo + int(mult[1])))
    return out


def stored_share(puzzle: Puzzle, codes: Sequence[int]) -> float:
    """The share of a group's placements its build stores (:func:`build_bytes`): 1, or about
    half where a mirror pairs them up and a pair of tiles comes first (:func:`_build_order`)."""
    setup = _setup(puzzle, codes)
    if not setup["paired"]:
        return 1.0
    stored = sum(hi - lo for lo, hi in _stored_ranges(setup["scell"], setup["mult"], setup["n"]))
    return stored / setup["placements"]


def _setup(puzzle: Puzzle, codes: Sequence[int], symmetry: bool = True) -> dict:
    """What a build of the group needs besides its arrays (in the search's order of tiles)."""
    w, h = puzzle.width, puzzle.height
    n, k = w * h, len(codes)
    goal = puzzle.goal_codes
    home = {int(goal[c]): c for c in range(n)}
    full = (1 << n) - 1
    first_col = sum(1 << (r * w) for r in range(h))
    not_first, not_last = full & ~first_col, full & ~(first_col << (w - 1))
    occ = sum(1 << home[c] for c in codes)
    region = int(_flood(int(puzzle.goal.blank), full & ~occ, w, not_first, not_last))
    goal_pos = np.array([home[c] for c in codes], dtype=np.int64)
    mirror = _symmetry(w, h, goal_pos, region) if symmetry else None
    order = list(range(k)) if mirror is None else _build_order(mirror[1])
    codes = [codes[j] for j in order]
    layout = GroupLayout([codes], puzzle.label_counts, n, len(puzzle.labels) + 1)
    mult = np.ascontiguousarray(layout.mult[0, :k])
    goal_pos = goal_pos[order]
    if mirror is not None:  # the same mirror, its tiles renumbered
        where = {j: i for i, j in enumerate(order)}
        mirror = (mirror[0], np.array([where[int(mirror[1][j])] for j in order], dtype=np.int64))
    # tiles 0 and 1 a mirror pair, both before the last two
    paired = mirror is not None and k >= 4 and int(mirror[1][0]) == 1
    return {
        "n": n,
        "k": k,
        "w": w,
        "codes": codes,
        "order": np.array(order, dtype=np.int64),
        "placements": layout.sizes[0],
        "mult": mult,
        "goal_pos": goal_pos,
        "region": region,
        "free": full & ~occ,
        "not_first": not_first,
        "not_last": not_last,
        "mirror": mirror,
        "paired": paired,
        "scell": None if mirror is None else mirror[0],
    }


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
    s = _setup(puzzle, codes, symmetry)
    n, k, w = s["n"], s["k"], s["w"]
    e = n - k
    placements = s["placements"]  # n (n-1) ... (n-k+1): the group index of the lookups
    mult = s["mult"]
    block = (e + 2) * (e + 1)
    md = np.ascontiguousarray(taxicab_table(puzzle.goal_codes, w)[list(s["codes"])])
    nbmask = np.zeros(n, dtype=np.int64)
    for c in range(n):
        for nb in puzzle.neighbours[c]:
            if nb >= 0:
                nbmask[c] |= 1 << int(nb)
    low = sum(1 << (2 * slot) for slot in range(e))
    mirror, paired = s["mirror"], s["paired"]
    scell, stile = mirror if mirror is not None else (np.arange(n), np.arange(k))
    # q // block as (q * div_mul) >> div_shift: exact for q < 2 ** 31 (a build's placements
    # are fewer: MAX_BUILD_BYTES), with q * div_mul < 2 ** 63
    div_shift = 31 + (block - 1).bit_length()
    div_mul = -(-(1 << div_shift) // block)
    assert placements < 1 << 31 and (placements - 1) * div_mul < 1 << 63
    geometry = (
        block,
        k,
        n,
        w,
        s["not_first"],
        s["not_last"],
        nbmask,
        mult,
        md,
        low,
        scell,
        stile,
        mirror is not None,
        paired,
        div_mul,
        div_shift,
        _labels(n, w, s["not_first"], s["not_last"]),
    )

    # Untouched pages cost no memory: a paired build never touches the ranges that hold only
    # mirror images of stored placements.  The others are touched now: first touches
    # scattered over the layers cost a page fault each, taken one at a time by the kernel
    # even with several threads.
    words = np.zeros(placements, dtype=_word_dtype(e))
    nib = np.zeros((placements + 1) // 2, dtype=np.uint8)
    ranges = _stored_ranges(scell, mult, n) if paired else [(0, placements)]
    for lo, hi in ranges:
        words[lo:hi] = 0
        nib[lo >> 1 : (hi + 1) >> 1] = 0
    start = _index(s["goal_pos"], k, mult)
    words[start] = int(_slots(s["region"], s["free"]))  # depth 0: code 1, the start region
    previous_chunksize = numba.set_parallel_chunksize(1)  # hand out chunks dynamically
    try:
        _layers(words, nib, start, geometry, ranges if paired else None, progress, log)
        del words  # the two-bit array goes before the byte table comes
        table = np.empty(placements, dtype=np.uint8)
        _widen(nib, table, geometry, s["order"], CHUNKS)
    finally:
        numba.set_parallel_chunksize(previous_chunksize)
    return table


def _labels(n: int, w: int, not_first: int, not_last: int) -> np.ndarray:
    """The board's table of regions (:func:`_region_labels`), or an empty one: more than
    :data:`LABELLED_CELLS` cells, or no BMI2 (the lookup's ``pext`` would be a loop)."""
    if n > LABELLED_CELLS or not HAS_BMI2:
        return np.zeros(0, np.int64)
    return _region_labels(n, w, not_first, not_last)


def _layers(words, nib, start, geometry, stored, progress, log):
    """Breadth-first layers until one comes out empty (:func:`slidelab.tables.driver.breadth_first`);
    ``stored``: a paired build's stored ranges (the blocks outside them are done from the
    start, for pulling)."""
    block, k, n = geometry[:3]
    sym = geometry[12]
    placements = words.shape[0]
    nblocks = placements // block
    reached = [1]
    first_pull = [True]

    def expand(d, pull, size, flags_cur, flags_next, done):
        if pull and first_pull[0]:
            first_pull[0] = False
            if stored is not None:  # nothing to reach outside the stored ranges
                keep = np.zeros(nblocks, np.bool_)
                for lo, hi in stored:
                    keep[lo // block : -(-hi // block)] = True
                done[~keep] = 1
        return _layer(
            words, nib, d, done if pull else flags_cur, flags_next, geometry, CHUNKS, pull
        )

    def close(flags, code, size):
        pass  # a push closes the regions it expands; a pull leaves harmless codes (_walk_block)

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
        nblocks,
        start // block,
        expand,
        close,
        on_layer=on_layer,
        unseen=placements * (n - k) // (2 if sym else 1),  # about half are stored with a mirror
        pull_ratio=PULL_RATIO_MIRROR if sym else PULL_RATIO,
    )
