"""The routes of the jobs a client starts and follows: solve, compare and hint, one shape.

``POST /api/{kind}`` checks the request (read once: the worker takes it as it is), admits it to
a lane and starts its job; with ``wait`` (the default) it answers with the result, or the
job's error; without, ``202 {"id", "status"}`` at once.  ``GET /api/{kind}/{id}`` is the job's
view (its progress, then its result or error), ``DELETE /api/{kind}/{id}`` cancels it (its
worker is stopped).  A job only its own client finds (by the address its allowance goes by);
one started without ``wait`` ends when nobody has asked for it for a few seconds
(:data:`~.lanes.UNPOLLED_SECONDS`), and one a request waits for ends when its client goes away.

Each kind declares only what differs: its schemas, how its request is read and which lane and
time limit its job gets (:class:`JobKind`).  (This module does not postpone its annotations:
FastAPI reads each route's body model from them, and they are the kind's.)
"""

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..search.compare import DEFAULT_METHODS, method_names
from ..search.request import check_request, read_options
from ..workers import DONE, solve_job
from ..workers.jobs import compare_job, hint_job, review_job
from .errors import ApiError, job_error, page_error, page_remedy, without_commands
from .lanes import MAX_SOLVE_BYTES, Lanes, is_cheap
from .reading import FIX_NAMES, options_of, puzzle_of, refusals
from .schemas import (
    JOB_ERRORS,
    CompareIn,
    CompareOut,
    CompareView,
    HintIn,
    HintOut,
    HintView,
    ReviewIn,
    ReviewOut,
    ReviewView,
    SolveIn,
    SolveOut,
    SolveStarted,
    SolveView,
    error_responses,
)

#: The answers of a route that starts a job: with ``wait`` its result, without it
#: ``202 {"id", "status"}`` at once, or a job's errors.
STARTED_RESPONSES = {
    202: {"model": SolveStarted, "description": "Started (wait: false)"},
    **error_responses(*JOB_ERRORS),
}
#: The options of a started job's own routes (``GET`` its view, ``DELETE`` to cancel it): the
#: view's unset fields left out, an unknown id 404.
JOB_ROUTE = {"response_model_exclude_unset": True, "responses": error_responses(404, 422)}


@dataclass(frozen=True)
class Started:
    """A checked request, ready to run: its job (``kind``, ``args``), the lane it runs in and
    the seconds its worker may take."""

    job: tuple
    lane: str
    seconds: float


@dataclass(frozen=True)
class JobKind:
    """What a kind of job declares: its name (the path and the job's kind), what it is called
    in a 404, its schemas, and :attr:`start`, which reads a body into a :class:`Started` (or
    refuses it, 4xx)."""

    name: str
    called: str
    body: type
    answer: type
    view: type
    start: Callable[[object, Lanes], Started]
    description: str


def compare_limit(methods: int, time_limit: float) -> float:
    """Seconds a comparison's job may run before its worker is stopped: each method's set-up (a
    position one move from the goal, within ``time_limit``), its answer (within ``time_limit``)
    and, for an answer of at most 5 s, the answer made again under :mod:`tracemalloc` for its
    memory (slower), 15 s allowed."""
    return methods * (2 * time_limit + 15.0)


def _at_most(time_limit: float, lanes: Lanes) -> None:
    if time_limit > lanes["hard"].time_limit:
        raise ApiError(422, f"time_limit: at most {lanes['hard'].time_limit:g} seconds")


def _solve(body: SolveIn, lanes: Lanes) -> Started:
    _at_most(body.time_limit, lanes)
    with refusals():  # the request is read here, once: the worker takes it as it is
        options = read_options(
            method=body.method, heuristic=body.heuristic, weight=body.weight, metric=body.metric
        )
    puzzle = puzzle_of(body)
    lane = "cheap" if is_cheap(puzzle.width * puzzle.height, options) else "hard"
    time_limit = min(body.time_limit, lanes[lane].time_limit)
    with refusals():
        options = options.replace(time_limit=time_limit, max_bytes=MAX_SOLVE_BYTES)
        checked = check_request(puzzle, options, FIX_NAMES)
    return Started(solve_job(checked), lane, time_limit)


def _compare(body: CompareIn, lanes: Lanes) -> Started:
    _at_most(body.time_limit, lanes)
    options = options_of(
        metric=body.metric,
        heuristic=body.heuristic or None,
        time_limit=body.time_limit,
        max_bytes=MAX_SOLVE_BYTES,  # each method's memory, as a solve's
    )
    with refusals():
        methods = method_names(body.methods or DEFAULT_METHODS)
    puzzle = puzzle_of(body)
    with refusals():
        checked = check_request(puzzle, options, FIX_NAMES)
    seconds = compare_limit(len(methods), body.time_limit)
    return Started(compare_job(checked, methods, body.record), "hard", seconds)


def _hint(body: HintIn, lanes: Lanes) -> Started:
    options = options_of(metric=body.metric)
    puzzle = puzzle_of(body)
    lane = "cheap" if is_cheap(puzzle.width * puzzle.height) else "hard"
    time_limit = min(body.time_limit, lanes[lane].time_limit)
    with refusals():
        checked = check_request(puzzle, options.replace(time_limit=time_limit), FIX_NAMES)
    return Started(hint_job(checked), lane, time_limit)


def _review(body: ReviewIn, lanes: Lanes) -> Started:
    from ..moves import parse_moves

    options = options_of(metric=body.metric)
    puzzle = puzzle_of(body)
    lane = "cheap" if is_cheap(puzzle.width * puzzle.height) else "hard"
    time_limit = min(body.time_limit, lanes[lane].time_limit)
    with refusals():  # the moves read and replayed here: an illegal one is 400, with its number
        moves = parse_moves(body.moves)
        puzzle.start.apply(moves)
        checked = check_request(puzzle, options.replace(time_limit=time_limit), FIX_NAMES)
    return Started(review_job(checked, moves), lane, lanes[lane].time_limit)


KINDS = (
    JobKind("solve", "solve", SolveIn, SolveOut, SolveView, _solve,
            "Solve a position in a worker process, within ``time_limit`` seconds."),
    JobKind("compare", "comparison", CompareIn, CompareOut, CompareView, _compare,
            "Run several methods on one position, each within ``time_limit`` seconds, in a"
            " worker of the hard lane: their lengths, nodes, memory and times side by side."),
    JobKind("hint", "hint", HintIn, HintOut, HintView, _hint,
            "The best next move (one move of an optimal solution) and the position's distance"
            " to the goal; a lower bound when ``time_limit`` was not enough."),
    JobKind("review", "review", ReviewIn, ReviewOut, ReviewView, _review,
            "A solve judged move by move: each position's exact distance, the moves each move"
            " lost and the moves that keep the optimum there, and a summary line."),
)  # fmt: skip


# ------------------------------------------------------------------------------------------
# what every kind shares


def for_page(result, lanes: Lanes):
    """A job's result as the page gets it: a remedy in the page's words (no command)."""
    if isinstance(result, dict) and result.get("remedy"):
        remedy = page_remedy(result["remedy"], lanes.tables(), lanes["hard"].time_limit)
        return {**result, "remedy": remedy}
    return result


def page_view(job, lanes: Lanes) -> dict:
    """A job's view as the page gets it: its result and error with their remedy in the page's
    words, its notices without commands."""
    view = job.view()
    if "result" in view:
        view["result"] = for_page(view["result"], lanes)
    if job.error is not None:
        view["error"], remedy = page_error(job.error, lanes.tables(), lanes["hard"].time_limit)
        if remedy is not None:
            view["remedy"] = remedy
    progress = view.get("progress") or {}
    if isinstance(progress.get("notice"), str):
        view["progress"] = {**progress, "notice": without_commands(progress["notice"])}
    return view


async def result_of(job, request: Request, pool, lane: str, lanes: Lanes):
    """A submitted job's result once it is done, or its error."""
    await lanes.wait(job, request, pool, lane)
    if job.status != DONE:
        raise job_error(job, lanes.tables(), lanes["hard"].time_limit)
    return for_page(job.result, lanes)


async def cancel(pool, job) -> None:
    """Stop a job's worker; return once it is stopped (or after 5 s)."""
    pool.cancel(job.id)
    if not job.future.done():
        try:
            await asyncio.wait_for(asyncio.wrap_future(job.future), timeout=5)
        except asyncio.TimeoutError:
            pass


def _routes(router: APIRouter, kind: JobKind) -> None:
    """The three routes of ``kind``: start it, see it, cancel it."""
    path = f"/api/{kind.name}"

    async def start(body, request: Request):
        lanes: Lanes = request.app.state.lanes
        started = kind.start(body, lanes)
        pool, client = lanes.admit(request, started.lane)
        job = pool.submit(*started.job, started.seconds, owner=client)
        if not body.wait:  # polled from now on: ended when nobody asks for it (Lanes.reap)
            job.watched = time.monotonic()
            return JSONResponse({"id": job.id, "status": job.status}, status_code=202)
        return {**await result_of(job, request, pool, started.lane, lanes), "id": job.id}

    async def see(job_id: str, request: Request):
        lanes: Lanes = request.app.state.lanes
        return page_view(lanes.find(request, job_id, kind.name, kind.called)[1], lanes)

    async def stop(job_id: str, request: Request):
        lanes: Lanes = request.app.state.lanes
        pool, job = lanes.find(request, job_id, kind.name, kind.called)
        await cancel(pool, job)
        return page_view(job, lanes)

    start.__annotations__ = {"body": kind.body, "request": Request}
    router.add_api_route(
        path, start, methods=["POST"], response_model=kind.answer,
        responses=STARTED_RESPONSES, summary=f"Start a {kind.called}",
        description=kind.description, name=f"{kind.name}_start",
    )  # fmt: skip
    router.add_api_route(
        path + "/{job_id}", see, methods=["GET"], response_model=kind.view,
        summary=f"A {kind.called}'s status, progress and result", name=f"{kind.name}_view",
        **JOB_ROUTE,
    )  # fmt: skip
    router.add_api_route(
        path + "/{job_id}", stop, methods=["DELETE"], response_model=kind.view,
        summary=f"Cancel a {kind.called}: its worker process is stopped",
        name=f"{kind.name}_cancel", **JOB_ROUTE,
    )  # fmt: skip


def job_router() -> APIRouter:
    """The routes of every kind of job (:data:`KINDS`)."""
    router = APIRouter()
    for kind in KINDS:
        _routes(router, kind)
    return router
