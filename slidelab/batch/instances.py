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

import itertools
import json
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .. import _args
from ..parse import parse_size

#: the most characters read from a batch's input (256 Mi: about five million instances); a
#: device or a pipe may never end (``/dev/zero``), so more is refused rather than read
MAX_INPUT_CHARS = 256 * 2**20
#: the most characters on one line of a batch's input (a 24-puzzle's line holds about a hundred)
MAX_LINE_CHARS = 2**20

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


def iter_lines(stream, name: str) -> Iterator[str]:
    """The lines of a text ``stream`` (a file, standard input), read one at a time as they come.

    At most :data:`MAX_INPUT_CHARS` characters in all and :data:`MAX_LINE_CHARS` on a line are
    read: past either a :class:`SlidelabError` naming ``name`` is raised (a device or a pipe may
    never end, or never end a line: ``/dev/zero``), after the lines before it were yielded.
    Only a line is held at a time, so memory does not grow with the input.
    """
    from ..errors import SlidelabError

    total = 0
    for number in itertools.count(1):
        try:
            line = stream.readline(MAX_LINE_CHARS + 1)
        except UnicodeDecodeError:
            raise SlidelabError(f"{name}, line {number}: not text (UTF-8)") from None
        if not line:
            return
        total += len(line)
        if total > MAX_INPUT_CHARS:
            raise SlidelabError(
                f"{name} holds more than {MAX_INPUT_CHARS:,} characters (the most a"
                " batch reads); split it into several batches"
            )
        if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
            raise SlidelabError(
                f"{name}, line {number}: more than {MAX_LINE_CHARS:,} characters on one line"
                " (the most a batch reads); not a batch's input"
            )
        yield line.rstrip("\r\n")


def read_lines(stream, name: str) -> list[str]:
    """The lines of a text ``stream`` as a list (:func:`iter_lines`' limits), for a small input."""
    return list(iter_lines(stream, name))


def count_instances(path) -> int:
    """How many lines of the file at ``path`` hold an instance (neither blank nor a comment).

    A quick pass over the bytes, nothing parsed: the total of a batch's progress bar.
    """
    count = 0
    with open(path, "rb") as f:
        for line in f:
            line = line.strip()
            count += bool(line) and line[0] != 35  # not b"#"
    return count


def check_instances(instances, name: str = "instances") -> list[Instance]:
    """``instances`` as a list, each checked to be an :class:`Instance` (else an error naming it)."""
    out = list(_args.items(instances, name, what="a list of Instance (from read_instances)"))
    for i, instance in enumerate(out):
        _check_instance(instance, i, name)
    return out


def checked_instances(instances, name: str = "instances") -> Iterator[Instance]:
    """``instances`` one at a time, each checked to be an :class:`Instance` when it comes.

    A list or a tuple is checked whole at once (so a bad one is refused before anything runs);
    another iterable (a generator from :func:`iter_instances`) only as it is consumed.
    """
    if isinstance(instances, (list, tuple)):
        return iter(check_instances(instances, name))
    values = _args.items(instances, name, what="a list of Instance (from read_instances)")
    return (_check_instance(v, i, name) for i, v in enumerate(values))


def _check_instance(instance, i: int, name: str) -> Instance:
    if not isinstance(instance, Instance):
        raise _args.ArgumentError(
            f"{name}[{i}] must be an Instance (from read_instances), got {_args.show(instance)}"
        )
    return instance


def instance_text(raw: str) -> str:
    """A line's text as an :class:`Instance` keeps it: stripped, without its comment."""
    text = raw.strip()
    if not text.startswith("{"):  # a JSON line may hold '#' in its strings
        text = text.split("#", 1)[0].strip()
    return text


def read_instances(lines: Iterable[str], size=None) -> list[Instance]:
    """Every instance of ``lines`` (the text of a file, line by line), as a list.

    ``size`` (``"WxH"``) is the board size of lines in the benchmark layout
    whose cell count is not a square.  For a big input, :func:`iter_instances`
    reads them one at a time instead.
    """
    return list(iter_instances(lines, size))


def iter_instances(lines: Iterable[str], size=None) -> Iterator[Instance]:
    """The instances of ``lines`` one at a time, each read when it is asked for.

    As :func:`read_instances`, but nothing is held: a batch of millions of
    lines goes through in the memory of one.  ``lines`` and ``size`` are
    checked at the call.
    """
    cells = None
    if size is not None:
        width, height = parse_size(size)
        cells = width * height
    what = "an iterable of lines of text (an open file, or text.splitlines())"
    return _instances(_args.items(lines, "lines", what=what), cells)


def _instances(lines: Iterator, cells: int | None) -> Iterator[Instance]:
    ordinal = 0
    for number, raw in enumerate(lines, start=1):
        if not isinstance(raw, str):
            raise _args.ArgumentError(f"lines: line {number} must be text, got {_args.show(raw)}")
        text = instance_text(raw)
        if not text:
            continue
        ordinal += 1
        try:
            fields = _read_json(text) if text.startswith("{") else _read_fields(text, cells)
        except ValueError as exc:
            yield Instance(number, str(ordinal), text, error=str(exc))
            continue
        yield Instance(number, fields.pop("id", None) or str(ordinal), text, **fields)


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
