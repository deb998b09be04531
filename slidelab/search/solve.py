"""``solve``: the front door to every search method.

:func:`solve` reads its request once, into a :class:`~slidelab.puzzle.Puzzle` and checked
:class:`~slidelab.search.options.SearchOptions`; the time limit starts one
:class:`~slidelab._clock.Clock` that bounds the whole answer (tables built for it
included); :mod:`.plan` resolves the method and makes its tables ready, and
:mod:`.auto` runs ``auto``'s cheapest-first policy where it searches.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import _args
from .._clock import Clock
from ..errors import UnsolvableError
from ..puzzle import Puzzle
from ..solution import Solution
from ..solvability import check
from ._common import Limits
from .auto import solve_auto
from .options import SearchOptions, options_of
from .plan import (
    AUTO_HEURISTIC,
    DEFAULT_WEIGHT,
    check_partition_fits,
    choose_method,
    limits_of,
    make_plan,
    prepare_tables,
    search_heuristic,
    small,
)

__all__ = ["DEFAULT_WEIGHT", "choose_method", "prepare", "solve", "solve_all"]


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
    clock = Clock(options.time_limit)  # the whole answer's, from here
    _args.callback(progress, "progress")
    _args.callback(table_progress, "table_progress")
    puzzle = _puzzle(start, goal, blank_first, size)
    plan = make_plan(puzzle, options)
    verdict = check(puzzle)
    if not verdict.solvable:
        raise UnsolvableError(verdict.reason)
    if options.method == "auto" and plan.method.name == "idastar" and plan.weight == 1:
        solution = solve_auto(puzzle, plan, options, clock, progress, table_progress)
    else:
        limits = limits_of(options, progress, clock)
        tables = prepare_tables(plan, puzzle, options, limits, table_progress)
        solution = plan.method.load()(puzzle, limits=limits, **tables, **plan.keywords())
    solution.verify()
    return solution


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
    cache.  ``auto`` where it searches builds nothing ahead (it builds only for
    a board whose search needs it, :mod:`slidelab.search.auto`); with a
    ``time_limit`` in ``options``, a build that would take longer is refused
    (:class:`~slidelab.errors.SearchLimitError`, saying how to build it once).

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
    plan = make_plan(puzzle, options)
    if options.method == "auto" and plan.method.name == "idastar" and plan.weight == 1:
        return plan.method.name  # cheapest first: each board decides what to build
    limits = Limits(clock=Clock(options.time_limit))
    prepare_tables(plan, puzzle, options, limits, table_progress)
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
    clock = Clock(options.time_limit)
    _args.callback(progress, "progress")
    _args.callback(table_progress, "table_progress")
    puzzle = _puzzle(start, goal, blank_first, size)
    check_partition_fits(puzzle, options.partition)
    verdict = check(puzzle)
    if not verdict.solvable:
        raise UnsolvableError(verdict.reason)
    heuristic = options.heuristic
    if heuristic is None:
        few = small(puzzle) and not puzzle.has_repeats
        heuristic = AUTO_HEURISTIC[options.metric] if few else "manhattan"
    limits = Limits(None, None, None, progress, clock=clock)
    heur = search_heuristic(
        puzzle, heuristic, options.partition, limits, table_progress, options.metric
    )
    from .idastar import idastar_all

    solutions = idastar_all(
        puzzle, heuristic=heur, max_solutions=limit, limits=limits, metric=options.metric
    )
    for s in solutions:
        s.verify()
    return solutions
