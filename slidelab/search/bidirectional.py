"""Bidirectional breadth-first search: one search from each end, meeting in the middle.

Both sides share one ``via`` table (see :mod:`slidelab.search.bfs`); each step
expands a whole layer of the side whose frontier is smaller.  The first
successor already visited by the other side closes a shortest path: before
that layer, every state within ``d_start`` of the start and ``d_goal`` of the
goal was known and none was on both sides, so no path is shorter than
``d_start + 1 + d_goal``.  Searching from both ends stores roughly the square
root of what a one-sided search stores.
"""

from __future__ import annotations

from ..puzzle import Puzzle
from ..solution import Solution
from ._common import search_entry
from .bfs import layered
from .limits import Limits


@search_entry("bidirectional")
def bidirectional_bfs(
    puzzle: Puzzle, *, limits: Limits | None = None, metric: str = "stm"
) -> Solution:
    """Shortest solution by breadth-first search from both ends; proven optimal in ``metric``
    (``stm`` or ``mtm``).

    Examples
    --------
    >>> from slidelab import Puzzle
    >>> bidirectional_bfs(Puzzle("1 2 3/4 5 6/0 7 8")).length
    2
    """
    return layered(puzzle, limits, metric, "bidirectional", both_ends=True)
