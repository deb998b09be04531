"""Pattern databases maxed with a dual look-up: fewer nodes, more time a node.

The dual of a board is its inverse: number each tile by its goal cell, and the board is a
permutation of the cells; its dual puts at cell ``x`` the tile whose goal cell is where the
board holds ``x``'s tile.  Solving a board is a sequence of cell swaps, and the same swaps in
reverse order solve its dual, but only when the blank is at its goal cell: otherwise the tile
that plays the blank in the dual is another one, and the tables, which move a blank, do not
bound it (``benchmarks/dual.py`` counts the positions where the plain dual overestimates).  So
the look-up here first walks the blank to its goal cell, ``m`` moves (rows first, and columns
first), and takes ``m`` off the dual's estimate: the board is at least the walked board's
distance less ``m``, and the walked board is exactly as far as its dual.  The larger of the two
walks, each on the dual and on its reflection, is maxed with the tables' own estimate.

Measured with the 15-puzzle's 7-8 tables (``benchmarks/dual_search.py``,
``docs/benchmarks.md#dual-search``, ``benchmarks/nodes.py``): an eighth fewer nodes than the
zero-aware tables with their reflection (Korf's 100: 15,185 an instance against 17,437), but
the dual's ranks are made from scratch at each node where the own estimate does not already
prune (about half of them), where the plain look-up updates one group a move: four times the
search time (1.10 s against 0.27 s).  An option for counting nodes, not the default.  The dual
is looked up in the tables' least over the blank (its blank is home).  Boards with
repeated labels have no dual: there the heuristic is the pattern databases alone.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..._jit import njit
from ...puzzle import Puzzle
from ...tables.pdb.layout import group_index
from ..base import Heuristic
from ..dispatch import register
from .lookup import least, pdb_distinct_move, pdb_distinct_within

__all__ = ["pdb_dual"]


@njit(cache=True, inline="always")
def _dual_value(board, blank, fast, extra, enough):
    """The dual look-up of ``board`` (blank at ``blank``) walked home, less the walk: the
    larger over the two walks and, with the reflection, both sides; above ``enough`` as soon
    as one is."""
    tables, numbering, keys, vals, refl, sigma, flags = fast
    gof, gpos, gm, mult, _ = numbering
    binom, seen, earlier, combo, ident, ident_sigma, goal_cell, goal_codes, tmp, dual, width = extra
    home = goal_cell[0]  # the goal's blank cell
    n = board.shape[0]
    groups = gm.shape[0]
    br, bc = blank // width, blank % width
    hr, hc = home // width, home % width
    best = -1
    for walk in range(2):
        if walk == 1 and (br == hr or bc == hc):
            break  # in the goal blank's row or column: one walk only
        for c in range(n):
            tmp[c] = board[c]
        b = blank
        m = 0
        for leg in range(2):
            vertical = (leg == 0) == (walk == 0)  # walk 0: rows first
            while True:
                if vertical:
                    r = b // width
                    if r == hr:
                        break
                    nb = b + width if r < hr else b - width
                else:
                    col = b % width
                    if col == hc:
                        break
                    nb = b + 1 if col < hc else b - 1
                tmp[b] = tmp[nb]
                tmp[nb] = 0
                b = nb
                m += 1
        for c in range(n):
            dual[goal_cell[tmp[c]]] = goal_codes[c]
        for side in range(2 if flags[0] != 0 else 1):
            view = ident if side == 0 else refl
            sig = ident_sigma if side == 0 else sigma
            total = 0
            for g in range(groups):
                idx = group_index(dual, view, sig, g, gof, gpos, gm, binom, mult, seen, earlier,
                                  combo)  # fmt: skip
                total += least(tables[g], idx)
            value = total - m
            if value > best:
                best = value
                if best > enough:
                    return best
    return best


@njit(cache=True, inline="always")
def _pdb_dual_within(data, board, depth, h, tile, frm, to, enough):
    """The tables' estimate after the move (:func:`~.lookup.pdb_distinct_within`), maxed
    with the dual look-up where the tables' own does not exceed ``enough``."""
    fast, extra = data
    own = pdb_distinct_within(fast, board, depth, h, tile, frm, to, enough)
    if own > enough:
        return own
    dual = _dual_value(board, frm, fast, extra, enough)
    return dual if dual > own else own


@njit(cache=True, inline="always")
def _pdb_dual_move(data, board, depth, h, tile, frm, to):
    """:func:`_pdb_dual_within` with every look-up made."""
    return _pdb_dual_within(data, board, depth, h, tile, frm, to, np.inf)


@njit(cache=True, inline="always")
def _pdb_dual_step(data, board, depth, h, tile, frm, to):
    """A step inside a slide of several tiles: the tables' rows carried on, no dual."""
    fast, extra = data
    return pdb_distinct_move(fast, board, depth, h, tile, frm, to)


register(2, _pdb_dual_move, _pdb_dual_within, step=_pdb_dual_step)


@njit(cache=True)
def _start_value(board, blank, fast, extra):
    return _dual_value(board, blank, fast, extra, np.inf)


def pdb_dual(puzzle: Puzzle, partition=None, progress=None, cache: bool = True) -> Heuristic:
    """The additive pattern databases of a partition (:func:`~slidelab.heuristics.pdb.pdb`),
    maxed with the dual look-up of the board with its blank walked home."""
    from . import pattern_database

    db = pattern_database(puzzle, partition, progress=progress, cache=cache)
    plain = db.heuristic()
    if not db.fast:  # repeated labels (no dual), or groups too large to pack
        return dataclasses.replace(
            plain, name="pdb-dual", description=plain.description + ", no dual look-up here"
        )
    n = puzzle.width * puzzle.height
    goal_codes = np.asarray(puzzle.goal_codes, dtype=np.int64)
    goal_cell = np.zeros(len(puzzle.labels) + 1, dtype=np.int64)
    goal_cell[goal_codes] = np.arange(n)

    def init(codes: np.ndarray, max_depth: int):
        fast, own = db.distinct_data(codes, max_depth)
        layout = db.layout
        extra = (layout.binom, *layout.scratch(), db.ident, db.ident_sigma, goal_cell,
                 goal_codes, np.empty(n, np.int64), np.empty(n, np.int64), puzzle.width)  # fmt: skip
        blank = int(np.flatnonzero(np.asarray(codes) == 0)[0])
        dual = int(_start_value(np.asarray(codes, dtype=np.int64), blank, fast, extra))
        return (fast, extra), max(own, dual)

    return Heuristic(
        "pdb-dual",
        True,
        _pdb_dual_move,
        init,
        plain.description + ", maxed with the dual look-up (the blank walked home)",
        options=plain.options,
    )
