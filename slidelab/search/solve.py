"""``solve``: the front door to every search method."""

from __future__ import annotations

import time
from typing import Callable, Optional

from .. import _args
from ..errors import SlidelabError, UnsolvableError
from ..heuristics import heuristic_name, make_heuristic
from ..heuristics.pdb import stronger_partition
from ..puzzle import Puzzle
from ..solution import Solution
from ..solvability import check
from ._common import Limits
from .astar import astar, weighted_astar
from .bfs import bfs
from .bidirectional import bidirectional_bfs
from .constructive import constructive
from .idastar import idastar, idastar_all

#: method name -> (description, optimal)
METHODS = {
    "auto": "picks a proven-optimal method for the board",
    "bfs": "breadth-first search (optimal; one byte per arrangement)",
    "bidirectional": "breadth-first search from both ends (optimal)",
    "astar": "A* (optimal with an admissible heuristic)",
    "weighted-astar": "weighted A* (at most --weight times optimal)",
    "idastar": "IDA* (optimal; with --weight > 1, bounded suboptimal)",
    "constructive": "row-by-row reduction, exact finish (fast, any size, not optimal)",
    "table": "distance table of the goal (optimal, no search; built once and cached)",
}
ALIASES = {"a*": "astar", "ida*": "idastar", "wastar": "weighted-astar", "weighted-a*": "weighted-astar",
           "bibfs": "bidirectional", "bidirectional-bfs": "bidirectional", "bi-bfs": "bidirectional",
           "breadth-first": "bfs", "ida": "idastar", "distance-table": "table"}

#: weight of ``weighted-astar`` when none is given
DEFAULT_WEIGHT = 1.5

#: boards with at most this many arrangements are solved by table-based bidirectional BFS
AUTO_TABLE_STATES = 50_000_000


def method_name(name: str) -> str:
    """Canonical method name, or :class:`SlidelabError` listing the choices."""
    key = str(name).strip().lower()
    key = ALIASES.get(key, key)
    if key not in METHODS:
        raise SlidelabError(f"unknown method {name!r}; choose from {', '.join(METHODS)}")
    return key


#: boards with at most this many cells are solved optimally by ``auto`` (IDA* + pattern databases)
AUTO_OPTIMAL_CELLS = 16


def choose_method(puzzle: Puzzle) -> tuple[str, str]:
    """``(method, heuristic)`` that ``auto`` uses for this puzzle.

    The goal's distance table when one is cached (``slidelab analyze GOAL
    --save``; see :func:`slidelab.analysis.table.table_ready`); a flat-table
    bidirectional BFS when the whole space is small; IDA* with
    pattern databases up to the 15-puzzle; beyond that, optimal search is not
    expected to finish, and the constructive method (always fast) is used.
    """
    from ..analysis.table import table_ready

    if table_ready(puzzle):
        return "table", "manhattan"
    if puzzle.n_arrangements <= AUTO_TABLE_STATES:
        return "bidirectional", "manhattan"
    if puzzle.width * puzzle.height <= AUTO_OPTIMAL_CELLS:
        return "idastar", "pdb"
    return "constructive", "manhattan"


def solve(start, goal=None, *, method: str = "auto", heuristic: Optional[str] = None,
          weight: Optional[float] = None, blank_first: bool = False, size=None,
          time_limit: Optional[float] = None, max_states: Optional[int] = None,
          max_bytes: Optional[int] = None, partition=None,
          progress: Optional[Callable[[dict], None]] = None,
          table_progress: Optional[Callable[[float, str], None]] = None) -> Solution:
    """Solve a position; the solution is replayed and checked before it is returned.

    Parameters
    ----------
    start : Board, Puzzle or str
        The position (or a whole :class:`Puzzle`, then ``goal`` is ignored).
    goal : Board or str, optional
        Default: tiles in order with the blank last (first with ``blank_first``).
    method : str
        ``auto``, ``bfs``, ``bidirectional``, ``astar``, ``weighted-astar``, ``idastar``,
        ``constructive`` or ``table`` (the goal's distance table, built and cached
        if missing: see :class:`slidelab.DistanceTable`).
    heuristic : str, optional
        For A* and IDA*: ``manhattan`` (the default, except that ``auto`` on a
        15-puzzle uses ``pdb``), ``linear-conflict``, ``pdb`` (pattern
        databases, built once and cached) or ``zero``.
    weight : float, optional
        For weighted A* and weighted IDA*: ``f = g + weight * h``; the length is
        at most ``weight`` times optimal.  Default 1 (optimal), or
        :data:`DEFAULT_WEIGHT` for ``weighted-astar``.  With ``astar`` or
        ``auto`` and a weight above 1, weighted A* is used (``auto``: with the
        pattern databases on the 15-puzzle), its path polished by optimal
        re-solving of stretches; ``idastar`` with a weight is weighted IDA*.
    time_limit : float, optional
        Seconds; past it :class:`SearchLimitError` is raised.
    max_states, max_bytes : int, optional
        Memory limits of the storing searches (BFS, bidirectional, A*).
    partition : str or list, optional
        Pattern-database groups for ``heuristic="pdb"``: ``6-6-3``, ``7-8``,
        ``full``, ``auto`` or explicit ``"1,2,3/4,5,6,..."``.
    progress : callable, optional
        Called now and then with a dict of the search's progress.
    table_progress : callable, optional
        ``(fraction, message)`` while pattern databases are being built.

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
    """
    options = check_options(method=method, heuristic=heuristic, weight=weight,
                            time_limit=time_limit, max_states=max_states, max_bytes=max_bytes,
                            partition=partition, progress=progress, table_progress=table_progress)
    puzzle = _puzzle(start, goal, blank_first, size)
    name, heuristic, weight = _plan(puzzle, options["method"], options["heuristic"],
                                    options["weight"], partition)
    time_limit, max_states, max_bytes = (options[k] for k in ("time_limit", "max_states", "max_bytes"))
    verdict = check(puzzle)
    if not verdict.solvable:
        raise UnsolvableError(verdict.reason)
    limits = Limits(time_limit, max_states, max_bytes, progress)
    if name in HEURISTIC_METHODS:
        heuristic = _search_heuristic(puzzle, heuristic, partition, limits, table_progress)
    if name == "bfs":
        solution = bfs(puzzle, limits)
    elif name == "bidirectional":
        solution = bidirectional_bfs(puzzle, limits)
    elif name == "astar":
        solution = astar(puzzle, limits, heuristic)
    elif name == "weighted-astar":
        solution = weighted_astar(puzzle, limits, weight, heuristic)
    elif name == "constructive":
        solution = constructive(puzzle, limits)
    elif name == "table":
        from ..analysis.table import solve_by_table

        solution = solve_by_table(puzzle, table_progress)
    else:
        solution = idastar(puzzle, limits, heuristic, weight)
    solution.verify()
    return solution


#: the methods that search with a heuristic
HEURISTIC_METHODS = ("astar", "weighted-astar", "idastar")


def _search_heuristic(puzzle, heuristic, partition, limits: Limits, table_progress):
    """The heuristic, its tables built or loaded before the search clock starts; with pattern
    databases, the progress reports name stronger ones where they exist."""
    if heuristic == "pdb":
        limits.context["stronger_partition"] = stronger_partition(puzzle, partition)
    heur = make_heuristic(puzzle, heuristic, partition=partition, progress=table_progress)
    limits.started = time.perf_counter()  # building tables is not search time
    return heur


def check_options(*, method="auto", heuristic=None, weight=None, time_limit=None,
                  max_states=None, max_bytes=None, partition=None, progress=None,
                  table_progress=None, names: Optional[dict] = None) -> dict:
    """Check the options of :func:`solve` that do not depend on the puzzle; return them canonical.

    :func:`solve`, :func:`prepare` and :func:`slidelab.batch.solve_batch` call
    it at their door, and the command line before it reads a board, so every
    front end refuses the same options with the same words: the weight must
    be a finite number of at least 1; the limits positive (``time_limit`` may
    be infinite, ``max_states`` and ``max_bytes`` whole numbers); the method
    and heuristic known names; the partition text or a list of groups (its
    groups are checked against each puzzle by :func:`_plan`).  ``names`` maps a
    parameter to what the caller calls it in messages (``{"max_bytes":
    "--max-memory"}``).

    Examples
    --------
    >>> check_options(method="A*", weight=2)["method"], check_options(weight=2)["weight"]
    ('astar', 2.0)
    >>> check_options(weight=float("inf"), names={"weight": "--weight"})
    Traceback (most recent call last):
    ...
    slidelab.errors.SlidelabError: --weight must be a finite number, got inf
    """
    name = (names or {}).get
    method = method_name(_args.text(method, name("method", "method")))
    if heuristic is not None:
        heuristic = heuristic_name(_args.text(heuristic, name("heuristic", "heuristic")))
    weight = _args.number(weight, name("weight", "weight"), minimum=1, optional=True)
    time_limit = _args.number(time_limit, name("time_limit", "time_limit"), positive=True,
                              finite=False, optional=True)
    max_states = _args.integer(max_states, name("max_states", "max_states"), positive=True,
                               optional=True)
    max_bytes = _args.integer(max_bytes, name("max_bytes", "max_bytes"), positive=True,
                              optional=True)
    _check_partition(partition, name("partition", "partition"))
    _args.callback(progress, "progress")
    _args.callback(table_progress, "table_progress")
    return {"method": method, "heuristic": heuristic, "weight": weight, "time_limit": time_limit,
            "max_states": max_states, "max_bytes": max_bytes, "partition": partition}


def _check_partition(partition, name: str) -> None:
    """A partition is None, text, or a list of groups (lists) of tile labels (text or numbers)."""
    if partition is None or isinstance(partition, str):
        return
    what = "text (6-6-3, 7-8, full, auto or '1,2,3/4,5,...') or a list of groups of tiles"
    groups = list(_args.items(partition, name, what=what))
    for i, group in enumerate(groups):
        if isinstance(group, (str, bytes)) or not isinstance(group, (list, tuple)):
            raise _args.ArgumentError(f"{name}[{i}] must be a list of tiles, got {_args.show(group)}")
        for label in group:
            if not isinstance(label, str) and not _args.is_integer(label):
                raise _args.ArgumentError(f"{name}[{i}] names {_args.show(label)}, which is not a"
                                          " tile label (text or a whole number)")


def _puzzle(start, goal, blank_first, size) -> Puzzle:
    if isinstance(start, Puzzle):
        return start
    return Puzzle(start, goal, blank_first=_args.boolean(blank_first, "blank_first"), size=size)


def _plan(puzzle, method, heuristic, weight, partition=None) -> tuple[str, str, float]:
    """The concrete ``(method, heuristic, weight)`` that :func:`solve` uses; checks them, and the
    partition's groups against the puzzle whatever method runs."""
    name = method_name(method)
    if weight is None:
        weight = DEFAULT_WEIGHT if name == "weighted-astar" else 1.0
    weight = _args.number(weight, "weight", minimum=1)
    if heuristic is not None:
        heuristic = heuristic_name(heuristic)
    if partition is not None and not (isinstance(partition, str)
                                      and partition.strip().lower() in ("auto", "full")):
        from ..heuristics.pdb import parse_partition

        parse_partition(puzzle, partition)  # "junk", "1,2/3", "7-8" on a 3x3: refused here
    name, heuristic = _resolve(puzzle, name, heuristic, weight)
    return name, heuristic, weight


def prepare(puzzle: Puzzle, *, method: str = "auto", heuristic: Optional[str] = None,
            weight: Optional[float] = None, partition=None,
            table_progress: Optional[Callable[[float, str], None]] = None) -> str:
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
    options = check_options(method=method, heuristic=heuristic, weight=weight,
                            partition=partition, table_progress=table_progress)
    name, heuristic, _ = _plan(puzzle, options["method"], options["heuristic"], options["weight"],
                               partition)
    if name in HEURISTIC_METHODS:
        make_heuristic(puzzle, heuristic, partition=partition, progress=table_progress)
    elif name == "table":
        from ..analysis.table import goal_table

        goal_table(puzzle.goal, table_progress)
    return name


def _resolve(puzzle, name, heuristic, weight):
    """Concrete method and heuristic for ``auto`` and weights."""
    if name == "auto":
        name, auto_heuristic = choose_method(puzzle)
        if heuristic is None:
            heuristic = auto_heuristic
        if weight != 1 and name != "constructive":
            name = "weighted-astar"  # with polishing: closest to optimal of the fast methods
    if heuristic is None:
        heuristic = "manhattan"
    if name == "astar" and weight != 1:
        name = "weighted-astar"
    return name, heuristic


def solve_all(start, goal=None, *, limit: Optional[int] = None, heuristic: Optional[str] = None,
              blank_first: bool = False, size=None, time_limit: Optional[float] = None,
              partition=None, progress=None, table_progress=None) -> list[Solution]:
    """Every distinct optimal solution (at most ``limit``), by IDA*; each is replayed.

    Examples
    --------
    >>> sols = solve_all("ABA_/CDCD/ABAB/CDCD", "ABA_/CABD/ACDB/CDCD")
    >>> len(sols), sols[0].length
    (4, 16)
    """
    limit = _args.integer(limit, "limit", minimum=1, optional=True)
    options = check_options(heuristic=heuristic, time_limit=time_limit, partition=partition,
                            progress=progress, table_progress=table_progress)
    heuristic, time_limit = options["heuristic"], options["time_limit"]
    puzzle = _puzzle(start, goal, blank_first, size)
    if partition is not None:
        _plan(puzzle, "idastar", heuristic, 1.0, partition)
    verdict = check(puzzle)
    if not verdict.solvable:
        raise UnsolvableError(verdict.reason)
    if heuristic is None:
        heuristic = "pdb" if puzzle.width * puzzle.height <= AUTO_OPTIMAL_CELLS and not puzzle.has_repeats \
            else "manhattan"
    limits = Limits(time_limit, None, None, progress)
    heur = _search_heuristic(puzzle, heuristic, partition, limits, table_progress)
    solutions = idastar_all(puzzle, limits, heur, limit)
    for s in solutions:
        s.verify()
    return solutions
