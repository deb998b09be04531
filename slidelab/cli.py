"""The ``slidelab`` command line.

Exit codes: 0 ok, 1 unsolvable or no solution within the limits, 2 bad input.
Commands that take a BOARD read one board per line from standard input when
the argument is absent (blank lines and ``#`` comments are skipped).

Start-up time matters for a command line, so each command imports what it
needs when it runs: ``slidelab moves ...`` or ``slidelab check`` never load
numba, and ``slidelab --help`` stays quick.
"""

from __future__ import annotations

import atexit
import functools
import gc
import itertools
import json
import logging
import signal
import sys
import time
from typing import TYPE_CHECKING, Iterator, Optional

import click

from . import __version__
from .board import Board
from .errors import SearchLimitError, SlidelabError, UnsolvableError
from .parse import BLANK_TOKENS, MAX_BOARD_CELLS, STYLES
from .units import format_bytes, parse_bytes, parse_duration

if TYPE_CHECKING:
    from .puzzle import Puzzle

OK, FAILED, BAD_INPUT = 0, 1, 2


def _fail(message: str, code: int = BAD_INPUT):
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


#: the longest line read from standard input (a 32,768-cell board is about 200,000 characters)
_MAX_LINE = 1 << 20


def _inputs(board: Optional[str]) -> Iterator[tuple[Optional[int], str]]:
    """(line number or None, text) for the argument, or each line of standard input."""
    if board is not None:
        yield None, board
        return
    stream = sys.stdin
    if stream is None or stream.isatty():
        _fail("no BOARD given and nothing on standard input (see --help)")
    read = False
    for number in itertools.count(1):
        line = stream.readline(_MAX_LINE + 1)  # a line that never ends (/dev/zero) stops here
        if not line:
            break
        if len(line) > _MAX_LINE:
            _fail(f"line {number} of standard input is over {_MAX_LINE:,} characters"
                  " (one board per line)")
        text = line.strip()
        if text and not text.startswith("#"):
            read = True
            yield number, text
    if not read:
        _fail("no positions read from standard input (one board per line; give BOARD or see --help)")


def _where(number: Optional[int]) -> str:
    return f"line {number}: " if number is not None else ""


class _Outcome:
    """The worst exit code seen over several boards."""

    def __init__(self):
        self.code = OK

    def note(self, code: int):
        self.code = max(self.code, code)


#: set while the program holds the garbage collector off during its start-up
_gc_held = False


def _program_start() -> None:
    """Start-up of the program proper (the console script, ``python -m slidelab``).

    Importing numba and loading its cached kernels creates over 100,000
    objects that live as long as the process and are never garbage; the
    cyclic garbage collector would go through them again and again while they
    are created and once more at exit (about 0.3 s of a 3x3 solve on the
    2-core development machine).  So collection is off until a command has
    imported its modules (:func:`_startup_done`; the short ``moves`` and
    ``tables list/clear`` commands run without it), and the objects that
    exist then are frozen: left out of later collections.  At exit everything
    is frozen, since the memory goes back to the operating system anyway.
    Other programs' calls leave the collector alone: ``main([...])`` with
    arguments, and ``CliRunner`` (which calls ``main.main``).

    The program also says on standard error what the library logs for people
    (the one-line notice when kernels are compiled on first use), and takes
    Ctrl-C and SIGTERM as an interruption wherever they come (see :class:`_Group`).
    """
    global _gc_held
    atexit.register(gc.freeze)
    if gc.isenabled():
        gc.disable()
        _gc_held = True
    _show_notices()
    signal.signal(signal.SIGINT, _interrupted)
    signal.signal(signal.SIGTERM, _interrupted)


class _StderrNotices(logging.Handler):
    """Log records as plain lines on (the current) standard error."""

    def emit(self, record):
        click.echo(self.format(record), err=True)


def _show_notices() -> None:
    """Show slidelab's INFO log lines (notices for people, such as kernel compiling) on stderr."""
    logger = logging.getLogger("slidelab")
    if not any(isinstance(h, _StderrNotices) for h in logger.handlers):
        logger.addHandler(_StderrNotices(logging.INFO))
        logger.setLevel(logging.INFO)


#: set by the first Ctrl-C or SIGTERM of the program
_interrupt_seen = False


def _interrupted(signum, frame):
    global _interrupt_seen
    _interrupt_seen = True
    raise KeyboardInterrupt


def _startup_done(freeze: bool = True) -> None:
    """The command's modules are imported: freeze what exists, collect garbage again."""
    global _gc_held
    if _gc_held:
        _gc_held = False
        if freeze:
            gc.freeze()
        gc.enable()


class _Group(click.Group):
    """Stops cleanly on Ctrl-C or SIGTERM (exit 130) instead of printing a traceback.

    An interruption can surface as another exception: numba, compiling a
    kernel, turns it into a ``RuntimeError``.  Any error after one is taken
    for its consequence.
    """

    def __call__(self, *args, **kwargs):
        if args or kwargs:  # another program's call: its collector is its own business
            return super().__call__(*args, **kwargs)
        _program_start()  # the program itself: arguments from sys.argv, exits when done
        try:
            return super().__call__()
        finally:
            _startup_done(freeze=False)  # for commands that never called it

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except Exception:
            if not _interrupt_seen:
                raise
            click.echo("interrupted", err=True)
            sys.exit(130)


def _goal_options(f):
    f = click.option("--size", metavar="WxH", help="Size of one-line boards (e.g. 4x3).")(f)
    f = click.option("--blank-first", is_flag=True,
                     help="Goal with the blank first (Korf's benchmark convention).")(f)
    f = click.option("--goal", metavar="BOARD", help="Goal board (default: tiles in order, blank last).")(f)
    return f


def _puzzle(text: str, goal, blank_first: bool, size) -> Puzzle:
    from .puzzle import Puzzle

    if goal is not None and blank_first:
        raise SlidelabError("give --goal or --blank-first, not both")
    return Puzzle(text, goal, blank_first=blank_first, size=size)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="slidelab")
def main():
    """slidelab: solve, check and generate sliding-tile puzzles of any size.

    Boards are written row by row: "1 2 3/4 5 6/7 8 0", "ABA_/CDCD/ABAB/CDCD";
    the blank may be 0 _ . x or *.  Moves name the direction the tile goes
    (U D L R; R3 = RRR).
    """


class _MethodOption(click.Option):
    """``--method``: its help lists the methods, looked up when the help is shown."""

    def get_help_record(self, ctx):
        from .search.registry import METHODS

        self.help = "One of: " + ", ".join(METHODS) + "."
        return super().get_help_record(ctx)


class _HeuristicChoice(click.Choice):
    """A ``click.Choice`` of the heuristic names, read from :mod:`slidelab.heuristics`
    (which imports numba) only when a value is checked or the help is shown."""

    def __init__(self):
        super().__init__(())

    @property
    def choices(self):
        from .heuristics.registry import HEURISTICS

        return tuple(HEURISTICS)

    @choices.setter
    def choices(self, value):  # click.Choice.__init__ assigns it; the getter is the truth
        pass


def _search_options(f):
    """The options that choose and limit a search (``solve`` and ``batch``)."""
    options = [
        click.option("--method", "-m", cls=_MethodOption, default="auto", show_default=True),
        click.option("--heuristic", default=None, type=_HeuristicChoice(),
                     help="For A* and IDA* (default manhattan; auto uses pdb on the 15-puzzle)."),
        click.option("--partition", default=None,
                     help="Pattern-database groups: 6-6-3, 7-8, full, auto or '1,2,3/4,5,...'."),
        click.option("--weight", "-w", type=float, default=None,
                     help="f = g + W*h: faster, at most W times optimal."),
        click.option("--time-limit", type=float, default=None, metavar="SECONDS",
                     help="Seconds of search for each board."),
        click.option("--max-states", type=int, default=None,
                     help="States a storing search may hold."),
        click.option("--max-memory", default=None, metavar="BYTES",
                     help="Memory a storing search may use (e.g. 2G, in 1024s; default three"
                          " quarters of the memory available, at most half the RAM)."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


#: how the command line names :func:`slidelab.solve`'s options, for its messages
_OPTION_NAMES = {"method": "--method", "heuristic": "--heuristic", "weight": "--weight",
                 "time_limit": "--time-limit", "max_states": "--max-states",
                 "max_bytes": "--max-memory", "partition": "--partition"}


def _check_search_options(method, heuristic, weight, time_limit, max_states, max_bytes, partition,
                          goal, blank_first, size):
    """The search options, checked once before any board is read (``solve`` and ``batch``), by
    the checks :func:`slidelab.solve` makes, named as on the command line."""
    from .parse import parse_size
    from .search.options import check_options

    if goal is not None and blank_first:
        raise SlidelabError("give --goal or --blank-first, not both")
    if size is not None:
        parse_size(size)
    return check_options(method=method, heuristic=heuristic, weight=weight, time_limit=time_limit,
                         max_states=max_states, max_bytes=max_bytes, partition=partition,
                         names=_OPTION_NAMES)


@main.command("solve")
@click.argument("board", required=False)
@_goal_options
@_search_options
@click.option("--all", "all_solutions", is_flag=True,
              help="List every distinct optimal solution (IDA*) and their count.")
@click.option("--limit", type=int, default=None, help="With --all: stop after N solutions.")
@click.option("--progress/--no-progress", default=None,
              help="Progress line on stderr (default: when stderr is a terminal).")
@click.option("--notation", type=click.Choice(["tile", "blank", "numbers"]), default="tile",
              show_default=True, help="How to write the solution (human output).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per board.")
def solve_command(board, goal, blank_first, size, method, heuristic, partition, all_solutions,
                  limit, progress, weight, time_limit, max_states, max_memory, notation, as_json):
    """Find a solution of BOARD (shortest, unless a weight is given)."""
    from .errors import SearchInterrupted
    from .search.solve import solve, solve_all

    _startup_done()
    outcome = _Outcome()
    try:
        max_bytes = parse_bytes(max_memory) if max_memory is not None else None
        if limit is not None and not all_solutions:
            raise SlidelabError("--limit goes with --all")
        options = _check_search_options(method, heuristic, weight, time_limit, max_states,
                                        max_bytes, partition, goal, blank_first, size)
    except SlidelabError as exc:
        _fail(str(exc))
    show = sys.stderr.isatty() if progress is None else progress
    # --no-progress: silence; otherwise a live line on a terminal, a line now and then elsewhere
    reporter = _ProgressLine(live=show) if progress is not False else None
    for number, text in _inputs(board):
        record = {"start": text}
        if reporter:
            reporter.start()
        try:
            puzzle = _puzzle(text, goal, blank_first, size)
            record = {"start": puzzle.start.format(), "goal": puzzle.goal.format(),
                      "size": puzzle.size}
            tables = _TableBar(live=show) if reporter else None
            if all_solutions:
                solutions = solve_all(puzzle, limit=limit, heuristic=options.heuristic,
                                      time_limit=options.time_limit, partition=options.partition,
                                      progress=reporter, table_progress=tables)
            else:
                solution = solve(puzzle, options=options, progress=reporter,
                                 table_progress=tables)
            if reporter:
                reporter.clear()
            if tables:
                tables.close()
        except SearchInterrupted as exc:
            if reporter:
                reporter.clear()
            _report_failure(record, str(exc), number, as_json, outcome, 130)
            break
        except UnsolvableError as exc:
            _report_failure(record, str(exc), number, as_json, outcome, FAILED)
            continue
        except SearchLimitError as exc:
            _report_failure(record, str(exc), number, as_json, outcome, FAILED)
            continue
        except SlidelabError as exc:
            _report_failure(record, str(exc), number, as_json, outcome, BAD_INPUT)
            continue
        if all_solutions:
            _show_all(solutions, notation, as_json)
        elif as_json:
            click.echo(json.dumps(solution.as_dict()))
        else:
            _show_solution(solution, notation)
    sys.exit(outcome.code)


def _show_all(solutions, notation, as_json):
    if as_json:
        record = solutions[0].as_dict()
        record["solutions"] = [s.notation for s in solutions]
        record["count"] = len(solutions)
        click.echo(json.dumps(record))
        return
    first = solutions[0]
    click.echo(f"start ({first.start.size}):\n{first.start.grid()}")
    click.echo(f"goal:\n{first.goal.grid()}")
    click.echo(f"{len(solutions)} optimal solution{'s' if len(solutions) != 1 else ''}"
               f" of {first.length} moves:")
    for s in solutions:
        click.echo(s.format(notation) or "(already solved)")
    st = first.stats
    click.echo(f"expanded {st.expanded:,}  generated {st.generated:,}  time {st.seconds:.3f} s")
    click.echo("")


#: a search quiet for this long says on stderr what it is doing, on a terminal or not
QUIET_SECONDS = 5.0


class _ProgressLine:
    """Search progress on stderr: bound or depth, nodes, rate, time.

    ``live`` (a terminal, or ``--progress``): one self-overwriting line.
    Otherwise nothing for :data:`QUIET_SECONDS`, then a full line now and then
    (at 5, 10, 20, 40 s, then every minute), so a long solve in a script or a
    log is never silent.  Once a search passes :data:`QUIET_SECONDS` and
    larger tables would help (``stronger_partition`` in the report), it says
    how to get them, once per board.
    """

    def __init__(self, live: bool):
        self.live = live
        self.shown = False
        self.next_line = QUIET_SECONDS
        self.hinted = False

    def start(self) -> None:
        """A new board."""
        self.clear()
        self.next_line = QUIET_SECONDS
        self.hinted = False

    def __call__(self, info: dict):
        seconds = info["seconds"]
        where = f"bound {info['bound']:g}" if "bound" in info else f"depth {info.get('depth', '?')}"
        rate = f" ({info['generated'] / seconds / 1e6:.1f} M/s)" if seconds > 0 else ""
        text = f"{info['method']}: {where}, {info['generated']:,} nodes{rate}, {seconds:.1f} s"
        if seconds >= QUIET_SECONDS and not self.hinted:
            self.hinted = True
            if info.get("stronger_partition"):
                name = info["stronger_partition"]
                self._line(f"note: larger pattern databases would help: add --partition {name}"
                           f" (built once and cached; see slidelab tables build --help)")
        if self.live:
            click.echo(f"\r{text:<70}", err=True, nl=False)
            self.shown = True
        elif seconds >= self.next_line:
            self._line(text)
            self.next_line = seconds + min(seconds, 60.0)

    def _line(self, text: str) -> None:
        self.clear()
        click.echo(text, err=True)

    def clear(self):
        if self.shown:
            click.echo("\r" + " " * 70 + "\r", err=True, nl=False)
            self.shown = False


class _TableBar:
    """Progress on stderr while tables are built: a bar on a terminal (``live``),
    else one line as each table starts."""

    def __init__(self, live: bool = True):
        self.live = live
        self.bar = None
        self.done = 0
        self.said = None

    def __call__(self, fraction: float, message: str):
        if not self.live:
            table = message.split(":")[0]
            if table != self.said:
                self.said = table
                click.echo(f"building tables: {table}", err=True)
            return
        if self.bar is not None and int(fraction * 1000) < self.done:
            self.close()  # the next table
        if self.bar is None:
            self.bar = click.progressbar(length=1000, label="building tables", file=sys.stderr,
                                         show_eta=True)
            self.bar.__enter__()
        step = int(fraction * 1000) - self.done
        if step > 0:
            self.bar.update(step)
            self.done += step
        self.bar.label = message[:50]

    def close(self):
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None
            self.done = 0


def _report_failure(record, message, number, as_json, outcome, code):
    outcome.note(code)
    if as_json:
        click.echo(json.dumps({**record, "error": message}))
    else:
        click.echo(f"error: {_where(number)}{message}", err=True)


def _show_solution(solution, notation):
    s = solution.stats
    status = "optimal" if solution.optimal else "not proven optimal"
    click.echo(f"start ({solution.start.size}):\n{solution.start.grid()}")
    click.echo(f"goal:\n{solution.goal.grid()}")
    plural = "" if solution.length == 1 else "s"
    click.echo(f"solution: {solution.length} move{plural} ({solution.length_mtm} MTM), {status},"
               f" method {solution.method}")
    click.echo(solution.format(notation) or "(already solved)")
    click.echo(f"expanded {s.expanded:,}  generated {s.generated:,}  stored {s.stored:,}"
               f"  peak frontier {s.peak_frontier:,}  time {s.seconds:.3f} s")
    click.echo("")


@main.command("check")
@click.argument("board", required=False)
@_goal_options
@click.option("--fix", type=click.Choice(["swap", "mirror"]), default=None,
              help="Print a solvable board instead: swap two tiles or mirror the board.")
@click.option("--json", "as_json", is_flag=True, help='One {"solvable", "reason"} object per board.')
def check_command(board, goal, blank_first, size, fix, as_json):
    """Say whether BOARD can reach the goal, and why."""
    from .generate import fix_parity
    from .solvability import check as check_puzzle

    _startup_done()
    outcome = _Outcome()
    for number, text in _inputs(board):
        try:
            puzzle = _puzzle(text, goal, blank_first, size)
            if fix:
                click.echo(fix_parity(puzzle.start, puzzle.goal, how=fix).format())
                continue
            verdict = check_puzzle(puzzle)
        except SlidelabError as exc:
            _report_failure({"start": text}, str(exc), number, as_json, outcome, BAD_INPUT)
            continue
        if not verdict.solvable:
            outcome.note(FAILED)
        if as_json:
            click.echo(json.dumps({"solvable": verdict.solvable, "reason": verdict.reason}))
        else:
            click.echo(verdict.reason)
    sys.exit(outcome.code)


class _GenerateOption(click.Option):
    """An option of ``generate`` whose help names a limit of :mod:`slidelab.generate`, looked
    up when the help is shown (so the limit is declared once, and ``--help`` stays quick)."""

    def get_help_record(self, ctx):
        from . import generate

        self.help = self.help.format(**{k: v for k, v in vars(generate).items() if k.isupper()})
        return super().get_help_record(ctx)


@main.command("generate")
@click.argument("size", required=False)
@click.option("--goal", metavar="BOARD", help="Goal to generate for (default: ordered).")
@click.option("--blank-first", is_flag=True, help="Ordered goal with the blank first.")
@click.option("-n", "count", type=int, default=1, show_default=True, cls=_GenerateOption,
              help="How many positions (at most {MAX_BOARDS:,}); printed as they are made.")
@click.option("--seed", type=int, default=None, help="Random seed (repeatable output).")
@click.option("--moves", "-k", type=int, default=None, cls=_GenerateOption,
              help="Random walk of K moves from the goal instead of a uniform random position"
                   " (at most {MAX_WALK:,}).")
@click.option("--format", "style", type=click.Choice(STYLES), default="slash", show_default=True)
@click.option("--blank", default=None,
              help=f"Symbol of the blank: one of {' '.join(sorted(BLANK_TOKENS))}"
                   " (default 0; * in contest style).")
def generate_command(size, goal, blank_first, count, seed, moves, style, blank):
    """Print random solvable positions of a SIZE (WxH) board, one per line."""
    from . import _args
    from .generate import MAX_BOARDS, MAX_WALK, iter_random_boards

    _startup_done()
    try:
        _args.integer(count, "-n", minimum=0, maximum=MAX_BOARDS,
                      why=" (the most positions one command makes)")
        _args.integer(moves, "--moves", minimum=0, maximum=MAX_WALK, optional=True,
                      why=" (the longest random walk; leave --moves out for a uniformly random"
                          " position)")
        if blank is not None and blank not in BLANK_TOKENS:
            raise SlidelabError(f"--blank {blank!r} would not read back as the blank;"
                                f" choose one of {' '.join(sorted(BLANK_TOKENS))}")
        if size is None and goal is None:
            raise SlidelabError("give a SIZE (e.g. 4x4) or --goal")
        boards = iter_random_boards(count, size, goal, moves=moves, blank_first=blank_first,
                                    seed=seed)
        for b in boards:  # each printed as soon as it is made
            click.echo(b.format(style, blank if blank is not None else "0"))
    except SlidelabError as exc:
        _fail(str(exc))


generate_command.help += (f"\n\nSIZE is WxH: both sides at least 2, at most {MAX_BOARD_CELLS:,}"
                          " cells in all (for example 181x181).")


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (localhost only by default).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Solves that run at once (one process each).")
def serve_command(host, port, workers):
    """Serve the web page (play, set up, solve, replay) and its JSON API."""
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401

        from .web import serve
    except ImportError as exc:
        _fail(f"slidelab serve needs the web extra ({exc.name} is missing):"
              f' pip install "slidelab[web]"')
    _startup_done()
    click.echo(f"slidelab: serving http://{host}:{port}/ (Ctrl-C to stop)", err=True)
    serve(host, port, workers=workers)


@main.group("moves")
def moves_group():
    """Move algebra: apply, invert, simplify, measure and convert move strings."""


def _notation_option(f):
    return click.option("--notation", "notation", type=click.Choice(["tile", "blank"]),
                        default="tile", show_default=True,
                        help="How MOVES is written: tile directions (UDLR) or blank (udlr).")(f)


def _to_option(f):
    return click.option("--to", "to", type=click.Choice(["tile", "blank", "numbers"]), default="tile",
                        show_default=True, help="How to write the result.")(f)


def _moves_action(action):
    try:
        action()
    except SlidelabError as exc:
        _fail(str(exc))


@moves_group.command("apply")
@click.argument("board")
@click.argument("moves")
@_notation_option
@click.option("--size", metavar="WxH", help="Size of a one-line board.")
@click.option("--format", "style", type=click.Choice(STYLES), default="slash", show_default=True)
def moves_apply(board, moves, notation, size, style):
    """Print BOARD after MOVES."""
    from .moves import apply_moves, parse_moves

    _moves_action(lambda: click.echo(
        apply_moves(Board(board, size), parse_moves(moves, notation)).format(style)))


@moves_group.command("invert")
@click.argument("moves")
@_notation_option
@_to_option
@click.option("--board", default=None, help="Start board (for --to numbers: the inverse's start).")
def moves_invert(moves, notation, to, board):
    """Print the moves that undo MOVES."""
    from .moves import format_moves, invert, parse_moves

    _moves_action(lambda: click.echo(
        format_moves(invert(parse_moves(moves, notation)), to, board=board)))


@moves_group.command("simplify")
@click.argument("moves")
@_notation_option
@_to_option
@click.option("--board", default=None, help="Start board (for --to numbers).")
def moves_simplify(moves, notation, to, board):
    """Merge runs (R R = R2) and cancel moves that undo each other (R L)."""
    from .moves import format_moves, parse_moves, simplify

    _moves_action(lambda: click.echo(
        format_moves(simplify(parse_moves(moves, notation)), to, board=board)))


@moves_group.command("length")
@click.argument("moves")
@_notation_option
def moves_length(moves, notation):
    """Print the length in single-tile (STM) and multi-tile (MTM) moves."""
    from .moves import mtm, parse_moves, stm

    def run():
        parsed = parse_moves(moves, notation)
        click.echo(f"{stm(parsed)} STM, {mtm(parsed)} MTM")
    _moves_action(run)


@moves_group.command("convert")
@click.argument("moves")
@_notation_option
@_to_option
@click.option("--board", default=None, help="Start board (needed for --to numbers).")
def moves_convert(moves, notation, to, board):
    """Rewrite MOVES in another notation (tile, blank, or tile numbers)."""
    from .moves import format_moves, parse_moves

    _moves_action(lambda: click.echo(format_moves(parse_moves(moves, notation), to, board=board)))


@main.group("tables")
def tables_group():
    """Manage cached tables (pattern databases): list, build, clear.

    Tables live in $SLIDELAB_CACHE, or the platform's user cache directory.
    """


@tables_group.command("list")
@click.option("--json", "as_json", is_flag=True)
def tables_list(as_json):
    """List cached tables with their size and whether they are valid."""
    from .cache import cache_dir, list_tables

    rows = list_tables()
    if as_json:
        click.echo(json.dumps([{k: (str(v) if k == "path" else v) for k, v in r.items()} for r in rows]))
        return
    click.echo(f"cache: {cache_dir()}")
    for r in rows:
        spec = r["spec"] or {}
        state = "ok" if r["valid"] else f"INVALID ({r['reason']})"
        click.echo(f"{r['key']}  {spec.get('kind', '?')} {spec.get('board', '')}  {r['bytes']:,} bytes"
                   f"  {state}\n    goal {spec.get('goal', '?')}")
    if not rows:
        click.echo("(no tables)")


@tables_group.command("build")
@click.argument("goal", required=False, default="4x4")
@click.option("--blank-first", is_flag=True, help="Ordered goal with the blank first.")
@click.option("--partition", default=None, help="6-6-3, 7-8, full, auto or '1,2,3/4,5,...'.")
def tables_build(goal, blank_first, partition):
    """Build the pattern databases for GOAL (a board, or a size WxH for the ordered goal)."""
    from .heuristics.pdb import pattern_database
    from .puzzle import Puzzle, goal_board

    _startup_done()
    try:
        board = goal_board(goal, blank_first=blank_first)
        puzzle = Puzzle(board, board)
        bar = _TableBar()
        db = pattern_database(puzzle, partition, progress=bar)
        bar.close()
    except SlidelabError as exc:
        _fail(str(exc))
    click.echo(f"{db.heuristic().description} for goal {puzzle.goal}: ready"
               f" ({sum(int(s) for s in db.layout.sizes):,} entries)")


@tables_group.command("clear")
@click.option("--kind", default=None, help="Only tables of this kind (e.g. pdb).")
@click.option("--yes", "-y", is_flag=True, help="Do not ask (needed when not on a terminal).")
def tables_clear(kind, yes):
    """Delete cached tables (asks first, saying what and how much)."""
    from .cache import clear_tables

    asked, removing = [], []

    def confirm(tables: list[dict]) -> bool:
        asked.append(True)
        total = format_bytes(sum(t["bytes"] for t in tables))
        plural = "s" if len(tables) != 1 else ""
        if not yes:
            if not _can_ask():
                _fail(f"not deleting {len(tables)} table{plural} ({total}) without"
                      " confirmation: run on a terminal, or add --yes")
            for t in tables:
                click.echo(f"  {t['kind']} {t['board']}  {format_bytes(t['bytes'])}  {t['key']}")
            these = "this table" if len(tables) == 1 else f"these {len(tables)} tables"
            if not click.confirm(f"delete {these} ({total})?"):
                return False
        removing.extend(tables)
        return True

    try:
        count = clear_tables(kind, confirm)
    except SlidelabError as exc:
        _fail(str(exc))
    if not removing:
        click.echo("nothing deleted" if asked else
                   "no tables to delete" + (f" of kind {kind}" if kind else ""))
        return
    total = format_bytes(sum(t["bytes"] for t in removing))
    click.echo(f"deleted {count} table{'s' if count != 1 else ''} ({total}): "
               + ", ".join(f"{t['kind']} {t['board']}".strip() for t in removing))


def _can_ask() -> bool:
    """Whether a person can answer a question: standard input is a terminal."""
    return sys.stdin is not None and sys.stdin.isatty()


class _AnalysisBar:
    """A progress bar on stderr over the states found: depth, states, rate."""

    def __init__(self):
        self.bar = None
        self.shown = 0

    def __call__(self, info: dict):
        if self.bar is None:
            self.bar = click.progressbar(length=int(info["total"]), label="searching",
                                         file=sys.stderr, show_eta=True, show_pos=False)
            self.bar.__enter__()
        step = int(info["states"]) - self.shown
        self.bar.label = (f"depth {info['depth']}: {info['states']:,} positions,"
                          f" {info['rate'] / 1e6:.1f} M/s")
        if step > 0:
            self.bar.update(step)
            self.shown += step

    def close(self):
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


@main.command("analyze")
@click.argument("goal", metavar="GOAL_OR_WxH")
@click.option("--blank-first", is_flag=True, help="With a size: the ordered goal with the blank first.")
@click.option("--json", "as_json", is_flag=True,
              help='One JSON object: {"goal", "size", "states", "diameter", "mean", "counts",'
                   ' "hardest", "n_hardest", "seconds"}.')
@click.option("--plot", "plot_file", metavar="FILE",
              help="Draw the distance distribution to FILE (.png or .svg; needs matplotlib).")
@click.option("--log", "log_scale", is_flag=True, help="With --plot: a logarithmic count axis.")
@click.option("--save", is_flag=True,
              help="Store the distance table in the cache (then solve uses it: --method table / auto).")
@click.option("--hardest", "n_hardest", type=int, default=None, metavar="N",
              help="List at most N hardest positions (default 100; all are counted).")
@click.option("--max-memory", default=None, metavar="BYTES",
              help="Refuse a search needing more (e.g. 8G; default three quarters of the memory"
                   " available, at most half the RAM).")
@click.option("--max-time", default=None, metavar="SECONDS",
              help="Refuse a search estimated to take longer (e.g. 2h; default 1h).")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when stderr is a terminal).")
def analyze_command(goal, blank_first, as_json, plot_file, log_scale, save, n_hardest, max_memory,
                    max_time, progress):
    """Enumerate every position reachable from GOAL (a board, or WxH for the ordered goal):
    the count at each distance, the diameter, the mean distance and the hardest positions."""
    from .analysis import analyze
    from .analysis.stats import DEFAULT_HARDEST

    _startup_done()
    bar = None
    try:
        if n_hardest is not None and n_hardest < 0:
            raise SlidelabError(f"--hardest must be at least 0, got {n_hardest}")
        if log_scale and plot_file is None:
            raise SlidelabError("--log goes with --plot")
        max_bytes = parse_bytes(max_memory) if max_memory is not None else None
        max_seconds = parse_duration(max_time) if max_time is not None else None
        if max_seconds is not None and not max_seconds > 0:
            raise SlidelabError(f"--max-time must be positive, got {max_time!r}")
        if plot_file is not None:
            from .analysis.plot import check_plot_path, require_matplotlib

            check_plot_path(plot_file)
            require_matplotlib()
        show = sys.stderr.isatty() if progress is None else progress
        bar = _AnalysisBar() if show else None
        stats = analyze(goal, bar, hardest=DEFAULT_HARDEST if n_hardest is None else n_hardest,
                        save=save, blank_first=blank_first, max_bytes=max_bytes,
                        max_seconds=max_seconds)
        if bar:
            bar.close()
        if plot_file is not None:
            stats.plot(plot_file, log=log_scale)
    except SlidelabError as exc:
        if bar:
            bar.close()
        _fail(str(exc))
    if as_json:
        click.echo(json.dumps(stats.as_dict()))
        return
    _show_stats(stats, save, plot_file)


def _show_stats(stats, saved, plot_file):
    click.echo(f"goal ({stats.size}):\n{stats.goal.grid()}")
    click.echo(f"{stats.states:,} positions, diameter {stats.diameter},"
               f" mean distance {stats.mean:.4f}")
    width = max(9, len(f"{max(stats.counts):,}"))
    click.echo(f"distance  {'positions':>{width}}")
    for d, c in enumerate(stats.counts):
        click.echo(f"{d:>8}  {c:>{width},}")
    listed = len(stats.hardest)
    plural = "s" if stats.n_hardest != 1 else ""
    more = f", first {listed} listed" if listed < stats.n_hardest else ""
    click.echo(f"{stats.n_hardest:,} hardest position{plural} ({stats.diameter} moves{more}):")
    for b in stats.hardest:
        click.echo(b.format())
    if saved:
        click.echo("distance table saved in the cache")
    if plot_file is not None:
        click.echo(f"plot written to {plot_file}")
    click.echo(f"time {stats.seconds:.3f} s")


@main.command("batch")
@click.argument("input_file", metavar="INPUT")
@click.option("-o", "--output", default=None, metavar="FILE",
              help="Results, one JSON object per line, written as each instance finishes;"
                   " run again with the same FILE to go on where a run stopped."
                   " Default: standard output.")
@_goal_options
@_search_options
@click.option("--workers", "-j", type=click.IntRange(1, 4096), default=None,
              help="Local worker processes (default: one per core).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Solve on a Dask cluster: its scheduler's address (tcp://host:8786).")
@click.option("--redo-failed", is_flag=True,
              help="Solve again the instances whose result in the output file is an error.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when stderr is a terminal).")
def batch_command(input_file, output, goal, blank_first, size, method, heuristic, partition, weight,
                  time_limit, max_states, max_memory, workers, scheduler, redo_failed, progress):
    """Solve every instance of INPUT (a file, or - for standard input), one per line.

    A line holds a board, optionally followed by '; GOAL' and '; ID' (or fields
    goal=..., id=..., known=...), or Korf's benchmark layout: the tiles as
    numbers, optionally preceded by the instance's number and followed by the
    known optimal length, which is then checked.  Blank lines and # comments
    are skipped.  A summary table follows the results.
    """
    import signal

    from .batch import ResultsFile, read_instances, solve_batch, summarize
    from .batch.run import default_workers

    _startup_done()
    try:
        if redo_failed and output is None:
            raise SlidelabError("--redo-failed goes with -o (an output file to read back)")
        if scheduler is not None and workers is not None:
            raise SlidelabError("--workers is for local processes; a Dask cluster has its own")
        max_bytes = parse_bytes(max_memory) if max_memory is not None else None
        options = _check_search_options(method, heuristic, weight, time_limit, max_states,
                                        max_bytes, partition, goal, blank_first, size)
        instances = read_instances(_batch_lines(input_file), size)
        if output is not None and input_file != "-" and _same_file(input_file, output):
            raise SlidelabError("the output file is the input file")
        results = ResultsFile(output, instances, redo_failed) if output is not None else None
    except SlidelabError as exc:
        _fail(str(exc))
    if results is not None and not results.resumable:
        click.echo(f"note: {output} is not a regular file: the results are written there"
                   " without resume (nothing is read back)", err=True)
    done = results.done if results is not None else {}
    todo = [i for i in instances if i.line not in done]
    workers = None if scheduler is not None else (workers or default_workers())
    show = sys.stderr.isatty() if progress is None else progress
    where = f"the Dask cluster at {scheduler}" if scheduler else \
        f"{min(workers, len(todo)) or workers} worker process{'es' if workers != 1 else ''}"
    if show:
        earlier = f", {len(done):,} done in an earlier run" if done else ""
        doing = f"solving {len(todo):,} on {where}" if todo else "nothing left to solve"
        click.echo(f"{len(instances):,} instances{earlier}; {doing}", err=True)
    bar = _BatchBar(len(instances), len(done), show and bool(todo))
    this_run: list[dict] = []
    interrupted = False
    previous = signal.signal(signal.SIGTERM, _interrupted)  # kill: stop as cleanly as Ctrl-C
    began = time.perf_counter()
    records = None
    try:
        records = solve_batch(todo, goal=goal, blank_first=blank_first, size=size, options=options,
                              workers=workers, scheduler=scheduler, table_progress=bar.tables)
        if results is not None:
            results.__enter__()
        for record in records:
            if results is not None:
                results.append(record)
            else:
                click.echo(json.dumps(record))
            this_run.append(record)
            bar.update(record)
    except KeyboardInterrupt:
        interrupted = True
    except SlidelabError as exc:  # the cluster cannot be reached, the output cannot be written
        bar.close()
        _fail(str(exc))
    finally:
        if records is not None:
            records.close()  # stops the workers
        bar.close()
        if results is not None:
            results.__exit__(None, None, None)
        signal.signal(signal.SIGTERM, previous)
    seconds = time.perf_counter() - began
    summary = summarize(done.values() if results is not None else this_run)
    echo = functools.partial(click.echo, err=results is None)
    echo(summary.table())
    rate = f", {len(this_run) / seconds:.2f} per second" if seconds > 0 and this_run else ""
    if todo:
        echo(f"this run: {len(this_run):,} instances in {seconds:.1f} s on {where}{rate}")
    if interrupted:
        left = len(instances) - summary.instances
        echo(f"interrupted with {left:,} instances left"
             + ("; run the same command again to go on" if results is not None else ""))
        sys.exit(130)
    sys.exit(FAILED if summary.failed or summary.mismatches else OK)


def _batch_lines(input_file: str) -> list[str]:
    """The lines of INPUT, or of standard input for ``-`` (up to a stated size: see read_lines)."""
    from .batch.instances import read_lines

    if input_file == "-":
        if sys.stdin is None or sys.stdin.isatty():
            raise SlidelabError("INPUT is - but nothing is on standard input")
        return read_lines(sys.stdin, "standard input")
    try:
        with open(input_file, encoding="utf-8") as f:
            return read_lines(f, input_file)
    except OSError as exc:
        raise SlidelabError(f"cannot read {input_file}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise SlidelabError(f"{input_file} is not text (UTF-8): byte {exc.start}") from None


def _same_file(a: str, b: str) -> bool:
    import os

    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


class _BatchBar:
    """The batch's progress bar on stderr: count, rate, ETA, failures (tqdm)."""

    def __init__(self, total: int, done: int, show: bool):
        self.bar = None
        self.failed = 0
        if show:
            from tqdm import tqdm

            self.bar = tqdm(total=total, initial=done, desc="solving", unit=" instances",
                            file=sys.stderr, dynamic_ncols=True, smoothing=0.05)

    def tables(self, fraction: float, message: str) -> None:
        if self.bar is not None:
            self.bar.set_description_str(f"tables {fraction:4.0%} {message[:40]}")

    def update(self, record: dict) -> None:
        if self.bar is None:
            return
        if self.bar.desc != "solving":
            self.bar.set_description_str("solving", refresh=False)
        if record.get("error"):
            self.failed += 1
            self.bar.set_postfix_str(f"{self.failed:,} failed", refresh=False)
        self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
