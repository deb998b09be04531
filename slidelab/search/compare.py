"""Several methods on one position, side by side: ``slidelab compare`` and the web page's lab.

Each method answers the same :class:`~slidelab.search.request.Request` (the position read and
checked once: :func:`compare` reads it, :func:`compare_request` takes it read, as the web
server's workers do) with its own time limit, one after the other in this process, as
:func:`~slidelab.search.solve.solve_request` would answer it alone.  A method that stops (a limit, a
metric it does not search) gives a row that says why; it never ends the comparison (Ctrl-C
does: a ``KeyboardInterrupt``, or IDA*'s :class:`~slidelab.errors.SearchInterrupted`, raised).

Per row: the method, the heuristic it searched with (the default resolved, as ``solve`` does),
the length (proven optimal or not), the nodes expanded and generated, the states stored, the
most memory its answer held at once (its visited sets, frontiers and paths: see
:attr:`Entry.memory_bytes`), and three times: the
search alone, the whole answer (the search, the solution replayed and checked), and the set-up
before it.  The set-up is the method answering a position one move from the goal first: its
kernels compiled or loaded, its tables built or loaded, so that neither is counted in the
answer's time and memory, and neither is hidden.  Breadth-first searches give a row
per layer, IDA* one per iteration (:attr:`slidelab.solution.Stats.phases`).

Examples
--------
>>> c = compare("8 6 7/2 5 4/3 0 1", methods=["bidirectional", "idastar"])
>>> [(e.method, e.length, e.optimal) for e in c.entries]
[('bidirectional', 31, True), ('idastar', 31, True)]
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import asdict, dataclass, field, replace

from .. import _args
from ..errors import SearchLimitError, SlidelabError
from ..generate import scramble
from ..puzzle import Puzzle
from ..solution import Solution, Stats
from ..units import format_bytes
from .plan import make_plan
from .policy import ready_heuristic
from .registry import METHODS, method_name
from .request import Request, read_request

#: the methods compared where none are named: the classic articles' line-up
DEFAULT_METHODS = (
    "bfs",
    "bidirectional",
    "astar",
    "weighted-astar",
    "bidirectional-astar",
    "idastar",
)

#: seconds each method may take where no time limit is given
DEFAULT_TIME_LIMIT = 10.0

#: an answer of at most this many seconds is made once more, traced, for its memory; a longer
#: one's memory is the growth of the process's peak resident memory while it ran
TRACE_SECONDS = 5.0


@dataclass(frozen=True)
class Entry:
    """One method's row of a comparison.

    Attributes
    ----------
    method, heuristic, metric : str
        What ran (``heuristic`` None for a method that takes none).
    solution : Solution or None
        Its answer; None when it stopped (``error`` says why).
    error : str or None
        Why it stopped without an answer (without the remedy).
    stats : Stats
        What its search did (of the answer, or up to where it stopped).
    memory_bytes : int or None
        The most memory its answer held at once (kernels and tables ready before): traced
        (:mod:`tracemalloc`, numpy's arrays included) on the answer made once more where it
        took at most :data:`TRACE_SECONDS`, else the growth of the process's peak resident
        memory while it ran; None where neither can be told.
    total_seconds : float
        The whole answer, its kernels and tables ready: choosing, search, replaying and checking.
    setup_seconds : float
        Before it: the method answering a position one move from the goal, its kernels compiled
        or loaded and its tables built or loaded.
    remedy : slidelab.tables.family.Tables or None
        The tables that would have let it answer, where its limit names them (the command line
        says how to build them; ``as_dict`` gives what they are, their size and time).
    """

    method: str
    heuristic: str | None
    metric: str
    solution: Solution | None
    error: str | None
    stats: Stats = field(default_factory=Stats)
    memory_bytes: int | None = None
    total_seconds: float = 0.0
    setup_seconds: float = 0.0
    remedy: object = field(default=None, compare=False, repr=False)

    @property
    def length(self) -> int | None:
        return None if self.solution is None else self.solution.length

    @property
    def optimal(self) -> bool:
        return self.solution is not None and self.solution.optimal

    @property
    def search_seconds(self) -> float:
        """The search alone."""
        return self.stats.seconds

    def as_dict(self) -> dict:
        s = self.solution
        return {
            "method": self.method,
            "heuristic": self.heuristic,
            "metric": self.metric,
            "length": self.length,
            "length_stm": None if s is None else s.length_stm,
            "length_mtm": None if s is None else s.length_mtm,
            "optimal": self.optimal,
            "expanded": self.stats.expanded,
            "generated": self.stats.generated,
            "stored": self.stats.stored,
            "peak_frontier": self.stats.peak_frontier,
            "memory_bytes": self.memory_bytes,
            "search_seconds": self.search_seconds,
            "setup_seconds": self.setup_seconds,
            "total_seconds": self.total_seconds,
            "solution": None if s is None else s.format(),
            "error": self.error,
            "phases": [asdict(p) for p in self.stats.phases],
            "visits": [asdict(v) for v in self.stats.visits],
            **({} if self.remedy is None else {"remedy": _remedy(self.remedy)}),
        }


@dataclass(frozen=True)
class Comparison:
    """The rows of :func:`compare`, in the order the methods were given."""

    start: object
    goal: object
    metric: str
    entries: list[Entry]
    #: the methods asked for that were not run, and why (they do not search in the metric)
    skipped: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {
            "start": self.start.format(),
            "goal": self.goal.format(),
            "metric": self.metric,
            "entries": [e.as_dict() for e in self.entries],
            "skipped": dict(self.skipped),
        }

    def format(self, phases: bool = False) -> str:
        """A text table, a row a method; ``phases``: each method's layers or iterations under
        it."""
        head = (
            "method",
            "heuristic",
            "length",
            "optimal",
            "expanded",
            "generated",
            "stored",
            "memory",
            "search s",
            "answer s",
            "set-up s",
        )
        rows = []
        for e in self.entries:
            rows.append(
                (
                    e.method,
                    e.heuristic or "-",
                    "-" if e.length is None else str(e.length),
                    "yes" if e.optimal else "no" if e.solution is not None else "-",
                    f"{e.stats.expanded:,}",
                    f"{e.stats.generated:,}",
                    f"{e.stats.stored:,}",
                    "-" if e.memory_bytes is None else format_bytes(e.memory_bytes),
                    f"{e.search_seconds:.3f}",
                    f"{e.total_seconds:.3f}",
                    f"{e.setup_seconds:.3f}",
                )
            )
        widths = [max(len(r[i]) for r in (head, *rows)) for i in range(len(head))]

        def line(cells) -> str:
            return "  ".join(
                c.ljust(w) if i < 2 else c.rjust(w)
                for i, (c, w) in enumerate(zip(cells, widths, strict=True))
            ).rstrip()

        metric = self.metric.upper()
        out = [f"start: {self.start.format()}   goal: {self.goal.format()}   lengths in {metric}"]
        out += ["", line(head), line(["-" * w for w in widths])]
        for e, row in zip(self.entries, rows, strict=True):
            out.append(line(row))
            if e.error:
                advice = "" if e.remedy is None else f"; {e.remedy.advice(e.error)}"
                out.append(f"    stopped: {e.error}{advice}")
            if phases and e.stats.phases:
                out.extend(_phase_lines(e.stats))
        for name, why in self.skipped.items():
            out.append(f"{name}: not run ({why})")
        out += [
            "",
            "search s: the search alone; answer s: the whole answer (the search, the solution"
            " replayed and checked); set-up s: before it, the method's kernels and tables made"
            " ready (built, compiled or loaded, on a position one move from the goal); memory:"
            " the most the answer held at once",
        ]
        return "\n".join(out)


def _phase_lines(stats: Stats) -> list[str]:
    """A method's layers, iterations or contours, indented under its row."""
    lines = []
    for p in stats.phases:
        if p.kind == "iteration":
            what = f"bound {p.depth:g}"
        elif p.kind == "contour":
            what = f"f {p.depth:g}"
        else:
            what = f"depth {p.depth:g}" + (f" {p.side}" if p.side else "")
        made = (
            f"  layer {p.frontier:>10,}"
            if p.kind == "layer"
            else f"  open {p.frontier:>11,}"
            if p.kind == "contour"
            else ""
        )
        lines.append(
            f"    {what:<18} expanded {p.expanded:>12,}  generated {p.generated:>12,}{made}"
            f"  {p.seconds:.4f} s"
        )
    return lines


def compare(
    start,
    goal=None,
    *,
    methods=None,
    heuristic: str | None = None,
    metric: str = "stm",
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    blank_first: bool = False,
    size=None,
    progress=None,
    record: int = 0,
) -> Comparison:
    """Solve one position with each of ``methods`` (default :data:`DEFAULT_METHODS`), side by
    side (see the module): the request read once (:func:`~.request.read_request`), then
    :func:`compare_request`.

    Parameters
    ----------
    start, goal, blank_first, size
        The position and its goal, as :func:`~slidelab.search.solve.solve` reads them (read
        and checked once).
    methods : list of str, optional
        Method names or aliases, or one comma-separated string (:func:`method_names`).
    heuristic : str, optional
        For the methods that take one; the others search without.
    metric : str
        ``stm`` or ``mtm``: a method that does not search that metric gives a row saying so.
    time_limit : float, optional
        Seconds for each method's answer (default :data:`DEFAULT_TIME_LIMIT`); None: none.
    progress : callable, optional
        ``progress(entries, method)`` before each method: the entries so far and the method
        that runs next.
    record : int
        Nodes of each search to record for playing it back, in its row's ``stats.visits``
        (:attr:`~.limits.Limits.record`): A*'s first expansions, a breadth-first search's
        first states of each layer.  The search is answered again to record them, so its
        times and memory are those of the search unrecorded.  Default 0: none.

    Examples
    --------
    >>> print(compare("1 2 3/4 5 6/7 0 8", methods="bfs").format())  # doctest: +ELLIPSIS
    start: 1 2 3/4 5 6/7 0 8   goal: 1 2 3/4 5 6/7 8 0   lengths in STM
    <BLANKLINE>
    method  heuristic  length  optimal  expanded  generated  stored  memory ...
    ...
    bfs     -               1      yes  ...
    """
    names = method_names(methods)
    # the heuristic's canonical name: an unknown one is bad input, not a row
    request = read_request(
        start,
        goal,
        blank_first=blank_first,
        size=size,
        metric=metric,
        time_limit=time_limit,
        heuristic=heuristic,
    )
    return compare_request(request, names, progress=progress, record=record)


def compare_request(
    request: Request, methods=None, *, progress=None, record: int = 0
) -> Comparison:
    """:func:`compare` of a request read and checked already (:func:`~.request.read_request`):
    each of ``methods`` (canonical names, as :func:`method_names` gives them; default
    :data:`DEFAULT_METHODS`) answers it in turn with the request's options (its heuristic for
    the methods that take one, its metric, and its time limit for each method's answer:
    :meth:`~.options.SearchOptions.for_method`).  Nothing is parsed, checked or resolved again:
    the web server's and batch's workers take the request as it is.  ``record``: the nodes of
    each search to record for playing it back (:attr:`~.limits.Limits.record`; the web page's
    lab on small boards), in its row's ``visits``.

    Examples
    --------
    >>> from .request import read_request
    >>> c = compare_request(read_request("1 2 3/4 5 6/7 0 8", time_limit=5), ["bfs", "idastar"])
    >>> [(e.method, e.length) for e in c.entries]
    [('bfs', 1), ('idastar', 1)]
    """
    _args.instance(request, "request", Request)
    names = list(DEFAULT_METHODS) if methods is None else list(methods)
    unknown = [name for name in names if name not in METHODS]
    if unknown or not names:
        raise _args.ArgumentError(
            "compare_request takes canonical method names (method_names reads them), got"
            f" {_args.show(unknown[0] if unknown else methods)}"
        )
    _args.callback(progress, "progress")
    record = _args.integer(record, "record", minimum=0)
    metric = request.options.metric
    run, skipped = runnable(names, metric)
    request = _with_default_heuristic(request)
    entries: list[Entry] = []
    for name in run:
        if progress is not None:
            progress(list(entries), name)
        entries.append(_one(request, name, record))
    puzzle = request.puzzle
    return Comparison(puzzle.start, puzzle.goal, metric, entries, skipped)


def runnable(names, metric: str) -> tuple[list[str], dict]:
    """The methods of ``names`` (canonical) that search in ``metric``, and the others with why
    they are not run.

    >>> runnable(["bfs", "bidirectional-astar"], "mtm")
    (['bfs'], {'bidirectional-astar': 'it does not search in MTM'})
    """
    skipped = {
        name: f"it does not search in {metric.upper()}"
        for name in names
        if metric not in METHODS[name].metrics
    }
    return [name for name in names if name not in skipped], skipped


def _with_default_heuristic(request: Request) -> Request:
    """The request, with the heuristic ``auto`` would search its board with now where it names
    none (:func:`~.policy.ready_heuristic`: the strongest whose tables are cached), for every
    method that takes one: the rows search as a solve would, and each names what it used."""
    options = request.options
    if options.heuristic is not None or options.partition is not None:
        return request
    heuristic, more = ready_heuristic(request.puzzle, options)
    return Request(request.puzzle, options.replace(heuristic=heuristic, **more))


def method_names(methods) -> list[str]:
    """The canonical names of ``methods`` (method names or aliases, or one comma-separated
    string; None: :data:`DEFAULT_METHODS`), each once, in order: a comparison's methods, read
    once.

    >>> method_names("bfs, IDA*,a*,bfs")
    ['bfs', 'idastar', 'astar']
    """
    if methods is None:
        return list(DEFAULT_METHODS)
    if isinstance(methods, str):
        methods = [m for m in methods.split(",") if m.strip()]
    names: list[str] = []
    for m in methods:
        name = method_name(_args.text(m, "method"))
        if name not in names:
            names.append(name)
    if not names:
        raise SlidelabError("no method to compare; name at least one")
    return names


def _one(request: Request, method: str, record: int = 0) -> Entry:
    """One method's row: its answer to ``request``, or why it stopped; with ``record``, the
    nodes of its search recorded in its statistics' ``visits`` where the method records them
    (:attr:`~.registry.Method.records`), by answering again: the time and memory are those of
    the search unrecorded."""
    from .solve import solve_request

    puzzle, given = request.puzzle, request.options
    metric = given.metric
    takes = "heuristic" in METHODS[method].options
    used = given.heuristic if takes else None
    setup, began, floor = 0.0, time.perf_counter(), None
    try:
        options = given.for_method(method)
        plan = make_plan(puzzle, options)
        if takes:
            used = plan.heuristic
        began = time.perf_counter()
        near = Puzzle(scramble(1, goal=puzzle.goal, seed=0), puzzle.goal)
        with contextlib.suppress(SlidelabError):  # the real answer says what went wrong
            solve_request(Request(near, options))
        setup = time.perf_counter() - began
        began = time.perf_counter()
        floor = _resident_peak(reset=True)
        solution = solve_request(Request(puzzle, options), plan=plan)
        stats, error, remedy = solution.stats, None, solution.remedy
    except SearchLimitError as exc:
        solution, error, remedy = None, exc.reason, exc.remedy
        stats = exc.stats if exc.stats is not None else Stats()
    except SlidelabError as exc:
        return Entry(method, used, metric, None, str(exc), Stats(), None, 0.0, setup)
    total = time.perf_counter() - began
    peak = _resident_peak()
    memory = None if floor is None or peak is None else max(0, peak - floor)
    if solution is not None and total <= TRACE_SECONDS:
        memory = _traced_peak(lambda: solve_request(Request(puzzle, options), plan=plan))
        if record and METHODS[method].records:  # the same search again, recorded: slower
            recorded = solve_request(Request(puzzle, options), plan=plan, record=record)
            stats = replace(stats, visits=recorded.stats.visits)
    return Entry(method, used, metric, solution, error, stats, memory, total, setup, remedy)


def _remedy(tables) -> dict:
    """A remedy's fields for JSON (the web page's lab): what the tables are, their bytes and
    seconds to build here (compiling included); the command is the command line's to say."""
    cost = tables.cost()
    return {
        "tables": tables.describe(),
        "bytes": cost.disk_bytes,
        "seconds": round(cost.seconds, 1),
    }


def _traced_peak(answer) -> int:
    """The most memory ``answer()`` held at once, in bytes, as :mod:`tracemalloc` counts it
    (numpy's arrays included): the answer made again, since tracing slows it."""
    import tracemalloc

    tracemalloc.start()
    try:
        answer()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _resident_peak(reset: bool = False) -> int | None:
    """The process's peak resident memory in bytes (``VmHWM``); with ``reset``, the peak set to
    the resident memory now first (Linux's ``clear_refs``), the value then the resident memory
    now.  None where the system does not tell."""
    try:
        if reset:
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None
