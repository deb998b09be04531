"""Building a distinct-tile pattern database by sets of cells, two bits per state, on every core.

The search runs over *states* ``(cells, arrangement, blank region)``: the set
``S`` of cells the group's ``k`` tiles stand on, which tile stands on which of
them, and which connected region of the other cells holds the blank (moving
the blank through non-group cells costs nothing, so only the region matters).
Moving a group tile into the blank's region costs 1.

**Why by sets.**  A move depends on the cells only: the tile on cell ``c``
moving to the empty cell ``c'`` of the blank's region takes *every*
arrangement over ``S`` to an arrangement over ``S' = S - c + c'`` in the same
way.  Number the ``k`` cells of a set in board order (*slots*) and the
arrangements by the slot of each tile (a Lehmer code, tile 0 most
significant): the move takes the tile in slot ``a`` to slot ``b`` and shifts
the tiles in between by one, a fixed permutation of the ``k!`` arrangement
numbers for each pair ``(a, b)`` (:func:`_rotations`, a table each; a sideways
move keeps every slot, ``a == b``).  So the states of one ``(set, region)`` are
one *row* of ``k!`` bits, a layer of the search is rows of bits, and a move is
a row's bits permuted into another row.  Every row a thread writes is a few
kilobytes held in its cache (5 KB for 8 tiles); nothing is read or written at
random across the whole table, which is what made the search by placements
slow (on the 15-puzzle's 8-tile group: 112 s before, about 10 s now).

**Layers.**  Two bits per state in two bit planes, the breadth-first driver's
codes (:mod:`slidelab.tables.driver`: 0 unreached, 1 and 2 the open layers
by parity, 3 closed).  Each layer is *pulled* into every row that still holds
unreached states, from the rows with a move into it whose open layer is not
empty, so that each thread writes only its own rows; the layer before is
closed after.

**The answer** of a placement is the depth at which its first region is
reached.  It is kept, a byte per placement, in an order of its own (the
cell of tile 0, the set, the arrangement of the others), and turned into the
order the searches look up (:func:`.layout.placement_index`) at the end, one
cell of tile 0 at a time, each part's memory given back once it is turned
(:func:`_convert`): the build's peak is the bit planes and one byte per
placement (the 15-puzzle's 8-tile group: about 0.9 GB).

**Regions above the least** (``zero_aware=True``).  A placement's count with the blank in a
given region is the depth at which that row reached it; it is above the placement's answer by
an even number (a group tile's move flips how many of the group stand on cells of one colour;
the blank's moves do not).  A third bit plane marks each state first reached after its
placement was, in another region; at the end those bits are turned into the searches' order, a
bit per region of the cells the group leaves free (:func:`_convert_above`): "2 more with the
blank in this region", the regions numbered as :func:`_sets` finds them (from the lowest free
cell up), and after the bits, the region of each cell for each set of cells (a byte each), so
that a look-up finds the blank's region from the group's cells.  The top bit of the placement's
byte (:data:`ABOVE`) says whether it has any bit set, so that a look-up reads the bits only then
(a sixth of the 24-puzzle's 6-tile placements have some).
Zero-aware tables (Clausecker and Reinefeld) took 43 % of the nodes off Korf's 100 in a
prototype (``benchmarks/zero_aware.py``); the 7-8 build takes 31-34 s instead of 19 s with them.
"""

from __future__ import annotations

import math
import mmap
import time
from collections.abc import Callable, Sequence

import numba
import numpy as np
from numba import prange

from ..._bits import lowest_bit, pdep, pext, popcount
from ..._jit import njit
from ...errors import SlidelabError
from ...geometry import taxicab_table
from ...puzzle import Puzzle
from .layout import GroupLayout
from .layout import placement_index as _arrangement_rank  # slots ranked as cells are

#: the most tiles a group built here may have: a row is ``k!`` bits, and each pair of slots
#: a move can join is a table of ``k!`` arrangement numbers (9 tiles: 362,880 a table)
MAX_TILES = 9
#: sets of cells a parallel task takes at a time
SETS_PER_TASK = 16
#: unreached marker of the answers
UNSEEN = 255
#: pages of the answers, for giving them back part by part
PAGE = mmap.PAGESIZE
#: the top bit of a zero-aware table's entry: its placement has a region above the least (some
#: bit of its own set), so a look-up reads its bits only then; the entry's value is the other
#: seven bits (:data:`.build.MAX_TABLE_DISTANCE` is below 128)
ABOVE = 0x80
#: the entry's value without :data:`ABOVE`
VALUE = 0x7F
#: the region byte of a cell the set's tiles stand on
OUTSIDE = 0xFF


# ----------------------------------------------------------------------------------------
# arrangements and sets


@njit(cache=True, inline="always")
def _select(mask, i):
    """The cell of the ``i``-th set bit of ``mask``."""
    return lowest_bit(pdep(np.int64(1) << i, mask))


@njit(cache=True, inline="always")
def _arrangement(r, k, F, slot):
    """The slot of each tile in arrangement number ``r`` into ``slot`` (the inverse of
    :func:`_arrangement_rank` on slots)."""
    everything = (np.int64(1) << k) - 1
    taken = np.int64(0)
    rest = r
    for j in range(k):
        s = _select(everything & ~taken, rest // F[j])
        rest %= F[j]
        taken |= np.int64(1) << s
        slot[j] = s


@njit(cache=True)
def _rotations(k, F, pairs):
    """``rot[t, r]``: the number of arrangement ``r`` once the tile in slot ``a`` moves to
    slot ``b`` and the tiles between shift by one (``pairs[t] = (a, b)``)."""
    K = F[0] * k
    rot = np.empty((pairs.shape[0], K), np.int32)
    slot = np.zeros(k, np.int64)
    for t in range(pairs.shape[0]):
        a = pairs[t, 0]
        b = pairs[t, 1]
        for r in range(K):
            _arrangement(r, k, F, slot)
            for j in range(k):
                s = slot[j]
                if s == a:
                    s = b
                elif a < s <= b:
                    s -= 1
                elif b <= s < a:
                    s += 1
                slot[j] = s
            rot[t, r] = _arrangement_rank(slot, k, F)
    return rot


@njit(cache=True, inline="always")
def set_rank(mask, binom):
    """Rank of a set of cells among the sets of as many cells, in increasing order of mask."""
    r = np.int64(0)
    i = 1
    m = mask
    while m != 0:
        r += binom[lowest_bit(m), i]
        m &= m - 1
        i += 1
    return r


@njit(cache=True)
def _sets(total, n, k, w, not_first, not_last):
    """Every set of ``k`` of the ``n`` cells in rank order (``total`` of them), the region
    of each other cell (``regions[s, c]``, -1 on the set's cells), and the first row of
    each set's regions (a row per set and region; ``first[total]`` rows in all)."""
    masks = np.empty(total, np.int64)
    regions = np.full((total, n), -1, np.int8)
    first = np.zeros(total + 1, np.int64)
    x = (np.int64(1) << k) - 1
    full = (np.int64(1) << n) - 1
    for s in range(total):
        masks[s] = x
        free = full & ~x
        count = 0
        while free != 0:
            r = free & -free
            while True:  # flood the region of the lowest free cell
                g = r | (r << w) | (r >> w) | ((r << 1) & not_first) | ((r >> 1) & not_last)
                g &= full & ~x
                if g == r:
                    break
                r = g
            free &= ~r
            while r != 0:
                regions[s, lowest_bit(r)] = count
                r &= r - 1
            count += 1
        first[s + 1] = first[s] + count
        if s + 1 < total:  # the next set of k cells (Gosper)
            low = x & -x
            up = x + low
            x = (((up ^ x) >> 2) // low) | up
    return masks, regions, first


@njit(cache=True)
def _moves(masks, regions, first, n, nbmask, binom, pair):
    """The moves into each row, as ``(start, source, kind)``: row ``i``'s are
    ``source[start[i]:start[i + 1]]``, each a row whose bits the rotation ``kind`` takes
    into row ``i`` (-1: a sideways move, the same numbers)."""
    total = masks.shape[0]
    rows = first[total]
    start = np.zeros(rows + 1, np.int64)
    source = np.empty(0, np.int64)
    kind = np.empty(0, np.int32)
    fill = np.empty(0, np.int64)
    for count_only in (True, False):
        if not count_only:
            for i in range(rows):
                start[i + 1] += start[i]
            source = np.empty(start[rows], np.int64)
            kind = np.empty(start[rows], np.int32)
            fill = start[:rows].copy()
        for s in range(total):
            S = masks[s]
            m = S
            while m != 0:
                c = lowest_bit(m)
                m &= m - 1
                a = popcount(S & ((np.int64(1) << c) - 1))
                free = nbmask[c] & ~S
                while free != 0:
                    c2 = lowest_bit(free)
                    free &= free - 1
                    S2 = (S & ~(np.int64(1) << c)) | (np.int64(1) << c2)
                    s2 = set_rank(S2, binom)
                    to = first[s2] + regions[s2, c]
                    if count_only:
                        start[to + 1] += 1
                    else:
                        b = popcount(S2 & ((np.int64(1) << c2) - 1))
                        source[fill[to]] = first[s] + regions[s, c2]
                        kind[fill[to]] = -1 if a == b else pair[a, b]
                        fill[to] += 1
    return start, source, kind


@njit(cache=True)
def _answer_places(masks, k, n, binom, K1, stride):
    """``place[s, a]``: where the answers of set ``s`` with tile 0 in slot ``a`` start: the
    part of tile 0's cell (``stride`` each), then the set's rank among those holding that
    cell, ``K1 = (k-1)!`` answers a set."""
    total = masks.shape[0]
    place = np.empty((total, k), np.int64)
    full = (np.int64(1) << n) - 1
    for s in range(total):
        S = masks[s]
        m = S
        for a in range(k):
            c = lowest_bit(m)
            m &= m - 1
            others = full & ~(np.int64(1) << c)
            place[s, a] = c * stride + set_rank(pext(S & others, others), binom) * K1
    return place


# ----------------------------------------------------------------------------------------
# the layers


@njit(cache=True, inline="always")
def _open(P0, P1, row, i, cur):
    """The bits of the open layer ``cur`` (1 or 2) in word ``i`` of ``row``."""
    if cur == 1:
        return P0[row, i] & ~P1[row, i]
    return P1[row, i] & ~P0[row, i]


@njit(cache=True, parallel=True)
def _layer(P0, P1, d, first, start, source, kind, rot, open_now, open_next, done, answers,
           place, K1, above):  # fmt: skip
    """Layer ``d + 1`` pulled into every row not ``done`` from the rows ``open_now`` marks;
    writes the new placements' answers; returns ``(states, placements)`` reached.  With
    ``above`` (a bit plane like ``P0``; one row for none), a state whose placement was reached
    before, in another region, gets its bit there: its region is above the placement's least."""
    cur = 1 + (d & 1)
    W = P0.shape[1]
    total = first.shape[0] - 1
    tasks = (total + SETS_PER_TASK - 1) // SETS_PER_TASK
    counts = np.zeros((tasks, 2), np.int64)
    aware = above.shape[0] > 1
    for task in prange(tasks):
        got = np.empty(W, np.uint64)  # the row's states reached by a move
        new = np.empty(W, np.uint64)  # the set's new states, any region
        old = np.empty(W, np.uint64)  # the set's states reached before, any region
        states = 0
        placements = 0
        for s in range(task * SETS_PER_TASK, min(total, (task + 1) * SETS_PER_TASK)):
            for i in range(W):
                new[i] = 0
                old[i] = 0
            for row in range(first[s], first[s + 1]):
                for i in range(W):
                    old[i] |= P0[row, i] | P1[row, i]
            fresh = False
            for row in range(first[s], first[s + 1]):
                if done[row]:
                    continue
                reached = False
                for m in range(start[row], start[row + 1]):
                    src = source[m]
                    if open_now[src] == 0:
                        continue
                    if not reached:
                        got[:] = 0
                        reached = True
                    t = kind[m]
                    for i in range(W):
                        x = _open(P0, P1, src, i, cur)
                        if t < 0:
                            got[i] |= x
                            continue
                        y = np.int64(x)
                        while y != 0:
                            q = rot[t, i * 64 + lowest_bit(y)]
                            y &= y - 1
                            got[q >> 6] |= np.uint64(1) << np.uint64(q & 63)
                if not reached:
                    continue
                count = 0
                left = np.uint64(0)
                for i in range(W):
                    seen = P0[row, i] | P1[row, i]
                    x = got[i] & ~seen
                    if x != 0:
                        if cur == 1:
                            P1[row, i] |= x
                        else:
                            P0[row, i] |= x
                        new[i] |= x
                        count += popcount(x)
                        if aware:
                            above[row, i] |= x & old[i]
                    left |= ~(seen | x)
                if count > 0:
                    open_next[row] = 1
                    states += count
                    fresh = True
                if left == 0:
                    done[row] = 1
            if fresh:  # placements whose first region this layer reached
                for i in range(W):
                    y = np.int64(new[i] & ~old[i])
                    while y != 0:
                        r = i * 64 + lowest_bit(y)
                        y &= y - 1
                        a = r // K1
                        answers[place[s, a] + r - a * K1] = d + 1
                        placements += 1
        counts[task, 0] = states
        counts[task, 1] = placements
    return counts[:, 0].sum(), counts[:, 1].sum()


@njit(cache=True, parallel=True)
def _close(P0, P1, cur, open_now):
    """The open layer ``cur`` of the rows ``open_now`` marks becomes closed (code 3)."""
    for row in prange(P0.shape[0]):
        if open_now[row] == 0:
            continue
        for i in range(P0.shape[1]):
            if cur == 1:
                P1[row, i] |= P0[row, i]
            else:
                P0[row, i] |= P1[row, i]


@njit(cache=True, parallel=True)
def _convert(answers, table, masks, c0, place, k, F, mult, md):
    """The answers of the placements with tile 0 on cell ``c0``, in the searches' order:
    ``table[p]`` for each placement ``p`` of that part, Manhattan distance where unreached.

    Tiles 1 to ``k-3`` are placed by an odometer over their slots, the last two on the two
    slots left, both ways at once (their digits: ``qa``, ``qb`` below)."""
    total = masks.shape[0]
    K1 = F[0]
    everything = (np.int64(1) << k) - 1
    last = k - 2
    tasks = (total + SETS_PER_TASK - 1) // SETS_PER_TASK
    for task in prange(tasks):
        cells = np.zeros(k, np.int64)
        digit = np.zeros(k, np.int64)
        taken = np.zeros(k + 1, np.int64)
        occ = np.zeros(k + 1, np.int64)
        index = np.zeros(k + 1, np.int64)
        dist = np.zeros(k + 1, np.int64)
        for s in range(task * SETS_PER_TASK, min(total, (task + 1) * SETS_PER_TASK)):
            S = masks[s]
            if not (S >> c0) & 1:
                continue
            m = S
            for i in range(k):
                cells[i] = lowest_bit(m)
                m &= m - 1
                digit[i] = 0
            a0 = popcount(S & ((np.int64(1) << c0) - 1))
            taken[1] = np.int64(1) << a0
            occ[1] = np.int64(1) << c0
            index[1] = c0 * mult[0]
            dist[1] = md[0, c0]
            at = place[s, a0]
            if k == 2:
                c = cells[1 - a0]
                table[index[1] + (c - (c > c0)) * mult[1]] = (
                    dist[1] + md[1, c] if answers[at] == 255 else answers[at]
                )  # fmt: skip
                continue
            j = 1
            for r in range(0, K1, 2):
                if r > 0:
                    j = last - 1
                    while digit[j] + 1 == k - j:
                        digit[j] = 0
                        j -= 1
                    digit[j] += 1
                for i in range(j, last):
                    slot = _select(everything & ~taken[i], digit[i])
                    c = cells[slot]
                    taken[i + 1] = taken[i] | (np.int64(1) << slot)
                    index[i + 1] = (
                        index[i] + (c - popcount(occ[i] & ((np.int64(1) << c) - 1))) * mult[i]
                    )
                    occ[i + 1] = occ[i] | (np.int64(1) << c)
                    dist[i + 1] = dist[i] + md[i, c]
                rest = everything & ~taken[last]
                ca = cells[lowest_bit(rest)]
                cb = cells[lowest_bit(rest & (rest - 1))]
                o = occ[last]
                qa = ca - popcount(o & ((np.int64(1) << ca) - 1))
                qb = cb - popcount(o & ((np.int64(1) << cb) - 1))
                v = answers[at + r]
                if v == UNSEEN:
                    v = dist[last] + md[last, ca] + md[last + 1, cb]
                table[index[last] + qa * mult[last] + (qb - 1) * mult[last + 1]] = v
                v = answers[at + r + 1]
                if v == UNSEEN:
                    v = dist[last] + md[last, cb] + md[last + 1, ca]
                table[index[last] + qb * mult[last] + qa * mult[last + 1]] = v


@njit(cache=True, parallel=True)
def _convert_above(above, flags, masks, first, k, F, mult, per):
    """The bits of ``above`` in the searches' order: ``per`` bytes a placement, bit ``j`` set
    where the blank in the set's ``j``-th region (:func:`_sets`) is above the placement's
    least."""
    total = masks.shape[0]
    K = F[0] * k
    tasks = (total + SETS_PER_TASK - 1) // SETS_PER_TASK
    for task in prange(tasks):  # a set's placements are its own: no byte written twice
        slots = np.empty(k, np.int64)
        cells = np.empty(k, np.int64)
        for s in range(task * SETS_PER_TASK, min(total, (task + 1) * SETS_PER_TASK)):
            S = masks[s]
            for r in range(K):
                word = r >> 6
                bit = np.uint64(1) << np.uint64(r & 63)
                some = False
                for row in range(first[s], first[s + 1]):
                    if above[row, word] & bit:
                        some = True
                        break
                if not some:
                    continue
                _arrangement(r, k, F, slots)
                for j in range(k):
                    cells[j] = _select(S, slots[j])
                index = _arrangement_rank(cells, k, mult)  # the placement's, on cells
                for j in range(first[s + 1] - first[s]):
                    if above[first[s] + j, word] & bit:
                        flags[index * per + (j >> 3)] |= np.uint8(1 << (j & 7))


@njit(cache=True, parallel=True)
def _mark_above(whole, placements, per):
    """Set :data:`ABOVE` in the entry of each placement that has a bit set after the table."""
    for p in prange(placements):
        some = np.uint8(0)
        for j in range(per):
            some |= whole[placements + p * per + j]
        if some != 0:
            whole[p] |= np.uint8(ABOVE)


# ----------------------------------------------------------------------------------------
# driver


def suitable(puzzle: Puzzle, codes: Sequence[int]) -> bool:
    """Whether this builder handles the group: 2 to :data:`MAX_TILES` distinct tiles and 2+
    other cells, on a board of at most 62 cells."""
    n = puzzle.width * puzzle.height
    k = len(codes)
    counts = puzzle.label_counts
    return (
        all(int(counts[c]) == 1 for c in codes) and 2 <= k <= MAX_TILES and n - k >= 2 and n <= 62
    )


def above_bytes(n: int, k: int) -> int:
    """Bytes a placement of ``k`` tiles on ``n`` cells takes in a zero-aware table's bits: a bit
    for each region the other cells may form, at most ``k + 1`` (as many as a checkerboard of
    tiles isolates; the build checks it) and at most the free cells: one byte for groups of up
    to 7 tiles."""
    return (min(n - k, k + 1) + 7) // 8


def regions_bytes(n: int, k: int) -> int:
    """Bytes of a zero-aware table's regions after its bits: the region of each cell for each
    set of ``k`` cells, a byte each (:data:`OUTSIDE` on the set's own cells)."""
    return math.comb(n, k) * n


def zero_aware_bytes(n: int, k: int) -> int:
    """Bytes a zero-aware table holds after its ``n!/(n-k)!`` entries: the bits, then the
    regions."""
    return math.perm(n, k) * above_bytes(n, k) + regions_bytes(n, k)


#: rows (a set of cells and a region of the others) per set of cells, for the estimate of a
#: build's memory: 2.75 on the 15-puzzle's 8-tile sets, 2.43 on its 7-tile sets, 2.05 on 6
ROWS_PER_SET = 3


def build_bytes(n: int, k: int, above: int = 0) -> int:
    """Bytes the build holds at its peak: the two bit planes and a byte per placement; with
    the zero-aware bits (``above`` bytes a placement), a third plane, and at the end that
    plane, the answers and the bits."""
    K = math.factorial(k)
    sets = math.comb(n, k)
    plane = sets * ROWS_PER_SET * ((K + 63) // 64) * 8
    places = math.perm(n, k)
    search = (3 if above else 2) * plane + places
    turning = plane + places * (1 + above) + sets * n if above else places
    return max(search, turning) + sets * (n + 8 * k)


def build_distinct_table(
    puzzle: Puzzle,
    codes: Sequence[int],
    progress: Callable[[float, str], None] | None = None,
    log: Callable[[dict], None] | None = None,
    zero_aware: bool = False,
) -> np.ndarray:
    """The pattern database of a group of distinct tiles: ``uint8`` per placement.

    ``codes`` are the group's label codes, in the order that fixes the table's
    index (tile 0 most significant).  ``log`` receives one dict per layer
    (depth, states, placements, seconds), for benchmarks.

    With ``zero_aware``, the placements' regions above their least follow the table in the same
    array, :func:`above_bytes` bytes a placement, bit ``j`` set where the blank in the
    ``j``-th region of the cells the group leaves free makes the placement 2 or more moves
    dearer than ``table`` says; then :func:`regions_bytes`: for the ``s``-th set of ``k``
    cells (in increasing order of mask) the region of each cell (:data:`OUTSIDE` on the
    set's).  An entry of the table whose placement has some bit set has :data:`ABOVE` too (its
    value is the entry ``& VALUE``).  (A region's count has the parity of the group's tiles on
    cells of one colour, the same in every region, so it is above the least by 2 at least.)
    """
    if not suitable(puzzle, codes):
        raise SlidelabError(
            f"this builder needs a group of 2 to {MAX_TILES} distinct tiles and 2 other cells"
        )
    w, h = puzzle.width, puzzle.height
    n, k = w * h, len(codes)
    layout = GroupLayout([codes], puzzle.label_counts, n, len(puzzle.labels) + 1)
    placements = layout.sizes[0]  # n (n-1) ... (n-k+1): the group index of the lookups
    mult = np.ascontiguousarray(layout.mult[0, :k])
    goal = puzzle.goal_codes
    home = {int(goal[c]): c for c in range(n)}
    md = np.ascontiguousarray(taxicab_table(goal, w)[list(codes)])
    F = np.array([math.factorial(k - 1 - j) for j in range(k)], np.int64)
    K, K1 = math.factorial(k), math.factorial(k - 1)
    W = (K + 63) // 64
    binom = layout.binom  # a to b for b up to k + 1 (set_rank)
    nbmask = np.zeros(n, np.int64)
    for c in range(n):
        for nb in puzzle.neighbours[c]:
            if nb >= 0:
                nbmask[c] |= 1 << int(nb)
    first_col = sum(1 << (r * w) for r in range(h))
    full = (1 << n) - 1
    not_first, not_last = full & ~first_col, full & ~(first_col << (w - 1))

    total = math.comb(n, k)
    masks, regions, first = _sets(total, n, k, w, not_first, not_last)
    pairs = [(a, b) for a in range(k) for b in range(k) if a != b and abs(a - b) < w]
    pair = np.full((k, k), -1, np.int64)
    for t, (a, b) in enumerate(pairs):
        pair[a, b] = t
    rot = _rotations(k, F, np.array(pairs, np.int64).reshape(-1, 2))
    start, source, kind = _moves(masks, regions, first, n, nbmask, binom, pair)
    # the answers: a part per cell of tile 0, each on whole pages
    stride = -(-math.comb(n - 1, k - 1) * K1 // PAGE) * PAGE
    place = _answer_places(masks, k, n, binom, K1, stride)
    memory = mmap.mmap(-1, n * stride)
    if hasattr(mmap, "MADV_HUGEPAGE"):  # written a set at a time, all over: fewer page misses
        memory.madvise(mmap.MADV_HUGEPAGE)
    answers = np.frombuffer(memory, np.uint8)
    answers[:] = UNSEEN
    rows = int(first[-1])
    P0 = np.zeros((rows, W), np.uint64)
    P1 = np.zeros((rows, W), np.uint64)
    above = np.zeros((rows if zero_aware else 1, W), np.uint64)
    if K % 64:  # the last word's unused bits: closed, never reached
        pad = np.uint64(((1 << 64) - 1) ^ ((1 << (K % 64)) - 1))
        P0[:, W - 1] = pad
        P1[:, W - 1] = pad

    cells = sorted(home[c] for c in codes)
    slot = np.array([cells.index(home[c]) for c in codes], np.int64)
    s0 = int(set_rank(np.int64(sum(1 << c for c in cells)), binom))
    row0 = int(first[s0] + regions[s0, int(puzzle.goal.blank)])
    r0 = int(_arrangement_rank(slot, k, F))
    P0[row0, r0 >> 6] |= np.uint64(1 << (r0 & 63))  # depth 0: code 1
    answers[place[s0, r0 // K1] + r0 % K1] = 0
    open_now = np.zeros(rows, np.uint8)
    open_next = np.zeros(rows, np.uint8)
    done = np.zeros(rows, np.uint8)
    open_now[row0] = 1
    previous_chunksize = numba.set_parallel_chunksize(1)  # hand out tasks dynamically
    try:
        reached, d = 1, 0
        while True:
            t0 = time.perf_counter()
            open_next[:] = 0
            states, new = _layer(
                P0, P1, d, first, start, source, kind, rot, open_now, open_next, done, answers,
                place, K1, above,
            )  # fmt: skip
            _close(P0, P1, 1 + (d & 1), open_now)
            reached += int(new)
            if log is not None:
                log(
                    {
                        "depth": d + 1,
                        "states": int(states),
                        "placements": int(new),
                        "seconds": time.perf_counter() - t0,
                    }
                )
            if progress is not None:
                progress(
                    reached / placements, f"depth {d + 1}, {reached:,} of {placements:,} placements"
                )
            if states == 0:
                break
            open_now, open_next = open_next, open_now
            d += 1
        del P0, P1  # the bit planes go before the table comes
        per = above_bytes(n, k) if zero_aware else 0
        # the table, the bits, the regions; its pages are given as they are first written
        whole = np.zeros(placements + (zero_aware_bytes(n, k) if zero_aware else 0), np.uint8)
        if zero_aware:  # the bits first, so that their plane goes before the answers turn
            most = int(np.diff(first).max())
            if most > 8 * per:
                raise SlidelabError(
                    f"a set of {k} cells of the {puzzle.size} board leaves {most} regions, more"
                    f" than the {8 * per} bits of a placement's zero-aware entry"
                )
            bits = whole[placements : placements * (1 + per)]
            _convert_above(above, bits, masks, first, k, F, mult, per)
            whole[placements * (1 + per) :] = regions.reshape(-1).view(np.uint8)  # -1: OUTSIDE
        del above
        table = whole[:placements]
        for c0 in range(n):
            _convert(answers, table, masks, c0, place, k, F, mult, md)
            if hasattr(mmap, "MADV_DONTNEED"):  # this part is turned: its memory goes back
                memory.madvise(mmap.MADV_DONTNEED, c0 * stride, stride)
    finally:
        numba.set_parallel_chunksize(previous_chunksize)
    if zero_aware:  # by even chunks (a placement a task, as above, took 85 s on a 6-tile group)
        _mark_above(whole, placements, per)
    del answers
    memory.close()
    return whole
