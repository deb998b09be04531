"""The :class:`Solution` and :class:`Stats` value types returned by every solver."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from html import escape

from .board import Board, apply_moves
from .errors import SlidelabError
from .moves import (
    Move,
    as_moves,
    expand,
    format_moves,
    from_blank_path,
    metric_keyword,
    metric_name,
    mtm,
    stm,
)


@dataclass(frozen=True)
class Phase:
    """One layer of a breadth-first search, or one iteration of IDA*: what it did.

    Attributes
    ----------
    kind : str
        ``"layer"`` (breadth-first: one layer expanded, the next made), ``"iteration"``
        (IDA*: one depth-first search to a bound) or ``"contour"`` (A*: the nodes of one
        value of ``f``, expanded in rising ``f``).
    side : str
        A bidirectional search's side, ``"forward"`` (from the start) or ``"backward"`` (from
        the goal); ``""`` otherwise.
    depth : float
        The layer made (its distance from its side's root), the iteration's bound, or the
        contour's ``f``.
    expanded, generated : int
        The nodes expanded and generated in it.
    frontier : int
        The states of the layer it made (0 for an iteration; a contour's nodes still open).
    seconds : float
        Its wall-clock time.

    Examples
    --------
    >>> Phase("iteration", "", 31, 120, 250, 0, 0.001)
    Phase(kind='iteration', side='', depth=31, expanded=120, generated=250, frontier=0, seconds=0.001)
    """

    kind: str
    side: str
    depth: float
    expanded: int
    generated: int
    frontier: int
    seconds: float


@dataclass(frozen=True)
class Visit:
    """A node a search visited, recorded for playing the search back (the web page's lab):
    the finer stream under :class:`Phase`, kept only when asked for
    (:attr:`slidelab.search.Limits.record`).

    Attributes
    ----------
    kind : str
        ``"expanded"`` (A*: the node it expanded, in order) or ``"layer"`` (breadth-first:
        one of the first states of the layer it made).
    side : str
        A bidirectional search's side (``"forward"``, ``"backward"``); ``""`` otherwise.
    board : str
        The position (``Board.format()``).
    g : int
        Its distance from the side's root along the path found to it (a layer: the layer).
    h : int
        Its estimate (0 for a breadth-first search).
    f : float
        ``g + weight * h``: its priority (a layer: ``g``).
    open, closed : int
        A*: the nodes open and the nodes expanded once it was expanded; a layer: the layer's
        states and the states stored.

    Examples
    --------
    >>> Visit("expanded", "", "1 2 3/4 5 6/7 0 8", 0, 1, 1.0, 2, 1)
    Visit(kind='expanded', side='', board='1 2 3/4 5 6/7 0 8', g=0, h=1, f=1.0, open=2, closed=1)
    """

    kind: str
    side: str
    board: str
    g: int
    h: int
    f: float
    open: int
    closed: int


@dataclass
class Stats:
    """What a search did.

    Attributes
    ----------
    expanded : int
        Nodes whose successors were generated.
    generated : int
        Successor nodes produced.
    stored : int
        States held in memory at the end (visited sets, open/closed lists);
        for IDA*, the deepest path.
    peak_frontier : int
        Largest frontier (BFS layer, A* open list) held at once.
    seconds : float
        Wall-clock time of the search.
    expanded_forward, expanded_backward : int
        Bidirectional searches: the expansions of the search from the start and of
        the search from the goal (they add up to ``expanded``); 0 for the others.
    phases : list of Phase
        Breadth-first searches: each layer; iterative deepening: each iteration; A-star: each
        f-contour.
    visits : list of Visit
        The nodes recorded for playing the search back, where asked for
        (:attr:`slidelab.search.Limits.record`): A*'s first expansions in order, each layer's
        first states of a breadth-first search; empty otherwise.
    """

    expanded: int = 0
    generated: int = 0
    stored: int = 0
    peak_frontier: int = 0
    seconds: float = 0.0
    expanded_forward: int = 0
    expanded_backward: int = 0
    phases: list = field(default_factory=list)
    visits: list = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)

    def copy(self) -> Stats:
        """A copy whose phases and visits are its own."""
        return replace(self, phases=list(self.phases), visits=list(self.visits))


@dataclass(frozen=True)
class Solution:
    """A move sequence from ``start`` to ``goal``, how it was found and at what cost.

    ``moves`` may be given as text (``"R2 U L"``).  ``metric`` is the metric the
    solution was searched in: ``length`` counts its moves (``stm``: single-tile moves,
    the default; ``mtm``: a slide of several tiles in a line is one move), and
    ``optimal`` is True only when the method proves the length minimal in it.

    Examples
    --------
    >>> s = Solution(Board('1 2 3/4 5 6/7 0 8'), Board('1 2 3/4 5 6/7 8 0'), 'L', True, 'bfs')
    >>> s.length, s.notation
    (1, 'L')
    >>> Solution('1 2 3/4 5 6/0 7 8', '1 2 3/4 5 6/7 8 0', 'L2', True, metric='mtm').length
    1
    """

    start: Board
    goal: Board
    moves: tuple = ()
    optimal: bool = False
    method: str = ""
    stats: Stats = field(default_factory=Stats, compare=False)
    metric: str = "stm"
    #: the tables that would have made it better (optimal, or found sooner) but did not fit the
    #: answer's budget (a :class:`slidelab.tables.family.Tables`: what they are, what they cost,
    #: how to build them ahead of time), or None
    remedy: object = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "moves", as_moves(self.moves))
        object.__setattr__(self, "metric", metric_name(self.metric))
        if not isinstance(self.start, Board):
            object.__setattr__(self, "start", Board(self.start))
        if not isinstance(self.goal, Board):
            object.__setattr__(self, "goal", Board(self.goal))

    def __repr__(self):
        return (
            f"Solution({self.start!r}, {self.goal!r}, {self.notation!r}, {self.optimal!r},"
            f" {self.method!r}, {self.stats!r}{metric_keyword(self.metric)})"
        )

    @property
    def length(self) -> int:
        """Length in the solution's :attr:`metric`."""
        return self.length_mtm if self.metric == "mtm" else self.length_stm

    @property
    def length_stm(self) -> int:
        """Length in single-tile moves."""
        return stm(self.moves)

    @property
    def length_mtm(self) -> int:
        """Length in multi-tile moves."""
        return mtm(self.moves)

    @property
    def notation(self) -> str:
        """Compact tile-direction text, e.g. ``"R2ULD"``."""
        return format_moves(self.moves, sep="")

    def format(self, notation: str = "tile", sep: str = " ") -> str:
        return format_moves(self.moves, notation, sep, board=self.start)

    def boards(self) -> list[Board]:
        """Every position along the path: the start, then the board after each single-tile
        move (``length + 1`` boards, the last one the goal).

        Examples
        --------
        >>> s = Solution('1 2 3/4 5 6/0 7 8', '1 2 3/4 5 6/7 8 0', 'L2')
        >>> [b.format() for b in s.boards()]
        ['1 2 3/4 5 6/0 7 8', '1 2 3/4 5 6/7 0 8', '1 2 3/4 5 6/7 8 0']
        """
        out = [self.start]
        for move in expand(self.moves):
            out.append(out[-1].apply((move,)))
        return out

    def to_svg(self, tile: int = 48, seconds_per_move: float = 0.3) -> str:
        """An animated SVG replay of the solution (SMIL, no script; loops), in the web
        page's colours (:func:`slidelab.draw.solution_svg`)."""
        from .draw import solution_svg

        frames = [b.cells for b in self.boards()]
        return solution_svg(
            frames, self.start.width, self.start.height, self.goal.cells, tile, seconds_per_move
        )

    def to_gif(self, path, tile: int = 48, seconds_per_move: float = 0.3) -> None:
        """Write the replay as a GIF to ``path`` (needs matplotlib: the plot extra)."""
        from .draw import check_gif, solution_gif

        # checked before the frames are made (a 2.6-million-move solution's would not fit)
        w, h = self.start.width, self.start.height
        check_gif(path, self.length_stm + 1, w, h, tile, seconds_per_move)
        frames = [b.cells for b in self.boards()]
        solution_gif(
            path, frames, self.start.width, self.start.height, self.goal.cells, tile,
            seconds_per_move,
        )  # fmt: skip

    def _repr_html_(self) -> str:
        """What Jupyter shows: the replay beside the length, method and moves."""
        status = "optimal" if self.optimal else "not proven optimal"
        plural = "" if self.length == 1 else "s"
        return (
            '<div style="display:flex;gap:16px;align-items:center">'
            f"{self.to_svg()}<div><b>{self.length:,} move{plural}</b> ({self._other_length()}),"
            f" {status}, {escape(self.method)}<br><code>{escape(self.format())}</code></div></div>"
        )

    def _other_length(self) -> str:
        """The length in the other metric, for display: ``"7 MTM"`` or ``"12 STM"``."""
        if self.metric == "mtm":
            return f"{self.length_stm:,} STM"
        return f"{self.length_mtm:,} MTM"

    def verify(self) -> None:
        """Replay the moves on the start; raise unless they end on the goal."""
        end = apply_moves(self.start, self.moves)
        if end != self.goal:
            raise SlidelabError(
                f"solution {self.notation} ends on {end.format()}, not the goal {self.goal.format()}"
            )

    def as_dict(self) -> dict:
        """The ``solve --json`` fields."""
        s = self.stats
        return {
            "start": self.start.format(),
            "goal": self.goal.format(),
            "size": self.start.size,
            "solution": self.notation,
            "length": self.length,
            "metric": self.metric,
            "length_stm": self.length_stm,
            "length_mtm": self.length_mtm,
            "optimal": self.optimal,
            "method": self.method,
            "stats": {**s.as_dict(), "seconds": round(s.seconds, 6)},
            **({} if self.remedy is None else {"remedy": remedy_dict(self.remedy)}),
        }


__all__ = ["Move", "Solution", "Stats"]


def make_solution(
    puzzle, blank_dirs, optimal: bool, method: str, stats: Stats, metric: str = "stm"
) -> Solution:
    """A :class:`Solution` of ``puzzle`` (anything with ``start`` and ``goal`` boards) from the
    blank-direction indices a compiled kernel returns (see :func:`slidelab.moves.from_blank_path`;
    a multi-tile move is its single steps, one index each)."""
    return Solution(
        puzzle.start, puzzle.goal, from_blank_path(blank_dirs), optimal, method, stats, metric
    )


def remedy_dict(tables) -> dict:
    """A remedy's fields for JSON: the tables, their bytes and seconds to build (compiling
    included), and the command that builds them ahead of time."""
    cost = tables.cost()
    return {
        "tables": tables.describe(),
        "bytes": cost.disk_bytes,
        "seconds": round(cost.seconds, 1),
        "command": tables.command(),
    }
