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

from dataclasses import dataclass, field

from .. import _args
from ..board import Board
from ..errors import SlidelabError
from ..moves import Move, expand, parse_moves, runs
from .distances import Distances
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
    before, after : int
        The exact distances of the positions before and after it.
    good : tuple of Move
        The moves that keep the optimum from the position before it (every first move of an
        optimal solution from there); empty at the goal.
    seconds : float or None
        What it took, where the solve's moves carry times.
    """

    number: int
    move: Move
    before: int
    after: int
    good: tuple[Move, ...]
    seconds: float | None = None

    @property
    def lost(self) -> int:
        """Moves it lost: 0 when it kept the optimum (the distance one less)."""
        return self.after - (self.before - 1)

    def as_dict(self) -> dict:
        return {
            "number": self.number,
            "move": str(self.move),
            "before": self.before,
            "after": self.after,
            "lost": self.lost,
            "good": [str(m) for m in self.good],
            "seconds": self.seconds,
        }


@dataclass(frozen=True)
class Review:
    """A solve reviewed move by move (:func:`review`)."""

    start: Board
    goal: Board
    metric: str
    steps: list[Step]
    optimum: int
    good_at_start: tuple[Move, ...] = field(default=())

    @property
    def length(self) -> int:
        """The solve's moves, in the metric."""
        return len(self.steps)

    @property
    def lost(self) -> int:
        """Moves lost in all: the solve's length less the optimum, where it reaches the goal."""
        return sum(s.lost for s in self.steps)

    @property
    def reaches_goal(self) -> bool:
        return (self.steps[-1].after if self.steps else self.optimum) == 0

    @property
    def mistakes(self) -> list[Step]:
        """The moves that lost moves."""
        return [s for s in self.steps if s.lost]

    @property
    def summary(self) -> str:
        """``52 moves, optimal 48: 4 lost, at moves 7 (2) and 31 (2)``."""
        unit = "MTM move" if self.metric == "mtm" else "move"
        said = f"{self.length:,} {unit}{'' if self.length == 1 else 's'}, optimal {self.optimum:,}"
        if not self.reaches_goal:
            left = self.steps[-1].after if self.steps else self.optimum
            said += f"; the goal not reached ({left:,} to go)"
        if not self.mistakes:
            return said + ("" if not self.steps else ": every move kept the optimum")
        at = [f"{s.number} ({s.lost})" for s in self.mistakes]
        where = at[0] if len(at) == 1 else ", ".join(at[:-1]) + " and " + at[-1]
        moves = "move" if len(at) == 1 else "moves"
        return f"{said}: {self.lost:,} lost, at {moves} {where}"

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
            "lost": self.lost,
            "reaches_goal": self.reaches_goal,
            "summary": self.summary,
            "good_at_start": [str(m) for m in self.good_at_start],
            "steps": [s.as_dict() for s in self.steps],
        }

    def format(self) -> str:
        """A text table: a row a move, the lost ones marked, then the summary."""
        lines = [f"{'move':>5}  {'made':<5} {'distance':>8}  {'lost':>4}  good moves"]
        for s in self.steps:
            mark = f"{s.lost:>4}" if s.lost else "    "
            good = " ".join(str(m) for m in s.good)
            took = "" if s.seconds is None else f"  {s.seconds:.2f} s"
            flag = "  <- lost" if s.lost else ""
            lines.append(
                f"{s.number:>5}  {str(s.move):<5} {s.before:>3} -> {s.after:<3} {mark}  {good}"
                f"{took}{flag}"
            )
        lines.append(self.summary)
        slow = self.slowest()
        if slow:
            lines.append(
                "slowest: " + ", ".join(f"move {s.number} ({s.seconds:.2f} s)" for s in slow)
            )
        return "\n".join(lines)


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
    distances = Distances(request)
    board = start
    before = distances.of(board)
    optimum, good_at_start = before, distances.good(board, before)
    good = good_at_start
    steps = []
    for i, move in enumerate(made):
        after_board = board.apply([move])
        after = distances.of(after_board)  # known: a neighbour, looked at for the good moves
        steps.append(Step(i + 1, move, before, after, good, made_seconds[i]))
        board, before = after_board, after
        good = distances.good(board, before) if i + 1 < len(made) else ()
    return Review(start, request.puzzle.goal, metric, steps, optimum, good_at_start)


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
    ``k`` tiles ``k`` moves, its time shared), in MTM each slide (a run of one direction, its
    moves' times added)."""
    if metric == "mtm":
        out, took = [], []
        for m, t in zip(moves, seconds, strict=True):
            if out and out[-1].direction == m.direction:
                out[-1] = Move(m.direction, out[-1].amount + m.amount)
                took[-1] = None if took[-1] is None or t is None else took[-1] + t
            else:
                out.append(m)
                took.append(t)
        assert tuple(out) == runs(moves)
        return out, took
    out, took = [], []
    for m, t in zip(moves, seconds, strict=True):
        for _ in range(m.amount):
            out.append(Move(m.direction, 1))
            took.append(None if t is None else t / m.amount)
    return out, took
