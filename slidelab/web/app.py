"""The FastAPI application behind ``slidelab serve``: one static page and a JSON API.

Endpoints (request and response bodies are JSON; fields as the CLI's ``--json``):

- ``POST /api/check``: ``{"board", "goal"?, "blank_first"?, "size"?}`` ->
  ``{"solvable", "reason", "start", "goal", "size", "width", "height", "cells", "goal_cells"}``
- ``POST /api/generate``: ``{"size" or "goal", "n"?, "seed"?, "moves"?, "format"?}`` ->
  ``{"boards": [...]}``
- ``POST /api/solve``: ``{"board", "goal"?, "method"?, "heuristic"?, "weight"?, "time_limit"?,
  "wait"?}`` -> with ``wait`` (the default) the ``solve --json`` object plus ``"id"``; without,
  ``202 {"id", "status"}`` at once, then ``GET /api/solve/{id}`` for progress and the result
  and ``DELETE /api/solve/{id}`` to cancel (the worker is killed).  A client that goes away
  while it waits cancels its solve.
- ``POST /api/analyze``: ``{"goal", "size"?, "blank_first"?}`` (small boards) ->
  ``{"goal", "size", "states", "diameter", "counts", "seconds"}``
- ``GET /api/status``: ``{"ready", "version", "lanes"}``: whether the workers have warmed up.

Errors are ``{"error": "one line"}`` with 400 (bad input), 404 (unknown solve), 409 (cancelled),
413 (body too large), 422 (unsolvable, a limit reached, or a body that does not match the
schema) or 429 (a lane full, or a client's share of it taken; with ``Retry-After``).

Every solve, analysis and generation runs in a worker process, never on the event loop, in
one of two lanes (:data:`CHEAP` and :data:`HARD`, declared below with all the limits): each
lane has its own workers, so the quick requests of a page never wait behind long solves.
Checking a board runs on the event loop: it reads at most :data:`MAX_BODY` bytes and
:data:`MAX_CELLS` cells (a few milliseconds).
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from importlib import resources
from typing import Literal, Optional

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..errors import SlidelabError
from ..parse import STYLES
from ..search.options import check_options
from ..workers import DONE, QUEUED, WARM_UP, WorkerPool

# ------------------------------------------------------------------------------------------
# lanes and limits: every limit of the server is here


@dataclass(frozen=True)
class Lane:
    """A lane of worker processes and its limits."""

    #: worker processes: jobs that run at once
    workers: int
    #: jobs that may wait for a worker; one more is refused (429)
    queue: int
    #: jobs one client (host) may have waiting or running; one more is refused (429)
    per_client: int
    #: seconds of search at most (a longer time limit asked for is cut to this)
    time_limit: float
    #: seconds a job may run past its time limit before its worker is killed
    grace: float
    #: niceness of the workers: the hard lane yields the CPU to the cheap lane and the server
    nice: int
    #: seconds a 429 asks the client to wait (``Retry-After``)
    retry_after: int


#: quick work: boards of at most CHEAP_MAX_CELLS cells, generations of at most CHEAP_MAX_STEPS
CHEAP = Lane(workers=2, queue=32, per_client=8, time_limit=2.0, grace=5.0, nice=0, retry_after=1)
#: everything else: the 15-puzzle and larger, long random walks
HARD = Lane(workers=2, queue=8, per_client=2, time_limit=60.0, grace=20.0, nice=10,
            retry_after=10)
#: a board of at most this many cells is cheap (the 8-puzzle: 181,440 positions; every method
#: solves any of them in well under a second) except by IDA* without a heuristic (seconds)
CHEAP_MAX_CELLS = 9
#: a generation of at most this many steps (n x moves, or n x cells when uniform) is cheap
CHEAP_MAX_STEPS = 100_000
#: request bodies larger than this are refused (413)
MAX_BODY = 16 * 1024
#: boards with more cells are refused by every endpoint
MAX_CELLS = 1024
#: analysis (a complete breadth-first search) only for spaces up to this many arrangements
MAX_ANALYZE_STATES = 2_000_000
DEFAULT_TIME_LIMIT = 10.0
MAX_TIME_LIMIT = HARD.time_limit
#: memory a solve may use (the searches that store states refuse to go past it)
MAX_SOLVE_BYTES = 2 * 1024 ** 3

_SMALL = "1 2 3/4 5 6/0 7 8"
#: what the cheap lane's workers do when they start, before they say they are ready: load the
#: kernels of every method on the 8-puzzle, of the analysis and of the generator, the most
#: used first (a job that comes meanwhile is served before the next warm-up job)
CHEAP_WARM_UP = (
    *(("solve", {"board": _SMALL, "options": check_options(method=method, heuristic=heuristic)})
      for method, heuristic in [("auto", None), ("bfs", None), ("bidirectional", None),
                                ("astar", "manhattan"), ("astar", "linear-conflict"),
                                ("astar", "pdb"), ("weighted-astar", None),
                                ("idastar", "manhattan"), ("idastar", "linear-conflict"),
                                ("idastar", "pdb"), ("constructive", None)]),
    ("analyze", {"goal": "1 2/3 0"}),
    ("generate", {"goal": _SMALL, "n": 1, "moves": 10, "seed": 0}),
)
#: the hard lane's: the 15-puzzle's tables (built once, then loaded from the cache), then the same
#: (a job that comes meanwhile is served before the next warm-up job)
HARD_WARM_UP = (("solve", {"board": "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15"}), *CHEAP_WARM_UP)

STATIC = resources.files("slidelab.web") / "static"

#: IDA* and no heuristic, as the search module spells them (it is not imported: numba)
_IDA_NAMES = {"idastar", "ida*", "ida"}
_NO_HEURISTIC = {"zero", "none"}


def is_cheap(cells: int, method: Optional[str] = "auto", heuristic: Optional[str] = None) -> bool:
    """The lane rule for solves and analyses: at most CHEAP_MAX_CELLS cells, and not IDA*
    without a heuristic (it searches the whole space again for each bound)."""
    uninformed_ida = (str(method or "").strip().lower() in _IDA_NAMES
                      and str(heuristic or "").strip().lower() in _NO_HEURISTIC)
    return cells <= CHEAP_MAX_CELLS and not uninformed_ida


class ApiError(Exception):
    def __init__(self, status: int, message: str, headers: Optional[dict] = None, **extra):
        super().__init__(message)
        self.status, self.message, self.headers, self.extra = status, message, headers, extra


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


#: command-line options named in the shared messages, and the API fields that do their work
_FIELDS = {"size": "size", "goal": "goal", "weight": "weight", "method": "method",
           "heuristic": "heuristic", "time-limit": "time_limit", "blank-first": "blank_first",
           "seed": "seed", "moves": "moves", "format": "format"}
_OPTION = re.compile(r"--(" + "|".join(sorted(map(re.escape, _FIELDS), key=len, reverse=True))
                     + r")\b(?:[ =]([^\s),;]+))?")


def _input_error(message: str, status: int = 400, **extra) -> ApiError:
    """An error for bad input, its message in the API's words: a field where the command
    line's message names an option (``--size 4x3`` -> ``"size": "4x3"``), and that field
    named in ``"field"``."""
    fields = []

    def field(match):
        name = _FIELDS[match.group(1)]
        fields.append(name)
        return f'"{name}": "{match.group(2)}"' if match.group(2) else f'the "{name}" field'

    text = _OPTION.sub(field, _one_line(message))
    if fields:
        extra.setdefault("field", fields[0])
    return ApiError(status, text, **extra)


# ------------------------------------------------------------------------------------------
# request bodies


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class PuzzleIn(_Body):
    board: str = Field(max_length=MAX_BODY, description="Start board, in any accepted format.")
    goal: Optional[str] = Field(None, max_length=MAX_BODY,
                                description="Goal board (default: tiles in order, blank last).")
    blank_first: bool = Field(False, description="Ordered goal with the blank first.")
    size: Optional[str] = Field(None, max_length=20, description="WxH, for one-line boards.")


class SolveIn(PuzzleIn):
    method: str = Field("auto", max_length=40)
    heuristic: Optional[str] = Field(None, max_length=40)
    weight: Optional[float] = Field(None, ge=1, le=1000)
    time_limit: float = Field(DEFAULT_TIME_LIMIT, gt=0, le=MAX_TIME_LIMIT,
                              description="Seconds of search.")
    wait: bool = Field(True, description="Answer with the solution (true) or a solve id at once.")


class GenerateIn(_Body):
    size: Optional[str] = Field(None, max_length=20, description="WxH (ordered goal).")
    goal: Optional[str] = Field(None, max_length=MAX_BODY)
    blank_first: bool = False
    n: int = Field(1, ge=1, le=100, description="How many positions.")
    seed: Optional[int] = Field(None, ge=0, le=2 ** 63 - 1)
    moves: Optional[int] = Field(None, ge=0, le=100_000,
                                 description="Random walk of this many moves instead of uniform.")
    format: Literal[STYLES] = "slash"  # type: ignore[valid-type]


class AnalyzeIn(_Body):
    goal: str = Field(max_length=MAX_BODY, description="Goal board, or a size WxH.")
    size: Optional[str] = Field(None, max_length=20)
    blank_first: bool = False


# ------------------------------------------------------------------------------------------
# helpers


def _puzzle(board: str, goal: Optional[str], blank_first: bool, size: Optional[str]):
    from ..puzzle import Puzzle

    if goal is not None and blank_first:
        raise ApiError(400, "give goal or blank_first, not both")
    try:
        puzzle = Puzzle(board, goal, blank_first=blank_first, size=size)
    except SlidelabError as exc:
        raise _input_error(str(exc)) from None
    if puzzle.width * puzzle.height > MAX_CELLS:
        raise ApiError(400, f"board of {puzzle.width * puzzle.height} cells: at most {MAX_CELLS}")
    return puzzle


def _size_board(text: str, blank_first: bool):
    """``text`` as an ordered goal board, when it is a size ``WxH``; None when it is a board."""
    from ..board import Board
    from ..parse import parse_size

    try:
        width, height = parse_size(text.strip().lower())
    except SlidelabError:
        return None
    if width * height > MAX_CELLS:
        raise ApiError(400, f"size {text.strip()}: at most {MAX_CELLS} cells")
    try:
        return Board.solved(width, height, blank_first)
    except SlidelabError as exc:
        raise _input_error(str(exc)) from None


def _cells(board) -> list:
    return [c for row in board.to_list() for c in row]


async def _client_gone(request: Request) -> None:
    """Returns when the client disconnects (the request's body has been read already)."""
    try:
        while (await request.receive())["type"] != "http.disconnect":
            pass
    except Exception:  # noqa: BLE001 - the connection is broken: gone all the same
        pass


async def _wait(job, request: Request, pool: WorkerPool, lane: str):
    """``job`` once finished.  If the client goes away first, nobody waits for the job any
    more: it is cancelled (ApiError 409), and its worker freed for others; except that a
    cheap job already running is left to finish (within its 2 s, sooner than a fresh worker
    would warm up in place of a killed one)."""
    finished = asyncio.wrap_future(job.future)
    gone = asyncio.ensure_future(_client_gone(request))
    try:
        await asyncio.wait({finished, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
    if not finished.done():
        if lane != "cheap" or job.status == QUEUED:
            pool.cancel(job.id)
        raise ApiError(409, "cancelled: the client went away", kind="cancelled", id=job.id)
    return job


def _job_error(job) -> ApiError:
    error = job.error or {"error": "failed", "kind": "internal"}
    kind = error.get("kind")
    status = {"input": 400, "unsolvable": 422, "limit": 422, "cancelled": 409}.get(kind, 500)
    extra = {"kind": kind, "id": job.id}
    if error.get("stats"):
        extra["stats"] = error["stats"]
    return _input_error(error["error"], status, **extra)


# ------------------------------------------------------------------------------------------
# the application


class _BodyLimit:
    """ASGI middleware: refuse request bodies over ``limit`` bytes with 413."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None:
            try:
                too_big = int(length) > self.limit
            except ValueError:
                too_big = False
            if too_big:
                return await self._refuse(send)
        # read the whole body first (it is small), so the application never sees a part of one
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                return await self._refuse(send)
            chunks.append(chunk)
            more = message.get("more_body", False)
        body, delivered = b"".join(chunks), False

        async def replay():
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send):
        response = JSONResponse({"error": f"request body over {self.limit:,} bytes"},
                                status_code=413)
        await response({"type": "http"}, None, send)


def create_app(*, workers: Optional[int] = None, max_body: int = MAX_BODY,
               max_time_limit: Optional[float] = None, grace: Optional[float] = None,
               prestart: bool = True, cheap: Lane = CHEAP, hard: Lane = HARD) -> FastAPI:
    """The application.

    ``workers``, ``max_time_limit``: the hard lane's workers and time limit (default: those of
    :data:`HARD`); ``grace``: both lanes' grace; ``cheap``, ``hard``: the lanes.  With
    ``prestart``, the workers start and warm up in the background at start-up
    (``GET /api/status`` says when they are ready); without, each starts on its lane's
    first job.
    """
    hard = replace(hard, workers=hard.workers if workers is None else workers,
                   time_limit=hard.time_limit if max_time_limit is None else max_time_limit)
    if grace is not None:
        cheap, hard = replace(cheap, grace=grace), replace(hard, grace=grace)
    lanes = {"cheap": cheap, "hard": hard}
    warm_ups = {"cheap": CHEAP_WARM_UP, "hard": HARD_WARM_UP} if prestart else \
        {"cheap": WARM_UP, "hard": WARM_UP}
    analyses: dict = {}  # goal -> its analysis (the same goal is analysed once)

    def pools_of(app: FastAPI) -> dict:
        """The app's worker pools by lane (made by the lifespan; made here if it did not run)."""
        pools = getattr(app.state, "pools", None)
        if pools is None:
            pools = app.state.pools = {
                name: WorkerPool(lane.workers, grace=lane.grace, nice=lane.nice,
                                 warm_up=warm_ups[name])
                for name, lane in lanes.items()}
        return pools

    def admit(request: Request, name: str):
        """The lane's pool and the client, or 429 when the lane or the client's share is full."""
        lane, pool = lanes[name], pools_of(request.app)[name]
        client = request.client.host if request.client else "-"
        retry = {"Retry-After": str(lane.retry_after)}
        mine = pool.active(client)
        if mine >= lane.per_client:
            raise ApiError(429, f"too many {name} jobs: you have {mine} waiting or running, the"
                                f" most one client may have; wait for one to finish or cancel it",
                           headers=retry, lane=name)
        if pool.active() >= lane.workers + lane.queue:
            raise ApiError(429, f"the server is busy: {pool.active()} {name} jobs running or"
                                f" waiting, the most it holds; retry in {lane.retry_after} s",
                           headers=retry, lane=name)
        return pool, client

    def find(request: Request, solve_id: str):
        for pool in pools_of(request.app).values():
            job = pool.get(solve_id)
            if job is not None and job.kind == "solve":
                return pool, job
        raise ApiError(404, f"no solve with id {solve_id!r}")

    async def warm_up(pools: dict) -> None:
        """Start the workers: they import slidelab and warm up in the background, the cheap
        lane's first (a page's first requests are cheap), the hard lane's when those are
        ready (or after 30 s), so that they do not share the CPU at first."""
        pools["cheap"].prestart()
        for _ in range(300):
            if pools["cheap"].ready():
                break
            await asyncio.sleep(0.1)
        pools["hard"].prestart()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        pools = pools_of(app)
        warming = asyncio.ensure_future(warm_up(pools)) if prestart else None
        try:
            yield
        finally:
            if warming is not None:
                warming.cancel()
            app.state.pools = None
            await asyncio.gather(*(asyncio.to_thread(pool.close) for pool in pools.values()))

    # no /docs or /redoc: their pages load scripts from a CDN, and the page must work offline
    app = FastAPI(title="slidelab", version=__version__, lifespan=lifespan, docs_url=None,
                  redoc_url=None,
                  description="Solve, check, generate and analyse sliding-tile puzzles.")
    app.add_middleware(_BodyLimit, limit=max_body)

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError):
        return JSONResponse({"error": exc.message, **exc.extra}, status_code=exc.status,
                            headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError):
        problems = []
        for e in exc.errors()[:3]:
            if e.get("type") == "json_invalid":
                problems.append("body is not valid JSON")
                continue
            where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "body"
            problems.append(f"{where}: {e.get('msg', 'invalid')}")
        return JSONResponse({"error": _one_line("; ".join(problems) or "invalid request")},
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        return JSONResponse({"error": _one_line(exc.detail)}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def page():
        return FileResponse(str(STATIC / "index.html"), media_type="text/html")

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    @app.get("/api/status")
    async def status_endpoint(request: Request) -> dict:
        """Whether the workers have started and warmed up (``ready``), and each lane's load."""
        out = {}
        for name, pool in pools_of(request.app).items():
            lane = lanes[name]
            out[name] = {"ready": pool.ready(), "workers": lane.workers, "active": pool.active(),
                         "waiting": pool.waiting(), "queue": lane.queue,
                         "per_client": lane.per_client, "time_limit": lane.time_limit}
        return {"ready": all(lane["ready"] for lane in out.values()), "version": __version__,
                "lanes": out}

    @app.post("/api/check")
    async def check_endpoint(body: PuzzleIn) -> dict:
        """Whether the board can reach the goal, and why (``check --json``), plus the parsed boards."""
        from ..solvability import check

        puzzle = _puzzle(body.board, body.goal, body.blank_first, body.size)
        verdict = check(puzzle)
        return {"solvable": verdict.solvable, "reason": verdict.reason,
                "start": puzzle.start.format(), "goal": puzzle.goal.format(), "size": puzzle.size,
                "width": puzzle.width, "height": puzzle.height, "repeats": puzzle.has_repeats,
                "cells": _cells(puzzle.start), "goal_cells": _cells(puzzle.goal)}

    @app.post("/api/generate")
    async def generate_endpoint(body: GenerateIn, request: Request) -> dict:
        """Random solvable positions: uniform, or random walks of ``moves`` moves."""
        if body.size is None and body.goal is None:
            raise ApiError(400, "give a size (e.g. 4x4) or a goal")
        if body.goal is not None and body.blank_first:
            raise ApiError(400, "give goal or blank_first, not both")
        if body.goal is not None:
            goal = _puzzle(body.goal, body.goal, False, None).goal  # its labels may repeat
            if body.size is not None and body.size.strip().lower() != goal.size:
                raise ApiError(400, f"size {body.size} does not match the goal's {goal.size}")
        else:
            goal = _size_board(body.size, body.blank_first)
            if goal is None:
                raise ApiError(400, f"size {body.size!r} is not WxH (e.g. 4x4)", field="size")
        steps = body.n * (body.moves if body.moves is not None else goal.width * goal.height)
        name = "cheap" if steps <= CHEAP_MAX_STEPS else "hard"
        pool, client = admit(request, name)
        job = pool.submit("generate", {"goal": goal.format(), "n": body.n, "moves": body.moves,
                                       "seed": body.seed, "format": body.format},
                          lanes[name].time_limit, owner=client)
        await _wait(job, request, pool, name)
        if job.status != DONE:
            raise _job_error(job)
        return job.result

    @app.post("/api/solve", responses={202: {"description": "Started (wait: false)"}})
    async def solve_endpoint(body: SolveIn, request: Request):
        """Solve a position in a worker process, within ``time_limit`` seconds."""
        from ..solvability import check

        if body.time_limit > hard.time_limit:
            raise ApiError(422, f"time_limit: at most {hard.time_limit:g} seconds")
        try:
            options = check_options(method=body.method, heuristic=body.heuristic,
                                    weight=body.weight)
        except SlidelabError as exc:
            raise _input_error(str(exc)) from None
        puzzle = _puzzle(body.board, body.goal, body.blank_first, body.size)
        verdict = check(puzzle)
        if not verdict.solvable:
            raise ApiError(422, _one_line(verdict.reason), kind="unsolvable")
        name = "cheap" if is_cheap(puzzle.width * puzzle.height, body.method, body.heuristic) \
            else "hard"
        pool, client = admit(request, name)
        time_limit = min(body.time_limit, lanes[name].time_limit)
        options = dataclasses.replace(options, time_limit=time_limit, max_bytes=MAX_SOLVE_BYTES)
        args = {"board": puzzle.start.format(), "goal": puzzle.goal.format(), "options": options}
        job = pool.submit("solve", args, time_limit, owner=client)
        if not body.wait:
            return JSONResponse({"id": job.id, "status": job.status}, status_code=202)
        await _wait(job, request, pool, name)
        if job.status != DONE:
            raise _job_error(job)
        return {**job.result, "id": job.id}

    @app.get("/api/solve/{solve_id}")
    async def solve_status(solve_id: str, request: Request) -> dict:
        """A solve's status (queued, running, done, failed, cancelled), progress and result."""
        return find(request, solve_id)[1].view()

    @app.delete("/api/solve/{solve_id}")
    async def solve_cancel(solve_id: str, request: Request) -> dict:
        """Cancel a solve: its worker process is stopped.  Answers with the solve's status."""
        pool, job = find(request, solve_id)
        pool.cancel(solve_id)
        if not job.future.done():
            try:
                await asyncio.wait_for(asyncio.wrap_future(job.future), timeout=5)
            except asyncio.TimeoutError:
                pass
        return job.view()

    @app.post("/api/analyze")
    async def analyze_endpoint(body: AnalyzeIn, request: Request) -> dict:
        """The distance distribution of every arrangement to the goal (small boards only)."""
        goal = _size_board(body.goal, body.blank_first) if body.size is None else None
        if goal is None:
            puzzle = _puzzle(body.goal, body.goal, False, body.size)  # its labels may repeat
            if body.blank_first:
                raise ApiError(400, "blank_first goes with a size, not a goal board")
        else:
            puzzle = _puzzle(goal.format(), goal.format(), False, None)
        states = puzzle.n_arrangements
        if states > MAX_ANALYZE_STATES:
            raise ApiError(400, f"{puzzle.size} goal: {states:,} arrangements, over the"
                                f" {MAX_ANALYZE_STATES:,} the server analyses")
        key = puzzle.goal.format()
        if key in analyses:
            return analyses[key]
        name = "cheap" if is_cheap(puzzle.width * puzzle.height) else "hard"
        pool, client = admit(request, name)
        job = pool.submit("analyze", {"goal": key}, lanes[name].time_limit, owner=client)
        await _wait(job, request, pool, name)
        if job.status != DONE:
            raise _job_error(job)
        if len(analyses) >= 64:
            analyses.pop(next(iter(analyses)))
        analyses[key] = job.result
        return job.result

    return app
