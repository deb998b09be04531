"""The routes about boards and the server: check a board, generate positions, analyse a
goal's whole space, the methods, the server's status, and the page.

Checking runs on the event loop (a few milliseconds: the body and the board are capped);
generating and analysing run in a worker, their request waiting for the answer.
"""

from __future__ import annotations

from importlib import resources

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from .. import __version__
from ..errors import SlidelabError
from ..moves import metric_name
from ..parse import is_size
from ..workers import WARMING_UP, analyze_job, generate_job
from .errors import ApiError, input_error
from .job_routes import result_of
from .lanes import CHEAP_MAX_STEPS, MAX_ANALYZE_STATES, is_cheap
from .reading import FIX_NAMES, cells, goal_of, puzzle_of
from .schemas import (
    JOB_ERRORS,
    AnalyzeIn,
    AnalyzeOut,
    CheckOut,
    GenerateIn,
    GenerateOut,
    MethodsOut,
    PageLimits,
    PuzzleIn,
    StatusOut,
    error_responses,
)

STATIC = resources.files("slidelab.web") / "static"
#: analyses kept by (goal, metric): each goal is analysed once
ANALYSES_KEPT = 64

router = APIRouter()


@router.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
async def page():
    return FileResponse(str(STATIC / "index.html"), media_type="text/html")


@router.get("/api/status", response_model=StatusOut)
async def status_endpoint(request: Request):
    """Whether the workers have started and warmed up (``ready``), the server's first
    warm-up while it lasts (``warm_up``), and each lane's load."""
    lanes = request.app.state.lanes
    out = lanes.status(request.app)
    return {
        "ready": all(lane["ready"] for lane in out.values()),
        "warm_up": WARMING_UP if lanes.warming else None,
        "version": __version__,
        "lanes": out,
        "tables": lanes.tables(),
        "limits": PageLimits(max_time_limit=lanes["hard"].time_limit),
    }


@router.get("/api/methods", response_model=MethodsOut)
async def methods_endpoint():
    """The search methods and heuristics, as the registries declare them, in menu order."""
    return MethodsOut.from_registries()


@router.post("/api/check", response_model=CheckOut, responses=error_responses(400, 413, 422))
async def check_endpoint(body: PuzzleIn):
    """Whether the board can reach the goal, and why (``check --json``), and the boards read."""
    from ..solvability import check

    puzzle = puzzle_of(body)
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
        "cells": cells(puzzle.start),
        "goal_cells": cells(puzzle.goal),
    }


@router.post("/api/generate", response_model=GenerateOut, responses=error_responses(*JOB_ERRORS))
async def generate_endpoint(body: GenerateIn, request: Request):
    """Random solvable positions: uniform, or random walks of ``moves`` moves."""
    if body.size is not None and not is_size(body.size):
        raise ApiError(400, f"size {body.size!r} is not WxH (e.g. 4x4)", field="size")
    goal = goal_of(body.goal, body.size, body.blank_first)
    steps = body.n * (body.moves if body.moves is not None else goal.width * goal.height)
    lane = "cheap" if steps <= CHEAP_MAX_STEPS else "hard"
    lanes = request.app.state.lanes
    pool, client = lanes.admit(request, lane)
    job = pool.submit(
        *generate_job(goal, n=body.n, moves=body.moves, seed=body.seed, format=body.format),
        lanes[lane].time_limit,
        owner=client,
    )
    return await result_of(job, request, pool, lane, lanes)


@router.post("/api/analyze", response_model=AnalyzeOut, responses=error_responses(*JOB_ERRORS))
async def analyze_endpoint(body: AnalyzeIn, request: Request):
    """The distance distribution of every arrangement to the goal (small boards only)."""
    from ..puzzle import Puzzle

    goal = goal_of(body.goal, body.size, body.blank_first)
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
    analyses = request.app.state.analyses
    key = (goal.format(), metric)
    if key in analyses:
        return analyses[key]
    lane = "cheap" if is_cheap(goal.width * goal.height) else "hard"
    lanes = request.app.state.lanes
    pool, client = lanes.admit(request, lane)
    job = pool.submit(*analyze_job(goal, metric), lanes[lane].time_limit, owner=client)
    result = await result_of(job, request, pool, lane, lanes)
    if len(analyses) >= ANALYSES_KEPT:
        analyses.pop(next(iter(analyses)))
    analyses[key] = result
    return result
