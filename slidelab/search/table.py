"""The ``table`` method: read an optimal solution off the goal's distance table.

No search: the table (:class:`slidelab.analysis.DistanceTable`, every position's
exact distance, built once by a full breadth-first search and cached) gives,
from the start, a neighbour one move closer at each step.  :func:`slidelab.solve`
builds or loads the table before its clock starts and passes it in.
"""

from __future__ import annotations

from ..errors import SlidelabError
from ..puzzle import Puzzle
from ..solution import Solution
from ..tables.distance import DistanceTable, goal_table
from ._common import search_entry
from .limits import Limits


@search_entry("table")
def solve_by_table(
    puzzle: Puzzle,
    *,
    table: DistanceTable | None = None,
    limits: Limits | None = None,
    metric: str = "stm",
) -> Solution:
    """An optimal solution of ``puzzle`` in ``metric`` from the distance table of its goal.

    ``table`` defaults to the goal's table in that metric, built and cached first if
    needed (:func:`slidelab.tables.distance.goal_table`); the limits do not apply (a
    look-up per move).

    Examples
    --------
    >>> solve_by_table(Puzzle("2 1/3 0", "1 2/3 0")).length
    Traceback (most recent call last):
    ...
    slidelab.errors.UnsolvableError: 2 1/3 0 cannot reach the goal 1 2/3 0
    >>> solve_by_table(Puzzle("1 2 3/0 4 5")).notation
    'L2'
    >>> solve_by_table(Puzzle("1 2 3/0 4 5"), metric="mtm").length
    1
    """
    if table is None:
        table = goal_table(puzzle.goal, metric=metric)
    elif table.metric != metric:
        raise SlidelabError(f"the table counts {table.metric.upper()} moves, not {metric.upper()}")
    return table.solve(puzzle.start)
