"""Building one group's table: breadth-first search from the goal over the group's tiles.

The search runs over the group's tiles plus the blank, where moving the blank
through non-group cells costs 0 and moving a group tile costs 1; the table
keeps, per placement, the fewest tile moves over the blank's cells.  Groups of
distinct tiles go to the parallel builder by sets of cells (:mod:`.distinct`);
groups with repeated labels (or more than 9 tiles) to the byte-per-state scan here (:func:`build_by_scan`):
each layer is a scan of a byte array over all states; a state at the current
cost is expanded by flooding the blank's whole region at cost 0, then trying
every group tile next to the region.  Both give the same table (tested).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..._jit import njit
from ...errors import SlidelabError
from ...puzzle import Puzzle
from ...units import counted
from . import distinct
from .layout import (
    GroupLayout,
    build_states,
    group_goal_text,
    group_index,
    group_unrank,
    placements,
)

UNSEEN = 255
CLOSED = 0x80
#: largest build accepted at all (bytes held at the build's peak)
MAX_BUILD_BYTES = 1_500_000_000
#: the largest value a table holds: a byte per entry, its top bit marking the build's closed
#: entries (the scan stops past it)
MAX_TABLE_DISTANCE = 125


def _farthest(puzzle: Puzzle, code: int) -> int:
    """The most moves a tile of label ``code`` is from its nearest goal cell, over the board's
    corners: a lower bound of its group's largest value."""
    w, h = puzzle.width, puzzle.height
    rows, columns = np.divmod(np.flatnonzero(puzzle.goal_codes == code), w)
    corners = ((0, 0), (0, w - 1), (h - 1, 0), (h - 1, w - 1))
    return max(int((abs(rows - r) + abs(columns - c)).min()) for r, c in corners)


#: the most cells a group may leave free and still get its zero-aware bits: the 15-puzzle's
#: groups and the 24-puzzle's 6-tile groups (19 free cells) get them, a byte a placement
MAX_ZERO_AWARE_FREE = 24


def above_bytes(puzzle: Puzzle, codes: Sequence[int]) -> int:
    """Bytes a placement's zero-aware bits take after the group's table (:mod:`.distinct`): 0
    where the group is built without them (repeated labels, or more than
    :data:`MAX_ZERO_AWARE_FREE` free cells)."""
    n, k = puzzle.width * puzzle.height, len(codes)
    if not distinct.suitable(puzzle, codes) or n - k > MAX_ZERO_AWARE_FREE:
        return 0
    return distinct.above_bytes(n, k)


def table_bytes(puzzle: Puzzle, codes: Sequence[int]) -> int:
    """Bytes of a group's table: a byte per placement, then its zero-aware bits and regions
    where it has them (:func:`.distinct.zero_aware_bytes`)."""
    size = placements(puzzle, codes)
    if above_bytes(puzzle, codes) == 0:
        return size
    return size + distinct.zero_aware_bytes(puzzle.width * puzzle.height, len(codes))


def build_bytes(puzzle: Puzzle, codes: Sequence[int]) -> int:
    """Memory a group's build holds at its peak (bytes)."""
    if distinct.suitable(puzzle, codes):
        n, k = puzzle.width * puzzle.height, len(codes)
        return distinct.build_bytes(n, k, above_bytes(puzzle, codes))
    return build_states(puzzle, codes)


def check_build_size(puzzle: Puzzle, codes: Sequence[int]) -> None:
    """Refuse a group whose build needs more than :data:`MAX_BUILD_BYTES` bytes, or whose
    values go past :data:`MAX_TABLE_DISTANCE` (a tile can be farther than that from its goal
    cell: on a 100x100 board, 198 moves)."""
    farthest = max(_farthest(puzzle, c) for c in codes)
    if farthest > MAX_TABLE_DISTANCE:
        raise SlidelabError(
            f"the pattern databases of a {puzzle.size} board are too large to build here: a tile"
            f" can be {counted(farthest, 'move')} from its goal cell, past the"
            f" {counted(MAX_TABLE_DISTANCE, 'move')} a table entry holds"
        )
    size = build_bytes(puzzle, codes)
    if size > MAX_BUILD_BYTES:
        raise SlidelabError(
            f"building the table of group {group_goal_text(puzzle, codes)!r} needs {size:,}"
            f" bytes (over {MAX_BUILD_BYTES:,}); choose smaller groups (e.g. --partition auto)"
        )


#: the pattern-database builds' kernels, in the compile notice
WHAT = "the pattern-database build"
#: seconds of one core compiling a build's kernels from nothing, on the development machine:
#: the builder of distinct tiles by sets of cells, and the byte scan of groups with repeated
#: labels
COMPILE_SECONDS = {"pdb-distinct": 11.0, "pdb-scan": 2.8}


def build_kernels(puzzle: Puzzle, codes: Sequence[int]) -> str:
    """The set of kernels that builds the group's table (a key of :data:`COMPILE_SECONDS`)."""
    return "pdb-distinct" if distinct.suitable(puzzle, codes) else "pdb-scan"


def build_group_table(
    puzzle: Puzzle, codes: Sequence[int], progress: Callable[[float, str], None] | None = None
) -> np.ndarray:
    """The pattern database of one group: ``uint8`` per placement of its tiles, then its
    zero-aware bits (:func:`above_bytes` a placement, none for some groups).

    Groups of distinct tiles go to the parallel builder by sets of cells
    (:mod:`.distinct`); groups with repeated labels to the byte-per-state
    scan below.  Both give the same table (tested).
    """
    from ..._jit import kernel_set

    check_build_size(puzzle, codes)
    kernels = build_kernels(puzzle, codes)
    with kernel_set(kernels, COMPILE_SECONDS[kernels], WHAT):
        if kernels == "pdb-scan":
            return build_by_scan(puzzle, codes, progress)
        zero_aware = above_bytes(puzzle, codes) > 0
        return distinct.build_distinct_table(puzzle, codes, progress, zero_aware=zero_aware)


def build_by_scan(
    puzzle: Puzzle, codes: Sequence[int], progress: Callable[[float, str], None] | None = None
) -> np.ndarray:
    """One byte per (placement, blank cell), one scan of the array per layer; any labels."""
    n = puzzle.width * puzzle.height
    counts = puzzle.label_counts
    m = len(codes)
    # abstract alphabet: 0 other, j+1 the group's label j, m+1 the blank
    sub_counts = np.zeros(m + 2, dtype=np.int64)
    for j, code in enumerate(codes):
        sub_counts[j + 1] = counts[code]
    sub_counts[m + 1] = 1
    layout = GroupLayout([list(range(1, m + 2))], sub_counts, n, m + 2)
    k = int(sub_counts[1 : m + 1].sum())
    free_cells = n - k
    total = layout.sizes[0]
    dist = np.full(total, UNSEEN, dtype=np.uint8)
    ab = np.zeros(n, dtype=np.int64)
    goal = puzzle.goal_codes
    where = {code: j + 1 for j, code in enumerate(codes)}
    for c in range(n):
        v = int(goal[c])
        ab[c] = m + 1 if v == 0 else where.get(v, 0)
    seen, earlier, combo = layout.scratch()
    ident = np.arange(n)
    sig = np.arange(m + 2)
    start = group_index(
        ab,
        ident,
        sig,
        0,
        layout.gof,
        layout.gpos,
        layout.gm,
        layout.binom,
        layout.mult,
        seen,
        earlier,
        combo,
    )
    dist[start] = 0
    numbering = (layout.gof, layout.gpos, layout.gm, layout.gcnt, layout.gavail, layout.binom)
    # the kernel's scratch: the index's, then a state's cells taken, region cells, in the
    # region, the flood's stack, group tiles before each cell
    scratch = (seen, earlier, combo) + tuple(
        np.zeros(n, t) for t in (np.bool_, np.int64, np.bool_, np.int64, np.int64)
    )
    reached, d = 1, 0
    while True:
        if d > MAX_TABLE_DISTANCE:
            raise SlidelabError(
                f"pattern database distances exceed {counted(MAX_TABLE_DISTANCE, 'move')}"
            )
        new = _build_layer(
            dist, d, puzzle.neighbours, numbering, layout.mult, scratch, ab, m + 1, free_cells
        )
        reached += new
        if progress is not None:
            progress(min(1.0, reached / total), f"depth {d + 1}, {reached:,} of {total:,} states")
        if new == 0:
            break
        d += 1
    dist &= 0x7F
    placements = total // free_cells
    return dist.reshape(placements, free_cells).min(axis=1)


# the scan's kernel: one breadth-first layer


@njit(cache=True)
def _build_layer(dist, d, nbr, numbering, mult, scratch, ab, blank_code, free_cells):
    """Expand every open state at cost ``d``; return how many states were newly reached.

    ``numbering`` is the layout's arrays that number the group's placements
    (:class:`.layout.GroupLayout`: ``gof, gpos, gm, gcnt, gavail, binom``).
    """
    gof, gpos, gm, gcnt, gavail, binom = numbering
    seen, earlier, combo, taken, slots, inreg, stack, prefix = scratch
    n = ab.shape[0]
    ident = np.arange(n)
    sig = np.arange(blank_code + 1)
    found = 0
    total = dist.shape[0]
    for s in range(total):
        if dist[s] != d:
            continue
        group_unrank(s, 0, gm, gcnt, gavail, binom, mult, ab, taken, slots)
        base = s - s % free_cells
        blank = 0
        count = 0
        for c in range(n):
            prefix[c] = count
            if ab[c] == blank_code:
                blank = c
            elif ab[c] != 0:
                count += 1
        ab[blank] = 0
        # flood the blank's region through non-group cells (cost 0)
        for c in range(n):
            inreg[c] = False
        top = 0
        stack[top] = blank
        top += 1
        inreg[blank] = True
        size = 0
        while top > 0:
            top -= 1
            q = stack[top]
            slots[size] = q  # reuse slots as the list of region cells
            size += 1
            for dd in range(4):
                r = nbr[q, dd]
                if r >= 0 and ab[r] == 0 and not inreg[r]:
                    inreg[r] = True
                    stack[top] = r
                    top += 1
        for i in range(size):
            q = slots[i]
            s2 = base + q - prefix[q]
            if dist[s2] == 255:
                found += 1
            dist[s2] = d | 0x80
        # move a group tile next to the region into it (cost 1)
        for i in range(size):
            q = slots[i]
            for dd in range(4):
                p = nbr[q, dd]
                if p < 0 or ab[p] == 0:
                    continue
                ab[q] = ab[p]
                ab[p] = blank_code
                s3 = group_index(
                    ab, ident, sig, 0, gof, gpos, gm, binom, mult, seen, earlier, combo
                )
                ab[p] = ab[q]
                ab[q] = 0
                if dist[s3] == 255:
                    dist[s3] = d + 1
                    found += 1
    return found
