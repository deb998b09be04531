"""Review a solve the way a chess engine reviews a game: every move judged.

A solve is replayed from its start (an illegal move is refused with its number), and for
every position on the way the review gives its exact distance to the goal in the metric,
whether the move made there kept the optimum (the distance down by one) or lost moves (how
many), and the moves that would have kept it (the *good moves*).  Its summary reads like
``52 moves, optimal 48: 4 lost, at moves 7 (2) and 31 (2)``.  Moves may carry the seconds
each took (as replay formats do): the review then gives the slowest.

In the multi-tile metric a move is a slide (the solve's runs of one direction: ``R3`` is one
move), in single-tile moves each tile moved.  Distances are read from the goal's distance
table where it answers now (the 8-puzzle, boards with repeated tiles of that size), else
found by an optimal search of each position (remembered: a position's neighbours are
searched once however many times the solve passes them).

Where no optimum of the start can be proven within the time limit (a 24-puzzle, a hard
15-puzzle in MTM on a short limit), the review goes back from the goal instead: a position
next to one whose distance is known is one bounded search, cheap near the goal, and each
position back from the goal is proven so until a search runs past the time limit.  Before
that point the distances are *bounds*, labelled as such: at least the ready heuristic's
estimate, within one move of the neighbours' bounds (a move changes the distance by one at
most), at most the moves the solve still took, and in single-tile moves of the parity the
blank's place fixes.  A move is judged lost only where its bounds prove it.

Examples
--------
>>> r = review("1 2 3/4 5 6/0 7 8", "L R L L")
>>> r.summary
'4 moves, optimal 2: 2 lost, at move 2 (2)'
>>> [(s.move.direction, s.before, s.lost) for s in r.steps]
[('L', 2, 0), ('R', 1, 2), ('L', 2, 0), ('L', 1, 0)]
>>> r.steps[1].good
(Move('L', 1),)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .. import _args
from ..board import Board
from ..errors import SearchLimitError, SlidelabError
from ..moves import Move, expand, parse_moves, runs
from .distances import Distances, NotProven
from .limits import Limits
from .request import Request, read_request


@dataclass(frozen=True)
class Step:
    """One move of a reviewed solve.

    Attributes
    ----------
    number : int
        Its place in the solve, from 1.
    move : Move
        The move made (a slide in MTM, one tile in STM).
    before, after : int or None
        The exact distances of the positions before and after it; None where not proven
        (see :attr:`bounds`).
    good : tuple of Move or None
        The moves that keep the optimum from the position before it (every first move of an
        optimal solution from there); empty at the goal; None where its distance is not
        proven.
    seconds : float or None
        What it took, where the solve's moves carry times.
    bounds : tuple
        ``((low, high), (low, high))``: the proven bounds of the distances before and after it
        (each ``(d, d)`` where exact; ``high`` may be infinite).
    """

    number: int
    move: Move
    before: int | None
    after: int | None
    good: tuple[Move, ...] | None
    seconds: float | None = None
    bounds: tuple = ((0, math.inf), (0, math.inf))

    @property
    def exact(self) -> bool:
        """Both its distances are proven."""
        return self.before is not None and self.after is not None

    @property
    def lost(self) -> int | None:
        """Moves it lost: 0 when it kept the optimum (the distance one less); None where its
        distances are not both proven (see :attr:`lost_bounds`)."""
        if not self.exact:
            return None
        return self.after - (self.before - 1)

    @property
    def lost_bounds(self) -> tuple[int, int]:
        """The fewest and most moves it may have lost, as its distances' bounds allow (0 to 2:
        a move changes the distance by one at most)."""
        (low0, high0), (low1, high1) = self.bounds
        most = 2 if math.isinf(high1) else min(2, int(high1 - low0 + 1))
        return max(0, int(low1 - high0 + 1) if not math.isinf(high0) else 0), max(0, most)

    def as_dict(self) -> dict:
        return {
            "number": self.number,
            "move": str(self.move),
            "before": self.before,
            "after": self.after,
            "lost": self.lost,
            "good": None if self.good is None else [str(m) for m in self.good],
            "seconds": self.seconds,
            "before_bounds": _json_bounds(self.bounds[0]),
            "after_bounds": _json_bounds(self.bounds[1]),
            "lost_bounds": list(self.lost_bounds),
        }


@dataclass(frozen=True)
class Review:
    """A solve reviewed move by move (:func:`review`).

    ``optimum`` is the start's exact distance, None where it is not proven: then
    ``optimum_bounds`` bounds it, and the distances are exact only from position
    ``exact_from`` on (0: the start; the number of moves: only the goal; None: none).
    """

    start: Board
    goal: Board
    metric: str
    steps: list[Step]
    optimum: int | None
    good_at_start: tuple[Move, ...] | None = field(default=())
    optimum_bounds: tuple = (0, math.inf)
    exact_from: int | None = 0

    @property
    def length(self) -> int:
        """The solve's moves, in the metric."""
        return len(self.steps)

    @property
    def exact(self) -> bool:
        """Every distance proven."""
        return self.exact_from == 0

    @property
    def lost(self) -> int | None:
        """Moves lost in all (the solve's length less the optimum, where it reaches the goal);
        None where not proven (see :attr:`lost_bounds`)."""
        if not self.exact:
            return None
        return sum(s.lost for s in self.steps)

    @property
    def lost_bounds(self) -> tuple[int, float]:
        """The fewest and most moves lost in all: each move's loss is its distance after less
        its distance before, plus one, so they add up to the last distance less the first plus
        the moves made."""
        if self.exact:
            return self.lost, self.lost
        low0, high0 = self.optimum_bounds
        low1, high1 = self.steps[-1].bounds[1] if self.steps else self.optimum_bounds
        fewest = 0 if math.isinf(high0) else max(0, int(self.length + low1 - high0))
        return fewest, self.length + high1 - low0

    @property
    def reaches_goal(self) -> bool:
        return (self.steps[-1].bounds[1] if self.steps else self.optimum_bounds) == (0, 0)

    @property
    def mistakes(self) -> list[Step]:
        """The moves that lost moves (where bounds: that are proven to)."""
        return [s for s in self.steps if s.lost_bounds[0]]

    @property
    def summary(self) -> str:
        """``52 moves, optimal 48: 4 lost, at moves 7 (2) and 31 (2)``; where distances are
        not all proven, with their bounds, labelled."""
        unit = "MTM move" if self.metric == "mtm" else "move"
        said = f"{self.length:,} {unit}{'' if self.length == 1 else 's'}, optimal "
        if self.exact:
            said += f"{self.optimum:,}"
        else:
            said += f"{_span(self.optimum_bounds, ' to ')} ({self._proven()})"
        if not self.reaches_goal:
            left = self.steps[-1].bounds[1] if self.steps else self.optimum_bounds
            said += f"; the goal not reached ({_span(left, ' to ')} to go)"
        at = [f"{s.number} ({_span(s.lost_bounds, '-')})" for s in self.mistakes]
        where = at[0] if len(at) == 1 else ", ".join(at[:-1]) + " and " + at[-1] if at else ""
        moves = "move" if len(at) == 1 else "moves"
        if self.exact:
            if not at:
                return said + ("" if not self.steps else ": every move kept the optimum")
            return f"{said}: {self.lost:,} lost, at {moves} {where}"
        said += f": {_span(self.lost_bounds, ' to ')} lost"
        return said + (f", for certain at {moves} {where}" if at else "")

    def _proven(self) -> str:
        """Where the distances are proven, in words."""
        if self.exact_from is None:
            return "bounds: no distance proven"
        if self.exact_from >= self.length:
            return "bounds: only the goal's distance proven"
        return f"bounds: distances proven from move {self.exact_from + 1} on"

    def slowest(self, n: int = 3) -> list[Step]:
        """The ``n`` moves that took longest, where the moves carry times."""
        timed = [s for s in self.steps if s.seconds is not None]
        return sorted(timed, key=lambda s: -s.seconds)[:n]

    def as_dict(self) -> dict:
        return {
            "start": self.start.format(),
            "goal": self.goal.format(),
            "metric": self.metric,
            "length": self.length,
            "optimum": self.optimum,
            "optimum_bounds": _json_bounds(self.optimum_bounds),
            "exact_from": self.exact_from,
            "lost": self.lost,
            "lost_bounds": _json_bounds(self.lost_bounds),
            "reaches_goal": self.reaches_goal,
            "summary": self.summary,
            "good_at_start": None
            if self.good_at_start is None
            else [str(m) for m in self.good_at_start],
            "steps": [s.as_dict() for s in self.steps],
        }

    def format(self) -> str:
        """A text table: a row a move, the lost ones marked, then the summary; a distance not
        proven is shown as its bounds (``40-46``), good moves not known as ``?``."""
        lines = [f"{'move':>5}  {'made':<5} {'distance':>8}  {'lost':>4}  good moves"]
        for s in self.steps:
            lost = s.lost_bounds
            mark = f"{_span(lost, '-'):>4}" if lost != (0, 0) else "    "
            good = "?" if s.good is None else " ".join(str(m) for m in s.good)
            took = "" if s.seconds is None else f"  {s.seconds:.2f} s"
            flag = "  <- lost" if lost[0] else ""
            before, after = (_span(b, "-") for b in s.bounds)
            lines.append(
                f"{s.number:>5}  {str(s.move):<5} {before:>3} -> {after:<3} {mark}  {good}"
                f"{took}{flag}"
            )
        lines.append(self.summary)
        slow = self.slowest()
        if slow:
            lines.append(
                "slowest: " + ", ".join(f"move {s.number} ({s.seconds:.2f} s)" for s in slow)
            )
        return "\n".join(lines)


def _span(bounds, between: str) -> str:
    """``40`` or ``40{between}46`` (``40 or more`` with no upper bound)."""
    low, high = bounds
    if low == high:
        return f"{int(low):,}"
    if math.isinf(high):
        return f"{int(low):,} or more"
    return f"{int(low):,}{between}{int(high):,}"


def _json_bounds(bounds) -> list:
    """Bounds for JSON: ``[low, high]``, ``high`` null where there is none."""
    low, high = bounds
    return [int(low), None if math.isinf(high) else int(high)]


def review(
    start,
    moves,
    goal=None,
    *,
    metric: str = "stm",
    times=None,
    time_limit: float | None = None,
    blank_first: bool = False,
    size=None,
) -> Review:
    """Review the solve ``moves`` (text in tile notation, or moves) from ``start``: every
    position's exact distance, the moves lost and the good moves (see the module).

    ``times``: the seconds each move took (one a move as given), where the solve carries
    them.  ``time_limit``: seconds for each position's optimal search where no distance
    table answers (default: none).  An illegal move raises
    :class:`~slidelab.errors.IllegalMoveError` naming it.
    """
    request = read_request(
        start, goal, blank_first=blank_first, size=size, metric=metric, time_limit=time_limit
    )
    return review_request(request, moves, times)


def review_request(request: Request, moves, times=None) -> Review:
    """:func:`review` of a request read and checked already (its board, goal and metric)."""
    _args.instance(request, "request", Request)
    given = parse_moves(moves)
    seconds = _times(given, times)
    metric = request.options.metric
    made, made_seconds = _as_metric(given, seconds, metric)
    start = request.puzzle.start
    start.apply(expand(made))  # an illegal move refused, with its number, before any search
    boards = [start]
    for move in made:
        boards.append(boards[-1].apply([move]))
    distances = Distances(request)
    try:
        exact, good = _forward(distances, boards)
        bounds: list = [(d, d) for d in exact]
        exact_from: int | None = 0
    except NotProven as exc:
        exact, good = _backward(distances, boards, request)
        bounds = _bounds(distances, boards, exact, exc.upper)
        exact_from = next((i for i, d in enumerate(exact) if d is not None), None)
    steps = [
        Step(
            i + 1,
            move,
            exact[i],
            exact[i + 1],
            good[i],
            made_seconds[i],
            (bounds[i], bounds[i + 1]),
        )  # fmt: skip
        for i, move in enumerate(made)
    ]
    goal = request.puzzle.goal
    return Review(start, goal, metric, steps, exact[0], good[0], bounds[0], exact_from)


def _forward(distances: Distances, boards: list[Board]) -> tuple[list, list]:
    """Every position's exact distance and good moves, from the start: the start by an optimal
    search (:class:`NotProven` where it cannot be proven), each next position as a neighbour
    of one known (:meth:`~.distances.Distances.beside`), then every position's good moves."""
    exact = [distances.of(boards[0])]
    for board in boards[1:]:
        exact.append(distances.beside(board, exact[-1]))
    n = max(1, len(boards) - 1)
    return exact, distances.good_of(list(zip(boards[:n], exact[:n], strict=True)))


def _backward(distances: Distances, boards: list[Board], request: Request) -> tuple[list, list]:
    """The distances proven back from the goal (None before the first search that runs past
    the request's time limit; all None where the solve does not reach the goal), and the good
    moves of the positions proven (None where a search for them runs past it)."""
    limit = request.options.time_limit
    exact: list = [None] * len(boards)
    if boards[-1] == request.puzzle.goal:
        exact[-1] = 0
        for i in range(len(boards) - 2, -1, -1):
            try:
                exact[i] = distances.beside(boards[i], exact[i + 1], Limits(limit))
            except SearchLimitError:
                break
    good: list = [None] * max(1, len(boards) - 1)
    for i in range(len(good)):
        if exact[i] is not None:
            try:
                good[i] = distances.good(boards[i], exact[i], Limits(limit))
            except SearchLimitError:
                pass
    return exact, good


def _bounds(distances: Distances, boards: list[Board], exact: list, upper: int | None) -> list:
    """Each position's distance bounds: exact where proven; else at least the heuristic's
    estimate and at most the moves the solve still takes to the goal (``upper`` for the
    start: a solution found), in single-tile moves of the parity of the blank's distance from
    its goal cell, then within one move of each neighbour's bounds (swept both ways)."""
    n = len(boards) - 1
    goal = distances.puzzle.goal
    reached = boards[-1] == goal
    low: list = []
    high: list = []
    for i, board in enumerate(boards):
        if exact[i] is not None:
            low.append(exact[i])
            high.append(exact[i])
            continue
        lo, hi = distances.estimate(board), (n - i if reached else math.inf)
        if i == 0 and upper is not None:
            hi = min(hi, upper)
        if distances.metric == "stm":  # a move takes the blank to a cell of the other colour
            parity = _blank_parity(board, goal)
            lo += (lo - parity) % 2
            hi -= 0 if math.isinf(hi) else (hi - parity) % 2
        low.append(lo)
        high.append(hi)
    for order in (range(1, n + 1), range(n - 1, -1, -1)):
        for i in order:
            j = i - 1 if order.step == 1 else i + 1
            low[i] = max(low[i], low[j] - 1)
            high[i] = min(high[i], high[j] + 1)
    return list(zip(low, high, strict=True))


def _blank_parity(board: Board, goal: Board) -> int:
    """The parity of the blank's grid distance from its goal cell: in single-tile moves, of
    every path's length to the goal (each move takes the blank one cell)."""
    w = board.width
    here, there = board.cells.index(0), goal.cells.index(0)
    return (abs(here // w - there // w) + abs(here % w - there % w)) % 2


def _times(moves: tuple[Move, ...], times) -> list[float | None]:
    """The seconds of each move as given (None each where the solve carries none)."""
    if times is None:
        return [None] * len(moves)
    times = [float(t) for t in times]
    if len(times) != len(moves):
        raise SlidelabError(f"{len(times)} times for {len(moves)} moves: give one a move")
    if any(t < 0 for t in times):
        raise SlidelabError("a move's time is negative")
    return times


def _as_metric(moves: tuple[Move, ...], seconds: list, metric: str):
    """The moves as the metric counts them, with their seconds: in STM each tile (a slide of
    ``k`` tiles ``k`` moves, its time shared), in MTM each slide (:func:`~slidelab.moves.runs`:
    a run of one direction, its tiles' times added)."""
    steps, took = [], []
    for m, t in zip(moves, seconds, strict=True):
        for _ in range(m.amount):
            steps.append(Move(m.direction, 1))
            took.append(None if t is None else t / m.amount)
    if metric != "mtm":
        return steps, took
    out, times, i = list(runs(moves)), [], 0
    for m in out:
        part = took[i : i + m.amount]
        times.append(None if None in part else math.fsum(part))
        i += m.amount
    return out, times
    out, took = [], []
    for m, t in zip(moves, seconds, strict=True):
        for _ in range(m.amount):
            out.append(Move(m.direction, 1))
            took.append(None if t is None else t / m.amount)
    return out, took
