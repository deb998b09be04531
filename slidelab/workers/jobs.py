"""What a job does: a solve, an analysis, a generation, a comparison or a hint, and the jobs'
arguments, built here.

A job is ``(kind, args)``, made by :func:`solve_job`, :func:`analyze_job`,
:func:`generate_job`, :func:`compare_job` or :func:`hint_job` (the web server, batch and the
warm-ups build them here and nowhere else) and run by :func:`run_job`, in a worker process of
:mod:`.pool` or as a Dask task (``slidelab batch --scheduler``).  The arguments of a solve, a
comparison and a hint are a request read and checked already (:class:`~slidelab.search.request.Request`: a
:class:`~slidelab.puzzle.Puzzle` and its :class:`~slidelab.search.options.SearchOptions`,
both pickled as they are): a job parses, checks and resolves nothing again.

This module imports neither FastAPI nor numba (the search is imported when a job runs).
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..board import Board
    from ..search.request import Request

#: seconds between progress messages from a worker
PROGRESS_EVERY = 0.2

#: what :func:`run_job` answers: the job's result, or why it failed
DONE, FAILED = "done", "failed"


# --------------------------------------------------------------------------------------------
# the jobs' arguments, built in one place


def solve_job(request: Request) -> tuple[str, dict]:
    """The job that solves ``request`` (read and checked: :func:`~slidelab.search.request.read_request`);
    its result is the ``solve --json`` record."""
    return "solve", {"puzzle": request.puzzle, "options": request.options}


def analyze_job(goal: Board, metric: str = "stm") -> tuple[str, dict]:
    """The job that analyses the whole space of ``goal`` in ``metric`` (the ``analyze --json``
    record)."""
    return "analyze", {"goal": goal, "metric": metric}


def generate_job(
    goal: Board, n: int = 1, moves: int | None = None, seed=None, format: str | None = None
) -> tuple[str, dict]:
    """The job that makes ``n`` random solvable positions of ``goal`` (``{"boards": [...]}``,
    each written in ``format``): uniform, or random walks of ``moves`` moves."""
    return "generate", {"goal": goal, "n": n, "moves": moves, "seed": seed, "format": format}


def compare_job(request: Request, methods: tuple, record: int = 0) -> tuple[str, dict]:
    """The job that runs each of ``methods`` (canonical names:
    :func:`~slidelab.search.compare.method_names`) on ``request`` (read and checked: its
    heuristic, metric and time limit for each method's answer), one method at a time so that
    each finished entry is reported while the next runs
    (:func:`~slidelab.search.compare.compare_request`, with ``record`` nodes of each search
    recorded for playing it back); its result is ``Comparison.as_dict()``."""
    return "compare", {
        "puzzle": request.puzzle,
        "options": request.options,
        "methods": tuple(methods),
        "record": int(record),
    }


def hint_job(request: Request) -> tuple[str, dict]:
    """The job that finds the best next move and the distance of ``request``'s start to its goal
    (read and checked: its metric, and its time limit for a search;
    :func:`~slidelab.search.hint.hint_request`); its result is ``Hint.as_dict()``."""
    return "hint", {"puzzle": request.puzzle, "options": request.options}


def review_job(request: Request, moves: tuple) -> tuple[str, dict]:
    """The job that reviews the solve ``moves`` (read and legal) from ``request``'s start
    (read and checked: its metric, and each position's search time;
    :func:`~slidelab.search.review.review_request`); its result is ``Review.as_dict()``."""
    return "review", {"puzzle": request.puzzle, "options": request.options, "moves": moves}


def tables_job(tables) -> tuple[str, dict]:
    """The job that makes one set of tables ready (a :class:`~slidelab.tables.family.Tables`):
    built, announced, or loaded where another process built them meanwhile (it waits for that
    process: no clock); its result is ``{"tables": what they are, "ready": bool}``."""
    return "tables", {"tables": tables}


def server_tables_job(
    stage: str = "first",
    smallest: int = 0,
    largest: int | None = None,
    cache_limit: int | None = None,
    nice: int = 0,
    wait: float = 0.0,
    build: bool = True,
    compile: tuple = (),
) -> tuple[str, dict]:
    """The job of a server's own tables (:func:`slidelab.search.policy.server_tables`, rule 4
    of :mod:`slidelab.search.policy`), listed where the job runs (the server process imports
    no numba).

    ``stage="first"``: the tables it builds before it says it is ready, those of boards of
    ``smallest`` to ``largest`` cells; in a worker's warm-up, one :func:`tables_job` each
    (:func:`warm_up_jobs`), so that a job that comes meanwhile waits only for those of its
    own goal (:func:`alike`).

    ``stage="later"``: the server's builder.  It reports every one of the server's tables and
    its state (``{"tables": [...]}``: ``ready``, ``building``, ``queued``, ``skipped``,
    ``failed``), waits up to ``wait`` seconds for the first ones (the lanes' warm-up builds
    them), then lowers its priority by ``nice`` and builds the later ones one at a time,
    except those past ``cache_limit`` bytes of tables in all, the first ones' counted (the
    server's table cache), or none without ``build`` (they are ``skipped``); then, with
    ``build``, runs the jobs of ``compile`` whose kernels are not compiled yet (at the same low
    priority: the warm-up jobs it left out, :func:`when_compiled`), so that their first real use
    only loads them; its result is the last report."""
    return "server-tables", {
        "stage": stage,
        "smallest": int(smallest),
        "largest": None if largest is None else int(largest),
        "cache_limit": cache_limit,
        "nice": int(nice),
        "wait": float(wait),
        "build": bool(build),
        "compile": tuple(compile),
    }


def when_compiled(job: tuple) -> tuple[str, dict]:
    """A solve of a warm-up that only loads: run where its kernels are compiled already
    (:func:`compiled`), left out where they are not (a first start compiles only what the
    page's defaults need; the server's builder compiles the rest after its later tables:
    :func:`server_tables_job`'s ``compile``)."""
    return "when-compiled", {"job": job}


def compiled(job: tuple) -> bool:
    """Whether the kernels a solve job searches with are compiled (only loaded, then): its
    method's set with its heuristic in its metric (:func:`slidelab.search._common.kernel_key`).
    A job of another kind, or of ``auto`` (whose set depends on the board), is not known to be."""
    from .._jit import kernels_compiled
    from ..search._common import kernel_key

    options = job[1].get("options") if job[0] == "solve" else None
    if options is None or options.method == "auto":
        return False
    return kernels_compiled(kernel_key(options.method, options.heuristic, options.metric))


def warm_up_jobs(jobs) -> list:
    """The warm-up ``jobs`` as a worker runs them: a job of the server's first tables
    (:func:`server_tables_job`) becomes a :func:`tables_job` for each set of them, in order
    (none where they cannot be listed: the rest of the warm-up goes on); a job
    :func:`when_compiled` is run where its kernels are compiled (loaded: a moment), else
    left out (compiling it would hold the server's first start up)."""
    out: list = []
    for job in jobs:
        if job[0] == "server-tables" and job[1].get("stage") == "first":
            try:
                out.extend(tables_job(tables) for tables in _first_tables(job[1]))
            except Exception:  # noqa: BLE001 - a warm-up never fails; a solve builds on its clock
                pass
        elif job[0] == "when-compiled":
            if compiled(job[1]["job"]):
                out.append(job[1]["job"])
        else:
            out.append(job)
    return out


def _first_tables(args: dict) -> list:
    """The server's first tables (:func:`~slidelab.search.policy.server_tables`) for boards of
    ``args["smallest"]`` to ``args["largest"]`` cells."""
    from ..search.policy import server_tables

    smallest, largest = args.get("smallest") or 0, args.get("largest")
    return [
        tables
        for tables in server_tables()[0]
        if smallest <= tables.goal.width * tables.goal.height
        and (largest is None or tables.goal.width * tables.goal.height <= largest)
    ]


def alike(warm_up: tuple, job: tuple) -> bool:
    """Whether the warm-up job ``warm_up`` loads what ``job`` needs: the same kind and, for
    a solve, the same method and heuristic (any heuristic of the method when ``job``
    names none); a set of tables (:func:`tables_job`) is like a solve of its goal in its
    metric (the tables ``auto`` searches it with: the server's one-time work, done before the
    solve's clock starts)."""
    if warm_up[0] == "tables":
        if job[0] != "solve":
            return False
        tables, puzzle = warm_up[1]["tables"], job[1]["puzzle"]
        return tables.goal == puzzle.goal and tables.metric == job[1]["options"].metric
    if warm_up[0] != job[0]:
        return False
    if job[0] != "solve":
        return True
    mine, theirs = warm_up[1]["options"], job[1]["options"]
    return mine.method == theirs.method and theirs.heuristic in (None, mine.heuristic)


# --------------------------------------------------------------------------------------------
# running a job


def run_job(kind: str, args: dict, report=None) -> tuple:
    """One job: ``("done", result)`` or ``("failed", {"error", "kind", ...})``; never raises,
    but an interrupt (Ctrl-C where the job runs in the caller's process: a
    ``KeyboardInterrupt``, :class:`~slidelab.errors.SearchInterrupted` among them), which stops
    everything (a worker process of :mod:`.pool` ignores Ctrl-C: its server stops it).

    ``kind`` and ``args`` as :func:`solve_job`, :func:`analyze_job`, :func:`generate_job`,
    :func:`compare_job`, :func:`hint_job`, :func:`review_job`, :func:`tables_job` and
    :func:`server_tables_job`
    make them.  A failure's ``kind``: ``input``, ``unsolvable``, ``limit`` (with the search's
    ``stats``), ``cluster`` (a Dask cluster that could not answer:
    :class:`~slidelab.errors.ClusterError`) or ``internal``.  A limit reached that names the
    tables that would have helped says why without them (``reason``) and what they are
    (``remedy``: :func:`remedy_fields`) besides the message (``error``, which names the command
    that builds them ahead of time).  ``report``, if given, is called with progress dicts now
    and then.
    """
    from ..errors import ClusterError, SearchLimitError, SlidelabError, UnsolvableError
    from ..memory import granted

    try:
        if kind == "solve":
            with granted(1):  # a job per worker (process, or Dask thread): no splitting further
                return DONE, _solve(args, report)
        if kind == "analyze":
            return DONE, _analyze(args)
        if kind == "generate":
            return DONE, _generate(args)
        if kind == "compare":
            with granted(1):
                return DONE, _compare(args, report)
        if kind == "hint":
            with granted(1):
                return DONE, _hint(args)
        if kind == "review":
            with granted(1):
                return DONE, _review(args)
        if kind == "tables":
            return DONE, _tables(args, report)
        if kind == "server-tables":
            return DONE, _server_tables(args, report)
        raise SlidelabError(f"unknown job kind {kind!r}")
    except UnsolvableError as exc:
        return FAILED, {"error": str(exc), "kind": "unsolvable"}
    except SearchLimitError as exc:
        stats = exc.stats.as_dict() if getattr(exc, "stats", None) is not None else None
        failed = {"error": str(exc), "kind": "limit", "stats": stats}
        if getattr(exc, "remedy", None) is not None:  # for a front end with no shell
            failed["reason"], failed["remedy"] = exc.reason, remedy_fields(exc.remedy)
        return FAILED, failed
    except ClusterError as exc:  # its scheduler or a worker lost: not the input's fault
        return FAILED, {"error": str(exc), "kind": "cluster"}
    except SlidelabError as exc:
        return FAILED, {"error": str(exc), "kind": "input"}
    except MemoryError:
        return FAILED, {"error": "out of memory", "kind": "limit"}
    except Exception as exc:  # noqa: BLE001 - reported to the client, never raised in the server
        return FAILED, {
            "error": f"internal error: {type(exc).__name__}: {exc}".splitlines()[0],
            "kind": "internal",
        }


def _solve(args: dict, report=None) -> dict:
    """The solve of a request read and checked before it was sent: nothing is read again."""
    from ..search.solve import solve_request

    request = _request(args)
    last = [0.0]

    def progress(info: dict) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY:
            last[0] = now
            report({k: v for k, v in info.items() if isinstance(v, (int, float, str))})

    notice: dict = {}

    def table_progress(fraction: float, message: str) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY:
            last[0] = now
            report({"tables": round(float(fraction), 4), "message": str(message), **notice})

    def said(text: str) -> None:  # what auto does, and a build announced before it starts
        notice["notice"] = text
        report({"notice": text})

    with _notices(said if report else None):
        solution = solve_request(
            request,
            progress=progress if report else None,
            table_progress=table_progress if report else None,
        )
    return solution.as_dict()


class _Notices(logging.Handler):
    """The library's notices for people (INFO on the ``slidelab`` log: a table build announced
    before it starts, what ``auto`` does next) passed to a job's reports."""

    def __init__(self, said):
        super().__init__(logging.INFO)
        self.said = said

    def emit(self, record):
        try:
            self.said(record.getMessage())
        except Exception:  # noqa: BLE001 - a report that cannot be sent must not end the job
            pass


@contextlib.contextmanager
def _notices(said):
    """While a job runs, its notices go to ``said`` (nothing when None)."""
    if said is None:
        yield
        return
    logger = logging.getLogger("slidelab")
    handler, level = _Notices(said), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def _analyze(args: dict) -> dict:
    """The distance distribution of a goal's whole space: the ``analyze --json`` record."""
    from ..analysis import analyze
    from ..puzzle import goal_board

    goal = goal_board(args["goal"])  # a Board as it is
    return analyze(goal, metric=args.get("metric", "stm")).as_dict()


def _generate(args: dict) -> dict:
    """Random solvable positions of a goal: uniform, or random walks of ``moves`` moves."""
    from ..board import Board
    from ..generate import random_boards

    goal = Board(args["goal"])  # a board, not a start: its labels may repeat
    boards = random_boards(
        int(args.get("n", 1)), None, goal, moves=args.get("moves"), seed=args.get("seed")
    )
    return {"boards": [b.format(args.get("format") or "slash") for b in boards]}


def _request(args: dict) -> Request:
    """The job's request, read and checked before it was sent (:func:`solve_job`,
    :func:`compare_job`, :func:`hint_job`): taken as it is, only its two values' types looked
    at."""
    from .. import _args
    from ..puzzle import Puzzle
    from ..search.options import SearchOptions
    from ..search.request import Request

    return Request(
        _args.instance(args.get("puzzle"), "puzzle", Puzzle),
        _args.instance(args.get("options"), "options", SearchOptions),
    )


def _compare(args: dict, report=None) -> dict:
    """The methods in turn (:func:`slidelab.search.compare.compare_request`): before each, the
    entries so far are reported with the method that runs next."""
    from ..search.compare import compare_request, runnable

    request = _request(args)
    methods = tuple(args["methods"])
    run, _ = runnable(methods, request.options.metric)

    def each(done: list, coming: str) -> None:
        if report is not None:
            entries = [e.as_dict() for e in done]
            report({"method": coming, "done": len(done), "of": len(run), "entries": entries})

    record = args.get("record", 0)
    return compare_request(request, methods, progress=each, record=record).as_dict()


def _hint(args: dict) -> dict:
    """The best next move and the distance (``Hint.as_dict()``)."""
    from ..search.hint import hint_request

    return hint_request(_request(args)).as_dict()


def _review(args: dict) -> dict:
    """A solve judged move by move (``Review.as_dict()``)."""
    from ..search.review import review_request

    return review_request(_request(args), args["moves"]).as_dict()


def remedy_fields(tables) -> dict:
    """A remedy's fields for a front end without a shell (the web page): what the tables
    are, their size, their goal and metric, and the seconds building them takes here
    (compiling included), without the command that builds them."""
    cost = tables.cost()
    return {
        "tables": tables.describe(),
        "size": tables.goal.size,
        "goal": tables.goal.format(),
        "metric": tables.metric,
        "bytes": cost.disk_bytes,
        "seconds": round(cost.seconds, 1),
    }


def _tables(args: dict, report=None) -> dict:
    """One set of tables made ready (built, announced, or loaded), its progress reported."""
    from .. import _args
    from ..tables.family import Tables

    tables = _args.instance(args.get("tables"), "tables", Tables)
    last = [0.0]

    def progress(fraction: float, message: str) -> None:
        now = time.monotonic()
        if report is not None and now - last[0] >= PROGRESS_EVERY:
            last[0] = now
            report({"tables": round(float(fraction), 4), "message": str(message)})

    tables.build(progress)
    return {"tables": tables.describe(), "ready": tables.ready()}


#: seconds between two looks of the server's builder at the first tables, while it waits
WATCH_EVERY = 0.5


def _server_tables(args: dict, report=None) -> dict:
    """The server's tables (see :func:`server_tables_job`)."""
    from ..search.policy import server_tables
    from ..units import format_bytes
    from .priority import lower_priority

    if args.get("stage") != "later":
        for tables in _first_tables(args):
            tables.build()
        return {"tables": [t.describe() for t in _first_tables(args)]}
    first, later = server_tables()
    limit, total, rows = args.get("cache_limit"), 0, []
    for when, sets in (("first", first), ("later", later)):
        for tables in sets:
            row = remedy_fields(tables)
            row["when"], row["state"] = when, "ready" if tables.ready() else "queued"
            if when == "later" and row["state"] != "ready" and not args.get("build", True):
                row["state"], row["reason"] = "skipped", "this server builds no later tables"
            elif when == "later" and limit is not None and total + row["bytes"] > limit:
                row["state"] = "skipped"
                row["reason"] = f"over the server's {format_bytes(limit)} of tables"
            else:
                total += row["bytes"]
            rows.append((tables, row))
    said: list = [None]

    def say(force: bool = True) -> dict:
        now = {"tables": [dict(row) for _, row in rows]}
        if report is not None and (force or now != said[0]):
            said[0] = now
            report(now)
        return now

    # the first tables: the lanes' warm-up builds them; their state is watched meanwhile
    # (building from when a process is first seen holding one of their locks), for ``wait``
    # seconds, and for as long as one of them is being built
    deadline = time.monotonic() + float(args.get("wait") or 0.0)
    while True:
        waiting = building = False
        for tables, row in rows:
            if row["when"] == "first" and row["state"] != "ready":
                if tables.ready():
                    row["state"] = "ready"
                    row.pop("reason", None)
                else:
                    waiting = True
                    if tables.building():
                        row["state"], building = "building", True
        say(force=False)
        if not waiting or (time.monotonic() >= deadline and not building):
            break
        time.sleep(WATCH_EVERY)
    for tables, row in rows:
        if row["when"] == "first" and not tables.ready():
            row["state"], row["reason"] = "failed", "not built by the warm-up"
    # the later ones: built here, one at a time, yielding the CPU to everything else
    lower_priority(int(args.get("nice") or 0))
    for tables, row in rows:
        if row["when"] != "later" or row["state"] != "queued":
            continue
        row["state"] = "building"
        say()
        last = [0.0]

        def progress(fraction: float, message: str, row=row, last=last) -> None:
            now = time.monotonic()
            if now - last[0] >= PROGRESS_EVERY:
                last[0] = now
                row["progress"] = round(float(fraction), 4)
                say()

        try:
            tables.build(progress)
        except MemoryError:
            row["reason"] = "out of memory"
        except Exception as exc:  # noqa: BLE001 - the next set is built all the same
            row["reason"] = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        row.pop("progress", None)
        row["state"] = "ready" if tables.ready() else "failed"
    if args.get("build", True):
        for job in args.get("compile", ()):
            if not compiled(job):
                run_job(*job)  # its kernels compiled and cached; its answer is not needed
    return say()
