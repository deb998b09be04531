"""IDA*: iterative-deepening A*, depth-first with an ``f = g + w*h`` bound.

Memory is only the current path.  The compiled kernel makes and unmakes moves
on one small integer board, never moves the blank straight back, and has the
heuristic update its estimate per move (:mod:`slidelab.heuristics.base`).  The
depth-first search keeps its own explicit stack, so it runs in slices of a
node budget and resumes where it stopped: between slices Python checks the
time limit, reports progress (bound, nodes) and lets Ctrl-C through.

With ``all_solutions`` the last iteration is run to its end, collecting every
path that reaches the goal: with an admissible heuristic these are all the
optimal solutions (an optimal path never steps straight back, so the pruning
loses none).
"""

from __future__ import annotations

import numpy as np

from .. import _args
from .._jit import njit
from ..errors import SearchInterrupted, SlidelabError
from ..heuristics import Heuristic
from ..heuristics.dispatch import heuristic_move_within
from ..puzzle import Puzzle
from ..solution import Solution, Stats, make_solution
from ._common import Limits, search_entry

BUDGET = 1 << 22
RUNNING, FOUND, EXHAUSTED = 0, 1, 2


@njit(cache=True, nogil=True)  # long runs: other threads (a Dask worker's) go on
def _ida_run(board, nbr, goal, weight, bound, path, tried, hs, st, next_bound, budget, hdata):
    """Run one slice of a bounded depth-first search.

    ``st`` holds ``[depth, blank, h, expanded, generated]`` and is updated in
    place, as are ``board``, ``path`` (blank direction taken at each depth),
    ``tried`` (next direction to try at each depth) and ``hs`` (``h`` at each
    depth).  ``next_bound[0]`` collects the smallest ``f`` over the bound.
    Returns RUNNING (budget spent), FOUND (``path[:depth]`` solves) or
    EXHAUSTED (no more solutions within ``bound``).
    """
    depth = st[0]
    blank = st[1]
    h = st[2]
    expanded = st[3]
    generated = st[4]
    n = board.shape[0]
    work = 0
    status = 0
    limit = bound + 1e-9
    while True:
        if work >= budget:
            status = 0
            break
        if tried[depth] == 0:
            if h == 0:
                same = True
                for i in range(n):
                    if board[i] != goal[i]:
                        same = False
                        break
                if same:
                    status = 1
                    break
            expanded += 1
        d = tried[depth]
        if d == 4:
            if depth == 0:
                status = 2
                break
            depth -= 1
            prev = nbr[blank, path[depth] ^ 1]
            board[blank] = board[prev]
            board[prev] = 0
            blank = prev
            h = hs[depth]
            continue
        tried[depth] = d + 1
        if depth > 0 and d == (path[depth - 1] ^ 1):
            continue
        nb = nbr[blank, d]
        if nb < 0:
            continue
        generated += 1
        work += 1
        t = board[nb]
        board[blank] = t
        board[nb] = 0
        # a child with weight * h over limit - (depth + 1) is pruned: its exact h is not needed
        nh = heuristic_move_within(
            hdata, board, depth, h, t, nb, blank, (limit - depth - 1) / weight
        )
        f = (depth + 1) + weight * nh
        if f > limit:
            board[nb] = t
            board[blank] = 0
            if f < next_bound[0]:
                next_bound[0] = f
            continue
        path[depth] = d
        hs[depth] = h
        depth += 1
        blank = nb
        h = nh
        tried[depth] = 0
    st[0] = depth
    st[1] = blank
    st[2] = h
    st[3] = expanded
    st[4] = generated
    return status


def _iterate(
    puzzle: Puzzle,
    limits: Limits,
    heur: Heuristic,
    weight: float,
    method: str,
    all_solutions: bool,
    max_solutions: int | None,
):
    """Yield solutions (blank-direction lists); stop after the first unless ``all_solutions``."""
    board = puzzle.start_codes.copy()
    goal = puzzle.goal_codes
    nbr = puzzle.neighbours
    stats = Stats()
    _, h0 = heur.prepare(board, 1)
    bound = weight * h0
    st = np.zeros(5, np.int64)
    found = 0
    warmed = False
    per_depth = 10 + 8 * (puzzle.width + puzzle.height + 8)  # path, tried, h, heuristic rows
    last_nodes = 0  # nodes of the last finished iteration, for the next one's prediction
    try:  # an interruption anywhere in the loop (kernel, progress line) says how far it got
        while True:
            begun, begun_nodes = limits.elapsed(), stats.generated
            size = int(min(bound, 2**62)) + 2  # the depth is at most the bound on g + weight * h
            limits.need_bytes(size * per_depth, f"a path of up to {size - 2:,} moves", method)
            hdata, h0 = heur.prepare(board, size)
            path = np.zeros(size, np.int8)
            tried = np.zeros(size, np.int8)
            hs = np.zeros(size, np.int64)
            st[:3] = (0, board.tolist().index(0), h0)
            next_bound = np.array([np.inf])
            if not warmed:  # load (or compile) the kernel outside the search time
                _ida_run(
                    board,
                    nbr,
                    goal,
                    float(weight),
                    float(bound),
                    path,
                    tried,
                    hs,
                    st,
                    next_bound,
                    0,
                    hdata,
                )
                limits.started += limits.elapsed()
                warmed = True
            while True:
                status = _ida_run(
                    board,
                    nbr,
                    goal,
                    float(weight),
                    float(bound),
                    path,
                    tried,
                    hs,
                    st,
                    next_bound,
                    BUDGET,
                    hdata,
                )
                stats.expanded, stats.generated = int(st[3]), int(st[4])
                stats.stored = stats.peak_frontier = max(stats.stored, int(st[0]) + 1)
                if status == FOUND:
                    stats.seconds = limits.elapsed()
                    yield path[: st[0]].tolist(), stats
                    found += 1
                    if not all_solutions or (max_solutions is not None and found >= max_solutions):
                        return
                    tried[st[0]] = 4  # resume past this goal node
                    continue
                if status == EXHAUSTED:
                    break
                limits.check(stats, method, bound=bound, depth=int(st[0]))
            if found:
                return
            if not np.isfinite(next_bound[0]):
                raise AssertionError("IDA* exhausted the space without reaching the goal")
            bound = float(next_bound[0])
            limits.check(stats, method, bound=bound)
            nodes = stats.generated - begun_nodes
            if last_nodes and limits.patience is not None:
                # the next two iterations, each growing as the last did: a search still
                # short of the goal after the next one is seldom done after the one after
                growth = nodes / last_nodes
                took = limits.elapsed() - begun
                limits.predict(stats, method, took * (growth + growth * growth), bound)
            last_nodes = nodes
    except KeyboardInterrupt:
        stats.seconds = limits.elapsed()
        raise SearchInterrupted(
            f"interrupted: {method} searched to bound {bound:g} (no solution shorter"
            f" than {bound:g}) after {stats.expanded:,} expansions",
            stats,
            bound,
        ) from None


def _setup(puzzle, limits, heuristic, weight):
    weight = _args.number(weight, "weight", minimum=1)
    heur = heuristic  # a Heuristic: search_entry resolved a name
    method = "idastar" if weight == 1 else "weighted-idastar"
    return heur, method, weight == 1 and heur.admissible, weight


@search_entry("idastar")
def idastar(
    puzzle: Puzzle, *, heuristic="manhattan", weight: float = 1.0, limits: Limits | None = None
) -> Solution:
    """Shortest solution by IDA* (optimal with weight 1 and an admissible heuristic).

    With ``weight > 1`` this is weighted IDA*: faster, at most ``weight`` times
    the optimal length.

    Examples
    --------
    >>> from slidelab import Puzzle
    >>> idastar(Puzzle("1 2 3/4 5 6/0 7 8")).notation
    'L2'
    """
    heur, method, optimal, weight = _setup(puzzle, limits, heuristic, weight)
    for path, stats in _iterate(puzzle, limits, heur, weight, method, False, None):
        return make_solution(puzzle, path, optimal, method, stats)
    raise AssertionError("unreachable")


@search_entry("idastar")
def idastar_all(
    puzzle: Puzzle,
    *,
    heuristic="manhattan",
    max_solutions: int | None = None,
    limits: Limits | None = None,
) -> list[Solution]:
    """Every distinct optimal solution (up to ``max_solutions``), by IDA*.

    Examples
    --------
    >>> from slidelab import Puzzle
    >>> [s.notation for s in idastar_all(Puzzle("1 2 3/4 5 6/7 8 0", "1 2 3/4 0 5/7 8 6"))]
    ['DR']
    """
    max_solutions = _args.integer(max_solutions, "max_solutions", minimum=1, optional=True)
    heur, method, optimal, _ = _setup(puzzle, limits, heuristic, 1.0)
    if not optimal:
        raise SlidelabError(
            f"listing all optimal solutions needs an admissible heuristic, not {heur.name}"
        )
    out = []
    for path, stats in _iterate(puzzle, limits, heur, 1.0, method, True, max_solutions):
        out.append(make_solution(puzzle, path, True, method, Stats(**stats.as_dict())))
    final = out[-1].stats if out else None
    for s in out:  # every solution reports the whole search
        object.__setattr__(s, "stats", final)
    return out
