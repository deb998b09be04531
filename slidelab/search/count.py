"""How many solutions a position has: at the optimum, and a few moves past it, without listing
them.

Players ask for the spread of solutions ("how many at optimal, optimal+2, optimal+4"); listing
them (:func:`slidelab.solve_all`) stops being possible long before counting does.  A solution
of length ``L`` is a sequence of ``L`` moves from the start that ends at the goal, reaching it
only at its end (detours and moves taken back included: they are what players make).  The
count is made by paths through the positions, not by enumerating them: the number of
solutions of ``r`` moves from a position is the sum over its neighbours of theirs of ``r - 1``
moves, a neighbour counted only where the goal may be within ``r - 1`` moves of it, each
position and ``r`` counted once.  Where the goal's distance table is at hand (the 8-puzzle,
the 2x4, boards of repeated tiles of that size) that test is exact; elsewhere the optimum comes
from an optimal search and the test from the strongest admissible heuristic ready (an
estimate never above the distance, so no solution is missed: IDA*'s last iteration, each
position met again counted from memory).

Examples
--------
>>> count_solutions("8 6 7/2 5 4/3 0 1", beyond=4)
{31: 40, 33: 2435, 35: 82336}
"""

from __future__ import annotations

import sys

from .. import _args
from ..board import Board
from ..errors import SearchLimitError
from ..moves import legal_moves
from .distances import table_at_hand
from .request import Request, read_request

#: positions (with the moves left at each) a count may look at, at most
MAX_COUNTED = 5_000_000


def count_solutions(
    start,
    goal=None,
    *,
    metric: str = "stm",
    beyond: int = 0,
    blank_first: bool = False,
    size=None,
) -> dict[int, int]:
    """The number of solutions of each length from the optimum to ``beyond`` moves past it
    (in steps of 2 in single-tile moves, where lengths keep their parity; of 1 in the
    multi-tile metric): ``{length: count}`` (see the module).

    Raises :class:`~slidelab.errors.SearchLimitError` where no optimum is proven within the
    time limit (boards without a distance table at hand), or where the count would look at
    more than :data:`MAX_COUNTED` positions.
    """
    beyond = _args.integer(beyond, "beyond", minimum=0)
    request = read_request(start, goal, blank_first=blank_first, size=size, metric=metric)
    return count_request(request, beyond)


def count_request(request: Request, beyond: int = 0) -> dict[int, int]:
    """:func:`count_solutions` of a request read and checked already."""
    _args.instance(request, "request", Request)
    puzzle, metric = request.puzzle, request.options.metric
    table = table_at_hand(puzzle, metric)
    if table is not None:
        optimum = int(table.distance(puzzle.start))

        def at_least(board: Board) -> int:
            return int(table.distance(board))
    else:
        optimum, at_least = _searched(request)
    bounds: dict[Board, int] = {}

    def d(board: Board) -> int:
        """The distance to the goal (the table's), or a lower bound of it."""
        found = bounds.get(board)
        if found is None:
            found = bounds[board] = at_least(board)
        return found

    memo: dict[tuple[Board, int], int] = {}
    goal = puzzle.goal

    def ways(board: Board, left: int) -> int:
        """Solutions of exactly ``left`` moves from ``board``, reaching the goal at their end
        only."""
        if board == goal:
            return 1 if left == 0 else 0
        key = (board, left)
        found = memo.get(key)
        if found is not None:
            return found
        if len(memo) >= MAX_COUNTED:
            raise SearchLimitError(
                f"counting looked at {MAX_COUNTED:,} positions, the most it may: ask for fewer"
                " moves beyond the optimum"
            )
        total = 0
        blank = board.cells.index(0)
        for m in legal_moves(board.width, board.height, blank, metric):
            after = board.apply([m])
            if d(after) <= left - 1:
                total += ways(after, left - 1)
        memo[key] = total
        return total

    step = 2 if metric == "stm" else 1
    depth = optimum + beyond + 10
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 4 * depth + 1000))
    try:
        return {
            length: ways(puzzle.start, length)
            for length in range(optimum, optimum + beyond + 1, step)
        }
    finally:
        sys.setrecursionlimit(old)


def _searched(request: Request):
    """The optimum of a board without a distance table at hand, by an optimal search, and a
    lower bound of any position's distance (the strongest admissible heuristic ready)."""
    from .distances import ready_estimate
    from .solve import solve_request

    solution = solve_request(request)
    if not solution.optimal:
        raise SearchLimitError(
            f"no proven optimum within the time limit ({solution.length} moves found): counting"
            " solutions needs it"
        )
    puzzle = request.puzzle
    heuristic = ready_estimate(request)
    return solution.length, lambda board: int(heuristic.value(puzzle.encode(board)))
