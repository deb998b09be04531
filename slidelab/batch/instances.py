"""Reading a batch's instances: one per line of a text file.

A line holds one instance in one of these layouts:

* a board in any notation :class:`slidelab.Board` reads, then optional
  fields after semicolons: ``BOARD ; GOAL ; ID``.  A field may also be
  written ``key=value`` with the keys ``goal``, ``id`` and ``known`` (a known
  optimal length, checked against the result), in any order:
  ``1 2 3/4 5 6/0 7 8 ; id=easy ; known=2``.  An empty goal field
  (``BOARD ;; ID``) means the batch's goal;
* the benchmark layout of Korf's instance sets: the tiles as numbers only,
  optionally followed by the known optimal length and optionally preceded by
  the instance's number (``14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 57``); the
  board is square, or of the batch's ``--size``;
* a JSON object with ``start`` (or ``board``) and optional ``goal``, ``id``
  and ``known``.

Blank lines and lines starting with ``#`` are skipped, as is anything after a
``#`` on a line (but a JSON line's).  An instance's ``id`` is the one given, or else its number
among the file's instances (``"1"``, ``"2"``, ...), so the instances of
Korf's file keep Korf's numbers.  A line that cannot be read becomes an
instance with an ``error``; the batch reports it and goes on.

Examples
--------
>>> [i.id for i in read_instances(["# two", "1 2 3/4 5 6/0 7 8", "", "8 6 7/2 5 4/3 0 1 ; ; hard"])]
['1', 'hard']
>>> korf = read_instances(["14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 57"])[0]
>>> korf.start, korf.known
('14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3', 57)
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from .. import _args
from ..parse import parse_size

#: the most characters read from a batch's input (256 Mi: about five million instances); a
#: device or a pipe may never end (``/dev/zero``), so more is refused rather than read
MAX_INPUT_CHARS = 256 * 2**20

#: the fields a ``key=value`` field or a JSON object may name
KEYS = ("goal", "id", "known")
_KEY_FIELD = re.compile(r"\s*(goal|id|known)\s*=\s*(.*?)\s*\Z", re.I)
_NUMBERS = re.compile(r"\s*\d+(?:[\s,]+\d+)*\s*\Z")


@dataclass(frozen=True)
class Instance:
    """One line of a batch.

    Attributes
    ----------
    line : int
        Line number in the input (1-based).
    id : str
        The id given on the line, or the instance's number in the file.
    text : str
        The line as read (without its comment), which identifies the instance
        when a batch is resumed.
    start : str or None
        The start board's text; ``None`` when the line could not be read.
    goal : str or None
        The goal's text; ``None`` for the batch's goal.
    known : int or None
        A known optimal length to check the result against.
    error : str or None
        Why the line could not be read.
    """

    line: int
    id: str
    text: str
    start: str | None = None
    goal: str | None = None
    known: int | None = None
    error: str | None = None

    def __post_init__(self):
        _args.integer(self.line, "line", minimum=1)
        _args.text(self.id, "id")
        _args.text(self.text, "text")
        for name in ("start", "goal", "error"):
            _args.text(getattr(self, name), name, optional=True)
        _args.integer(self.known, "known", minimum=0, optional=True)
        if self.start is None and self.error is None:
            raise _args.ArgumentError("an Instance needs a start board or an error")


def read_lines(stream, name: str) -> list[str]:
    """The lines of a text ``stream`` (a file, standard input) of at most :data:`MAX_INPUT_CHARS`
    characters; a longer one is refused with a :class:`SlidelabError` naming ``name``."""
    from ..errors import SlidelabError

    text = stream.read(MAX_INPUT_CHARS + 1)
    if len(text) > MAX_INPUT_CHARS:
        raise SlidelabError(
            f"{name} holds more than {MAX_INPUT_CHARS:,} characters (the most a"
            " batch reads); split it into several batches"
        )
    return text.splitlines()


def check_instances(instances, name: str = "instances") -> list[Instance]:
    """``instances`` as a list, each checked to be an :class:`Instance` (else an error naming it)."""
    out = list(_args.items(instances, name, what="a list of Instance (from read_instances)"))
    for i, instance in enumerate(out):
        if not isinstance(instance, Instance):
            raise _args.ArgumentError(
                f"{name}[{i}] must be an Instance (from read_instances), got {_args.show(instance)}"
            )
    return out


def read_instances(lines: Iterable[str], size=None) -> list[Instance]:
    """Every instance of ``lines`` (the text of a file, line by line).

    ``size`` (``"WxH"``) is the board size of lines in the benchmark layout
    whose cell count is not a square.
    """
    cells = None
    if size is not None:
        width, height = parse_size(size)
        cells = width * height
    out: list[Instance] = []
    what = "an iterable of lines of text (an open file, or text.splitlines())"
    for number, raw in enumerate(_args.items(lines, "lines", what=what), start=1):
        if not isinstance(raw, str):
            raise _args.ArgumentError(f"lines: line {number} must be text, got {_args.show(raw)}")
        text = raw.strip()
        if not text.startswith("{"):  # a JSON line may hold '#' in its strings
            text = text.split("#", 1)[0].strip()
        if not text:
            continue
        ordinal = str(len(out) + 1)
        try:
            fields = _read_json(text) if text.startswith("{") else _read_fields(text, cells)
        except ValueError as exc:
            out.append(Instance(number, ordinal, text, error=str(exc)))
            continue
        out.append(Instance(number, fields.pop("id", None) or ordinal, text, **fields))
    return out


def _read_fields(text: str, cells: int | None) -> dict:
    board, *rest = (part.strip() for part in text.split(";"))
    if not board:
        raise ValueError("no board before the first ';'")
    fields: dict = {}
    positional = ["goal", "id"]
    for part in rest:
        match = _KEY_FIELD.match(part)
        if match:
            key, value = match.group(1).lower(), match.group(2)
        elif positional:
            key, value = positional[0], part
        else:
            raise ValueError(
                f"too many ';' fields: {part!r} is neither a goal nor an id"
                f" (write key=value: {', '.join(KEYS)})"
            )
        if key in positional:
            positional = positional[positional.index(key) + 1 :]
        if key in fields:
            raise ValueError(f"{key} is given twice")
        if value:
            fields[key] = value
    if "known" in fields:
        fields["known"] = _known(fields["known"])
    if _NUMBERS.match(board):
        board = _benchmark_layout(board, cells, fields)
    fields["start"] = board
    return fields


def _benchmark_layout(board: str, cells: int | None, fields: dict) -> str:
    """Split Korf's layout (``[number] tiles... [known length]``) into its parts."""
    values = [int(v) for v in re.split(r"[\s,]+", board.strip())]
    count = len(values)
    if cells is None:
        side = math.isqrt(count)
        if side * side == count:
            return board  # just the tiles: a one-line board
        side = math.isqrt(count - 1)
        if side * side not in (count - 1, count - 2):
            return board  # not the layout: the board parser says what is wrong
        n = side * side
    else:
        n = cells
        if count == n or count not in (n + 1, n + 2):
            return board
    tiles = set(range(n))
    if count == n + 2:
        number, tiles_at, known = values[0], 1, values[-1]
    elif set(values[:n]) == tiles:
        number, tiles_at, known = None, 0, values[-1]
    elif set(values[1:]) == tiles:
        number, tiles_at, known = values[0], 1, None
    else:
        raise ValueError(
            f"{count} numbers: neither the {n} tiles 0..{n - 1} and a known length"
            f" nor an instance number and the tiles"
        )
    if known is not None:
        if "known" in fields and fields["known"] != known:
            raise ValueError(f"known length given twice ({known} and {fields['known']})")
        fields["known"] = known
    if number is not None:
        fields.setdefault("id", str(number))
    return " ".join(str(v) for v in values[tiles_at : tiles_at + n])


def _read_json(text: str) -> dict:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON: {exc.msg} at column {exc.colno}") from None
    if not isinstance(data, dict):
        raise ValueError("a JSON line must be an object with a 'start' board")
    start = data.get("start", data.get("board"))
    if start is None:
        raise ValueError("the JSON object has no 'start' (or 'board')")
    fields = {"start": _board_text(start, "start")}
    if data.get("goal") is not None:
        fields["goal"] = _board_text(data["goal"], "goal")
    if data.get("id") is not None:
        fields["id"] = str(data["id"])
    if data.get("known") is not None:
        fields["known"] = _known(data["known"])
    return fields


def _board_text(value, key: str) -> str:
    """A board given in JSON: its text, or its list of rows or cells as JSON text."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return json.dumps(value)
    raise ValueError(f"'{key}' must be a board: text, or a list of rows or of cells")


def _known(value) -> int:
    try:
        known = int(str(value).strip())
    except ValueError:
        raise ValueError(f"known length {value!r} is not a whole number") from None
    if known < 0:
        raise ValueError(f"known length {known} is negative")
    return known
