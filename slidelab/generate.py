"""Making positions: uniformly random solvable boards, random-walk scrambles, parity fixes.

Examples
--------
>>> random_board("3x3", seed=1) == random_board("3x3", seed=1)
True
>>> from slidelab import check
>>> check(random_board("4x4", seed=7)).solvable
True
"""

from __future__ import annotations

import random as _random
from typing import Optional

from .board import Board
from .errors import SlidelabError
from .geometry import neighbour_table
from .parse import parse_size
from .puzzle import Puzzle, as_board
from .solvability import check


def _rng(seed):
    return seed if isinstance(seed, _random.Random) else _random.Random(seed)


def _goal(size, goal, blank_first) -> Board:
    if goal is not None:
        goal = as_board(goal)
        if size is not None and parse_size(size) != (goal.width, goal.height):
            raise SlidelabError(f"size {size} does not match the {goal.size} goal")
        return goal
    if size is None:
        raise SlidelabError("give a size (WxH) or a goal")
    width, height = parse_size(size)
    return Board.solved(width, height, blank_first)


def random_board(size=None, goal=None, *, blank_first: bool = False, seed=None) -> Board:
    """A uniformly random position solvable to ``goal``.

    The tiles are shuffled uniformly; when the result is unsolvable, the tiles in
    the first two non-blank cells are exchanged.  That exchange maps the
    unsolvable arrangements one-to-one onto the solvable ones, so each solvable
    position is equally likely.

    Parameters
    ----------
    size : str, optional
        ``"WxH"``; the goal is then the ordered one.
    goal : Board or str, optional
    seed : int or random.Random, optional
    """
    goal = _goal(size, goal, blank_first)
    rng = _rng(seed)
    cells = list(goal.cells)
    rng.shuffle(cells)
    board = Board.from_cells(cells, goal.width, goal.height)
    if not check(Puzzle(board, goal)).solvable:
        i, j = [k for k, c in enumerate(cells) if c != 0][:2]
        board = board.swapped(i, j)
    return board


def scramble(moves: int, size=None, goal=None, *, blank_first: bool = False, seed=None) -> Board:
    """The goal after a random walk of ``moves`` single-tile moves, never stepping straight back.

    The walk's length is an upper bound on the distance to the goal.
    """
    if not isinstance(moves, int) or moves < 0:
        raise SlidelabError(f"number of moves must be a non-negative integer, got {moves!r}")
    goal = _goal(size, goal, blank_first)
    rng = _rng(seed)
    nbr = neighbour_table(goal.width, goal.height).tolist()
    cells = list(goal.cells)
    blank, back = goal.blank, -1
    for _ in range(moves):
        options = [nb for d, nb in enumerate(nbr[blank]) if nb >= 0 and nb != back]
        nb = rng.choice(options)
        cells[blank], cells[nb] = cells[nb], 0
        back, blank = blank, nb
    return Board.from_cells(cells, goal.width, goal.height)


def fix_parity(board, goal=None, *, how: str = "swap", blank_first: bool = False) -> Board:
    """Turn an unsolvable shuffle into a solvable position (solvable ones come back unchanged).

    Parameters
    ----------
    how : {"swap", "mirror"}
        ``swap`` exchanges the tiles in the first two non-blank cells;
        ``mirror`` reflects the board left-right, which fixes the parity only on
        some sizes (an error says so otherwise).
    """
    puzzle = Puzzle(board, goal, blank_first=blank_first)
    board = puzzle.start
    if check(puzzle).solvable:
        return board
    if how == "swap":
        i, j = [k for k, c in enumerate(board.cells) if c != 0][:2]
        return board.swapped(i, j)
    if how == "mirror":
        mirrored = board.mirrored()
        if not check(Puzzle(mirrored, puzzle.goal)).solvable:
            raise SlidelabError(
                f"mirroring does not change the parity of this {board.size} board; use swap")
        return mirrored
    raise SlidelabError(f"unknown fix {how!r}; choose swap or mirror")


def random_boards(n: int, size=None, goal=None, *, moves: Optional[int] = None,
                  blank_first: bool = False, seed=None) -> list[Board]:
    """``n`` positions: uniformly random, or random walks of ``moves`` moves."""
    rng = _rng(seed)
    if moves is None:
        return [random_board(size, goal, blank_first=blank_first, seed=rng) for _ in range(n)]
    return [scramble(moves, size, goal, blank_first=blank_first, seed=rng) for _ in range(n)]
