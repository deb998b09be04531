"""Positions at an exact optimal distance from the goal (``slidelab generate --distance D``).

Two ways, chosen by the size of the space:

- **by the layers** (spaces of at most :data:`LAYERED_STATES` positions: the 8-puzzle, 2x4,
  2x5, 3x4, lettered boards such as the line puzzle): a complete breadth-first search
  from the goal (:func:`slidelab.tables.layers.search_layers`, a byte per position) gives
  every position's distance; the boards are drawn **uniformly at random** among those at
  distance ``D``, distinct (a sample without replacement): asking for more than there are is
  an error that says how many there are.
- **by search** (larger spaces, such as the 15-puzzle): a random walk from the goal whose
  length has ``D``'s parity, then an optimal solve (``auto``); a board is kept when its
  optimal length is ``D``, else another walk is tried, longer when the walks fall short.
  This is not uniform (walks favour boards near their end), the boards are distinct, and it
  stops with
  :class:`~slidelab.errors.SearchLimitError` past ``time_limit`` seconds
  (:data:`slidelab.generate.DISTANCE_TIME_LIMIT` by default).

Either way each board's distance is proven: by the table, or by the optimal solve.

Examples
--------
>>> sorted(b.format() for b in positions_at_distance(31, 2, "3x3", seed=1))  # the two hardest
['6 4 7/8 5 0/3 2 1', '8 6 7/2 5 4/3 0 1']
>>> positions_at_distance(24, 1, "3x3", metric="mtm")  # the one hardest in MTM
[Board('1 4 7/2 0 8/3 6 5')]
>>> positions_at_distance(32, 1, "3x3")
Traceback (most recent call last):
...
slidelab.errors.SlidelabError: no 3x3 position is 32 moves from its goal: the 8-puzzle's diameter is 31
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import _args
from .._clock import Clock
from ..board import Board
from ..errors import SearchLimitError, SlidelabError
from ..generate import DISTANCE_TIME_LIMIT, board_count, make_rng, random_walk
from ..moves import metric_name
from ..puzzle import goal_board
from ..units import counted

#: the known diameters: (width, height, metric) -> (name, the most moves any position is from a
#: goal with distinct tiles and the blank in a corner); the 15-puzzle's 80 (Brüngger et al. 1999)
#: and 43 (Rokicki 2022) are beyond a search here
KNOWN_DIAMETERS = {
    (3, 3, "stm"): ("8-puzzle", 31),
    (3, 3, "mtm"): ("8-puzzle", 24),
    (4, 4, "stm"): ("15-puzzle", 80),
    (4, 4, "mtm"): ("15-puzzle", 43),
}

#: spaces up to this many positions are searched whole and sampled uniformly (a byte and two
#: bits per position: 3x4's 239,500,800 take about 11 s and 620 MB on 2 cores, the line
#: puzzle's 252,252,000 about 19 s)
LAYERED_STATES = 300_000_000


def positions_at_distance(
    distance: int,
    n: int = 1,
    size=None,
    goal=None,
    *,
    blank_first: bool = False,
    seed=None,
    time_limit: float | None = DISTANCE_TIME_LIMIT,
    progress: Callable[[dict], None] | None = None,
    metric: str = "stm",
) -> list[Board]:
    """``n`` boards whose optimal distance (in ``metric``) to the goal is ``distance``.

    Parameters
    ----------
    distance : int
        The exact optimal distance.  More than the space's diameter (where the space is
        searched whole) is an error that names the diameter.
    n : int
        How many boards.
    size, goal, blank_first :
        The goal, as for :func:`slidelab.random_board` (a size ``WxH``, a goal board).
    seed :
        Random seed (repeatable output).
    time_limit : float, optional
        Seconds the search way may take for all ``n`` boards (None: no limit).
    progress : callable, optional
        Called after each layer of a whole-space search, as by :func:`slidelab.analyze`.
    metric : {"stm", "mtm"}
        Distances in single-tile moves, or in multi-tile moves (a slide of several
        tiles in a line is one move).

    Returns
    -------
    list of Board
        Uniformly random among the positions at ``distance`` when the space is searched
        whole (:data:`LAYERED_STATES`); by random walks and optimal solves otherwise.
    """
    from ..tables.index import Space

    distance = _args.integer(distance, "distance", minimum=0)
    n = board_count(n)
    time_limit = _args.number(time_limit, "time_limit", positive=True, optional=True)
    _args.callback(progress, "progress")
    metric = metric_name(metric)
    target = goal_board(goal, size=size, blank_first=blank_first)
    rng = make_rng(seed)
    _check_known_diameter(target, distance, metric)
    space = Space(target, metric)
    if space.states <= LAYERED_STATES:
        return _by_layers(space, distance, n, rng, progress)
    return _by_search(target, distance, n, rng, time_limit, metric)


def known_diameter(goal: Board, metric: str = "stm") -> tuple[str, int] | None:
    """The puzzle's name and known diameter (:data:`KNOWN_DIAMETERS`) where they hold for
    ``goal`` (distinct tiles, the blank in a corner), else None.

    >>> known_diameter(Board.solved(4, 4)), known_diameter(Board("1 2 3/4 0 5/6 7 8"))
    (('15-puzzle', 80), None)
    """
    known = KNOWN_DIAMETERS.get((goal.width, goal.height, metric))
    row, column = divmod(goal.blank, goal.width)
    in_corner = row in (0, goal.height - 1) and column in (0, goal.width - 1)
    return known if known and in_corner and not goal.has_repeats else None


def _unit(metric: str) -> str:
    return "move" if metric == "stm" else "MTM move"


def _check_known_diameter(goal: Board, distance: int, metric: str) -> None:
    known = known_diameter(goal, metric)
    if known is not None and distance > known[1]:
        name, diameter = known
        raise SlidelabError(
            f"no {goal.size} position is {counted(distance, _unit(metric))} from its goal:"
            f" the {name}'s diameter is {diameter}"
        )


def _by_layers(space, distance: int, n: int, rng, progress) -> list[Board]:
    from ..tables.budget import check_budget
    from ..tables.layers import search_layers

    check_budget(space, table=True)
    layers = search_layers(space, progress, record=True, limit=0)
    diameter = len(layers.counts) - 1
    unit = _unit(space.metric)
    if distance > diameter:
        raise SlidelabError(
            f"no position is {counted(distance, unit)} from the goal {space.goal.format()}:"
            f" its farthest positions are {counted(diameter, unit)} away"
        )
    assert layers.depth is not None
    at = np.flatnonzero(layers.depth == distance)
    assert at.size == layers.counts[distance]
    if n > at.size:
        raise SlidelabError(
            f"asked for {counted(n, 'board')}, but only {at.size:,} of the {space.goal.size}"
            f" positions {'is' if at.size == 1 else 'are'} {counted(distance, unit)} from the"
            f" goal {space.goal.format()}"
        )
    return [space.board(int(at[i])) for i in rng.sample(range(at.size), n)]


def _by_search(
    goal: Board, distance: int, n: int, rng, time_limit: float | None, metric: str = "stm"
) -> list[Board]:
    from .solve import solve

    clock = Clock(time_limit)  # the whole answer's: every solve below reads what is left
    found: list[Board] = []
    # a walk's end is at most its length away (in STM with the same parity: steps of two)
    walk = distance
    step = 2 if metric == "stm" else 1
    tries = 0
    seen: set[Board] = set()
    repeats = 0
    while len(found) < n:
        left = clock.left()
        if left is not None and left <= 0:
            again = (
                f", {counted(repeats, 'walk')} ended on a board found before: there may be no more"
                if repeats
                else ""
            )
            raise SearchLimitError(
                f"found {len(found)} of {n} positions at distance {distance} in"
                f" {time_limit:g} s ({tries} walks solved{again}); give a longer --time-limit"
            )
        board = random_walk(goal, walk, rng)
        try:
            solution = solve(board, goal, time_limit=left, metric=metric)
        except SearchLimitError:
            continue  # the loop's own check reports the time limit
        if not solution.optimal:
            continue  # auto's bounded answer on a large board: no proven distance
        length = solution.length
        tries += 1
        if length == distance:
            if board in seen:  # distinct boards: a walk may end on one found before
                repeats += 1
            else:
                seen.add(board)
                found.append(board)
        elif length < distance:
            walk += step  # walks fall short: longer ones end farther out
        elif walk > distance:
            walk -= step
    return found
