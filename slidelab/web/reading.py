"""Reading a request's boards, goal and options in the API's words: the shared readers
(:mod:`slidelab.search.request`), the server's cap on cells, and the answers they refuse with
(bad input 400 naming its field, an unsolvable board 422)."""

from __future__ import annotations

from contextlib import contextmanager

from ..errors import SlidelabError, UnsolvableError
from ..parse import is_size, parse_size
from ..search.request import read_options, read_puzzle
from .errors import ApiError, input_error, one_line
from .lanes import MAX_CELLS

#: what makes an unsolvable board solvable, in the API's words (its field, the page's action)
FIX_NAMES = {"blank_first": "blank_first: true", "fix": "swap any two tiles"}


@contextmanager
def refusals():
    """What the shared readers refuse, answered in the API's words: bad input 400, an
    unsolvable board 422."""
    try:
        yield
    except UnsolvableError as exc:
        raise ApiError(422, one_line(str(exc)), kind="unsolvable") from None
    except SlidelabError as exc:
        raise input_error(str(exc)) from None


def capped(board, what: str = "board"):
    """``board``, refused (400) past :data:`~.lanes.MAX_CELLS` cells."""
    if board.width * board.height > MAX_CELLS:
        raise ApiError(400, f"{what} of {board.width * board.height} cells: at most {MAX_CELLS}")
    return board


def goal_of(spec: str | None, size: str | None = None, blank_first: bool = False):
    """A goal board (its labels may repeat) from board text or a size ``WxH``, or from a size
    alone, read by :func:`slidelab.puzzle.goal_board` (sizes are capped before the board is
    made)."""
    from ..puzzle import goal_board

    for text in (spec, size):
        if text is not None and is_size(text):
            with refusals():
                width, height = parse_size(text)
            if width * height > MAX_CELLS:
                raise ApiError(400, f"size {text.strip()}: at most {MAX_CELLS} cells")
    with refusals():
        return capped(goal_board(spec, size=size, blank_first=blank_first), "goal")


def puzzle_of(body):
    """The puzzle of a request (start, goal), read and capped (checked with its options, and
    solvable, by :func:`~slidelab.search.request.check_request`)."""
    with refusals():
        puzzle = read_puzzle(body.board, body.goal, blank_first=body.blank_first, size=body.size)
    capped(puzzle.start)
    return puzzle


def options_of(**given):
    """The search options ``given``, read once (:func:`~slidelab.search.request.read_options`);
    an option refused is answered 400 naming its field."""
    try:
        return read_options(**given)
    except SlidelabError as exc:
        field = getattr(exc, "option", None)
        raise input_error(str(exc), **({"field": field} if field else {})) from None


def cells(board) -> list:
    """A board's cells, row by row (the page's board)."""
    return [c for row in board.to_list() for c in row]
