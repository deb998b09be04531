"""What the commands share: exit codes, reading boards, errors, and the goal and search options.

Exit codes: 0 ok, 1 unsolvable, no solution within the limits, or a Dask cluster that could not
answer (:func:`failure_code`), 2 bad input, 130 interrupted.
A board and its goal are read by :func:`slidelab.search.request.read_puzzle` and
the search options by :func:`read_search_options`, as the web API and batch read
them (:mod:`slidelab.search.request`).
The methods and heuristics offered come from their registries
(:mod:`slidelab.search.registry`, :mod:`slidelab.heuristics.registry`), read
when a value is checked or the help is shown.
"""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

import click

from ..tables.registry import PARTITION_HELP

if TYPE_CHECKING:
    from ..search.options import SearchOptions

OK, FAILED, BAD_INPUT = 0, 1, 2


def fail(message: str, code: int = BAD_INPUT):
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def failure_code(exc: Exception) -> int:
    """The exit code of an error: :data:`FAILED` where the input was good but got no answer (an
    unsolvable board, a limit reached, a Dask cluster that could not answer), else
    :data:`BAD_INPUT`."""
    from ..errors import ClusterError, SearchLimitError, UnsolvableError

    return (
        FAILED if isinstance(exc, (UnsolvableError, SearchLimitError, ClusterError)) else BAD_INPUT
    )


#: the longest line read from standard input (a 32,768-cell board is about 200,000 characters)
_MAX_LINE = 1 << 20


def inputs(board: str | None) -> Iterator[tuple[int | None, str]]:
    """(line number or None, text) for the argument, or each line of standard input
    (blank lines and ``#`` comments skipped)."""
    if board is not None:
        yield None, board
        return
    stream = sys.stdin
    if stream is None or stream.isatty():
        fail("no BOARD given and nothing on standard input (see --help)")
    read = False
    for number in itertools.count(1):
        line = stream.readline(_MAX_LINE + 1)  # a line that never ends (/dev/zero) stops here
        if not line:
            break
        if len(line) > _MAX_LINE:
            fail(
                f"line {number} of standard input is over {_MAX_LINE:,} characters"
                " (one board per line)"
            )
        text = line.strip()
        if text and not text.startswith("#"):
            read = True
            yield number, text
    if not read:
        fail("no positions read from standard input (one board per line; give BOARD or see --help)")


def _where(number: int | None) -> str:
    return f"line {number}: " if number is not None else ""


class Outcome:
    """The worst exit code seen over several boards."""

    def __init__(self):
        self.code = OK

    def note(self, code: int):
        self.code = max(self.code, code)


def report_failure(record, message, number, as_json, outcome, code):
    """One board failed: note ``code``, say so (a JSON record with ``error``, or a line on stderr)."""
    outcome.note(code)
    if as_json:
        click.echo(json.dumps({**record, "error": message}))
    else:
        click.echo(f"error: {_where(number)}{message}", err=True)


def each_answer(board, goal, blank_first, size, as_json, outcome, answer):
    """``(puzzle, answer(puzzle))`` for the argument's board or each line of standard input
    (:func:`inputs`), the board read with the goal options; a board that cannot be read or
    answered is reported (:func:`report_failure`) and skipped."""
    from ..errors import SlidelabError
    from ..search.request import read_puzzle

    for number, text in inputs(board):
        try:
            puzzle = read_puzzle(text, goal, blank_first=blank_first, size=size)
            result = answer(puzzle)
        except SlidelabError as exc:
            report_failure({"start": text}, str(exc), number, as_json, outcome, failure_code(exc))
            continue
        yield puzzle, result


def board_record(puzzle) -> dict:
    """A JSON record's start and goal."""
    return {"start": puzzle.start.format(), "goal": puzzle.goal.format()}


def json_option(help_text: str = "One JSON object per board."):
    """``--json``: the answers as JSON (the parameter ``as_json``)."""
    return click.option("--json", "as_json", is_flag=True, help=help_text)


def time_limit_option(help_text: str, default: float | None = 10.0):
    """``--time-limit SECONDS`` (the parameter ``time_limit``)."""
    return click.option(
        "--time-limit",
        type=float,
        default=default,
        show_default=default is not None,
        metavar="SECONDS",
        help=help_text,
    )


def goal_options(f):
    f = click.option("--size", metavar="WxH", help="Size of one-line boards (e.g. 4x3).")(f)
    f = click.option(
        "--blank-first",
        is_flag=True,
        help="Goal with the blank first (Korf's benchmark convention).",
    )(f)
    f = click.option(
        "--goal", metavar="BOARD", help="Goal board (default: tiles in order, blank last)."
    )(f)
    return f


class _MethodOption(click.Option):
    """``--method``: its help lists the methods, looked up when the help is shown."""

    def get_help_record(self, ctx):
        from ..search.registry import METHODS

        self.help = "One of: " + ", ".join(METHODS) + "."
        return super().get_help_record(ctx)


class _HeuristicChoice(click.Choice):
    """A ``click.Choice`` of the heuristic names, read from :mod:`slidelab.heuristics.registry`
    only when a value is checked or the help is shown (``--help`` stays quick)."""

    def __init__(self):
        super().__init__(())

    @property
    def choices(self):
        from ..heuristics.registry import HEURISTICS

        return tuple(HEURISTICS)

    @choices.setter
    def choices(self, value):  # click.Choice.__init__ assigns it; the getter is the truth
        pass

    def convert(self, value, param, ctx):
        """``value`` as given where it names a heuristic or one of its registry aliases (``wd``,
        ``dual``: the options read it once, with the others); else click's error."""
        from ..heuristics.registry import known_heuristic

        if isinstance(value, str) and known_heuristic(value) is not None:
            return value
        return super().convert(value, param, ctx)


class SearchCommand(click.Command):
    """A command with the search options: its help ends with the methods and heuristics,
    each with its summary, from their registries."""

    def format_epilog(self, ctx, formatter):
        from ..heuristics.registry import HEURISTICS
        from ..search.registry import METHODS

        for title, table in (("Methods", METHODS), ("Heuristics", HEURISTICS)):
            with formatter.section(title):
                formatter.write_dl([(name, entry.summary) for name, entry in table.items()])
        super().format_epilog(ctx, formatter)


def metric_option(help_text: str, default: str | None = "stm"):
    """``--metric stm|mtm``: one declaration for every command that counts moves (``default``
    None: the command's own default, said in ``help_text``)."""
    from ..moves import METRICS

    return click.option(
        "--metric",
        type=click.Choice(METRICS, case_sensitive=False),
        default=default,
        show_default=default is not None,
        help=help_text,
    )


def scheduler_option(what: str):
    """``--scheduler ADDRESS``: one declaration for every command that can run on a Dask cluster
    (connected by :func:`slidelab.cluster.connect`); ``what`` says what runs there."""
    return click.option(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help=f"{what} on a Dask cluster: its scheduler's address (tcp://host:8786).",
    )


def search_options(f):
    """The options that choose and limit a search (``solve`` and ``batch``): the command's
    function takes them as ``**_search`` and reads them with :func:`read_search_options`."""
    options = [
        metric_option(
            "What a move is: one tile (stm), or a slide of one or more tiles in a line (mtm);"
            " optimal methods minimise it."
        ),
        click.option("--method", "-m", cls=_MethodOption, default="auto", show_default=True),
        click.option(
            "--heuristic",
            default=None,
            type=_HeuristicChoice(),
            help="For A* and IDA* (default manhattan; auto uses pdb on the 15-puzzle).",
        ),
        click.option(
            "--partition",
            default=None,
            help=f"Pattern-database groups: {PARTITION_HELP}.",
        ),
        click.option(
            "--weight",
            "-w",
            type=float,
            default=None,
            help="f = g + W*h: faster, at most W times optimal.",
        ),
        click.option(
            "--time-limit",
            type=float,
            default=None,
            metavar="SECONDS",
            help="Seconds for each board's whole answer: tables built for it included (a build that"
            " would not be done in time is not started), compiling kernels once per install not.",
        ),
        click.option(
            "--max-states", type=int, default=None, help="States a storing search may hold."
        ),
        click.option(
            "--max-memory",
            default=None,
            metavar="BYTES",
            help="Memory a storing search may use (e.g. 2G, in 1024s; default three"
            " quarters of the memory available, at most half the RAM).",
        ),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def option_names() -> dict:
    """How the command line names :func:`slidelab.solve`'s options, for its messages: each
    option of :class:`~slidelab.search.options.SearchOptions` is the command's ``--option``
    of its name, but ``max_bytes``, which is ``--max-memory`` (read here, in units)."""
    from ..search.options import OPTION_NAMES

    names = {name: "--" + name.replace("_", "-") for name in OPTION_NAMES}
    return {**names, "max_bytes": "--max-memory"}


#: how the command line names what makes an unsolvable board solvable, for its messages
#: (:data:`slidelab.solvability.FIX_NAMES`)
FIX_NAMES = {"blank_first": "--blank-first", "fix": "slidelab check --fix swap"}


def read_search_options(params: dict) -> SearchOptions:
    """The options of :func:`search_options` and :func:`goal_options` in a command's ``params``
    (``solve`` and ``batch``), read once before any board by the reader of every front end
    (:func:`slidelab.search.request.read_options`), named as on the command line;
    ``--max-memory`` is read here, and ``--size`` and a ``--goal`` given with
    ``--blank-first`` are refused here rather than on each board."""
    from ..parse import parse_size
    from ..puzzle import goal_board
    from ..search.request import read_options
    from ..units import parse_bytes

    max_memory, goal, size = params["max_memory"], params["goal"], params["size"]
    max_bytes = parse_bytes(max_memory) if max_memory is not None else None
    if goal is not None and params["blank_first"]:
        goal_board(goal, blank_first=True)  # a goal board with --blank-first: refused
    if size is not None:
        parse_size(size)
    names = option_names()
    # every option is the command's parameter of its name, but --max-memory
    given = {name: params[name] for name in names if name != "max_bytes"}
    return read_options(**given, max_bytes=max_bytes, names=names)
