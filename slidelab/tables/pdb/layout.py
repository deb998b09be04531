"""Groups of tiles: how a group's placement is numbered, and how the tiles are split into groups.

**Numbering (the one group index).**  A group is a list of labels with counts
``c_0, c_1, ...`` (all 1 for distinct tiles; larger for identical tiles).
Label ``j`` occupies ``c_j`` of the ``m_j`` cells not taken by labels
``0..j-1``; that choice is ranked in the combinatorial number system
(compressed positions ``p`` ranked ``sum C(p_t, t+1)``) and the labels' ranks
are combined in mixed radix (:class:`GroupLayout`'s ``mult``).  For distinct
tiles this is the usual ``n (n-1) ... (n-k+1)`` perfect hash of the tiles'
positions: tile ``j``'s digit is its cell less the cells of tiles ``0..j-1``
before it.  The kernels below compute that one number from what each caller
holds: a board (:func:`group_index`, any labels), an array of positions
(:func:`placement_index`, the builder) or positions packed in one integer
(:func:`packed_index`, the search's lookups); :func:`group_unrank` inverts it.

**Partitions.**  Named partitions (``6-6-3``, ``7-8``, ``6-6-6-6``), ``auto``
(two-row bands, each group as large as the build limit allows), ``full``, or
explicit groups of labels: :func:`parse_partition`.

Examples
--------
>>> import numpy as np
>>> layout = GroupLayout([[1, 2]], np.ones(3, np.int64), 4, 3)
>>> layout.sizes, layout.mult[0].tolist()
([12], [3, 1])
>>> int(placement_index(np.array([2, 0]), 2, layout.mult[0]))   # tile 0 on cell 2, tile 1 on 0
6
>>> [int(x) for x in packed_index(2 | (0 << 2), 2, 2, layout.mult, 0)]  # packed 2 bits a cell
[6, 5]
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np

from ..._bits import popcount
from ..._jit import njit
from ...errors import SlidelabError
from ...puzzle import Puzzle
from ..registry import PARTITION_LADDER

#: largest build state space (bytes of the build array) chosen automatically
AUTO_BUILD_STATES = 60_000_000


# ranking a group's placement


@njit(cache=True)
def group_index(board, view, sigma, g, gof, gpos, gm, binom, mult, seen, earlier, combo):
    """Rank of group ``g``'s placement on the board seen through ``view`` and ``sigma``.

    The board read is ``sigma[board[view[c]]]`` for cell ``c``: the identity
    for the board itself, a transposition and relabelling for its reflection.
    """
    m = gm[g]
    for j in range(m):
        seen[j] = 0
        earlier[j] = 0
        combo[j] = 0
    n = view.shape[0]
    for c in range(n):
        v = sigma[board[view[c]]]
        if v == 0 or gof[v] != g:
            continue
        j = gpos[v]
        s = seen[j]
        combo[j] += binom[c - earlier[j], s + 1]
        seen[j] = s + 1
        for jj in range(j + 1, m):
            earlier[jj] += 1
    idx = 0
    for j in range(m):
        idx += combo[j] * mult[g, j]
    return idx


@njit(cache=True)
def group_unrank(idx, g, gm, gcnt, gavail, binom, mult, out, taken, slots):
    """Write group ``g``'s placement of rank ``idx`` into ``out`` (codes ``j + 1``, 0 elsewhere)."""
    n = out.shape[0]
    for c in range(n):
        out[c] = 0
        taken[c] = False
    m = gm[g]
    for j in range(m):
        combo = idx // mult[g, j]
        idx -= combo * mult[g, j]
        cnt = gcnt[g, j]
        p = gavail[g, j] - 1
        for t in range(cnt, 0, -1):
            while binom[p, t] > combo:
                p -= 1
            combo -= binom[p, t]
            slots[t - 1] = p
            p -= 1
        # compressed slot -> cell: the slot-th cell not taken by earlier labels
        t = 0
        free = 0
        for c in range(n):
            if taken[c]:
                continue
            if t < cnt and slots[t] == free:
                out[c] = j + 1
                t += 1
            free += 1
        for c in range(n):
            if out[c] == j + 1:
                taken[c] = True


@njit(cache=True, inline="always")
def placement_index(pos, k, mult):
    """Rank of distinct tiles on cells ``pos[0 .. k-1]`` (tile 0 most significant; cells < 63)."""
    occ = np.int64(0)
    idx = np.int64(0)
    for j in range(k):
        p = pos[j]
        idx += (p - popcount(occ & ((np.int64(1) << p) - 1))) * mult[j]
        occ |= np.int64(1) << p
    return idx


@njit(cache=True, inline="always")
def packed_index(key, m, bits, mult, g):
    """Perfect-hash rank of a distinct-tile group from its packed cell positions, and the mask
    of those cells (which the ranking builds; a zero-aware look-up needs it)."""
    mask = (1 << bits) - 1
    idx = 0
    occ = 0  # cells of the earlier tiles: a tile's rank skips those below its own cell
    for j in range(m):
        p = (key >> (bits * j)) & mask
        below = (1 << p) - 1
        idx += (p - popcount(occ & below)) * mult[g, j]
        occ |= 1 << p
    return idx, occ


class GroupLayout:
    """Arrays describing groups of labels for the ranking kernels.

    Parameters
    ----------
    groups : list of list of int
        Label codes per group.
    counts : array
        ``counts[code]``: how many tiles carry the code.
    n : int
        Cells on the board.
    extra_last : bool
        Add one more label of count 1 at the end of every group (the blank,
        for the build).
    """

    def __init__(
        self,
        groups: Sequence[Sequence[int]],
        counts,
        n: int,
        n_codes: int,
        extra_last: bool = False,
    ):
        self.n = n
        labels = [list(g) + ([-1] if extra_last else []) for g in groups]
        width = max(len(g) for g in labels)
        G = len(groups)
        self.gm = np.array([len(g) for g in labels], dtype=np.int64)
        self.gcnt = np.zeros((G, width), dtype=np.int64)
        self.gavail = np.zeros((G, width), dtype=np.int64)
        self.mult = np.zeros((G, width), dtype=np.int64)
        self.sizes = []
        self.gof = np.full(n_codes, -1, dtype=np.int64)
        self.gpos = np.zeros(n_codes, dtype=np.int64)
        maxc = 1
        for g, labs in enumerate(labels):
            avail = n
            radices = []
            for j, code in enumerate(labs):
                c = 1 if code == -1 else int(counts[code])
                maxc = max(maxc, c)
                self.gcnt[g, j] = c
                self.gavail[g, j] = avail
                radices.append(math.comb(avail, c))
                avail -= c
                if code != -1:
                    self.gof[code] = g
                    self.gpos[code] = j
            size = 1
            for j in range(len(labs) - 1, -1, -1):
                self.mult[g, j] = size
                size *= radices[j]
            self.sizes.append(size)
        # wide enough for a label's tiles (the ranks of the group index) and for a group's cells
        # (the rank of its set of cells: ``distinct.set_rank``)
        columns = max(maxc, width) + 2
        self.binom = np.zeros((n + 1, columns), dtype=np.int64)
        for a in range(n + 1):
            for b in range(columns):
                self.binom[a, b] = math.comb(a, b)
        self.width = width

    def scratch(self):
        w = max(self.width, 1)
        return (np.zeros(w, np.int64), np.zeros(w, np.int64), np.zeros(w, np.int64))


# partitions


def placements(puzzle: Puzzle, codes: Sequence[int]) -> int:
    """Placements of a group's tiles on the board: its table's entries (``GroupLayout``'s
    size, without building the layout)."""
    counts = puzzle.label_counts
    size = math.perm(puzzle.width * puzzle.height, _group_tiles(puzzle, codes))
    for c in codes:
        size //= math.factorial(int(counts[c]))
    return size


def _group_tiles(puzzle: Puzzle, codes: Sequence[int]) -> int:
    return sum(int(puzzle.label_counts[c]) for c in codes)


def build_states(puzzle: Puzzle, codes: Sequence[int]) -> int:
    """Size of the build's state space (placements of the group times blank cells)."""
    return placements(puzzle, codes) * (puzzle.width * puzzle.height - _group_tiles(puzzle, codes))


def _corner_transform(puzzle: Puzzle):
    """Map canonical (blank top-left) coordinates to the goal's corner, or None."""
    w, h = puzzle.width, puzzle.height
    r, c = divmod(puzzle.goal.blank, w)
    if r not in (0, h - 1) or c not in (0, w - 1):
        return None
    flip_r, flip_c = r == h - 1, c == w - 1
    return lambda rr, cc: ((h - 1 - rr) if flip_r else rr) * w + ((w - 1 - cc) if flip_c else cc)


_NAMED = {
    (4, 4, "6-6-3"): [
        [(1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)],
        [(1, 2), (1, 3), (2, 2), (2, 3), (3, 2), (3, 3)],
        [(0, 1), (0, 2), (0, 3)],
    ],
    # 7-8's seven-tile group, seven of its eight, and one: two seven-tile tables build in half
    # a minute and solve the hardest 15-puzzles in seconds
    (4, 4, "7-7-1"): [
        [(0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)],
        [(2, 1), (2, 2), (2, 3), (3, 0), (3, 1), (3, 2), (3, 3)],
        [(2, 0)],
    ],
    (4, 4, "7-8"): [
        [(0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)],
        [(2, 0), (2, 1), (2, 2), (2, 3), (3, 0), (3, 1), (3, 2), (3, 3)],
    ],
    # Korf and Felner's partition of the 24-puzzle
    (5, 5, "6-6-6-6"): [
        [(0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 2)],
        [(0, 3), (0, 4), (1, 3), (1, 4), (2, 3), (2, 4)],
        [(2, 0), (2, 1), (3, 0), (3, 1), (4, 0), (4, 1)],
        [(3, 2), (3, 3), (3, 4), (4, 2), (4, 3), (4, 4)],
    ],
}
DEFAULT_PARTITION = {size: names[0] for size, names in PARTITION_LADDER.items()}


def _band_order(w: int, h: int) -> list[int]:
    """Cells in bands of two rows, column by column: neighbours stay together."""
    out = []
    for r0 in range(0, h, 2):
        for c in range(w):
            for r in (r0, r0 + 1):
                if r < h:
                    out.append(r * w + c)
    return out


def auto_partition(puzzle: Puzzle, limit: int = AUTO_BUILD_STATES) -> list[list[int]]:
    """Groups of labels in goal order (two-row bands), each as large as the build limit allows."""
    goal = puzzle.goal_codes
    order = []
    for cell in _band_order(puzzle.width, puzzle.height):
        code = int(goal[cell])
        if code and code not in order:
            order.append(code)
    groups: list[list[int]] = [[]]
    for code in order:
        trial = groups[-1] + [code]
        if groups[-1] and build_states(puzzle, trial) > limit:
            groups.append([code])
        else:
            groups[-1] = trial
    # balance: a small last group borrows nothing; that is fine for admissibility
    return groups


def parse_partition(puzzle: Puzzle, partition) -> list[list[int]]:
    """Label-code groups from a name (``6-6-3``, ``7-8``, ``full``, ``auto``) or explicit groups.

    Explicit groups are written ``"1,2,3/4,5,6,7/8,9,10,11,12,13,14,15"`` (labels
    of the goal; every tile must be in exactly one group) or given as lists.
    """
    w, h = puzzle.width, puzzle.height
    codes_of = {label: i + 1 for i, label in enumerate(puzzle.labels)}
    if partition is None:
        partition = DEFAULT_PARTITION.get((w, h), "auto")
        if partition != "auto" and (_corner_transform(puzzle) is None or puzzle.has_repeats):
            partition = "auto"
        if w * h <= 9:
            partition = "full"
    if isinstance(partition, str):
        name = partition.strip().lower()
        if name == "auto":
            return auto_partition(puzzle)
        if name == "full":
            return [list(range(1, len(puzzle.labels) + 1))]
        if (w, h, name) in _NAMED:
            to_cell = _corner_transform(puzzle)
            if to_cell is None:
                raise SlidelabError(f"partition {name} needs the goal's blank in a corner")
            goal = puzzle.goal_codes
            groups = [
                [int(goal[to_cell(r, c)]) for r, c in cells] for cells in _NAMED[(w, h, name)]
            ]
            if puzzle.has_repeats:
                raise SlidelabError(f"partition {name} is for distinct tiles; use auto")
            return groups
        if re.fullmatch(r"[\d-]+", name) and "-" in name:
            raise SlidelabError(
                f"no partition {name} for a {w}x{h} board; use auto, full or explicit groups"
            )
        partition = [g.split(",") for g in name.split("/")]
    groups = []
    for g in partition:
        group = []
        for label in g:
            key = label
            if isinstance(label, str):
                label = label.strip()
                key = int(label) if label.isdigit() else label
                if key not in codes_of and label.upper() in codes_of:
                    key = label.upper()
            if key not in codes_of:
                raise SlidelabError(f"partition names {label!r}, which is not a tile of the goal")
            group.append(codes_of[key])
        groups.append(group)
    flat = [c for g in groups for c in g]
    if sorted(flat) != list(range(1, len(puzzle.labels) + 1)):
        raise SlidelabError("a partition must put every tile label in exactly one group")
    return groups


def stronger_partitions(puzzle: Puzzle, partition=None) -> list[str]:
    """The board's named partitions stronger than ``partition``, weakest first.

    The ladder is :data:`slidelab.tables.registry.PARTITION_LADDER`.

    A partition on the ladder is followed by the rungs above it; any other one
    (explicit groups, ``auto``) by the strongest rung when that has fewer groups.
    Empty when there is nothing stronger, or ``partition`` cannot be read.

    Examples
    --------
    >>> stronger_partitions(Puzzle("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"))
    ['7-7-1', '7-8']
    >>> stronger_partitions(Puzzle("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"), "7-7-1")
    ['7-8']
    """
    w, h = puzzle.width, puzzle.height
    ladder = PARTITION_LADDER.get((w, h), ())
    if not ladder or puzzle.has_repeats or _corner_transform(puzzle) is None:
        return []
    name = partition.strip().lower() if isinstance(partition, str) else partition
    if name is None:
        name = ladder[0]
    if name in ladder:
        return list(ladder[ladder.index(name) + 1 :])
    try:
        groups = parse_partition(puzzle, partition)
    except SlidelabError:
        return []
    strongest = ladder[-1]
    return [strongest] if len(groups) > len(_NAMED[(w, h, strongest)]) else []


def stronger_partition(puzzle: Puzzle, partition=None) -> str | None:
    """The name of this board's strongest named partition, when ``partition`` is weaker (the top
    of :func:`stronger_partitions`), else None.

    Examples
    --------
    >>> stronger_partition(Puzzle("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"))
    '7-8'
    >>> stronger_partition(Puzzle("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"), "7-8") is None
    True
    """
    stronger = stronger_partitions(puzzle, partition)
    return stronger[-1] if stronger else None


def reflection(puzzle: Puzzle):
    """``(refl, sigma)`` for the main-diagonal reflection, or None when the goal is not symmetric."""
    w, h = puzzle.width, puzzle.height
    if w != h:
        return None
    n = w * h
    refl = np.array([(c % w) * w + c // w for c in range(n)], dtype=np.int64)
    goal = puzzle.goal_codes
    if goal[refl[puzzle.goal.blank]] != 0:
        return None
    sigma = np.full(len(puzzle.labels) + 1, -1, dtype=np.int64)
    sigma[0] = 0
    for c in range(n):
        a, b = int(goal[c]), int(goal[refl[c]])
        if sigma[a] not in (-1, b):
            return None
        sigma[a] = b
    if sorted(sigma.tolist()) != list(range(len(sigma))):
        return None
    return refl, sigma


def group_goal_text(puzzle: Puzzle, codes: Sequence[int]) -> str:
    """The goal with only this group's tiles named (others ``?``): what the table depends on."""
    goal = puzzle.goal_codes
    names = (0,) + puzzle.labels
    keep = set(codes)
    cells = []
    for v in goal:
        v = int(v)
        cells.append("0" if v == 0 else (str(names[v]) if v in keep else "?"))
    return "/".join(
        " ".join(cells[r * puzzle.width : (r + 1) * puzzle.width]) for r in range(puzzle.height)
    )
