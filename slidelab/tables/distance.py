"""Distance tables: every position's exact distance to the goal, and optimal solving by descent.

A table holds one entry per state index of :mod:`.index`, in one of three
encodings, told apart by the array's length (and the metric):

- **four bits** (``ceil(states / 2)`` bytes): ``(d - h) / 2``, where ``d`` is the
  distance and ``h`` the Manhattan distance (with repeated labels: to the
  nearest goal cell of the label, lowered by one where its parity differs from
  the distance's, which the blank's cell fixes).  A move changes both by one,
  so ``d - h`` is even, and ``d = h + 2 * entry``.  Used when every entry is
  at most 15: the 8-puzzle's table is 90,720 bytes.
- **a byte** (``states`` bytes): ``d`` itself, for STM spaces where some
  ``(d - h) / 2`` exceeds 15 (2x6, whose hardest positions are 80 moves away),
  and MTM tables cached before the two-bit encoding.
- **two bits** (``ceil(states / 4)`` bytes, MTM): ``d mod 3`` (3: unreachable).  A
  move changes a distance by one at most, so of a position's neighbours those one
  closer are the ones whose code is one less, modulo 3; and only the goal has no
  such neighbour.  The 15-puzzle's abstraction tables are a quarter of their
  bytes: 1,513,512,000 positions in 378 MB.  A search that knows a position's
  distance knows its neighbours' from their codes
  (:mod:`slidelab.heuristics.abstraction_kernels`); a distance alone is read by
  walking downhill to the goal, counting the moves.

:meth:`DistanceTable.distance` is one look-up (a walk to the goal in two bits);
:meth:`DistanceTable.solve` walks downhill, taking at each step a move to a
neighbour one closer (the distance of a neighbour is one more, the same, or one
less), so the solution is optimal without any search.

Tables are cached on disk by :func:`slidelab.cache.load_or_build` under the
spec ``{"kind": "distance", "board": "WxH", "goal": ..., "version": 1}``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from ..board import Board
from ..errors import UnsolvableError
from ..moves import metric_keyword
from ..puzzle import Puzzle
from ..solution import Solution, Stats, make_solution
from .budget import check_budget, check_limits
from .family import Family, Part, Tables, goal_argument, goal_words
from .index import (
    BYTE,
    MOD3,
    MOD3_UNREACHED,
    NIBBLE,
    UNREACHED,
    Space,
    heuristic_of,
    index_of,
    space_of,
)

if TYPE_CHECKING:
    from .layers import Layers

log = logging.getLogger(__name__)

#: raise when the table's contents or encoding change
VERSION = 1

#: a space of at most this many positions is small enough for a distance table made on the spot
#: (the 8-puzzle's 181,440 in 20 ms once its kernels are compiled, the 2x5's 1,814,400 in a
#: tenth of a second): ``auto`` and the hints use it where it is ready that quickly
#: (:func:`slidelab.search.policy.choose_method`), the web server analyses no larger space
SMALL_STATES = 1 << 21


def table_bytes(space: Space) -> int:
    """Bytes of the table of ``space``: a quarter of a byte a position in MTM (two bits), at most
    a byte in STM (four bits where every entry fits, which only the build knows)."""
    return (space.states + 3) // 4 if space.metric != "stm" else space.states


def table_spec(space: Space) -> dict:
    """The cache spec of the distance table of ``space``'s goal (in its metric)."""
    spec = {
        "kind": "distance",
        "board": f"{space.width}x{space.height}",
        "goal": space.goal.format(),
        "version": VERSION,
    }
    if space.metric != "stm":  # STM tables keep the keys they were cached under
        spec["metric"] = space.metric
    return spec


# ---------------------------------------------------------------------------- reading


#: the encodings' names, by their codes (:attr:`DistanceTable.code`)
ENCODINGS = ("byte", "4-bit", "2-bit")


def _code(s, b, g, table) -> int:
    """The two-bit entry of (tile sequence, blank cell): its distance modulo 3, or 3."""
    idx = index_of(s, b, g)
    if idx < 0:
        return MOD3_UNREACHED
    return (int(table[idx >> 2]) >> ((idx & 3) << 1)) & 3


def _entry_distance(s, b, g, table, encoding, reach: int = 1) -> int:
    """Distance of (tile sequence, blank cell), or -1 when unreachable."""
    if encoding == MOD3:  # the moves of a walk to the goal: the positions read, but the goal
        path, steps, _ = _descend(s, b, g, table, encoding, reach)
        return -1 if path is None else steps - 1
    idx = index_of(s, b, g)
    if idx < 0:
        return -1
    if encoding == NIBBLE:
        v = (int(table[idx >> 1]) >> ((idx & 1) << 2)) & 15
        return heuristic_of(s, b, g) + 2 * v
    d = int(table[idx])
    return -1 if d == UNREACHED else d


def _moved(s: np.ndarray, b: int, d: int, w: int) -> np.ndarray:
    """The tile sequence after the blank on ``b`` moves in direction ``d`` (a new array).

    Sideways the sequence stays; down, the tile below jumps the ``w - 1`` tiles
    between back to ``b``; up, the tile above jumps them on.
    """
    s = s.copy()
    if d == 1:
        s[b : b + w] = np.roll(s[b : b + w], 1)
    elif d == 0:
        s[b - w : b] = np.roll(s[b - w : b], -1)
    return s


def _descend(s, b, g, table, encoding, reach: int = 1) -> tuple[list[int] | None, int, int]:
    """Blank directions (one per single-tile step) of an optimal path to the goal, None when not
    reachable; the positions whose neighbours were read (one a move), and those neighbours.

    Each move goes to a neighbour whose distance is one less (a slide of 1 ..
    ``reach`` tiles: 1 in STM): a few numpy look-ups a move, so reading a
    solution needs no compiled code.  In two bits the neighbour one closer is the one whose
    code is one less modulo 3, and the walk ends where none is: at the goal.
    """
    w, nbr = g.width, g.neighbours
    mod3 = encoding == MOD3
    d = _code(s, b, g, table) if mod3 else _entry_distance(s, b, g, table, encoding)
    if d < 0 or (mod3 and d == MOD3_UNREACHED):
        return None, 0, 0
    path: list[int] = []
    steps = read = 0
    while mod3 or d > 0:
        steps += 1
        want = (d + 2) % 3 if mod3 else d - 1
        for dd, k, s2, nb in _slides(s, b, w, nbr, reach):
            read += 1
            got = _code(s2, nb, g, table) if mod3 else _entry_distance(s2, nb, g, table, encoding)
            if got == want:
                path += [dd] * k
                s, b, d = s2, nb, want
                break
        else:
            if mod3:  # no neighbour one closer: the goal
                return path, steps, read
            return None, steps, read
    return path, steps, read


def _slides(s, b, w, nbr, reach):
    """``(direction, tiles, sequence, blank cell)`` after each slide of 1 .. ``reach`` tiles."""
    for dd in range(4):
        s2, cur = s, b
        for k in range(1, reach + 1):
            nb = int(nbr[cur, dd])
            if nb < 0:
                break
            s2, cur = _moved(s2, cur, dd, w), nb
            yield dd, k, s2, cur


# ---------------------------------------------------------------------------- building


def _layers_progress(progress):
    """A (fraction, message) callback as a callback of the search's dicts."""
    if progress is None:
        return None
    return lambda info: progress(
        info["fraction"], f"distance table: depth {info['depth']}, {info['states']:,} positions"
    )


def _fraction_progress(progress):
    """A callback of the search's dicts as a (fraction, message) callback (the dict's
    fraction)."""
    if progress is None:
        return None
    return lambda fraction, message: progress({"fraction": fraction, "message": message})


def _build(space: Space, progress=None, layer_progress=None) -> np.ndarray:
    """The table of ``space``'s goal, by a complete search (``progress(fraction, message)``
    or ``layer_progress(dict)`` after each layer)."""
    from .layers import search_layers
    from .pack import pack_table

    if layer_progress is None:
        layer_progress = _layers_progress(progress)
    layers = search_layers(space, progress=layer_progress, record=True, limit=0)
    return pack_table(space, layers.depth)


class DistanceTable:
    """Exact distances to one goal for every position of its puzzle.

    Build (or load from the cache) with :meth:`build`; look distances up with
    :meth:`distance`; solve optimally with :meth:`solve`.

    Examples
    --------
    >>> table = DistanceTable.build("3x3")
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
        packed = (n + 3) // 4 if space.metric != "stm" else (n + 1) // 2
        if data.shape != (packed,) and data.shape != (n,):
            raise ValueError(f"a distance table of {n:,} states cannot have shape {data.shape}")
        #: :data:`BYTE`, :data:`NIBBLE` (STM) or :data:`MOD3` (MTM)
        self.code = BYTE if data.shape[0] == n else NIBBLE if space.metric == "stm" else MOD3
        self._args = space.kernel_args()

    def __repr__(self):
        return (
            f"DistanceTable({self.goal.format()!r}, states={self.states}, "
            f"encoding={self.encoding!r}, nbytes={self.nbytes}{metric_keyword(self.metric)})"
        )

    @property
    def goal(self) -> Board:
        return self.space.goal

    @property
    def states(self) -> int:
        return self.space.states

    @property
    def encoding(self) -> str:
        """``'byte'``, ``'4-bit'`` (STM) or ``'2-bit'`` (MTM: the distance modulo 3)."""
        return ENCODINGS[self.code]

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
        metric: str | None = None,
    ) -> DistanceTable:
        """The table of ``goal``: from the cache, or built by a complete search and cached.

        Parameters
        ----------
        goal : Board, str or Puzzle
            The goal board, its text, or a size ``"WxH"`` for the ordered goal
            (blank last, or first with ``blank_first``).
        metric : {"stm", "mtm"}, optional
            Distances in single-tile moves, or in multi-tile moves (a slide of
            several tiles in a line is one).  Default: a given space's own, else ``stm``.
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
        blank_first = _args.boolean(blank_first, "blank_first")
        space = space_of(goal, blank_first=blank_first, metric=metric)
        if cache:
            found = cls.cached(space)
            if found is not None:
                return found
        check_budget(space, table=True, max_bytes=max_bytes, max_seconds=max_seconds)
        if not cache:
            return cls(space, _build(space, layer_progress=progress))
        return cls.of(space, _fraction_progress(progress))

    @classmethod
    def of(cls, space: Space, progress: Callable[[float, str], None] | None = None):
        """The table of ``space``'s goal in its metric: from the cache, or built (announced:
        :meth:`slidelab.tables.family.Tables.load`) and cached; ``progress(fraction,
        message)`` while it is built."""
        (data,) = tables_of(space).load(progress)
        return cls(space, data)

    @classmethod
    def from_layers(cls, space: Space, layers: Layers, cache: bool = True) -> DistanceTable:
        """The table from a search that recorded depths (``search_layers(..., record=True)``)."""
        if layers.depth is None:
            raise ValueError("the search kept no depths (record=False)")
        from .pack import pack_table

        data = pack_table(space, layers.depth)
        return cls(space, _store(space, lambda _p: data) if cache else data)

    @classmethod
    def cached(
        cls, goal, blank_first: bool = False, metric: str | None = None
    ) -> DistanceTable | None:
        """The table of ``goal`` if a valid one is in the cache, else None (nothing is built).
        ``metric`` defaults to the goal's if it is a :class:`Space`, else ``stm``."""
        from .. import _args
        from ..cache import CacheError, cache_dir, load_or_build, table_key

        if metric is None:
            metric = goal.metric if isinstance(goal, Space) else "stm"
        blank_first = _args.boolean(blank_first, "blank_first")
        space = space_of(goal, blank_first=blank_first, metric=metric)
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
            board = self.space.read_board(board)
        seq, b = self.space.sequence(board)
        return board, seq, b

    @property
    def metric(self) -> str:
        """The metric of its distances: ``stm`` or ``mtm``."""
        return self.space.metric

    def distance(self, board) -> int:
        """The exact distance (in the table's :attr:`metric`) from ``board`` to the goal.

        Raises
        ------
        UnsolvableError
            The board cannot reach the goal.
        """
        board, seq, b = self._sequence(board)
        d = _entry_distance(seq, b, self._args, self.data, self.code, self.space.reach)
        if d < 0:
            raise UnsolvableError(f"{board.format()} cannot reach the goal {self.goal.format()}")
        return d

    def beside(self, board, distance: int) -> int:
        """The exact distance of ``board``, one move from a position ``distance`` from the goal:
        one read in every encoding (in two bits the code tells which of ``distance - 1``,
        ``distance`` and ``distance + 1`` it is).

        Raises
        ------
        UnsolvableError
            The board cannot reach the goal.
        """
        if self.code != MOD3:
            return self.distance(board)
        board, seq, b = self._sequence(board)
        code = _code(seq, b, self._args, self.data)
        if code == MOD3_UNREACHED:
            raise UnsolvableError(f"{board.format()} cannot reach the goal {self.goal.format()}")
        r = (code - distance) % 3  # 0: as far, 1: one farther, 2: one nearer
        return distance + (r if r < 2 else -1)

    def solve(self, board) -> Solution:
        """An optimal solution of ``board``, read from the table (replayed and checked)."""
        began = time.perf_counter()
        board, seq, b = self._sequence(board)
        path, steps, read = _descend(seq, b, self._args, self.data, self.code, self.space.reach)
        if path is None:
            raise UnsolvableError(f"{board.format()} cannot reach the goal {self.goal.format()}")
        stats = Stats(
            expanded=steps,  # one position a move: its neighbours read
            generated=read,  # the neighbours whose distance was read
            stored=self.states,
            peak_frontier=0,
            seconds=time.perf_counter() - began,
        )
        puzzle = Puzzle(board, self.goal)
        solution = make_solution(puzzle, path, True, "table", stats, self.metric)
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


def goal_table(
    goal, progress: Callable[[float, str], None] | None = None, metric: str = "stm"
) -> DistanceTable:
    """The distance table of ``goal`` (a board, a :class:`Space`, ...) in ``metric``, built
    (announced) and cached first if needed, after its size is checked against this machine
    (:func:`.budget.check_budget`).  ``progress(fraction, message)`` is called while it is
    built."""
    space = space_of(goal, metric=metric)
    found = DistanceTable.cached(space)
    if found is not None:
        return found
    check_budget(space, table=True)
    return DistanceTable.of(space, progress)


def tables_of(space: Space) -> Tables:
    """The distance table of ``space``'s goal in its metric, as a set of the ``distance``
    family's tables (:class:`~slidelab.tables.family.Tables`)."""
    return Tables("distance", space.goal, space.metric)


def table_ready(puzzle: Puzzle, metric: str = "stm") -> bool:
    """Whether the distance table of ``puzzle``'s goal in ``metric`` is in the cache."""
    return Tables("distance", puzzle.goal, metric).ready()


# ---------------------------------------------------------------------------- the family


class DistanceFamily(Family):
    """The goal's distance table: every position's exact distance, one table a goal and
    metric, built by a complete breadth-first search (:mod:`.layers`)."""

    name = "distance"

    def parts(self, tables: Tables) -> list[Part]:
        from .budget import estimate, kernels, serial_space

        space = Space(tables.goal, tables.metric)
        cost = estimate(space, table=True)
        key, compile_seconds, _ = kernels(space, serial_space(space))
        return [
            Part(
                table_spec(space),
                f"the distance table ({space.states:,} positions)",
                table_bytes(space),
                cost.bytes,
                cost.seconds,
                key,
                compile_seconds,
                lambda progress: _build(space, progress),
            )
        ]

    def specs(self, tables: Tables) -> list[dict]:
        return [table_spec(Space(tables.goal, tables.metric))]

    def describe(self, tables: Tables) -> str:
        space = Space(tables.goal, tables.metric)
        metric = "" if tables.metric == "stm" else f", {tables.metric.upper()}"
        return (
            f"the distance table of {goal_words(tables.goal)} ({space.states:,} positions{metric})"
        )

    def command(self, tables: Tables) -> str:
        metric = "" if tables.metric == "stm" else f" --metric {tables.metric}"
        return f"slidelab tables build {goal_argument(tables.goal)} --family distance{metric}"


FAMILY = DistanceFamily()
