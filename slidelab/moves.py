"""Moves and the move algebra.

A :class:`Move` is a direction and an amount: ``Move('R', 3)`` (written ``R3``)
slides the three tiles left of the blank one cell right each, which is three
single-tile moves (STM) or one multi-tile move (MTM).  Directions name where the
**tile** goes (``U D L R``); the blank goes the other way.  Blank-direction
notation (``u d l r``, lower case) and tile numbers are available on request.

Examples
--------
>>> moves = parse_moves("R3 U2 L")
>>> format_moves(moves)
'R3 U2 L'
>>> format_moves(invert(moves), sep="")
'RD2L3'
>>> stm(moves), mtm(moves)
(6, 3)
>>> format_moves(simplify(parse_moves("R R L U D D")))
'R D'
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from . import _args
from .errors import ArgumentError, IllegalMoveError, ParseError
from .geometry import BLANK_LETTERS, TILE_LETTERS, step
from .parse import MAX_BOARD_CELLS, Cell, parse_cells

DIRECTIONS = "UDLR"
_OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}
_BLANK_OF_TILE = {t: b for t, b in zip(TILE_LETTERS, BLANK_LETTERS, strict=True)}
_TILE_OF_BLANK = {b: t for t, b in _BLANK_OF_TILE.items()}
_TOKEN = re.compile(r"\s*([A-Za-z])(\d*)\s*,?")
NOTATIONS = ("tile", "blank", "numbers")
#: move metrics: single-tile moves, or multi-tile moves (a slide of several tiles in a line is one)
METRICS = ("stm", "mtm")


@dataclass(frozen=True)
class Move:
    """Slide tiles ``amount`` cells in ``direction`` (the tiles' direction).

    Examples
    --------
    >>> Move('R', 3)
    Move('R', 3)
    >>> str(Move('U'))
    'U'
    >>> Move.parse("L2")
    Move('L', 2)
    """

    direction: str
    amount: int = 1

    def __post_init__(self):
        if self.direction not in _OPPOSITE:
            raise ParseError(
                f"move direction {_args.show(self.direction)} is not one of U, D, L, R"
            )
        if not _args.is_integer(self.amount) or not 1 <= self.amount <= MAX_BOARD_CELLS:
            raise ParseError(
                f"move amount {_args.show(self.amount)} must be a whole number"
                f" from 1 to {MAX_BOARD_CELLS:,}"
            )

    def __repr__(self):
        return f"Move({self.direction!r}, {self.amount})"

    def __str__(self):
        return self.direction if self.amount == 1 else f"{self.direction}{self.amount}"

    @classmethod
    def parse(cls, text: str) -> Move:
        moves = parse_moves(text)
        if len(moves) != 1:
            raise ParseError(f"{text!r} is not a single move")
        return moves[0]

    @property
    def inverse(self) -> Move:
        return Move(_OPPOSITE[self.direction], self.amount)

    @property
    def blank_direction(self) -> str:
        """The blank's direction letter (``u d l r``)."""
        return _BLANK_OF_TILE[self.direction]


def parse_moves(text, notation: str = "tile") -> tuple[Move, ...]:
    """Read a move string such as ``"R3 U2 L"``, ``"R3U2L"`` or ``"R,R,U"``.

    Parameters
    ----------
    text : str or iterable of Move
    notation : {"tile", "blank"}
        ``tile`` (default): upper-case ``U D L R`` name where the tile goes.
        ``blank``: ``u d l r`` (either case) name where the blank goes.
    """
    if not isinstance(text, str):
        if not isinstance(text, Iterable):
            raise ArgumentError(
                f"moves must be a move string or a sequence of moves, got {_args.show(text)}"
            )
        out: list[Move] = []
        for m in text:
            if not isinstance(m, (Move, str)):
                raise ArgumentError(f"a move must be a Move or text, got {_args.show(m)}")
            out.append(m if isinstance(m, Move) else Move.parse(m))
        return tuple(out)
    if notation not in ("tile", "blank"):
        raise ParseError(f"unknown move notation {notation!r}; choose tile or blank")
    out = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if not match:
            raise ParseError(f"unexpected {text[pos]!r} at character {pos + 1} of the move string")
        letter, digits = match.group(1), match.group(2)
        where = f"at character {match.start(1) + 1} of the move string"
        if notation == "blank":
            if letter.lower() not in _TILE_OF_BLANK:
                raise ParseError(f"{letter!r} {where} is not a blank direction (u, d, l, r)")
            direction = _TILE_OF_BLANK[letter.lower()]
        else:
            if letter in _BLANK_OF_TILE:
                direction = letter
            elif letter in _TILE_OF_BLANK:
                raise ParseError(
                    f"lower-case {letter!r} {where} is blank-direction notation;"
                    " write U D L R, or ask for the blank notation"
                )
            else:
                raise ParseError(f"{letter!r} {where} is not a move (U, D, L, R)")
        if len(digits) > len(str(MAX_BOARD_CELLS)) or (digits and int(digits) > MAX_BOARD_CELLS):
            raise ParseError(
                f"move {letter}{digits[:8]}{'...' if len(digits) > 8 else ''} {where}"
                f" slides more than {MAX_BOARD_CELLS:,} cells"
            )
        amount = int(digits) if digits else 1
        if amount < 1:
            raise ParseError(f"move {match.group(0).strip()!r} {where} has amount 0")
        out.append(Move(direction, amount))
        pos = match.end()
    return tuple(out)


def as_moves(moves) -> tuple[Move, ...]:
    """Accept a move string or a sequence of moves."""
    return parse_moves(moves)


def expand(moves) -> tuple[Move, ...]:
    """Single-tile moves: ``R3`` becomes ``R R R``."""
    return tuple(Move(m.direction) for m in as_moves(moves) for _ in range(m.amount))


def runs(moves) -> tuple[Move, ...]:
    """Merge consecutive moves in the same direction (``R R`` to ``R2``).

    A run longer than the longest move (:data:`~slidelab.parse.MAX_BOARD_CELLS` cells: no board
    has a longer line) stays several moves: ``R`` 40,000 times is ``R32768 R7232``.
    """
    out: list[Move] = []
    for m in as_moves(moves):
        if out and out[-1].direction == m.direction:
            _merge(out, m.direction, m.amount)
        else:
            out.append(m)
    return tuple(out)


def _merge(out: list[Move], direction: str, amount: int) -> None:
    """Add ``amount`` to the last move of ``out`` (in ``direction``), up to the longest move;
    the rest is a move of its own."""
    total = out[-1].amount + amount
    out[-1] = Move(direction, min(total, MAX_BOARD_CELLS))
    if total > MAX_BOARD_CELLS:
        out.append(Move(direction, total - MAX_BOARD_CELLS))


def simplify(moves) -> tuple[Move, ...]:
    """Merge runs and cancel moves that undo each other (``R2 L`` to ``R``).

    The result has the same effect on any board where ``moves`` is legal.
    """
    out: list[Move] = []
    for m in as_moves(moves):
        amount, direction = m.amount, m.direction
        while amount and out:
            top = out[-1]
            if top.direction == direction:
                _merge(out, direction, amount)
                amount = 0
            elif top.direction == _OPPOSITE[direction]:
                if top.amount > amount:
                    out[-1] = Move(top.direction, top.amount - amount)
                    amount = 0
                else:
                    amount -= top.amount
                    out.pop()
            else:
                break
        if amount:
            out.append(Move(direction, amount))
    return tuple(out)


def invert(moves) -> tuple[Move, ...]:
    """The moves that undo ``moves``: reversed, each direction flipped."""
    return tuple(m.inverse for m in reversed(as_moves(moves)))


def stm(moves) -> int:
    """Length in single-tile moves."""
    return sum(m.amount for m in as_moves(moves))


def mtm(moves) -> int:
    """Length in multi-tile moves (a run in one direction counts once)."""
    return len(runs(moves))


def format_moves(moves, notation: str = "tile", sep: str = " ", board=None) -> str:
    """Write moves as text.

    Parameters
    ----------
    notation : {"tile", "blank", "numbers"}
        ``tile``: ``R3 U2 L`` (default); ``blank``: ``l3 d2 r``; ``numbers``:
        the tile moved at each single-tile move (needs ``board``, the start).
    sep : str
        Between moves; ``""`` gives the compact ``R3U2L``.
    """
    moves = as_moves(moves)
    _args.text(sep, "sep")
    if notation == "tile":
        return sep.join(str(m) for m in moves)
    if notation == "blank":
        return sep.join(m.blank_direction + (str(m.amount) if m.amount > 1 else "") for m in moves)
    if notation == "numbers":
        if board is None:
            raise ParseError("tile-number notation needs the start board")
        return (sep or " ").join(str(t) for t in moved_tiles(board, moves))
    raise ParseError(f"unknown move notation {notation!r}; choose tile, blank or numbers")


def _grid(board) -> tuple[list[Cell], int, int]:
    """Cells, width and height of a board (a :class:`~slidelab.board.Board` or board text)."""
    if hasattr(board, "cells"):
        return list(board.cells), board.width, board.height
    width, height, cells = parse_cells(board)
    return list(cells), width, height


def replay(cells: list[Cell], width: int, height: int, moves) -> list[Cell]:
    """Slide ``moves`` on row-major ``cells`` in place; return the tile moved at each
    single-tile move.  :class:`IllegalMoveError` names the first move that has no tile
    to slide (the cells then hold the position before it).

    This is the one replay of moves on a board: :meth:`Board.apply
    <slidelab.board.Board.apply>`, :func:`moved_tiles` and tile-number notation use it.
    """
    blank = cells.index(0)
    moved = []
    for i, m in enumerate(as_moves(moves)):
        d = TILE_LETTERS.index(m.direction)
        for _ in range(m.amount):
            nxt = step(blank, d, width, height)
            if nxt < 0:
                side = {"U": "below", "D": "above", "L": "right of", "R": "left of"}[m.direction]
                raise IllegalMoveError(
                    f"move {i + 1} ({m}) is illegal: no tile {side} the blank"
                    f" at row {blank // width + 1}, column {blank % width + 1}"
                )
            moved.append(cells[nxt])
            cells[blank], cells[nxt] = cells[nxt], 0
            blank = nxt
    return moved


def moved_tiles(board, moves) -> list:
    """The tile moved at each single-tile move, starting from ``board`` (a board or its text)."""
    cells, width, height = _grid(board)
    return replay(cells, width, height, moves)


def legal_moves(width: int, height: int, blank: int, metric: str = "stm") -> tuple[Move, ...]:
    """The moves that can be made with the blank at cell ``blank``, in ``U D L R`` order.

    ``metric="stm"``: the single-tile moves (two to four); ``"mtm"``: every slide of
    one or more tiles in a line (``R``, ``R2``, ...), each one multi-tile move.
    """
    metric = metric_name(metric)
    r, c = divmod(blank, width)
    room = {"U": height - 1 - r, "D": r, "L": width - 1 - c, "R": c}
    top = 1 if metric == "stm" else max(room.values())
    return tuple(Move(d, k) for d in DIRECTIONS for k in range(1, min(room[d], top) + 1))


def metric_name(metric, name: str = "metric") -> str:
    """The metric ``stm`` or ``mtm`` (any case), or a one-line error naming ``name``.

    >>> metric_name("MTM")
    'mtm'
    """
    key = _args.text(metric, name).strip().lower()
    if key not in METRICS:
        raise ArgumentError(f"unknown {name} {_args.show(metric)}; choose stm or mtm")
    return key


def metric_keyword(metric: str) -> str:
    """A repr's last argument, the metric, named only where it is not the default ``stm``.

    >>> metric_keyword("mtm"), metric_keyword("stm")
    (", metric='mtm'", '')
    """
    return "" if metric == "stm" else f", metric={metric!r}"


def reach(metric: str, width: int, height: int) -> int:
    """The most tiles one move slides in ``metric``: 1 in STM; in MTM, a whole line but the
    blank (``max(width, height) - 1``).  Search kernels try amounts ``1 .. reach``.

    >>> reach("stm", 4, 4), reach("mtm", 4, 4), reach("mtm", 7, 2)
    (1, 3, 6)
    """
    return 1 if metric_name(metric) == "stm" else max(1, max(width, height) - 1)


def from_blank_path(directions: Iterable[int]) -> tuple[Move, ...]:
    """Moves (merged into runs, as :func:`runs` merges) from kernel blank-direction indices
    0..3: a move a run, not one a step merged after (a solution of a stream is made in the
    time of its search's last nodes)."""
    out: list[Move] = []
    for d, steps in itertools.groupby(int(d) for d in directions):
        left = sum(1 for _ in steps)
        while left:
            out.append(Move(TILE_LETTERS[d], min(left, MAX_BOARD_CELLS)))
            left -= out[-1].amount
    return tuple(out)
