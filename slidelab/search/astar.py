"""Best-first search: A*, weighted A*, uniform cost, and the general loop on any ``f(g, h)``.

Following Norvig's presentation, every best-first search is the same loop
with a different priority: ``f = g + h`` is A* (optimal with an admissible
``h``), ``f = g + w * h`` weighted A* (at most ``w`` times optimal), ``f = g``
uniform-cost search.  Ties on ``f`` go to the deeper node.

:func:`astar` and :func:`weighted_astar` run the compiled kernel of
:mod:`slidelab.search._bestfirst` (``f = g + w * h``, any board, any heuristic,
re-opening closed nodes reached by a shorter path) in slices, checking the
limits between slices.  :func:`best_first_search` is the same search as a
plain Python loop that takes ``f`` as a function (states are byte strings of
label codes, ``h`` updated per move from a per-tile table or evaluated per
state); it is kept for priorities the kernel does not offer.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

import numpy as np

from .. import _args
from ..errors import SearchLimitError, SlidelabError
from ..heuristics import Heuristic, table_sum
from ..moves import reach
from ..puzzle import Puzzle
from ..solution import Solution, Stats, make_solution
from ..units import format_bytes
from ._bestfirst_run import Packing, run_kernel
from ._common import search_entry
from ._polish import polish_path
from .limits import Limits
from .options import read_weight

#: bytes per stored state, measured roughly (key, dict slots, heap entry)
BYTES_PER_STATE = 400
CHECK_EVERY = 4096


@search_entry("best-first")
def best_first_search(
    puzzle: Puzzle,
    f: Callable[[int, int], float],
    *,
    heuristic="manhattan",
    limits: Limits | None = None,
    method: str = "best-first",
    optimal: bool = False,
) -> Solution:
    """Expand nodes in order of ``f(g, h)`` until the goal is taken off the open list."""
    if not callable(f):
        raise _args.ArgumentError(f"f must be a function of (g, h), got {_args.show(f)}")
    method = _args.text(method, "method")
    optimal = _args.boolean(optimal, "optimal")
    heur = heuristic  # a Heuristic: search_entry resolved a name
    if heur.table is not None and heur.divisor == 1:  # a sum of one entry per tile
        tab = heur.table
        table = tab.tolist()
        evaluate = None
        h0 = table_sum(tab, puzzle.start_codes)
    else:  # estimates that are not per-tile tables: evaluated per state
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
                    f" {format_bytes(stats.stored * BYTES_PER_STATE)}, over the memory limit",
                    stats,
                )
    raise AssertionError("best-first search ran out of states without reaching the goal")


def _check_polish_options(options) -> None:
    """``polish_options``: None or a dict of whole numbers >= 1 named as :func:`polish_path`'s
    ``budget`` and :class:`Polisher`'s settings (``window``, ``window_nodes``, ``max_passes``)."""
    import inspect

    from ._polish import Polisher

    _args.instance(options, "polish_options", dict, optional=True)
    known = ["budget"] + [
        name
        for name in inspect.signature(Polisher.__init__).parameters
        if name not in ("self", "puzzle", "search")
    ]
    for key, value in (options or {}).items():
        if key not in known:
            raise SlidelabError(
                f"polish_options has an unknown key {_args.show(key)};"
                f" choose from {', '.join(known)}"
            )
        _args.integer(value, f"polish_options[{key!r}]", positive=True)


def _kernel_search(
    puzzle: Puzzle,
    limits: Limits,
    heur: Heuristic,
    weight: float,
    method: str,
    polish: bool = False,
    polish_options: dict | None = None,
    metric: str = "stm",
) -> Solution:
    """Best-first search on ``f = g + weight * h`` by the compiled kernel, in ``metric``.

    The solution is optimal with ``weight`` 1 and a heuristic admissible in the
    metric, and at most ``weight`` times optimal with one otherwise.  Polishing
    re-solves windows in single-tile moves, so it is done in STM only.
    """
    weight = read_weight(weight)
    polish = _args.boolean(polish, "polish")
    _check_polish_options(polish_options)
    stats = Stats()
    path = run_kernel(
        puzzle.start_codes,
        puzzle.goal_codes,
        puzzle.neighbours,
        Packing(puzzle),
        heur,
        weight,
        limits,
        method,
        stats,
        warm=True,
        reach=reach(metric, puzzle.width, puzzle.height),
        contours=weight == 1,  # (a weighted search does not go by contours)
        name=lambda codes: puzzle.decode(codes).format(),
    )
    if polish and weight != 1 and metric == "stm":
        path = polish_path(puzzle, path, heur, limits, method, stats, **(polish_options or {}))
    optimal = weight == 1 and heur.admissible_in(metric)
    return make_solution(puzzle, path, optimal, method, stats, metric)


@search_entry("astar")
def astar(
    puzzle: Puzzle,
    *,
    heuristic="manhattan",
    weight: float = 1.0,
    limits: Limits | None = None,
    metric: str = "stm",
) -> Solution:
    """A*: ``f = g + h``; optimal with an admissible heuristic.  ``metric="mtm"`` counts a
    slide of several tiles in a line as one move (a heuristic given by name is made for it).
    With a ``weight`` above 1 it is :func:`weighted_astar` (the ``weight`` option its
    registry entry declares).

    Examples
    --------
    >>> from slidelab import Puzzle
    >>> astar(Puzzle("1 2 3/4 5 6/0 7 8")).notation
    'L2'
    >>> astar(Puzzle("1 2 3/4 5 6/0 7 8"), metric="mtm").length
    1
    """
    weight = read_weight(weight)
    if weight != 1:
        return weighted_astar(
            puzzle, heuristic=heuristic, weight=weight, limits=limits, metric=metric
        )
    return _kernel_search(puzzle, limits, heuristic, 1.0, "astar", metric=metric)


@search_entry("weighted-astar")
def weighted_astar(
    puzzle: Puzzle,
    *,
    heuristic="manhattan",
    weight: float = 1.5,
    limits: Limits | None = None,
    polish: bool = True,
    polish_options: dict | None = None,
    metric: str = "stm",
) -> Solution:
    """Weighted A*: ``f = g + weight * h``; length at most ``weight`` times optimal.

    With ``polish`` (the default) windows of the path are then replaced by
    optimal sub-paths where shorter (:mod:`slidelab.search._polish`), which
    keeps the bound (in STM; an MTM path is not polished).

    Examples
    --------
    >>> from slidelab import Puzzle
    >>> weighted_astar(Puzzle("1 2 3/4 5 6/0 7 8"), weight=2).length
    2
    """
    return _kernel_search(
        puzzle, limits, heuristic, weight, "weighted-astar", polish, polish_options, metric
    )
