"""``solve``: the front door to every search method.

:func:`solve` reads its request once (:func:`~.request.read_request`: a
:class:`~slidelab.puzzle.Puzzle` and checked :class:`~slidelab.search.options.SearchOptions`),
then :func:`solve_request` answers it: the time limit starts one
:class:`~slidelab._clock.Clock` that bounds the whole answer (tables built for it
included); :mod:`.plan` resolves the method and makes its tables ready, and
:mod:`.auto` runs ``auto``'s cheapest-first policy where it searches.  A stream
(:func:`~.many.solve_many`, batch) makes each goal's plan and tables ready once
(:func:`prepare_request`, through :class:`~.stream.Plans`) and hands them to
:func:`solve_request`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .. import _args
from .._clock import Clock
from ..puzzle import Puzzle
from ..solution import Solution
from .auto import solve_auto
from .limits import Limits
from .options import OPTION_NAMES, SearchOptions, options_of
from .plan import DEFAULT_WEIGHT, Plan, limits_of, make_plan, prepare_tables, search_heuristic
from .policy import auto_heuristic, choose_method, small
from .request import Request, check_partition_fits, check_request, read_puzzle

__all__ = [
    "DEFAULT_WEIGHT",
    "choose_method",
    "prepare",
    "prepare_request",
    "solve",
    "solve_all",
    "solve_request",
]

log = logging.getLogger(__name__)


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
    scheduler=None,
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
        ``pdb``, and ``abstraction`` in MTM), ``linear-conflict``, ``pdb`` (pattern
        databases, built once and cached), ``pdb-dual`` (the same maxed with a dual
        look-up: fewer nodes, more time), ``abstraction`` (the exact distance of the
        goal with its tiles merged into classes, built once and cached),
        ``walking-distance`` or ``zero``.
    weight : float, optional
        For ``weighted-astar`` and ``idastar``: ``f = g + weight * h``; the length is
        at most ``weight`` times optimal.  Default 1 (optimal), or
        :data:`DEFAULT_WEIGHT` for ``weighted-astar``.  With ``astar`` or
        ``auto`` and a weight above 1, ``weighted-astar`` is used (``auto``: with the
        pattern databases on the 15-puzzle), its path polished by optimal
        re-solving of stretches; ``idastar`` with a weight is weighted IDA*.
    partition : str or list, optional
        Pattern-database groups for ``heuristic="pdb"`` (or ``"pdb-dual"``): a named partition
        (``6-6-3``, ``7-7-1``, ``7-8`` on the 15-puzzle, ``6-6-6-6`` on the 24-puzzle),
        ``full``, ``auto`` or explicit ``"1,2,3/4,5,6,..."``.
    time_limit : float, optional
        Seconds for the whole answer, counted from this call: choosing, building
        or loading tables (a build that would not be done in time is not
        started), searching and falling back (compiling kernels, once per
        install, is not counted).  Past it :class:`SearchLimitError` is raised,
        except where ``auto`` gives a bounded answer (boards past the 15-puzzle).
    max_states, max_bytes : int, optional
        Memory limits of the storing searches (BFS, bidirectional, A*).
    metric : {"stm", "mtm"}
        What a move is: one tile (``stm``, the default), or a slide of one or more
        tiles in a line (``mtm``).  Optimal methods minimise the length in it, and
        heuristics are made admissible in it (see
        :func:`slidelab.heuristics.make_heuristic`).
    scheduler : str or distributed.Client, optional
        A Dask scheduler's address (``tcp://host:8786``), or a client: the iterations of IDA* run
        as tasks on its cluster's workers, each worker loading the tables from its own cache
        (:mod:`slidelab.search.cluster_idastar`); the same solution as on this machine.  For
        ``idastar``, and ``auto`` where it searches with IDA* (on a board it solves otherwise,
        here); other methods refuse it.
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
    SearchInterrupted
        Ctrl-C during IDA* (a ``KeyboardInterrupt``): the bound it had proved, and its
        statistics.

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
        options, **{name: value for name, value in locals().items() if name in OPTION_NAMES}
    )
    clock = Clock(options.time_limit)  # the whole answer's, from here
    _args.callback(progress, "progress")
    _args.callback(table_progress, "table_progress")
    puzzle = read_puzzle(start, goal, blank_first=blank_first, size=size)
    request = check_request(puzzle, options)
    return solve_request(request, progress=progress, table_progress=table_progress, clock=clock)


def solve_request(
    request: Request,
    *,
    plan: Plan | None = None,
    progress: Callable[[dict], None] | None = None,
    table_progress: Callable[[float, str], None] | None = None,
    clock: Clock | None = None,
    record: int = 0,
) -> Solution:
    """:func:`solve` of a request already read and checked (:func:`~.request.read_request`):
    nothing is parsed, checked or resolved again.  ``plan``: the board's plan from
    :func:`prepare_request`, its tables ready (else it is made here); ``clock``: the answer's
    (default: one of the options' time limit, started now); ``record``: nodes to record for
    playing the search back (:attr:`~.limits.Limits.record`; a method named, not ``auto``).
    The solution is replayed and checked before it is returned.

    Examples
    --------
    >>> from .request import read_request
    >>> solve_request(read_request("1 2 3/4 5 6/0 7 8", method="bfs")).notation
    'L2'
    """
    puzzle, options = request.puzzle, request.options
    if clock is None:
        clock = Clock(options.time_limit)
    if plan is None:
        plan = make_plan(puzzle, options)
    with _cluster(plan, options, clock) as split:
        if _auto_searches(plan, options):
            solution = solve_auto(puzzle, plan, options, clock, progress, table_progress, split)
        else:
            limits = limits_of(options, progress, clock, record=record)
            if plan.tables is None:
                tables = prepare_tables(plan, puzzle, options, limits, table_progress)
            else:
                tables = plan.tables
                limits.context.update(plan.context or {})
            solution = plan.method.load()(puzzle, limits=limits, **tables, **plan.keywords(split))
    solution.verify()
    return solution


@contextmanager
def _cluster(plan: Plan, options: SearchOptions, clock: Clock) -> Iterator:
    """The runner of IDA*'s iterations on the options' Dask cluster
    (:func:`~.cluster_idastar.on_cluster`) while the answer is made, or None: no scheduler, or a
    plan that does not search there (``auto`` on a board it solves otherwise)."""
    if options.scheduler is None:
        yield None
    elif not plan.method.cluster:
        log.info(
            "%s: %s on this machine (only IDA* runs on the Dask cluster)",
            options.method,
            plan.method.name,
        )
        yield None
    else:
        from .cluster_idastar import on_cluster

        with on_cluster(options.scheduler, clock.left()) as split:
            yield split


def _auto_searches(plan: Plan, options: SearchOptions) -> bool:
    """``auto`` where it searches (IDA*, cheapest first: :mod:`.auto`), deciding per board what
    to build."""
    return options.method == "auto" and plan.method.name == "idastar" and plan.weight == 1


def prepare_request(
    request: Request, *, table_progress: Callable[[float, str], None] | None = None
) -> Plan:
    """The plan :func:`solve_request` runs on ``request``, its tables built or loaded now: a
    stream makes it once per goal (:class:`~.stream.Plans`: a plan and its tables depend on the
    goal and the options, not on the start) and hands it to :func:`solve_request` (with a
    ``time_limit``, a build that would take longer is refused)."""
    return _prepare(request.puzzle, request.options, table_progress)


def _prepare(puzzle: Puzzle, options: SearchOptions, table_progress) -> Plan:
    plan = make_plan(puzzle, options)
    if _auto_searches(plan, options):
        return plan  # cheapest first: each board decides what to build
    limits = Limits(clock=Clock(options.time_limit))
    tables = prepare_tables(plan, puzzle, options, limits, table_progress)
    return plan._replace(tables=tables, context=dict(limits.context))


def prepare(
    puzzle: Puzzle,
    *,
    options: SearchOptions | None = None,
    table_progress: Callable[[float, str], None] | None = None,
    **given,
) -> str:
    """Build (or load) and cache the tables :func:`solve` would use; return the method.

    Takes the options of :func:`solve` (by name, or as ``options``): tables built ahead of
    time, so that later solves (other processes too) only load them from the cache.
    ``auto`` where it searches builds nothing ahead (it builds only for a board whose search
    needs it, :mod:`slidelab.search.auto`); with a ``time_limit`` in ``options``, a build
    that would take longer is refused (:class:`~slidelab.errors.SearchLimitError`, saying
    how to build it once).

    Examples
    --------
    >>> prepare(Puzzle("1 2 3/4 5 6/0 7 8"), method="idastar", heuristic="linear-conflict")
    'idastar'
    """
    _args.instance(puzzle, "puzzle", Puzzle)
    options = options_of(options, **given)
    _args.callback(table_progress, "table_progress")
    check_partition_fits(puzzle, options.partition)
    return _prepare(puzzle, options, table_progress).method.name


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
    replayed.  ``start`` is as for :func:`solve`, or a :class:`~.request.Request` read
    already (then only its puzzle is used).

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
    clock = Clock(options.time_limit)
    _args.callback(progress, "progress")
    _args.callback(table_progress, "table_progress")
    if isinstance(start, Request) and start.options.partition == options.partition:
        puzzle = start.puzzle  # read and checked already (solve --all)
    else:
        puzzle = check_request(
            read_puzzle(start, goal, blank_first=blank_first, size=size), options
        ).puzzle
    heuristic = options.heuristic
    if heuristic is None:
        few = small(puzzle) and not puzzle.has_repeats
        heuristic = auto_heuristic(puzzle, options.metric) if few else "manhattan"
    limits = Limits(None, None, None, progress, clock=clock)
    given = {} if options.partition is None else {"partition": options.partition}
    heur = search_heuristic(puzzle, heuristic, limits, table_progress, options.metric, given)
    from .idastar import idastar_all

    solutions = idastar_all(
        puzzle, heuristic=heur, max_solutions=limit, limits=limits, metric=options.metric
    )
    for s in solutions:
        s.verify()
    return solutions
