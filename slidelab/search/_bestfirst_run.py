"""Running the compiled best-first kernel (:mod:`._bestfirst`): packing boards into words,
growing the node and heap arrays, slices between which the limits are checked.

:mod:`.astar` (A* and weighted A*) and :mod:`._polish` (optimal re-solving of a
weighted path's windows) both search through :func:`run_kernel`.
"""

from __future__ import annotations

import numpy as np

from ..errors import SearchLimitError
from ..heuristics import Heuristic
from ..puzzle import Puzzle
from ..solution import Phase, Stats, Visit
from ..units import format_bytes
from . import _bestfirst as bf
from .limits import Limits, out_of_memory

#: expansions per kernel slice (limits and progress are checked between slices)
SLICE = 1 << 14
#: while expansions are recorded (one a slice), the limits are looked at every so many
SLICE_RECORDED = 256
#: node and heap capacity to start with (the arrays double when full)
INITIAL_NODES = 1 << 10
#: path-stack depth to start with (doubled when a path gets deeper)
INITIAL_DEPTH = 256


class Packing:
    """How boards are packed into 64-bit words: ``bits`` per cell, ``per`` cells a word."""

    def __init__(self, puzzle: Puzzle):
        n = puzzle.width * puzzle.height
        self.bits = max(1, len(puzzle.labels).bit_length())
        self.per = 64 // self.bits
        self.words = -(-n // self.per)
        cells = np.arange(n)
        self.word_of = (cells // self.per).astype(np.int64)
        self.shift_of = ((cells % self.per) * self.bits).astype(np.uint64)

    def pack(self, codes) -> np.ndarray:
        """The words of a board (label codes), cell 0 in the lowest bits.

        Examples
        --------
        >>> Packing(Puzzle("1 2/3 0")).pack([1, 2, 3, 0]).tolist()  # 2 bits a cell
        [57]
        """
        parts = np.asarray(codes).astype(np.uint64) << self.shift_of
        out = np.zeros(self.words, dtype=np.uint64)
        np.bitwise_or.at(out, self.word_of, parts)
        return out

    def node_bytes(self) -> int:
        """Bytes per node: key, g, parent, direction, amount, h, flags, stack depth, 2 hash slots."""
        return 8 * self.words + 4 + 4 + 1 + 1 + 4 + 1 + 4 + 2 * 4


class _Nodes:
    """The kernel's node arrays, hash table and heap, grown by doubling."""

    def __init__(self, packing: Packing, cap: int, heap_cap: int):
        self.packing = packing
        self.keys = np.zeros((cap, packing.words), dtype=np.uint64)
        self.gs = np.zeros(cap, dtype=np.int32)
        self.parent = np.full(cap, -1, dtype=np.int32)
        self.pdir = np.full(cap, -1, dtype=np.int8)
        self.pamt = np.ones(cap, dtype=np.int8)
        self.hs = np.zeros(cap, dtype=np.int32)
        self.flags = np.zeros(cap, dtype=np.uint8)
        self.onstack = np.full(cap, -1, dtype=np.int32)
        self.table = np.full(2 * cap, -1, dtype=np.int32)
        self.hp = np.zeros((heap_cap, 2), dtype=np.int64)

    @property
    def cap(self) -> int:
        return self.keys.shape[0]

    @staticmethod
    def bytes_for(packing: Packing, cap: int, heap_cap: int) -> int:
        return cap * packing.node_bytes() + heap_cap * 16

    def grow_nodes(self, n: int) -> None:
        cap = 2 * self.cap
        for name in ("keys", "gs", "parent", "pdir", "pamt", "hs", "flags", "onstack"):
            old = getattr(self, name)
            new = np.empty((cap,) + old.shape[1:], dtype=old.dtype)
            new[:n] = old[:n]
            new[n:] = -1 if name in ("parent", "pdir", "onstack") else 0
            setattr(self, name, new)
        self.table = np.full(2 * cap, -1, dtype=np.int32)
        bf.rehash(self.table, self.keys, n)

    def grow_heap(self, size: int) -> None:
        new = np.zeros((2 * self.hp.shape[0], 2), dtype=np.int64)
        new[:size] = self.hp[:size]
        self.hp = new


class _Stack:
    """The path stack and the heuristic's per-depth rows, for ``depth`` single-tile steps (and
    a slide of ``reach`` past them: a child's estimate)."""

    def __init__(self, heur: Heuristic, start: np.ndarray, depth: int, reach: int):
        self.hdata, self.h0 = heur.prepare(start, depth + reach)
        self.snode = np.zeros(depth + 1, dtype=np.int32)
        self.sdir = np.zeros(depth + 1, dtype=np.int8)
        self.sh = np.zeros(depth + 2, dtype=np.int64)
        self.chain = np.zeros(depth + 2, dtype=np.int32)
        self.sh[0] = self.h0


class WindowCapped(Exception):
    """A search run with ``cap`` stored more nodes than that (internal to polishing)."""


def run_kernel(
    start: np.ndarray,
    goal: np.ndarray,
    nbr: np.ndarray,
    packing: Packing,
    heur: Heuristic,
    weight: float,
    limits: Limits,
    method: str,
    stats: Stats,
    *,
    cap: int | None = None,
    shorter_than: int | None = None,
    warm: bool = False,
    reach: int = 1,
    contours: bool = False,
    name=None,
) -> list[int] | None:
    """Blank directions of the path the kernel finds from ``start`` to ``goal`` (label codes),
    one per single-tile step; a move slides 1 .. ``reach`` tiles (1: STM; more: MTM).

    The run's counts are added to ``stats`` (``stored`` and ``peak_frontier``
    keep the largest).  Limits are checked between slices; ``limits.max_states``
    and the memory limit raise :class:`SearchLimitError`, while ``cap`` (a
    node budget) raises :class:`WindowCapped`.  With ``shorter_than``, nodes
    with ``g + h`` at least that are dropped and None is returned when no path
    is left (with an admissible ``h``: none shorter exists).  With ``warm`` the
    kernel is loaded first and the loading time is not counted as search time.  With
    ``contours``, the answer's ``stats.phases`` are its f-contours (:func:`f_contours`).
    With ``name`` (label codes to the board's text) and ``limits.record``, its first
    expansions are recorded in ``stats.visits`` (:func:`_visit`): the kernel then runs one
    expansion a slice, and the node it expanded is the top of its path stack.
    """
    allowed = limits.bytes_allowed
    size0 = INITIAL_NODES
    nodes = limits.allocate(
        lambda: _Nodes(packing, size0, size0),
        _Nodes.bytes_for(packing, size0, size0),
        "its first node arrays",
        method,
        stats,
    )
    stack = _Stack(heur, start, INITIAL_DEPTH, reach)
    bound = float(shorter_than) if shorter_than is not None else np.inf
    est0 = heur.estimate(stack.h0)
    if est0 >= bound:
        return None
    board = np.array(start, dtype=np.int16)
    blank0 = int(np.flatnonzero(board == 0)[0])
    nodes.keys[0] = packing.pack(board)
    nodes.hs[0] = est0
    nodes.onstack[0] = 0
    bf.rehash(nodes.table, nodes.keys, 1)
    fbox = np.zeros(1, dtype=np.float64)
    fbits = fbox.view(np.int64)
    fbox[0] = weight * est0
    nodes.hp[0] = (fbits[0], 0)
    st = np.zeros(9, dtype=np.int64)
    st[bf.S_NODES] = st[bf.S_HEAP] = st[bf.S_PEAK] = 1
    st[bf.S_BLANK] = blank0
    ckey = np.zeros(packing.words, dtype=np.uint64)
    goal_key = packing.pack(goal)
    max_nodes = min(x for x in (limits.max_states, cap, np.iinfo(np.int64).max) if x is not None)
    weight = float(weight)
    base = (stats.expanded, stats.generated, stats.stored, stats.peak_frontier)

    def run(budget):
        return bf.best_first_run(
            nbr,
            stack.hdata,
            weight,
            goal_key,
            packing.word_of,
            packing.shift_of,
            nodes.keys,
            nodes.gs,
            nodes.parent,
            nodes.pdir,
            nodes.pamt,
            nodes.hs,
            nodes.flags,
            nodes.onstack,
            nodes.table,
            nodes.hp,
            fbox,
            fbits,
            board,
            stack.snode,
            stack.sdir,
            stack.sh,
            stack.chain,
            ckey,
            st,
            budget,
            max_nodes,
            bound,
            reach=reach,
            divisor=heur.divisor,
        )

    if warm:
        run(0)  # load (or compile) the kernel outside the search time
        limits.started += limits.elapsed()

    def update():
        stats.expanded = base[0] + int(st[bf.S_EXPANDED])
        stats.generated = base[1] + int(st[bf.S_GENERATED])
        stats.stored = max(base[2], int(st[bf.S_NODES]))
        stats.peak_frontier = max(base[3], int(st[bf.S_PEAK]))
        stats.seconds = limits.elapsed()

    record = limits.record if name is not None else 0
    while True:
        recording = len(stats.visits) < record
        status = run(1 if recording else SLICE)
        update()
        if recording and status == bf.RUNNING:
            stats.visits.append(_visit(nodes, stack, st, board, weight, name))
            if len(stats.visits) % SLICE_RECORDED:
                continue  # (the limits are looked at every so many of them)
        if status == bf.FOUND:
            if contours:
                stats.phases.extend(f_contours(nodes, int(st[bf.S_NODES]), heur.divisor))
            return stack.sdir[: int(st[bf.S_DEPTH])].tolist()
        if status == bf.EXHAUSTED:
            if shorter_than is not None:
                return None
            raise AssertionError("best-first search ran out of states without reaching the goal")
        if status == bf.CAPPED and cap is not None and int(st[bf.S_NODES]) > cap:
            raise WindowCapped()
        if status == bf.FULL:
            n, size = int(st[bf.S_NODES]), int(st[bf.S_HEAP])
            grow_nodes = n + 4 * reach > nodes.cap
            new_cap = 2 * nodes.cap if grow_nodes else nodes.cap
            new_heap = nodes.hp.shape[0] if grow_nodes else 2 * nodes.hp.shape[0]
            need = _Nodes.bytes_for(packing, new_cap, new_heap)
            if need > allowed:
                raise SearchLimitError(
                    f"limit reached: {method} stored {n:,} states ({size:,} open) and needs"
                    f" {format_bytes(need)} to go on, over the memory limit of {format_bytes(allowed)}",
                    stats,
                )
            try:
                if grow_nodes:
                    nodes.grow_nodes(n)
                else:
                    nodes.grow_heap(size)
            except MemoryError:
                raise out_of_memory(
                    method, f"{n:,} states ({size:,} open), {need:,} bytes", stats
                ) from None
        elif status == bf.DEEP:
            depth = int(st[bf.S_DEPTH])
            on = stack.snode[1 : depth + 1]
            nodes.onstack[on[on >= 0]] = -1
            try:
                stack = _Stack(heur, start, 2 * (stack.snode.shape[0] - 1), reach)
            except MemoryError:
                raise out_of_memory(method, "a deeper path stack", stats) from None
            board[:] = start
            st[bf.S_DEPTH] = 0
            st[bf.S_BLANK] = blank0
        limits.check(stats, method, open=int(st[bf.S_HEAP]))


def _visit(nodes: _Nodes, stack: _Stack, st: np.ndarray, board, weight: float, name) -> Visit:
    """The node the kernel has just expanded (a slice of one expansion): the top of its path
    stack, whose board ``board`` holds; ``name`` gives the board's text."""
    x = int(stack.snode[int(st[bf.S_DEPTH])])
    g, h = int(nodes.gs[x]), int(nodes.hs[x])
    closed = int(st[bf.S_EXPANDED] - st[bf.S_REOPENED])
    return Visit(
        "expanded", "", name(board), g, h, g + weight * h, int(st[bf.S_NODES]) - closed, closed
    )


def f_contours(nodes: _Nodes, n: int, divisor: int = 1) -> list[Phase]:
    """A* with a consistent heuristic expands its nodes by rising ``f = g + h``: its search,
    contour by contour, read from the ``n`` nodes it stored once it found the goal.  A phase
    of kind ``"contour"`` per value of ``f`` (its ``depth``): the nodes expanded (closed) at that
    ``f``, the nodes stored at it (``generated``: each a first visit), and those still open
    (``frontier``); its seconds are not told apart (0)."""
    g = nodes.gs[:n].astype(np.int64)
    h = nodes.hs[:n].astype(np.int64)
    f = g + (h if divisor == 1 else (h + divisor - 1) // divisor)
    closed = (nodes.flags[:n] & bf.CLOSED) != 0
    values, at = np.unique(f, return_inverse=True)
    stored = np.bincount(at, minlength=values.size)
    expanded = np.bincount(at, weights=closed, minlength=values.size).astype(np.int64)
    return [
        Phase("contour", "", int(v), int(e), int(s), int(s - e), 0.0)
        for v, e, s in zip(values, expanded, stored, strict=True)
    ]
