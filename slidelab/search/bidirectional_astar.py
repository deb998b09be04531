"""Bidirectional A* by MM (Holte, Felner, Sharon and Sturtevant 2016): optimal, and the two
searches are guaranteed to meet in the middle.

One best-first search runs from the start with the method's heuristic, one from
the goal with the same heuristic made for the puzzle turned round (the start as
goal: an estimate of the distance *to the start*).  Both order their open nodes
by ``pr(n) = max(g(n) + h(n), 2 g(n))``, so neither side expands a node past
half the optimal length; the side with the smaller least priority ``C`` is
expanded.  ``U``, the best path through a node both sides have reached, is
returned once

    ``U <= max(C, fminF, fminB, gminF + gminB + 1)``

(unit moves: MM's rule with ``epsilon = 1``), which proves it shortest with
admissible estimates on both sides.  The compiled kernel and the argument for
the rule are in :mod:`slidelab.search._mm`.

The backward estimate is built here, per puzzle, and counts as search time:
Manhattan distance and linear conflicts cost nothing, but pattern databases
are built anew for the start as goal (the same groups as the forward ones;
not cached, since no other puzzle shares them): about 6 s on 2 cores for the
15-puzzle's 6-6-3, minutes for 7-8.  A build expected to outlast the time
limit is refused up front.
"""

from __future__ import annotations

import logging
import time

import numpy as np

from ..errors import SearchLimitError, SlidelabError, UnsolvableError
from ..heuristics import Heuristic, make_heuristic
from ..puzzle import Puzzle
from ..solution import Solution, Stats, make_solution
from ..units import format_bytes
from . import _mm as mm
from ._bestfirst import rehash
from ._bestfirst_run import Packing
from ._common import search_entry
from .limits import Limits, out_of_memory

log = logging.getLogger(__name__)

METHOD = "bidirectional-astar"
#: expansions per kernel slice (limits and progress are checked between slices)
SLICE = 1 << 14
#: node and heap capacity to start with (the arrays double when full)
INITIAL_NODES = 1 << 10
#: path-stack depth to start with, per side (doubled when a path gets deeper)
INITIAL_DEPTH = 128


def backward_heuristic(puzzle: Puzzle, heuristic: Heuristic) -> Heuristic:
    """``heuristic`` made for the puzzle turned round: an estimate of the distance from a
    board to ``puzzle``'s start.  Pattern databases keep their groups and are built, not
    cached.

    Examples
    --------
    >>> from slidelab.heuristics import make_heuristic
    >>> p = Puzzle("1 2 3/4 5 6/0 7 8")
    >>> backward_heuristic(p, make_heuristic(p, "manhattan")).value(p.goal_codes)
    2
    """
    from ..heuristics.registry import HEURISTICS

    if heuristic.name not in HEURISTICS:
        raise SlidelabError(
            f"{METHOD} makes its heuristic again for the start as goal, so it takes a registered"
            f" heuristic ({', '.join(HEURISTICS)}), not {heuristic.name!r}"
        )
    reverse = Puzzle(puzzle.goal, puzzle.start)
    return make_heuristic(reverse, heuristic.name, cache=False, **heuristic.options)


def _backward_tables(puzzle: Puzzle, heuristic: Heuristic, limits: Limits) -> None:
    """The backward heuristic's tables (the start as goal), before :func:`backward_heuristic`
    builds them uncached: announced, and refused up front where their build would outlast the
    time limit (:func:`slidelab.tables.family.refuse_past`)."""
    from ..tables.family import announce, cost_of, refuse_past
    from .policy import tables_for

    reverse = Puzzle(puzzle.goal, puzzle.start)
    tables = tables_for(reverse, heuristic.name, heuristic.metric, heuristic.options)
    if tables is None:
        return
    parts = tables.parts()
    cost = cost_of(parts)
    refuse_past(tables, cost, parts, limits.clock if limits.left() is not None else None)
    announce(tables, cost)


class _Nodes:
    """The kernel's node arrays (two rows per side field), hash table and two heaps."""

    def __init__(self, packing: Packing, cap: int, heap_cap: int):
        self.keys = np.zeros((cap, packing.words), dtype=np.uint64)
        self.gs = np.zeros((2, cap), dtype=np.int32)
        self.parent = np.full((2, cap), -1, dtype=np.int32)
        self.pdir = np.full((2, cap), -1, dtype=np.int8)
        self.hs = np.zeros((2, cap), dtype=np.int32)
        self.flags = np.zeros(cap, dtype=np.uint8)
        self.onstack = np.full((2, cap), -1, dtype=np.int32)
        self.table = np.full(2 * cap, -1, dtype=np.int32)
        self.heaps = [np.zeros((heap_cap, 2), dtype=np.int64) for _ in range(2)]

    @property
    def cap(self) -> int:
        return self.keys.shape[0]

    @property
    def arrays(self) -> tuple:
        """The node arrays and the hash table as the kernel takes them (its ``nodes``)."""
        return (
            self.keys,
            self.gs,
            self.parent,
            self.pdir,
            self.hs,
            self.flags,
            self.onstack,
            self.table,
        )

    @staticmethod
    def node_bytes(packing: Packing) -> int:
        """Key, two of (g, parent, direction, h, stack depth), flags, 2 hash slots."""
        return 8 * packing.words + 2 * (4 + 4 + 1 + 4 + 4) + 1 + 2 * 4

    @staticmethod
    def bytes_for(packing: Packing, cap: int, heap_caps) -> int:
        return cap * _Nodes.node_bytes(packing) + 16 * sum(heap_caps)

    def grow_nodes(self, n: int) -> None:
        cap = 2 * self.cap
        for name in ("keys", "flags"):
            old = getattr(self, name)
            new = np.zeros((cap,) + old.shape[1:], dtype=old.dtype)
            new[:n] = old[:n]
            setattr(self, name, new)
        for name in ("gs", "parent", "pdir", "hs", "onstack"):
            old = getattr(self, name)
            new = np.full((2, cap), -1, dtype=old.dtype)
            new[:, :n] = old[:, :n]
            setattr(self, name, new)
        self.table = np.full(2 * cap, -1, dtype=np.int32)
        rehash(self.table, self.keys, n)

    def grow_heap(self, side: int, size: int) -> None:
        old = self.heaps[side]
        new = np.zeros((2 * old.shape[0], 2), dtype=np.int64)
        new[:size] = old[:size]
        self.heaps[side] = new


class _Stacks:
    """Both sides' path stacks and their heuristics' per-depth rows, for ``depth`` moves."""

    def __init__(self, heuristics, roots, depth: int):
        prepared = [h.prepare(r, depth) for h, r in zip(heuristics, roots, strict=True)]
        self.hdata = [data for data, _ in prepared]
        self.h0 = [int(h0) for _, h0 in prepared]
        self.snode = np.zeros((2, depth + 1), dtype=np.int32)
        self.sdir = np.zeros((2, depth + 1), dtype=np.int8)
        self.sh = np.zeros((2, depth + 2), dtype=np.int64)
        self.sh[:, 0] = self.h0
        self.chain = np.zeros(depth + 2, dtype=np.int32)

    @property
    def depth(self) -> int:
        return self.snode.shape[1] - 1


def _path(nodes: _Nodes, meet: int) -> list[int]:
    """Blank directions from the start to the goal through node ``meet``: up the forward
    parents to the start (reversed), then down the backward parents to the goal."""
    parent, pdir = nodes.parent, nodes.pdir
    near = []
    x = meet
    while parent[0, x] >= 0:
        near.append(int(pdir[0, x]))
        x = int(parent[0, x])
    far = []
    x = meet
    while parent[1, x] >= 0:
        far.append(int(pdir[1, x]) ^ 1)
        x = int(parent[1, x])
    return near[::-1] + far


def _run(puzzle: Puzzle, forward: Heuristic, backward: Heuristic, limits: Limits, stats: Stats):
    """Blank directions of a shortest path, by the kernel in slices (limits checked between)."""
    packing = Packing(puzzle)
    allowed = limits.bytes_allowed
    size0 = INITIAL_NODES
    nodes = limits.allocate(
        lambda: _Nodes(packing, size0, size0),
        _Nodes.bytes_for(packing, size0, (size0, size0)),
        "its first node arrays",
        METHOD,
        stats,
    )
    roots = [np.array(puzzle.start_codes, dtype=np.int16), np.array(puzzle.goal_codes, np.int16)]
    stacks = _Stacks((forward, backward), roots, INITIAL_DEPTH)
    boards = [r.copy() for r in roots]
    blanks = [int(np.flatnonzero(r == 0)[0]) for r in roots]
    gcnt = np.zeros((2, mm.WIDTH), dtype=np.int64)
    fcnt = np.zeros((2, mm.WIDTH), dtype=np.int64)
    st = np.zeros(mm.ST_SIZE, dtype=np.int64)
    for side in range(2):  # node 0 is the start (forward root), node 1 the goal (backward root)
        h0 = stacks.h0[side]
        nodes.keys[side] = packing.pack(roots[side])
        nodes.flags[side] = mm.SEEN[side]
        nodes.gs[side, side] = 0
        nodes.hs[side, side] = h0
        nodes.onstack[side, side] = 0
        nodes.heaps[side][0] = (h0, side)
        gcnt[side, 0] = 1
        fcnt[side, min(h0, mm.WIDTH - 1)] = 1
        st[mm.S_HEAP + side] = st[mm.S_OPEN + side] = 1
        st[mm.S_FPTR + side] = min(h0, mm.WIDTH - 1)
        st[mm.S_BLANK + side] = blanks[side]
    rehash(nodes.table, nodes.keys, 2)
    st[mm.S_NODES] = st[mm.S_PEAK] = 2
    st[mm.S_U] = mm.NO_PATH
    st[mm.S_MEET] = -1
    ckey = np.zeros(packing.words, dtype=np.uint64)
    max_nodes = limits.max_states if limits.max_states is not None else np.iinfo(np.int64).max

    def run(budget):
        return mm.mm_run(
            puzzle.neighbours,
            stacks.hdata[0],
            stacks.hdata[1],
            packing.word_of,
            packing.shift_of,
            nodes.arrays,
            nodes.heaps[0],
            nodes.heaps[1],
            gcnt,
            fcnt,
            boards[0],
            boards[1],
            stacks.snode,
            stacks.sdir,
            stacks.sh,
            stacks.chain,
            ckey,
            st,
            budget,
            max_nodes,
        )

    loading = time.perf_counter()
    run(0)  # load (or compile) the kernel outside the search time
    limits.started += time.perf_counter() - loading

    def update():
        forward_, backward_ = int(st[mm.S_EXPANDED]), int(st[mm.S_EXPANDED + 1])
        stats.expanded_forward, stats.expanded_backward = forward_, backward_
        stats.expanded = forward_ + backward_
        stats.generated = int(st[mm.S_GENERATED])
        stats.stored = int(st[mm.S_NODES])
        stats.peak_frontier = int(st[mm.S_PEAK])
        stats.seconds = limits.elapsed()

    while True:
        status = run(SLICE)
        update()
        if status in (mm.FOUND, mm.EXHAUSTED):
            best = int(st[mm.S_U])
            if best == mm.NO_PATH:
                raise AssertionError(f"{METHOD} ran out of states without reaching the goal")
            path = _path(nodes, int(st[mm.S_MEET]))
            if len(path) != best:
                raise AssertionError(
                    f"{METHOD} found a path of {best} moves but traced {len(path)}"
                )
            return path
        if status == mm.FULL:
            n = int(st[mm.S_NODES])
            sizes = [int(st[mm.S_HEAP + side]) for side in range(2)]
            grow_nodes = n + 4 > nodes.cap
            full = [side for side in range(2) if sizes[side] + 4 > nodes.heaps[side].shape[0]]
            new_cap = 2 * nodes.cap if grow_nodes else nodes.cap
            heap_caps = [
                h.shape[0] * (2 if side in full and not grow_nodes else 1)
                for side, h in enumerate(nodes.heaps)
            ]
            need = nodes.bytes_for(packing, new_cap, heap_caps)
            if need > allowed:
                raise SearchLimitError(
                    f"limit reached: {METHOD} stored {n:,} states ({sum(sizes):,} open) and needs"
                    f" {format_bytes(need)} to go on, over the memory limit of"
                    f" {format_bytes(allowed)}",
                    stats,
                )
            try:
                if grow_nodes:
                    nodes.grow_nodes(n)
                else:
                    for side in full:
                        nodes.grow_heap(side, sizes[side])
            except MemoryError:
                raise out_of_memory(
                    METHOD, f"{n:,} states ({sum(sizes):,} open), {need:,} bytes", stats
                ) from None
        elif status == mm.DEEP:
            for side in range(2):
                depth = int(st[mm.S_DEPTH + side])
                nodes.onstack[side, stacks.snode[side, 1 : depth + 1]] = -1
                boards[side][:] = roots[side]
                st[mm.S_DEPTH + side] = 0
                st[mm.S_BLANK + side] = blanks[side]
            try:
                stacks = _Stacks((forward, backward), roots, 2 * stacks.depth)
            except MemoryError:
                raise out_of_memory(METHOD, "deeper path stacks", stats) from None
        limits.check(stats, METHOD, open=int(st[mm.S_OPEN] + st[mm.S_OPEN + 1]))


@search_entry(METHOD)
def bidirectional_astar(
    puzzle: Puzzle, *, heuristic="manhattan", limits: Limits | None = None, metric: str = "stm"
) -> Solution:
    """Shortest solution by bidirectional A* (MM): optimal with an admissible heuristic.

    The search from the goal uses ``heuristic`` made for the start as goal
    (:func:`backward_heuristic`; pattern databases are built for it, which counts
    as search time).  ``stats`` gives each side's expansions.  Single-tile moves only
    (``metric="stm"``; its registry entry declares so).

    Examples
    --------
    >>> from slidelab import Puzzle
    >>> s = bidirectional_astar(Puzzle("8 6 7/2 5 4/3 0 1"))
    >>> s.length, s.optimal, s.stats.expanded == s.stats.expanded_forward + s.stats.expanded_backward
    (31, True, True)
    """
    from ..solvability import check

    if metric != "stm":
        raise SlidelabError(f"{METHOD} searches in single-tile moves (stm) only, not {metric}")
    stats = Stats()
    if puzzle.is_solved:
        stats.stored = 1
        return make_solution(puzzle, [], True, METHOD, stats)
    verdict = check(puzzle)
    if not verdict.solvable:
        raise UnsolvableError(verdict.reason)
    _backward_tables(puzzle, heuristic, limits)
    backward = backward_heuristic(puzzle, heuristic)
    limits.check(stats, METHOD)
    path = _run(puzzle, heuristic, backward, limits, stats)
    optimal = heuristic.admissible and backward.admissible
    return make_solution(puzzle, path, optimal, METHOD, stats)
