"""The server's lanes of worker processes and its limits: every limit of the server is here.

Every solve, analysis and generation runs in a worker process, never on the event loop, in
one of two lanes (:data:`CHEAP` and :data:`HARD`): each lane has its own workers, so the
quick requests of a page never wait behind long solves.  :func:`is_cheap` is the lane rule;
:class:`Lanes` holds an application's pools, admits a job to a lane or refuses it (429: the
lane full, or the client's share of it taken), finds a solve by id, waits for a job on
behalf of a client (cancelling it if the client goes away) and warms the workers up.

Nothing here imports numba: the method and heuristic names come from the registries.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from fastapi import FastAPI, Request

from ..heuristics.registry import HEURISTICS
from ..puzzle import goal_board
from ..search.options import SearchOptions
from ..search.registry import METHODS
from ..search.request import check_request, read_options, read_puzzle, read_request
from ..tables.distance import SMALL_STATES
from ..workers import (
    QUEUED,
    WARM_UP_LIMIT,
    WorkerPool,
    analyze_job,
    generate_job,
    server_tables_job,
    solve_job,
)
from ..workers.jobs import when_compiled
from .errors import ApiError


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
HARD = Lane(workers=2, queue=8, per_client=2, time_limit=60.0, grace=20.0, nice=10, retry_after=10)
#: a board of at most this many cells is cheap (the 8-puzzle: 181,440 positions; every method
#: solves any of them in well under a second) except by IDA* without a heuristic (seconds)
CHEAP_MAX_CELLS = 9
#: a generation of at most this many steps (n x moves, or n x cells when uniform) is cheap
CHEAP_MAX_STEPS = 100_000
#: request bodies larger than this are refused (413)
MAX_BODY = 16 * 1024
#: boards with more cells are refused by every endpoint
MAX_CELLS = 1024
#: analysis (a complete breadth-first search) only for spaces small enough for a distance table
#: made on the spot
MAX_ANALYZE_STATES = SMALL_STATES
#: a solve's seconds where its request gives none
DEFAULT_TIME_LIMIT = 10.0
MAX_TIME_LIMIT = HARD.time_limit
#: a hint's seconds of search where its request gives none
HINT_TIME_LIMIT = 2.0
#: each method's seconds in the page's lab, to start with (a comparison asks its own)
LAB_TIME_LIMIT = 5.0
#: the most nodes of a search the lab may have recorded for playing it back (a comparison's
#: ``record``: about 100 bytes of JSON each)
MAX_RECORD = 2_000
#: memory a solve may use (the searches that store states refuse to go past it)
MAX_SOLVE_BYTES = 2 * 1024**3
#: bytes of the tables it writes that the server keeps in its table cache at most (``slidelab
#: serve --cache-limit``): after each job the least recently used of them are deleted
#: (:func:`slidelab.cache.trim_tables`; the tables in the cache when it started never are).  The
#: 15-puzzle's 7-8 tables are 1.15 GB, its 6-6-3 23 MB, the 24-puzzle's 6-6-6-6 1.04 GB a goal
CACHE_LIMIT = 2 * 1024**3


def is_cheap(cells: int, options: SearchOptions | None = None) -> bool:
    """The lane rule for solves and analyses: at most CHEAP_MAX_CELLS cells, and not IDA*
    without a heuristic (it searches the whole space again for each bound).  ``options``
    (None for an analysis) are read already: their names are canonical, and nothing is
    resolved again here."""
    uninformed_ida = (
        options is not None
        and options.method == "idastar"
        and options.heuristic is not None
        and not HEURISTICS[options.heuristic].informed
    )
    return cells <= CHEAP_MAX_CELLS and not uninformed_ida


def _client(request: Request) -> str:
    """The client a job belongs to and whose allowance it counts in: its host as uvicorn sees
    it (``X-Forwarded-For`` believed from 127.0.0.1 only)."""
    return request.client.host if request.client else "-"


_SMALL = "1 2 3/4 5 6/0 7 8"


def _warm_up_solves(board: str = _SMALL) -> tuple[tuple, tuple]:
    """Solves of ``board`` by every method of the table, in its order (the most used first),
    where that is cheap (:func:`is_cheap`: not IDA* without a heuristic), as two lists: those
    a worker's warm-up runs (each method as the page's defaults ask for it, with its own
    heuristic), and those it runs only where their kernels are compiled (each method that
    builds a heuristic with each other heuristic: :func:`~slidelab.workers.jobs.when_compiled`),
    which the server's builder compiles later on a first start.  Between them, every kernel
    a solve of the 8-puzzle may need."""
    puzzle, first, others = read_puzzle(board), [], []
    cells = puzzle.width * puzzle.height
    for method in METHODS.values():
        guided = method.tables == "heuristic"
        for heuristic in [None, *HEURISTICS] if guided else [None]:
            options = read_options(method=method.name, heuristic=heuristic)
            if is_cheap(cells, options):
                (first if heuristic is None else others).append(
                    solve_job(check_request(puzzle, options))
                )
    return tuple(first), tuple(others)


#: the warm-up's solves (:func:`_warm_up_solves`); the others are what the server's builder
#: compiles after its later tables, on a first start, so that their first use loads their
#: kernels rather than compiling them
_FIRST_SOLVES, LATER_COMPILE = _warm_up_solves()


#: what the cheap lane's workers do when they start, before they say they are ready: load the
#: kernels of every method on the 8-puzzle with its own heuristic, of the analysis and of the
#: generator, the most used first, then those of each method with each heuristic where they are
#: compiled (on a first start the builder compiles them later: :data:`LATER_COMPILE`); a job
#: that comes meanwhile is served after the warm-up jobs like it (its kernels are loaded
#: before its clock starts), the rest of the warm-up after it
CHEAP_WARM_UP = (
    *_FIRST_SOLVES,
    *(when_compiled(job) for job in LATER_COMPILE),
    analyze_job(goal_board("1 2/3 0")),
    generate_job(goal_board(_SMALL), n=1, moves=10, seed=0),
)
#: the hard lane's: the server's first tables (:func:`slidelab.search.policy.server_tables`),
#: the larger boards' first (the 15-puzzle's first pattern databases for both goals: built
#: once, then loaded from the cache; a 15-puzzle solve that comes meanwhile waits for its
#: goal's, not on its clock), a 15-puzzle solve with them (IDA*'s kernels with pattern
#: databases), the small boards' (the 8-puzzle's distance tables: a cheap solve meanwhile does
#: not wait for them, it searches without: on a first start their kernels take minutes to
#: compile), then the same as the cheap lane's
HARD_WARM_UP = (
    server_tables_job("first", smallest=CHEAP_MAX_CELLS + 1),
    solve_job(read_request("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15")),
    server_tables_job("first", largest=CHEAP_MAX_CELLS),
    *CHEAP_WARM_UP,
)
#: the priority the server's builder of later tables lowers itself by once it builds them (it
#: yields the CPU to everything else: the lanes, and any other work of the machine)
BUILDER_NICE = 19
#: seconds a job its client polls (started with ``wait: false``) runs on once nobody has asked
#: for it: a closed tab's job ends (the page polls several times a second, and at least once a
#: second in a hidden tab; it also cancels its job when it is closed)
UNPOLLED_SECONDS = 5.0
#: seconds between looks for such jobs
REAP_EVERY = 0.5
#: seconds the builder of later tables may take in all before it is stopped
BUILD_LIMIT = 6 * 3600.0


async def _client_gone(request: Request) -> None:
    """Returns when the client disconnects (the request's body has been read already)."""
    try:
        while (await request.receive())["type"] != "http.disconnect":
            pass
    except Exception:  # noqa: BLE001 - the connection is broken: gone all the same
        pass


class Lanes:
    """An application's lanes (``{"cheap": Lane, "hard": Lane}``) and their worker pools.

    The pools live on ``app.state.pools`` (made by the lifespan, or by the first request
    if it did not run); ``warm_ups`` are the jobs each lane's workers run when they start;
    ``cache_limit`` the bytes of tables the table cache keeps (None: no limit).
    """

    def __init__(
        self,
        lanes: dict,
        warm_ups: dict,
        cache_limit: int | None = CACHE_LIMIT,
        later_tables: bool = True,
        builder: bool = True,
    ):
        self.lanes, self.warm_ups, self.cache_limit = lanes, warm_ups, cache_limit
        #: whether the server's first warm-up is under way (:meth:`warm_up`)
        self.warming = False
        #: whether :meth:`warm_up` starts the builder, and whether it builds the later tables
        #: (else it only reports the server's tables)
        self.start, self.later_tables = builder, later_tables
        #: the builder's pool and its job, while it is there (:meth:`warm_up`)
        self.builder: WorkerPool | None = None
        self.building = None

    def __getitem__(self, name: str) -> Lane:
        return self.lanes[name]

    def pools(self, app: FastAPI) -> dict:
        """The app's worker pools by lane."""
        pools = getattr(app.state, "pools", None)
        if pools is None:
            pools = app.state.pools = {
                name: WorkerPool(
                    lane.workers,
                    grace=lane.grace,
                    nice=lane.nice,
                    warm_up=self.warm_ups[name],
                    cache_limit=self.cache_limit,
                )
                for name, lane in self.lanes.items()
            }
        return pools

    def admit(self, request: Request, name: str):
        """The lane's pool and the client, or 429 when the lane or the client's share is full."""
        lane, pool = self.lanes[name], self.pools(request.app)[name]
        client = _client(request)
        retry = {"Retry-After": str(lane.retry_after)}
        mine = pool.active(client)
        if mine >= lane.per_client:
            raise ApiError(
                429,
                f"too many {name} jobs: you have {mine} waiting or running, the"
                f" most one client may have; wait for one to finish or cancel it",
                headers=retry,
                lane=name,
            )
        if pool.active() >= lane.workers + lane.queue:
            raise ApiError(
                429,
                f"the server is busy: {pool.active()} {name} jobs running or"
                f" waiting, the most it holds; retry in {lane.retry_after} s",
                headers=retry,
                lane=name,
            )
        return pool, client

    def find(self, request: Request, job_id: str, kind: str = "solve", called: str = "solve"):
        """The pool and the job of a ``kind`` (``solve``, ``compare``, ``hint``) of the client
        asking (the one that started it, by the address its allowance goes by), or 404 naming
        what it is ``called``: another client's job is not found, whoever knows its id."""
        client = _client(request)
        for pool in self.pools(request.app).values():
            job = pool.get(job_id)
            if job is not None and job.kind == kind and job.owner == client:
                if job.watched is not None:
                    job.watched = time.monotonic()
                return pool, job
        raise ApiError(404, f"no {called} with id {job_id!r}")

    async def reap(self, pools: dict) -> None:
        """Forever: end the jobs whose client polls them but has not asked for
        :data:`UNPOLLED_SECONDS` (a page closed, a script gone), freeing their workers."""
        while True:
            await asyncio.sleep(REAP_EVERY)
            for pool in pools.values():
                for job in pool.unwatched(UNPOLLED_SECONDS):
                    pool.cancel(job.id)

    async def wait(self, job, request: Request, pool: WorkerPool, lane: str):
        """``job`` once finished.  If the client goes away first, nobody waits for the job any
        more: it is cancelled (ApiError 409), and its worker freed for others; except that a
        cheap job already running, or handed to a worker still warming up, is left to finish
        (within its 2 s, sooner than a fresh worker would warm up in place of a killed one)."""
        finished = asyncio.wrap_future(job.future)
        gone = asyncio.ensure_future(_client_gone(request))
        try:
            await asyncio.wait({finished, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
        if not finished.done():
            if lane != "cheap" or (job.status == QUEUED and job.warm_up is None):
                pool.cancel(job.id)
            raise ApiError(409, "cancelled: the client went away", kind="cancelled", id=job.id)
        return job

    def status(self, app: FastAPI) -> dict:
        """Each lane's readiness, load and limits (``GET /api/status``)."""
        out = {}
        for name, pool in self.pools(app).items():
            lane = self.lanes[name]
            out[name] = {
                "ready": pool.ready(),
                "workers": lane.workers,
                "active": pool.active(),
                "waiting": pool.waiting(),
                "queue": lane.queue,
                "per_client": lane.per_client,
                "time_limit": lane.time_limit,
            }
        return out

    def tables(self) -> list:
        """The server's own tables and their states, as its builder last reported them
        (``GET /api/status``'s ``tables``; empty before its first report, or without one)."""
        job = self.building
        if job is None:
            return []
        found = job.result if isinstance(job.result, dict) else job.progress
        return list((found or {}).get("tables") or [])

    def start_builder(self) -> None:
        """Start the builder of the server's tables (:func:`~slidelab.workers.server_tables_job`
        ``"later"``): a worker process of its own, which reports the state of every one of the
        server's tables (``GET /api/status``) at once and, once the lanes' warm-up has built
        the first ones, builds the later ones one at a time at the lowest priority
        (:data:`BUILDER_NICE`), within the table cache's limit (unless ``later_tables`` is
        false: a server that builds none); no request waits for it (a set of tables it is
        building is not ready: ``auto`` searches without it)."""
        self.builder = WorkerPool(1, grace=0.0, warm_up=())
        self.building = self.builder.submit(
            *server_tables_job(
                "later",
                cache_limit=self.cache_limit,
                nice=BUILDER_NICE,
                wait=WARM_UP_LIMIT,
                build=self.later_tables,
                compile=LATER_COMPILE,
            ),
            BUILD_LIMIT,
        )

    async def warm_up(self, pools: dict) -> None:
        """Start the workers and let them warm up, one a lane at first: a first worker of
        each lane (the cheap lane's for a page's first requests, which are cheap; the hard
        lane's builds the server's first tables of the larger boards meanwhile, the longest
        part of the warm-up), then each lane's others once its first is warm.  The first ones
        compile the kernels on a first start and cache them (tens of seconds each; mostly
        different ones: the 8-puzzle's methods, the pattern databases' builds); the later
        ones load them from numba's cache instead of compiling them too, on the same cores.  The
        warm-up builds the server's first tables (:data:`CHEAP_WARM_UP`, :data:`HARD_WARM_UP`);
        the builder (:meth:`start_builder`), started first, the later ones, and is let go
        when it is done.  ``self.warming`` is true until the workers are all warm
        (``GET /api/status``'s ``warm_up``), and stays false afterwards (a worker replaced
        later warms up in a few seconds)."""
        cheap, hard = pools["cheap"], pools["hard"]
        if self.start and self.builder is None:
            self.start_builder()

        async def ready(pool: WorkerPool, count: int | None = None) -> None:
            for _ in range(int(WARM_UP_LIMIT * 10)):
                if pool.ready(count):
                    return
                await asyncio.sleep(0.1)

        try:
            cheap.prestart(1)
            hard.prestart(1)
            await ready(cheap, 1)
            cheap.prestart()
            await ready(hard, 1)
            hard.prestart()
            await ready(cheap)
            await ready(hard)
        finally:
            self.warming = False
        if self.building is not None and self.builder is not None:
            await asyncio.wrap_future(self.building.future)
            await asyncio.to_thread(self.builder.close)

    async def close(self, pools: dict) -> None:
        builder = [self.builder] if self.builder is not None else []
        await asyncio.gather(
            *(asyncio.to_thread(pool.close) for pool in [*pools.values(), *builder])
        )
