"""IDA*: iterative-deepening A*, depth-first with an ``f = g + w*h`` bound.

Memory is only the current path.  The compiled kernel makes and unmakes moves
on one small integer board, never moves the blank straight back, and has the
heuristic update its estimate per move (:mod:`slidelab.heuristics.base`).  The
depth-first search keeps its own explicit stack, so it runs in slices of a
node budget and resumes where it stopped: between slices Python checks the
time limit, reports progress (bound, nodes) and lets Ctrl-C through.

Once an iteration takes :data:`SPLIT_AFTER` seconds, the later ones are shared
by the cores (:func:`_split_iteration`): the nodes a few moves from the start
are the roots of subtrees that threads search side by side (the kernel releases
the GIL), in the plain search's order, so the path found is the one the plain
search would find.

With ``all_solutions`` the last iteration is run to its end, collecting every
path that reaches the goal: with an admissible heuristic these are all the
optimal solutions (an optimal path never steps straight back, so the pruning
loses none).
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor, wait

import numpy as np

from .. import _args
from .._jit import njit
from ..errors import SearchInterrupted, SlidelabError
from ..heuristics import Heuristic
from ..heuristics.dispatch import heuristic_move_within
from ..memory import cores_for_this_thread
from ..puzzle import Puzzle
from ..solution import Solution, Stats, make_solution
from ._common import Limits, search_entry

BUDGET = 1 << 22
RUNNING, FOUND, EXHAUSTED = 0, 1, 2
#: seconds: once an iteration takes this long, the later ones are split between the cores
SPLIT_AFTER = 0.5
#: subtree roots per thread in a split iteration (they differ in size: many balance the load)
SPLIT_ROOTS = 128
#: nodes per slice of a split iteration's subtree (between looks at the stop flag)
SPLIT_BUDGET = 1 << 20


@njit(cache=True, nogil=True)  # long runs: other threads (a Dask worker's) go on
def _ida_run(
    board,
    nbr,
    goal,
    weight,
    bound,
    path,
    tried,
    hs,
    st,
    next_bound,
    budget,
    hdata,
    avoid,
):
    """Run one slice of a bounded depth-first search.

    ``st`` holds ``[depth, blank, h, expanded, generated]`` and is updated in
    place, as are ``board``, ``path`` (blank direction taken at each depth),
    ``tried`` (next direction to try at each depth) and ``hs`` (``h`` at each
    depth).  ``next_bound[0]`` collects the smallest ``f`` over the bound.
    Returns RUNNING (budget spent), FOUND (``path[:depth]`` solves) or
    EXHAUSTED (no more solutions within ``bound``).  ``avoid``: a direction not
    taken from the root (the move back to a subtree root's parent), or -1.
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
        if (d == (path[depth - 1] ^ 1)) if depth > 0 else (d == avoid):
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
    split = 0  # threads sharing an iteration, once one has taken SPLIT_AFTER seconds
    cores = 1 if all_solutions else cores_for_this_thread()
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

            # the plain search's arguments before its node budget
            plain = (board, nbr, goal, float(weight), float(bound), path, tried, hs, st, next_bound)
            if not warmed:  # load (or compile) the kernel outside the search time
                _ida_run(*plain, 0, hdata, -1)
                limits.started += limits.elapsed()
                warmed = True
            if split:  # the iteration's subtrees on every core
                solution, next_bound[0] = _split_iteration(
                    board,
                    nbr,
                    goal,
                    weight,
                    bound,
                    heur,
                    size,
                    limits,
                    stats,
                    st,
                    method,
                    split,
                )
                if solution is not None:
                    stats.seconds = limits.elapsed()
                    yield solution, stats
                    return
            else:
                while True:
                    status = _ida_run(*plain, BUDGET, hdata, -1)
                    stats.expanded, stats.generated = int(st[3]), int(st[4])
                    stats.stored = stats.peak_frontier = max(stats.stored, int(st[0]) + 1)
                    if status == FOUND:
                        stats.seconds = limits.elapsed()
                        yield path[: st[0]].tolist(), stats
                        found += 1
                        if not all_solutions or (
                            max_solutions is not None and found >= max_solutions
                        ):
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
                # the next iteration, growing as the last did (predicted again after it: the
                # goal is often met part-way, and two iterations ahead, the 15-puzzle's 7-7-1
                # tables gave up on an 80-move board they solve in 6 s)
                growth = nodes / last_nodes
                took = limits.elapsed() - begun
                limits.predict(stats, method, took * growth, bound)
            last_nodes = nodes
            if cores > 1 and limits.elapsed() - begun >= SPLIT_AFTER:
                split = cores
    except KeyboardInterrupt:
        stats.seconds = limits.elapsed()
        raise SearchInterrupted(
            f"interrupted: {method} searched to bound {bound:g} (no solution shorter"
            f" than {bound:g}) after {stats.expanded:,} expansions",
            stats,
            bound,
        ) from None


def _frontier(board, nbr, goal, weight, bound, heur, want):
    """Subtree roots for a split iteration: the nodes within ``bound`` of the first depth that
    has at least ``want`` of them, in depth-first order, each ``(board, blank moves)``; with the
    smallest ``f`` over the bound among the nodes cut off on the way, and a path to the goal
    when one is met on the way."""
    layer = [(board.copy(), [])]
    over = np.inf
    while len(layer) < want:
        deeper = []
        for node, moves in layer:
            blank = int(np.flatnonzero(node == 0)[0])
            for d in range(4):
                nb = nbr[blank, d]
                if nb < 0 or (moves and d == (moves[-1] ^ 1)):
                    continue
                child = node.copy()
                child[blank], child[nb] = child[nb], 0
                f = len(moves) + 1 + weight * heur.value(child)
                if f > bound + 1e-9:
                    over = min(over, f)
                    continue
                if np.array_equal(child, goal):
                    return [], over, moves + [d]
                deeper.append((child, moves + [d]))
        if not deeper:
            return [], over, None
        layer = deeper
    return layer, over, None


def _split_iteration(
    board, nbr, goal, weight, bound, heur, size, limits, stats, st, method, threads
):
    """One IDA* iteration to ``bound`` with its subtrees shared by ``threads`` threads (the
    kernel releases the GIL).  Returns ``(path or None, smallest f over the bound)`` and adds the
    nodes to ``st`` (and ``stats``); the calling thread checks the limits meanwhile.

    The path is the one the plain iteration finds: the subtrees are the plain search's in its
    order, and a subtree that finds a path stops only the subtrees after it.
    """
    roots, over, direct = _frontier(board, nbr, goal, weight, bound, heur, threads * SPLIT_ROOTS)
    if direct is not None:
        return direct, over
    stop = threading.Event()  # a limit, or Ctrl-C: every subtree stops
    lock = threading.Lock()
    shared = {
        "first": len(roots),
        "path": None,
        "over": over,
        "expanded": 0,
        "generated": 0,
    }

    def run(index, root, moves):
        if index > shared["first"] or stop.is_set():
            return
        g = len(moves)
        hdata, h0 = heur.prepare(root, size)
        path = np.zeros(size, np.int8)
        tried = np.zeros(size, np.int8)
        hs = np.zeros(size, np.int64)
        own = np.array([0, int(np.flatnonzero(root == 0)[0]), h0, 0, 0], np.int64)
        over = np.array([np.inf])
        avoid = moves[-1] ^ 1 if moves else -1
        done = (0, 0)
        while index < shared["first"] and not stop.is_set():
            status = _ida_run(
                root,
                nbr,
                goal,
                float(weight),
                float(bound - g),
                path,
                tried,
                hs,
                own,
                over,
                SPLIT_BUDGET,
                hdata,
                avoid,
            )
            with lock:
                shared["expanded"] += int(own[3]) - done[0]
                shared["generated"] += int(own[4]) - done[1]
                done = (int(own[3]), int(own[4]))
                if status == FOUND and index < shared["first"]:
                    shared["first"] = index
                    shared["path"] = moves + path[: own[0]].tolist()
                if status == EXHAUSTED:
                    shared["over"] = min(shared["over"], float(over[0]) + g)
            if status != RUNNING:
                break

    base_e, base_g = int(st[3]), int(st[4])
    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="slidelab-ida")
    try:
        jobs = [pool.submit(run, i, root, moves) for i, (root, moves) in enumerate(roots)]
        while True:
            finished, _ = wait(jobs, timeout=0.25)
            with lock:
                stats.expanded = base_e + shared["expanded"]
                stats.generated = base_g + shared["generated"]
                first = shared["first"]
            if all(job.done() for job in jobs[: first + 1]):
                break
            limits.check(stats, method, bound=bound)
    finally:
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
    for job in jobs:
        if job.done() and not job.cancelled() and job.exception() is not None:
            raise job.exception()
    st[3], st[4] = base_e + shared["expanded"], base_g + shared["generated"]
    stats.expanded, stats.generated = int(st[3]), int(st[4])
    return shared["path"], shared["over"]


def _setup(puzzle, limits, heuristic, weight):
    weight = _args.number(weight, "weight", minimum=1)
    heur = heuristic  # a Heuristic: search_entry resolved a name
    method = "idastar" if weight == 1 else "weighted-idastar"
    return heur, method, weight == 1 and heur.admissible, weight


@search_entry("idastar")
def idastar(
    puzzle: Puzzle,
    *,
    heuristic="manhattan",
    weight: float = 1.0,
    limits: Limits | None = None,
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
