"""Exact distances to a goal, and the moves that keep the optimum: what a hint and a review
of a solve read positions by (:mod:`.hint`, :mod:`.review`).

Where the goal's distance table is at hand (cached, or quick to make: the 8-puzzle's) a
distance is read from it; elsewhere it is the length of an optimal solution found by a search
within the request's time limit, each position searched once.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from ..board import Board
from ..errors import SearchLimitError, SlidelabError
from ..memory import cores_for_this_thread
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
        self.floor: dict[Board, int] = {}  # positions known to be at least this far
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
        return self.good_of([(board, distance)], limits)[0]

    def good_of(self, positions: list, limits=None) -> list[tuple[Move, ...]]:
        """:meth:`good` of each ``(board, distance)`` of ``positions``: their neighbours'
        bounded searches side by side on this thread's cores (the kernels release the GIL),
        all of them in one pool so that the long ones do not leave a core idle."""
        asks, owners = [], []
        for k, (board, distance) in enumerate(positions):
            if distance == 0:
                continue
            blank = board.cells.index(0)
            for m in legal_moves(board.width, board.height, blank, self.metric):
                asks.append((board.apply([m]), distance))
                owners.append((k, m))
        threads = min(len(asks), cores_for_this_thread())
        if self.table is None and threads > 1:
            self._heuristic()  # (made once, before the threads share it)
            with ThreadPoolExecutor(threads) as pool:
                answers = list(pool.map(lambda ask: self._nearer(*ask, limits), asks))
        else:
            answers = [self._nearer(*ask, limits) for ask in asks]
        good: list[list[Move]] = [[] for _ in positions]
        for (k, m), yes in zip(owners, answers, strict=True):
            if yes:
                good[k].append(m)
        return [tuple(g) for g in good]

    def _nearer(self, board: Board, distance: int, limits) -> bool:
        """Whether ``board``, a neighbour of a position ``distance`` away, is one move nearer
        the goal: one bounded search (whether it is as far or farther is not asked: in the
        multi-tile metric that would be a second, longer one)."""
        found = self.known.get(board)
        if found is not None:
            return found == distance - 1
        if self.floor.get(board, 0) >= distance:
            return False
        if self.table is not None or self.metric == "stm":  # (in STM the parity tells the rest)
            return self.beside(board, distance, limits) == distance - 1
        from .idastar import within

        puzzle = Puzzle(board, self.puzzle.goal)
        if within(puzzle, self._heuristic(), distance - 1, self.metric, limits):
            self.known[board] = distance - 1
            return True
        self.floor[board] = distance
        return False

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
        if self.table is not None:  # one read (of two bits, in MTM)
            found = int(self.table.beside(board, distance))
            self.known[board] = found
            return found
        from .idastar import within

        puzzle = Puzzle(board, self.puzzle.goal)
        heuristic = self._heuristic()
        if self.floor.get(board, 0) < distance and within(
            puzzle, heuristic, distance - 1, self.metric, limits
        ):
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
        estimate = int(self._heuristic().value(self.puzzle.encode(board)))
        return max(estimate, self.floor.get(board, 0))

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
