"""Exact distances to a goal, and the moves that keep the optimum: what a hint and a review
of a solve read positions by (:mod:`.hint`, :mod:`.review`).

Where the goal's distance table is at hand (cached, or quick to make: the 8-puzzle's) a
distance is read from it; elsewhere it is the length of an optimal solution found by a search
within the request's time limit, each position searched once.
"""

from __future__ import annotations

from ..board import Board
from ..errors import SlidelabError
from ..moves import Move, legal_moves
from ..puzzle import Puzzle
from .request import Request


def table_at_hand(puzzle: Puzzle, metric: str):
    """The goal's distance table where it answers now (cached, or quick to make:
    :func:`~.policy.distance_table_now`), else None."""
    from ..tables.distance import DistanceTable
    from ..tables.index import Space
    from .policy import distance_table_now

    if not distance_table_now(puzzle, metric):
        return None
    return DistanceTable.of(Space(puzzle.goal, metric))


class Distances:
    """Exact distances to the goal of ``puzzle`` in ``metric``, and the good moves of a
    position: from the goal's distance table where it answers now, else by an optimal
    search of each position (within the request's time limit each), remembered."""

    def __init__(self, request: Request):
        self.request = request
        self.puzzle, self.metric = request.puzzle, request.options.metric
        self.table = table_at_hand(self.puzzle, self.metric)
        self.known: dict[Board, int] = {}

    def of(self, board: Board) -> int:
        """The exact distance of ``board``; :class:`~slidelab.errors.SlidelabError` where the
        search cannot prove it within its time limit."""
        found = self.known.get(board)
        if found is not None:
            return found
        if self.table is not None:
            found = int(self.table.distance(board))
        else:
            from .solve import solve_request

            puzzle = Puzzle(board, self.puzzle.goal)
            solution = solve_request(Request(puzzle, self.request.options))
            if not solution.optimal:
                raise SlidelabError(
                    f"no proven optimum for the position {board.format()} within the time"
                    " limit: its distance is not known, so the solve cannot be reviewed here"
                )
            found = solution.length
        self.known[board] = found
        return found

    def good(self, board: Board, distance: int) -> tuple[Move, ...]:
        """The moves from ``board`` (``distance`` from the goal) that keep the optimum."""
        if distance == 0:
            return ()
        blank = board.cells.index(0)
        return tuple(
            m
            for m in legal_moves(board.width, board.height, blank, self.metric)
            if self.of(board.apply([m])) == distance - 1
        )
