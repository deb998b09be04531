"""Dual look-ups inside IDA*: nodes generated on Korf's 100, not estimates on random positions.

``benchmarks/dual.py`` measured the admissible dual look-ups of the 7-8 additive pattern
databases by how often they raise the estimate of a random 15-puzzle (5.4 % of positions, by
0.12 moves).  A search does not meet random positions: it meets positions near its bound, where
a small rise prunes a subtree.  So this script runs the estimates in a search and counts nodes.

It is a measuring prototype (slidelab's own form of ``+walk``, without BPMX, is
``--heuristic pdb-dual``, measured by ``benchmarks/nodes.py``): a compiled IDA* whose estimate
is computed from scratch at every node (slidelab's kernel updates it per move), walking every path but the
straight-back one (as the published searches did) or pruning slidelab's duplicate paths, with
these estimates (goal: blank first):

- ``R+R*``: the 7-8 tables on the board and on its reflection, maxed: slidelab's default, the
  control (it must give ``benchmarks/nodes.py``'s counts, give or take the order of moves);
- ``+walk``: maxed with the dual look-up of the board with its blank walked home, less the
  walk's moves (rows first and columns first; the board and its reflection), which is
  admissible with any tables (``benchmarks/dual.py``); with bidirectional pathmax (BPMX:
  a parent takes its best child's estimate less one, a child its parent's) or without;
  ``(rows first only)`` one walk; ``+walks`` every shortest walk home;
- with ``--second PARTITION``, ``+second``: maxed with a second two-group partition's tables
  (board and reflection).

The dual is looked up only for a child the tables' own estimate does not already prune, as a
search would do it; the column "dual look-ups a node" counts those boards per node generated.
The simple dual (every group read on the inverse permutation) is left out: with slidelab's
tables it is not admissible, and in this search it does not find Korf's #1 (57 moves) with
bounds up to 65.

Run: ``python benchmarks/dual_search.py [--limit 100] [--random 1000] [--second PARTITION]``
(the 7-8 tables cached: ``slidelab tables build 4x4 --blank-first --partition 7-8``).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from _ida_prototype import ida_with
from _korf import with_random

from slidelab import Puzzle
from slidelab._jit import njit
from slidelab.heuristics.pdb import pattern_database
from slidelab.search.move_pruning import automaton, walk_every_path
from slidelab.tables.pdb.layout import group_index

REFLECT, WALK, ROWS, WALKS, BPMX, SECOND = 1, 2, 4, 8, 16, 32
FORMS = {
    "R+R*": REFLECT,
    "R+R* +walk": REFLECT | WALK,
    "R+R* +walk +BPMX": REFLECT | WALK | BPMX,
    "R+R* +walk (rows first only) +BPMX": REFLECT | WALK | ROWS | BPMX,
    "R+R* +walks +BPMX": REFLECT | WALKS | BPMX,
}
#: with ``--second``: the second partition's tables too, on the board and its reflection
SECOND_FORMS = {
    "R+R* +second": REFLECT | SECOND,
    "R+R* +second +walk +BPMX": REFLECT | SECOND | WALK | BPMX,
}


@njit(cache=True)
def _sides(cells, flags, t0, t1, lay, ident, isig, refl, rsig):
    """The 7-8 sum on ``cells``, maxed with its reflection's where ``flags`` says."""
    gof, gpos, gm, binom, mult, seen, earlier, combo = lay
    h = t0[group_index(cells, ident, isig, 0, gof, gpos, gm, binom, mult, seen, earlier, combo)]
    h += t1[group_index(cells, ident, isig, 1, gof, gpos, gm, binom, mult, seen, earlier, combo)]
    if flags & REFLECT:
        r = t0[group_index(cells, refl, rsig, 0, gof, gpos, gm, binom, mult, seen, earlier, combo)]
        r += t1[group_index(cells, refl, rsig, 1, gof, gpos, gm, binom, mult, seen, earlier, combo)]
        if r > h:
            h = r
    return np.int64(h)


@njit(cache=True)
def _dual_of(cells, out):
    for c in range(cells.shape[0]):
        out[cells[c]] = c


@njit(cache=True)
def _walk_dual(cells, blank, moves, tmp, dual, flags, t0, t1, lay, ident, isig, refl, rsig):
    """The dual look-up of ``cells`` with its blank walked home along ``moves`` (a bit per
    step: 1 a row up, 0 a column left), less the walk."""
    width = 4
    for c in range(cells.shape[0]):
        tmp[c] = cells[c]
    b = blank
    m = 0
    steps = blank // width + blank % width
    for i in range(steps):
        nb = b - width if (moves >> i) & 1 else b - 1
        tmp[b] = tmp[nb]
        tmp[nb] = 0
        b = nb
        m += 1
    _dual_of(tmp, dual)
    return _sides(dual, flags, t0, t1, lay, ident, isig, refl, rsig) - m


@njit(cache=True)
def _estimate(
    cells, blank, flags, enough, tmp, dual, t0, t1, lay, ident, isig, refl, rsig, more, count
):
    """The estimate of ``cells``, exact up to ``enough`` (the dual look-ups, the costly part,
    only where the tables' own sum is not already over it, as a search would; ``count[0]``
    counts the boards whose dual is looked up)."""
    h = _sides(cells, flags, t0, t1, lay, ident, isig, refl, rsig)
    if flags & SECOND and h <= enough:
        u0, u1, lay2 = more
        v = _sides(cells, flags, u0, u1, lay2, ident, isig, refl, rsig)
        if v > h:
            h = v
    if h > enough or not flags & (WALK | WALKS):
        return h
    count[0] += 1
    width = 4
    r, c = blank // width, blank % width
    steps = r + c
    for moves in range(1 << steps):
        ups = 0
        for i in range(steps):
            ups += (moves >> i) & 1
        if ups != r:
            continue
        if flags & WALK:  # rows first, or columns first, only
            rows_first = moves == (1 << r) - 1
            cols_first = moves == ((1 << r) - 1) << c
            if not (rows_first or (cols_first and not flags & ROWS)):
                continue
        v = _walk_dual(cells, blank, moves, tmp, dual, flags, t0, t1, lay, ident, isig,
                       refl, rsig)  # fmt: skip
        if v > h:
            h = v
            if h > enough:
                break
    return h


@njit(cache=True)
def _estimate_of(cells, blank, enough, args):
    """:func:`_estimate` with the prototype IDA*'s arguments."""
    flags, tmp, dual, t0, t1, lay, ident, isig, refl, rsig, more, count = args
    return _estimate(cells, blank, flags, enough, tmp, dual, t0, t1, lay, ident, isig, refl,
                     rsig, more, count)  # fmt: skip


_search = ida_with(_estimate_of)


def _ida(board, nbr, fsm, flags, t0, t1, lay, ident, isig, refl, rsig, more):
    """IDA* from ``board`` (goal: the identity), the paths ``fsm`` refuses not walked (nor the
    blank straight back); returns (length, nodes generated, boards whose dual was looked up)."""
    n = board.shape[0]
    count = np.zeros(1, np.int64)
    args = (flags, np.empty(n, np.int64), np.empty(n, np.int64), t0, t1, lay, ident, isig, refl,
            rsig, more, count)  # fmt: skip
    length, generated = _search(board, nbr, fsm, args, bool(flags & BPMX))
    return length, generated, int(count[0])


def setup(puzzle: Puzzle, second: str | None = None) -> tuple:
    """The kernels' table arguments: the 7-8 tables, the views, and ``more`` (the second
    partition's tables, or the 7-8's again, unused)."""
    pdb = pattern_database(puzzle, "7-8", reflect=True)
    other = pattern_database(puzzle, second, reflect=True) if second else pdb

    def parts(db):
        lay = db.layout
        t0, t1 = db.tables
        return t0, t1, (lay.gof, lay.gpos, lay.gm, lay.binom, lay.mult, *lay.scratch())

    return (*parts(pdb), pdb.ident, pdb.ident_sigma, pdb.refl, pdb.sigma, parts(other))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=100, help="the first N of Korf's 100")
    parser.add_argument("--random", type=int, default=0, help="and N seeded random 15-puzzles")
    parser.add_argument("--forms", default=None, help="which estimates (; between)")
    parser.add_argument("--second", default=None, help="a second 15-puzzle partition (2 groups)")
    args = parser.parse_args()
    forms = {**FORMS, **SECOND_FORMS} if args.second else FORMS
    names = args.forms.split(";") if args.forms else list(forms)
    sets = with_random(args.limit, args.random)
    first = sets["Korf's 100"][0][0]
    tables = setup(first, args.second)
    nbr = first.neighbours.astype(np.int64)
    print("| estimate | paths walked | instances | generated per instance (mean) | median"
          " | dual look-ups a node | lengths off | prototype s |")  # fmt: skip
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for paths, fsm in (("all but straight back", walk_every_path()),
                       ("duplicates pruned", automaton())):  # fmt: skip
        fsm = fsm.astype(np.int64)
        for name in names:
            flags = forms[name]
            _ida(np.array(first.start_codes, np.int64), nbr, fsm, flags, *tables)  # compiled
            for which, instances in sets.items():
                nodes, duals, off, began = [], 0, 0, time.perf_counter()
                for puzzle, known in instances:
                    board = np.array(puzzle.start_codes, np.int64)
                    length, generated, looked = _ida(board, nbr, fsm, flags, *tables)
                    nodes.append(generated)
                    duals += looked
                    off += known is not None and length != known
                seconds = time.perf_counter() - began
                print(f"| {name} | {paths} | {which} | {statistics.mean(nodes):,.0f} |"
                      f" {statistics.median(nodes):,.0f} | {duals / sum(nodes):.2f} | {off} |"
                      f" {seconds:.1f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
