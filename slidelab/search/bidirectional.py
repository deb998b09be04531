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
from ..solution import Solution, Stats, make_solution
from ._common import search_entry
from .bfs import ROOT, SIDE_GOAL, SIDE_START, Frontier, Space, expand_layer
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
    method = "bidirectional"
    stats = Stats()
    space = Space(puzzle, limits, method, metric)
    start, goal = space.rank(puzzle.start_codes), space.rank(puzzle.goal_codes)
    if start == goal:
        stats.stored = 1
        return make_solution(puzzle, [], True, method, stats, metric)
    space.via[start] = SIDE_START | ROOT
    space.via[goal] = SIDE_GOAL | ROOT
    fronts = [Frontier(start, SIDE_START), Frontier(goal, SIDE_GOAL)]
    stats.stored = 2
    while len(fronts[0].layer) and len(fronts[1].layer):
        front = min(fronts, key=lambda f: len(f.layer))
        before = stats.expanded
        try:
            meet = expand_layer(space, front, stats, limits, method)
        finally:  # a limit's error carries the counts too
            if front.side == SIDE_START:
                stats.expanded_forward += stats.expanded - before
            else:
                stats.expanded_backward += stats.expanded - before
        stats.peak_frontier = max(stats.peak_frontier, sum(len(f.layer) for f in fronts))
        if meet:
            stats.seconds = limits.elapsed()
            path = space.meeting_path(front.side, *meet)
            return make_solution(puzzle, path, True, method, stats, metric)
    raise AssertionError("bidirectional search exhausted a side without meeting the other")
