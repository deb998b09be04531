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

import numpy as np

UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
BLANK_LETTERS = "udlr"
TILE_LETTERS = "DURL"
TILE_TO_BLANK = {letter: d for d, letter in enumerate(TILE_LETTERS)}
BLANK_TO_BLANK = {letter: d for d, letter in enumerate(BLANK_LETTERS)}
OPPOSITE_TILE = {"U": "D", "D": "U", "L": "R", "R": "L"}


def neighbour_table(width: int, height: int) -> np.ndarray:
    """``table[cell, d]`` = the cell the blank reaches from ``cell`` going ``d``, or -1.

    Examples
    --------
    >>> neighbour_table(2, 2).tolist()
    [[-1, 2, -1, 1], [-1, 3, 0, -1], [0, -1, -1, 3], [1, -1, 2, -1]]
    """
    n = width * height
    table = np.full((n, 4), -1, dtype=np.int32)
    for cell in range(n):
        r, c = divmod(cell, width)
        if r > 0:
            table[cell, UP] = cell - width
        if r < height - 1:
            table[cell, DOWN] = cell + width
        if c > 0:
            table[cell, LEFT] = cell - 1
        if c < width - 1:
            table[cell, RIGHT] = cell + 1
    return table
