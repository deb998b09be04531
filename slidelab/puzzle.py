"""A :class:`Puzzle`: a start board and the goal to reach, checked to match.

The puzzle also holds the integer arrays the compiled kernels work on: each
distinct label is coded ``1..k`` in sorted order, the blank ``0``.
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property
from math import factorial, prod

import numpy as np

from .board import Board
from .errors import BoardError, MismatchError
from .geometry import neighbour_table
from .parse import is_size, parse_size


def as_board(value, size=None) -> Board:
    """``value`` as a :class:`Board` (parsing text if needed)."""
    return value if isinstance(value, Board) else Board(value, size)


def goal_board(spec=None, *, size=None, blank_first: bool = False) -> Board:
    """A goal as every front end reads it: a :class:`Board`, board text, or a size ``WxH``.

    A size stands for its ordered goal, the blank last or, with ``blank_first``,
    first (Korf's convention); ``blank_first`` goes with a size only, never with a goal
    board.  ``size`` is the board's size: the goal's when no goal is given, the size
    of one-line board text, and it must agree with a goal given as a size.  The
    command line (``analyze``, ``generate``, ``tables build``, ``--goal``), the web
    API, batch files and the Python functions all read goals here, so they accept
    the same spellings and refuse the same mistakes.

    Examples
    --------
    >>> goal_board("3×2"), goal_board("2x2", blank_first=True)
    (Board('1 2 3/4 5 0'), Board('0 1/2 3'))
    >>> goal_board("AB/BA/A_")
    Board('A B/B A/A 0')
    >>> goal_board(size="2x2")
    Board('1 2/3 0')
    >>> goal_board("1 2/3 0", blank_first=True)
    Traceback (most recent call last):
    ...
    slidelab.errors.BoardError: blank first goes with a size (WxH), not with a goal board: give one or ...
    """
    from . import _args

    blank_first = _args.boolean(blank_first, "blank_first")
    if spec is None:
        if size is None:
            raise BoardError("give a size (WxH) or a goal")
        spec, size = size, None
    if is_size(spec):
        width, height = parse_size(spec)
        if size is not None and parse_size(size) != (width, height):
            raise BoardError(f"size {size} does not match the {width}x{height} goal")
        return Board.solved(width, height, blank_first)
    if blank_first:
        raise BoardError(
            "blank first goes with a size (WxH), not with a goal board: give one or the other,"
            " not both"
        )
    return as_board(spec, size)


def implied_goal(start: Board, blank_first: bool = False) -> Board:
    """The ordered goal of a start given alone, once the start is checked to imply one.

    With no goal given, the start must hold distinct tiles: numbers exactly
    ``1 .. W*H-1`` (or distinct letters).  A repeated or missing number is far
    more often a typo than a puzzle with identical tiles, whose goal cannot be
    guessed anyway; such boards need their goal given.

    Raises
    ------
    BoardError
        Naming the repeated tile and its cells, or the missing and foreign numbers.

    Examples
    --------
    >>> implied_goal(Board("3 1/2 0"))
    Board('1 2/3 0')
    >>> implied_goal(Board("8 8 7/2 5 4/3 0 1"))
    Traceback (most recent call last):
    ...
    slidelab.errors.BoardError: tile 8 appears twice (row 1, column 1 and row 1, column 2); a start ...
    """
    cells: dict = {}
    for i, label in enumerate(start.cells):
        if label != 0:
            cells.setdefault(label, []).append(i)
    for label, where in cells.items():
        if len(where) > 1:
            times = {2: "twice", 3: "three times"}.get(len(where), f"{len(where)} times")
            shown = [f"row {i // start.width + 1}, column {i % start.width + 1}" for i in where]
            listed = (
                " and ".join(shown)
                if len(shown) == 2
                else "; ".join(shown[:3]) + ("; ..." if len(shown) > 3 else "")
            )
            raise BoardError(
                f"tile {_describe(label)} appears {times} ({listed});"
                " a start with repeated tiles needs its goal given"
            )
    numbers = {label for label in cells if isinstance(label, int)}
    expected = set(range(1, start.width * start.height))
    if numbers and numbers != expected:
        missing = sorted(expected - numbers)
        foreign = sorted(numbers - expected)
        raise BoardError(
            f"a {start.size} board holds tiles 1 to {len(expected)} once each, but"
            f" {_few(missing)} {'is' if len(missing) == 1 else 'are'} missing and"
            f" {_few(foreign)} {'is' if len(foreign) == 1 else 'are'} too large;"
            " give the goal for other numbers"
        )
    return start.goal(blank_first)


def _few(numbers: list) -> str:
    return ", ".join(map(str, numbers[:5])) + (", ..." if len(numbers) > 5 else "")


def _describe(label) -> str:
    return repr(label) if isinstance(label, str) else str(label)


class Puzzle:
    """A start position and a goal position of the same board.

    Parameters
    ----------
    start : Board or str
    goal : Board or str, optional
        A board, or a size ``WxH`` for the ordered goal (see :func:`goal_board`).
        Default: the start's tiles in order with the blank last, or first when
        ``blank_first`` is set (Korf's benchmark convention).
    blank_first : bool
        With no goal or a size for a goal: the ordered goal with the blank first.  With
        a goal board, refused (:class:`~slidelab.errors.BoardError`): give one or the other.
    size : str, optional
        ``"WxH"`` for one-line text boards.

    Raises
    ------
    MismatchError
        When start and goal differ in size or hold different tiles.
    BoardError
        A board that cannot be read, or a goal board given with ``blank_first``.

    Examples
    --------
    >>> p = Puzzle("8 6 7/2 5 4/3 0 1")
    >>> p.goal
    Board('1 2 3/4 5 6/7 8 0')
    >>> p.n_arrangements
    362880
    """

    __slots__ = ("start", "goal", "__dict__")

    def __init__(self, start, goal=None, *, blank_first: bool = False, size=None):
        self.start = as_board(start, size)
        if goal is None:
            self.goal = implied_goal(self.start, blank_first)
        else:
            one_line = isinstance(goal, str) and not any(ch in goal.strip() for ch in "/\n[")
            size = size if size is not None or not one_line else self.start.size
            size = None if is_size(goal) else size  # the start's size: the goal is checked below
            self.goal = goal_board(goal, size=size, blank_first=blank_first)
        check_compatible(self.start, self.goal)

    # pickling: a puzzle goes to worker processes as it is (its boards, not their text), and is
    # neither read nor checked again there
    def __getstate__(self):
        return (self.start, self.goal)

    def __setstate__(self, state):
        self.start, self.goal = state

    def __repr__(self):
        return f"Puzzle({self.start.format()!r}, {self.goal.format()!r})"

    def __eq__(self, other):
        return isinstance(other, Puzzle) and (self.start, self.goal) == (other.start, other.goal)

    def __hash__(self):
        return hash((self.start, self.goal))

    @property
    def width(self) -> int:
        return self.start.width

    @property
    def height(self) -> int:
        return self.start.height

    @property
    def size(self) -> str:
        return self.start.size

    @property
    def is_solved(self) -> bool:
        """Whether the start already is the goal."""
        return self.start == self.goal

    def _repr_svg_(self) -> str:
        """Jupyter shows the start, coloured against the goal."""
        return self.start.to_svg(self.goal)

    @cached_property
    def labels(self) -> tuple:
        """Distinct labels, sorted; label ``labels[i]`` has code ``i + 1``."""
        return self.goal.labels

    @cached_property
    def has_repeats(self) -> bool:
        return self.goal.has_repeats

    def encode(self, board: Board) -> np.ndarray:
        """Board cells as label codes (``int16``, blank 0)."""
        code = {label: i + 1 for i, label in enumerate(self.labels)}
        code[0] = 0
        return np.array([code[c] for c in board.cells], dtype=np.int16)

    def decode(self, codes) -> Board:
        """The board whose cells carry ``codes``."""
        names = (0,) + self.labels
        return Board.from_cells([names[int(c)] for c in codes], self.width, self.height)

    @cached_property
    def start_codes(self) -> np.ndarray:
        return self.encode(self.start)

    @cached_property
    def goal_codes(self) -> np.ndarray:
        return self.encode(self.goal)

    @cached_property
    def neighbours(self) -> np.ndarray:
        return neighbour_table(self.width, self.height)

    @cached_property
    def label_counts(self) -> np.ndarray:
        """``counts[code]`` = how many cells carry that code (blank included)."""
        return np.bincount(self.goal_codes, minlength=len(self.labels) + 1).astype(np.int64)

    def rank(self, board) -> int:
        """Perfect hash of a board of this puzzle: its rank in ``0 .. n_arrangements - 1``.

        The lexicographic rank of the board's label codes as a multiset
        permutation (a plain permutation rank when all tiles differ).

        Examples
        --------
        >>> p = Puzzle("1 2 3/4 5 6/7 8 0")
        >>> p.rank(p.goal), p.unrank(p.rank(p.goal)) == p.goal
        (46233, True)
        """
        from .ranking import arrangement_rank

        board = as_board(board, self.size)
        check_compatible(board, self.goal)
        return int(arrangement_rank(self.encode(board), self.label_counts, self.n_arrangements))

    def unrank(self, rank: int) -> Board:
        """The board with this rank (inverse of :meth:`rank`)."""
        from .ranking import arrangement_unrank

        if not 0 <= rank < self.n_arrangements:
            raise MismatchError(f"rank {rank} is outside 0..{self.n_arrangements - 1}")
        out = np.empty(self.width * self.height, np.int16)
        arrangement_unrank(int(rank), self.label_counts, self.n_arrangements, out)
        return self.decode(out)

    @cached_property
    def n_arrangements(self) -> int:
        """Number of distinct boards with these tiles (solvable or not)."""
        n = self.width * self.height
        return factorial(n) // prod(factorial(int(c)) for c in self.label_counts)


def check_compatible(start: Board, goal: Board) -> None:
    """Raise :class:`MismatchError` unless start and goal are the same puzzle."""
    if (start.width, start.height) != (goal.width, goal.height):
        raise MismatchError(f"start is {start.size} but goal is {goal.size}")
    a: Counter = Counter(start.cells)
    b: Counter = Counter(goal.cells)
    if a != b:
        parts = []
        for label in sorted(set(a) | set(b), key=lambda v: (isinstance(v, str), v)):
            if a[label] != b[label]:
                parts.append(f"{_describe(label)}: {a[label]} in start, {b[label]} in goal")
        raise MismatchError("start and goal hold different tiles (" + "; ".join(parts) + ")")
