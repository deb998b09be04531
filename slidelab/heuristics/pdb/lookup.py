"""Looking a position up: the heuristic's move kernels and the tables ready for the search.

The tables of the groups are added (each move moves one tile of one group, so
the sum stays admissible).  On a square board whose goal is symmetric about the
main diagonal (blank on the diagonal), the same tables are looked up a second
time on the reflected position, and the larger sum is used.  The search kernel
recomputes only the moved tile's group: from the board (any labels), or, for
distinct tiles, from the group's positions packed in one integer and updated
in O(1).
"""

from __future__ import annotations

import numpy as np

from ..._bits import prefetch
from ..._jit import njit
from ...errors import SlidelabError
from ...puzzle import Puzzle
from ...tables.pdb.build import above_bytes, table_bytes
from ...tables.pdb.distinct import ABOVE, VALUE, set_rank
from ...tables.pdb.layout import GroupLayout, group_index, packed_index, reflection
from ..base import Heuristic
from ..dispatch import register


@njit(cache=True, inline="always")
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
    (
        tables,
        gof,
        gpos,
        gm,
        binom,
        mult,
        vals,
        seen,
        earlier,
        combo,
        ident,
        refl,
        sigma,
        ident_sigma,
        flags,
    ) = data
    groups = gm.shape[0]
    cols = vals.shape[1]
    for i in range(cols):
        vals[depth + 1, i] = vals[depth, i]
    g = gof[tile]
    if g >= 0:
        idx = group_index(
            board, ident, ident_sigma, g, gof, gpos, gm, binom, mult, seen, earlier, combo
        )
        vals[depth + 1, g] = least(tables[g], idx)
    if flags[0] != 0:
        t2 = sigma[tile]
        g2 = gof[t2]
        if g2 >= 0:
            idx = group_index(
                board, refl, sigma, g2, gof, gpos, gm, binom, mult, seen, earlier, combo
            )
            vals[depth + 1, groups + g2] = least(tables[g2], idx)
    return _best_side(vals, depth + 1, groups, flags[0])


register(15, _pdb_move)


@njit(cache=True, inline="always")
def least(table, index):
    """A group's entry without its zero-aware mark: the least over the blank."""
    return np.int64(table[index] & VALUE)


@njit(cache=True, inline="always")
def _value(table, index, taken, blank, size, per, n, binom):
    """A group's value for placement ``index`` on the cells of mask ``taken``
    (:func:`packed_index`) with the blank on cell ``blank``: its table's, and 2 more where its
    zero-aware bit says the blank's region is above the least over the blank.  The group's
    ``per`` bytes of bits a placement follow the table's ``size`` entries (none: 0), then the
    region of each of the ``n`` cells for each set of cells (:mod:`~slidelab.tables.pdb.distinct`);
    they are read only for a placement marked :data:`~slidelab.tables.pdb.distinct.ABOVE`."""
    entry = np.int64(table[index])
    if entry < ABOVE:
        return entry
    entry &= VALUE
    if per == 0:
        return entry
    at = size + index * per
    bits = np.int64(table[at])  # asked before the region is known: the two reads overlap
    region = np.int64(table[size * (1 + per) + set_rank(taken, binom) * n + blank])
    if region >= 8:  # past the first byte (groups of 8 tiles or more)
        bits = np.int64(table[at + (region >> 3)])
    return entry + 2 * ((bits >> (region & 7)) & 1)


@njit(cache=True, inline="always")
def pdb_distinct_within(data, board, depth, h, tile, frm, to, enough):
    """Distinct tiles: each group's tile positions packed in one integer, updated in O(1).

    Both lookups (the moved tile's group, and its reflection's) are asked of the
    memory at once (prefetched), so their waits overlap; the reflected entry is read
    only when the board's own sum is at most ``enough`` (see
    :func:`~slidelab.heuristics.dispatch.heuristic_move_within`).
    """
    tables, numbering, keys, vals, refl, sigma, flags = data
    gof, gpos, gm, mult, binom = numbering
    groups = gm.shape[0]
    bits = flags[1]
    n = refl.shape[0]
    for i in range(2 * groups):
        keys[depth + 1, i] = keys[depth, i]
        vals[depth + 1, i] = vals[depth, i]
    g = gof[tile]
    index = 0
    taken = 0
    if g >= 0:
        key = keys[depth, g] + (to - frm) * (1 << (bits * gpos[tile]))
        keys[depth + 1, g] = key
        index, taken = packed_index(key, gm[g], bits, mult, g)
        prefetch(tables[g], index)
    t2 = sigma[tile]
    g2 = gof[t2]
    mirror = 0
    taken2 = 0
    if flags[0] != 0 and g2 >= 0:
        key = keys[depth, groups + g2] + (refl[to] - refl[frm]) * (1 << (bits * gpos[t2]))
        keys[depth + 1, groups + g2] = key
        mirror, taken2 = packed_index(key, gm[g2], bits, mult, g2)
        prefetch(tables[g2], mirror)
    if g >= 0:  # the blank is where the tile was
        size, per = flags[2 + 2 * g], flags[3 + 2 * g]
        vals[depth + 1, g] = _value(tables[g], index, taken, frm, size, per, n, binom)
    own = _best_side(vals, depth + 1, groups, 0)
    if flags[0] == 0 or own > enough:
        return own
    if g2 >= 0:
        size, per = flags[2 + 2 * g2], flags[3 + 2 * g2]
        vals[depth + 1, groups + g2] = _value(tables[g2], mirror, taken2, refl[frm], size, per, n,
                                              binom)  # fmt: skip
    other = 0
    for i in range(groups):
        other += vals[depth + 1, groups + i]
    return own if own >= other else other


@njit(cache=True, inline="always")
def pdb_distinct_move(data, board, depth, h, tile, frm, to):
    """:func:`pdb_distinct_within` with both sides always looked up."""
    return pdb_distinct_within(data, board, depth, h, tile, frm, to, np.inf)


register(7, pdb_distinct_move, pdb_distinct_within)


def _readonly(table: np.ndarray) -> np.ndarray:
    """A plain read-only ``uint8`` view (memory maps and built arrays get one numba type)."""
    view = np.asarray(table, dtype=np.uint8).view(np.ndarray)
    view.flags.writeable = False
    return view


#: the lengths the kernels' tuple of tables is padded to (the smallest that holds the groups):
#: a tuple's length is part of its numba type, so 2, 3 and 4 groups (the 8-puzzle's, the
#: 15-puzzle's 6-6-3 and 7-8, the 24-puzzle's 6-6-6-6) share one compiled search instead of
#: three (10 to 40 s each on 2 cores, every search that looks them up)
TABLE_SLOTS = (4, 8, 16, 32, 64)
_EMPTY = _readonly(np.zeros(1, np.uint8))


def _padded(tables: tuple) -> tuple:
    """``tables`` padded with a one-byte table to a length of :data:`TABLE_SLOTS` (never read:
    the kernels look up groups ``0 .. len(gm) - 1`` only)."""
    slots = next((n for n in TABLE_SLOTS if n >= len(tables)), len(tables))
    return tables + (_EMPTY,) * (slots - len(tables))


class PatternDatabase:
    """Tables for a partition of a puzzle's tiles, ready for the search kernels."""

    def __init__(
        self,
        puzzle: Puzzle,
        groups: list[list[int]],
        tables: list[np.ndarray],
        use_reflection: bool = True,
        zero_aware: bool = True,
    ):
        self.puzzle = puzzle
        self.groups = groups
        n = puzzle.width * puzzle.height
        k = len(puzzle.labels)
        self.layout = GroupLayout(groups, puzzle.label_counts, n, k + 1)
        #: per group: its table's entries, and the bytes of zero-aware bits a placement after
        #: them (:func:`slidelab.tables.pdb.build.above_bytes`), which the search reads unless
        #: ``zero_aware`` is false (the least over the blank only, as published)
        self.above = np.array(
            [[self.layout.sizes[g], above_bytes(puzzle, codes)] for g, codes in enumerate(groups)],
            dtype=np.int64,
        ).reshape(-1, 2)
        for g, table in enumerate(tables):
            expected = table_bytes(puzzle, groups[g])
            if table.shape[0] != expected:
                raise SlidelabError(f"table {g} has {table.shape[0]} entries, expected {expected}")
        self.zero_aware = zero_aware and bool(self.above[:, 1].any())
        if not zero_aware:
            self.above[:, 1] = 0
        # a tuple of read-only arrays of one type, indexed by group in the kernels: no copy,
        # so tables memory-mapped from the cache stay shared between processes
        self.tables = tuple(_readonly(t) for t in tables)
        self.kernel_tables = _padded(self.tables)  # one numba type for up to 4 groups
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
        arrays = (L.gof, L.gpos, L.gm, L.binom, L.mult, seen, earlier, combo)
        sides = ((self.ident, self.ident_sigma), (self.refl, self.sigma))
        for side, (view, sig) in enumerate(sides[: 2 if self.reflected else 1]):
            for g in range(G):
                index = group_index(codes, view, sig, g, *arrays)
                vals[0, side * G + g] = least(self.tables[g], index)
        flags = np.array([1 if self.reflected else 0], dtype=np.int64)
        data = (
            self.kernel_tables,
            L.gof,
            L.gpos,
            L.gm,
            L.binom,
            L.mult,
            vals,
            seen,
            earlier,
            combo,
            self.ident,
            self.refl,
            self.sigma,
            self.ident_sigma,
            flags,
        )
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
            blank = int(cell_of[0]) if view_of is None else int(view_of[cell_of[0]])
            for g in range(G):
                key = keys[0, side * G + g]
                index, taken = packed_index(key, L.gm[g], bits, L.mult, g)
                size, per = self.above[g]
                vals[0, side * G + g] = _value(self.tables[g], index, taken, blank, size, per, n,
                                               L.binom)  # fmt: skip
        # whether the reflection is looked up, the bits of a packed cell, then per group its
        # table's entries and the zero-aware bytes a placement after them
        flags = np.array([1 if self.reflected else 0, bits, *self.above.ravel()], dtype=np.int64)
        # the placements' numbering: the group and place of each tile, the groups' sizes, the
        # numbering's multipliers, and binomials (the ranks of the sets of cells: the blank's
        # region)
        numbering = (L.gof, L.gpos, L.gm, L.mult, L.binom)
        data = (self.kernel_tables, numbering, keys, vals, self.refl, self.sigma, flags)
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
        desc = f"{'zero-aware ' if self.zero_aware else ''}additive pattern databases {sizes}" + (
            " with reflection" if self.reflected else ""
        )
        labels = self.puzzle.labels
        options = {"partition": [[labels[c - 1] for c in g] for g in self.groups]}
        if self.fast:
            return Heuristic(
                "pdb", True, pdb_distinct_move, self.distinct_data, desc, options=options
            )
        return Heuristic("pdb", True, _pdb_move, self.data, desc, options=options)
