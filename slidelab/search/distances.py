"""Exact distances to a goal, and the moves that keep the optimum: what a hint and a review
of a solve read positions by (:mod:`.hint`, :mod:`.review`).

Where the goal's distance table is at hand (cached, or quick to make: the 8-puzzle's) a
distance is read from it; elsewhere it is the length of an optimal solution found by a search
within the request's time limit, each position searched once.
"""

from __future__ import annotations

from ..board import Board
from ..errors import SearchLimitError, SlidelabError
from ..moves import Move, legal_moves
from ..puzzle import Puzzle
from .request import Request


class NotProven(SlidelabError):
    """No optimum proven for a position within the time limit: its distance is not known.
    ``upper``: the length of the solution found instead (an upper bound), or None."""

    def __init__(self, message: str, upper: int | None = None):
        super().__init__(message)
        self.upper = upper


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
    position: from the goal's distance table where it answers now; else the first position by
    an optimal search, and a neighbour of a position known by one bounded search (a move
    changes the distance by one at most: the neighbour is one nearer exactly when the goal is
    within that many moves of it), all remembered."""

    def __init__(self, request: Request):
        self.request = request
        self.puzzle, self.metric = request.puzzle, request.options.metric
        self.table = table_at_hand(self.puzzle, self.metric)
        self.known: dict[Board, int] = {}
        self.heuristic = None  # the bounded searches', made after the first search

    def of(self, board: Board) -> int:
        """The exact distance of ``board``; :class:`NotProven` where the search cannot prove
        it within its time limit."""
        found = self.known.get(board)
        if found is not None:
            return found
        if self.table is not None:
            found = int(self.table.distance(board))
        else:
            from .solve import solve_request

            puzzle = Puzzle(board, self.puzzle.goal)
            try:
                solution = solve_request(Request(puzzle, self.request.options))
            except SearchLimitError as exc:  # not even a bounded answer in time
                raise NotProven(
                    f"{exc.reason}: the distance of {board.format()} is not known"
                ) from None
            if not solution.optimal:
                raise NotProven(
                    f"no proven optimum for the position {board.format()} within the time"
                    " limit: its distance is not known",
                    solution.length,
                )
            found = solution.length
        self.known[board] = found
        return found

    def good(self, board: Board, distance: int, limits=None) -> tuple[Move, ...]:
        """The moves from ``board`` (``distance`` from the goal) that keep the optimum
        (``limits``: each bounded search's, :meth:`beside`)."""
        if distance == 0:
            return ()
        blank = board.cells.index(0)
        return tuple(
            m
            for m in legal_moves(board.width, board.height, blank, self.metric)
            if self.beside(board.apply([m]), distance, limits) == distance - 1
        )

    def beside(self, board: Board, distance: int, limits=None) -> int:
        """The exact distance of ``board``, a neighbour of a position ``distance`` away:
        ``distance - 1`` where the goal is within that many moves of it; else in single-tile
        moves ``distance + 1`` (a move changes the distance's parity), in the multi-tile metric
        ``distance`` or ``distance + 1``, by a second bounded search.  ``limits`` (a
        :class:`~.limits.Limits`) bound each search: past them it raises
        :class:`~slidelab.errors.SearchLimitError` and nothing is remembered."""
        found = self.known.get(board)
        if found is not None:
            return found
        if self.table is not None:
            return self.of(board)
        from .idastar import within

        puzzle = Puzzle(board, self.puzzle.goal)
        heuristic = self._heuristic()
        if within(puzzle, heuristic, distance - 1, self.metric, limits):
            found = distance - 1
        elif self.metric == "stm" or not within(puzzle, heuristic, distance, self.metric, limits):
            found = distance + 1
        else:
            found = distance
        self.known[board] = found
        return found

    def estimate(self, board: Board) -> int:
        """A lower bound of the distance of ``board``: the exact one where known, else the
        ready heuristic's estimate (:func:`ready_estimate`)."""
        found = self.known.get(board)
        if found is not None:
            return found
        if self.table is not None:
            return self.of(board)
        return int(self._heuristic().value(self.puzzle.encode(board)))

    def _heuristic(self):
        """:func:`ready_estimate`, made once."""
        if self.heuristic is None:
            self.heuristic = ready_estimate(self.request)
        return self.heuristic


def ready_estimate(request: Request):
    """The strongest admissible heuristic ready for the request's goal and metric (its tables
    cached: a search of the start makes them ready), building nothing."""
    from ..heuristics import make_heuristic
    from .policy import ready_heuristic

    puzzle, metric = request.puzzle, request.options.metric
    name, options = ready_heuristic(puzzle, request.options.replace(heuristic=None, partition=None))
    return make_heuristic(puzzle, name, metric=metric, **options)
