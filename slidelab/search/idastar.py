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
from ..heuristics.dispatch import heuristic_move, heuristic_move_within
from ..memory import cores_for_this_thread
from ..moves import reach as move_reach
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


@njit(cache=True, inline="always")
def _slide_back(board, nbr, cur, blank, d):
    """Undo a slide in direction ``d`` that took the blank from ``blank`` to ``cur``."""
    while cur != blank:
        prev = nbr[cur, d ^ 1]
        board[cur] = board[prev]
        board[prev] = 0
        cur = prev


@njit(cache=True, inline="always")
def _ida_body(
    board,
    nbr,
    goal,
    weight,
    bound,
    path,
    amount,
    steps,
    tried,
    hs,
    st,
    next_bound,
    budget,
    hdata,
    came,
    reach,
    divisor,
):
    """Run one slice of a bounded depth-first search.

    ``st`` holds ``[depth, blank, h, expanded, generated]`` and is updated in
    place, as are ``board``, ``path`` and ``amount`` (blank direction and tiles
    slid at each depth), ``steps`` (single-tile moves on the path to each depth:
    the heuristic's row), ``tried`` (next move to try at each depth: direction
    times ``reach`` plus amount less one) and ``hs`` (the heuristic's value at
    each depth; the estimate is its ceiling quotient by ``divisor``).  A move
    slides 1 .. ``reach`` tiles (1: STM; more: MTM).  ``next_bound[0]`` collects
    the smallest ``f`` over the bound.  Returns RUNNING (budget spent), FOUND
    (``path[:depth]`` solves) or EXHAUSTED (no more solutions within ``bound``).
    ``came``: the direction of the move into the root (never undone from it), or -1.
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
    last = 4 * reach
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
        m = tried[depth]
        if m == last:
            if depth == 0:
                status = 2
                break
            depth -= 1
            back = path[depth] ^ 1
            for _ in range(1 if reach == 1 else amount[depth]):
                prev = nbr[blank, back]
                board[blank] = board[prev]
                board[prev] = 0
                blank = prev
            h = hs[depth]
            continue
        d = m // reach
        k = m - d * reach + 1
        tried[depth] = m + 1
        before = path[depth - 1] if depth > 0 else came  # -1 at the root: d never equals it
        # never straight back; in MTM not on along the same line either (one longer slide)
        if d == (before ^ 1) or (reach > 1 and d == before):
            tried[depth] = (d + 1) * reach
            continue
        if reach == 1:  # one tile (compiled apart: the 15-puzzle's path, kept short)
            nb = nbr[blank, d]
            if nb < 0:
                continue
            t = board[nb]
            board[blank] = t
            board[nb] = 0
            # a child whose estimate puts f over the limit is pruned: its exact h is not needed
            nh = heuristic_move_within(
                hdata, board, depth, h, t, nb, blank, (limit - depth - 1) / weight
            )
            cur = nb
        else:
            row = steps[depth]  # the heuristic's row: single-tile steps so far
            cur = blank
            nh = h
            done = 0
            for j in range(k):
                nb = nbr[cur, d]
                if nb < 0:
                    break
                done += 1
                t = board[nb]
                board[cur] = t
                board[nb] = 0
                if j == k - 1:
                    enough = divisor * np.floor((limit - depth - 1) / weight)
                    nh = heuristic_move_within(hdata, board, row + j, nh, t, nb, cur, enough)
                else:
                    nh = heuristic_move(hdata, board, row + j, nh, t, nb, cur)
                cur = nb
            if done < k:  # the line ends before k tiles: no longer slide this way either
                _slide_back(board, nbr, cur, blank, d)
                tried[depth] = (d + 1) * reach
                continue
        generated += 1
        work += 1
        est = nh if divisor == 1 else (nh + divisor - 1) // divisor
        f = (depth + 1) + weight * est
        if f > limit:
            if reach == 1:
                board[cur] = board[blank]
                board[blank] = 0
            else:
                _slide_back(board, nbr, cur, blank, d)
            if f < next_bound[0]:
                next_bound[0] = f
            continue
        path[depth] = d
        hs[depth] = h
        if reach > 1:
            amount[depth] = k
            steps[depth + 1] = steps[depth] + k
        depth += 1
        blank = cur
        h = nh
        tried[depth] = 0
    st[0] = depth
    st[1] = blank
    st[2] = h
    st[3] = expanded
    st[4] = generated
    return status


@njit(cache=True, nogil=True)  # long runs: other threads (a Dask worker's) go on
def _ida_stm(
    board, nbr, goal, weight, bound, path, amount, steps, tried, hs, st, nb, budget, hd, came
):
    """:func:`_ida_body` with single-tile moves and an undivided estimate: the constants fold
    the amount loop and the division away (the 15-puzzle's fast path)."""
    return _ida_body(
        board, nbr, goal, weight, bound, path, amount, steps, tried, hs, st, nb, budget, hd, came,
        1, 1,
    )  # fmt: skip


@njit(cache=True, nogil=True)
def _ida_lines(
    board, nbr, goal, weight, bound, path, amount, steps, tried, hs, st, nb, budget, hd, came,
    reach, divisor,
):  # fmt: skip
    """:func:`_ida_body` with slides of up to ``reach`` tiles (MTM) and the estimate divided."""
    return _ida_body(
        board, nbr, goal, weight, bound, path, amount, steps, tried, hs, st, nb, budget, hd, came,
        reach, divisor,
    )  # fmt: skip


def _ida_run(*args, reach: int = 1, divisor: int = 1):
    """One slice of the search (see :func:`_ida_body`): the STM kernel where it applies."""
    if reach == 1 and divisor == 1:
        return _ida_stm(*args)
    return _ida_lines(*args, reach, divisor)


def _single_steps(moves) -> list[int]:
    """Blank directions, one per single-tile step, of ``(direction, amount)`` moves."""
    return [int(d) for d, k in moves for _ in range(int(k))]


def _iterate(
    puzzle: Puzzle,
    limits: Limits,
    heur: Heuristic,
    weight: float,
    method: str,
    all_solutions: bool,
    max_solutions: int | None,
    metric: str = "stm",
):
    """Yield solutions (blank-direction lists, one per single-tile step); stop after the first
    unless ``all_solutions``."""
    board = puzzle.start_codes.copy()
    goal = puzzle.goal_codes
    nbr = puzzle.neighbours
    reach = move_reach(metric, puzzle.width, puzzle.height)
    stats = Stats()
    bound = weight * heur.value(board)
    st = np.zeros(5, np.int64)
    found = 0
    warmed = False
    # path arrays, and the heuristic's rows (one per single-tile step)
    per_depth = 40 + 8 * (puzzle.width + puzzle.height + 8) * reach
    last_nodes = 0  # nodes of the last finished iteration, for the next one's prediction
    split = 0  # threads sharing an iteration, once one has taken SPLIT_AFTER seconds
    cores = 1 if all_solutions else cores_for_this_thread()
    try:  # an interruption anywhere in the loop (kernel, progress line) says how far it got
        while True:
            begun, begun_nodes = limits.elapsed(), stats.generated
            size = int(min(bound, 2**62)) + 2  # the depth is at most the bound on g + weight * h
            limits.need_bytes(size * per_depth, f"a path of up to {size - 2:,} moves", method)
            hdata, h0 = heur.prepare(board, size * reach)
            path, amount, steps, tried, hs = _path_arrays(size)
            st[:3] = (0, board.tolist().index(0), h0)
            next_bound = np.array([np.inf])

            # the plain search's arguments before its node budget
            plain = (board, nbr, goal, float(weight), float(bound), path, amount, steps, tried)
            plain += (hs, st, next_bound)
            if not warmed:  # load (or compile) the kernel outside the search time
                _ida_run(*plain, 0, hdata, -1, reach=reach, divisor=heur.divisor)
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
                    reach,
                )
                if solution is not None:
                    stats.seconds = limits.elapsed()
                    yield solution, stats
                    return
            else:
                while True:
                    status = _ida_run(*plain, BUDGET, hdata, -1, reach=reach, divisor=heur.divisor)
                    stats.expanded, stats.generated = int(st[3]), int(st[4])
                    stats.stored = stats.peak_frontier = max(stats.stored, int(st[0]) + 1)
                    if status == FOUND:
                        stats.seconds = limits.elapsed()
                        yield _single_steps(zip(path[: st[0]], amount[: st[0]], strict=True)), stats
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


def _path_arrays(size: int):
    """The kernel's per-depth arrays: ``path, amount, steps, tried, hs``."""
    return (
        np.zeros(size, np.int8),
        np.ones(size, np.int8),
        np.zeros(size, np.int64),
        np.zeros(size, np.int8),
        np.zeros(size, np.int64),
    )


def _frontier(board, nbr, goal, weight, bound, heur, want, reach):
    """Subtree roots for a split iteration: the nodes within ``bound`` of the first depth that
    has at least ``want`` of them, in depth-first order, each ``(board, moves)`` (moves as
    ``(blank direction, amount)``); with the smallest ``f`` over the bound among the nodes cut
    off on the way, and a path to the goal when one is met on the way."""
    layer = [(board.copy(), [])]
    over = np.inf
    while len(layer) < want:
        deeper = []
        for node, moves in layer:
            blank = int(np.flatnonzero(node == 0)[0])
            before = moves[-1][0] if moves else -1
            for d in range(4):
                if d == before ^ 1 or (reach > 1 and d == before):
                    continue
                child = node.copy()
                cur = blank
                for k in range(1, reach + 1):
                    nb = nbr[cur, d]
                    if nb < 0:
                        break
                    child[cur], child[nb] = child[nb], 0
                    cur = nb
                    f = len(moves) + 1 + weight * heur.value(child)
                    if f > bound + 1e-9:
                        over = min(over, f)
                        continue
                    if np.array_equal(child, goal):
                        return [], over, _single_steps(moves + [(d, k)])
                    deeper.append((child.copy(), moves + [(d, k)]))
        if not deeper:
            return [], over, None
        layer = deeper
    return layer, over, None


def _split_iteration(
    board, nbr, goal, weight, bound, heur, size, limits, stats, st, method, threads, reach
):
    """One IDA* iteration to ``bound`` with its subtrees shared by ``threads`` threads (the
    kernel releases the GIL).  Returns ``(path or None, smallest f over the bound)`` and adds the
    nodes to ``st`` (and ``stats``); the calling thread checks the limits meanwhile.

    The path is the one the plain iteration finds: the subtrees are the plain search's in its
    order, and a subtree that finds a path stops only the subtrees after it.
    """
    roots, over, direct = _frontier(
        board, nbr, goal, weight, bound, heur, threads * SPLIT_ROOTS, reach
    )
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
        hdata, h0 = heur.prepare(root, size * reach)
        path, amount, steps, tried, hs = _path_arrays(size)
        own = np.array([0, int(np.flatnonzero(root == 0)[0]), h0, 0, 0], np.int64)
        over = np.array([np.inf])
        came = moves[-1][0] if moves else -1
        done = (0, 0)
        while index < shared["first"] and not stop.is_set():
            status = _ida_run(
                root,
                nbr,
                goal,
                float(weight),
                float(bound - g),
                path,
                amount,
                steps,
                tried,
                hs,
                own,
                over,
                SPLIT_BUDGET,
                hdata,
                came,
                reach=reach,
                divisor=heur.divisor,
            )
            with lock:
                shared["expanded"] += int(own[3]) - done[0]
                shared["generated"] += int(own[4]) - done[1]
                done = (int(own[3]), int(own[4]))
                if status == FOUND and index < shared["first"]:
                    shared["first"] = index
                    depth = int(own[0])
                    tail = zip(path[:depth], amount[:depth], strict=True)
                    shared["path"] = _single_steps(moves + list(tail))
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


def _setup(puzzle, limits, heuristic, weight, metric):
    weight = _args.number(weight, "weight", minimum=1)
    heur = heuristic  # a Heuristic: search_entry resolved a name
    method = "idastar" if weight == 1 else "weighted-idastar"
    return heur, method, weight == 1 and heur.admissible_in(metric), weight


@search_entry("idastar")
def idastar(
    puzzle: Puzzle,
    *,
    heuristic="manhattan",
    weight: float = 1.0,
    limits: Limits | None = None,
    metric: str = "stm",
) -> Solution:
    """Shortest solution by IDA* (optimal with weight 1 and an admissible heuristic).

    With ``weight > 1`` this is weighted IDA*: faster, at most ``weight`` times
    the optimal length.  ``metric="mtm"`` counts a slide of several tiles in a line
    as one move (a heuristic given by name is made for that metric).

    Examples
    --------
    >>> from slidelab import Puzzle
    >>> idastar(Puzzle("1 2 3/4 5 6/0 7 8")).notation
    'L2'
    >>> idastar(Puzzle("1 2 3/4 5 6/0 7 8"), metric="mtm").length
    1
    """
    heur, method, optimal, weight = _setup(puzzle, limits, heuristic, weight, metric)
    for path, stats in _iterate(puzzle, limits, heur, weight, method, False, None, metric):
        return make_solution(puzzle, path, optimal, method, stats, metric)
    raise AssertionError("unreachable")


@search_entry("idastar")
def idastar_all(
    puzzle: Puzzle,
    *,
    heuristic="manhattan",
    max_solutions: int | None = None,
    limits: Limits | None = None,
    metric: str = "stm",
) -> list[Solution]:
    """Every distinct optimal solution in ``metric`` (up to ``max_solutions``), by IDA*.

    Examples
    --------
    >>> from slidelab import Puzzle
    >>> [s.notation for s in idastar_all(Puzzle("1 2 3/4 5 6/7 8 0", "1 2 3/4 0 5/7 8 6"))]
    ['DR']
    """
    max_solutions = _args.integer(max_solutions, "max_solutions", minimum=1, optional=True)
    heur, method, optimal, _ = _setup(puzzle, limits, heuristic, 1.0, metric)
    if not optimal:
        raise SlidelabError(
            f"listing all optimal solutions needs an admissible heuristic in {metric.upper()},"
            f" not {heur.name}{'' if heur.metric == metric else ' of ' + heur.metric.upper()}"
        )
    out = []
    for path, stats in _iterate(puzzle, limits, heur, 1.0, method, True, max_solutions, metric):
        out.append(make_solution(puzzle, path, True, method, Stats(**stats.as_dict()), metric))
    final = out[-1].stats if out else None
    for s in out:  # every solution reports the whole search
        object.__setattr__(s, "stats", final)
    return out
