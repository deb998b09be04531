"""A solve's request, read once: what a user gave, as a checked puzzle and checked options.

:func:`read_request` is the one reader of a solve's request: the command line, the web API,
batch and :func:`~slidelab.search.solve.solve` turn the board, the goal, ``blank_first``,
the size and the search options into a :class:`Request` here, so they accept and refuse the
same things in the same words, and each reads a request once: the board parsed once, its
solvability checked once, the method and heuristic names resolved once.  What is below
(:func:`~slidelab.search.solve.solve_request`, the worker processes of the web server and of
batch) takes the :class:`Request` as it is (it pickles) and reads nothing again.

The steps are also public, for front ends that take them apart: :func:`read_options` (once
before any board: a stream's options), :func:`read_puzzle` (a board and its goal) and
:func:`check_request` (a puzzle against the options, and solvable).

Examples
--------
>>> r = read_request("8 6 7/2 5 4/3 0 1", method="IDA*")
>>> r.puzzle.goal, r.options.method
(Board('1 2 3/4 5 6/7 8 0'), 'idastar')
>>> read_request("1 2 3/4 5 6/8 7 0")
Traceback (most recent call last):
...
slidelab.errors.UnsolvableError: unsolvable: permutation parity is odd, ...
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import _args
from ..errors import UnsolvableError
from ..puzzle import Puzzle
from .options import SearchOptions, options_of


@dataclass(frozen=True)
class Request:
    """A solve's request, read and checked (:func:`read_request`): trusted from here on.

    Attributes
    ----------
    puzzle : Puzzle
        The start and the goal; solvable, and the options' partition fits it.
    options : SearchOptions
        The search options, checked and canonical.
    """

    puzzle: Puzzle
    options: SearchOptions


def read_options(options: SearchOptions | None = None, *, names=None, **given) -> SearchOptions:
    """The search options, checked and canonical (:func:`~.options.check_options`): ``options``
    as they are, or those ``given`` by name, never both; ``names`` maps an option to what the
    caller calls it in messages (``{"max_bytes": "--max-memory"}``)."""
    if options is None:
        from .options import check_options

        return check_options(names=names, **given)
    return options_of(options, **given)


def read_puzzle(board, goal=None, *, blank_first: bool = False, size=None) -> Puzzle:
    """The puzzle of a board (a :class:`Puzzle` as it is, or a board or its text) and its goal
    (a board, its text, a size ``WxH``, or None: the ordered goal, the blank first with
    ``blank_first``), as :class:`~slidelab.puzzle.Puzzle` reads them (``size``: the size of
    one-line text)."""
    if isinstance(board, Puzzle):
        return board
    return Puzzle(board, goal, blank_first=_args.boolean(blank_first, "blank_first"), size=size)


def check_request(puzzle: Puzzle, options: SearchOptions, names: dict | None = None) -> Request:
    """``puzzle`` with ``options`` as a :class:`Request`, once the options' partition is checked
    to fit the puzzle (:func:`check_partition_fits`) and the puzzle to be solvable (an
    unsolvable one's message names what fixes it, in the words of ``names``: see
    :func:`slidelab.solvability.check`).

    Raises
    ------
    SlidelabError
        A partition whose groups do not fit the puzzle.
    UnsolvableError
        The goal cannot be reached (the message gives the reason).
    """
    from ..solvability import check

    check_partition_fits(puzzle, options.partition)
    verdict = check(puzzle, names=names)
    if not verdict.solvable:
        raise UnsolvableError(verdict.reason)
    return Request(puzzle, options)


def read_request(
    board,
    goal=None,
    *,
    blank_first: bool = False,
    size=None,
    options: SearchOptions | None = None,
    names: dict | None = None,
    **given,
) -> Request:
    """What a user gave for a solve, read once and checked: a :class:`Request`.

    Parameters
    ----------
    board : Board, Puzzle or str
        The start (or a whole :class:`Puzzle`, then ``goal``, ``blank_first`` and
        ``size`` are not used).
    goal, blank_first, size
        As for :func:`slidelab.solve` (see :func:`read_puzzle`).
    options : SearchOptions, optional
        The search options, already read (:func:`read_options`): taken as they are.
    names : dict, optional
        What the caller calls the options in messages (``{"max_bytes": "--max-memory"}``).
    **given
        Otherwise the options by name (``method``, ``heuristic``, ... : the fields of
        :class:`~slidelab.search.options.SearchOptions`).

    Raises
    ------
    SlidelabError
        Bad options, a board that cannot be read, start and goal that do not match, a goal
        board with ``blank_first``, a partition that does not fit.
    UnsolvableError
        The goal cannot be reached.
    """
    options = read_options(options, names=names, **given)
    puzzle = read_puzzle(board, goal, blank_first=blank_first, size=size)
    return check_request(puzzle, options, names)


def check_partition_fits(puzzle: Puzzle, partition) -> None:
    """Refuse a partition whose groups do not fit the puzzle ("junk", "1,2/3", "7-8" on a 3x3)."""
    if partition is not None and not (
        isinstance(partition, str) and partition.strip().lower() in ("auto", "full")
    ):
        from ..tables.pdb.layout import parse_partition

        parse_partition(puzzle, partition)


__all__ = [
    "Request",
    "check_partition_fits",
    "check_request",
    "read_options",
    "read_puzzle",
    "read_request",
]
