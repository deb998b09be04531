"""The FastAPI application behind ``slidelab serve``: one static page and a JSON API.

Endpoints (request and response bodies are JSON, modelled in :mod:`.schemas`; fields as
the CLI's ``--json``):

- ``POST /api/check``: ``{"board", "goal"?, "blank_first"?, "size"?}`` ->
  ``{"solvable", "reason", "start", "goal", "size", "width", "height", "cells", "goal_cells"}``
- ``POST /api/generate``: ``{"size" or "goal", "n"?, "seed"?, "moves"?, "format"?}`` ->
  ``{"boards": [...]}``
- ``POST /api/solve``: ``{"board", "goal"?, "method"?, "heuristic"?, "weight"?, "metric"?,
  "time_limit"?, "wait"?}`` -> with ``wait`` (the default) the ``solve --json`` object plus ``"id"``; without,
  ``202 {"id", "status"}`` at once, then ``GET /api/solve/{id}`` for progress and the result
  and ``DELETE /api/solve/{id}`` to cancel (the worker is killed).  A client that goes away
  while it waits cancels its solve.
- ``POST /api/analyze``: ``{"goal", "size"?, "blank_first"?, "metric"?}`` (small boards) ->
  ``{"goal", "size", "metric", "states", "diameter", "counts", "seconds"}``
- ``POST /api/hint``: ``{"board", "goal"?, "blank_first"?, "size"?, "metric"?, "time_limit"?}``
  -> ``{"distance", "lower_bound", "move", "tile", "exact", "how", "seconds", "message"}``: the
  best next move (one move of an optimal solution) and the position's distance, or a lower
  bound when the time (2 s by default) was not enough.
- ``POST /api/compare``: ``{"board", "goal"?, "blank_first"?, "size"?, "methods"?,
  "heuristic"?, "metric"?, "time_limit"?, "wait"?}`` -> ``{"start", "goal", "metric",
  "entries": [...]}``: each method run in turn, each within ``time_limit`` (at most 60 s; a
  method's set-up has its own, and a quick answer is made again for its memory);
  without ``wait``, ``202 {"id", "status"}`` at once, then ``GET /api/compare/{id}`` (the
  entries finished so far in ``progress``) and ``DELETE /api/compare/{id}``.
- ``GET /api/methods``: ``{"methods": [{"name", "summary", "aliases", "optimal", "options",
  "metrics"}], "heuristics": [{"name", "summary", "aliases", "admissible"}], "metrics"}``, from
  the registries (the page's menus).
- ``GET /api/status``: ``{"ready", "warm_up", "version", "lanes", "tables"}``: whether the
  workers have warmed up; ``warm_up`` is ``"compiling, first start"`` while the server's first
  warm-up lasts (a request meanwhile waits, ``queued`` with the same ``warm_up``, for the
  warm-up jobs like it, its goal's tables among them, and its time limit starts when its
  search does), then null; ``tables``: the tables the server builds itself, first (during the
  warm-up) and later (afterwards, at the lowest priority), each with its state.

Goals and sizes are read by :func:`slidelab.puzzle.goal_board` (a board, or a size ``WxH``
in any spelling), as every front end reads them.

Errors (:mod:`.errors`) are ``{"error": "one line"}`` with 400 (bad input), 404 (unknown
solve), 409 (cancelled), 413 (body too large), 422 (unsolvable, a limit reached, or a body
that does not match the schema) or 429 (a lane full, or a client's share of it taken; with
``Retry-After``).  A limit reached, and a solution that is not what stronger tables would have
made it, carry a ``remedy`` in the page's words (which tables, how big, how long, and what the
server does about them), never the command that builds them.

Every solve, analysis and generation runs in a worker process in one of two lanes
(:mod:`.lanes`, with all the limits).  Checking a board runs on the event loop: it reads at
most :data:`~.lanes.MAX_BODY` bytes and :data:`~.lanes.MAX_CELLS` cells (a few milliseconds).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from contextlib import asynccontextmanager, contextmanager
from importlib import resources

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from .. import __version__
from ..errors import SlidelabError, UnsolvableError
from ..moves import metric_name
from ..parse import is_size, parse_size
from ..search.compare import DEFAULT_METHODS, method_names
from ..search.request import check_request, read_options, read_puzzle
from ..workers import DONE, WARMING_UP, analyze_job, default_warm_up, generate_job, solve_job
from ..workers.jobs import compare_job, hint_job
from . import errors
from .bodylimit import BodyLimit
from .errors import (
    ApiError,
    input_error,
    job_error,
    one_line,
    page_error,
    page_remedy,
    without_commands,
)
from .lanes import (
    CACHE_LIMIT,
    CHEAP,
    CHEAP_MAX_STEPS,
    CHEAP_WARM_UP,
    HARD,
    HARD_WARM_UP,
    MAX_ANALYZE_STATES,
    MAX_BODY,
    MAX_CELLS,
    MAX_SOLVE_BYTES,
    Lane,
    Lanes,
    is_cheap,
)
from .schemas import (
    JOB_ERRORS,
    AnalyzeIn,
    AnalyzeOut,
    CheckOut,
    CompareIn,
    CompareOut,
    CompareView,
    GenerateIn,
    GenerateOut,
    HintIn,
    HintOut,
    MethodsOut,
    PuzzleIn,
    SolveIn,
    SolveOut,
    SolveStarted,
    SolveView,
    StatusOut,
    error_responses,
)

STATIC = resources.files("slidelab.web") / "static"
#: what makes an unsolvable board solvable, in the API's words (its field, the page's action)
FIX_NAMES = {"blank_first": "blank_first: true", "fix": "swap any two tiles"}

#: The answers of a route that starts a job (``/api/solve``, ``/api/compare``): with ``wait``
#: its result, without it ``202 {"id", "status"}`` at once, or a job's errors.
STARTED_RESPONSES = {
    202: {"model": SolveStarted, "description": "Started (wait: false)"},
    **error_responses(*JOB_ERRORS),
}
#: The options of a started job's own routes (``GET`` its view, ``DELETE`` to cancel it): the
#: view's unset fields left out, an unknown id 404.
JOB_ROUTE = {"response_model_exclude_unset": True, "responses": error_responses(404, 422)}


# ------------------------------------------------------------------------------------------
# reading boards and goals: the shared readers (slidelab.search.request), and the server's cell cap


@contextmanager
def _read():
    """What the shared readers refuse, answered in the API's words: bad input 400, an
    unsolvable board 422."""
    try:
        yield
    except UnsolvableError as exc:
        raise ApiError(422, one_line(str(exc)), kind="unsolvable") from None
    except SlidelabError as exc:
        raise input_error(str(exc)) from None


def _capped(board, what: str = "board"):
    if board.width * board.height > MAX_CELLS:
        raise ApiError(400, f"{what} of {board.width * board.height} cells: at most {MAX_CELLS}")
    return board


def _goal(spec: str | None, size: str | None = None, blank_first: bool = False):
    """A goal board (its labels may repeat) from board text or a size ``WxH``, or from a size
    alone, read by :func:`slidelab.puzzle.goal_board` (sizes are capped before the board is
    made)."""
    from ..puzzle import goal_board

    for text in (spec, size):
        if text is not None and is_size(text):
            with _read():
                width, height = parse_size(text)
            if width * height > MAX_CELLS:
                raise ApiError(400, f"size {text.strip()}: at most {MAX_CELLS} cells")
    with _read():
        return _capped(goal_board(spec, size=size, blank_first=blank_first), "goal")


def _puzzle(body):
    """The puzzle of a request (start, goal), read and capped (checked with its options, and
    solvable, by :func:`~slidelab.search.request.check_request`)."""
    with _read():
        puzzle = read_puzzle(body.board, body.goal, blank_first=body.blank_first, size=body.size)
    _capped(puzzle.start)
    return puzzle


def _options(**given):
    """The search options ``given``, read once (:func:`~slidelab.search.request.read_options`);
    an option refused is answered 400 naming its field."""
    try:
        return read_options(**given)
    except SlidelabError as exc:
        field = getattr(exc, "option", None)
        raise input_error(str(exc), **({"field": field} if field else {})) from None


def compare_limit(methods: int, time_limit: float) -> float:
    """Seconds a comparison's job may run before its worker is stopped: each method's set-up (a
    position one move from the goal, within ``time_limit``), its answer (within ``time_limit``)
    and, for an answer of at most 5 s, the answer made again under :mod:`tracemalloc` for its
    memory (slower), 15 s allowed."""
    return methods * (2 * time_limit + 15.0)


def _cells(board) -> list:
    return [c for row in board.to_list() for c in row]


# ------------------------------------------------------------------------------------------
# the application


def create_app(
    *,
    workers: int | None = None,
    max_body: int = MAX_BODY,
    max_time_limit: float | None = None,
    grace: float | None = None,
    prestart: bool = True,
    cheap: Lane = CHEAP,
    hard: Lane = HARD,
    cache_limit: int | None = CACHE_LIMIT,
    later_tables: bool = True,
) -> FastAPI:
    """The application.

    ``workers``, ``max_time_limit``: the hard lane's workers and time limit (default: those of
    :data:`~.lanes.HARD`); ``grace``: both lanes' grace; ``cheap``, ``hard``: the lanes.  With
    ``prestart``, the workers start and warm up in the background at start-up
    (``GET /api/status`` says when they are ready); without, each starts on its lane's
    first job.  ``cache_limit``: bytes of tables the table cache keeps at most (the least
    recently used deleted after each job; None: no limit).  The warm-up builds the server's
    first tables (:func:`slidelab.search.policy.server_tables`), and with ``prestart`` a
    builder of its own reports them all and, with ``later_tables``, builds the later ones
    afterwards, at the lowest priority (:meth:`~.lanes.Lanes.start_builder`).
    """
    hard = dataclasses.replace(
        hard,
        workers=hard.workers if workers is None else workers,
        time_limit=hard.time_limit if max_time_limit is None else max_time_limit,
    )
    if grace is not None:
        cheap, hard = (dataclasses.replace(lane, grace=grace) for lane in (cheap, hard))
    lanes = Lanes(
        {"cheap": cheap, "hard": hard},
        {"cheap": CHEAP_WARM_UP, "hard": HARD_WARM_UP}
        if prestart
        else {"cheap": default_warm_up(), "hard": default_warm_up()},
        cache_limit,
        later_tables=later_tables,
        builder=prestart,
    )
    analyses: dict = {}  # (goal, metric) -> its analysis (each is analysed once)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        pools = lanes.pools(app)
        lanes.warming = prestart
        warming = asyncio.ensure_future(lanes.warm_up(pools)) if prestart else None
        reaping = asyncio.ensure_future(lanes.reap(pools))
        try:
            yield
        finally:
            reaping.cancel()
            if warming is not None:
                warming.cancel()
            app.state.pools = None
            await lanes.close(pools)

    # no /docs or /redoc: their pages load scripts from a CDN, and the page must work offline
    app = FastAPI(
        title="slidelab",
        version=__version__,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        description="Solve, check, generate and analyse sliding-tile puzzles.",
    )
    app.add_middleware(BodyLimit, limit=max_body)
    errors.install(app)

    def _for_page(result):
        """A job's result as the page gets it: a remedy in the page's words (no command)."""
        if isinstance(result, dict) and result.get("remedy"):
            return {
                **result,
                "remedy": page_remedy(result["remedy"], lanes.tables(), hard.time_limit),
            }
        return result

    def _view(job) -> dict:
        """A job's view (``GET /api/solve/{id}``) as the page gets it: its result and error
        with their remedy in the page's words, its notices without commands."""
        view = job.view()
        if "result" in view:
            view["result"] = _for_page(view["result"])
        if job.error is not None:
            view["error"], remedy = page_error(job.error, lanes.tables(), hard.time_limit)
            if remedy is not None:
                view["remedy"] = remedy
        progress = view.get("progress") or {}
        if isinstance(progress.get("notice"), str):
            view["progress"] = {**progress, "notice": without_commands(progress["notice"])}
        return view

    async def _result(job, request: Request, pool, lane: str):
        """A submitted job's result once it is done, or its error."""
        await lanes.wait(job, request, pool, lane)
        if job.status != DONE:
            raise job_error(job, lanes.tables(), hard.time_limit)
        return _for_page(job.result)

    async def _answer(job, request: Request, pool, lane: str, wait: bool):
        """A submitted job's answer: at once ``202 {"id", "status"}`` unless ``wait``; else,
        once done, its result with its id, or its error."""
        if not wait:  # polled from now on: ended when nobody asks for it (Lanes.reap)
            job.watched = time.monotonic()
            return JSONResponse({"id": job.id, "status": job.status}, status_code=202)
        return {**await _result(job, request, pool, lane), "id": job.id}

    async def _cancel(pool, job):
        """Stop a job's worker; its status once stopped (or after 5 s)."""
        pool.cancel(job.id)
        if not job.future.done():
            try:
                await asyncio.wait_for(asyncio.wrap_future(job.future), timeout=5)
            except asyncio.TimeoutError:
                pass
        return job.view()

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def page():
        return FileResponse(str(STATIC / "index.html"), media_type="text/html")

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    @app.get("/api/status", response_model=StatusOut)
    async def status_endpoint(request: Request):
        """Whether the workers have started and warmed up (``ready``), the server's first
        warm-up while it lasts (``warm_up``), and each lane's load."""
        out = lanes.status(request.app)
        return {
            "ready": all(lane["ready"] for lane in out.values()),
            "warm_up": WARMING_UP if lanes.warming else None,
            "version": __version__,
            "lanes": out,
            "tables": lanes.tables(),
        }

    @app.get("/api/methods", response_model=MethodsOut)
    async def methods_endpoint():
        """The search methods and heuristics, as the registries declare them, in menu order."""
        return MethodsOut.from_registries()

    @app.post("/api/check", response_model=CheckOut, responses=error_responses(400, 413, 422))
    async def check_endpoint(body: PuzzleIn):
        """Whether the board can reach the goal, and why (``check --json``), and the boards read."""
        from ..solvability import check

        puzzle = _puzzle(body)
        verdict = check(puzzle, names=FIX_NAMES)
        return {
            "solvable": verdict.solvable,
            "reason": verdict.reason,
            "start": puzzle.start.format(),
            "goal": puzzle.goal.format(),
            "size": puzzle.size,
            "width": puzzle.width,
            "height": puzzle.height,
            "repeats": puzzle.has_repeats,
            "cells": _cells(puzzle.start),
            "goal_cells": _cells(puzzle.goal),
        }

    @app.post("/api/generate", response_model=GenerateOut, responses=error_responses(*JOB_ERRORS))
    async def generate_endpoint(body: GenerateIn, request: Request):
        """Random solvable positions: uniform, or random walks of ``moves`` moves."""
        if body.size is not None and not is_size(body.size):
            raise ApiError(400, f"size {body.size!r} is not WxH (e.g. 4x4)", field="size")
        goal = _goal(body.goal, body.size, body.blank_first)
        steps = body.n * (body.moves if body.moves is not None else goal.width * goal.height)
        name = "cheap" if steps <= CHEAP_MAX_STEPS else "hard"
        pool, client = lanes.admit(request, name)
        job = pool.submit(
            *generate_job(goal, n=body.n, moves=body.moves, seed=body.seed, format=body.format),
            lanes[name].time_limit,
            owner=client,
        )
        return await _result(job, request, pool, name)

    @app.post("/api/solve", response_model=SolveOut, responses=STARTED_RESPONSES)
    async def solve_endpoint(body: SolveIn, request: Request):
        """Solve a position in a worker process, within ``time_limit`` seconds."""
        if body.time_limit > hard.time_limit:
            raise ApiError(422, f"time_limit: at most {hard.time_limit:g} seconds")
        with _read():  # the request is read here, once: the worker takes it as it is
            options = read_options(
                method=body.method, heuristic=body.heuristic, weight=body.weight, metric=body.metric
            )
            puzzle = read_puzzle(
                body.board, body.goal, blank_first=body.blank_first, size=body.size
            )
        _capped(puzzle.start)
        name = "cheap" if is_cheap(puzzle.width * puzzle.height, options) else "hard"
        time_limit = min(body.time_limit, lanes[name].time_limit)
        with _read():
            options = options.replace(time_limit=time_limit, max_bytes=MAX_SOLVE_BYTES)
            checked = check_request(puzzle, options, FIX_NAMES)
        pool, client = lanes.admit(request, name)
        job = pool.submit(*solve_job(checked), time_limit, owner=client)
        return await _answer(job, request, pool, name, body.wait)

    @app.get("/api/solve/{solve_id}", response_model=SolveView, **JOB_ROUTE)
    async def solve_status(solve_id: str, request: Request):
        """A solve's status (queued, running, done, failed, cancelled), progress and result."""
        return _view(lanes.find(request, solve_id)[1])

    @app.delete("/api/solve/{solve_id}", response_model=SolveView, **JOB_ROUTE)
    async def solve_cancel(solve_id: str, request: Request):
        """Cancel a solve: its worker process is stopped.  Answers with the solve's status."""
        pool, job = lanes.find(request, solve_id)
        await _cancel(pool, job)
        return _view(job)

    @app.post("/api/hint", response_model=HintOut, responses=error_responses(*JOB_ERRORS))
    async def hint_endpoint(body: HintIn, request: Request):
        """The best next move (one move of an optimal solution) and the position's distance to
        the goal; a lower bound when ``time_limit`` was not enough."""
        options = _options(metric=body.metric)  # the request is read here, once
        puzzle = _puzzle(body)
        name = "cheap" if is_cheap(puzzle.width * puzzle.height) else "hard"
        time_limit = min(body.time_limit, lanes[name].time_limit)
        with _read():
            checked = check_request(puzzle, options.replace(time_limit=time_limit), FIX_NAMES)
        pool, client = lanes.admit(request, name)
        job = pool.submit(*hint_job(checked), time_limit, owner=client)
        return await _result(job, request, pool, name)

    @app.post(
        "/api/compare",
        response_model=CompareOut,
        response_model_exclude_none=False,
        responses=STARTED_RESPONSES,
    )
    async def compare_endpoint(body: CompareIn, request: Request):
        """Run several methods on one position, each within ``time_limit`` seconds, in a worker
        of the hard lane: their lengths, nodes, memory and times side by side."""
        if body.time_limit > hard.time_limit:
            raise ApiError(422, f"time_limit: at most {hard.time_limit:g} seconds")
        options = _options(  # the request is read here, once: the worker takes it as it is
            metric=body.metric,
            heuristic=body.heuristic or None,
            time_limit=body.time_limit,
            max_bytes=MAX_SOLVE_BYTES,  # each method's memory, as a solve's
        )
        with _read():
            methods = method_names(body.methods or DEFAULT_METHODS)
        puzzle = _puzzle(body)
        with _read():
            checked = check_request(puzzle, options, FIX_NAMES)
        pool, client = lanes.admit(request, "hard")
        job = pool.submit(
            *compare_job(checked, methods),
            compare_limit(len(methods), body.time_limit),
            owner=client,
        )
        return await _answer(job, request, pool, "hard", body.wait)

    @app.get("/api/compare/{compare_id}", response_model=CompareView, **JOB_ROUTE)
    async def compare_status(compare_id: str, request: Request):
        """A comparison's status, the entries finished so far (``progress``) and its result."""
        return lanes.find(request, compare_id, "compare")[1].view()

    @app.delete("/api/compare/{compare_id}", response_model=CompareView, **JOB_ROUTE)
    async def compare_cancel(compare_id: str, request: Request):
        """Cancel a comparison: its worker process is stopped."""
        return await _cancel(*lanes.find(request, compare_id, "compare"))

    @app.post("/api/analyze", response_model=AnalyzeOut, responses=error_responses(*JOB_ERRORS))
    async def analyze_endpoint(body: AnalyzeIn, request: Request):
        """The distance distribution of every arrangement to the goal (small boards only)."""
        from ..puzzle import Puzzle

        goal = _goal(body.goal, body.size, body.blank_first)
        try:
            metric = metric_name(body.metric)
        except SlidelabError as exc:
            raise input_error(str(exc)) from None
        states = Puzzle(goal, goal).n_arrangements
        if states > MAX_ANALYZE_STATES:
            raise ApiError(
                400,
                f"{goal.size} goal: {states:,} arrangements, over the"
                f" {MAX_ANALYZE_STATES:,} the server analyses",
            )
        key = (goal.format(), metric)
        if key in analyses:
            return analyses[key]
        name = "cheap" if is_cheap(goal.width * goal.height) else "hard"
        pool, client = lanes.admit(request, name)
        job = pool.submit(*analyze_job(goal, metric), lanes[name].time_limit, owner=client)
        result = await _result(job, request, pool, name)
        if len(analyses) >= 64:
            analyses.pop(next(iter(analyses)))
        analyses[key] = result
        return result

    return app
