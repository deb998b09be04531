"""Distance tables: every position's exact distance to the goal, and optimal solving by descent.

A table holds one entry per state index of :mod:`.index`, in one of two
encodings, told apart by the array's length:

- **four bits** (``ceil(states / 2)`` bytes): ``(d - h) / 2``, where ``d`` is the
  distance and ``h`` the Manhattan distance (with repeated labels: to the
  nearest goal cell of the label, lowered by one where its parity differs from
  the distance's, which the blank's cell fixes).  A move changes both by one,
  so ``d - h`` is even, and ``d = h + 2 * entry``.  Used when every entry is
  at most 15: the 8-puzzle's table is 90,720 bytes.
- **a byte** (``states`` bytes): ``d`` itself, for spaces where some
  ``(d - h) / 2`` exceeds 15 (2x6, whose hardest positions are 80 moves away).

:meth:`DistanceTable.distance` is one look-up; :meth:`DistanceTable.solve`
walks downhill, taking at each step a move to a neighbour one closer (the
distance of a neighbour is one more or one less), so the solution is optimal
without any search.

Tables are cached on disk by :func:`slidelab.cache.load_or_build` under the
spec ``{"kind": "distance", "board": "WxH", "goal": ..., "version": 1}``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import numba
import numpy as np
from numba import prange

from .._jit import njit
from ..board import Board
from ..errors import UnsolvableError
from ..puzzle import Puzzle
from ..solution import Solution, Stats, make_solution
from .budget import check_budget, check_limits
from .index import Space, _heuristic, _heuristic_at, _index_of, _load_at, _step, space_of
from .layers import BLOCK_SHIFT, UNREACHED, Layers, search_layers

log = logging.getLogger(__name__)

#: raise when the table's contents or encoding change
VERSION = 1


def table_spec(space: Space) -> dict:
    """The cache spec of the distance table of ``space``'s goal."""
    return {
        "kind": "distance",
        "board": f"{space.width}x{space.height}",
        "goal": space.goal.format(),
        "version": VERSION,
    }


# ---------------------------------------------------------------------------- kernels


@njit(cache=True, inline="always")
def _pack_body(depth, nib, g, lo, hi, distinct):
    """Four-bit entries for states ``lo .. hi - 1`` (``lo`` even); returns the largest entry (99: unusable)."""
    m, w, H, radix, Tab, counts, full, needpar, md, gb = (
        g[1],
        g[2],
        g[3],
        g[7],
        g[9],
        g[10],
        g[11],
        g[12],
        g[13],
        g[14],
    )
    s = np.empty(m, np.int64)
    L = np.zeros(m, np.int64)
    c = np.empty(counts.shape[0], np.int64)
    b = np.int64(0)
    end = np.int64(-1)
    worst = 0
    for idx in range(lo, hi):
        if idx < end:
            _step(s, L, m, distinct, needpar[b])
        else:
            b = _load_at(idx, s, L, c, m, H, distinct, radix, Tab, counts, full, needpar)
            end = (b + 1) * H
        d = np.int64(depth[idx])
        if d == UNREACHED:
            return 99
        gap = d - _heuristic_at(s, b, w, distinct, md, gb)
        if gap < 0 or (gap & 1) != 0:
            return 99
        v = gap >> 1
        if v > 15:
            return 99
        if v > worst:
            worst = v
        nib[idx >> 1] |= np.uint8(v << ((idx & 1) << 2))
    return worst


@njit(cache=True)
def _pack_distinct(depth, nib, g, lo, hi):
    return _pack_body(depth, nib, g, lo, hi, True)


@njit(cache=True)
def _pack_multiset(depth, nib, g, lo, hi):
    return _pack_body(depth, nib, g, lo, hi, False)


@njit(cache=True, parallel=True)
def _pack(depth, nib, g, chunks, step):
    """The four-bit entries of all states in parallel; chunks of ``step`` states (even)."""
    n = depth.shape[0]
    worst = np.zeros(chunks, np.int64)
    if g[4]:
        for ch in prange(chunks):
            worst[ch] = _pack_distinct(depth, nib, g, min(n, ch * step), min(n, (ch + 1) * step))
    else:
        for ch in prange(chunks):
            worst[ch] = _pack_multiset(depth, nib, g, min(n, ch * step), min(n, (ch + 1) * step))
    return worst.max()


@njit(cache=True)
def _entry_distance(s, b, g, table, nibble):
    """Distance of (tile sequence, blank cell), or -1 when unreachable."""
    idx = _index_of(s, b, g)
    if idx < 0:
        return -1
    if nibble:
        v = (table[idx >> 1] >> ((idx & 1) << 2)) & 15
        return _heuristic(s, b, g) + 2 * np.int64(v)
    d = np.int64(table[idx])
    return -1 if d == UNREACHED else d


@njit(cache=True)
def _move(s, b, d, nb, w):
    """Move the blank of (``s``, ``b``) in direction ``d`` to ``nb`` (the tile sequence in place)."""
    if d == 1:  # down: the tile below jumps w - 1 tiles back
        x = s[b + w - 1]
        for k in range(b + w - 1, b, -1):
            s[k] = s[k - 1]
        s[b] = x
    elif d == 0:  # up: the tile above jumps w - 1 tiles on
        x = s[b - w]
        for k in range(b - w, b - 1):
            s[k] = s[k + 1]
        s[b - 1] = x


@njit(cache=True)
def _descend(s, b, g, table, nibble, out):
    """Blank directions of an optimal path to the goal, into ``out``; returns their number (-1: not reachable).

    ``s`` is changed.  Each step moves to a neighbour whose distance is one less.
    """
    w, nbr = g[2], g[5]
    d = _entry_distance(s, b, g, table, nibble)
    if d < 0:
        return -1
    n = 0
    while d > 0:
        moved = False
        for dd in range(4):
            nb = nbr[b, dd]
            if nb < 0:
                continue
            _move(s, b, dd, nb, w)
            d2 = _entry_distance(s, nb, g, table, nibble)
            if d2 == d - 1:
                out[n] = dd
                n += 1
                b = nb
                d = d2
                moved = True
                break
            _move(s, nb, dd ^ 1, b, w)  # undo
        if not moved:
            return -1
    return n


# ---------------------------------------------------------------------------- building


def pack_table(space: Space, depth: np.ndarray) -> np.ndarray:
    """The table's array from the search's byte per state: four bits when every entry fits, else the bytes."""
    g = space.kernel_args()
    n = depth.shape[0]
    nib = np.zeros((n + 1) // 2, np.uint8)
    step = 1 << BLOCK_SHIFT
    chunks = max(1, -(-n // step))
    previous = numba.set_parallel_chunksize(1)
    try:
        if chunks == 1 or numba.get_num_threads() == 1:
            worst = (_pack_distinct if space.distinct else _pack_multiset)(depth, nib, g, 0, n)
        else:
            worst = _pack(depth, nib, g, chunks, step)
    finally:
        numba.set_parallel_chunksize(previous)
    return nib if worst <= 15 else depth


def _layers_progress(progress):
    """A (fraction, message) callback as a callback of the search's dicts."""
    if progress is None:
        return None
    return lambda info: progress(
        info["fraction"], f"depth {info['depth']}, {info['states']:,} positions"
    )


class DistanceTable:
    """Exact distances to one goal for every position of its puzzle.

    Build (or load from the cache) with :meth:`build`; look distances up with
    :meth:`distance`; solve optimally with :meth:`solve`.

    Examples
    --------
    >>> import os, tempfile
    >>> from unittest import mock
    >>> with tempfile.TemporaryDirectory() as tmp, mock.patch.dict(os.environ, SLIDELAB_CACHE=tmp):
    ...     table = DistanceTable.build("3x3")
    >>> table
    DistanceTable('1 2 3/4 5 6/7 8 0', states=181440, encoding='4-bit', nbytes=90720)
    >>> table.distance("8 6 7/2 5 4/3 0 1")
    31
    >>> s = table.solve("1 2 3/4 5 6/0 7 8")
    >>> s.notation, s.optimal, s.method
    ('L2', True, 'table')
    """

    def __init__(self, space: Space, data: np.ndarray):
        self.space = space
        self.data = data
        n = space.states
        if data.shape != ((n + 1) // 2,) and data.shape != (n,):
            raise ValueError(f"a distance table of {n:,} states cannot have shape {data.shape}")
        self.nibble = data.shape[0] != n
        self._args = space.kernel_args()
        # load the kernels now (the goal: no steps), off the clock of the first solve
        seq, b = space.sequence(space.goal)
        _descend(seq, b, self._args, self.data, self.nibble, np.empty(1, np.int64))

    def __repr__(self):
        return (
            f"DistanceTable({self.goal.format()!r}, states={self.states}, "
            f"encoding={self.encoding!r}, nbytes={self.nbytes})"
        )

    @property
    def goal(self) -> Board:
        return self.space.goal

    @property
    def states(self) -> int:
        return self.space.states

    @property
    def encoding(self) -> str:
        """``'4-bit'`` or ``'byte'``."""
        return "4-bit" if self.nibble else "byte"

    @property
    def nbytes(self) -> int:
        return int(self.data.nbytes)

    # ------------------------------------------------------------------ making

    @classmethod
    def build(
        cls,
        goal,
        progress: Callable[[dict], None] | None = None,
        *,
        blank_first: bool = False,
        max_bytes: int | None = None,
        max_seconds: float | None = None,
        cache: bool = True,
    ) -> DistanceTable:
        """The table of ``goal``: from the cache, or built by a complete search and cached.

        Parameters
        ----------
        goal : Board, str or Puzzle
            The goal board, its text, or a size ``"WxH"`` for the ordered goal
            (blank last, or first with ``blank_first``).
        progress : callable, optional
            Called after each layer of the search with a dict, as for
            :func:`slidelab.analysis.analyze`.
        max_bytes, max_seconds : optional
            Limits of the estimate checked before building (see
            :func:`.budget.check_budget`).
        cache : bool
            Keep the table in (and take it from) the on-disk cache.

        Raises
        ------
        SpaceTooLargeError
            The build would not fit (memory or time), told before anything is built.
        """
        from .. import _args

        _args.callback(progress, "progress")
        cache = _args.boolean(cache, "cache")
        max_bytes, max_seconds = check_limits(max_bytes, max_seconds)
        space = space_of(goal, blank_first=_args.boolean(blank_first, "blank_first"))
        if cache:
            found = cls.cached(space)
            if found is not None:
                return found
        check_budget(space, table=True, max_bytes=max_bytes, max_seconds=max_seconds)

        def build(_progress):
            layers = search_layers(space, progress=progress, record=True, limit=0)
            return pack_table(space, layers.depth)

        if not cache:
            return cls(space, build(None))
        return cls(space, _store(space, build))

    @classmethod
    def from_layers(cls, space: Space, layers: Layers, cache: bool = True) -> DistanceTable:
        """The table from a search that recorded depths (``search_layers(..., record=True)``)."""
        if layers.depth is None:
            raise ValueError("the search kept no depths (record=False)")
        data = pack_table(space, layers.depth)
        return cls(space, _store(space, lambda _p: data) if cache else data)

    @classmethod
    def cached(cls, goal, blank_first: bool = False) -> DistanceTable | None:
        """The table of ``goal`` if a valid one is in the cache, else None (nothing is built)."""
        from .. import _args
        from ..cache import CacheError, cache_dir, load_or_build, table_key

        space = space_of(goal, blank_first=_args.boolean(blank_first, "blank_first"))
        spec = table_spec(space)
        try:
            if not (cache_dir() / (table_key(spec) + ".slt")).exists():
                return None
            return cls(space, load_or_build(spec, _not_cached))
        except (_NotCached, CacheError, ValueError):
            return None

    # ------------------------------------------------------------------ using

    def _sequence(self, board):
        if not isinstance(board, Board):
            board = self.space._board(board)
        seq, b = self.space.sequence(board)
        return board, seq, b

    def distance(self, board) -> int:
        """The exact distance (single-tile moves) from ``board`` to the goal.

        Raises
        ------
        UnsolvableError
            The board cannot reach the goal.
        """
        board, seq, b = self._sequence(board)
        d = int(_entry_distance(seq, b, self._args, self.data, self.nibble))
        if d < 0:
            raise UnsolvableError(f"{board} cannot reach the goal {self.goal}")
        return d

    def solve(self, board) -> Solution:
        """An optimal solution of ``board``, read from the table (replayed and checked)."""
        began = time.perf_counter()
        board, seq, b = self._sequence(board)
        out = np.empty(256, np.int64)
        n = int(_descend(seq, b, self._args, self.data, self.nibble, out))
        if n < 0:
            raise UnsolvableError(f"{board} cannot reach the goal {self.goal}")
        stats = Stats(
            expanded=n,
            generated=0,
            stored=self.states,
            peak_frontier=0,
            seconds=time.perf_counter() - began,
        )
        solution = make_solution(Puzzle(board, self.goal), out[:n].tolist(), True, "table", stats)
        solution.verify()
        return solution


class _NotCached(Exception):
    pass


def _not_cached(_progress):
    raise _NotCached


def _store(space: Space, build) -> np.ndarray:
    """``build(progress)``'s table, saved in the cache (or, if the cache cannot be written, unsaved)."""
    from ..cache import CacheError, load_or_build

    try:
        return load_or_build(table_spec(space), build)
    except CacheError as e:
        log.warning("distance table not cached (%s)", e)
        return build(None)


def goal_table(goal, progress: Callable[[float, str], None] | None = None) -> DistanceTable:
    """The distance table of ``goal``, built and cached first if needed.

    ``progress(fraction, message)`` is called while it is built.
    """
    return DistanceTable.build(goal, _layers_progress(progress))


def table_ready(puzzle: Puzzle) -> bool:
    """Whether ``auto`` should solve ``puzzle`` by its goal's distance table: when one is cached.

    ``auto`` builds none: on a fresh install, building even the 8-puzzle's
    table first compiles the breadth-first kernels (about 20 s), where a
    search answers in a second; ``method="table"`` or ``slidelab analyze GOAL
    --save`` builds any.
    """
    from ..cache import CacheError, cache_dir, table_key

    space = Space(puzzle.goal)
    try:
        return (cache_dir() / (table_key(table_spec(space)) + ".slt")).exists()
    except CacheError:
        return False
