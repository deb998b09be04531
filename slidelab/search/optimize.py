"""Shorten a solution: its stretches replaced by optimal ones.

A player's solve (or any solution) is replayed from its start, must reach the goal, and is
polished as weighted A*'s answers are (:mod:`._polish`): *windows* of the path (the moves
between two of its positions, up to ``window`` moves long) are replaced by optimal paths
between the same two positions where those are shorter, pass after pass until none is.
The answer keeps the solve's shape where it was already good, and says what it saved.  With
``window`` at least the solve's length, the whole is one window: an optimal solution.

In single-tile moves, on boards of distinct tiles (windows are searched by renaming tiles).

Examples
--------
>>> s = optimize("1 2 3/4 5 6/0 7 8", "L R L L")
>>> s.length, s.notation
(2, 'L2')
"""

from __future__ import annotations

from .. import _args
from ..errors import SlidelabError
from ..moves import expand, parse_moves
from ..solution import Solution, Stats
from .request import Request, read_request


def optimize(
    start,
    moves,
    goal=None,
    *,
    window: int | None = None,
    time_limit: float | None = None,
    blank_first: bool = False,
    size=None,
) -> Solution:
    """``moves`` from ``start`` with stretches of at most ``window`` moves (default: the
    polisher's, :data:`slidelab.search._polish.WINDOW`) replaced by optimal ones: a solution
    never longer, labelled optimal only where it is proven so (see the module).

    Raises :class:`~slidelab.errors.SlidelabError` where the moves do not reach the goal or
    the board has repeated tiles, :class:`~slidelab.errors.IllegalMoveError` naming an
    illegal move.
    """
    request = read_request(start, goal, blank_first=blank_first, size=size, time_limit=time_limit)
    return optimize_request(request, moves, window)


def optimize_request(request: Request, moves, window: int | None = None) -> Solution:
    """:func:`optimize` of a request read and checked already."""
    from ..geometry import TILE_TO_BLANK
    from ..heuristics import make_heuristic
    from ._polish import Polisher, polish_path
    from .plan import limits_of
    from .policy import ready_heuristic

    _args.instance(request, "request", Request)
    window = _args.integer(window, "window", minimum=2, optional=True)
    puzzle, options = request.puzzle, request.options
    if options.metric != "stm":
        raise SlidelabError("optimize shortens solutions in single-tile moves (metric stm)")
    if not Polisher.applies(puzzle):
        raise SlidelabError("optimize needs a board of distinct tiles (windows rename tiles)")
    given = expand(parse_moves(moves))
    if puzzle.start.apply(given) != puzzle.goal:
        raise SlidelabError("the moves do not reach the goal: only a solution can be shortened")
    name, more = ready_heuristic(puzzle, options)
    heur = make_heuristic(puzzle, name, metric="stm", **more)
    limits = limits_of(options, None, _clock(options))
    stats = Stats()
    dirs = [TILE_TO_BLANK[m.direction] for m in given]
    polish = {} if window is None else {"window": window}
    shorter = polish_path(puzzle, dirs, heur, limits, "optimize", stats, **polish)
    from ..solution import make_solution

    optimal = len(shorter) == 0 or _proven(puzzle, heur, len(shorter))
    return make_solution(puzzle, shorter, optimal, "optimize", stats)


def _clock(options):
    from .._clock import Clock

    return Clock(options.time_limit)


def _proven(puzzle, heur, length: int) -> bool:
    """Whether no solution is shorter than ``length`` (one bounded search, by parity two
    shorter: single-tile solutions of a position all have one parity)."""
    from .idastar import within

    return not within(puzzle, heur, length - 2)
