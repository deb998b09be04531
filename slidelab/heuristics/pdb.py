"""Additive disjoint pattern databases (Korf and Felner 2002), with reflection.

The tiles are split into disjoint groups.  For each group a table gives, for
every placement of the group's tiles, the fewest moves *of those tiles* that
bring them home, whatever the other tiles do.  Each move moves one tile, so the
values of different groups add up to an admissible estimate.  On a square
board whose goal is symmetric about the main diagonal (blank on the diagonal),
the same tables are looked up a second time on the reflected position, and the
larger sum is used.

**Indexing.**  A group is a list of labels with counts ``c_0, c_1, ...`` (all
1 for distinct tiles; larger for identical tiles).  Label ``j`` occupies
``c_j`` of the ``m_j`` cells not taken by labels ``0..j-1``; that choice is
ranked in the combinatorial number system (compressed positions ``p`` ranked
``sum C(p_t, t+1)``) and the labels' ranks are combined in mixed radix.  For
distinct tiles this is the usual ``n (n-1) ... (n-k+1)`` perfect hash of the
tiles' positions.  The index is computed from the board in one scan, so the
search kernel recomputes only the moved tile's group.

**Building.**  Breadth-first search from the goal over the group's tiles plus
the blank (the blank as one more label), where moving the blank through
non-group cells costs 0 and moving a group tile costs 1.  Each layer is a scan
of a byte array over all states; a state at the current cost is expanded by
flooding the blank's whole region at cost 0, then trying every group tile next
to the region.  The table keeps, per placement, the minimum over blank cells.
"""

from __future__ import annotations

import math
import re
from typing import Callable, Optional, Sequence

import numpy as np

from .._jit import njit
from ..errors import SlidelabError
from ..puzzle import Puzzle
from .base import Heuristic
from .dispatch import register
from . import pdb_build

PDB_FORMAT = 1
UNSEEN = 255
CLOSED = 0x80
#: largest build state space (bytes of the build array) chosen automatically
AUTO_BUILD_STATES = 60_000_000
#: largest build accepted at all (bytes held at the build's peak)
MAX_BUILD_BYTES = 1_500_000_000


# ----------------------------------------------------------------------------------------
# kernels: ranking a group's placement


@njit(cache=True)
def _group_index(board, view, sigma, g, gof, gpos, gm, binom, mult, seen, earlier, combo):
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
def _group_unrank(idx, g, gm, gcnt, gavail, binom, mult, out, taken, slots):
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


# ----------------------------------------------------------------------------------------
# kernel: one breadth-first layer of the build


@njit(cache=True)
def _build_layer(dist, d, nbr, gof, gpos, gm, gcnt, gavail, binom, mult, seen, earlier, combo,
                 ab, taken, slots, inreg, stack, prefix, blank_code, free_cells):
    """Expand every open state at cost ``d``; return how many states were newly reached."""
    n = ab.shape[0]
    ident = np.arange(n)
    sig = np.arange(blank_code + 1)
    found = 0
    total = dist.shape[0]
    for s in range(total):
        if dist[s] != d:
            continue
        _group_unrank(s, 0, gm, gcnt, gavail, binom, mult, ab, taken, slots)
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
                s3 = _group_index(ab, ident, sig, 0, gof, gpos, gm, binom, mult, seen, earlier, combo)
                ab[p] = ab[q]
                ab[q] = 0
                if dist[s3] == 255:
                    dist[s3] = d + 1
                    found += 1
    return found


# ----------------------------------------------------------------------------------------
# kernels: the heuristic's move functions


@njit(cache=True, inline='always')
def _best_side(vals, row, groups, reflected):
    """Sum of the groups' values, or the larger of the two sums with the reflection."""
    total = 0
    for i in range(groups):
        total += vals[row, i]
    if reflected == 0:
        return total
    other = 0
    for i in range(groups):
        other += vals[row, groups + i]
    return total if total >= other else other


@njit(cache=True)
def _pdb_move(data, board, depth, h, tile, frm, to):
    tables, gof, gpos, gm, binom, mult, vals, seen, earlier, combo, ident, refl, sigma, \
        ident_sigma, flags = data
    groups = gm.shape[0]
    cols = vals.shape[1]
    for i in range(cols):
        vals[depth + 1, i] = vals[depth, i]
    g = gof[tile]
    if g >= 0:
        idx = _group_index(board, ident, ident_sigma, g, gof, gpos, gm, binom, mult, seen, earlier, combo)
        vals[depth + 1, g] = tables[g][idx]
    if flags[0] != 0:
        t2 = sigma[tile]
        g2 = gof[t2]
        if g2 >= 0:
            idx = _group_index(board, refl, sigma, g2, gof, gpos, gm, binom, mult, seen, earlier, combo)
            vals[depth + 1, groups + g2] = tables[g2][idx]
    return _best_side(vals, depth + 1, groups, flags[0])


register(15, _pdb_move)


@njit(cache=True, inline='always')
def _compact_index(key, m, bits, mult, g):
    """Perfect-hash rank of a distinct-tile group from its packed cell positions."""
    mask = (1 << bits) - 1
    idx = 0
    for j in range(m):
        p = (key >> (bits * j)) & mask
        c = p
        for i in range(j):
            if ((key >> (bits * i)) & mask) < p:
                c -= 1
        idx += c * mult[g, j]
    return idx


@njit(cache=True, inline='always')
def _pdb_distinct_move(data, board, depth, h, tile, frm, to):
    """Distinct tiles: each group's tile positions packed in one integer, updated in O(1)."""
    tables, gof, gpos, gm, mult, keys, vals, refl, sigma, flags = data
    groups = gm.shape[0]
    bits = flags[1]
    for i in range(2 * groups):
        keys[depth + 1, i] = keys[depth, i]
        vals[depth + 1, i] = vals[depth, i]
    g = gof[tile]
    if g >= 0:
        key = keys[depth, g] + (to - frm) * (1 << (bits * gpos[tile]))
        keys[depth + 1, g] = key
        vals[depth + 1, g] = tables[g][_compact_index(key, gm[g], bits, mult, g)]
    if flags[0] != 0:
        t2 = sigma[tile]
        g2 = gof[t2]
        if g2 >= 0:
            key = keys[depth, groups + g2] + (refl[to] - refl[frm]) * (1 << (bits * gpos[t2]))
            keys[depth + 1, groups + g2] = key
            vals[depth + 1, groups + g2] = tables[g2][_compact_index(key, gm[g2], bits, mult, g2)]
    return _best_side(vals, depth + 1, groups, flags[0])


register(10, _pdb_distinct_move)


# ----------------------------------------------------------------------------------------
# group layout


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

    def __init__(self, groups: Sequence[Sequence[int]], counts, n: int, n_codes: int,
                 extra_last: bool = False):
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
        self.binom = np.zeros((n + 1, maxc + 2), dtype=np.int64)
        for a in range(n + 1):
            for b in range(maxc + 2):
                self.binom[a, b] = math.comb(a, b)
        self.width = width

    def scratch(self):
        w = max(self.width, 1)
        return (np.zeros(w, np.int64), np.zeros(w, np.int64), np.zeros(w, np.int64))


# ----------------------------------------------------------------------------------------
# partitions


def _corner_transform(puzzle: Puzzle):
    """Map canonical (blank top-left) coordinates to the goal's corner, or None."""
    w, h = puzzle.width, puzzle.height
    r, c = divmod(puzzle.goal.blank, w)
    if r not in (0, h - 1) or c not in (0, w - 1):
        return None
    flip_r, flip_c = r == h - 1, c == w - 1
    return lambda rr, cc: ((h - 1 - rr) if flip_r else rr) * w + ((w - 1 - cc) if flip_c else cc)


_NAMED = {
    (4, 4, "6-6-3"): [[(1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)],
                      [(1, 2), (1, 3), (2, 2), (2, 3), (3, 2), (3, 3)],
                      [(0, 1), (0, 2), (0, 3)]],
    (4, 4, "7-8"): [[(0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)],
                    [(2, 0), (2, 1), (2, 2), (2, 3), (3, 0), (3, 1), (3, 2), (3, 3)]],
    # Korf and Felner's partition of the 24-puzzle
    (5, 5, "6-6-6-6"): [[(0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 2)],
                        [(0, 3), (0, 4), (1, 3), (1, 4), (2, 3), (2, 4)],
                        [(2, 0), (2, 1), (3, 0), (3, 1), (4, 0), (4, 1)],
                        [(3, 2), (3, 3), (3, 4), (4, 2), (4, 3), (4, 4)]],
}
DEFAULT_PARTITION = {(4, 4): "6-6-3", (5, 5): "6-6-6-6"}


def _band_order(w: int, h: int) -> list[int]:
    """Cells in bands of two rows, column by column: neighbours stay together."""
    out = []
    for r0 in range(0, h, 2):
        for c in range(w):
            for r in (r0, r0 + 1):
                if r < h:
                    out.append(r * w + c)
    return out


def build_bytes(puzzle: Puzzle, codes: Sequence[int]) -> int:
    """Memory a group's build holds at its peak (bytes)."""
    if pdb_build.suitable(puzzle, codes):
        return pdb_build.build_bytes(puzzle.width * puzzle.height, len(codes))
    return _build_states(puzzle, codes)


def _build_states(puzzle: Puzzle, codes: Sequence[int]) -> int:
    """Size of the build's state space (placements of the group times blank cells)."""
    counts = puzzle.label_counts
    n = puzzle.width * puzzle.height
    k = sum(int(counts[c]) for c in codes)
    size = math.factorial(n) // math.factorial(n - k)
    for c in codes:
        size //= math.factorial(int(counts[c]))
    return size * (n - k)


def check_build_size(puzzle: Puzzle, codes: Sequence[int]) -> None:
    """Refuse a group whose build needs more than :data:`MAX_BUILD_BYTES` bytes."""
    size = build_bytes(puzzle, codes)
    if size > MAX_BUILD_BYTES:
        raise SlidelabError(
            f"building the table of group {group_goal_text(puzzle, codes)!r} needs {size:,}"
            f" bytes (over {MAX_BUILD_BYTES:,}); choose smaller groups (e.g. --partition auto)")


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
        if groups[-1] and _build_states(puzzle, trial) > limit:
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
            groups = [[int(goal[to_cell(r, c)]) for r, c in cells] for cells in _NAMED[(w, h, name)]]
            if puzzle.has_repeats:
                raise SlidelabError(f"partition {name} is for distinct tiles; use auto")
            return groups
        if re.fullmatch(r"[\d-]+", name) and "-" in name:
            raise SlidelabError(f"no partition {name} for a {w}x{h} board; use auto, full or explicit groups")
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


def stronger_partition(puzzle: Puzzle, partition=None) -> Optional[str]:
    """The name of this board's strongest named partition, when ``partition`` is weaker.

    Named partitions with fewer, larger groups give larger tables and better
    estimates (7-8 against the 15-puzzle's default 6-6-3).  None when there is
    nothing stronger, or ``partition`` cannot be read.

    Examples
    --------
    >>> stronger_partition(Puzzle("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"))
    '7-8'
    >>> stronger_partition(Puzzle("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"), "7-8") is None
    True
    """
    w, h = puzzle.width, puzzle.height
    named = [name for (nw, nh, name) in _NAMED if (nw, nh) == (w, h)]
    if not named or puzzle.has_repeats or _corner_transform(puzzle) is None:
        return None
    best = min(named, key=lambda name: len(_NAMED[(w, h, name)]))
    try:
        groups = parse_partition(puzzle, partition)
    except SlidelabError:
        return None
    return best if len(groups) > len(_NAMED[(w, h, best)]) else None


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


# ----------------------------------------------------------------------------------------
# building one group's table


def group_goal_text(puzzle: Puzzle, codes: Sequence[int]) -> str:
    """The goal with only this group's tiles named (others ``?``): what the table depends on."""
    goal = puzzle.goal_codes
    names = (0,) + puzzle.labels
    keep = set(codes)
    cells = []
    for v in goal:
        v = int(v)
        cells.append("0" if v == 0 else (str(names[v]) if v in keep else "?"))
    return "/".join(" ".join(cells[r * puzzle.width:(r + 1) * puzzle.width]) for r in range(puzzle.height))


def build_group_table(puzzle: Puzzle, codes: Sequence[int],
                      progress: Optional[Callable[[float, str], None]] = None) -> np.ndarray:
    """The pattern database of one group: ``uint8`` per placement of its tiles.

    Groups of distinct tiles go to the two-bit parallel builder
    (:mod:`slidelab.heuristics.pdb_build`); groups with repeated labels to the
    byte-per-state scan below.  Both give the same table (tested).
    """
    check_build_size(puzzle, codes)
    if pdb_build.suitable(puzzle, codes):
        return pdb_build.build_distinct_table(puzzle, codes, progress)
    return build_by_scan(puzzle, codes, progress)


def build_by_scan(puzzle: Puzzle, codes: Sequence[int],
                  progress: Optional[Callable[[float, str], None]] = None) -> np.ndarray:
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
    k = int(sub_counts[1:m + 1].sum())
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
    start = _group_index(ab, ident, sig, 0, layout.gof, layout.gpos, layout.gm, layout.binom,
                         layout.mult, seen, earlier, combo)
    dist[start] = 0
    taken = np.zeros(n, np.bool_)
    slots = np.zeros(n, np.int64)
    inreg = np.zeros(n, np.bool_)
    stack = np.zeros(n, np.int64)
    prefix = np.zeros(n, np.int64)
    reached, d = 1, 0
    while True:
        if d >= 126:
            raise SlidelabError("pattern database distances exceed 126 moves")
        new = _build_layer(dist, d, puzzle.neighbours, layout.gof, layout.gpos, layout.gm,
                           layout.gcnt, layout.gavail, layout.binom, layout.mult, seen, earlier,
                           combo, ab, taken, slots, inreg, stack, prefix, m + 1, free_cells)
        reached += new
        if progress is not None:
            progress(min(1.0, reached / total), f"depth {d + 1}, {reached:,} of {total:,} states")
        if new == 0:
            break
        d += 1
    dist &= 0x7F
    placements = total // free_cells
    return dist.reshape(placements, free_cells).min(axis=1)


# ----------------------------------------------------------------------------------------
# the heuristic


def _readonly(table: np.ndarray) -> np.ndarray:
    """A plain read-only ``uint8`` view (memory maps and built arrays get one numba type)."""
    view = np.asarray(table, dtype=np.uint8).view(np.ndarray)
    view.flags.writeable = False
    return view


class PatternDatabase:
    """Tables for a partition of a puzzle's tiles, ready for the search kernels."""

    def __init__(self, puzzle: Puzzle, groups: list[list[int]], tables: list[np.ndarray],
                 use_reflection: bool = True):
        self.puzzle = puzzle
        self.groups = groups
        n = puzzle.width * puzzle.height
        k = len(puzzle.labels)
        self.layout = GroupLayout(groups, puzzle.label_counts, n, k + 1)
        for g, table in enumerate(tables):
            if table.shape[0] != self.layout.sizes[g]:
                raise SlidelabError(f"table {g} has {table.shape[0]} entries, expected {self.layout.sizes[g]}")
        # a tuple of read-only arrays of one type, indexed by group in the kernels: no copy,
        # so tables memory-mapped from the cache stay shared between processes
        self.tables = tuple(_readonly(t) for t in tables)
        refl = reflection(puzzle) if use_reflection else None
        self.reflected = refl is not None
        if refl is None:
            refl = (np.arange(n, dtype=np.int64), np.arange(k + 1, dtype=np.int64))
        self.refl, self.sigma = refl
        self.ident = np.arange(n, dtype=np.int64)
        self.ident_sigma = np.arange(k + 1, dtype=np.int64)

    def data(self, codes: np.ndarray, max_depth: int):
        G = len(self.groups)
        L = self.layout
        vals = np.zeros((max_depth + 2, 2 * G), dtype=np.int64)
        seen, earlier, combo = L.scratch()
        for g in range(G):
            vals[0, g] = self.tables[g][_group_index(
                codes, self.ident, self.ident_sigma, g, L.gof, L.gpos, L.gm, L.binom, L.mult,
                seen, earlier, combo)]
            if self.reflected:
                vals[0, G + g] = self.tables[g][_group_index(
                    codes, self.refl, self.sigma, g, L.gof, L.gpos, L.gm, L.binom, L.mult,
                    seen, earlier, combo)]
        flags = np.array([1 if self.reflected else 0], dtype=np.int64)
        data = (self.tables, L.gof, L.gpos, L.gm, L.binom, L.mult, vals, seen, earlier,
                combo, self.ident, self.refl, self.sigma, self.ident_sigma, flags)
        return data, int(_best_side(vals, 0, G, flags[0]))

    def distinct_data(self, codes: np.ndarray, max_depth: int):
        """Kernel data for distinct tiles: packed positions per group (and reflection)."""
        G = len(self.groups)
        L = self.layout
        n = codes.shape[0]
        bits = self.bits
        keys = np.zeros((max_depth + 2, 2 * G), dtype=np.int64)
        vals = np.zeros((max_depth + 2, 2 * G), dtype=np.int64)
        cell_of = np.zeros(len(self.puzzle.labels) + 1, dtype=np.int64)
        cell_of[np.asarray(codes, dtype=np.int64)] = np.arange(n)
        for side, (view_of, sig) in enumerate(((None, self.ident_sigma), (self.refl, self.sigma))):
            if side == 1 and not self.reflected:
                break
            for code in range(1, len(cell_of)):
                t = int(sig[code])
                g = int(L.gof[t])
                cell = int(cell_of[code]) if view_of is None else int(view_of[cell_of[code]])
                keys[0, side * G + g] += cell << (bits * int(L.gpos[t]))
            for g in range(G):
                keys_g = int(keys[0, side * G + g])
                vals[0, side * G + g] = self.tables[g][_compact_index(
                    keys_g, int(L.gm[g]), bits, L.mult, g)]
        flags = np.array([1 if self.reflected else 0, bits], dtype=np.int64)
        data = (self.tables, L.gof, L.gpos, L.gm, L.mult, keys, vals, self.refl,
                self.sigma, flags)
        return data, int(_best_side(vals, 0, G, flags[0]))

    @property
    def bits(self) -> int:
        """Bits per packed cell position."""
        return max(1, (self.puzzle.width * self.puzzle.height - 1).bit_length())

    @property
    def fast(self) -> bool:
        """Distinct tiles on a board small enough to pack a group's positions in 63 bits."""
        return not self.puzzle.has_repeats and self.bits * int(self.layout.gm.max()) <= 62

    def heuristic(self) -> Heuristic:
        sizes = "-".join(str(sum(int(self.puzzle.label_counts[c]) for c in g)) for g in self.groups)
        desc = f"additive pattern databases {sizes}" + (" with reflection" if self.reflected else "")
        if self.fast:
            return Heuristic("pdb", True, _pdb_distinct_move, self.distinct_data, desc)
        return Heuristic("pdb", True, _pdb_move, self.data, desc)


_LOADED: dict = {}


def pattern_database(puzzle: Puzzle, partition=None, *, progress=None, cache: bool = True,
                     reflect: bool = True) -> PatternDatabase:
    """Build (or load from the cache) the pattern databases of a partition.

    Tables already loaded in this process are reused.
    """
    groups = parse_partition(puzzle, partition)
    key = (puzzle.goal, tuple(map(tuple, groups)), reflect)
    if cache and key in _LOADED:
        return _LOADED[key]
    for codes in groups:  # refuse an oversized group before building any table
        check_build_size(puzzle, codes)
    tables = []
    for i, codes in enumerate(groups):
        tables.append(_group_table(puzzle, codes, i, len(groups), progress, cache))
    db = PatternDatabase(puzzle, groups, tables, reflect)
    if cache:
        _LOADED[key] = db
    return db


def _group_table(puzzle, codes, i, count, progress, cache):
    def build(report):
        def inner(fraction, message):
            if report is not None:
                report(fraction, f"table {i + 1}/{count}: {message}")
        return build_group_table(puzzle, codes, inner)

    if not cache:
        return build(progress)
    from ..cache import load_or_build

    spec = {"kind": "pdb", "board": puzzle.size, "goal": group_goal_text(puzzle, codes),
            "version": PDB_FORMAT}
    return load_or_build(spec, build, progress)


def pdb(puzzle: Puzzle, partition=None, progress=None, cache: bool = True) -> Heuristic:
    """The additive pattern-database heuristic of a puzzle."""
    return pattern_database(puzzle, partition, progress=progress, cache=cache).heuristic()
