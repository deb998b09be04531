"""IDA*: iterative-deepening A*, depth-first with an ``f = g + w*h`` bound.

Memory is only the current path.  The compiled kernel (:mod:`slidelab.search._ida`)
makes and unmakes moves on one small integer board, walks no path that duplicates a
smaller one (:mod:`slidelab.search.move_pruning`: the blank never straight back, nor in MTM
on along its line, and 2,540 longer strings of moves; 3,596 in the 15-puzzle's MTM), and has
the heuristic update its estimate per move (:mod:`slidelab.heuristics.base`).  The
depth-first search keeps its own explicit stack, so it runs in slices of a node budget and
resumes where it stopped: between slices this driver checks the time limit, reports progress
(bound, nodes) and lets Ctrl-C through.

Once an iteration takes :data:`SPLIT_AFTER` seconds, or the next is expected to
(growing as the last did), the later ones are shared by the cores
(:func:`split_iteration`): the nodes a few moves from the start are the roots of
subtrees that threads search side by side (the kernel releases the GIL), in the
plain search's order, so the path found is the one the plain search would find.
How a split iteration's subtrees are run is a *runner*'s business (:class:`Threads` here;
:class:`slidelab.search.cluster_idastar.DaskSplit` runs them as tasks on a Dask cluster, once an
iteration takes its ``after`` seconds): the loop, its limits, statistics and progress stay here, and so does the
order that makes the path found the plain search's (:class:`Tally`).

With ``all_solutions`` the last iteration is run to its end, collecting every
path that reaches the goal: with an admissible heuristic these are all the
optimal solutions (an optimal path never steps straight back, and only that is
refused then: the duplicate paths pruned otherwise are solutions of their own).
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from .. import _args
from ..errors import SearchInterrupted, SlidelabError
from ..heuristics import Heuristic
from ..memory import cores_for_this_thread
from ..moves import reach as move_reach
from ..puzzle import Puzzle
from ..solution import Phase, Solution, Stats, make_solution
from ._common import search_entry
from ._ida import EXHAUSTED, FOUND, RUNNING, ida_run
from .limits import Limits
from .move_pruning import automaton, enter, walk_every_path
from .options import read_weight

BUDGET = 1 << 22
#: seconds: once an iteration takes (or the next is expected to take) this long, the later ones
#: are split between the cores
SPLIT_AFTER = 0.5
#: subtree roots per thread in a split iteration (they differ in size: many balance the load)
SPLIT_ROOTS = 128
#: nodes per slice of a split iteration's subtree (between looks at the stop flag)
SPLIT_BUDGET = 1 << 20


def _single_steps(moves) -> list[int]:
    """Blank directions, one per single-tile step, of ``(direction, amount)`` moves."""
    return [int(d) for d, k in moves for _ in range(int(k))]


class _Search:
    """A bounded depth-first search from ``root`` (an iteration, or a subtree of a split one),
    run in slices of the compiled kernel (:mod:`slidelab.search._ida`).

    ``size`` bounds the path's length; ``came`` is the direction of the move into the root (never
    undone from it), or -1.  ``prune``: paths that duplicate a smaller one are not walked
    (:mod:`slidelab.search.move_pruning`), so each position is met by fewer of its paths: not
    for a search that must meet every path (all solutions).  ``history``: the moves that led
    to the root, numbered as the kernel numbers them, which the pruning reads on.
    """

    def __init__(self, root, puzzle, heur, weight, size, reach, came=-1, prune=True, history=()):
        self.root = root
        self.nbr = puzzle.neighbours
        self.goal = puzzle.goal_codes
        self.weight = float(weight)
        self.reach = reach
        self.divisor = heur.divisor
        self.came = came
        # the kernel's per-depth arrays
        self.path = np.zeros(size, np.int8)
        self.amount = np.ones(size, np.int8)
        self.steps = np.zeros(size, np.int64)
        self.tried = np.zeros(size, np.int8)
        self.hs = np.zeros(size, np.int64)
        self.st = np.zeros(5, np.int64)
        self.fsm = automaton(reach) if prune else walk_every_path(reach)
        self.fs = np.zeros(size + 1, np.int32)
        entered = enter(self.fsm, history)
        # a root whose path duplicates a smaller one: that one's subtree holds the same nodes
        self.duplicate = entered < 0
        self.fs[0] = max(entered, 0)
        self.next_bound = np.array([np.inf])
        self.blank = int(np.flatnonzero(root == 0)[0])
        self.data, self.h0 = heur.prepare(root, size * reach)

    def begin(self, bound: float) -> None:
        """Start the search to ``bound``, its node counts from zero."""
        self.bound = float(bound)
        self.st[:] = (0, self.blank, self.h0, 0, 0)
        self.tried[0] = 0
        self.next_bound[0] = np.inf

    def run(self, budget: int) -> int:
        """One slice of at most ``budget`` nodes: RUNNING, FOUND or EXHAUSTED (at once for a
        :attr:`duplicate` root)."""
        if self.duplicate:
            return EXHAUSTED
        return ida_run(
            self.root, self.nbr, self.goal, self.weight, self.bound, self.path, self.amount,
            self.steps, self.tried, self.hs, self.st, self.next_bound, budget, self.data,
            self.came, self.fsm, self.fs, reach=self.reach, divisor=self.divisor,
        )  # fmt: skip

    @property
    def counts(self) -> tuple[int, int]:
        """Nodes expanded and generated since :meth:`begin`."""
        return int(self.st[3]), int(self.st[4])

    @property
    def depth(self) -> int:
        """The depth reached now."""
        return int(self.st[0])

    def moves(self) -> list[tuple[int, int]]:
        """The path found, as ``(blank direction, amount)`` moves."""
        depth = int(self.st[0])
        return list(zip(self.path[:depth].tolist(), self.amount[:depth].tolist(), strict=True))

    def resume_past_goal(self) -> None:
        """Go on past the goal just found (to the next solution)."""
        self.tried[self.st[0]] = 4 * self.reach


def within(puzzle: Puzzle, heur: Heuristic, bound: int, metric: str = "stm", limits=None) -> bool:
    """Whether the goal of ``puzzle`` is at most ``bound`` moves from its start, in ``metric``:
    one depth-first search to ``bound`` (IDA*'s last iteration alone), by an admissible
    heuristic ``heur`` made for the goal.  ``limits`` are checked between slices.

    >>> from slidelab.heuristics import make_heuristic
    >>> p = Puzzle("1 2 3/4 5 6/0 7 8")
    >>> h = make_heuristic(p, "manhattan")
    >>> within(p, h, 2), within(p, h, 1)
    (True, False)
    """
    reach = move_reach(metric, puzzle.width, puzzle.height)
    board = puzzle.start_codes.copy()  # (the kernel moves its tiles)
    search = _Search(board, puzzle, heur, 1.0, int(bound) + 2, reach)
    if heur.estimate(search.h0) > bound:
        return False
    search.begin(bound)
    stats = Stats()
    while True:
        status = search.run(BUDGET)
        if status != RUNNING:
            return status == FOUND
        if limits is not None:
            stats.expanded, stats.generated = search.counts
            limits.check(stats, "idastar", bound=bound)


def _iterate(
    puzzle: Puzzle,
    limits: Limits,
    heur: Heuristic,
    weight: float,
    method: str,
    all_solutions: bool,
    max_solutions: int | None,
    metric: str = "stm",
    split: SplitRunner | None = None,
):
    """Yield solutions (blank-direction lists, one per single-tile step); stop after the first
    unless ``all_solutions``.  The iterations are split between this machine's cores
    (:class:`Threads`) once one takes :data:`SPLIT_AFTER` seconds (or the next is expected to);
    with ``split`` (a cluster's runner), given to it once one takes its ``after`` seconds."""
    board = puzzle.start_codes.copy()
    reach = move_reach(metric, puzzle.width, puzzle.height)
    stats = Stats()
    bound = weight * heur.value(board)
    found = 0
    warmed = False
    # path arrays, and the heuristic's rows (one per single-tile step)
    per_depth = 40 + 8 * (puzzle.width + puzzle.height + 8) * reach
    last_nodes = 0  # nodes of the last finished iteration, for the next one's prediction
    expected = 0.0  # the nodes this iteration is expected to generate (the last grown as before)
    runner = None  # who shares out an iteration's subtrees, once they take long enough
    cores = 1 if all_solutions else cores_for_this_thread()
    search = None

    def phase(again: bool = False) -> None:
        """This iteration's row in ``stats.phases`` (``again``: its row updated)."""
        row = Phase(
            "iteration",
            "",
            float(bound),
            stats.expanded - begun_expanded,
            stats.generated - begun_nodes,
            0,
            limits.elapsed() - begun,
        )
        if again:
            stats.phases[-1] = row
        else:
            stats.phases.append(row)

    try:  # an interruption anywhere in the loop (kernel, progress line) says how far it got
        while True:
            begun, begun_nodes = limits.elapsed(), stats.generated
            begun_expanded = stats.expanded
            size = int(min(bound, 2**62)) + 2  # the depth is at most the bound on g + weight * h
            if search is None or search.path.shape[0] < size:
                # room for a few iterations more: the arrays are made again only past them
                room = size + 16
                limits.need_bytes(room * per_depth, f"a path of up to {room - 2:,} moves", method)
                search = _Search(board, puzzle, heur, weight, room, reach, prune=not all_solutions)
            if not warmed:  # load (or compile) the kernel outside the search time
                search.begin(bound)
                search.run(0)
                limits.started += limits.elapsed()
                begun = limits.elapsed()
                warmed = True
            if runner is not None:  # the iteration's subtrees on every core, or on a cluster
                iteration = Iteration(puzzle, heur, weight, bound, size, reach, method)
                solution, over = split_iteration(iteration, runner, limits, stats, expected)
                if solution is not None:
                    stats.seconds = limits.elapsed()
                    phase()
                    yield solution, stats
                    return
            else:
                search.begin(bound)
                base = stats.expanded, stats.generated
                while True:
                    status = search.run(BUDGET)
                    expanded, generated = search.counts
                    stats.expanded, stats.generated = base[0] + expanded, base[1] + generated
                    stats.stored = stats.peak_frontier = max(stats.stored, search.depth + 1)
                    if status == FOUND:
                        stats.seconds = limits.elapsed()
                        phase(again=found > 0)
                        yield _single_steps(search.moves()), stats
                        found += 1
                        if not all_solutions or (
                            max_solutions is not None and found >= max_solutions
                        ):
                            return
                        search.resume_past_goal()
                        continue
                    if status == EXHAUSTED:
                        break
                    limits.check(stats, method, bound=bound, depth=search.depth)
                over = float(search.next_bound[0])
            if found:
                phase(again=True)
                return
            phase()
            if not np.isfinite(over):
                raise AssertionError("IDA* exhausted the space without reaching the goal")
            bound = over
            limits.check(stats, method, bound=bound)
            nodes = stats.generated - begun_nodes
            took = limits.elapsed() - begun
            # the next iteration, growing as the last did (predicted again after it: the goal is
            # often met part-way, and two iterations ahead, the 15-puzzle's 7-7-1 tables gave up
            # on an 80-move board they solve in 6 s)
            coming = took * nodes / last_nodes if last_nodes else took
            if last_nodes and limits.patience is not None:
                limits.predict(stats, method, coming, bound)
            expected = nodes * nodes / last_nodes if last_nodes else nodes
            last_nodes = nodes
            if runner is None and max(took, coming) >= (
                SPLIT_AFTER if split is None else split.after
            ):
                runner = split if split is not None else Threads(cores) if cores > 1 else None
    except KeyboardInterrupt:
        stats.seconds = limits.elapsed()
        raise SearchInterrupted(
            f"interrupted: {method} searched to bound {bound:g} (no solution shorter"
            f" than {bound:g}) after {stats.expanded:,} expansions",
            stats,
            bound,
        ) from None


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


@dataclass(frozen=True)
class Iteration:
    """One IDA* iteration to share out: what the search of any of its subtrees needs.

    Attributes
    ----------
    puzzle : Puzzle
        The start and the goal.
    heur : Heuristic
        The estimate (None in a cluster's task: made on the worker, :mod:`.cluster_idastar`).
    weight : float
        ``f = g + weight * h``.
    bound : float
        The iteration's bound on ``f``.
    size : int
        The longest path the kernel's arrays hold.
    reach : int
        The most tiles one move slides (1 in STM).
    method : str
        ``idastar`` or ``weighted-idastar``, for reports and errors.
    """

    puzzle: Puzzle
    heur: Heuristic
    weight: float
    bound: float
    size: int
    reach: int
    method: str = "idastar"


class SubtreeSearch:
    """The search of one subtree of a split iteration: from a root ``moves`` away from the start
    (as ``(blank direction, amount)`` moves) to the iteration's bound, in slices of the kernel.

    Examples
    --------
    >>> from slidelab.heuristics import make_heuristic
    >>> puzzle = Puzzle("1 2 3/4 5 6/0 7 8")
    >>> it = Iteration(puzzle, make_heuristic(puzzle), 1.0, 2, 4, 1)
    >>> sub = SubtreeSearch(it, puzzle.start_codes, [])
    >>> sub.run(1000) == FOUND, sub.path()
    (True, [3, 3])
    """

    def __init__(self, iteration: Iteration, root, moves):
        self.g = len(moves)
        self.moves = [(int(d), int(k)) for d, k in moves]
        came = self.moves[-1][0] if self.moves else -1
        it = iteration
        history = [d * it.reach + k - 1 for d, k in self.moves]  # as the kernel numbers moves
        self.search = _Search(
            root, it.puzzle, it.heur, it.weight, it.size, it.reach, came, history=history
        )
        self.search.begin(it.bound - self.g)

    def run(self, budget: int) -> int:
        """One slice of at most ``budget`` nodes: RUNNING, FOUND or EXHAUSTED."""
        return self.search.run(budget)

    @property
    def counts(self) -> tuple[int, int]:
        """Nodes expanded and generated so far."""
        return self.search.counts

    @property
    def deepest(self) -> int:
        """The length of the path held now, from the start (IDA*'s "stored")."""
        return self.g + self.search.depth + 1

    def path(self) -> list[int]:
        """The path found from the start (blank directions, one per single-tile step)."""
        return _single_steps(self.moves + self.search.moves())

    def over(self) -> float:
        """The smallest ``f`` over the bound met in the subtree (once it is exhausted)."""
        return float(self.search.next_bound[0]) + self.g


class Tally:
    """What the subtrees of one split iteration found, kept so that the path found is the plain
    search's: the subtrees are numbered in the plain search's depth-first order, and the path
    of the lowest-numbered subtree that has one wins (``first``: its number; the number of
    subtrees while none has).  A subtree numbered after ``first`` need not run (its path would
    not be taken); the iteration is over once every subtree before ``first`` has finished.
    Also the smallest ``f`` over the bound (``over``), and the nodes (added to ``stats`` as
    they come).
    """

    def __init__(self, roots: int, over: float, stats: Stats):
        self.first = roots
        self.path: list[int] | None = None
        self.over = over
        self.stats = stats
        self.base = stats.expanded, stats.generated
        self.expanded = self.generated = self.deepest = 0

    def add(self, expanded: int, generated: int, deepest: int) -> None:
        """Nodes searched (more of them), and the longest path seen."""
        self.expanded += expanded
        self.generated += generated
        self.deepest = max(self.deepest, deepest)
        self.stats.expanded = self.base[0] + self.expanded
        self.stats.generated = self.base[1] + self.generated

    def finish(self, index: int, status: int, path, over: float) -> None:
        """Subtree ``index`` is over: it found ``path`` (FOUND) or no path (EXHAUSTED, with the
        smallest ``f`` over the bound it met)."""
        if status == FOUND and index < self.first:
            self.first = index
            self.path = path
        elif status == EXHAUSTED:
            self.over = min(self.over, over)

    def close(self) -> tuple[list[int] | None, float]:
        """The iteration's ``(path or None, smallest f over the bound)``; the path held is IDA*'s
        ``stored``."""
        self.stats.stored = self.stats.peak_frontier = max(self.stats.stored, self.deepest)
        return self.path, self.over


class SplitRunner(Protocol):
    """How the subtrees of a split iteration run: :class:`Threads` of this process, or tasks on
    a Dask cluster (:class:`slidelab.search.cluster_idastar.DaskSplit`)."""

    @property
    def after(self) -> float:
        """Seconds an iteration takes (or is expected to) before the later ones are split."""
        ...

    def roots(self, nodes: float) -> int:
        """How many subtrees an iteration expected to generate ``nodes`` nodes is split into, at
        least (there are more when a depth of the search tree has more nodes than that)."""
        ...

    def run(self, iteration: Iteration, roots: list, tally: Tally, limits: Limits) -> None:
        """Search ``roots`` (``(board, moves)`` in the plain search's order) to the iteration's
        bound, telling ``tally`` what each finds; check ``limits`` meanwhile (they raise to stop
        the iteration: the runner stops its subtrees then)."""
        ...


def split_iteration(
    iteration: Iteration, runner: SplitRunner, limits: Limits, stats: Stats, nodes: float = 0.0
) -> tuple[list[int] | None, float]:
    """One IDA* iteration, its subtrees searched by ``runner``.  Returns ``(path or None,
    smallest f over the bound)`` and adds the nodes to ``stats``; ``nodes``: how many it is
    expected to generate (the runner may split a small one less finely).

    The path is the one the plain iteration finds: the subtrees are the plain search's in its
    order, and a subtree that finds a path stops only the subtrees after it (:class:`Tally`).
    """
    it = iteration
    puzzle = it.puzzle
    roots, over, direct = _frontier(
        puzzle.start_codes, puzzle.neighbours, puzzle.goal_codes, it.weight, it.bound, it.heur,
        runner.roots(nodes), it.reach,
    )  # fmt: skip
    if direct is not None:
        return direct, over
    tally = Tally(len(roots), over, stats)
    runner.run(it, roots, tally, limits)
    return tally.close()


class Threads:
    """Split iterations on ``threads`` threads of this process (the kernel releases the GIL),
    :data:`SPLIT_ROOTS` subtrees a thread; the calling thread checks the limits meanwhile."""

    def __init__(self, threads: int):
        self.threads = threads
        self.after = SPLIT_AFTER

    def roots(self, nodes: float) -> int:
        return self.threads * SPLIT_ROOTS

    def run(self, iteration: Iteration, roots: list, tally: Tally, limits: Limits) -> None:
        stop = threading.Event()  # a limit, or Ctrl-C: every subtree stops
        lock = threading.Lock()

        def run(index, root, moves):
            if index > tally.first or stop.is_set():
                return
            subtree = SubtreeSearch(iteration, root, moves)
            done = (0, 0)
            while index < tally.first and not stop.is_set():
                status = subtree.run(SPLIT_BUDGET)
                counts = subtree.counts
                with lock:
                    tally.add(counts[0] - done[0], counts[1] - done[1], subtree.deepest)
                    done = counts
                    if status != RUNNING:
                        path = subtree.path() if status == FOUND else None
                        tally.finish(index, status, path, subtree.over())
                if status != RUNNING:
                    break

        pool = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="slidelab-ida")
        try:
            jobs = [pool.submit(run, i, root, moves) for i, (root, moves) in enumerate(roots)]
            while True:
                wait(jobs, timeout=0.25)
                with lock:
                    first = tally.first
                if all(job.done() for job in jobs[: first + 1]):
                    break
                limits.check(tally.stats, iteration.method, bound=iteration.bound)
        finally:
            stop.set()
            pool.shutdown(wait=True, cancel_futures=True)
        for job in jobs:
            if job.done() and not job.cancelled() and job.exception() is not None:
                raise job.exception()


def _setup(puzzle, limits, heuristic, weight, metric):
    weight = read_weight(weight)
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
    split: SplitRunner | None = None,
) -> Solution:
    """Shortest solution by IDA* (optimal with weight 1 and an admissible heuristic).

    With ``weight > 1`` this is weighted IDA*: faster, at most ``weight`` times
    the optimal length.  ``metric="mtm"`` counts a slide of several tiles in a line
    as one move (a heuristic given by name is made for that metric).  ``split``: who
    searches the subtrees of every iteration (a Dask cluster's
    :class:`~slidelab.search.cluster_idastar.DaskSplit`, from
    :func:`slidelab.search.cluster_idastar.on_cluster`); default: this machine's cores, once an
    iteration takes :data:`SPLIT_AFTER` seconds.

    Examples
    --------
    >>> from slidelab import Puzzle
    >>> idastar(Puzzle("1 2 3/4 5 6/0 7 8")).notation
    'L2'
    >>> idastar(Puzzle("1 2 3/4 5 6/0 7 8"), metric="mtm").length
    1
    """
    heur, method, optimal, weight = _setup(puzzle, limits, heuristic, weight, metric)
    for path, stats in _iterate(puzzle, limits, heur, weight, method, False, None, metric, split):
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
        out.append(make_solution(puzzle, path, True, method, stats.copy(), metric))
    final = out[-1].stats if out else None
    for s in out:  # every solution reports the whole search
        object.__setattr__(s, "stats", final)
    return out
