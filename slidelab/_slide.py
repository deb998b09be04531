"""The kernels' one shared board move: sliding tiles back after a slide was tried.

A kernel tries a slide of one or more tiles by walking the blank along a neighbour
table (:func:`slidelab.geometry.neighbour_table`) in direction ``d``; :func:`slide_back`
undoes it, walking the blank back the opposite way (``d ^ 1``).  Inlined into each
kernel (IDA*'s, the best-first searches', the breadth-first layers', the abstraction
tables' walk), so it costs no call.

Examples
--------
>>> import numpy as np
>>> from slidelab.geometry import neighbour_table
>>> board, nbr = np.array([1, 2, 0, 3, 4, 5]), neighbour_table(3, 2)
>>> board[2], board[1], board[0] = 2, 1, 0          # the blank slid two cells left
>>> slide_back(board, nbr, 0, 2, 2)                 # from cell 0 back to cell 2
>>> board.tolist()
[1, 2, 0, 3, 4, 5]
"""

from __future__ import annotations

from ._jit import njit


@njit(cache=True, inline="always")
def slide_back(board, nbr, cur, blank, d):
    """Undo a slide in blank direction ``d`` that took the blank from ``blank`` to ``cur``."""
    while cur != blank:
        prev = nbr[cur, d ^ 1]
        board[cur] = board[prev]
        board[prev] = 0
        cur = prev
