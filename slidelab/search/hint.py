"""A position's exact distance and its best next move: the web page's hint.

Where the goal's distance table is at hand (cached, or small enough to build at once: the
8-puzzle's 181,440 positions, the 2x4's 20,160) the answer is read from it; elsewhere it is
the first move of an optimal solution found within a budget (``time_limit``), and when the
budget is not enough, what the search proved: a lower bound.

Examples
--------
>>> h = hint("8 6 7/2 5 4/3 0 1")
>>> h.distance, h.exact, h.how
(31, True, 'distance table')
>>> hint("1 2 3/4 5 6/7 0 8").move
Move('L', 1)
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import _args
from ..errors import SearchLimitError
from ..moves import Move, moved_tiles
from ..puzzle import Puzzle
from ..units import format_duration
from .distances import table_at_hand
from .request import Request, read_request

#: the seconds of search a hint takes where no time limit is given
DEFAULT_TIME_LIMIT = 2.0


@dataclass(frozen=True)
class Hint:
    """A position's distance to its goal and the best next move.

    Attributes
    ----------
    distance : int or None
        The exact distance (in :attr:`metric`); None when the budget was not enough.
    lower_bound : int or None
        Where the distance is unknown: what the search proved it is at least.
    move : Move or None
        The first move of an optimal solution (in STM one tile; in MTM one slide); None at the
        goal or when the distance is unknown.
    tile : str or int or None
        The tile to click for it: the one the move slides (in MTM the farthest of the slide).
    how : str
        ``"solved"``, ``"distance table"`` or ``"optimal search"``.
    metric : str
    seconds : float
        The answer's seconds, compiling kernels left out (as time limits leave it out: a first
        hint that compiles its search's kernels said "no optimal solution within 9.4 s" for a
        2 s limit).
    good : tuple of Move
        Every move that keeps the optimum (the first moves of all optimal solutions), in
        ``U D L R`` order; :attr:`move` is one of them.  Just :attr:`move` where the time
        was not enough to look at the others.
    """

    distance: int | None
    lower_bound: int | None
    move: Move | None
    tile: object
    how: str
    metric: str
    seconds: float
    good: tuple[Move, ...] = ()

    @property
    def exact(self) -> bool:
        return self.distance is not None

    @property
    def message(self) -> str:
        """One line for people."""
        unit = "move" if self.metric == "stm" else "MTM move"
        if self.distance == 0:
            return "solved"
        if self.distance is None:
            bound = "" if self.lower_bound is None else f"at least {self.lower_bound} {unit}s; "
            return (
                f"{bound}no optimal solution within {format_duration(self.seconds)} of search"
                " (the exact distance needs a longer search)"
            )
        plural = "" if self.distance == 1 else "s"
        others = [str(m) for m in self.good if m != self.move]
        also = f"; also optimal: {', '.join(others)}" if others else ""
        return (
            f"{self.distance} {unit}{plural} from the goal ({self.how}); best next move:"
            f" {self.move} (tile {self.tile}){also}"
        )

    def as_dict(self) -> dict:
        return {
            "distance": self.distance,
            "lower_bound": self.lower_bound,
            "move": None if self.move is None else str(self.move),
            "tile": self.tile,
            "exact": self.exact,
            "how": self.how,
            "metric": self.metric,
            "seconds": self.seconds,
            "message": self.message,
            "good": [str(m) for m in self.good],
        }


def hint(
    start,
    goal=None,
    *,
    metric: str = "stm",
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    blank_first: bool = False,
    size=None,
) -> Hint:
    """The distance of ``start`` from ``goal`` and its best next move (see the module): the
    request read once (:func:`~.request.read_request`), then :func:`hint_request`.

    ``time_limit``: seconds of search where no distance table answers (default
    :data:`DEFAULT_TIME_LIMIT`).  An unsolvable position raises
    :class:`~slidelab.errors.UnsolvableError`, as ``solve`` does.
    """
    request = read_request(
        start, goal, blank_first=blank_first, size=size, metric=metric, time_limit=time_limit
    )
    return hint_request(request)


def hint_request(request: Request) -> Hint:
    """:func:`hint` of a request read and checked already (:func:`~.request.read_request`): its
    metric, and its time limit for the search where no distance table answers.  Nothing is
    parsed, checked or resolved again (the web server's workers take the request as it is).

    Examples
    --------
    >>> from .request import read_request
    >>> hint_request(read_request("1 2 3/4 5 6/7 0 8", metric="mtm")).distance
    1
    """
    from .._clock import Clock

    _args.instance(request, "request", Request)
    clock = Clock()  # compiling left out, as time limits leave it out
    puzzle, metric = request.puzzle, request.options.metric
    if puzzle.start == puzzle.goal:
        return Hint(0, None, None, None, "solved", metric, clock.elapsed())
    table = table_at_hand(puzzle, metric)
    if table is not None:
        solution, how = table.solve(puzzle.start), "distance table"
    else:
        from .solve import solve_request

        try:
            solution, how = solve_request(request), "optimal search"
        except SearchLimitError as exc:
            bound = _lower_bound(puzzle, metric, exc.lower_bound)
            took = clock.elapsed()
            return Hint(None, bound, None, None, "optimal search", metric, took)
        if not solution.optimal:  # a bounded answer (boards past the 15-puzzle)
            bound = _lower_bound(puzzle, metric, None)
            took = clock.elapsed()
            return Hint(None, bound, None, None, "optimal search", metric, took)
    first = solution.moves[0]
    move = first if metric == "mtm" else Move(first.direction, 1)
    tile = moved_tiles(puzzle.start, [move])[-1]
    good = _good_moves(request, solution.length, move)
    return Hint(solution.length, None, move, tile, how, metric, clock.elapsed(), good)


def _good_moves(request: Request, distance: int, move: Move) -> tuple[Move, ...]:
    """Every move from the start that keeps the optimum (:class:`~.review.Distances`), or
    just ``move`` where a neighbour's distance cannot be proven within the time limit."""
    from ..errors import SlidelabError
    from .distances import Distances

    try:
        return Distances(request).good(request.puzzle.start, distance)
    except SlidelabError:  # a neighbour past the time limit: the one move known
        return (move,)


def _lower_bound(puzzle: Puzzle, metric: str, proved) -> int:
    """What is known of an unknown distance: the search's proof (``proved``, or None), and at
    least the Manhattan estimate (admissible in either metric)."""
    from ..heuristics import make_heuristic

    estimate = make_heuristic(puzzle, "manhattan", metric=metric).value(puzzle.start_codes)
    return int(max(estimate, proved or 0))
