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
from collections.abc import Iterator

from . import _args
from .board import Board
from .errors import ArgumentError, SlidelabError
from .geometry import neighbour_table
from .puzzle import Puzzle, goal_board
from .solvability import check

#: the most positions one call makes (:func:`random_boards`, :func:`iter_random_boards`, ``generate -n``)
MAX_BOARDS = 1_000_000
#: the longest random walk (:func:`scramble`, ``generate --moves``): about 1.2 s a million moves
MAX_WALK = 10_000_000
#: the most cells :func:`random_boards` returns in one list (stream more with :func:`iter_random_boards`)
MAX_LIST_CELLS = 100_000_000
#: seconds :func:`slidelab.positions_at_distance` (``generate --distance``) may search on boards
#: too large to search whole
DISTANCE_TIME_LIMIT = 60.0


def make_rng(seed):
    """A ``random.Random`` from a seed: None, a whole number, text or bytes, or a ``Random`` itself
    (returned as it is).

    Raises
    ------
    ArgumentError
        ``seed`` is none of these.
    """
    if isinstance(seed, _random.Random):
        return seed
    if seed is None or _args.is_integer(seed):
        return _random.Random(None if seed is None else int(seed))
    if isinstance(seed, (str, bytes, bytearray)):
        return _random.Random(seed)
    raise ArgumentError(
        f"seed must be a whole number, text or a random.Random, got {_args.show(seed)}"
    )


def _goal(size, goal, blank_first) -> Board:
    """The goal of ``size`` and ``goal`` (a board, board text, or a size WxH), which must agree
    when both are given: :func:`slidelab.puzzle.goal_board` reads them, as everywhere."""
    return goal_board(goal, size=size, blank_first=blank_first)


def _walk_length(moves) -> int:
    return _args.integer(
        moves,
        "moves",
        minimum=0,
        maximum=MAX_WALK,
        why=" (the longest random walk; use a uniformly random position instead)",
    )


def board_count(n) -> int:
    """``n``, checked as the number of positions a call makes: a whole number from 0 to
    :data:`MAX_BOARDS` (an :class:`~slidelab.errors.ArgumentError` otherwise)."""
    return _args.integer(
        n, "n", minimum=0, maximum=MAX_BOARDS, why=" (the most positions a call makes)"
    )


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
    seed : int, str or random.Random, optional
    """
    rng = make_rng(seed)
    return _random_board(_goal(size, goal, blank_first), rng)


def _random_board(goal: Board, rng) -> Board:
    cells = list(goal.cells)
    rng.shuffle(cells)
    board = Board.from_cells(cells, goal.width, goal.height)
    if not check(Puzzle(board, goal)).solvable:
        i, j = [k for k, c in enumerate(cells) if c != 0][:2]
        board = board.swapped(i, j)
    return board


def scramble(moves: int, size=None, goal=None, *, blank_first: bool = False, seed=None) -> Board:
    """The goal after a random walk of ``moves`` single-tile moves, never stepping straight back.

    The walk's length is an upper bound on the distance to the goal; at most :data:`MAX_WALK`.
    """
    moves = _walk_length(moves)
    rng = make_rng(seed)
    return random_walk(_goal(size, goal, blank_first), moves, rng)


def random_walk(goal: Board, moves: int, rng) -> Board:
    """``goal`` after a random walk of ``moves`` single-tile moves drawn from ``rng`` (a
    ``random.Random``), never stepping straight back; the arguments are not checked
    (:func:`scramble` checks them)."""
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
    how = _args.text(how, "how")
    if how not in ("swap", "mirror"):
        raise SlidelabError(f"unknown fix {how!r}; choose swap or mirror")
    puzzle = Puzzle(board, goal, blank_first=_args.boolean(blank_first, "blank_first"))
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
                f"mirroring does not change the parity of this {board.size} board; use swap"
            )
        return mirrored
    raise SlidelabError(f"unknown fix {how!r}; choose swap or mirror")


def iter_random_boards(
    n: int, size=None, goal=None, *, moves: int | None = None, blank_first: bool = False, seed=None
) -> Iterator[Board]:
    """``n`` positions, made one at a time: uniformly random, or random walks of ``moves`` moves.

    The arguments are checked at once (``n`` at most :data:`MAX_BOARDS`,
    ``moves`` at most :data:`MAX_WALK`); the boards are made as they are taken,
    so ``slidelab generate`` prints the first before the last is made.

    Examples
    --------
    >>> boards = iter_random_boards(2, "3x3", seed=1)
    >>> [b.size for b in boards]
    ['3x3', '3x3']
    """
    return _boards(*_plan(n, size, goal, moves, blank_first, seed))


def _plan(n, size, goal, moves, blank_first, seed):
    """The checked ``(n, goal, moves, rng)`` of a call making ``n`` boards."""
    n = board_count(n)
    if moves is not None:
        moves = _walk_length(moves)
    rng = make_rng(seed)
    return n, _goal(size, goal, blank_first), moves, rng


def _boards(n, goal, moves, rng) -> Iterator[Board]:
    for _ in range(n):
        yield _random_board(goal, rng) if moves is None else random_walk(goal, moves, rng)


def random_boards(
    n: int, size=None, goal=None, *, moves: int | None = None, blank_first: bool = False, seed=None
) -> list[Board]:
    """``n`` positions: uniformly random, or random walks of ``moves`` moves.

    A list of at most :data:`MAX_LIST_CELLS` cells in all; :func:`iter_random_boards`
    makes them one at a time.
    """
    n, target, moves, rng = _plan(n, size, goal, moves, blank_first, seed)
    cells = n * target.width * target.height
    if cells > MAX_LIST_CELLS:
        raise SlidelabError(
            f"{n:,} boards of {target.size} make a list of {cells:,} cells, over"
            f" the limit of {MAX_LIST_CELLS:,}; iter_random_boards makes them one"
            " at a time"
        )
    return list(_boards(n, target, moves, rng))
