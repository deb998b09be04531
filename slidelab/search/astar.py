"""Best-first search as one function of ``f(g, h)``: A*, weighted A*, greedy, uniform cost.

Following Norvig's presentation, every best-first search is the same loop
with a different priority: ``f = g + h`` is A* (optimal with an admissible
``h``), ``f = g + w * h`` weighted A* (at most ``w`` times optimal), ``f = g``
uniform-cost search.  Ties on ``f`` go to the deeper node.

States are byte strings of label codes; ``h`` is updated per move from the
heuristic table (:mod:`slidelab.heuristics`) rather than recomputed.
"""

from __future__ import annotations

import heapq
from typing import Callable

from ..errors import SearchLimitError, SlidelabError
import numpy as np

from ..heuristics import Heuristic, heuristic_name, heuristic_table, make_heuristic, table_sum
from ..puzzle import Puzzle
from ..solution import Solution, Stats
from ._common import Limits, make_solution

#: bytes per stored state, measured roughly (key, dict slots, heap entry)
BYTES_PER_STATE = 400
CHECK_EVERY = 4096


def best_first_search(puzzle: Puzzle, f: Callable[[int, int], float], limits: Limits, *,
                      heuristic="manhattan", method: str = "best-first",
                      optimal: bool = False) -> Solution:
    """Expand nodes in order of ``f(g, h)`` until the goal is taken off the open list."""
    heur = heuristic if isinstance(heuristic, Heuristic) else None
    name = heur.name if heur is not None else heuristic_name(heuristic)
    if name in ("manhattan", "zero"):
        tab = heuristic_table(puzzle, name)
        table = tab.tolist()
        evaluate = None
        h0 = table_sum(tab, puzzle.start_codes)
    else:  # estimates that are not per-tile tables: evaluated per state
        heur = heur or make_heuristic(puzzle, name)
        evaluate = heur.value
        h0 = evaluate(puzzle.start_codes)
    nbr = puzzle.neighbours.tolist()
    if len(puzzle.labels) >= 255:
        raise SlidelabError(f"{method} handles boards with at most 254 distinct labels")
    start = puzzle.start_codes.astype("uint8").tobytes()
    goal = puzzle.goal_codes.astype("uint8").tobytes()
    memory_cap = limits.bytes_allowed // BYTES_PER_STATE

    stats = Stats()
    parent: dict[bytes, tuple] = {start: (None, -1)}
    best_g: dict[bytes, int] = {start: 0}
    closed: set[bytes] = set()
    counter = 0
    frontier = [(f(0, h0), 0, counter, start, start.index(0), h0)]
    while frontier:
        _, neg_g, _, state, blank, h = heapq.heappop(frontier)
        if state in closed:
            continue
        if h == 0 and state == goal:
            path = []
            while parent[state][0] is not None:
                state, d = parent[state]
                path.append(d)
            stats.stored = len(best_g)
            stats.peak_frontier = max(stats.peak_frontier, len(frontier) + 1)
            stats.seconds = limits.elapsed()
            return make_solution(puzzle, path[::-1], optimal, method, stats)
        closed.add(state)
        stats.expanded += 1
        g = 1 - neg_g
        cells = bytearray(state)
        for d, nb in enumerate(nbr[blank]):
            if nb < 0:
                continue
            tile = cells[nb]
            cells[blank], cells[nb] = tile, 0
            child = bytes(cells)
            cells[nb], cells[blank] = tile, 0
            stats.generated += 1
            if child in closed or best_g.get(child, g + 1) <= g:
                continue
            best_g[child] = g
            parent[child] = (state, d)
            if evaluate is None:
                ch = h + table[tile][blank] - table[tile][nb]
            else:
                ch = evaluate(np.frombuffer(child, dtype=np.uint8))
            counter += 1
            heapq.heappush(frontier, (f(g, ch), -g, counter, child, nb, ch))
        if stats.expanded % CHECK_EVERY == 0:
            stats.stored = len(best_g)
            stats.peak_frontier = max(stats.peak_frontier, len(frontier))
            limits.check(stats, method, open=len(frontier))
            if stats.stored > memory_cap:
                raise SearchLimitError(
                    f"limit reached: {method} stored {stats.stored:,} states, about"
                    f" {stats.stored * BYTES_PER_STATE:,} bytes, over the memory limit", stats)
    raise AssertionError("best-first search ran out of states without reaching the goal")


def astar(puzzle: Puzzle, limits: Limits, heuristic="manhattan") -> Solution:
    """A*: ``f = g + h``; optimal with an admissible heuristic.

    Examples
    --------
    >>> from slidelab import Puzzle
    >>> astar(Puzzle("1 2 3/4 5 6/0 7 8"), Limits()).notation
    'L2'
    """
    admissible = heuristic.admissible if isinstance(heuristic, Heuristic) else True
    return best_first_search(puzzle, lambda g, h: g + h, limits, heuristic=heuristic,
                             method="astar", optimal=admissible)


def weighted_astar(puzzle: Puzzle, limits: Limits, weight: float = 1.5,
                   heuristic="manhattan") -> Solution:
    """Weighted A*: ``f = g + weight * h``; length at most ``weight`` times optimal."""
    if not weight >= 1:
        raise SlidelabError(f"weight must be at least 1, got {weight}")
    return best_first_search(puzzle, lambda g, h: g + weight * h, limits, heuristic=heuristic,
                             method="weighted-astar", optimal=weight == 1)
