"""Breadth-first search over a perfect-hash visited table.

Every state is identified by its rank (:mod:`slidelab.ranking`), which indexes
a flat ``uint8`` array ``via``: 255 for an unvisited state, otherwise the side
that reached it (0 for the start's search, 8 for the goal's) plus the blank
direction of the move that reached it (4 marks a root), plus 16 times the number
of tiles it slid less one (always 0 in STM; in MTM, up to 15).  Following ``via``
backwards from any visited state gives its path, so no parent pointers or
dictionaries are needed.

Plain BFS marks the goal as the root of a second side that never expands: it
stops when it generates the goal.  :mod:`slidelab.search.bidirectional`
expands both sides with the same kernel.
"""

from __future__ import annotations

import time

import numpy as np

from .._jit import njit
from .._slide import slide_back
from ..errors import SlidelabError
from ..moves import reach
from ..puzzle import Puzzle
from ..ranking import arrangement_rank, arrangement_unrank
from ..solution import Phase, Solution, Stats, Visit, make_solution
from ._common import search_entry
from .limits import LAYER_VISITS, Limits

UNSEEN = 255
SIDE_START, SIDE_GOAL = 0, 8
ROOT = 4
CHUNK = 1 << 18


@njit(cache=True, nogil=True)  # long runs: other threads (a Dask worker's) go on
def _expand(frontier, lo, hi, out, n_out, via, side, nbr, counts, total, state, meet, stop, reach):
    """Expand ``frontier[lo:hi]`` into ``out``; stop early when ``out`` is nearly full.

    A move slides 1 .. ``reach`` tiles (1: STM; more: MTM, see
    :func:`slidelab.moves.reach`).  Returns ``(next_lo, n_out, generated)``.  The
    first successor already visited by the other side is recorded in ``meet`` as
    ``(parent, direction, child, amount)`` (``meet[2]`` is -1 until then); with
    ``stop`` the expansion returns right there, otherwise it finishes the slice.
    """
    cap = out.shape[0]
    room = 4 * reach
    generated = 0
    i = lo
    while i < hi:
        if n_out + room > cap:
            break
        r = frontier[i]
        arrangement_unrank(r, counts, total, state)
        b = 0
        while state[b] != 0:
            b += 1
        came = via[r] & 7
        for d in range(4):
            # never straight back; in MTM not on along the same line either (one longer slide)
            if came < 4 and (d == (came ^ 1) or (reach > 1 and d == came)):
                continue
            cur = b
            for k in range(1, reach + 1):
                nb = nbr[cur, d]
                if nb < 0:
                    break
                state[cur] = state[nb]
                state[nb] = 0
                cur = nb
                child = arrangement_rank(state, counts, total)
                generated += 1
                v = via[child]
                if v == 255:
                    via[child] = side | d | ((k - 1) << 4)
                    out[n_out] = child
                    n_out += 1
                elif (v & 8) != side and meet[2] < 0:
                    meet[0] = r
                    meet[1] = d
                    meet[2] = child
                    meet[3] = k
                    if stop:
                        return i + 1, n_out, generated
            slide_back(state, nbr, cur, b, d)
        i += 1
    return i, n_out, generated


@njit(cache=True)
def _trace(rank, via, nbr, counts, total, state):
    """Blank directions, one per single-tile step, from the root of ``rank``'s side to ``rank``."""
    path = np.empty(4096, np.int8)
    length = 0
    arrangement_unrank(rank, counts, total, state)
    b = 0
    while state[b] != 0:
        b += 1
    while (via[rank] & 7) != 4:
        d = via[rank] & 7
        for _ in range(((via[rank] >> 4) & 15) + 1):
            path[length] = d
            length += 1
            prev = nbr[b, d ^ 1]
            state[b] = state[prev]
            state[prev] = 0
            b = prev
        rank = arrangement_rank(state, counts, total)
    out = np.empty(length, np.int8)
    for i in range(length):
        out[i] = path[length - 1 - i]
    return out


class Space:
    """The ranked state space of a puzzle and its ``via`` table, searched in ``metric``."""

    def __init__(self, puzzle: Puzzle, limits: Limits, method: str, metric: str = "stm"):
        self.puzzle = puzzle
        self.reach = reach(metric, puzzle.width, puzzle.height)
        if self.reach > 16:
            raise SlidelabError(
                f"{method} in MTM takes boards at most 17 cells long, not {puzzle.size}"
            )
        self.total = puzzle.n_arrangements
        self.counts = puzzle.label_counts
        self.nbr = puzzle.neighbours
        self.state = np.empty(puzzle.width * puzzle.height, np.int16)
        self.via = limits.allocate(
            lambda: np.full(self.total, UNSEEN, dtype=np.uint8),
            self.total,
            f"a visited table of {self.total:,} states",
            method,
        )
        self._load_kernels(limits)

    def _load_kernels(self, limits: Limits) -> None:
        """Load (or compile) the kernels now, and keep that time off the search clock.

        A kernel's first call in a process loads it from numba's disk cache;
        the first kernel of the process also sets numba itself up (about half a
        second, far more than a whole 8-puzzle search).  Each call here does
        no work but has the argument types of the search's calls, so the
        search finds every kernel loaded.
        """
        began = time.perf_counter()
        self.rank(self.puzzle.goal_codes)
        root = np.array([ROOT], dtype=np.uint8)  # rank 0 is a root: an empty path
        _trace(0, root, self.nbr, self.counts, self.total, self.state)
        none = np.empty(0, dtype=np.int64)
        _expand(
            none,
            0,
            0,
            none,
            0,
            self.via,
            SIDE_START,
            self.nbr,
            self.counts,
            self.total,
            self.state,
            np.full(4, -1, dtype=np.int64),
            True,
            self.reach,
        )
        limits.started += time.perf_counter() - began

    def rank(self, codes) -> int:
        return int(arrangement_rank(codes, self.counts, self.total))

    def trace(self, rank: int) -> list[int]:
        return _trace(rank, self.via, self.nbr, self.counts, self.total, self.state).tolist()

    def meeting_path(
        self, side: int, parent: int, direction: int, child: int, amount: int = 1
    ) -> list[int]:
        """Blank directions from start to goal through a meeting of the two sides."""
        near = self.trace(parent) + [direction] * amount
        far = [d ^ 1 for d in reversed(self.trace(child))]
        path = near + far
        if side == SIDE_GOAL:  # the path runs goal -> start: turn it round
            path = [d ^ 1 for d in reversed(path)]
        return path


class Frontier:
    """One side's current layer."""

    def __init__(self, root: int, side: int):
        self.layer = np.array([root], dtype=np.int64)
        self.side = side
        self.depth = 0


def expand_layer(
    space: Space, front: Frontier, stats: Stats, limits: Limits, method: str, finish: bool = False
):
    """Expand one layer; return a meeting ``(parent, direction, child, amount)`` or None.

    The layer is cut short at a meeting unless ``finish`` is set.
    """
    layer = front.layer
    base = stats.stored
    room = 4 * space.reach
    out = np.empty(max(16 * space.reach, 2 * len(layer) + 16), dtype=np.int64)
    meet = np.full(4, -1, dtype=np.int64)
    n_out, lo = 0, 0
    while lo < len(layer):
        hi = min(len(layer), lo + CHUNK)
        new_lo, n_out, gen = _expand(
            layer,
            lo,
            hi,
            out,
            n_out,
            space.via,
            front.side,
            space.nbr,
            space.counts,
            space.total,
            space.state,
            meet,
            not finish,
            space.reach,
        )
        stats.expanded += new_lo - lo
        stats.generated += gen
        stats.stored = base + n_out
        lo = new_lo
        if meet[2] >= 0 and not finish:
            break
        if n_out + room > len(out) and lo < len(layer):
            bigger = np.empty(2 * len(out), dtype=np.int64)
            bigger[:n_out] = out[:n_out]
            out = bigger
        limits.check(stats, method, depth=front.depth, frontier=len(layer))
    front.layer = out[:n_out].copy()
    front.depth += 1
    return tuple(int(v) for v in meet) if meet[2] >= 0 else None


@search_entry("bfs")
def bfs(puzzle: Puzzle, *, limits: Limits | None = None, metric: str = "stm") -> Solution:
    """Shortest solution by breadth-first search from the start.

    Visits states in order of distance and stops at the end of the layer in
    which it generates the goal; proven optimal in ``metric`` (``stm`` or ``mtm``).
    Memory: one byte per arrangement of the tiles (the ``via`` table).

    Examples
    --------
    >>> from slidelab import Puzzle
    >>> bfs(Puzzle("1 2 3/4 5 6/0 7 8")).notation
    'L2'
    >>> bfs(Puzzle("1 2 3/4 5 6/0 7 8"), metric="mtm").length
    1
    """
    return layered(puzzle, limits, metric, "bfs", both_ends=False)


def layered(puzzle: Puzzle, limits: Limits, metric: str, method: str, both_ends: bool) -> Solution:
    """The layer-by-layer search of :func:`bfs` (from the start, to the end of the layer that
    reaches the goal) or, ``both_ends``, of :func:`.bidirectional.bidirectional_bfs` (a whole
    layer of the side whose frontier is smaller, until a successor is the other side's)."""
    stats = Stats()
    space = Space(puzzle, limits, method, metric)
    start, goal = space.rank(puzzle.start_codes), space.rank(puzzle.goal_codes)
    if start == goal:
        stats.stored = 1
        return make_solution(puzzle, [], True, method, stats, metric)
    space.via[start] = SIDE_START | ROOT
    space.via[goal] = SIDE_GOAL | ROOT
    fronts = [Frontier(start, SIDE_START)]
    if both_ends:
        fronts.append(Frontier(goal, SIDE_GOAL))
    stats.stored = len(fronts)
    while all(len(f.layer) for f in fronts):
        front = min(fronts, key=lambda f: len(f.layer))
        before, made, depth = stats.expanded, stats.generated, front.depth + 1
        began = time.perf_counter()
        try:
            meet = expand_layer(space, front, stats, limits, method, finish=not both_ends)
        finally:  # a limit's error carries the counts too
            if both_ends and front.side == SIDE_START:
                stats.expanded_forward += stats.expanded - before
            elif both_ends:
                stats.expanded_backward += stats.expanded - before
            side = "" if not both_ends else "forward" if front.side == SIDE_START else "backward"
            stats.phases.append(
                Phase(
                    "layer",
                    side,
                    depth,
                    stats.expanded - before,
                    stats.generated - made,
                    len(front.layer) if front.depth == depth else 0,
                    time.perf_counter() - began,
                )
            )
            if front.depth == depth:
                _record_layer(puzzle, front.layer, side, depth, stats, limits.record)
        stats.peak_frontier = max(stats.peak_frontier, sum(len(f.layer) for f in fronts))
        if meet:
            if not both_ends:
                stats.stored += 1  # the goal
            stats.seconds = limits.elapsed()
            path = space.meeting_path(front.side, *meet)
            return make_solution(puzzle, path, True, method, stats, metric)
    raise AssertionError(f"{method} exhausted the space without reaching the goal")


def _record_layer(puzzle: Puzzle, layer, side: str, depth: int, stats: Stats, record: int):
    """The first states of the layer just made (ranks ``layer``), at most
    :data:`~.limits.LAYER_VISITS` of them and ``record`` visits in all
    (:attr:`~.limits.Limits.record`), in ``stats.visits``."""
    if record <= len(stats.visits):
        return
    room = min(LAYER_VISITS, record - len(stats.visits))
    stats.visits.extend(
        Visit(
            "layer",
            side,
            puzzle.unrank(int(r)).format(),
            depth,
            0,
            float(depth),
            len(layer),
            stats.stored,
        )  # fmt: skip
        for r in layer[:room]
    )
