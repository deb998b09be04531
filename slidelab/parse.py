"""Reading boards and sizes from text.

Accepted board notations (rows are listed top to bottom, cells left to right):

* rows separated by ``/`` or newlines: ``"1 2 3/4 5 6/7 8 0"``;
* cells separated by spaces or commas; a row with no separator is read one
  character per cell: ``"ABA_/CDCD/ABAB/CDCD"``, ``"123/456/780"``;
* the blank written as ``0``, ``_``, ``.``, ``x`` or ``*``;
* the contest style, all cells on one line: ``"1 2 3 x 4 6 7 5 8"``; the size is
  then the one given, or the square that fits the number of cells;
* JSON arrays, nested by row (``[[1,2,3],[4,5,6],[7,8,0]]``) or flat.

Tiles are either all numbers or all letter labels (``A``, ``B``, ``red``...);
labels may repeat.  The functions here return plain values; :class:`slidelab.Board`
wraps them.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence

from .errors import BoardError, ParseError

Cell = int | str

BLANK_TOKENS = frozenset({"0", "_", ".", "x", "*"})
#: tile numbers have at most this many digits (no board comes near; longer ones are typos or abuse)
MAX_NUMBER_DIGITS = 18
_INT = re.compile(rf"\d{{1,{MAX_NUMBER_DIGITS}}}\Z")
_LABEL = re.compile(r"[A-Za-z][A-Za-z0-9]*\Z")
_SEPARATORS = re.compile(r"[\s,;]+")
_ROW_SPLIT = re.compile(r"\s*(?:/|\r?\n)\s*")
_SIZE = re.compile(r"\s*(\d+)\s*[xX\u00d7]\s*(\d+)\s*\Z")


#: the most cells a board may have (for example 181x181 or 128x256): the search kernels code
#: the tiles' labels as 16-bit integers, so at most 32,767 tiles and the blank.  Every size and
#: board read is checked against it (:func:`check_size`) before anything of that size is made
MAX_BOARD_CELLS = 2**15
#: digits a width or height may have (more are refused before being converted to a number)
_MAX_SIDE_DIGITS = 30


def is_size(text) -> bool:
    """Whether ``text`` is written as a size ``WxH`` (``4x4``, ``4 X 4``, ``4×4``), not a board.

    >>> is_size("3×3"), is_size("3x3"), is_size("1 2 3/4 5 6/7 8 0")
    (True, True, False)
    """
    return isinstance(text, str) and _SIZE.match(text) is not None


def parse_size(text) -> tuple[int, int]:
    """Read a size written ``WxH`` (width x height), e.g. ``"4x3"``, or a ``(width, height)`` pair.

    Both sides must be at least 2, and the board at most :data:`MAX_BOARD_CELLS` cells.

    Examples
    --------
    >>> parse_size("4x3")
    (4, 3)
    >>> parse_size("100000x100000")
    Traceback (most recent call last):
    ...
    slidelab.errors.BoardError: a 100000x100000 board has 10,000,000,000 cells, over the limit of 32,768 ...
    """
    from ._args import integer, show
    from .errors import ArgumentError

    if isinstance(text, tuple):
        if len(text) != 2:
            raise ArgumentError(
                f"size must be WxH text or a (width, height) pair, got {show(text)}"
            )
        width, height = (
            integer(v, f"size's {side}") for v, side in zip(text, ("width", "height"), strict=True)
        )
    elif isinstance(text, str):
        match = _SIZE.match(text)
        if not match:
            raise ParseError(f"size {show(text)} is not of the form WxH (for example 4x4)")
        for digits in match.groups():
            if len(digits) > _MAX_SIDE_DIGITS:
                raise BoardError(
                    f"size {show(text)}: a side of {len(digits):,} digits is over the"
                    f" limit of {MAX_BOARD_CELLS:,} cells a board may have"
                )
        width, height = int(match.group(1)), int(match.group(2))
    else:
        raise ArgumentError(f"size must be WxH text or a (width, height) pair, got {show(text)}")
    check_size(width, height)
    return width, height


def check_size(width: int, height: int) -> None:
    """Refuse boards on which nothing can slide around (a row or a column), and boards over
    :data:`MAX_BOARD_CELLS` cells."""
    if width < 2 or height < 2:
        raise BoardError(
            f"a {width}x{height} board is too narrow: width and height must both be at least 2"
        )
    if width * height > MAX_BOARD_CELLS:
        raise BoardError(
            f"a {width}x{height} board has {width * height:,} cells, over the limit"
            f" of {MAX_BOARD_CELLS:,} (for example 181x181)"
        )


def _where(row: int, col: int, flat: bool, width: int) -> str:
    if flat:
        return f"cell {row * width + col + 1}"
    return f"row {row + 1}, column {col + 1}"


def _shown(token: str) -> str:
    """A token quoted for a message, cut short when long."""
    return repr(token if len(token) <= 40 else token[:37] + "...")


def _split_rows(text: str) -> list[list[str]]:
    rows = _ROW_SPLIT.split(text.strip())
    separated = any(_SEPARATORS.search(row) for row in rows)
    out = []
    for i, row in enumerate(rows):
        if not row:
            raise ParseError(f"row {i + 1} is empty")
        if separated:
            tokens = [t for t in _SEPARATORS.split(row) if t]
        else:
            tokens = list(row)
        out.append(tokens)
    return out


def _json_rows(text: str) -> tuple[list[list[str]], bool]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(f"invalid JSON board: {exc.msg} at column {exc.colno}") from None
    except ValueError:  # Python's limit on the digits of an integer
        raise ParseError(
            f"invalid JSON board: a number of over {MAX_NUMBER_DIGITS} digits"
        ) from None
    return _sequence_rows(data)


def _token(value) -> str:
    if value is None:
        return "_"
    if isinstance(value, bool):
        return f"<{json.dumps(value)}>"
    if isinstance(value, int):
        return (
            str(value)
            if abs(value) < 10**MAX_NUMBER_DIGITS
            else f"<a number of over {MAX_NUMBER_DIGITS} digits>"
        )
    if isinstance(value, str):
        return value
    if hasattr(value, "item"):  # numpy scalars
        return _token(value.item())
    return f"<{value!r}>"


def _sequence_rows(data) -> tuple[list[list[str]], bool]:
    if not isinstance(data, (list, tuple)) and not hasattr(data, "tolist"):
        raise ParseError(f"a board must be a list of rows or of cells, not {type(data).__name__}")
    if hasattr(data, "tolist"):
        data = data.tolist()
    if not data:
        raise ParseError("empty board")
    nested = [isinstance(r, (list, tuple)) for r in data]
    if all(nested):
        return [[_token(v) for v in row] for row in data], False
    if any(nested):
        raise ParseError("a board mixes rows (lists) and single cells")
    return [[_token(v) for v in data]], True


def parse_cells(spec, size=None) -> tuple[int, int, tuple[Cell, ...]]:
    """Read a board; return ``(width, height, cells)`` with ``0`` for the blank.

    Parameters
    ----------
    spec : str or sequence
        The board in any accepted notation (see the module docstring), or a
        flat or nested sequence of cells.
    size : str or (int, int), optional
        ``"WxH"``; needed for a one-line board whose cell count is not a square,
        and checked against the board otherwise.

    Returns
    -------
    width, height, cells
        Cells in row-major order: ints for a numbered board, strings for a
        lettered one, ``0`` for the blank in both.

    Raises
    ------
    ParseError, BoardError
        With a one-line message naming the problem and where it is.

    Examples
    --------
    >>> parse_cells("1 2 3/4 5 6/7 8 _")
    (3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    >>> parse_cells("AB/B.")
    (2, 2, ('A', 'B', 'B', 0))
    """
    want = parse_size(size) if size is not None else None
    if isinstance(spec, str):
        text = spec.strip()
        if not text:
            raise ParseError("empty board")
        if text.startswith("["):
            rows, flat = _json_rows(text)
        else:
            rows = _split_rows(text)
            flat = len(rows) == 1
    else:
        rows, flat = _sequence_rows(spec)

    if (
        not flat
        and want is not None
        and sum(map(len, rows)) == want[0] * want[1]
        and [len(r) for r in rows] != [want[0]] * want[1]
    ):
        # the size was given and the cell count fits it: read the cells in order
        # and ignore the line breaks ("1 2 3/4 5 6/7 8 9/10 11 12/13 15 14 0" as 4x4)
        rows, flat = [[t for row in rows for t in row]], True
    if flat:
        tokens = rows[0]
        n = len(tokens)
        if want is not None:
            width, height = want
            if n != width * height:
                raise BoardError(
                    f"a {width}x{height} board has {width * height} cells, but {n} were given"
                )
        else:
            side = math.isqrt(n)
            if side * side != n:
                raise BoardError(
                    f"cannot tell the size of a one-line board of {n} cells;"
                    " give it (for example --size 4x3) or write rows separated by '/'"
                )
            width = height = side
        rows = [tokens[r * width : (r + 1) * width] for r in range(height)]
    else:
        width = len(rows[0])
        for i, row in enumerate(rows[1:], start=2):
            if len(row) != width:
                raise ParseError(f"row {i} has {len(row)} cells but row 1 has {width}")
        height = len(rows)
        if want is not None and want != (width, height):
            raise BoardError(
                f"the board is {width}x{height} but the size given is {want[0]}x{want[1]}"
            )
    check_size(width, height)

    cells: list[Cell] = []
    blanks: list[str] = []
    first_number = first_label = None
    for r, row in enumerate(rows):
        for c, tok in enumerate(row):
            where = _where(r, c, flat, width)
            if tok in BLANK_TOKENS or (_INT.match(tok) and int(tok) == 0):
                cells.append(0)
                blanks.append(where)
            elif _INT.match(tok):
                cells.append(int(tok))
                first_number = first_number or (where, tok)
            elif _LABEL.match(tok):
                cells.append(tok)
                first_label = first_label or (where, tok)
            elif tok.isdigit():
                raise ParseError(
                    f"tile number at {where} has {len(tok):,} digits;"
                    f" at most {MAX_NUMBER_DIGITS} are read"
                )
            else:
                raise ParseError(f"unknown token {_shown(tok)} at {where}")
    if first_number and first_label:
        raise ParseError(
            f"a board mixes numbers and letters ({_shown(first_number[1])} at {first_number[0]},"
            f" {_shown(first_label[1])} at {first_label[0]})"
        )
    if not blanks:
        raise BoardError("no blank: mark the empty cell with 0, _, ., x or *")
    if len(blanks) > 1:
        raise BoardError(
            f"{len(blanks)} blanks ({', '.join(blanks[:3])}{', ...' if len(blanks) > 3 else ''});"
            " a board has exactly one"
        )
    return width, height, tuple(cells)


def format_cells(cells: Sequence[Cell], width: int, style: str = "slash", blank: str = "0") -> str:
    """Write cells in one of the output styles.

    ``slash`` ``"1 2 3/4 5 6/7 8 0"`` (the default), ``lines`` (one row per
    line), ``flat`` (one line), ``contest`` (one line, blank ``*`` unless another
    is given), ``compact`` (one character per cell, rows joined by ``/``),
    ``json`` (nested arrays) and ``grid`` (aligned, for people).
    """
    if style == "json":
        nested = [
            [("_" if blank != "0" else 0) if v == 0 else v for v in cells[i : i + width]]
            for i in range(0, len(cells), width)
        ]
        return json.dumps(nested, separators=(",", ":"))
    if style == "contest" and blank == "0":
        blank = "*"
    text: list[str] = [blank if v == 0 else str(v) for v in cells]
    rows = [text[i : i + width] for i in range(0, len(text), width)]
    if style == "slash":
        return "/".join(" ".join(r) for r in rows)
    if style == "lines":
        return "\n".join(" ".join(r) for r in rows)
    if style in ("flat", "contest"):
        return " ".join(text)
    if style == "compact":
        if any(len(t) != 1 for t in text):
            raise ParseError("compact style needs single-character tiles; use slash")
        return "/".join("".join(r) for r in rows)
    if style == "grid":
        w = max(len(t) for t in text)
        shown = [
            ["." * w if v == 0 else str(v).rjust(w) for v in cells[i : i + width]]
            for i in range(0, len(cells), width)
        ]
        return "\n".join(" ".join(r) for r in shown)
    raise ParseError(
        f"unknown board style {style!r}; choose slash, lines, flat, contest, compact, json or grid"
    )


STYLES = ("slash", "lines", "flat", "contest", "compact", "json", "grid")
