"""``solve``: the front door to every search method."""

from __future__ import annotations

import dataclasses
import inspect
import logging
import time
from collections.abc import Callable
from typing import NamedTuple

from .. import _args
from ..errors import (
    SearchInterrupted,
    SearchLimitError,
    SearchTooLong,
    SlidelabError,
    UnsolvableError,
)
from ..puzzle import Puzzle
from ..solution import Solution
from ..solvability import check
from ..units import format_bytes, format_duration
from ._common import Limits
from .options import SearchOptions, options_of
from .registry import METHODS, Method

log = logging.getLogger(__name__)

#: weight of ``weighted-astar`` when none is given
DEFAULT_WEIGHT = 1.5

#: boards with at most this many positions are solved from the goal's distance table, built and
#: cached on first need (the 8-puzzle's in 20 ms, after some seconds of compiling on a fresh
#: install); reading a solution off it is a look-up a move and needs no compiled code
AUTO_BUILD_TABLE_STATES = 1 << 21

#: larger boards with at most this many arrangements are solved by table-based bidirectional BFS
AUTO_TABLE_STATES = 50_000_000

#: boards with at most this many cells are solved optimally by ``auto`` (IDA* + pattern databases)
AUTO_OPTIMAL_CELLS = 16

#: seconds of optimal search ``auto`` gives a larger board with named pattern databases (the
#: 24-puzzle's 6-6-6-6) before it settles for a bounded-suboptimal answer; ``time_limit`` sets it
AUTO_SEARCH_SECONDS = 60.0

#: the weight of that bounded-suboptimal answer: at most this many times the optimal length
AUTO_FALLBACK_WEIGHT = 1.5


#: the heuristic ``auto`` and ``solve_all`` use for IDA* in each metric where no other is asked
#: for (on boards without named pattern databases, or with repeated labels: ``manhattan``)
AUTO_HEURISTIC = {"stm": "pdb", "mtm": "pdb"}


def choose_method(puzzle: Puzzle, metric: str = "stm") -> tuple[str, str]:
    """``(method, heuristic)`` that ``auto`` uses for this puzzle (in ``metric``).

    The goal's distance table when one is cached (``slidelab analyze GOAL
    --save``; see :func:`slidelab.analysis.table.table_ready`) or the space has
    at most :data:`AUTO_BUILD_TABLE_STATES` positions (then it is built); a
    flat-table bidirectional BFS when the whole space is small; IDA* with
    pattern databases up to the 15-puzzle, and on the 24-puzzle (6-6-6-6
    tables, where they fit) for :data:`AUTO_SEARCH_SECONDS`, then weighted A*
    with the same tables (:func:`solve`); beyond that, optimal search is not
    expected to finish, and the constructive method (always fast) is used.
    """
    from ..analysis.index import Space
    from ..analysis.table import table_ready

    if Space(puzzle.goal).states <= AUTO_BUILD_TABLE_STATES or table_ready(puzzle, metric):
        return "table", "manhattan"
    if puzzle.n_arrangements <= AUTO_TABLE_STATES:
        return "bidirectional", "manhattan"
    if _small(puzzle) or _budgeted(puzzle):
        return "idastar", AUTO_HEURISTIC[metric]
    return "constructive", "manhattan"


def _small(puzzle: Puzzle) -> bool:
    """At most :data:`AUTO_OPTIMAL_CELLS` cells: ``auto`` searches it optimally, unbudgeted."""
    return puzzle.width * puzzle.height <= AUTO_OPTIMAL_CELLS


def _budgeted(puzzle: Puzzle) -> bool:
    """A board past :data:`AUTO_OPTIMAL_CELLS` whose named pattern databases (the 24-puzzle's
    6-6-6-6) fit this machine: ``auto`` searches it optimally for :data:`AUTO_SEARCH_SECONDS`."""
    if _small(puzzle) or puzzle.has_repeats:
        return False
    from ..heuristics.pdb import DEFAULT_PARTITION, check_build_size, parse_partition

    if (puzzle.width, puzzle.height) not in DEFAULT_PARTITION:
        return False
    try:
        for codes in parse_partition(puzzle, DEFAULT_PARTITION[(puzzle.width, puzzle.height)]):
            check_build_size(puzzle, codes)
    except SlidelabError:
        return False  # the goal's blank is not in a corner, or the tables do not fit here
    return True


def solve(
    start,
    goal=None,
    *,
    method: str = "auto",
    heuristic: str | None = None,
    weight: float | None = None,
    partition=None,
    time_limit: float | None = None,
    max_states: int | None = None,
    max_bytes: int | None = None,
    metric: str = "stm",
    blank_first: bool = False,
    size=None,
    options: SearchOptions | None = None,
    progress: Callable[[dict], None] | None = None,
    table_progress: Callable[[float, str], None] | None = None,
) -> Solution:
    """Solve a position; the solution is replayed and checked before it is returned.

    Parameters
    ----------
    start : Board, Puzzle or str
        The position (or a whole :class:`Puzzle`, then ``goal`` is ignored).
    goal : Board or str, optional
        A board, or a size ``WxH`` for the ordered goal.  Default: tiles in order
        with the blank last (first with ``blank_first``).
    method : str
        A name of :data:`~slidelab.search.registry.METHODS` (aliases such as
        ``ida*`` accepted): ``auto``, ``bfs``, ``bidirectional``, ``astar``,
        ``bidirectional-astar``, ``weighted-astar``, ``idastar``, ``constructive`` or
        ``table`` (the goal's distance table, built and cached if missing: see
        :class:`slidelab.DistanceTable`).
    heuristic : str, optional
        For A* and IDA*: a name of :data:`~slidelab.heuristics.registry.HEURISTICS`:
        ``manhattan`` (the default, except that ``auto`` on a 15-puzzle uses
        ``pdb``), ``linear-conflict``, ``pdb`` (pattern databases, built once and
        cached), ``walking-distance`` or ``zero``.
    weight : float, optional
        For ``weighted-astar`` and ``idastar``: ``f = g + weight * h``; the length is
        at most ``weight`` times optimal.  Default 1 (optimal), or
        :data:`DEFAULT_WEIGHT` for ``weighted-astar``.  With ``astar`` or
        ``auto`` and a weight above 1, ``weighted-astar`` is used (``auto``: with the
        pattern databases on the 15-puzzle), its path polished by optimal
        re-solving of stretches; ``idastar`` with a weight is weighted IDA*.
    partition : str or list, optional
        Pattern-database groups for ``heuristic="pdb"``: a named partition
        (``6-6-3``, ``7-7-1``, ``7-8`` on the 15-puzzle, ``6-6-6-6`` on the 24-puzzle),
        ``full``, ``auto`` or explicit ``"1,2,3/4,5,6,..."``.
    time_limit : float, optional
        Seconds; past it :class:`SearchLimitError` is raised.
    max_states, max_bytes : int, optional
        Memory limits of the storing searches (BFS, bidirectional, A*).
    metric : {"stm", "mtm"}
        What a move is: one tile (``stm``, the default), or a slide of one or more
        tiles in a line (``mtm``).  Optimal methods minimise the length in it, and
        heuristics are made admissible in it (see
        :func:`slidelab.heuristics.make_heuristic`).
    options : SearchOptions, optional
        All the options above as one checked value (from
        :func:`~slidelab.search.options.check_options`), instead of keywords.
    progress : callable, optional
        Called now and then with a dict of the search's progress.
    table_progress : callable, optional
        ``(fraction, message)`` while tables are being built.

    Returns
    -------
    Solution

    Raises
    ------
    SlidelabError
        Bad input: unreadable board, start and goal that do not match, unknown method.
    UnsolvableError
        The goal cannot be reached (the message gives the reason).
    SearchLimitError
        A time or memory limit was reached first.

    Examples
    --------
    >>> s = solve("1 2 3/4 5 6/0 7 8")
    >>> s.notation, s.length, s.optimal
    ('L2', 2, True)
    >>> solve("0 1 2/3 4 5/6 7 8", "3 1 2/4 7 5/6 0 8", method="idastar").length
    3
    >>> s = solve("8 6 7/2 5 4/3 0 1", metric="mtm")
    >>> s.length, s.length_stm, s.optimal
    (20, 31, True)
    """
    options = options_of(
        options,
        method=method,
        heuristic=heuristic,
        weight=weight,
        partition=partition,
        time_limit=time_limit,
        max_states=max_states,
        max_bytes=max_bytes,
        metric=metric,
    )
    _args.callback(progress, "progress")
    _args.callback(table_progress, "table_progress")
    puzzle = _puzzle(start, goal, blank_first, size)
    plan = _plan(puzzle, options)
    verdict = check(puzzle)
    if not verdict.solvable:
        raise UnsolvableError(verdict.reason)
    options, rungs = _auto_tables(puzzle, plan, options)
    if options.method == "auto" and plan.method.name == "idastar" and not _small(puzzle):
        # choose_method picked IDA* past the 15-puzzle: the board is _budgeted
        return _optimal_within_budget(puzzle, plan, options, progress, table_progress)
    limits = _limits(options, progress)
    tables = _tables(plan, puzzle, options, limits, table_progress)
    while True:
        if rungs:  # it climbs by itself: no hint to add the stronger partition
            from ..heuristics.pdb import build_estimate

            seconds, size = build_estimate(puzzle, rungs[0])
            limits.patience = seconds
            limits.context.pop("stronger_partition", None)
        try:
            solution = plan.method.load()(puzzle, limits=limits, **tables, **plan.keywords())
            break
        except SearchTooLong as exc:
            if not rungs:
                raise
            name = rungs.pop(0)
            log.info(
                "%s: building the %s pattern databases (%s, about %s, once: cached for later"
                " solves) and searching with them",
                exc,
                name,
                format_bytes(size),
                format_duration(seconds),
            )
            options = dataclasses.replace(options, partition=name)
            limits = _limits(options, progress)
            tables = _tables(plan, puzzle, options, limits, table_progress)
    solution.verify()
    return solution


def _limits(options: SearchOptions, progress, time_limit: float | None = None) -> Limits:
    """The limits of one search: the options' (``time_limit`` in place of theirs, if given)."""
    seconds = options.time_limit if time_limit is None else time_limit
    return Limits(seconds, options.max_states, options.max_bytes, progress)


def _optimal_within_budget(puzzle, plan, options, progress, table_progress) -> Solution:
    """``auto`` on a board where optimal search may not finish: IDA* for the time limit (default
    :data:`AUTO_SEARCH_SECONDS`), then, past it, weighted A* with the same tables (at most
    :data:`AUTO_FALLBACK_WEIGHT` times optimal, not proven optimal), then the constructive
    method if even that runs out."""
    budget = options.time_limit if options.time_limit is not None else AUTO_SEARCH_SECONDS
    limits = _limits(options, progress, budget)
    tables = _tables(plan, puzzle, options, limits, table_progress)
    try:
        solution = plan.method.load()(puzzle, limits=limits, metric=options.metric, **tables)
    except SearchInterrupted:
        raise
    except SearchLimitError as exc:
        known = "" if exc.lower_bound is None else f": it is at least {exc.lower_bound:g} moves"
        log.info(
            "no proven optimum within %s of search%s; looking for a solution at most %g times"
            " as long with the same tables (for a longer optimal search, give --time-limit,"
            " e.g. --time-limit 1h)",
            format_duration(budget),
            known,
            AUTO_FALLBACK_WEIGHT,
        )
        fallback = _limits(options, progress, budget)
        try:
            solution = METHODS["weighted-astar"].load()(
                puzzle,
                limits=fallback,
                weight=AUTO_FALLBACK_WEIGHT,
                metric=options.metric,
                **tables,
            )
        except SearchInterrupted:
            raise
        except SearchLimitError as again:
            log.info("%s; solving by the constructive method instead", again)
            solution = METHODS["constructive"].load()(
                puzzle, limits=Limits(progress=progress), metric=options.metric
            )
    solution.verify()
    return solution


def _auto_tables(puzzle: Puzzle, plan: _Plan, options: SearchOptions) -> tuple[SearchOptions, list]:
    """``auto`` with pattern databases and no partition asked for: the strongest rung of the
    board's ladder of named partitions (6-6-3, 7-7-1, 7-8 on the 15-puzzle) whose tables are
    ready, and the names of the rungs above it that could be built here, weakest first: the
    search gives up once it is expected to take longer than building the next rung."""
    if not (
        options.method == "auto"
        and options.metric == "stm"
        and options.partition is None
        and plan.heuristic == "pdb"
        and plan.method.name == "idastar"
        and plan.weight == 1
    ):
        return options, []
    from ..heuristics.pdb import check_build_size, is_ready, parse_partition, stronger_partitions

    rungs = stronger_partitions(puzzle, None)
    for i in range(len(rungs) - 1, -1, -1):
        if is_ready(puzzle, rungs[i]):
            options = dataclasses.replace(options, partition=rungs[i])
            rungs = rungs[i + 1 :]
            break
    buildable = []
    for name in rungs:
        try:
            for codes in parse_partition(puzzle, name):
                check_build_size(puzzle, codes)
        except SlidelabError:
            break  # too large to build here, and so is every rung above
        buildable.append(name)
    return options, buildable


class _Plan(NamedTuple):
    """What :func:`solve` runs on one board: the method (``auto`` resolved), heuristic, weight
    and metric."""

    method: Method
    heuristic: str
    weight: float
    metric: str = "stm"

    def keywords(self) -> dict:
        """The weight, for the method functions that take one, and the metric (every method
        function takes it: :attr:`~.registry.Method.metrics`)."""
        function = self.method.load()
        weight = "weight" in inspect.signature(function).parameters
        return {"metric": self.metric, **({"weight": self.weight} if weight else {})}


def _plan(puzzle: Puzzle, options: SearchOptions) -> _Plan:
    """The concrete method, heuristic and weight :func:`solve` uses on ``puzzle``; checks the
    partition's groups against the puzzle whatever method runs."""
    name, heuristic = options.method, options.heuristic
    weight = options.weight
    if weight is None:
        weight = DEFAULT_WEIGHT if name == "weighted-astar" else 1.0
    _check_partition_fits(puzzle, options.partition)
    if name == "auto":
        name, auto_heuristic = choose_method(puzzle, options.metric)
        if heuristic is None:
            heuristic = auto_heuristic
        if weight != 1 and name != "constructive":
            name = "weighted-astar"  # with polishing: closest to optimal of the fast methods
    if heuristic is None:
        heuristic = "manhattan"
    if name == "astar" and weight != 1:
        name = "weighted-astar"
    return _Plan(METHODS[name], heuristic, weight, options.metric)


def _check_partition_fits(puzzle: Puzzle, partition) -> None:
    """Refuse a partition whose groups do not fit the puzzle ("junk", "1,2/3", "7-8" on a 3x3)."""
    if partition is not None and not (
        isinstance(partition, str) and partition.strip().lower() in ("auto", "full")
    ):
        from ..heuristics.pdb import parse_partition

        parse_partition(puzzle, partition)


def _tables(
    plan: _Plan, puzzle: Puzzle, options: SearchOptions, limits: Limits, table_progress
) -> dict:
    """What the method needs built before its clock starts (its entry's ``tables``): the heuristic
    or the goal's distance table, as keyword arguments of its function."""
    if plan.method.tables == "heuristic":
        return {
            "heuristic": _search_heuristic(
                puzzle, plan.heuristic, options.partition, limits, table_progress, plan.metric
            )
        }
    if plan.method.tables == "distance":
        from ..analysis.table import goal_table

        table = goal_table(puzzle.goal, table_progress, plan.metric)
        limits.started = time.perf_counter()  # building a table is not search time
        return {"table": table}
    return {}


def _search_heuristic(
    puzzle, heuristic, partition, limits: Limits, table_progress, metric: str = "stm"
):
    """The heuristic (admissible in ``metric`` if it is in STM), its tables built or loaded
    before the search clock starts; with pattern databases, the progress reports name stronger
    ones where they exist."""
    from ..heuristics import make_heuristic
    from ..heuristics.pdb import stronger_partition

    if heuristic == "pdb":
        limits.context["stronger_partition"] = stronger_partition(puzzle, partition)
    heur = make_heuristic(
        puzzle, heuristic, partition=partition, progress=table_progress, metric=metric
    )
    limits.started = time.perf_counter()  # building tables is not search time
    return heur


def _puzzle(start, goal, blank_first, size) -> Puzzle:
    if isinstance(start, Puzzle):
        return start
    return Puzzle(start, goal, blank_first=_args.boolean(blank_first, "blank_first"), size=size)


def prepare(
    puzzle: Puzzle,
    *,
    method: str = "auto",
    heuristic: str | None = None,
    weight: float | None = None,
    partition=None,
    metric: str = "stm",
    options: SearchOptions | None = None,
    table_progress: Callable[[float, str], None] | None = None,
) -> str:
    """Build (or load) and cache the tables :func:`solve` would use; return the method.

    Takes the options of :func:`solve`.  A batch calls it once per goal before
    its worker processes start, so that they only load the tables from the
    cache.

    Examples
    --------
    >>> prepare(Puzzle("1 2 3/4 5 6/0 7 8"), method="idastar", heuristic="linear-conflict")
    'idastar'
    """
    _args.instance(puzzle, "puzzle", Puzzle)
    options = options_of(
        options,
        method=method,
        heuristic=heuristic,
        weight=weight,
        partition=partition,
        metric=metric,
    )
    _args.callback(table_progress, "table_progress")
    plan = _plan(puzzle, options)
    _tables(plan, puzzle, options, Limits(), table_progress)
    return plan.method.name


def solve_all(
    start,
    goal=None,
    *,
    limit: int | None = None,
    heuristic: str | None = None,
    blank_first: bool = False,
    size=None,
    time_limit: float | None = None,
    partition=None,
    metric: str = "stm",
    progress=None,
    table_progress=None,
) -> list[Solution]:
    """Every distinct optimal solution in ``metric`` (at most ``limit``), by IDA*; each is
    replayed.

    Examples
    --------
    >>> sols = solve_all("ABA_/CDCD/ABAB/CDCD", "ABA_/CABD/ACDB/CDCD")
    >>> len(sols), sols[0].length
    (4, 16)
    >>> sols = solve_all("ABA_/CDCD/ABAB/CDCD", "ABA_/CABD/ACDB/CDCD", metric="mtm")
    >>> len(sols), sols[0].length
    (8, 13)
    """
    limit = _args.integer(limit, "limit", minimum=1, optional=True)
    options = options_of(
        None,
        method="idastar",
        heuristic=heuristic,
        time_limit=time_limit,
        partition=partition,
        metric=metric,
    )
    _args.callback(progress, "progress")
    _args.callback(table_progress, "table_progress")
    puzzle = _puzzle(start, goal, blank_first, size)
    _check_partition_fits(puzzle, options.partition)
    verdict = check(puzzle)
    if not verdict.solvable:
        raise UnsolvableError(verdict.reason)
    heuristic = options.heuristic
    if heuristic is None:
        small = _small(puzzle) and not puzzle.has_repeats
        heuristic = AUTO_HEURISTIC[options.metric] if small else "manhattan"
    limits = Limits(options.time_limit, None, None, progress)
    heur = _search_heuristic(
        puzzle, heuristic, options.partition, limits, table_progress, options.metric
    )
    from .idastar import idastar_all

    solutions = idastar_all(
        puzzle, heuristic=heur, max_solutions=limit, limits=limits, metric=options.metric
    )
    for s in solutions:
        s.verify()
    return solutions
