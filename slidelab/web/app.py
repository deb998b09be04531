"""The FastAPI application behind ``slidelab serve``: one static page and a JSON API.

Endpoints (request and response bodies are JSON; fields as the CLI's ``--json``):

- ``POST /api/check``: ``{"board", "goal"?, "blank_first"?, "size"?}`` ->
  ``{"solvable", "reason", "start", "goal", "size", "width", "height", "cells", "goal_cells"}``
- ``POST /api/generate``: ``{"size" or "goal", "n"?, "seed"?, "moves"?, "format"?}`` ->
  ``{"boards": [...]}``
- ``POST /api/solve``: ``{"board", "goal"?, "method"?, "heuristic"?, "weight"?, "time_limit"?,
  "wait"?}`` -> with ``wait`` (the default) the ``solve --json`` object plus ``"id"``; without,
  ``202 {"id", "status"}`` at once, then ``GET /api/solve/{id}`` for progress and the result
  and ``DELETE /api/solve/{id}`` to cancel (the worker is killed).
- ``POST /api/analyze``: ``{"goal", "size"?, "blank_first"?}`` (small boards) ->
  ``{"goal", "size", "states", "diameter", "counts", "seconds"}``

Errors are ``{"error": "one line"}`` with 400 (bad input), 404 (unknown solve), 409 (cancelled),
413 (body too large) or 422 (unsolvable, a limit reached, or a body that does not match the
schema).
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
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
from ..workers import DONE, WorkerPool

#: request bodies larger than this are refused (413)
MAX_BODY = 16 * 1024
#: boards with more cells are refused by every endpoint
MAX_CELLS = 1024
#: analysis (a complete breadth-first search) only for spaces up to this many arrangements
MAX_ANALYZE_STATES = 2_000_000
DEFAULT_TIME_LIMIT = 10.0
MAX_TIME_LIMIT = 60.0
#: memory a solve may use (the searches that store states refuse to go past it)
MAX_SOLVE_BYTES = 2 * 1024 ** 3

STATIC = resources.files("slidelab.web") / "static"


class ApiError(Exception):
    def __init__(self, status: int, message: str, **extra):
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


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
        raise ApiError(400, _one_line(exc)) from None
    if puzzle.width * puzzle.height > MAX_CELLS:
        raise ApiError(400, f"board of {puzzle.width * puzzle.height} cells: at most {MAX_CELLS}")
    return puzzle


def _size_goal(text: str, blank_first: bool) -> Optional[str]:
    """``text`` as a goal board, when it is a size ``WxH``; None when it is a board."""
    from ..board import Board
    from ..parse import parse_size

    try:
        width, height = parse_size(text.strip().lower())
    except SlidelabError:
        return None
    if width * height > MAX_CELLS:
        raise ApiError(400, f"size {text.strip()}: at most {MAX_CELLS} cells")
    try:
        return Board.solved(width, height, blank_first).format()
    except SlidelabError as exc:
        raise ApiError(400, _one_line(exc)) from None


def _cells(board) -> list:
    return [c for row in board.to_list() for c in row]


async def _wait(job):
    await asyncio.wrap_future(job.future)
    return job


def _job_error(job) -> ApiError:
    error = job.error or {"error": "failed", "kind": "internal"}
    kind = error.get("kind")
    status = {"input": 400, "unsolvable": 422, "limit": 422, "cancelled": 409}.get(kind, 500)
    extra = {"kind": kind, "id": job.id}
    if error.get("stats"):
        extra["stats"] = error["stats"]
    return ApiError(status, _one_line(error["error"]), **extra)


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


def create_app(*, workers: int = 2, max_body: int = MAX_BODY,
               max_time_limit: float = MAX_TIME_LIMIT, grace: Optional[float] = None,
               prestart: bool = True) -> FastAPI:
    """The application.  ``workers``: solves that run at once (one process each)."""
    pool_args = {} if grace is None else {"grace": grace}
    analyses: dict = {}  # goal -> its analysis (the same goal is analysed once)

    def pool_of(app: FastAPI) -> WorkerPool:
        """The app's worker pool (made by the lifespan; made here if it did not run)."""
        pool = getattr(app.state, "pool", None)
        if pool is None:
            pool = app.state.pool = WorkerPool(workers, **pool_args)
        return pool

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        pool = pool_of(app)
        if prestart:
            pool.prestart()
        try:
            yield
        finally:
            app.state.pool = None
            await asyncio.to_thread(pool.close)

    # no /docs or /redoc: their pages load scripts from a CDN, and the page must work offline
    app = FastAPI(title="slidelab", version=__version__, lifespan=lifespan, docs_url=None,
                  redoc_url=None,
                  description="Solve, check, generate and analyse sliding-tile puzzles.")
    app.add_middleware(_BodyLimit, limit=max_body)

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError):
        return JSONResponse({"error": exc.message, **exc.extra}, status_code=exc.status)

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

    @app.get("/", include_in_schema=False)
    async def page():
        return FileResponse(str(STATIC / "index.html"), media_type="text/html")

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

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
    async def generate_endpoint(body: GenerateIn) -> dict:
        """Random solvable positions: uniform, or random walks of ``moves`` moves."""
        from ..generate import random_boards

        if body.size is None and body.goal is None:
            raise ApiError(400, "give a size (e.g. 4x4) or a goal")
        if body.goal is not None and body.blank_first:
            raise ApiError(400, "give goal or blank_first, not both")
        if body.goal is not None:
            goal = _puzzle(body.goal, None, False, None).start
            if body.size is not None and body.size.strip().lower() != goal.size:
                raise ApiError(400, f"size {body.size} does not match the goal's {goal.size}")
        else:
            goal = _size_goal(body.size, body.blank_first)
            if goal is None:
                raise ApiError(400, f"size {body.size!r} is not WxH (e.g. 4x4)")
        try:
            boards = random_boards(body.n, None, goal, moves=body.moves, seed=body.seed)
        except SlidelabError as exc:
            raise ApiError(400, _one_line(exc)) from None
        return {"boards": [b.format(body.format) for b in boards]}

    @app.post("/api/solve", responses={202: {"description": "Started (wait: false)"}})
    async def solve_endpoint(body: SolveIn, request: Request):
        """Solve a position in a worker process, within ``time_limit`` seconds."""
        from ..solvability import check

        if body.time_limit > max_time_limit:
            raise ApiError(422, f"time_limit: at most {max_time_limit:g} seconds")
        puzzle = _puzzle(body.board, body.goal, body.blank_first, body.size)
        verdict = check(puzzle)
        if not verdict.solvable:
            raise ApiError(422, _one_line(verdict.reason), kind="unsolvable")
        args = {"board": puzzle.start.format(), "goal": puzzle.goal.format(),
                "method": body.method, "heuristic": body.heuristic, "weight": body.weight,
                "time_limit": body.time_limit, "max_bytes": MAX_SOLVE_BYTES}
        job = pool_of(request.app).submit("solve", args, body.time_limit)
        if not body.wait:
            return JSONResponse({"id": job.id, "status": job.status}, status_code=202)
        await _wait(job)
        if job.status != DONE:
            raise _job_error(job)
        return {**job.result, "id": job.id}

    @app.get("/api/solve/{solve_id}")
    async def solve_status(solve_id: str, request: Request) -> dict:
        """A solve's status (queued, running, done, failed, cancelled), progress and result."""
        job = pool_of(request.app).get(solve_id)
        if job is None or job.kind != "solve":
            raise ApiError(404, f"no solve with id {solve_id!r}")
        return job.view()

    @app.delete("/api/solve/{solve_id}")
    async def solve_cancel(solve_id: str, request: Request) -> dict:
        """Cancel a solve: its worker process is stopped.  Answers with the solve's status."""
        pool = pool_of(request.app)
        job = pool.get(solve_id)
        if job is None or job.kind != "solve":
            raise ApiError(404, f"no solve with id {solve_id!r}")
        pool.cancel(solve_id)
        if not job.future.done():
            try:
                await asyncio.wait_for(_wait(job), timeout=5)
            except asyncio.TimeoutError:
                pass
        return job.view()

    @app.post("/api/analyze")
    async def analyze_endpoint(body: AnalyzeIn, request: Request) -> dict:
        """The distance distribution of every arrangement to the goal (small boards only)."""
        goal = _size_goal(body.goal, body.blank_first) if body.size is None else None
        if goal is None:
            puzzle = _puzzle(body.goal, None, False, body.size)
            if body.blank_first:
                raise ApiError(400, "blank_first goes with a size, not a goal board")
        else:
            puzzle = _puzzle(goal, None, False, None)
        states = puzzle.n_arrangements
        if states > MAX_ANALYZE_STATES:
            raise ApiError(400, f"{puzzle.size} goal: {states:,} arrangements, over the"
                                f" {MAX_ANALYZE_STATES:,} the server analyses")
        key = puzzle.start.format()
        if key in analyses:
            return analyses[key]
        job = pool_of(request.app).submit("analyze", {"goal": key}, max_time_limit)
        await _wait(job)
        if job.status != DONE:
            raise _job_error(job)
        if len(analyses) >= 64:
            analyses.pop(next(iter(analyses)))
        analyses[key] = job.result
        return job.result

    return app
