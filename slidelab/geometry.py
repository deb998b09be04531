"""The coordinate convention and the neighbour tables every kernel uses.

Cells are numbered row-major from the top-left corner: cell ``i`` is at row
``i // width`` and column ``i % width``; rows count downwards, columns rightwards.

A move is named by the direction the **tile** travels (``U D L R``, the
community standard): ``R`` slides the tile left of the blank to the right, so the
blank goes left.  Kernels work with the blank's direction, indexed::

    0 = blank up, 1 = blank down, 2 = blank left, 3 = blank right

``d ^ 1`` is the opposite direction.  ``TILE_LETTERS[d]`` is the tile-direction
letter of blank direction ``d`` and ``BLANK_LETTERS[d]`` its blank-direction
letter (lower case, as in the ``udlr`` notation).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy is imported where a table is made: the model reads moves without it
    import numpy as np

UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
BLANK_LETTERS = "udlr"
TILE_LETTERS = "DURL"
TILE_TO_BLANK = {letter: d for d, letter in enumerate(TILE_LETTERS)}
BLANK_TO_BLANK = {letter: d for d, letter in enumerate(BLANK_LETTERS)}
OPPOSITE_TILE = {"U": "D", "D": "U", "L": "R", "R": "L"}


def step(cell: int, d: int, width: int, height: int) -> int:
    """The cell the blank reaches from ``cell`` going ``d`` (blank direction), or -1 off the board.

    Examples
    --------
    >>> step(0, DOWN, 2, 2), step(0, UP, 2, 2)
    (2, -1)
    """
    r, c = divmod(cell, width)
    if d == UP:
        return cell - width if r > 0 else -1
    if d == DOWN:
        return cell + width if r < height - 1 else -1
    if d == LEFT:
        return cell - 1 if c > 0 else -1
    return cell + 1 if c < width - 1 else -1


def neighbour_table(width: int, height: int) -> np.ndarray:
    """``table[cell, d]`` = the cell the blank reaches from ``cell`` going ``d``, or -1.

    Examples
    --------
    >>> neighbour_table(2, 2).tolist()
    [[-1, 2, -1, 1], [-1, 3, 0, -1], [0, -1, -1, 3], [1, -1, 2, -1]]
    """
    import numpy as np

    n = width * height
    return np.array(
        [[step(cell, d, width, height) for d in range(4)] for cell in range(n)], dtype=np.int32
    )


def taxicab_table(goal_codes, width: int, dtype=None) -> np.ndarray:
    """``table[code, cell]``: taxicab distance from ``cell`` to the nearest goal cell of ``code``.

    ``goal_codes`` is the goal board as codes (0 the blank, labels ``1 .. k``),
    row-major with ``width`` columns.  Row 0 (the blank) is all zeros, and so is
    the row of a code with no goal cell.  The one Manhattan-distance table:
    the heuristic's, the pattern-database builds' and the analysis bound's.

    ``dtype`` defaults to ``numpy.int64``.

    Examples
    --------
    >>> import numpy as np
    >>> taxicab_table(np.array([1, 2, 3, 0]), 2).tolist()
    [[0, 0, 0, 0], [0, 1, 1, 2], [1, 0, 2, 1], [1, 2, 0, 1]]
    >>> taxicab_table(np.array([1, 0, 1, 2]), 2, np.int32)[1].tolist()   # two goal cells of code 1
    [0, 1, 0, 1]
    """
    import numpy as np

    goal_codes = np.asarray(goal_codes)
    n = goal_codes.shape[0]
    k = int(goal_codes.max()) if n else 0
    rows, cols = np.divmod(np.arange(n), width)
    table = np.zeros((k + 1, n), dtype=np.int64 if dtype is None else dtype)
    for code in range(1, k + 1):
        cells = np.flatnonzero(goal_codes == code)
        if cells.size:
            dist = np.abs(rows[:, None] - rows[cells][None, :]) + np.abs(
                cols[:, None] - cols[cells][None, :]
            )
            table[code] = dist.min(axis=1)
    return table
