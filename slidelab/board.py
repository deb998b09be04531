"""The :class:`Board` value type: one position of a W x H sliding-tile puzzle."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from . import moves as _moves
from .errors import ArgumentError, BoardError
from .parse import Cell, check_size, format_cells, parse_cells


class _Constructor:
    """A classmethod that, reached through a board, explains itself when called without
    arguments: ``board.solved()`` reads as a question, but ``Board.solved(w, h)`` builds a
    goal; the question is :meth:`Board.is_solved`."""

    def __init__(self, func):
        self.func = func
        self.__doc__ = func.__doc__

    def __get__(self, obj, cls=None):
        bound = self.func.__get__(cls if obj is None else type(obj))
        if obj is None:
            return bound

        def solved(*args, **kwargs):
            if not args and not kwargs:
                raise ArgumentError(
                    "Board.solved(width, height) builds an ordered goal; to ask whether"
                    " this board is solved, use board.is_solved() or board.is_solved(goal)"
                )
            return bound(*args, **kwargs)

        return solved


class Board:
    """An immutable position: a W x H grid of tiles with exactly one blank.

    Tiles are numbers or letter labels; labels may repeat (identical tiles).
    The blank is ``0``.  A board can be built from any accepted notation.
    Boards never change: :meth:`apply` and :meth:`move` return new boards.  ``repr``
    round-trips; ``print(board)`` shows the grid (the ``grid`` style: ``.`` is the blank);
    in Jupyter a board draws itself (SVG, in the web page's colours).

    Parameters
    ----------
    spec : str, sequence or Board
        ``"1 2 3/4 5 6/7 8 0"``, ``"ABA_/CDCD/ABAB/CDCD"``, ``[[1, 2], [3, 0]]``...
    size : str, optional
        ``"WxH"`` for a one-line board whose size is not a square.

    Examples
    --------
    >>> b = Board("1 2 3/4 5 6/7 8 _")
    >>> b
    Board('1 2 3/4 5 6/7 8 0')
    >>> b.size, b.blank
    ('3x3', 8)
    >>> b[2, 1]
    8
    >>> print(b.apply("D R"))
    1 2 3
    4 . 5
    7 8 6
    >>> b.legal_moves()
    (Move('D', 1), Move('R', 1))
    >>> b.is_solved(), b.move("D").is_solved()
    (True, False)
    """

    __slots__ = ("width", "height", "cells", "_hash")
    width: int
    height: int
    cells: tuple[Cell, ...]
    _hash: int | None

    def __init__(self, spec, size=None):
        if isinstance(spec, Board):
            width, height, cells = spec.width, spec.height, spec.cells
        else:
            width, height, cells = parse_cells(spec, size)
        object.__setattr__(self, "width", width)
        object.__setattr__(self, "height", height)
        object.__setattr__(self, "cells", tuple(cells))
        object.__setattr__(self, "_hash", None)

    @classmethod
    def from_cells(cls, cells: Sequence[Cell], width: int, height: int) -> Board:
        """Build a board from row-major cells (``0`` = blank) without text."""
        cells = tuple(c.item() if hasattr(c, "item") else c for c in cells)
        check_size(width, height)
        if len(cells) != width * height:
            raise BoardError(
                f"a {width}x{height} board has {width * height} cells, got {len(cells)}"
            )
        blanks = cells.count(0)
        if blanks != 1:
            raise BoardError(f"{blanks} blanks; a board has exactly one")
        board = cls.__new__(cls)
        object.__setattr__(board, "width", width)
        object.__setattr__(board, "height", height)
        object.__setattr__(board, "cells", cells)
        object.__setattr__(board, "_hash", None)
        return board

    @_Constructor
    def solved(
        cls, width: int, height: int, blank_first: bool = False, tiles: Iterable[Cell] | None = None
    ) -> Board:
        """The goal with tiles in order and the blank last (or first).

        ``tiles`` defaults to ``1 .. W*H-1``; pass a board's tiles (with
        repeats) to get the ordered goal of a lettered puzzle.

        Examples
        --------
        >>> Board.solved(3, 2)
        Board('1 2 3/4 5 0')
        >>> Board.solved(2, 2, blank_first=True)
        Board('0 1/2 3')
        """
        check_size(width, height)  # before any list of W*H cells is made
        if tiles is None:
            tiles = range(1, width * height)
        ordered = sorted(t for t in tiles if t != 0)
        cells: list[Cell] = [0, *ordered] if blank_first else [*ordered, 0]
        return cls.from_cells(cells, width, height)

    def __setattr__(self, name, value):
        raise AttributeError("Board is immutable")

    # -- pickling: a board goes to worker processes as it is, never read again from text
    def __getstate__(self):
        return (self.width, self.height, self.cells)

    def __setstate__(self, state):
        width, height, cells = state
        object.__setattr__(self, "width", width)
        object.__setattr__(self, "height", height)
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "_hash", None)

    # -- value semantics ---------------------------------------------------
    def __eq__(self, other):
        if not isinstance(other, Board):
            return NotImplemented
        return (self.width, self.height, self.cells) == (other.width, other.height, other.cells)

    def __hash__(self):
        if self._hash is None:
            object.__setattr__(self, "_hash", hash((self.width, self.height, self.cells)))
        return self._hash

    def __repr__(self):
        return f"Board({self.format()!r})"

    def __str__(self):
        return self.format("grid")

    def _repr_svg_(self) -> str:
        """The board as the web page draws it (what Jupyter shows)."""
        return self.to_svg()

    def to_svg(self, goal=None, tile: int = 48) -> str:
        """An SVG picture (see :func:`slidelab.draw.board_svg`): tiles on their cell of
        ``goal`` (default: the ordered goal, :meth:`goal`) are paler, and repeated labels
        are coloured in the goal's order."""
        from .draw import board_svg

        target = self.goal() if goal is None else self._same_shape(goal, "goal")
        return board_svg(self.cells, self.width, self.height, target.cells, tile)

    def __getitem__(self, rc):
        r, c = rc
        if not (0 <= r < self.height and 0 <= c < self.width):
            raise IndexError(f"({r}, {c}) is off a {self.size} board")
        return self.cells[r * self.width + c]

    def __len__(self):
        return len(self.cells)

    def __iter__(self):
        return iter(self.cells)

    # -- properties ------------------------------------------------------------
    @property
    def size(self) -> str:
        """``"WxH"``."""
        return f"{self.width}x{self.height}"

    @property
    def blank(self) -> int:
        """Index of the blank cell (row-major)."""
        return self.cells.index(0)

    @property
    def rows(self) -> list[tuple[Cell, ...]]:
        w = self.width
        return [self.cells[i : i + w] for i in range(0, len(self.cells), w)]

    @property
    def tiles(self) -> Counter:
        """The multiset of tiles (the blank excluded)."""
        return Counter(c for c in self.cells if c != 0)

    @property
    def labels(self) -> tuple[Cell, ...]:
        """Distinct tile labels in sorted order."""
        return tuple(sorted(set(c for c in self.cells if c != 0)))

    @property
    def has_repeats(self) -> bool:
        """True when some label appears on more than one tile."""
        return len(self.labels) < len(self.cells) - 1

    def format(self, style: str = "slash", blank: str = "0") -> str:
        """Text in one of :data:`slidelab.parse.STYLES` (default ``"1 2 3/4 5 6/7 8 0"``)."""
        return format_cells(self.cells, self.width, style, blank)

    def grid(self) -> str:
        """An aligned multi-line picture for people."""
        return self.format("grid")

    def to_list(self) -> list[list[Cell]]:
        """Nested lists by row."""
        return [list(r) for r in self.rows]

    def goal(self, blank_first: bool = False) -> Board:
        """The ordered goal holding this board's tiles."""
        return Board.solved(self.width, self.height, blank_first, self.cells)

    # -- moves -------------------------------------------------------------------
    def apply(self, moves) -> Board:
        """The board after ``moves`` (a move string such as ``"R3 U2 L"`` or moves);
        :class:`~slidelab.errors.IllegalMoveError` names the first move that cannot be made.

        Examples
        --------
        >>> Board("1 2 3/4 5 6/7 0 8").apply("L")
        Board('1 2 3/4 5 6/7 8 0')
        """
        cells = list(self.cells)
        _moves.replay(cells, self.width, self.height, moves)
        return Board.from_cells(cells, self.width, self.height)

    def move(self, move) -> Board:
        """The board after one move (a :class:`~slidelab.moves.Move` or text such as ``"R2"``)."""
        if not isinstance(move, (_moves.Move, str)):
            raise ArgumentError(f"a move must be a Move or text, got {type(move).__name__}")
        moves = _moves.as_moves([move] if isinstance(move, _moves.Move) else move)
        if len(moves) != 1:
            raise ArgumentError(f"{move!r} is {len(moves)} moves; use apply() for a sequence")
        return self.apply(moves)

    def legal_moves(self, metric: str = "stm") -> tuple[_moves.Move, ...]:
        """The moves that can be made, in ``U D L R`` order: single-tile moves (``"stm"``),
        or every slide of one or more tiles in a line (``"mtm"``)."""
        return _moves.legal_moves(self.width, self.height, self.blank, metric)

    def is_solved(self, goal=None) -> bool:
        """Whether this board is ``goal`` (a board or its text; default: the ordered goal
        with the blank last, :meth:`goal`).

        Examples
        --------
        >>> Board("0 1/2 3").is_solved(), Board("0 1/2 3").is_solved("0 1/2 3")
        (False, True)
        """
        if goal is None:
            return self == self.goal()
        return self == self._same_shape(goal, "goal")

    def _same_shape(self, other, what: str) -> Board:
        other = other if isinstance(other, Board) else Board(other)
        if (other.width, other.height) != (self.width, self.height):
            raise BoardError(f"the {what} is {other.size}, the board {self.size}")
        return other

    def mirrored(self) -> Board:
        """The board reflected left-right (each row reversed)."""
        cells = [c for row in self.rows for c in reversed(row)]
        return Board.from_cells(cells, self.width, self.height)

    def transposed(self) -> Board:
        """The board reflected in its main diagonal: row ``r``, column ``c`` goes to row ``c``,
        column ``r`` (a W x H board becomes H x W; a move up becomes a move left).

        >>> Board("1 2 3/4 5 0").transposed()
        Board('1 4/2 5/3 0')
        """
        cells = [
            self.cells[r * self.width + c] for c in range(self.width) for r in range(self.height)
        ]
        return Board.from_cells(cells, self.height, self.width)

    def swapped(self, i: int, j: int) -> Board:
        """The board with cells ``i`` and ``j`` exchanged."""
        cells = list(self.cells)
        cells[i], cells[j] = cells[j], cells[i]
        return Board.from_cells(cells, self.width, self.height)


def apply_moves(board, moves) -> Board:
    """The board after ``moves``; :class:`IllegalMoveError` names the first bad move
    (:meth:`Board.apply` for a board or its text).

    Examples
    --------
    >>> apply_moves("1 2 3/4 5 6/7 0 8", "L")
    Board('1 2 3/4 5 6/7 8 0')
    """
    return Board(board).apply(moves)
