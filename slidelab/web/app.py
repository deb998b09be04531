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
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from .. import __version__
from ..workers import default_warm_up
from . import errors
from .board_routes import STATIC
from .board_routes import router as board_router
from .bodylimit import BodyLimit
from .job_routes import job_router
from .lanes import CACHE_LIMIT, CHEAP, CHEAP_WARM_UP, HARD, HARD_WARM_UP, MAX_BODY, Lane, Lanes


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
    first job.  ``cache_limit``: bytes of the tables written while it runs that the table
    cache keeps at most (the least recently used deleted after each job; the tables in the
    cache when it started are never deleted; None: no limit).  The warm-up builds the server's
    first tables (:func:`slidelab.search.policy.server_tables`), and with ``prestart`` a
    builder of its own reports them all and, with ``later_tables``, builds the later ones
    afterwards, at the lowest priority (:meth:`~.lanes.Lanes.start_builder`).  The routes are
    :mod:`.board_routes`' and :mod:`.job_routes`'; they find the lanes on ``app.state``.
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
    app.state.lanes = lanes
    app.state.analyses = {}  # (goal, metric) -> its analysis
    app.add_middleware(BodyLimit, limit=max_body)
    errors.install(app)
    app.include_router(board_router)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    app.include_router(job_router())
    return app
